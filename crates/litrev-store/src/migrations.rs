//! Schema migrations, one list per database, applied in order: SQLite records its version in
//! `PRAGMA user_version`, PostgreSQL in the `litrev_schema` table.
//!
//! Both lists end at the same schema; a change is added to each.

use crate::backend::{Connection, Sql};
use crate::error::{Error, Result};

/// Each entry upgrades a SQLite store by one version.
const SQLITE: &[&str] = &[
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
    r#"
ALTER TABLE steps ADD COLUMN seq INTEGER;
UPDATE steps SET seq = rowid;
ALTER TABLE runs ADD COLUMN lease_owner TEXT;
ALTER TABLE runs ADD COLUMN lease_until_ms INTEGER;
ALTER TABLE labels ADD COLUMN who TEXT NOT NULL DEFAULT '';
CREATE TABLE step_commits (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id TEXT NOT NULL REFERENCES runs(id),
    step TEXT NOT NULL,
    worker TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE TABLE blobs (
    sha256 TEXT PRIMARY KEY,
    bytes BLOB NOT NULL
);
CREATE TABLE outputs (
    run_id TEXT NOT NULL REFERENCES runs(id),
    path TEXT NOT NULL,
    sha256 TEXT NOT NULL REFERENCES blobs(sha256),
    PRIMARY KEY (run_id, path)
);
"#,
    r#"
CREATE TABLE http_cache (
    key TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    status INTEGER NOT NULL,
    content_type TEXT,
    body BLOB NOT NULL,
    fetched_ms INTEGER NOT NULL
);
CREATE TABLE llm_cache (
    key TEXT PRIMARY KEY,
    entry TEXT NOT NULL,
    stored_at TEXT NOT NULL
);
"#,
];

/// Each entry upgrades a PostgreSQL store by one version; the first is SQLite's first eight,
/// and each later one one of SQLite's.
const POSTGRES: &[&str] = &[
    r#"
CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    question TEXT NOT NULL,
    options TEXT NOT NULL,
    status TEXT NOT NULL,
    tool_version TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    parent TEXT REFERENCES runs(id),
    lease_owner TEXT,
    lease_until_ms BIGINT
);
CREATE TABLE steps (
    run_id TEXT NOT NULL REFERENCES runs(id),
    step TEXT NOT NULL,
    output TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    telemetry TEXT,
    seq BIGINT NOT NULL,
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
    position BIGINT NOT NULL,
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
    position BIGINT NOT NULL,
    decision TEXT NOT NULL,
    PRIMARY KEY (run_id, work_id)
);
CREATE TABLE events (
    id BIGSERIAL PRIMARY KEY,
    run_id TEXT NOT NULL,
    at TEXT NOT NULL,
    step TEXT NOT NULL,
    message TEXT NOT NULL
);
CREATE TABLE labels (
    id BIGSERIAL PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs(id),
    work_id TEXT NOT NULL,
    included BIGINT NOT NULL,
    at TEXT NOT NULL,
    who TEXT NOT NULL DEFAULT ''
);
CREATE INDEX labels_by_run ON labels(run_id, id);
CREATE TABLE run_events (
    id BIGSERIAL PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs(id),
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX run_events_by_run ON run_events(run_id, id);
CREATE TABLE revisions (
    id BIGSERIAL PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs(id),
    step TEXT NOT NULL,
    output TEXT NOT NULL,
    replaced_at TEXT NOT NULL
);
CREATE INDEX revisions_by_run ON revisions(run_id, step, id);
CREATE TABLE full_texts (
    sha256 TEXT PRIMARY KEY,
    format TEXT NOT NULL,
    bytes BYTEA NOT NULL,
    parsed TEXT NOT NULL
);
CREATE TABLE downloads (
    url TEXT PRIMARY KEY,
    sha256 TEXT NOT NULL REFERENCES full_texts(sha256),
    fetched_at TEXT NOT NULL
);
CREATE TABLE step_commits (
    id BIGSERIAL PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs(id),
    step TEXT NOT NULL,
    worker TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE TABLE blobs (
    sha256 TEXT PRIMARY KEY,
    bytes BYTEA NOT NULL
);
CREATE TABLE outputs (
    run_id TEXT NOT NULL REFERENCES runs(id),
    path TEXT NOT NULL,
    sha256 TEXT NOT NULL REFERENCES blobs(sha256),
    PRIMARY KEY (run_id, path)
);
"#,
    r#"
CREATE TABLE http_cache (
    key TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    status BIGINT NOT NULL,
    content_type TEXT,
    body BYTEA NOT NULL,
    fetched_ms BIGINT NOT NULL
);
CREATE TABLE llm_cache (
    key TEXT PRIMARY KEY,
    entry TEXT NOT NULL,
    stored_at TEXT NOT NULL
);
"#,
];

/// Any number: the key of the lock that lets one process at a time migrate a PostgreSQL store.
const MIGRATION_LOCK: i64 = 0x6c69_7472_6576;

/// Brings the schema up to date.
///
/// # Errors
/// When a migration fails or the database is newer than this build.
pub(crate) fn migrate(connection: &mut Connection) -> Result<()> {
    match connection {
        Connection::Sqlite(sqlite) => migrate_sqlite(sqlite),
        Connection::Postgres(_) => migrate_postgres(connection),
    }
}

fn migrate_sqlite(connection: &mut rusqlite::Connection) -> Result<()> {
    let current: i64 = connection.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    let known = SQLITE.len() as i64;
    if current > known {
        return Err(Error::TooNew {
            found: current,
            known,
        });
    }
    for (index, migration) in SQLITE.iter().enumerate().skip(current as usize) {
        let transaction =
            connection.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        transaction.execute_batch(migration)?;
        transaction.pragma_update(None, "user_version", index as i64 + 1)?;
        transaction.commit()?;
    }
    Ok(())
}

/// Migrates under an advisory lock: workers started together on a new database wait for the
/// first to finish rather than create the tables twice.
fn migrate_postgres(connection: &mut Connection) -> Result<()> {
    let mut transaction = connection.transaction()?;
    transaction.execute("SELECT pg_advisory_xact_lock(?1)", &[MIGRATION_LOCK.into()])?;
    transaction.batch("CREATE TABLE IF NOT EXISTS litrev_schema (version BIGINT NOT NULL)")?;
    let current = match transaction.query_opt("SELECT version FROM litrev_schema", &[])? {
        Some(row) => row.int(0)?,
        None => {
            transaction.execute("INSERT INTO litrev_schema (version) VALUES (0)", &[])?;
            0
        }
    };
    let known = POSTGRES.len() as i64;
    if current > known {
        return Err(Error::TooNew {
            found: current,
            known,
        });
    }
    for migration in POSTGRES.iter().skip(current as usize) {
        transaction.batch(migration)?;
    }
    transaction.execute("UPDATE litrev_schema SET version = ?1", &[known.into()])?;
    transaction.commit()
}
