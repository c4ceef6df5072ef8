//! The `Source` trait: one interface over every place works come from.

use std::fmt;

use litrev_model::{Query, Work, WorkId};

use crate::error::Result;

/// The kinds of source litrev knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SourceKind {
    /// Local files of OpenAlex Work records.
    Snapshot,
}

impl SourceKind {
    /// The name used on the command line and in run records.
    pub fn name(self) -> &'static str {
        match self {
            SourceKind::Snapshot => "snapshot",
        }
    }
}

impl fmt::Display for SourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a source can do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capabilities {
    /// Answers keyword searches.
    pub search: bool,
    /// Looks works up by id, many per call.
    pub batch_lookup: bool,
    /// Lists the works citing a work.
    pub citing: bool,
    /// Lists the works a work cites.
    pub references: bool,
}

/// A work returned by a search, with the source's relevance score.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// The work.
    pub work: Work,
    /// The source's score (higher is better; only comparable within one search).
    pub score: f32,
}

/// A place works come from.
pub trait Source: Send + Sync {
    /// Which kind of source this is.
    fn kind(&self) -> SourceKind;

    /// What the source can do.
    fn capabilities(&self) -> Capabilities;

    /// A human-readable description for run records (`snapshot of 3 files, 5,400 works`).
    fn describe(&self) -> String;

    /// Runs a search, best hits first.
    ///
    /// # Errors
    /// When the source fails; an empty result is not an error.
    fn search(&self, query: &Query, limit: usize) -> Result<Vec<Hit>>;

    /// Looks works up by any of their ids; ids the source does not know are absent from the result.
    ///
    /// # Errors
    /// When the source fails.
    fn lookup(&self, ids: &[WorkId]) -> Result<Vec<Work>>;

    /// The works that cite any of `ids`.
    ///
    /// # Errors
    /// When the source fails.
    fn citing(&self, ids: &[WorkId]) -> Result<Vec<Work>>;
}
