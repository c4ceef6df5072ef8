//! The plan of a run: what to search for, where, and within which limits.

use serde::{Deserialize, Serialize};

use crate::id::WorkId;
use crate::tier::{Tier, TierLimits};
use crate::work::WorkKind;

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
    /// Eligibility rules every included work must meet.
    #[serde(default)]
    pub filters: Filters,
}

/// Eligibility rules applied at screening, before any ranking.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Filters {
    /// First publication year allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year_from: Option<i32>,
    /// Last publication year allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year_to: Option<i32>,
    /// Languages allowed (ISO 639-1 codes); empty allows all. Works of unknown language pass.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub languages: Vec<String>,
    /// Kinds of work allowed; empty allows all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<WorkKind>,
    /// Terms whose presence in the title or abstract excludes a work (case-insensitive).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude_terms: Vec<String>,
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
