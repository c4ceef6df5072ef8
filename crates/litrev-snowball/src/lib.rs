//! Seeds → corpus grown through citations, one stage at a time, until saturation.
//!
//! Each stage expands the relevant works not yet expanded, highest priority first: their
//! references (backward) and the works citing them (forward). New works are judged relevant
//! semantically (TF-IDF similarity to the question and the seeds, relative to the discovered
//! core) or structurally (cited by, or citing, at least three relevant works). Snowballing
//! stops when a stage finds nothing new and relevant, when the share of new relevant works
//! stays under the coverage threshold for two stages, or at the tier's stage limit.
//!
//! The runner calls [`expand_stage`] once per stage and stores each outcome before the next,
//! so a stopped run resumes at the stage it was in.

use std::collections::{BTreeMap, BTreeSet};

use litrev_graph::{CitationGraph, edges_within};
use litrev_model::{Citation, CorpusEntry, Origin, Plan, StageReport, StopReason, Work, WorkId};
use litrev_sources::Source;
use litrev_text::{Corpus, RelevanceProfile};
use serde::{Deserialize, Serialize};

/// Why a stage failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The source failed.
    #[error(transparent)]
    Source(#[from] litrev_sources::Error),
}

/// Result with snowballing's error.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Limits and thresholds of snowballing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SnowballConfig {
    /// Most stages.
    pub max_stages: u32,
    /// Most works expanded per stage.
    pub expand_per_stage: usize,
    /// Relevance threshold relative to the discovered core (0–1).
    pub relevance_threshold: f32,
    /// Below this share of new relevant works for two stages, snowballing stops.
    pub coverage_threshold: f32,
    /// Links to this many relevant works make a work relevant whatever its text.
    pub structural_links: usize,
    /// How many top discovered works define "relevant" when no seeds are given.
    pub profile_works: usize,
}

impl SnowballConfig {
    /// The plan's limits with the seed values of the design (co-citation ≥ 3, coverage 10 %).
    pub fn from_plan(plan: &Plan) -> SnowballConfig {
        SnowballConfig {
            max_stages: plan.limits.max_stages,
            expand_per_stage: plan.limits.max_works,
            relevance_threshold: plan.relevance_threshold,
            coverage_threshold: 0.10,
            structural_links: 3,
            profile_works: 5,
        }
    }
}

/// The corpus as it stands before a stage.
#[derive(Debug, Clone, Copy)]
pub struct SnowballState<'a> {
    /// The research question.
    pub question: &'a str,
    /// Works the user named as seeds.
    pub seeds: &'a [WorkId],
    /// Every corpus entry so far, in the order works entered.
    pub entries: &'a [CorpusEntry],
    /// The records of the corpus works (stubs have no record here).
    pub works: &'a BTreeMap<WorkId, Work>,
    /// Works already expanded.
    pub expanded: &'a BTreeSet<WorkId>,
    /// Reports of earlier stages.
    pub history: &'a [StageReport],
}

/// What one stage produced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StageOutcome {
    /// Counts of the stage.
    pub report: Option<StageReport>,
    /// Works to store: new records and stubs.
    pub new_works: Vec<Work>,
    /// New corpus entries.
    pub new_entries: Vec<CorpusEntry>,
    /// Citation edges within the corpus after the stage.
    pub citations: Vec<Citation>,
    /// Works expanded in this stage.
    pub expanded: Vec<WorkId>,
    /// Set when snowballing should stop after this stage.
    pub stop: Option<StopReason>,
    /// The absolute relevance threshold used.
    pub threshold: f32,
}

/// Runs stage `stage` (from 1) of snowballing.
///
/// # Errors
/// When the source fails.
pub fn expand_stage(
    source: &dyn Source,
    config: &SnowballConfig,
    state: &SnowballState<'_>,
    stage: u32,
) -> Result<StageOutcome> {
    let corpus_ids: BTreeSet<&WorkId> = state.entries.iter().map(|entry| &entry.work).collect();
    let judge = Judge::new(config, state, &[]);
    let scores = judge.scores(state.works);
    let relevant = judge.relevant(&scores);

    let frontier = prioritise(config, state, &relevant, &scores);
    if frontier.is_empty() {
        return Ok(StageOutcome {
            stop: Some(StopReason::NothingToExpand),
            threshold: judge.threshold,
            ..StageOutcome::default()
        });
    }

    // Backward: references of the frontier not yet in the corpus.
    let mut backward_ids: BTreeSet<WorkId> = BTreeSet::new();
    for id in &frontier {
        for reference in &state.works[id].references {
            if !corpus_ids.contains(reference) {
                backward_ids.insert(reference.clone());
            }
        }
    }
    let backward_list: Vec<WorkId> = backward_ids.iter().cloned().collect();
    let found_backward = source.lookup(&backward_list)?;
    // Forward: works citing the frontier.
    let found_forward = source.citing(&frontier)?;

    let mut new_records: BTreeMap<WorkId, (Work, Origin)> = BTreeMap::new();
    for work in found_backward {
        if !work.ids.all().iter().any(|id| corpus_ids.contains(id)) {
            new_records.insert(work.id(), (work, Origin::Backward));
        }
    }
    for work in found_forward {
        if !work.ids.all().iter().any(|id| corpus_ids.contains(id)) {
            new_records
                .entry(work.id())
                .or_insert((work, Origin::Forward));
        }
    }
    let found_ids: BTreeSet<WorkId> = new_records
        .values()
        .flat_map(|(work, _)| work.ids.all())
        .collect();
    let stubs: Vec<Work> = backward_ids
        .iter()
        .filter(|id| !found_ids.contains(*id))
        .map(|id| Work::stub(id.clone()))
        .collect();

    // Judge the new works against the corpus they join.
    let new_works: Vec<&Work> = new_records.values().map(|(work, _)| work).collect();
    let judge = Judge::new(config, state, &new_works);
    let relevant_before = judge.relevant(&judge.scores(state.works)).len();
    let mut relevant_links: BTreeMap<&WorkId, usize> = BTreeMap::new();
    for id in &relevant {
        for reference in &state.works[*id].references {
            *relevant_links.entry(reference).or_default() += 1;
        }
    }
    let relevant_set: BTreeSet<&WorkId> = relevant.iter().copied().collect();
    let mut new_entries = Vec::new();
    let mut new_relevant = 0;
    for (id, (work, origin)) in &new_records {
        let score = judge.score(work);
        let cited_by_relevant = relevant_links.get(id).copied().unwrap_or(0);
        let cites_relevant = work
            .references
            .iter()
            .filter(|reference| relevant_set.contains(reference))
            .count();
        let structural = cited_by_relevant.max(cites_relevant) >= config.structural_links;
        if score >= judge.threshold || structural {
            new_relevant += 1;
        }
        new_entries.push(CorpusEntry {
            work: id.clone(),
            stage,
            origin: *origin,
            score,
            queries: Vec::new(),
        });
    }
    for stub in &stubs {
        new_entries.push(CorpusEntry {
            work: stub.id(),
            stage,
            origin: Origin::Backward,
            score: 0.0,
            queries: Vec::new(),
        });
    }

    let report = StageReport {
        stage,
        expanded: frontier.len(),
        new_works: new_entries.len(),
        new_relevant,
        relevant_total: relevant_before + new_relevant,
    };
    let share = new_relevant as f32 / relevant_before.max(1) as f32;
    let previous_share_low = state.history.last().is_some_and(|previous| {
        let before = previous
            .relevant_total
            .saturating_sub(previous.new_relevant)
            .max(1);
        (previous.new_relevant as f32 / before as f32) < config.coverage_threshold
    });
    let stop = if new_relevant == 0 {
        Some(StopReason::Saturated)
    } else if share < config.coverage_threshold && previous_share_low {
        Some(StopReason::BelowCoverageThreshold)
    } else if stage >= config.max_stages {
        Some(StopReason::StageLimit)
    } else {
        None
    };

    let mut all_works: Vec<&Work> = state.works.values().collect();
    all_works.extend(new_records.values().map(|(work, _)| work));
    let mut all_ids: BTreeSet<&WorkId> = corpus_ids;
    all_ids.extend(new_entries.iter().map(|entry| &entry.work));
    let citations = edges_within(&all_works, &all_ids);

    let mut stored: Vec<Work> = new_records.into_values().map(|(work, _)| work).collect();
    stored.extend(stubs);
    Ok(StageOutcome {
        report: Some(report),
        new_works: stored,
        new_entries,
        citations,
        expanded: frontier,
        stop,
        threshold: judge.threshold,
    })
}

/// Relevance judgement for one stage: a profile fitted on the corpus plus the newcomers.
struct Judge {
    profile: RelevanceProfile,
    threshold: f32,
    seeds: BTreeSet<WorkId>,
}

impl Judge {
    fn new(config: &SnowballConfig, state: &SnowballState<'_>, newcomers: &[&Work]) -> Judge {
        let texts: Vec<String> = state
            .works
            .values()
            .chain(newcomers.iter().copied())
            .map(Work::title_and_abstract)
            .collect();
        let corpus = Corpus::fit(texts.iter().map(String::as_str));
        let profile_ids = profile_works(config, state);
        let profile_texts: Vec<String> = profile_ids
            .iter()
            .filter_map(|id| state.works.get(id))
            .map(Work::title_and_abstract)
            .collect();
        let profile_refs: Vec<&str> = profile_texts.iter().map(String::as_str).collect();
        let profile = RelevanceProfile::new(corpus, state.question, &profile_refs);
        // The discovered core (stage 0) shows what relevant looks like for this question.
        let mut core_scores: Vec<f32> = state
            .entries
            .iter()
            .filter(|entry| entry.stage == 0)
            .filter_map(|entry| state.works.get(&entry.work))
            .map(|work| profile.score(&work.title_and_abstract()))
            .collect();
        core_scores.sort_by(|a, b| b.total_cmp(a));
        core_scores.truncate(20);
        let reference = core_scores
            .get(core_scores.len() / 2)
            .copied()
            .unwrap_or(0.0);
        Judge {
            profile,
            threshold: reference * config.relevance_threshold,
            seeds: state.seeds.iter().cloned().collect(),
        }
    }

    fn score(&self, work: &Work) -> f32 {
        self.profile.score(&work.title_and_abstract())
    }

    /// Relevance of every corpus work with a record.
    fn scores<'w>(&self, works: &'w BTreeMap<WorkId, Work>) -> BTreeMap<&'w WorkId, f32> {
        works
            .iter()
            .filter(|(_, work)| !work.is_stub())
            .map(|(id, work)| (id, self.score(work)))
            .collect()
    }

    /// Works judged relevant: seeds, and those scoring at least the threshold.
    fn relevant<'w>(&self, scores: &BTreeMap<&'w WorkId, f32>) -> Vec<&'w WorkId> {
        scores
            .iter()
            .filter(|(id, score)| self.seeds.contains(**id) || **score >= self.threshold)
            .map(|(id, _)| *id)
            .collect()
    }
}

/// Seeds, or failing them the best discovered works: the texts relevance is measured against.
fn profile_works(config: &SnowballConfig, state: &SnowballState<'_>) -> Vec<WorkId> {
    if !state.seeds.is_empty() {
        return state.seeds.to_vec();
    }
    state
        .entries
        .iter()
        .filter(|entry| entry.stage == 0 && state.works.contains_key(&entry.work))
        .take(config.profile_works)
        .map(|entry| entry.work.clone())
        .collect()
}

/// Relevant works not yet expanded, best first: relevance, then citations inside the corpus.
fn prioritise(
    config: &SnowballConfig,
    state: &SnowballState<'_>,
    relevant: &[&WorkId],
    scores: &BTreeMap<&WorkId, f32>,
) -> Vec<WorkId> {
    let nodes: Vec<WorkId> = state.works.keys().cloned().collect();
    let all: Vec<&Work> = state.works.values().collect();
    let ids: BTreeSet<&WorkId> = state.works.keys().collect();
    let graph = CitationGraph::new(&nodes, &edges_within(&all, &ids));
    let mut candidates: Vec<(f32, &WorkId)> = relevant
        .iter()
        .filter(|id| !state.expanded.contains(**id))
        .map(|id| {
            let links = graph.in_degree(id) + graph.out_degree(id);
            let score = scores.get(*id).copied().unwrap_or(0.0);
            (score * (1.0 + (1.0 + links as f32).ln()), *id)
        })
        .collect();
    candidates.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    candidates
        .into_iter()
        .take(config.expand_per_stage)
        .map(|(_, id)| id.clone())
        .collect()
}
