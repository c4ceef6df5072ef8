//! The nouns of litrev, free of HTTP, SQL and SDK types.
//!
//! Every phase speaks these types: a [`Work`] identified by [`WorkId`]s, the [`Plan`] of a run,
//! the corpus ([`CorpusEntry`], [`Citation`]), [`ScreeningDecision`]s, the [`Organisation`] into
//! [`Theme`]s, and the [`Review`] whose every sentence records its [`Basis`].
//!
//! ```
//! use litrev_model::WorkId;
//! let id: WorkId = "https://doi.org/10.1186/S13643-016-0384-4".parse().unwrap();
//! assert_eq!(id.to_string(), "10.1186/s13643-016-0384-4");
//! ```
#![warn(missing_docs)]

mod card;
mod citekey;
mod corpus;
mod dedup;
mod digest;
mod estimate;
mod expert;
mod fulltext;
mod id;
mod language;
mod organisation;
mod plan;
mod processing;
mod review;
mod run;
mod screening;
mod tier;
mod work;

pub use card::{CardField, CardSpan, MissingText, NOT_REPORTED, Retrieval, StudyCard, TextStatus};
pub use citekey::{assign_keys, base_key};
pub use corpus::{Citation, CorpusEntry, Origin, StageReport, StopReason};
pub use dedup::{
    Deduplicated, FUZZY_TITLE_SIMILARITY, MergeCounts, merge_duplicates, merge_pair,
    normalise as normalise_title,
};
pub use digest::sha256_hex;
pub use estimate::{ESTIMATE_TOLERANCE, Estimate, LlmEstimate, LlmPhaseEstimate, SourceEstimate};
pub use expert::{Expert, add_experts, rank_experts};
pub use fulltext::{CitedReference, FullText, Locator, SectionRole, TextFormat, TextSection};
pub use id::{ArxivId, Doi, IdError, Isbn, OpenAlexId, Pmcid, Pmid, S2Id, WebUrl, WorkId, WorkIds};
pub use language::{language_code, language_name};
pub use organisation::{KeyRole, KeyWork, Organisation, SubTheme, Theme, Views};
pub use plan::{
    Brief, Channel, Clarification, Dimension, Domain, Filters, Focus, Grounds, HitOrder, Plan,
    ProbeReading, Query, SynthesisPart, SynthesisSection, TimeWindow,
};
pub use processing::{Processing, processing, work_in_process};
pub use review::{
    Basis, CiteForm, FullTextSpan, Paragraph, Review, Section, SectionKind, Segment, Sentence,
    SpanRef, Table,
};
pub use run::{BadRunId, RunId, RunStatus, Step, UnknownStep};
pub use screening::{Decision, Label, ReasonCode, Reviewer, ScreeningDecision};
pub use tier::{Tier, TierLimits, UnknownTier};
pub use work::{Author, Biblio, Topic, Work, WorkKind, family_name, given_names};
