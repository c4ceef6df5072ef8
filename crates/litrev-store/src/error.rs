//! The store's errors.

/// What went wrong in the store.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The database file could not be opened or created.
    #[error(
        "cannot open the store at `{location}`: {message}; check the path and its permissions (or that the PostgreSQL server is up and the URL right), or pass --db"
    )]
    Open {
        /// The database file or URL (without its password).
        location: String,
        /// The cause.
        message: String,
    },
    /// A query failed.
    #[error("store query failed: {0}")]
    Sql(String),
    /// A stored value did not decode.
    #[error("a stored {what} does not decode ({message}); the store may come from a newer litrev")]
    Decode {
        /// What was being read.
        what: &'static str,
        /// The cause.
        message: String,
    },
    /// No run has this id.
    #[error(
        "no run `{0}` in this store: `litrev runs` lists the runs (use --db for another store)"
    )]
    UnknownRun(String),
    /// The file was written by a newer litrev.
    #[error(
        "the store has schema version {found}, newer than this litrev knows ({known}): upgrade litrev"
    )]
    TooNew {
        /// Version in the file.
        found: i64,
        /// Newest version this build knows.
        known: i64,
    },
    /// Another worker took the run over after this one's lease ran out: this worker's work
    /// since its last committed step is dropped, and the run goes on elsewhere.
    #[error(
        "worker `{worker}` no longer holds run `{run}`: another worker took it over after the lease ran out; nothing of this step was stored"
    )]
    LeaseLost {
        /// The run.
        run: String,
        /// The worker that lost it.
        worker: String,
    },
}

impl From<postgres::Error> for Error {
    fn from(error: postgres::Error) -> Self {
        // The server's own message (with its detail) says more than the driver's summary.
        match error.as_db_error() {
            Some(db) => Error::Sql(match db.detail() {
                Some(detail) => format!("{}: {detail}", db.message()),
                None => db.message().to_owned(),
            }),
            None => Error::Sql(error.to_string()),
        }
    }
}

impl From<rusqlite::Error> for Error {
    fn from(error: rusqlite::Error) -> Self {
        Error::Sql(error.to_string())
    }
}

/// Result with the store's error.
pub type Result<T, E = Error> = std::result::Result<T, E>;
