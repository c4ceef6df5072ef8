//! The store's errors.

use std::path::PathBuf;

/// What went wrong in the store.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The database file could not be opened or created.
    #[error(
        "cannot open the store at `{path}`: {message}; check the path and its permissions, or pass --db"
    )]
    Open {
        /// The database file.
        path: PathBuf,
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
}

impl From<rusqlite::Error> for Error {
    fn from(error: rusqlite::Error) -> Self {
        Error::Sql(error.to_string())
    }
}

/// Result with the store's error.
pub type Result<T, E = Error> = std::result::Result<T, E>;
