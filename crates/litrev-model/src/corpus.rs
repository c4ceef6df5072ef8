//! The corpus of a run: every work considered, how it got there, and citation edges.

use serde::{Deserialize, Serialize};

use crate::id::WorkId;

/// A directed citation: `citing` lists `cited` among its references.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Citation {
    /// The citing work.
    pub citing: WorkId,
    /// The cited work.
    pub cited: WorkId,
}

/// How a work entered the corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// Named by the user.
    Seed,
    /// Returned by a search.
    Search,
    /// Cites a work already in the corpus.
    Forward,
    /// Cited by a work already in the corpus.
    Backward,
    /// A web page the user named (`--url`): grey literature, included by right like a seed but
    /// no measure of relevance.
    Page,
    /// A record of the person's own library (`--library`): screened like a search hit.
    Library,
}

impl Origin {
    /// The lower-case name used in CSV files.
    pub fn name(self) -> &'static str {
        match self {
            Origin::Seed => "seed",
            Origin::Search => "search",
            Origin::Forward => "forward",
            Origin::Backward => "backward",
            Origin::Page => "page",
            Origin::Library => "library",
        }
    }
}

/// One work's place in a run's corpus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorpusEntry {
    /// The work.
    pub work: WorkId,
    /// Snowball stage that added it (0 = seeds and search).
    pub stage: u32,
    /// How it was found.
    pub origin: Origin,
    /// Relevance to the question and seeds when it was added, 0–1.
    pub score: f32,
    /// Labels of the queries that returned it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub queries: Vec<String>,
}

/// What a snowball stage did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StageReport {
    /// Stage number, from 1.
    pub stage: u32,
    /// Works whose links were followed.
    pub expanded: usize,
    /// Works new to the corpus.
    pub new_works: usize,
    /// New works judged relevant.
    pub new_relevant: usize,
    /// Relevant works in the corpus after the stage.
    pub relevant_total: usize,
}

/// Why snowballing stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// A stage found no new relevant work.
    Saturated,
    /// The share of new relevant works stayed under the threshold.
    BelowCoverageThreshold,
    /// The tier's stage limit was reached.
    StageLimit,
    /// Nothing was left to expand.
    NothingToExpand,
}
