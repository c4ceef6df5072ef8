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
    /// The scope a researcher settles before searching, each dimension saying whether the
    /// question stated it, litrev derived it, or litrev assumed it.
    #[serde(default)]
    pub brief: Brief,
}

/// How a dimension of the brief was settled.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Grounds {
    /// The person said so: the question's words or an option.
    Stated,
    /// litrev read it from the works a probe search found.
    Derived,
    /// A default, for the person to check.
    #[default]
    Assumed,
}

/// One dimension of the brief: its value and how it was settled.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dimension<T> {
    /// The value.
    pub value: T,
    /// Stated, derived or assumed.
    pub basis: Grounds,
}

/// The years a review covers: foundational works of any era (unless the window is closed),
/// and a recent window searched on its own.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeWindow {
    /// The first year covered; none: works of any era.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<i32>,
    /// The last year covered; none: up to now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<i32>,
    /// Where the recent window starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recent_from: Option<i32>,
}

/// The research brief (seed S4 §4): discipline, time window, methods, population, which
/// kinds of sources count and in which order, the review's language and its mode.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Brief {
    /// Disciplines the question belongs to (empty until a probe search reads them).
    pub disciplines: Dimension<Vec<String>>,
    /// The years covered.
    pub time_window: Dimension<TimeWindow>,
    /// Study designs wanted (empty: any).
    pub methods: Dimension<Vec<String>>,
    /// Who or what is studied (empty: anyone).
    pub population: Dimension<Vec<String>>,
    /// Kinds of sources, most trusted first; the last ones are deprioritised.
    pub source_hierarchy: Dimension<Vec<String>>,
    /// The language the review is written in (ISO 639-1).
    pub output_language: Dimension<String>,
    /// `academic` (peer-reviewed literature first) or `general`.
    pub mode: Dimension<String>,
    /// At most two questions asked because something material was missing or ambiguous,
    /// each with the answer taken when nobody answers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clarifications: Vec<Clarification>,
}

/// A question the plan asks before anything runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clarification {
    /// What it is about (`disciplines`, `time_window`).
    pub about: String,
    /// The question, as asked.
    pub question: String,
    /// The answers it takes, the default first.
    pub options: Vec<String>,
    /// The answer given; none: the default was taken (and the dimension stays assumed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
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
