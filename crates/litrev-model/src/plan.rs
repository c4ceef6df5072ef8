//! The plan of a run: what to search for, where, and within which limits.

use serde::{Deserialize, Serialize};

use crate::id::WorkId;
use crate::tier::{Tier, TierLimits};

/// What the plan phase decided, stored before any search runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// The research question as the user wrote it.
    pub question: String,
    /// The question's content terms, the vocabulary relevance is judged against.
    pub key_terms: Vec<String>,
    /// Searches to run, in order.
    pub queries: Vec<Query>,
    /// Works the user named as starting points.
    pub seeds: Vec<WorkId>,
    /// The quality tier.
    pub tier: Tier,
    /// The tier's limits, possibly adjusted.
    pub limits: TierLimits,
    /// Hits kept per query.
    pub hits_per_query: usize,
    /// Lowest relevance score at which a snowballed work counts as relevant.
    pub relevance_threshold: f32,
}

/// One search to run against a source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Query {
    /// Stable label (`q1`, `q2`…) used in hit lists and the method section.
    pub label: String,
    /// What the query is for (`all key terms`, `title phrase`…).
    pub purpose: String,
    /// The query text in the source-independent syntax: terms, `"phrases"`, `AND`/`OR`.
    pub text: String,
}
