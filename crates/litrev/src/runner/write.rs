//! The write step and the audit after it: the review written from the themes (extractively, or
//! by the run's model held to its evidence), then every citation and taken sentence checked
//! against the stored works before anything is published.

use std::collections::BTreeMap;

use litrev_audit::AuditReport;
use litrev_graph::CitationGraph;
use litrev_llm::PhaseUsage;
use litrev_model::{Citation, CorpusEntry, Organisation, Review, Work, WorkId};
use litrev_store::StepWrites;
use litrev_write::{MethodFacts, QueryFact, WriteInput, words_of};
use serde::{Deserialize, Serialize};

use super::screen::Screened;
use super::snowball::stage_llm;
use super::{Drive, Runner, finished};
use crate::error::Result;
use crate::fulltext::FulltextRecord;

/// The write step's output: the review and its length, with the model's ledger when one
/// drafted it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct WriteRecord {
    pub(crate) review: Review,
    pub(crate) words: usize,
    /// The language model's ledger and report, when one drafted the themes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) llm: Option<crate::LlmRecord>,
}

/// What the review is written from, past the screening: the steps after the gate.
pub(super) struct Synthesis<'a> {
    pub(super) included: &'a BTreeMap<WorkId, Work>,
    pub(super) citations: &'a [Citation],
    pub(super) fulltext: &'a FulltextRecord,
    pub(super) organisation: &'a Organisation,
}

impl Runner {
    /// Runs (or loads) the write step.
    pub(super) fn write_step(
        &mut self,
        drive: &Drive<'_>,
        screened: &Screened,
        synthesis: &Synthesis<'_>,
    ) -> Result<WriteRecord> {
        if let Some(written) = self.stored(drive, "write")? {
            return Ok(written);
        }
        let (options, events) = (&drive.options, drive.events);
        let detail = match &options.llm {
            None => "writing the review from the works' abstracts".to_owned(),
            Some(llm) => format!("drafting the themes with {} ({})", llm.model, llm.provider),
        };
        self.started(events, "write", &detail);
        let facts = method_facts(screened);
        let corpus_citations =
            corpus_citations(&screened.entries, synthesis.citations, synthesis.included);
        let input = WriteInput {
            plan: &screened.planned.plan,
            facts: &facts,
            included: synthesis.included,
            organisation: synthesis.organisation,
            corpus_citations: &corpus_citations,
            citations: synthesis.citations,
            cards: &synthesis.fulltext.cards_by_work(),
        };
        let (review, llm) = match &options.llm {
            None => (litrev_write::write(&input), None),
            Some(llm) => {
                let earlier = crate::llm::EarlierCalls {
                    fulltext: synthesis.fulltext.llm.clone(),
                    ..screened.earlier_calls()
                };
                let (review, record) =
                    crate::llm::write_review(&self.llm_cache()?, llm, &input, earlier, events)?;
                (review, Some(record))
            }
        };
        let words = review.sentences().map(words_of).sum();
        let usage = record_phases(llm.as_ref());
        let record = WriteRecord { review, words, llm };
        self.commit(drive.run, "write", &record, &StepWrites::default(), usage)?;
        finished(events, "write", format!("{words} words"));
        Ok(record)
    }

    /// Runs (or loads) the audit: the grounding invariants, before anything is published.
    pub(super) fn audit_step(
        &mut self,
        drive: &Drive<'_>,
        written: &WriteRecord,
        synthesis: &Synthesis<'_>,
    ) -> Result<AuditReport> {
        if let Some(report) = self.stored(drive, "audit")? {
            return Ok(report);
        }
        let events = drive.events;
        self.started(
            events,
            "audit",
            "checking every citation and every taken sentence",
        );
        let texts = self.full_texts(synthesis.fulltext)?;
        let report = litrev_audit::audit(&written.review, synthesis.included, &texts)?;
        self.commit(
            drive.run,
            "audit",
            &report,
            &StepWrites::default(),
            Vec::new(),
        )?;
        finished(events, "audit", audit_summary(&report));
        Ok(report)
    }
}

/// The audit's one-line summary for the frontends.
fn audit_summary(report: &AuditReport) -> String {
    let mut summary = format!(
        "{} citations of {} works resolve; {} sentences taken from works are verbatim",
        report.citations, report.cited_works, report.span_sentences
    );
    if report.full_text_sentences > 0 {
        summary.push_str(&format!(
            " ({} of them from full texts, at their locators)",
            report.full_text_sentences
        ));
    }
    if report.paraphrased_sentences > 0 {
        summary.push_str(&format!(
            ", {} paraphrased ones are supported by their spans",
            report.paraphrased_sentences
        ));
    }
    summary
}

/// What the methods section reports of how the works were found and screened.
fn method_facts(screened: &Screened) -> MethodFacts {
    let Screened {
        planned,
        discovery,
        stages,
        screen,
        ..
    } = screened;
    let plan = &planned.plan;
    MethodFacts {
        source: discovery.source.clone(),
        queries: plan
            .queries
            .iter()
            .map(|query| QueryFact {
                text: query.text.clone(),
                purpose: query.purpose.clone(),
                hits: discovery
                    .hits
                    .iter()
                    .find(|hits| hits.label == query.label)
                    .map_or(0, |hits| hits.works.len()),
            })
            .collect(),
        seeds: plan.seeds.len(),
        raw_hits: discovery.raw_hits,
        discovered: discovery.discovered,
        stages: stages
            .iter()
            .filter_map(|stage| stage.report.clone())
            .collect(),
        stop: stages.last().and_then(|stage| stage.stop),
        considered: screen.considered,
        excluded: screen.excluded.clone(),
        included: screen.included,
        snowball_model_verdicts: stage_llm(stages)
            .map(|stage| stage.scoring.verdicts.len())
            .sum(),
        criteria_judged: screen.judge.as_ref().map_or(0, |judge| judge.judged),
        continued: discovery
            .continued
            .as_ref()
            .map(|continued| litrev_write::ContinuedFact {
                parent_question: continued.parent_question.clone(),
                carried_works: continued.carried_works,
                new_queries: continued.new_queries,
                reused_queries: continued.reused_queries,
            }),
        experts: discovery.experts.clone(),
        pages: discovery
            .pages
            .iter()
            .map(|page| litrev_write::PageFact {
                address: page.address.clone(),
                work: page.work.clone(),
                failure: page.failure.clone(),
            })
            .collect(),
        libraries: discovery
            .libraries
            .iter()
            .map(|library| litrev_write::LibraryFact {
                name: library.path.file_name().map_or_else(
                    || library.path.display().to_string(),
                    |name| name.to_string_lossy().into_owned(),
                ),
                records: library.records,
                works: library.works,
            })
            .collect(),
    }
}

/// Citations each included work receives from anywhere in the corpus.
fn corpus_citations(
    entries: &[CorpusEntry],
    citations: &[Citation],
    included: &BTreeMap<WorkId, Work>,
) -> BTreeMap<WorkId, usize> {
    let nodes: Vec<WorkId> = entries.iter().map(|entry| entry.work.clone()).collect();
    let graph = CitationGraph::new(&nodes, citations);
    included
        .keys()
        .map(|id| (id.clone(), graph.in_degree(id)))
        .collect()
}

/// The language model's usage per phase in a write step's record (none without a model).
fn record_phases(llm: Option<&crate::LlmRecord>) -> Vec<PhaseUsage> {
    llm.map_or_else(Vec::new, |llm| {
        llm.phases
            .iter()
            .filter(|usage| usage.phase.starts_with("write"))
            .cloned()
            .collect()
    })
}
