//! Search alone: the plan's queries run on every source, the hits merged, and a per-source
//! account of what each contributed and cost. Nothing is stored but the HTTP cache.

use std::collections::BTreeSet;

use litrev_model::{MergeCounts, ProbeReading, Query, Tier, Work, WorkId, merge_duplicates};
use litrev_plan::PlanConfig;
use litrev_sources::Federation;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::events::Event;
use crate::options::SourceSpec;
use crate::runner::Runner;

/// What one source contributed to a search, and what it cost.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SourceRow {
    /// The source's name (`openalex`, `semantic-scholar`…).
    pub source: String,
    /// Records returned over all queries.
    pub hits: usize,
    /// Distinct works after dedup that no source listed before it had returned.
    pub new_after_dedup: usize,
    /// Network requests, retries included.
    pub requests: u64,
    /// Retries among them.
    pub retries: u64,
    /// Requests answered by the disk cache.
    pub cache_hits: u64,
    /// Money spent, in US dollars, where the API prices calls (OpenAlex).
    pub cost_usd: f64,
    /// Why the source failed and was left out, if it did.
    pub failure: Option<String>,
}

/// The outcome of `litrev search`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchReport {
    /// The queries run.
    pub queries: Vec<Query>,
    /// One row per source, in the order given.
    pub sources: Vec<SourceRow>,
    /// The merged works, in order of first appearance.
    #[serde(skip)]
    pub works: Vec<Work>,
    /// Records in all, before dedup.
    pub records: usize,
    /// How dedup merged them.
    #[serde(skip)]
    pub merges: MergeCounts,
}

impl Runner {
    /// A probe for the brief: the quick tier's searches of the plan's question on the scholarly
    /// ones of `sources` (web pages carry no disciplines), whose works tell the brief the
    /// question's disciplines and what to ask ([`litrev_plan::read_probe`]); how many works it
    /// read.
    ///
    /// # Errors
    /// As [`Runner::search`].
    pub fn probe(
        &self,
        plan: &mut litrev_model::Plan,
        sources: &[SourceSpec],
        events: &dyn Fn(&Event),
    ) -> Result<usize> {
        // Web pages carry no disciplines: the web is not probed.
        let scholarly: Vec<SourceSpec> = sources
            .iter()
            .filter(|source| !source.is_web())
            .cloned()
            .collect();
        if scholarly.is_empty() {
            return Ok(0);
        }
        let searches = search_plan(&plan.question, &scholarly, Tier::Quick)?;
        let federation = self.sources().open(&SourceSpec::merge(scholarly), events)?;
        let report = self.search_in(&federation, searches.clone(), events)?;
        // A source that fails to count is passed over: the count only informs the estimate
        // and whether the field is large.
        let matches = searches
            .queries
            .iter()
            .flat_map(|query| federation.count_each(query))
            .filter_map(|(_, count)| count.ok().flatten())
            .max();
        plan.brief.probe = Some(ProbeReading::of(
            report
                .works
                .iter()
                .map(|work| work.cited_by_count.map_or(0, u64::from)),
            report.records,
            matches,
        ));
        litrev_plan::read_probe(&mut plan.brief, &plan.key_terms, &report.works);
        Ok(report.works.len())
    }

    /// Runs the queries the plan makes of `question` on every source and merges the hits.
    ///
    /// # Errors
    /// When the question has no topic words, or every source fails.
    pub fn search(
        &self,
        question: &str,
        sources: &[SourceSpec],
        tier: Tier,
        events: &dyn Fn(&Event),
    ) -> Result<SearchReport> {
        let plan = search_plan(question, sources, tier)?;
        let federation = self
            .sources()
            .open(&SourceSpec::merge(sources.to_vec()), events)?;
        self.search_in(&federation, plan, events)
    }

    /// Runs `plan`'s queries on every source of `federation` and merges the hits.
    fn search_in(
        &self,
        federation: &Federation,
        plan: litrev_model::Plan,
        events: &dyn Fn(&Event),
    ) -> Result<SearchReport> {
        let kinds: Vec<_> = federation
            .sources()
            .iter()
            .map(|source| source.kind())
            .collect();
        let mut per_source: Vec<Vec<Work>> = vec![Vec::new(); kinds.len()];
        let mut failures: Vec<Option<String>> = vec![None; kinds.len()];
        for query in &plan.queries {
            events(&Event::StepStarted {
                step: "search".into(),
                detail: format!("{}: {}", query.label, query.text),
            });
            for (kind, outcome) in federation.search_each(query, plan.hits_per_query) {
                let Some(slot) = kinds.iter().position(|known| *known == kind) else {
                    continue;
                };
                match outcome {
                    Ok(hits) => per_source[slot].extend(hits.into_iter().map(|hit| hit.work)),
                    Err(error) => {
                        let message = error.to_string();
                        events(&Event::Notice {
                            message: format!("{kind} failed and was left out: {message}"),
                        });
                        failures[slot].get_or_insert(message);
                    }
                }
            }
        }
        if failures.iter().all(Option::is_some) {
            let message = failures
                .iter()
                .flatten()
                .cloned()
                .collect::<Vec<_>>()
                .join("; ");
            return Err(Error::AllSourcesFailed(message));
        }

        let records: Vec<Work> = per_source.iter().flatten().cloned().collect();
        let record_count = records.len();
        let merged = merge_duplicates(records);
        crate::runner::finished(
            events,
            "search",
            format!(
                "{} queries, {record_count} hits, {} works",
                plan.queries.len(),
                merged.works.len()
            ),
        );
        let summary = self.sources().http_summary();
        let mut seen: BTreeSet<WorkId> = BTreeSet::new();
        let mut rows = Vec::new();
        for (slot, kind) in kinds.iter().enumerate() {
            let mut new = 0;
            for work in &per_source[slot] {
                let Some(canonical) = work.ids.primary().and_then(|id| merged.canonical.get(&id))
                else {
                    continue;
                };
                if seen.insert(canonical.clone()) {
                    new += 1;
                }
            }
            let calls = summary.iter().find(|row| row.source == kind.name());
            rows.push(SourceRow {
                source: kind.name().to_owned(),
                hits: per_source[slot].len(),
                new_after_dedup: new,
                requests: calls.map_or(0, |row| row.requests),
                retries: calls.map_or(0, |row| row.retries),
                cache_hits: calls.map_or(0, |row| row.cache_hits),
                cost_usd: calls.map_or(0.0, |row| row.cost),
                failure: failures[slot].clone(),
            });
        }
        Ok(SearchReport {
            queries: plan.queries,
            sources: rows,
            works: merged.works,
            records: record_count,
            merges: merged.merges,
        })
    }
}

/// The searches a plan of `question` at `tier` makes on `sources` (web searches only when a
/// web source is named).
///
/// # Errors
/// When the question has no topic words.
fn search_plan(question: &str, sources: &[SourceSpec], tier: Tier) -> Result<litrev_model::Plan> {
    let mut config = PlanConfig::for_tier(tier);
    config.web_search = sources.iter().any(SourceSpec::is_web);
    let plan = litrev_plan::plan(question, &config);
    if plan.queries.is_empty() {
        return Err(Error::Discover(litrev_discover::Error::NothingToSearch));
    }
    Ok(plan)
}
