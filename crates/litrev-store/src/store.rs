//! The `Store`: runs, step outputs, works and each run's corpus, citations and decisions.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use litrev_model::{
    Citation, CorpusEntry, Decision, FullText, Label, RunId, RunStatus, ScreeningDecision,
    TextFormat, Work, WorkId,
};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::backend::{Cell, Connection, Location, Param, Postgres, Sql, Transaction};
use crate::error::{Error, Result};
use crate::migrations::migrate;

/// A handle on one store: a SQLite file or a PostgreSQL database.
pub struct Store {
    /// The connection; a cell because reads take `&self` while a client needs `&mut`.
    db: RefCell<Connection>,
    /// The worker whose lease fences this handle's writes to runs ([`Store::hold`]).
    holder: Option<String>,
    /// Who gives the labels this handle adds ([`Store::label_as`]).
    labeller: String,
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
    /// The files of the run's output folder (path inside the folder, bytes), replacing those
    /// kept before, so that any machine can write the folder out ([`Store::outputs`]).
    pub outputs: &'a [(String, Vec<u8>)],
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
    /// Opens (creating if needed) the SQLite store file, in WAL mode, with the schema up to
    /// date.
    ///
    /// # Errors
    /// When the file cannot be opened or migrated.
    pub fn open(path: &Path) -> Result<Store> {
        Store::open_at(&Location::Sqlite(path.to_owned()))
    }

    /// Opens the store at `location` (a SQLite file, created when missing, or a PostgreSQL
    /// database) with the schema up to date.
    ///
    /// # Errors
    /// When the database cannot be reached or migrated.
    pub fn open_at(location: &Location) -> Result<Store> {
        let open_error = |message: String| Error::Open {
            location: location.display(),
            message,
        };
        let mut connection = match location {
            Location::Sqlite(path) => Connection::Sqlite(open_sqlite(path).map_err(open_error)?),
            Location::Postgres(url) => Connection::Postgres(Box::new(
                Postgres::connect(url).map_err(|error| open_error(error.to_string()))?,
            )),
        };
        migrate(&mut connection)?;
        Ok(Store {
            db: RefCell::new(connection),
            holder: None,
            labeller: String::new(),
        })
    }

    /// Fences this handle's writes to runs with `worker`'s lease: a step committed, or a
    /// status set, after another worker took the run over fails with [`Error::LeaseLost`]
    /// and changes nothing.
    pub fn hold(&mut self, worker: &str) {
        self.holder = Some(worker.to_owned());
    }

    /// Names who gives the labels this handle adds (kept with each label).
    pub fn label_as(&mut self, who: &str) {
        who.clone_into(&mut self.labeller);
    }

    /// Records a new run with status `running`.
    ///
    /// # Errors
    /// When the id is taken or the write fails.
    pub fn create_run(&self, run: &NewRun<'_>) -> Result<()> {
        let now = now_text();
        self.db.borrow_mut().execute(
            "INSERT INTO runs (id, question, options, status, tool_version, created_at, updated_at, parent)
             VALUES (?1, ?2, ?3, 'running', ?4, ?5, ?5, ?6)",
            &[
                run.id.as_str().into(),
                run.question.into(),
                run.options_json.into(),
                run.tool_version.into(),
                now.as_str().into(),
                run.parent.map(RunId::as_str).into(),
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
            .db
            .borrow_mut()
            .query_opt(
                "SELECT id, question, options, status, tool_version, created_at, updated_at, parent
                 FROM runs WHERE id = ?1",
                &[id.as_str().into()],
            )?
            .ok_or_else(|| Error::UnknownRun(id.to_string()))?;
        let status = row.text(3)?;
        let status = status.parse().map_err(|_| Error::Decode {
            what: "run status",
            message: status.clone(),
        })?;
        let id = RunId::new_unchecked(row.text(0)?);
        let steps_done = self.steps_done(&id)?;
        Ok(RunRecord {
            id,
            question: row.text(1)?,
            options_json: row.text(2)?,
            status,
            tool_version: row.text(4)?,
            created_at: row.text(5)?,
            updated_at: row.text(6)?,
            steps_done,
            parent: row.opt_text(7)?.map(RunId::new_unchecked),
        })
    }

    /// Every run, newest first.
    ///
    /// # Errors
    /// When the query fails.
    pub fn runs(&self) -> Result<Vec<RunRecord>> {
        let rows = self
            .db
            .borrow_mut()
            .query("SELECT id FROM runs ORDER BY created_at DESC, id DESC", &[])?;
        rows.iter()
            .map(|row| self.run(&RunId::new_unchecked(row.text(0)?)))
            .collect()
    }

    /// Sets a run's status.
    ///
    /// # Errors
    /// When the write fails, or [`Error::LeaseLost`] when this handle holds a lease another
    /// worker has taken over.
    pub fn set_status(&self, id: &RunId, status: RunStatus) -> Result<()> {
        let mut db = self.db.borrow_mut();
        let mut transaction = db.transaction()?;
        self.check_lease(&mut transaction, id)?;
        transaction.execute(
            "UPDATE runs SET status = ?2, updated_at = ?3 WHERE id = ?1",
            &[
                id.as_str().into(),
                status.name().into(),
                now_text().as_str().into(),
            ],
        )?;
        transaction.commit()
    }

    /// Names of the steps a run has committed, in commit order.
    ///
    /// # Errors
    /// When the query fails.
    pub fn steps_done(&self, id: &RunId) -> Result<Vec<String>> {
        let rows = self.db.borrow_mut().query(
            "SELECT step FROM steps WHERE run_id = ?1 ORDER BY seq",
            &[id.as_str().into()],
        )?;
        rows.iter().map(|row| row.text(0)).collect()
    }

    /// The stored output of a step, if the step was committed.
    ///
    /// # Errors
    /// When the query fails or the output does not decode as `T`.
    pub fn step_output<T: DeserializeOwned>(&self, id: &RunId, step: &str) -> Result<Option<T>> {
        let row = self.db.borrow_mut().query_opt(
            "SELECT output FROM steps WHERE run_id = ?1 AND step = ?2",
            &[id.as_str().into(), step.into()],
        )?;
        row.map(|row| {
            serde_json::from_str(&row.text(0)?).map_err(|error| Error::Decode {
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
        let now = now_text();
        let mut db = self.db.borrow_mut();
        let mut transaction = db.transaction()?;
        let copied = transaction.query_opt(
            "INSERT INTO revisions (run_id, step, output, replaced_at)
             SELECT run_id, step, output, ?3 FROM steps WHERE run_id = ?1 AND step = ?2
             RETURNING id, replaced_at",
            &[id.as_str().into(), step.into(), now.as_str().into()],
        )?;
        let Some(revision) = copied else {
            return Err(Error::Decode {
                what: "revision",
                message: format!("run {id} has no `{step}` output to revise"),
            });
        };
        let revision = Revision {
            id: revision.int(0)?,
            replaced_at: revision.text(1)?,
        };
        transaction.execute(
            "UPDATE steps SET output = ?3 WHERE run_id = ?1 AND step = ?2",
            &[id.as_str().into(), step.into(), output.as_str().into()],
        )?;
        for forgotten in forget {
            transaction.execute(
                "DELETE FROM steps WHERE run_id = ?1 AND step = ?2",
                &[id.as_str().into(), (*forgotten).into()],
            )?;
        }
        transaction.execute(
            "UPDATE runs SET updated_at = ?2 WHERE id = ?1",
            &[id.as_str().into(), now.as_str().into()],
        )?;
        transaction.commit()?;
        Ok(revision)
    }

    /// The earlier outputs of a run's step, oldest first.
    ///
    /// # Errors
    /// When the query fails.
    pub fn revisions(&self, id: &RunId, step: &str) -> Result<Vec<Revision>> {
        let rows = self.db.borrow_mut().query(
            "SELECT id, replaced_at FROM revisions WHERE run_id = ?1 AND step = ?2 ORDER BY id",
            &[id.as_str().into(), step.into()],
        )?;
        rows.iter()
            .map(|row| {
                Ok(Revision {
                    id: row.int(0)?,
                    replaced_at: row.text(1)?,
                })
            })
            .collect()
    }

    /// Appends an event to a run's stream; its id.
    ///
    /// # Errors
    /// When the write fails.
    pub fn append_event(&self, id: &RunId, kind: &str, data: &str) -> Result<i64> {
        let at = chrono::Utc::now()
            .format("%Y-%m-%dT%H:%M:%S%.3fZ")
            .to_string();
        self.db
            .borrow_mut()
            .query_one(
                "INSERT INTO run_events (run_id, kind, data, at) VALUES (?1, ?2, ?3, ?4) RETURNING id",
                &[id.as_str().into(), kind.into(), data.into(), at.as_str().into()],
            )?
            .int(0)
    }

    /// A run's events after the one with id `after` (0: from the start), oldest first, at most
    /// `limit`.
    ///
    /// # Errors
    /// When the query fails.
    pub fn events_after(&self, id: &RunId, after: i64, limit: usize) -> Result<Vec<StoredEvent>> {
        let rows = self.db.borrow_mut().query(
            "SELECT id, kind, data, at FROM run_events WHERE run_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3",
            &[
                id.as_str().into(),
                after.into(),
                i64::try_from(limit).unwrap_or(i64::MAX).into(),
            ],
        )?;
        rows.iter()
            .map(|row| {
                let at = row.text(3)?;
                let stored_ms = chrono::DateTime::parse_from_rfc3339(&at)
                    .map_err(|error| Error::Decode {
                        what: "event time",
                        message: format!("{at}: {error}"),
                    })?
                    .timestamp_millis();
                Ok(StoredEvent {
                    id: row.int(0)?,
                    kind: row.text(1)?,
                    data: row.text(2)?,
                    stored_ms,
                })
            })
            .collect()
    }

    /// Whether a run's stream holds an event of `kind`.
    ///
    /// # Errors
    /// When the query fails.
    pub fn has_event(&self, id: &RunId, kind: &str) -> Result<bool> {
        let count = self
            .db
            .borrow_mut()
            .query_one(
                "SELECT COUNT(*) FROM run_events WHERE run_id = ?1 AND kind = ?2",
                &[id.as_str().into(), kind.into()],
            )?
            .int(0)?;
        Ok(count > 0)
    }

    /// The telemetry of each step of a run that recorded one, in commit order.
    ///
    /// # Errors
    /// When the query fails or a record does not decode as `T`.
    pub fn step_telemetry<T: DeserializeOwned>(&self, id: &RunId) -> Result<Vec<T>> {
        let rows = self.db.borrow_mut().query(
            "SELECT step, telemetry FROM steps WHERE run_id = ?1 AND telemetry IS NOT NULL ORDER BY seq",
            &[id.as_str().into()],
        )?;
        rows.iter()
            .map(|row| {
                let step = row.text(0)?;
                serde_json::from_str(&row.text(1)?).map_err(|error| Error::Decode {
                    what: "step telemetry",
                    message: format!("{step}: {error}"),
                })
            })
            .collect()
    }

    /// Saves a step's output and everything it wrote in one transaction: all or nothing.
    ///
    /// # Errors
    /// When a write fails, or [`Error::LeaseLost`] when this handle holds a lease another
    /// worker has taken over; then nothing of the step is stored.
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
        let now = now_text();
        let run = id.as_str();
        let mut db = self.db.borrow_mut();
        let mut transaction = db.transaction()?;
        self.check_lease(&mut transaction, id)?;
        put_works(&mut transaction, writes.works)?;
        put_corpus(&mut transaction, run, writes.corpus)?;
        let citations: Vec<Vec<Cell>> = writes
            .citations
            .iter()
            .map(|citation| {
                vec![
                    Cell::Text(run.to_owned()),
                    Cell::Text(citation.citing.to_string()),
                    Cell::Text(citation.cited.to_string()),
                ]
            })
            .collect();
        insert_many(
            &mut transaction,
            "citations (run_id, citing, cited)",
            "ON CONFLICT (run_id, citing, cited) DO NOTHING",
            &citations,
        )?;
        put_decisions(&mut transaction, run, writes.decisions)?;
        for stored in writes.full_texts {
            let format = match stored.format {
                TextFormat::Jats => "jats",
                TextFormat::Pdf => "pdf",
                TextFormat::Html => "html",
            };
            transaction.execute(
                "INSERT INTO full_texts (sha256, format, bytes, parsed) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (sha256) DO NOTHING",
                &[
                    stored.sha256.as_str().into(),
                    format.into(),
                    stored.bytes.as_slice().into(),
                    to_json(&stored.text)?.as_str().into(),
                ],
            )?;
        }
        for (url, sha256) in writes.downloads {
            transaction.execute(
                "INSERT INTO downloads (url, sha256, fetched_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (url) DO UPDATE SET sha256 = excluded.sha256, fetched_at = excluded.fetched_at",
                &[url.into(), sha256.into(), now.as_str().into()],
            )?;
        }
        if !writes.outputs.is_empty() {
            put_outputs(&mut transaction, id, writes.outputs)?;
        }
        // A step done again replaces its earlier output and moves to the end of the order.
        transaction.execute(
            "DELETE FROM steps WHERE run_id = ?1 AND step = ?2",
            &[run.into(), step.into()],
        )?;
        transaction.execute(
            "INSERT INTO steps (run_id, step, output, finished_at, telemetry, seq)
             VALUES (?1, ?2, ?3, ?4, ?5, (SELECT COALESCE(MAX(seq), 0) + 1 FROM steps WHERE run_id = ?1))",
            &[
                run.into(),
                step.into(),
                output.as_str().into(),
                now.as_str().into(),
                writes.telemetry.into(),
            ],
        )?;
        transaction.execute(
            "INSERT INTO step_commits (run_id, step, worker, at) VALUES (?1, ?2, ?3, ?4)",
            &[
                run.into(),
                step.into(),
                self.holder.as_deref().unwrap_or("").into(),
                now.as_str().into(),
            ],
        )?;
        transaction.execute(
            "UPDATE runs SET updated_at = ?2 WHERE id = ?1",
            &[run.into(), now.as_str().into()],
        )?;
        transaction.commit()
    }

    /// Every commit of a run's steps, oldest first, with the worker that made it (empty when
    /// no worker held the run): a step listed twice was done twice.
    ///
    /// # Errors
    /// When the query fails.
    pub fn step_commits(&self, id: &RunId) -> Result<Vec<(String, String)>> {
        let rows = self.db.borrow_mut().query(
            "SELECT step, worker FROM step_commits WHERE run_id = ?1 ORDER BY id",
            &[id.as_str().into()],
        )?;
        rows.iter()
            .map(|row| Ok((row.text(0)?, row.text(1)?)))
            .collect()
    }

    /// The bytes last downloaded from `url`, when a run stored them: a copy fetched before is
    /// read again rather than downloaded again.
    ///
    /// # Errors
    /// When the query fails.
    pub fn downloaded(&self, url: &str) -> Result<Option<Vec<u8>>> {
        self.db
            .borrow_mut()
            .query_opt(
                "SELECT full_texts.bytes FROM downloads JOIN full_texts USING (sha256) WHERE downloads.url = ?1",
                &[url.into()],
            )?
            .map(|row| row.bytes(0))
            .transpose()
    }

    /// Whether a copy downloaded from `url` is stored ([`Store::downloaded`] without reading
    /// its bytes).
    ///
    /// # Errors
    /// When the query fails.
    pub fn has_download(&self, url: &str) -> Result<bool> {
        Ok(self
            .db
            .borrow_mut()
            .query_opt(
                "SELECT 1 FROM downloads JOIN full_texts USING (sha256) WHERE downloads.url = ?1",
                &[url.into()],
            )?
            .is_some())
    }

    /// A stored full text as read, by the sha256 of its bytes.
    ///
    /// # Errors
    /// When the query fails or the stored reading does not decode.
    pub fn full_text(&self, sha256: &str) -> Result<Option<FullText>> {
        self.db
            .borrow_mut()
            .query_opt(
                "SELECT parsed FROM full_texts WHERE sha256 = ?1",
                &[sha256.into()],
            )?
            .map(|row| from_json("full text", &row.text(0)?))
            .transpose()
    }

    /// Stored works for the given ids (any known alias), keyed by the id asked for.
    ///
    /// # Errors
    /// When the query fails or a record does not decode.
    pub fn works(&self, ids: &[WorkId]) -> Result<BTreeMap<WorkId, Work>> {
        let mut db = self.db.borrow_mut();
        let mut found = BTreeMap::new();
        for id in ids {
            let row = db.query_opt(
                "SELECT w.record FROM work_aliases a JOIN works w ON w.id = a.work_id WHERE a.alias = ?1",
                &[id.to_string().as_str().into()],
            )?;
            if let Some(row) = row {
                found.insert(id.clone(), from_json::<Work>("work", &row.text(0)?)?);
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
        let rows = self.db.borrow_mut().query(
            "SELECT citing, cited FROM citations WHERE run_id = ?1 ORDER BY citing, cited",
            &[id.as_str().into()],
        )?;
        rows.iter()
            .map(|row| {
                Ok(Citation {
                    citing: parse_work_id(&row.text(0)?)?,
                    cited: parse_work_id(&row.text(1)?)?,
                })
            })
            .collect()
    }

    /// Records a person's label, committed at once: a killed session loses nothing given.
    ///
    /// # Errors
    /// When the write fails.
    pub fn add_label(&self, id: &RunId, label: &Label) -> Result<()> {
        insert_label(&mut *self.db.borrow_mut(), id, label, &self.labeller)
    }

    /// Records many labels in one transaction: all or none.
    ///
    /// # Errors
    /// When a write fails; then none is stored.
    pub fn add_labels(&mut self, id: &RunId, labels: &[Label]) -> Result<()> {
        let mut db = self.db.borrow_mut();
        let mut transaction = db.transaction()?;
        for label in labels {
            insert_label(&mut transaction, id, label, &self.labeller)?;
        }
        transaction.commit()
    }

    /// Takes back the most recent label this handle's labeller gave a run, returning it: a
    /// colleague labelling the same run at the same time keeps theirs.
    ///
    /// # Errors
    /// When the query fails.
    pub fn undo_label(&self, id: &RunId) -> Result<Option<Label>> {
        let mut db = self.db.borrow_mut();
        let last = db.query_opt(
            "SELECT id, work_id, included FROM labels WHERE run_id = ?1 AND who = ?2 ORDER BY id DESC LIMIT 1",
            &[id.as_str().into(), self.labeller.as_str().into()],
        )?;
        let Some(last) = last else {
            return Ok(None);
        };
        db.execute("DELETE FROM labels WHERE id = ?1", &[last.int(0)?.into()])?;
        Ok(Some(label_of(&last.text(1)?, last.int(2)? != 0)?))
    }

    /// A run's labels in the order given, whoever gave them; a later label of a work overrides
    /// an earlier one.
    ///
    /// # Errors
    /// When the query fails or an id does not parse.
    pub fn labels(&self, id: &RunId) -> Result<Vec<Label>> {
        let rows = self.db.borrow_mut().query(
            "SELECT work_id, included FROM labels WHERE run_id = ?1 ORDER BY id",
            &[id.as_str().into()],
        )?;
        rows.iter()
            .map(|row| label_of(&row.text(0)?, row.int(1)? != 0))
            .collect()
    }

    /// Appends a line to a run's event log.
    ///
    /// # Errors
    /// When the write fails.
    pub fn log_event(&self, id: &RunId, step: &str, message: &str) -> Result<()> {
        self.db.borrow_mut().execute(
            "INSERT INTO events (run_id, at, step, message) VALUES (?1, ?2, ?3, ?4)",
            &[
                id.as_str().into(),
                now_text().as_str().into(),
                step.into(),
                message.into(),
            ],
        )?;
        Ok(())
    }

    /// The files of a run's output folder as its last step that wrote them kept them
    /// ([`StepWrites::outputs`]), by path.
    ///
    /// # Errors
    /// When the query fails.
    pub fn outputs(&self, id: &RunId) -> Result<Vec<(String, Vec<u8>)>> {
        let rows = self.db.borrow_mut().query(
            "SELECT o.path, b.bytes FROM outputs o JOIN blobs b ON b.sha256 = o.sha256
             WHERE o.run_id = ?1 ORDER BY o.path",
            &[id.as_str().into()],
        )?;
        rows.iter()
            .map(|row| Ok((row.text(0)?, row.bytes(1)?)))
            .collect()
    }

    /// The names and sizes of the files of a run's output folder as the store keeps them, by
    /// name.
    ///
    /// # Errors
    /// When the query fails.
    pub fn output_sizes(&self, id: &RunId) -> Result<Vec<(String, u64)>> {
        let rows = self.db.borrow_mut().query(
            "SELECT o.path, LENGTH(b.bytes) FROM outputs o JOIN blobs b ON b.sha256 = o.sha256
             WHERE o.run_id = ?1 ORDER BY o.path",
            &[id.as_str().into()],
        )?;
        rows.iter()
            .map(|row| Ok((row.text(0)?, u64::try_from(row.int(1)?).unwrap_or(0))))
            .collect()
    }

    /// One file of a run's output folder as kept by its last step that wrote them.
    ///
    /// # Errors
    /// When the query fails.
    pub fn output(&self, id: &RunId, path: &str) -> Result<Option<Vec<u8>>> {
        self.db
            .borrow_mut()
            .query_opt(
                "SELECT b.bytes FROM outputs o JOIN blobs b ON b.sha256 = o.sha256
                 WHERE o.run_id = ?1 AND o.path = ?2",
                &[id.as_str().into(), path.into()],
            )?
            .map(|row| row.bytes(0))
            .transpose()
    }

    /// The HTTP response kept under `key` when it was fetched at or after `fresh_since_ms`
    /// (milliseconds since the Unix epoch): the cache a team's workers share.
    ///
    /// # Errors
    /// When the query fails.
    pub fn cached_response(&self, key: &str, fresh_since_ms: i64) -> Result<Option<CachedBody>> {
        self.db
            .borrow_mut()
            .query_opt(
                "SELECT status, content_type, body FROM http_cache WHERE key = ?1 AND fetched_ms >= ?2",
                &[key.into(), fresh_since_ms.into()],
            )?
            .map(|row| {
                Ok(CachedBody {
                    status: u16::try_from(row.int(0)?).unwrap_or(0),
                    content_type: row.opt_text(1)?,
                    body: row.bytes(2)?,
                })
            })
            .transpose()
    }

    /// Keeps an HTTP response under `key`, replacing an older one.
    ///
    /// # Errors
    /// When the write fails.
    pub fn cache_response(&self, key: &str, url: &str, response: &CachedBody) -> Result<()> {
        self.db.borrow_mut().execute(
            "INSERT INTO http_cache (key, url, status, content_type, body, fetched_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (key) DO UPDATE SET url = excluded.url, status = excluded.status,
                 content_type = excluded.content_type, body = excluded.body, fetched_ms = excluded.fetched_ms",
            &[
                key.into(),
                url.into(),
                i64::from(response.status).into(),
                response.content_type.as_deref().into(),
                response.body.as_slice().into(),
                now_ms().into(),
            ],
        )?;
        Ok(())
    }

    /// The language model's answer kept under `key` (an entry opaque to the store).
    ///
    /// # Errors
    /// When the query fails.
    pub fn cached_answer(&self, key: &str) -> Result<Option<String>> {
        self.db
            .borrow_mut()
            .query_opt("SELECT entry FROM llm_cache WHERE key = ?1", &[key.into()])?
            .map(|row| row.text(0))
            .transpose()
    }

    /// Keeps a language model's answer under `key`, replacing an older one.
    ///
    /// # Errors
    /// When the write fails.
    pub fn cache_answer(&self, key: &str, entry: &str) -> Result<()> {
        self.db.borrow_mut().execute(
            "INSERT INTO llm_cache (key, entry, stored_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (key) DO UPDATE SET entry = excluded.entry, stored_at = excluded.stored_at",
            &[key.into(), entry.into(), now_text().as_str().into()],
        )?;
        Ok(())
    }

    /// Claims the oldest run waiting for a worker for `worker`, for `lease`: a queued run, or
    /// one whose worker stopped renewing its lease (a takeover). Two workers never claim the
    /// same run.
    ///
    /// # Errors
    /// When the store fails.
    pub fn claim(&self, worker: &str, lease: Duration) -> Result<Option<Claim>> {
        let now = now_ms();
        let mut db = self.db.borrow_mut();
        let mut transaction = db.transaction()?;
        let sql = format!(
            "SELECT id, lease_owner FROM runs
             WHERE (status = 'queued' AND lease_owner IS NULL)
                OR (status IN ('queued', 'running') AND lease_owner IS NOT NULL AND lease_until_ms < ?1)
             ORDER BY created_at, id LIMIT 1{}",
            transaction.dialect().claim_suffix()
        );
        let Some(row) = transaction.query_opt(&sql, &[now.into()])? else {
            return Ok(None);
        };
        let run = RunId::new_unchecked(row.text(0)?);
        let previous = row.opt_text(1)?;
        transaction.execute(
            "UPDATE runs SET lease_owner = ?2, lease_until_ms = ?3 WHERE id = ?1",
            &[
                run.as_str().into(),
                worker.into(),
                (now + millis(lease)).into(),
            ],
        )?;
        transaction.commit()?;
        Ok(Some(Claim {
            run,
            taken_over_from: previous.filter(|previous| previous != worker),
        }))
    }

    /// Claims one given run for `worker`, for `lease`, whatever its status (a server drives the
    /// runs its people start or approve); `false` when another worker holds a current lease
    /// on it.
    ///
    /// # Errors
    /// When the store fails.
    pub fn claim_run(&self, id: &RunId, worker: &str, lease: Duration) -> Result<bool> {
        let now = now_ms();
        let claimed = self.db.borrow_mut().execute(
            "UPDATE runs SET lease_owner = ?2, lease_until_ms = ?3
             WHERE id = ?1 AND (lease_owner IS NULL OR lease_owner = ?2 OR lease_until_ms < ?4)",
            &[
                id.as_str().into(),
                worker.into(),
                (now + millis(lease)).into(),
                now.into(),
            ],
        )?;
        Ok(claimed > 0)
    }

    /// How many runs other workers hold now, leases current or not: a worker told to finish
    /// what the store has waits for these, since a run whose worker died comes back to the
    /// queue when its lease runs out.
    ///
    /// # Errors
    /// When the query fails.
    pub fn held_elsewhere(&self, worker: &str) -> Result<usize> {
        let count = self
            .db
            .borrow_mut()
            .query_one(
                "SELECT COUNT(*) FROM runs WHERE status = 'running' AND lease_owner IS NOT NULL AND lease_owner <> ?1",
                &[worker.into()],
            )?
            .int(0)?;
        Ok(usize::try_from(count).unwrap_or(0))
    }

    /// Renews `worker`'s lease on a run; `false` when another worker has taken it over.
    ///
    /// # Errors
    /// When the store fails.
    pub fn renew(&self, id: &RunId, worker: &str, lease: Duration) -> Result<bool> {
        let renewed = self.db.borrow_mut().execute(
            "UPDATE runs SET lease_until_ms = ?3 WHERE id = ?1 AND lease_owner = ?2",
            &[
                id.as_str().into(),
                worker.into(),
                (now_ms() + millis(lease)).into(),
            ],
        )?;
        Ok(renewed > 0)
    }

    /// Lets a run go: `worker` no longer holds it (a run at a gate, done or failed).
    ///
    /// # Errors
    /// When the store fails.
    pub fn release(&self, id: &RunId, worker: &str) -> Result<()> {
        self.db.borrow_mut().execute(
            "UPDATE runs SET lease_owner = NULL, lease_until_ms = NULL WHERE id = ?1 AND lease_owner = ?2",
            &[id.as_str().into(), worker.into()],
        )?;
        Ok(())
    }

    /// Gives the runs `worker` is driving back to the queue (a worker told to stop): another
    /// worker claims them at once rather than after the lease; `worker`'s later commits on
    /// them fail. The number given back.
    ///
    /// # Errors
    /// When the write fails.
    pub fn give_back(&self, worker: &str) -> Result<u64> {
        self.db.borrow_mut().execute(
            "UPDATE runs SET status = 'queued', lease_owner = NULL, lease_until_ms = NULL
             WHERE lease_owner = ?1 AND status = 'running'",
            &[worker.into()],
        )
    }

    /// Fails with [`Error::LeaseLost`] when this handle works for a worker that no longer holds
    /// the run; in a write transaction, so a takeover cannot slip in before the commit.
    fn check_lease(&self, transaction: &mut Transaction<'_>, id: &RunId) -> Result<()> {
        let Some(worker) = &self.holder else {
            return Ok(());
        };
        let held = transaction.execute(
            "UPDATE runs SET lease_owner = lease_owner WHERE id = ?1 AND lease_owner = ?2",
            &[id.as_str().into(), worker.into()],
        )?;
        if held == 0 {
            return Err(Error::LeaseLost {
                run: id.to_string(),
                worker: worker.clone(),
            });
        }
        Ok(())
    }

    fn json_rows<T: DeserializeOwned>(
        &self,
        what: &'static str,
        sql: &str,
        id: &RunId,
    ) -> Result<Vec<T>> {
        let rows = self.db.borrow_mut().query(sql, &[id.as_str().into()])?;
        rows.iter()
            .map(|row| from_json(what, &row.text(0)?))
            .collect()
    }
}

/// An HTTP response as the shared cache keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedBody {
    /// HTTP status.
    pub status: u16,
    /// `Content-Type`, when the server sent one.
    pub content_type: Option<String>,
    /// The body.
    pub body: Vec<u8>,
}

/// What [`Store::claim`] gave a worker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// The run to drive.
    pub run: RunId,
    /// The worker whose lease ran out, when the run is taken over.
    pub taken_over_from: Option<String>,
}

/// Opens a SQLite file in WAL mode, creating its folder.
fn open_sqlite(path: &Path) -> std::result::Result<rusqlite::Connection, String> {
    if let Some(parent) = path
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
    {
        std::fs::create_dir_all(parent).map_err(|error| error.to_string())?;
    }
    let connection = rusqlite::Connection::open(path).map_err(|error| error.to_string())?;
    let setup = || -> rusqlite::Result<()> {
        connection.pragma_update(None, "journal_mode", "WAL")?;
        connection.pragma_update(None, "synchronous", "NORMAL")?;
        connection.pragma_update(None, "foreign_keys", "ON")?;
        connection.busy_timeout(Duration::from_secs(10))
    };
    setup().map_err(|error| error.to_string())?;
    Ok(connection)
}

/// Now, as the store writes times (UTC, RFC 3339, seconds).
fn now_text() -> String {
    chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// Now, in milliseconds since the Unix epoch: leases are compared in these.
fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// Inserts one label, given by `who`.
fn insert_label(sql: &mut impl Sql, id: &RunId, label: &Label, who: &str) -> Result<()> {
    sql.execute(
        "INSERT INTO labels (run_id, work_id, included, at, who) VALUES (?1, ?2, ?3, ?4, ?5)",
        &[
            id.as_str().into(),
            label.work.to_string().as_str().into(),
            (label.decision == Decision::Include).into(),
            now_text().as_str().into(),
            who.into(),
        ],
    )?;
    Ok(())
}

fn parse_work_id(text: &str) -> Result<WorkId> {
    text.parse::<WorkId>().map_err(|error| Error::Decode {
        what: "work id",
        message: error.to_string(),
    })
}

fn label_of(work: &str, included: bool) -> Result<Label> {
    let work = parse_work_id(work)?;
    let decision = if included {
        Decision::Include
    } else {
        Decision::Exclude
    };
    Ok(Label { work, decision })
}

fn put_works(transaction: &mut Transaction<'_>, works: &[Work]) -> Result<()> {
    // Upserts, not REPLACE: a REPLACE deletes first, which makes SQLite check every alias row.
    let mut records = Vec::with_capacity(works.len());
    let mut aliases = Vec::new();
    for work in works {
        let id = work.id().to_string();
        for other in work.ids.all() {
            aliases.push(vec![Cell::Text(other.to_string()), Cell::Text(id.clone())]);
        }
        records.push(vec![Cell::Text(id), Cell::Text(to_json(work)?)]);
    }
    insert_many(
        transaction,
        "works (id, record)",
        "ON CONFLICT (id) DO UPDATE SET record = excluded.record",
        &last_per_key(records),
    )?;
    insert_many(
        transaction,
        "work_aliases (alias, work_id)",
        "ON CONFLICT (alias) DO UPDATE SET work_id = excluded.work_id",
        &last_per_key(aliases),
    )
}

/// Rows inserted by one statement: a statement per row would be a round trip each on
/// PostgreSQL; this many rows of two or three columns stay far below both databases'
/// limits on parameters.
const ROWS_PER_STATEMENT: usize = 400;

/// Adds a run's corpus entries, each work once: one already in the corpus, or twice in
/// `entries`, keeps its first entry and place.
fn put_corpus(transaction: &mut Transaction<'_>, run: &str, entries: &[CorpusEntry]) -> Result<()> {
    if entries.is_empty() {
        return Ok(());
    }
    let mut next_position = transaction
        .query_one(
            "SELECT COALESCE(MAX(position) + 1, 0) FROM corpus WHERE run_id = ?1",
            &[run.into()],
        )?
        .int(0)?;
    let mut known: std::collections::HashSet<String> = transaction
        .query(
            "SELECT work_id FROM corpus WHERE run_id = ?1",
            &[run.into()],
        )?
        .iter()
        .map(|row| row.text(0))
        .collect::<Result<_>>()?;
    let mut rows = Vec::new();
    for entry in entries {
        let work = entry.work.to_string();
        if known.insert(work.clone()) {
            rows.push(vec![
                Cell::Text(run.to_owned()),
                Cell::Text(work),
                Cell::Int(next_position),
                Cell::Text(to_json(entry)?),
            ]);
            next_position += 1;
        }
    }
    insert_many(
        transaction,
        "corpus (run_id, work_id, position, entry)",
        "ON CONFLICT (run_id, work_id) DO NOTHING",
        &rows,
    )
}

/// Sets a run's decisions: a work decided before keeps its place and takes the new decision;
/// a new one takes the next place; a work decided twice in `decisions` keeps the last.
fn put_decisions(
    transaction: &mut Transaction<'_>,
    run: &str,
    decisions: &[ScreeningDecision],
) -> Result<()> {
    if decisions.is_empty() {
        return Ok(());
    }
    let first_position = transaction
        .query_one(
            "SELECT COALESCE(MAX(position) + 1, 0) FROM decisions WHERE run_id = ?1",
            &[run.into()],
        )?
        .int(0)?;
    let mut at: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut rows: Vec<Vec<Cell>> = Vec::new();
    for (offset, decision) in decisions.iter().enumerate() {
        let work = decision.work.to_string();
        let json = Cell::Text(to_json(decision)?);
        match at.get(&work) {
            Some(&index) => rows[index][3] = json,
            None => {
                at.insert(work.clone(), rows.len());
                rows.push(vec![
                    Cell::Text(run.to_owned()),
                    Cell::Text(work),
                    Cell::Int(first_position + offset as i64),
                    json,
                ]);
            }
        }
    }
    insert_many(
        transaction,
        "decisions (run_id, work_id, position, decision)",
        "ON CONFLICT (run_id, work_id) DO UPDATE SET decision = excluded.decision",
        &rows,
    )
}

/// Inserts rows (all of one width) into `into` (`table (columns)`), many per statement, each
/// statement ending with `conflict`.
fn insert_many(
    transaction: &mut Transaction<'_>,
    into: &str,
    conflict: &str,
    rows: &[Vec<Cell>],
) -> Result<()> {
    for chunk in rows.chunks(ROWS_PER_STATEMENT) {
        let width = chunk.first().map_or(0, Vec::len);
        let mut sql = format!("INSERT INTO {into} VALUES ");
        for row in 0..chunk.len() {
            if row > 0 {
                sql.push_str(", ");
            }
            let placeholders: Vec<String> = (1..=width)
                .map(|column| format!("?{}", row * width + column))
                .collect();
            sql.push('(');
            sql.push_str(&placeholders.join(", "));
            sql.push(')');
        }
        sql.push(' ');
        sql.push_str(conflict);
        let params: Vec<Param<'_>> = chunk.iter().flatten().map(Param::from).collect();
        transaction.execute(&sql, &params)?;
    }
    Ok(())
}

/// The rows with one row per key (the first column), the last given: what upserting them one
/// by one would leave, and what one `INSERT … ON CONFLICT DO UPDATE` accepts (PostgreSQL
/// refuses a statement that would update one row twice).
fn last_per_key(rows: Vec<Vec<Cell>>) -> Vec<Vec<Cell>> {
    let mut index: std::collections::HashMap<Cell, usize> = std::collections::HashMap::new();
    let mut kept: Vec<Vec<Cell>> = Vec::with_capacity(rows.len());
    for row in rows {
        let key = row.first().cloned().unwrap_or(Cell::Null);
        match index.get(&key) {
            Some(&at) => kept[at] = row,
            None => {
                index.insert(key, kept.len());
                kept.push(row);
            }
        }
    }
    kept
}

/// Keeps a run's output files, each by the sha256 of its bytes, replacing the earlier ones.
fn put_outputs(
    transaction: &mut Transaction<'_>,
    id: &RunId,
    files: &[(String, Vec<u8>)],
) -> Result<()> {
    transaction.execute(
        "DELETE FROM outputs WHERE run_id = ?1",
        &[id.as_str().into()],
    )?;
    for (path, bytes) in files {
        let sha256 = litrev_model::sha256_hex(bytes);
        transaction.execute(
            "INSERT INTO blobs (sha256, bytes) VALUES (?1, ?2) ON CONFLICT (sha256) DO NOTHING",
            &[sha256.as_str().into(), bytes.as_slice().into()],
        )?;
        transaction.execute(
            "INSERT INTO outputs (run_id, path, sha256) VALUES (?1, ?2, ?3)",
            &[id.as_str().into(), path.into(), sha256.as_str().into()],
        )?;
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

    /// Where each test runs: a SQLite file in a temporary folder (kept alive by the returned
    /// guard) and, when a server is named, a fresh PostgreSQL database.
    fn backends(test: &str) -> (tempfile::TempDir, Vec<Location>) {
        let folder = tempfile::tempdir().expect("temp dir");
        let mut locations = vec![Location::Sqlite(folder.path().join("store.sqlite"))];
        locations.extend(litrev_testkit::postgres::fresh_database(test).map(Location::Postgres));
        (folder, locations)
    }

    /// A store at `location` holding one new run.
    fn store_with_run(location: &Location, run: &RunId) -> Store {
        let store = Store::open_at(location).expect("open");
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
        let (_folder, locations) = backends("event_kind");
        for location in &locations {
            runs_stream_is_asked_for_an_event_kind(location);
        }
    }

    fn runs_stream_is_asked_for_an_event_kind(location: &Location) {
        let run: RunId = "run-1".parse().expect("run id");
        let store = store_with_run(location, &run);
        assert!(!store.has_event(&run, "downloads_planned").expect("asks"));
        store.append_event(&run, "notice", "{}").expect("appends");
        store
            .append_event(&run, "downloads_planned", "{}")
            .expect("appends");
        assert!(store.has_event(&run, "downloads_planned").expect("asks"));
        let events = store.events_after(&run, 0, 10).expect("events");
        assert_eq!(events.len(), 2, "{location:?}");
        assert!(events[0].id < events[1].id);
        assert!(events[0].stored_ms > 1_700_000_000_000, "{events:?}");
        assert_eq!(
            store
                .events_after(&run, events[0].id, 10)
                .expect("events")
                .len(),
            1
        );
        let other: RunId = "run-2".parse().expect("run id");
        assert!(!store.has_event(&other, "downloads_planned").expect("asks"));
    }

    #[test]
    fn a_committed_step_is_all_there_after_reopening() {
        let (_folder, locations) = backends("reopening");
        for location in &locations {
            committed_step_is_all_there_after_reopening(location);
        }
    }

    fn committed_step_is_all_there_after_reopening(path: &Location) {
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
            domain: None,
        }];
        {
            let mut store = store_with_run(path, &run);
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
                        outputs: &[],
                    },
                )
                .expect("commit");
        }
        let store = Store::open_at(path).expect("reopen");
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
        let (_folder, locations) = backends("labels");
        for location in &locations {
            labels_kept_one_by_one_and_undone(location);
        }
    }

    fn labels_kept_one_by_one_and_undone(path: &Location) {
        let run: RunId = "run-1".parse().expect("run id");
        let label = |id: &str, decision| Label {
            work: id.parse().expect("id"),
            decision,
        };
        {
            let mut store = store_with_run(path, &run);
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
        let store = Store::open_at(path).expect("reopen");
        assert_eq!(
            store.labels(&run).expect("labels"),
            vec![
                label("W1", Decision::Include),
                label("W2", Decision::Exclude)
            ]
        );
    }

    #[test]
    fn two_people_labelling_one_run_at_once_keep_every_label() {
        let (_folder, locations) = backends("two_labellers");
        for location in &locations {
            let run: RunId = "run-1".parse().expect("run id");
            let mut ana = store_with_run(location, &run);
            ana.label_as("ana");
            let mut ben = Store::open_at(location).expect("second session");
            ben.label_as("ben");
            let label = |id: &str, decision| Label {
                work: id.parse().expect("id"),
                decision,
            };
            ana.add_label(&run, &label("W1", Decision::Include))
                .expect("ana");
            ben.add_label(&run, &label("W2", Decision::Exclude))
                .expect("ben");
            ana.add_label(&run, &label("W2", Decision::Include))
                .expect("ana");
            ben.add_label(&run, &label("W3", Decision::Include))
                .expect("ben");
            assert_eq!(
                ana.undo_label(&run).expect("undo"),
                Some(label("W2", Decision::Include)),
                "an undo takes back the session's own last label, not a colleague's"
            );
            assert_eq!(
                ben.labels(&run).expect("labels"),
                vec![
                    label("W1", Decision::Include),
                    label("W2", Decision::Exclude),
                    label("W3", Decision::Include)
                ],
                "{location:?}"
            );
        }
    }

    #[test]
    fn a_run_is_claimed_once_and_taken_over_when_its_lease_runs_out() {
        let (_folder, locations) = backends("claims");
        for location in &locations {
            let run: RunId = "run-1".parse().expect("run id");
            let mut first = store_with_run(location, &run);
            let mut second = Store::open_at(location).expect("second worker");
            assert_eq!(
                first.claim("w1", Duration::from_secs(60)).expect("claim"),
                None,
                "a running run without a lease is a person's own: no worker takes it"
            );
            first.set_status(&run, RunStatus::Queued).expect("queue");
            let claim = first
                .claim("w1", Duration::from_millis(200))
                .expect("claim")
                .expect("the queued run");
            assert_eq!(
                claim,
                Claim {
                    run: run.clone(),
                    taken_over_from: None
                }
            );
            first.hold("w1");
            first.set_status(&run, RunStatus::Running).expect("status");
            first
                .commit_step(&run, "plan", &"p", &StepWrites::default())
                .expect("the holder commits");
            assert_eq!(
                second.claim("w2", Duration::from_secs(60)).expect("claim"),
                None,
                "a run whose lease is current is not taken"
            );
            assert_eq!(second.held_elsewhere("w2").expect("count"), 1);
            assert!(
                !second
                    .claim_run(&run, "w2", Duration::from_secs(60))
                    .expect("claim"),
                "a run held by a current lease is not claimed by name either"
            );
            assert_eq!(first.held_elsewhere("w1").expect("count"), 0);
            std::thread::sleep(Duration::from_millis(300));
            let taken = second
                .claim("w2", Duration::from_secs(60))
                .expect("claim")
                .expect("the lease ran out");
            assert_eq!(taken.taken_over_from.as_deref(), Some("w1"));
            second.hold("w2");
            let lost = first.commit_step(&run, "discover", &"late", &StepWrites::default());
            assert!(
                matches!(lost, Err(Error::LeaseLost { .. })),
                "the worker that lost its lease commits nothing: {lost:?}"
            );
            assert!(
                !first
                    .renew(&run, "w1", Duration::from_secs(60))
                    .expect("renew")
            );
            second
                .commit_step(&run, "discover", &"d", &StepWrites::default())
                .expect("the new holder commits");
            assert_eq!(
                second.step_commits(&run).expect("commits"),
                vec![
                    ("plan".to_owned(), "w1".to_owned()),
                    ("discover".to_owned(), "w2".to_owned())
                ],
                "{location:?}"
            );
            assert_eq!(
                second
                    .step_output::<String>(&run, "discover")
                    .expect("read"),
                Some("d".to_owned())
            );
            assert!(
                second
                    .renew(&run, "w2", Duration::from_secs(60))
                    .expect("renew")
            );
            second.set_status(&run, RunStatus::Done).expect("status");
            second.release(&run, "w2").expect("release");
            assert!(
                first
                    .claim_run(&run, "w1", Duration::from_secs(60))
                    .expect("claim"),
                "a released run is claimed by name (a server driving its approval)"
            );
            assert_eq!(
                second.claim("w3", Duration::from_secs(60)).expect("claim"),
                None
            );
        }
    }

    #[test]
    fn a_response_is_cached_for_every_handle_while_fresh() {
        let (_folder, locations) = backends("http_cache");
        for location in &locations {
            let one = Store::open_at(location).expect("open");
            let other = Store::open_at(location).expect("another machine");
            let response = CachedBody {
                status: 200,
                content_type: Some("application/json".into()),
                body: b"{\"results\":[]}".to_vec(),
            };
            assert_eq!(one.cached_response("k", 0).expect("read"), None);
            one.cache_response("k", "https://api.openalex.org/works", &response)
                .expect("write");
            assert_eq!(
                other.cached_response("k", 0).expect("read"),
                Some(response.clone()),
                "{location:?}"
            );
            assert_eq!(
                other.cached_response("k", now_ms() + 60_000).expect("read"),
                None,
                "a response older than the freshness asked for is not served"
            );
            one.cache_response(
                "k",
                "u",
                &CachedBody {
                    status: 404,
                    ..response
                },
            )
            .expect("replace");
            assert_eq!(
                other
                    .cached_response("k", 0)
                    .expect("read")
                    .map(|hit| hit.status),
                Some(404)
            );
        }
    }

    #[test]
    fn works_sharing_an_id_in_one_commit_leave_the_last() {
        let (_folder, locations) = backends("shared_ids");
        for location in &locations {
            let run: RunId = "run-1".parse().expect("run id");
            let mut store = store_with_run(location, &run);
            let mut later = work("W1", "10.1/a");
            later.title = Some("Later".into());
            // W2 claims W1's DOI after it: the alias points to the last work that named it.
            let works = [work("W1", "10.1/a"), work("W2", "10.1/a"), later];
            let citations = [
                Citation {
                    citing: works[1].id(),
                    cited: works[0].id(),
                },
                Citation {
                    citing: works[1].id(),
                    cited: works[0].id(),
                },
            ];
            store
                .commit_step(
                    &run,
                    "discover",
                    &"d",
                    &StepWrites {
                        works: &works,
                        citations: &citations,
                        ..StepWrites::default()
                    },
                )
                .expect("commit");
            let ids: Vec<WorkId> = ["W1", "10.1/a"]
                .iter()
                .map(|id| id.parse().expect("id"))
                .collect();
            let found = store.works(&ids).expect("works");
            assert_eq!(
                found[&ids[0]].title.as_deref(),
                Some("Later"),
                "{location:?}"
            );
            assert_eq!(
                found[&ids[1]].id().to_string(),
                "W1",
                "the last work naming the DOI was W1"
            );
            assert_eq!(store.citations(&run).expect("citations").len(), 1);
        }
    }

    #[test]
    fn a_runs_output_folder_is_kept_by_content() {
        let (_folder, locations) = backends("outputs");
        for location in &locations {
            let run: RunId = "run-1".parse().expect("run id");
            let mut store = store_with_run(location, &run);
            let files = vec![
                ("review.md".to_owned(), b"# Review\n".to_vec()),
                ("charts/years.svg".to_owned(), b"<svg/>".to_vec()),
                ("copy.md".to_owned(), b"# Review\n".to_vec()),
            ];
            let publish = StepWrites {
                outputs: &files,
                ..StepWrites::default()
            };
            store
                .commit_step(&run, "publish", &"p", &publish)
                .expect("commit");
            store
                .commit_step(&run, "publish", &"p", &publish)
                .expect("again replaces");
            let mut expected = files.clone();
            expected.sort();
            assert_eq!(
                store.outputs(&run).expect("outputs"),
                expected,
                "{location:?}"
            );
        }
    }

    #[test]
    fn unknown_runs_say_what_to_do() {
        let (_folder, locations) = backends("unknown");
        for location in &locations {
            let store = Store::open_at(location).expect("open");
            let error = store
                .run(&"nope".parse().expect("id"))
                .expect_err("unknown");
            assert!(error.to_string().contains("litrev runs"), "{error}");
        }
    }

    #[test]
    fn an_unreachable_server_says_what_to_check() {
        let error = Store::open_at(&Location::Postgres(
            "postgres://litrev:secret@127.0.0.1:1/none".into(),
        ))
        .err()
        .expect("no server listens on port 1");
        let message = error.to_string();
        assert!(message.contains("PostgreSQL server is up"), "{message}");
        assert!(
            !message.contains("secret"),
            "the password is not shown: {message}"
        );
    }

    #[test]
    fn a_store_from_a_newer_litrev_is_refused() {
        let folder = tempfile::tempdir().expect("temp dir");
        let path = folder.path().join("s.sqlite");
        {
            let connection = rusqlite::Connection::open(&path).expect("open");
            connection
                .pragma_update(None, "user_version", 99)
                .expect("pragma");
        }
        let error = Store::open(&path).err().expect("too new");
        assert!(matches!(error, Error::TooNew { found: 99, .. }));
        if let Some(url) = litrev_testkit::postgres::fresh_database("too_new") {
            let location = Location::Postgres(url.clone());
            Store::open_at(&location).expect("a new database is migrated");
            let mut client = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
            client
                .batch_execute("UPDATE litrev_schema SET version = 99")
                .expect("update");
            let error = Store::open_at(&location).err().expect("too new");
            assert!(matches!(error, Error::TooNew { found: 99, .. }), "{error}");
        }
    }

    #[test]
    fn a_revision_keeps_the_old_output_and_forgets_what_followed() {
        let (_folder, locations) = backends("revision");
        for location in &locations {
            revision_keeps_the_old_output(location);
        }
    }

    fn revision_keeps_the_old_output(location: &Location) {
        let run: RunId = "run-1".parse().expect("run id");
        let mut store = store_with_run(location, &run);
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
