//! Everything the earlier phases stored → the [`Review`], with every sentence traceable.
//!
//! The extractive writer ([`write`], the default, no LLM) builds each sentence either from the
//! run's structure (counts, years, lists of works) or from a sentence of a cited work's
//! abstract, attributed to it; [`Basis`](litrev_model::Basis) records which. Nothing is
//! invented, and a sentence is never used twice.
//!
//! The LLM writer ([`write_with_llm`]) lays the review out the same way, then has a model
//! draft each theme's parts from numbered evidence spans; code resolves the span ids to
//! citations, checks every sentence against its spans, and has unsupported ones rewritten
//! more cautiously or drops them (`llm.rs`).

mod cues;
mod evidence;
mod extractive;
mod llm;
mod prose;

use std::collections::BTreeMap;

use litrev_model::{
    Citation, Expert, Organisation, Plan, ReasonCode, StageReport, StopReason, StudyCard, Work,
    WorkId,
};
use serde::{Deserialize, Serialize};

pub use evidence::{Role, Span, card_spans, evidence_of, spans_of};
pub use extractive::write;
pub use llm::{
    DRAFT_PHASE, DroppedSentence, LlmWriteConfig, LlmWriteReport, LlmWritten, REPAIR_PHASE,
    write_with_llm,
};
pub use prose::words_of;

/// Why the LLM writer could not finish.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A call to the model failed or was refused by the budget; its message says what to do.
    #[error(transparent)]
    Llm(#[from] litrev_llm::Error),
}

/// The facts of the method section: where works came from and what happened to them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MethodFacts {
    /// The source, described for people.
    pub source: String,
    /// Each query with the number of works it returned.
    pub queries: Vec<QueryFact>,
    /// Seeds named by the user.
    pub seeds: usize,
    /// Search hits before merging duplicates.
    pub raw_hits: usize,
    /// Distinct works after discovery.
    pub discovered: usize,
    /// Snowball stage reports.
    pub stages: Vec<StageReport>,
    /// Why snowballing stopped.
    pub stop: Option<StopReason>,
    /// Works ever considered (corpus entries, stubs included).
    pub considered: usize,
    /// Exclusions by reason.
    pub excluded: BTreeMap<ReasonCode, usize>,
    /// Works included.
    pub included: usize,
    /// Works whose snowballing score left them in doubt and that a language model judged.
    #[serde(default)]
    pub snowball_model_verdicts: usize,
    /// Works a language model judged against the user's eligibility criteria.
    #[serde(default)]
    pub criteria_judged: usize,
    /// What a follow-up review took over from the review it continues.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub continued: Option<ContinuedFact>,
    /// The field's experts the expert channel chose, best first, for the appendix.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub experts: Vec<Expert>,
    /// The web pages the person named, in order, for the appendix.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pages: Vec<PageFact>,
    /// The person's own libraries joined to the corpus, in order, for the appendix.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub libraries: Vec<LibraryFact>,
}

/// A library of the person's own (`--library`): its file's name and what it gave.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LibraryFact {
    /// The file's name (`zotero.sqlite`, `export.ris`).
    pub name: String,
    /// Its records (of the collection named).
    pub records: usize,
    /// Those that joined the corpus.
    pub works: usize,
}

/// A web page the person named: its address, and why it was left out when it was.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PageFact {
    /// The page's address.
    pub address: String,
    /// The work it was read as; none when it could not be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub work: Option<WorkId>,
    /// Why it could not be read; none: it was read and included as grey literature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
}

/// A follow-up review's starting point, for the method section.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ContinuedFact {
    /// The question of the review it continues.
    pub parent_question: String,
    /// Works carried over from it.
    pub carried_works: usize,
    /// Queries searched anew.
    pub new_queries: usize,
    /// Queries whose results were reused.
    pub reused_queries: usize,
}

/// One query of the method section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryFact {
    /// The query text.
    pub text: String,
    /// What it was for.
    pub purpose: String,
    /// Works it returned.
    pub hits: usize,
}

/// What the writer reads.
#[derive(Debug, Clone, Copy)]
pub struct WriteInput<'a> {
    /// The plan (question, tier, limits).
    pub plan: &'a Plan,
    /// The method's facts.
    pub facts: &'a MethodFacts,
    /// The included works.
    pub included: &'a BTreeMap<WorkId, Work>,
    /// Themes and key works.
    pub organisation: &'a Organisation,
    /// Citations each included work receives from the corpus.
    pub corpus_citations: &'a BTreeMap<WorkId, usize>,
    /// Citation edges among the corpus works.
    pub citations: &'a [Citation],
    /// The study cards of the included works read in full: their sentences are evidence
    /// beside the abstracts', quoted with their pinpoints.
    pub cards: &'a BTreeMap<WorkId, StudyCard>,
}

/// No study cards: for reviews written from abstracts alone.
pub static NO_CARDS: BTreeMap<WorkId, StudyCard> = BTreeMap::new();
