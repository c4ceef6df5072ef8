//! Screening decisions: include or exclude, why, and who decided.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::id::WorkId;

/// Whether a work belongs in the review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// In the review.
    Include,
    /// Out of the review.
    Exclude,
}

impl Decision {
    /// `include` or `exclude`.
    pub fn name(self) -> &'static str {
        match self {
            Decision::Include => "include",
            Decision::Exclude => "exclude",
        }
    }
}

/// The reason code of a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ReasonCode {
    /// Named by the user as a seed.
    Seed,
    /// Relevance to the question and seeds at or above the threshold, within the tier's limit.
    Relevant,
    /// Relevance below the threshold.
    OutOfScope,
    /// Relevant, but ranked past the tier's maximum number of works.
    OverTierLimit,
    /// Known only by its id: nothing to screen.
    NoMetadata,
    /// No abstract: nothing to take evidence from.
    MissingAbstract,
    /// Flagged as retracted by the source.
    Retracted,
    /// Published outside the year window.
    OutsideYears,
    /// In a language the review does not cover.
    WrongLanguage,
    /// A kind of work the review does not cover.
    WrongType,
    /// Mentions a term the review excludes.
    ExcludedTerm,
    /// Decided by a person.
    PersonDecision,
    /// Studies a population the eligibility criteria exclude (LLM judge).
    WrongPopulation,
    /// Studies an intervention or exposure the criteria exclude (LLM judge).
    WrongIntervention,
    /// Reports outcomes the criteria do not cover (LLM judge).
    WrongOutcome,
    /// A study design the criteria exclude (LLM judge).
    WrongDesign,
    /// Not primary research: a review, editorial, comment or protocol (LLM judge).
    NotPrimaryResearch,
}

impl ReasonCode {
    /// The snake-case code used in CSV files.
    pub fn code(self) -> &'static str {
        match self {
            ReasonCode::Seed => "seed",
            ReasonCode::Relevant => "relevant",
            ReasonCode::OutOfScope => "out_of_scope",
            ReasonCode::OverTierLimit => "over_tier_limit",
            ReasonCode::NoMetadata => "no_metadata",
            ReasonCode::MissingAbstract => "missing_abstract",
            ReasonCode::Retracted => "retracted",
            ReasonCode::OutsideYears => "outside_years",
            ReasonCode::WrongLanguage => "wrong_language",
            ReasonCode::WrongType => "wrong_type",
            ReasonCode::ExcludedTerm => "excluded_term",
            ReasonCode::PersonDecision => "person_decision",
            ReasonCode::WrongPopulation => "wrong_population",
            ReasonCode::WrongIntervention => "wrong_intervention",
            ReasonCode::WrongOutcome => "wrong_outcome",
            ReasonCode::WrongDesign => "wrong_design",
            ReasonCode::NotPrimaryResearch => "not_primary_research",
        }
    }

    /// The reasons a judge of eligibility criteria may give for excluding a work.
    pub const JUDGE_EXCLUSIONS: [ReasonCode; 6] = [
        ReasonCode::OutOfScope,
        ReasonCode::WrongPopulation,
        ReasonCode::WrongIntervention,
        ReasonCode::WrongOutcome,
        ReasonCode::WrongDesign,
        ReasonCode::NotPrimaryResearch,
    ];
}

impl fmt::Display for ReasonCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Who made a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reviewer {
    /// A fixed rule (year window, retraction, missing metadata).
    Rule,
    /// The ranking model.
    Model,
    /// A person.
    Person,
    /// A language model applying the eligibility criteria.
    Llm,
}

impl Reviewer {
    /// `rule`, `model`, `person` or `llm`.
    pub fn name(self) -> &'static str {
        match self {
            Reviewer::Rule => "rule",
            Reviewer::Model => "model",
            Reviewer::Person => "person",
            Reviewer::Llm => "llm",
        }
    }
}

/// The screening outcome for one work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScreeningDecision {
    /// The work.
    pub work: WorkId,
    /// Include or exclude.
    pub decision: Decision,
    /// Why.
    pub reason: ReasonCode,
    /// One line a person can read.
    pub rationale: String,
    /// Relevance score, 0–1.
    pub score: f32,
    /// Who decided.
    pub reviewer: Reviewer,
    /// For a question split into domains, the domain the work fits best (its relevance was
    /// judged against that domain's terms); none otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
}

/// A person's decision on one work, as given in a screening session or an imported file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Label {
    /// The work.
    pub work: WorkId,
    /// Include or exclude.
    pub decision: Decision,
}
