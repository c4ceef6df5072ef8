//! The `Store`: runs, step outputs, works and each run's corpus, citations and decisions.

use std::collections::BTreeMap;
use std::path::Path;

use litrev_model::{
    Citation, CorpusEntry, Decision, FullText, Label, RunId, RunStatus, ScreeningDecision,
    TextFormat, Work, WorkId,
};
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{Error, Result};
use crate::migrations::migrate;

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')";

/// A handle on one store file.
pub struct Store {
    connection: Connection,
}

/// What creating a run needs.
#[derive(Debug, Clone)]
pub struct NewRun<'a> {
    /// The new run's id.
    pub id: &'a RunId,
    /// The question.
    pub question: &'a str,
    /// The run's options as JSON (opaque to the store).
    pub options_json: &'a str,
    /// litrev's version.
    pub tool_version: &'a str,
    /// The run it continues, when it is a follow-up.
    pub parent: Option<&'a RunId>,
}

/// A run as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRecord {
    /// Id.
    pub id: RunId,
    /// Question.
    pub question: String,
    /// Options as JSON.
    pub options_json: String,
    /// Status.
    pub status: RunStatus,
    /// litrev's version when the run was created.
    pub tool_version: String,
    /// Creation time (UTC, RFC 3339).
    pub created_at: String,
    /// Last update time (UTC, RFC 3339).
    pub updated_at: String,
    /// Names of the steps committed so far, in commit order.
    pub steps_done: Vec<String>,
    /// The run it continues, when it is a follow-up.
    pub parent: Option<RunId>,
}

/// An earlier version of a step's output, kept when a person revised it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revision {
    /// Increasing over the whole store.
    pub id: i64,
    /// When it was replaced (UTC, RFC 3339).
    pub replaced_at: String,
}

/// One event of a run's stream, as stored for the clients that follow the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEvent {
    /// Increasing over the whole store: a client resumes after the last id it saw.
    pub id: i64,
    /// What kind of event (`step`, `progress`, `notice`, `gate`, `done`, `failed`).
    pub kind: String,
    /// When it was stored, in milliseconds since the Unix epoch.
    pub stored_ms: i64,
    /// The event as JSON (opaque to the store).
    pub data: String,
}

/// Everything one step writes besides its own output, saved in the same transaction.
#[derive(Debug, Default)]
pub struct StepWrites<'a> {
    /// Works to store (inserted or replaced by id).
    pub works: &'a [Work],
    /// Corpus entries to add to the run.
    pub corpus: &'a [CorpusEntry],
    /// Citation edges to add to the run.
    pub citations: &'a [Citation],
    /// Decisions to set (replacing earlier ones for the same works).
    pub decisions: &'a [ScreeningDecision],
    /// What the step cost (time, memory, calls), as JSON opaque to the store.
    pub telemetry: Option<&'a str>,
    /// Full texts to keep (each once by its sha256, whichever run brought it).
    pub full_texts: &'a [StoredText],
    /// The URLs full texts were downloaded from, with the sha256 of what came (the later
    /// download of a URL replaces the earlier).
    pub downloads: &'a [(String, String)],
}

/// A full text as obtained (its bytes) and as read, kept under the sha256 of its bytes.
#[derive(Debug, Clone)]
pub struct StoredText {
    /// sha256 of `bytes`, lower-case hex.
    pub sha256: String,
    /// JATS or PDF.
    pub format: TextFormat,
    /// The file or download, as obtained.
    pub bytes: Vec<u8>,
    /// What the reader made of it; locators point into this.
    pub text: FullText,
}

impl Store {
    /// Opens (creating if needed) the store file, in WAL mode, with the schema up to date.
    ///
    /// # Errors
    /// When the file cannot be opened or migrated.
    pub fn open(path: &Path) -> Result<Store> {
        let open_error = |message: String| Error::Open {
            path: path.to_owned(),
            message,
        };
        if let Some(parent) = path
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
        {
            std::fs::create_dir_all(parent).map_err(|error| open_error(error.to_string()))?;
        }
        let mut connection =
            Connection::open(path).map_err(|error| open_error(error.to_string()))?;
        connection
            .pragma_update(None, "journal_mode", "WAL")
            .map_err(|error| open_error(error.to_string()))?;
        connection.pragma_update(None, "synchronous", "NORMAL")?;
        connection.pragma_update(None, "foreign_keys", "ON")?;
        connection.busy_timeout(std::time::Duration::from_secs(10))?;
        migrate(&mut connection)?;
        Ok(Store { connection })
    }

    /// Records a new run with status `running`.
    ///
    /// # Errors
    /// When the id is taken or the write fails.
    pub fn create_run(&self, run: &NewRun<'_>) -> Result<()> {
        self.connection.execute(
            &format!(
                "INSERT INTO runs (id, question, options, status, tool_version, created_at, updated_at, parent)
                 VALUES (?1, ?2, ?3, 'running', ?4, {NOW}, {NOW}, ?5)"
            ),
            params![
                run.id.as_str(),
                run.question,
                run.options_json,
                run.tool_version,
                run.parent.map(RunId::as_str)
            ],
        )?;
        Ok(())
    }

    /// One run.
    ///
    /// # Errors
    /// [`Error::UnknownRun`] when no run has the id.
    pub fn run(&self, id: &RunId) -> Result<RunRecord> {
        let row = self
            .connection
            .query_row(
                "SELECT id, question, options, status, tool_version, created_at, updated_at, parent
                 FROM runs WHERE id = ?1",
                params![id.as_str()],
                |row| {
                    Ok((
                        row.get::<_, String>(0)?,
                        row.get::<_, String>(1)?,
                        row.get::<_, String>(2)?,
                        row.get::<_, String>(3)?,
                        row.get::<_, String>(4)?,
                        row.get::<_, String>(5)?,
                        row.get::<_, String>(6)?,
                        row.get::<_, Option<String>>(7)?,
                    ))
                },
            )
            .optional()?
            .ok_or_else(|| Error::UnknownRun(id.to_string()))?;
        let (id_text, question, options_json, status, tool_version, created_at, updated_at, parent) =
            row;
        let status = status.parse().map_err(|_| Error::Decode {
            what: "run status",
            message: status.clone(),
        })?;
        let id = RunId::new_unchecked(id_text);
        let steps_done = self.steps_done(&id)?;
        Ok(RunRecord {
            id,
            question,
            options_json,
            status,
            tool_version,
            created_at,
            updated_at,
            steps_done,
            parent: parent.map(RunId::new_unchecked),
        })
    }

    /// Every run, newest first.
    ///
    /// # Errors
    /// When the query fails.
    pub fn runs(&self) -> Result<Vec<RunRecord>> {
        let mut statement = self
            .connection
            .prepare("SELECT id FROM runs ORDER BY created_at DESC, id DESC")?;
        let ids = statement
            .query_map([], |row| row.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<String>>>()?;
        ids.into_iter()
            .map(|id| self.run(&RunId::new_unchecked(id)))
            .collect()
    }

    /// Sets a run's status.
    ///
    /// # Errors
    /// When the write fails.
    pub fn set_status(&self, id: &RunId, status: RunStatus) -> Result<()> {
        self.connection.execute(
            &format!("UPDATE runs SET status = ?2, updated_at = {NOW} WHERE id = ?1"),
            params![id.as_str(), status.name()],
        )?;
        Ok(())
    }

    /// Names of the steps a run has committed, in commit order.
    ///
    /// # Errors
    /// When the query fails.
    pub fn steps_done(&self, id: &RunId) -> Result<Vec<String>> {
        let mut statement = self
            .connection
            .prepare("SELECT step FROM steps WHERE run_id = ?1 ORDER BY rowid")?;
        let steps = statement
            .query_map(params![id.as_str()], |row| row.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<String>>>()?;
        Ok(steps)
    }

    /// The stored output of a step, if the step was committed.
    ///
    /// # Errors
    /// When the query fails or the output does not decode as `T`.
    pub fn step_output<T: DeserializeOwned>(&self, id: &RunId, step: &str) -> Result<Option<T>> {
        let json: Option<String> = self
            .connection
            .query_row(
                "SELECT output FROM steps WHERE run_id = ?1 AND step = ?2",
                params![id.as_str(), step],
                |row| row.get(0),
            )
            .optional()?;
        json.map(|json| {
            serde_json::from_str(&json).map_err(|error| Error::Decode {
                what: "step output",
                message: format!("{step}: {error}"),
            })
        })
        .transpose()
    }

    /// Replaces a committed step's output with a person's revision, keeping the old output as
    /// a [`Revision`], and forgets the steps computed from it (`forget`) so that the run redoes
    /// them: all in one transaction.
    ///
    /// # Errors
    /// When the step was never committed, or a write fails; then nothing changes.
    pub fn revise_step<T: Serialize>(
        &mut self,
        id: &RunId,
        step: &str,
        output: &T,
        forget: &[&str],
    ) -> Result<Revision> {
        let output = to_json(output)?;
        let transaction = self.write_transaction()?;
        let copied = transaction.execute(
            &format!(
                "INSERT INTO revisions (run_id, step, output, replaced_at)
                 SELECT run_id, step, output, {NOW} FROM steps WHERE run_id = ?1 AND step = ?2"
            ),
            params![id.as_str(), step],
        )?;
        if copied == 0 {
            return Err(Error::Decode {
                what: "revision",
                message: format!("run {id} has no `{step}` output to revise"),
            });
        }
        let revision = transaction.query_row(
            "SELECT id, replaced_at FROM revisions WHERE id = last_insert_rowid()",
            [],
            |row| {
                Ok(Revision {
                    id: row.get(0)?,
                    replaced_at: row.get(1)?,
                })
            },
        )?;
        transaction.execute(
            "UPDATE steps SET output = ?3 WHERE run_id = ?1 AND step = ?2",
            params![id.as_str(), step, output],
        )?;
        for forgotten in forget {
            transaction.execute(
                "DELETE FROM steps WHERE run_id = ?1 AND step = ?2",
                params![id.as_str(), forgotten],
            )?;
        }
        transaction.execute(
            &format!("UPDATE runs SET updated_at = {NOW} WHERE id = ?1"),
            params![id.as_str()],
        )?;
        transaction.commit()?;
        Ok(revision)
    }

    /// The earlier outputs of a run's step, oldest first.
    ///
    /// # Errors
    /// When the query fails.
    pub fn revisions(&self, id: &RunId, step: &str) -> Result<Vec<Revision>> {
        let mut statement = self.connection.prepare(
            "SELECT id, replaced_at FROM revisions WHERE run_id = ?1 AND step = ?2 ORDER BY id",
        )?;
        let revisions = statement
            .query_map(params![id.as_str(), step], |row| {
                Ok(Revision {
                    id: row.get(0)?,
                    replaced_at: row.get(1)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<Revision>>>()?;
        Ok(revisions)
    }

    /// Appends an event to a run's stream; its id.
    ///
    /// # Errors
    /// When the write fails.
    pub fn append_event(&self, id: &RunId, kind: &str, data: &str) -> Result<i64> {
        self.connection.execute(
            "INSERT INTO run_events (run_id, kind, data, at)
             VALUES (?1, ?2, ?3, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
            params![id.as_str(), kind, data],
        )?;
        Ok(self.connection.last_insert_rowid())
    }

    /// A run's events after the one with id `after` (0: from the start), oldest first, at most
    /// `limit`.
    ///
    /// # Errors
    /// When the query fails.
    pub fn events_after(&self, id: &RunId, after: i64, limit: usize) -> Result<Vec<StoredEvent>> {
        let mut statement = self.connection.prepare(
            "SELECT id, kind, data, CAST(ROUND((julianday(at) - 2440587.5) * 86400000.0) AS INTEGER)
             FROM run_events WHERE run_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3",
        )?;
        let events = statement
            .query_map(params![id.as_str(), after, limit as i64], |row| {
                Ok(StoredEvent {
                    id: row.get(0)?,
                    kind: row.get(1)?,
                    data: row.get(2)?,
                    stored_ms: row.get(3)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<StoredEvent>>>()?;
        Ok(events)
    }

    /// Whether a run's stream holds an event of `kind`.
    ///
    /// # Errors
    /// When the query fails.
    pub fn has_event(&self, id: &RunId, kind: &str) -> Result<bool> {
        Ok(self.connection.query_row(
            "SELECT EXISTS (SELECT 1 FROM run_events WHERE run_id = ?1 AND kind = ?2)",
            params![id.as_str(), kind],
            |row| row.get(0),
        )?)
    }

    /// The telemetry of each step of a run that recorded one, in commit order.
    ///
    /// # Errors
    /// When the query fails or a record does not decode as `T`.
    pub fn step_telemetry<T: DeserializeOwned>(&self, id: &RunId) -> Result<Vec<T>> {
        let mut statement = self.connection.prepare(
            "SELECT step, telemetry FROM steps WHERE run_id = ?1 AND telemetry IS NOT NULL ORDER BY rowid",
        )?;
        let rows = statement
            .query_map(params![id.as_str()], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
            })?
            .collect::<rusqlite::Result<Vec<(String, String)>>>()?;
        rows.into_iter()
            .map(|(step, json)| {
                serde_json::from_str(&json).map_err(|error| Error::Decode {
                    what: "step telemetry",
                    message: format!("{step}: {error}"),
                })
            })
            .collect()
    }

    /// Saves a step's output and everything it wrote in one transaction: all or nothing.
    ///
    /// # Errors
    /// When a write fails; then nothing of the step is stored.
    pub fn commit_step<T: Serialize>(
        &mut self,
        id: &RunId,
        step: &str,
        output: &T,
        writes: &StepWrites<'_>,
    ) -> Result<()> {
        let output = serde_json::to_string(output).map_err(|error| Error::Decode {
            what: "step output",
            message: error.to_string(),
        })?;
        let transaction = self.write_transaction()?;
        put_works(&transaction, writes.works)?;
        {
            let mut next_position: i64 = transaction.query_row(
                "SELECT COALESCE(MAX(position) + 1, 0) FROM corpus WHERE run_id = ?1",
                params![id.as_str()],
                |row| row.get(0),
            )?;
            let mut insert = transaction.prepare(
                "INSERT OR IGNORE INTO corpus (run_id, work_id, position, entry) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for entry in writes.corpus {
                let inserted = insert.execute(params![
                    id.as_str(),
                    entry.work.to_string(),
                    next_position,
                    to_json(entry)?
                ])?;
                next_position += inserted as i64;
            }
            let mut insert = transaction.prepare(
                "INSERT OR IGNORE INTO citations (run_id, citing, cited) VALUES (?1, ?2, ?3)",
            )?;
            for citation in writes.citations {
                insert.execute(params![
                    id.as_str(),
                    citation.citing.to_string(),
                    citation.cited.to_string()
                ])?;
            }
            let first_position: i64 = transaction.query_row(
                "SELECT COALESCE(MAX(position) + 1, 0) FROM decisions WHERE run_id = ?1",
                params![id.as_str()],
                |row| row.get(0),
            )?;
            let mut upsert = transaction.prepare(
                "INSERT INTO decisions (run_id, work_id, position, decision) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (run_id, work_id) DO UPDATE SET decision = excluded.decision",
            )?;
            for (offset, decision) in writes.decisions.iter().enumerate() {
                upsert.execute(params![
                    id.as_str(),
                    decision.work.to_string(),
                    first_position + offset as i64,
                    to_json(decision)?
                ])?;
            }
        }
        {
            let mut insert = transaction.prepare(
                "INSERT OR IGNORE INTO full_texts (sha256, format, bytes, parsed) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for stored in writes.full_texts {
                let format = match stored.format {
                    TextFormat::Jats => "jats",
                    TextFormat::Pdf => "pdf",
                };
                insert.execute(params![
                    stored.sha256,
                    format,
                    stored.bytes,
                    to_json(&stored.text)?
                ])?;
            }
        }
        {
            let mut insert = transaction.prepare(&format!(
                "INSERT OR REPLACE INTO downloads (url, sha256, fetched_at) VALUES (?1, ?2, {NOW})"
            ))?;
            for (url, sha256) in writes.downloads {
                insert.execute(params![url, sha256])?;
            }
        }
        transaction.execute(
            &format!(
                "INSERT OR REPLACE INTO steps (run_id, step, output, finished_at, telemetry) VALUES (?1, ?2, ?3, {NOW}, ?4)"
            ),
            params![id.as_str(), step, output, writes.telemetry],
        )?;
        transaction.execute(
            &format!("UPDATE runs SET updated_at = {NOW} WHERE id = ?1"),
            params![id.as_str()],
        )?;
        transaction.commit()?;
        Ok(())
    }

    /// The bytes last downloaded from `url`, when a run stored them: a copy fetched before is
    /// read again rather than downloaded again.
    ///
    /// # Errors
    /// When the query fails.
    pub fn downloaded(&self, url: &str) -> Result<Option<Vec<u8>>> {
        Ok(self
            .connection
            .query_row(
                "SELECT full_texts.bytes FROM downloads JOIN full_texts USING (sha256) WHERE downloads.url = ?1",
                params![url],
                |row| row.get(0),
            )
            .optional()?)
    }

    /// A stored full text as read, by the sha256 of its bytes.
    ///
    /// # Errors
    /// When the query fails or the stored reading does not decode.
    pub fn full_text(&self, sha256: &str) -> Result<Option<FullText>> {
        let parsed: Option<String> = self
            .connection
            .query_row(
                "SELECT parsed FROM full_texts WHERE sha256 = ?1",
                params![sha256],
                |row| row.get(0),
            )
            .optional()?;
        parsed
            .map(|parsed| {
                serde_json::from_str(&parsed).map_err(|error| Error::Decode {
                    what: "full text",
                    message: error.to_string(),
                })
            })
            .transpose()
    }

    /// Stored works for the given ids (any known alias), keyed by the id asked for.
    ///
    /// # Errors
    /// When the query fails or a record does not decode.
    pub fn works(&self, ids: &[WorkId]) -> Result<BTreeMap<WorkId, Work>> {
        let mut statement = self.connection.prepare(
            "SELECT w.record FROM work_aliases a JOIN works w ON w.id = a.work_id WHERE a.alias = ?1",
        )?;
        let mut found = BTreeMap::new();
        for id in ids {
            let record: Option<String> = statement
                .query_row(params![id.to_string()], |row| row.get(0))
                .optional()?;
            if let Some(record) = record {
                found.insert(id.clone(), from_json::<Work>("work", &record)?);
            }
        }
        Ok(found)
    }

    /// A run's corpus in the order works entered it.
    ///
    /// # Errors
    /// When the query fails or an entry does not decode.
    pub fn corpus(&self, id: &RunId) -> Result<Vec<CorpusEntry>> {
        self.json_rows(
            "corpus entry",
            "SELECT entry FROM corpus WHERE run_id = ?1 ORDER BY position",
            id,
        )
    }

    /// A run's decisions in the order they were first made.
    ///
    /// # Errors
    /// When the query fails or a decision does not decode.
    pub fn decisions(&self, id: &RunId) -> Result<Vec<ScreeningDecision>> {
        self.json_rows(
            "decision",
            "SELECT decision FROM decisions WHERE run_id = ?1 ORDER BY position",
            id,
        )
    }

    /// A run's citation edges, sorted.
    ///
    /// # Errors
    /// When the query fails or an id does not parse.
    pub fn citations(&self, id: &RunId) -> Result<Vec<Citation>> {
        let mut statement = self.connection.prepare(
            "SELECT citing, cited FROM citations WHERE run_id = ?1 ORDER BY citing, cited",
        )?;
        let rows = statement
            .query_map(params![id.as_str()], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
            })?
            .collect::<rusqlite::Result<Vec<(String, String)>>>()?;
        rows.into_iter()
            .map(|(citing, cited)| {
                let parse = |text: &str| {
                    text.parse::<WorkId>().map_err(|error| Error::Decode {
                        what: "work id",
                        message: error.to_string(),
                    })
                };
                Ok(Citation {
                    citing: parse(&citing)?,
                    cited: parse(&cited)?,
                })
            })
            .collect()
    }

    /// Records a person's label, committed at once: a killed session loses nothing given.
    ///
    /// # Errors
    /// When the write fails.
    pub fn add_label(&self, id: &RunId, label: &Label) -> Result<()> {
        insert_label(&self.connection, id, label)
    }

    /// Records many labels in one transaction: all or none.
    ///
    /// # Errors
    /// When a write fails; then none is stored.
    pub fn add_labels(&mut self, id: &RunId, labels: &[Label]) -> Result<()> {
        let transaction = self.write_transaction()?;
        for label in labels {
            insert_label(&transaction, id, label)?;
        }
        transaction.commit()?;
        Ok(())
    }

    /// Takes back the most recent label of a run, returning it.
    ///
    /// # Errors
    /// When the query fails.
    pub fn undo_label(&self, id: &RunId) -> Result<Option<Label>> {
        let last: Option<(i64, String, bool)> = self
            .connection
            .query_row(
                "SELECT id, work_id, included FROM labels WHERE run_id = ?1 ORDER BY id DESC LIMIT 1",
                params![id.as_str()],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
            )
            .optional()?;
        let Some((row, work, included)) = last else {
            return Ok(None);
        };
        self.connection
            .execute("DELETE FROM labels WHERE id = ?1", params![row])?;
        Ok(Some(label_of(&work, included)?))
    }

    /// A run's labels in the order given; a later label of a work overrides an earlier one.
    ///
    /// # Errors
    /// When the query fails or an id does not parse.
    pub fn labels(&self, id: &RunId) -> Result<Vec<Label>> {
        let mut statement = self
            .connection
            .prepare("SELECT work_id, included FROM labels WHERE run_id = ?1 ORDER BY id")?;
        let rows = statement
            .query_map(params![id.as_str()], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, bool>(1)?))
            })?
            .collect::<rusqlite::Result<Vec<(String, bool)>>>()?;
        rows.iter()
            .map(|(work, included)| label_of(work, *included))
            .collect()
    }

    /// Appends a line to a run's event log.
    ///
    /// # Errors
    /// When the write fails.
    pub fn log_event(&self, id: &RunId, step: &str, message: &str) -> Result<()> {
        self.connection.execute(
            &format!("INSERT INTO events (run_id, at, step, message) VALUES (?1, {NOW}, ?2, ?3)"),
            params![id.as_str(), step, message],
        )?;
        Ok(())
    }

    /// A transaction that takes the write lock when it begins: one that read first and wrote
    /// later could not upgrade while another connection writes (SQLite answers "database is
    /// locked" at once, without waiting), and several workers write to one store.
    fn write_transaction(&mut self) -> Result<rusqlite::Transaction<'_>> {
        Ok(self
            .connection
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?)
    }

    fn json_rows<T: DeserializeOwned>(
        &self,
        what: &'static str,
        sql: &str,
        id: &RunId,
    ) -> Result<Vec<T>> {
        let mut statement = self.connection.prepare(sql)?;
        let rows = statement
            .query_map(params![id.as_str()], |row| row.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<String>>>()?;
        rows.iter().map(|json| from_json(what, json)).collect()
    }
}

/// Inserts one label (a plain connection or a transaction: both deref to `Connection`).
fn insert_label(connection: &Connection, id: &RunId, label: &Label) -> Result<()> {
    connection
        .prepare_cached(&format!(
            "INSERT INTO labels (run_id, work_id, included, at) VALUES (?1, ?2, ?3, {NOW})"
        ))?
        .execute(params![
            id.as_str(),
            label.work.to_string(),
            label.decision == Decision::Include
        ])?;
    Ok(())
}

fn label_of(work: &str, included: bool) -> Result<Label> {
    let work = work.parse::<WorkId>().map_err(|error| Error::Decode {
        what: "work id",
        message: error.to_string(),
    })?;
    let decision = if included {
        Decision::Include
    } else {
        Decision::Exclude
    };
    Ok(Label { work, decision })
}

fn put_works(transaction: &rusqlite::Transaction<'_>, works: &[Work]) -> Result<()> {
    // Upserts, not REPLACE: a REPLACE deletes first, which makes SQLite check every alias row.
    let mut insert = transaction.prepare(
        "INSERT INTO works (id, record) VALUES (?1, ?2)
         ON CONFLICT (id) DO UPDATE SET record = excluded.record",
    )?;
    let mut alias = transaction.prepare(
        "INSERT INTO work_aliases (alias, work_id) VALUES (?1, ?2)
         ON CONFLICT (alias) DO UPDATE SET work_id = excluded.work_id",
    )?;
    for work in works {
        let id = work.id().to_string();
        insert.execute(params![id, to_json(work)?])?;
        for other in work.ids.all() {
            alias.execute(params![other.to_string(), id])?;
        }
    }
    Ok(())
}

fn to_json<T: Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|error| Error::Decode {
        what: "value",
        message: error.to_string(),
    })
}

fn from_json<T: DeserializeOwned>(what: &'static str, json: &str) -> Result<T> {
    serde_json::from_str(json).map_err(|error| Error::Decode {
        what,
        message: error.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use litrev_model::{Decision, Origin, ReasonCode, Reviewer};

    use super::*;

    fn stored_text() -> StoredText {
        StoredText {
            sha256: "abc".into(),
            format: TextFormat::Pdf,
            bytes: b"%PDF-1.7".to_vec(),
            text: FullText {
                format: TextFormat::Pdf,
                title: None,
                ids: Vec::new(),
                abstract_paragraphs: Vec::new(),
                sections: Vec::new(),
                references: Vec::new(),
            },
        }
    }

    fn work(id: &str, doi: &str) -> Work {
        let mut work = Work::stub(id.parse().expect("id"));
        work.ids.add(doi.parse().expect("doi"));
        work.title = Some(format!("Title of {id}"));
        work
    }

    /// A store at `path` holding one new run.
    fn store_with_run(path: &Path, run: &RunId) -> Store {
        let store = Store::open(path).expect("open");
        store
            .create_run(&NewRun {
                id: run,
                question: "Q?",
                options_json: "{}",
                tool_version: "0.0.0",
                parent: None,
            })
            .expect("create");
        store
    }

    #[test]
    fn a_runs_stream_is_asked_for_an_event_kind() {
        let folder = tempfile::tempdir().expect("temp dir");
        let run: RunId = "run-1".parse().expect("run id");
        let store = store_with_run(&folder.path().join("store.sqlite"), &run);
        assert!(!store.has_event(&run, "downloads_planned").expect("asks"));
        store.append_event(&run, "notice", "{}").expect("appends");
        store
            .append_event(&run, "downloads_planned", "{}")
            .expect("appends");
        assert!(store.has_event(&run, "downloads_planned").expect("asks"));
        let other: RunId = "run-2".parse().expect("run id");
        assert!(!store.has_event(&other, "downloads_planned").expect("asks"));
    }

    #[test]
    fn a_committed_step_is_all_there_after_reopening() {
        let folder = tempfile::tempdir().expect("temp dir");
        let path = folder.path().join("store.sqlite");
        let run: RunId = "run-1".parse().expect("run id");
        let works = [work("W1", "10.1/a"), work("W2", "10.1/b")];
        let corpus: Vec<CorpusEntry> = works
            .iter()
            .map(|work| CorpusEntry {
                work: work.id(),
                stage: 0,
                origin: Origin::Search,
                score: 0.5,
                queries: vec!["q1".into()],
            })
            .collect();
        let citations = [Citation {
            citing: works[1].id(),
            cited: works[0].id(),
        }];
        let decisions = [ScreeningDecision {
            work: works[0].id(),
            decision: Decision::Include,
            reason: ReasonCode::Relevant,
            rationale: "close to the question".into(),
            score: 0.5,
            reviewer: Reviewer::Model,
        }];
        {
            let mut store = store_with_run(&path, &run);
            store
                .commit_step(
                    &run,
                    "discover",
                    &vec!["q1"],
                    &StepWrites {
                        works: &works,
                        corpus: &corpus,
                        citations: &citations,
                        decisions: &decisions,
                        telemetry: Some(r#"{"step":"discover","wall_seconds":1.5}"#),
                        full_texts: &[stored_text()],
                        downloads: &[("https://example.org/a.pdf".into(), "abc".into())],
                    },
                )
                .expect("commit");
        }
        let store = Store::open(&path).expect("reopen");
        assert_eq!(
            store.full_text("abc").expect("reads"),
            Some(stored_text().text),
            "a full text is kept by its sha256"
        );
        assert_eq!(store.full_text("other").expect("reads"), None);
        assert_eq!(
            store
                .downloaded("https://example.org/a.pdf")
                .expect("reads"),
            Some(b"%PDF-1.7".to_vec()),
            "a download is known by its URL"
        );
        assert_eq!(
            store
                .downloaded("https://example.org/b.pdf")
                .expect("reads"),
            None
        );
        let telemetry: Vec<serde_json::Value> = store.step_telemetry(&run).expect("telemetry");
        assert_eq!(telemetry.len(), 1, "{telemetry:?}");
        assert_eq!(telemetry[0]["wall_seconds"], 1.5);
        let record = store.run(&run).expect("run");
        assert_eq!(record.status, RunStatus::Running);
        assert_eq!(record.steps_done, vec!["discover".to_owned()]);
        let output: Vec<String> = store
            .step_output(&run, "discover")
            .expect("read")
            .expect("some");
        assert_eq!(output, vec!["q1".to_owned()]);
        assert_eq!(
            store
                .step_output::<Vec<String>>(&run, "screen")
                .expect("read"),
            None
        );
        assert_eq!(store.corpus(&run).expect("corpus"), corpus);
        assert_eq!(store.citations(&run).expect("citations").len(), 1);
        assert_eq!(store.decisions(&run).expect("decisions"), decisions);
        let by_doi: WorkId = "10.1/B".parse().expect("doi");
        let found = store.works(std::slice::from_ref(&by_doi)).expect("works");
        assert_eq!(found[&by_doi].id().to_string(), "W2");
    }

    #[test]
    fn labels_are_kept_one_by_one_and_can_be_undone() {
        let folder = tempfile::tempdir().expect("temp dir");
        let path = folder.path().join("s.sqlite");
        let run: RunId = "run-1".parse().expect("run id");
        let label = |id: &str, decision| Label {
            work: id.parse().expect("id"),
            decision,
        };
        {
            let mut store = store_with_run(&path, &run);
            store
                .add_label(&run, &label("W1", Decision::Include))
                .expect("label");
            store
                .add_labels(
                    &run,
                    &[
                        label("W2", Decision::Exclude),
                        label("W3", Decision::Include),
                    ],
                )
                .expect("labels");
            assert_eq!(
                store.undo_label(&run).expect("undo"),
                Some(label("W3", Decision::Include))
            );
        }
        let store = Store::open(&path).expect("reopen");
        assert_eq!(
            store.labels(&run).expect("labels"),
            vec![
                label("W1", Decision::Include),
                label("W2", Decision::Exclude)
            ]
        );
    }

    #[test]
    fn unknown_runs_say_what_to_do() {
        let folder = tempfile::tempdir().expect("temp dir");
        let store = Store::open(&folder.path().join("s.sqlite")).expect("open");
        let error = store
            .run(&"nope".parse().expect("id"))
            .expect_err("unknown");
        assert!(error.to_string().contains("litrev runs"), "{error}");
    }

    #[test]
    fn a_store_from_a_newer_litrev_is_refused() {
        let folder = tempfile::tempdir().expect("temp dir");
        let path = folder.path().join("s.sqlite");
        {
            let connection = Connection::open(&path).expect("open");
            connection
                .pragma_update(None, "user_version", 99)
                .expect("pragma");
        }
        let error = Store::open(&path).err().expect("too new");
        assert!(matches!(error, Error::TooNew { found: 99, .. }));
    }

    #[test]
    fn a_revision_keeps_the_old_output_and_forgets_what_followed() {
        let folder = tempfile::tempdir().expect("temp dir");
        let run: RunId = "run-1".parse().expect("run id");
        let mut store = store_with_run(&folder.path().join("store.sqlite"), &run);
        for (step, output) in [("write", "first"), ("audit", "ok"), ("publish", "files")] {
            store
                .commit_step(&run, step, &output, &StepWrites::default())
                .expect("commit");
        }
        let revision = store
            .revise_step(&run, "write", &"second", &["audit", "publish"])
            .expect("revise");
        assert_eq!(store.steps_done(&run).expect("steps"), vec!["write"]);
        assert_eq!(
            store.step_output::<String>(&run, "write").expect("read"),
            Some("second".to_owned())
        );
        assert_eq!(
            store.revisions(&run, "write").expect("revisions"),
            vec![revision]
        );
        let missing = store.revise_step(&run, "organise", &"x", &[]);
        assert!(missing.is_err(), "a step never committed cannot be revised");
        assert_eq!(
            store.revisions(&run, "organise").expect("revisions"),
            vec![]
        );
    }
}
