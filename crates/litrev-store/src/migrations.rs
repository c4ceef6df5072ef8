//! Schema migrations, applied in order and recorded in `PRAGMA user_version`.

use rusqlite::Connection;

use crate::error::{Error, Result};

/// Each entry upgrades the schema by one version.
const MIGRATIONS: &[&str] = &[
    r#"
CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    question TEXT NOT NULL,
    options TEXT NOT NULL,
    status TEXT NOT NULL,
    tool_version TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE steps (
    run_id TEXT NOT NULL REFERENCES runs(id),
    step TEXT NOT NULL,
    output TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    PRIMARY KEY (run_id, step)
);
CREATE TABLE works (
    id TEXT PRIMARY KEY,
    record TEXT NOT NULL
);
CREATE TABLE work_aliases (
    alias TEXT PRIMARY KEY,
    work_id TEXT NOT NULL REFERENCES works(id)
);
CREATE INDEX work_aliases_by_work ON work_aliases(work_id);
CREATE TABLE corpus (
    run_id TEXT NOT NULL REFERENCES runs(id),
    work_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (run_id, work_id)
);
CREATE TABLE citations (
    run_id TEXT NOT NULL REFERENCES runs(id),
    citing TEXT NOT NULL,
    cited TEXT NOT NULL,
    PRIMARY KEY (run_id, citing, cited)
);
CREATE TABLE decisions (
    run_id TEXT NOT NULL REFERENCES runs(id),
    work_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    decision TEXT NOT NULL,
    PRIMARY KEY (run_id, work_id)
);
CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id TEXT NOT NULL,
    at TEXT NOT NULL,
    step TEXT NOT NULL,
    message TEXT NOT NULL
);
"#,
    r#"
CREATE TABLE labels (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id TEXT NOT NULL REFERENCES runs(id),
    work_id TEXT NOT NULL,
    included INTEGER NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX labels_by_run ON labels(run_id, id);
"#,
    r#"
ALTER TABLE steps ADD COLUMN telemetry TEXT;
"#,
    r#"
CREATE TABLE run_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id TEXT NOT NULL REFERENCES runs(id),
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX run_events_by_run ON run_events(run_id, id);
"#,
    r#"
CREATE TABLE revisions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id TEXT NOT NULL REFERENCES runs(id),
    step TEXT NOT NULL,
    output TEXT NOT NULL,
    replaced_at TEXT NOT NULL
);
CREATE INDEX revisions_by_run ON revisions(run_id, step, id);
ALTER TABLE runs ADD COLUMN parent TEXT REFERENCES runs(id);
"#,
    r#"
CREATE TABLE full_texts (
    sha256 TEXT PRIMARY KEY,
    format TEXT NOT NULL,
    bytes BLOB NOT NULL,
    parsed TEXT NOT NULL
);
"#,
    r#"
CREATE TABLE downloads (
    url TEXT PRIMARY KEY,
    sha256 TEXT NOT NULL REFERENCES full_texts(sha256),
    fetched_at TEXT NOT NULL
);
"#,
];

/// Brings the schema up to date.
///
/// # Errors
/// When a migration fails or the file is newer than this build.
pub(crate) fn migrate(connection: &mut Connection) -> Result<()> {
    let current: i64 = connection.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    let known = MIGRATIONS.len() as i64;
    if current > known {
        return Err(Error::TooNew {
            found: current,
            known,
        });
    }
    for (index, migration) in MIGRATIONS.iter().enumerate().skip(current as usize) {
        let transaction =
            connection.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        transaction.execute_batch(migration)?;
        transaction.pragma_update(None, "user_version", index as i64 + 1)?;
        transaction.commit()?;
    }
    Ok(())
}
