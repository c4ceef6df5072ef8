//! Seeds → corpus grown through citations, one stage at a time, until saturation.
//!
//! Each stage expands the relevant works not yet expanded, highest priority first (cited
//! inside the corpus, rising, many unexplored links, central in the citation graph): the works
//! they cite (backward) and the works citing them (forward). New works are deduplicated
//! against the corpus, then judged in two steps ([`Judgement`]): structurally (linked to at
//! least three relevant works: citing or cited by them, cited together with them, sharing
//! references with them), then semantically (similarity of text and of citation links to the
//! question, the seeds and the best works so far) against a threshold. Snowballing stops when a
//! stage finds nothing new and relevant, when the share of new relevant works (the coverage
//! delta, [`coverage_delta`]) stays under the coverage threshold for two stages, or at the
//! tier's stage limit.
//!
//! Requests are batched and spent once. An expanded work is never expanded again. The
//! references the corpus does not know are looked up by id (100 a request, known ids never
//! asked for again) or, when the source batches them
//! ([`litrev_sources::Capabilities::reference_lists`]), listed by the works citing them
//! (`cited_by:` lists of 100 works, pages of 200, which also return references the corpus
//! knows), whichever takes fewer requests; only works with a reference the corpus does not
//! know are listed. The citing works are asked for only for works the corpus does not already
//! know every citer of (fewer known citers than the source's `cited_by_count`, or no count),
//! counting the references the stage just found.
//! Each listing tells the source which works of its answers the corpus holds
//! ([`litrev_sources::Held`]); a source that can leave them out (OpenAlex, as many as a URL
//! has room for) does, and the minimum then counts the known works no request of that size
//! could have left out ([`listing_minimum`]).
//! The frontier is packed into lists that answer with few duplicates. Each outcome says what
//! it asked the source for ([`Expansion`]), from which the fewest requests the stage needed
//! follow ([`Expansion::minimum_requests`]).
//!
//! The runner calls [`expand_stage`] once per stage and stores each outcome before the next,
//! so a stopped run resumes at the stage it was in; [`judge_corpus`] gives the final
//! judgement of the corpus (its relevant works and its ranking).

mod batching;
mod fetch;
mod judge;
mod links;
mod priority;
mod scorer;
#[cfg(test)]
mod test_works;

use std::collections::{BTreeMap, BTreeSet};

use litrev_graph::edges_within;
use litrev_model::{
    Citation, CorpusEntry, Focus, Origin, Plan, StageReport, StopReason, Work, WorkId,
};
use litrev_sources::Source;
use serde::{Deserialize, Serialize};

pub use judge::{Basis, Judgement};
pub use scorer::{LlmScorer, LlmVerdict, SCORER_MAX_TOKENS, SCORER_PHASE, ScorerReport};

/// Why a stage failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The source failed.
    #[error(transparent)]
    Source(#[from] litrev_sources::Error),
    /// The request to the language model scoring works in doubt could not be built.
    #[error(transparent)]
    Llm(#[from] litrev_llm::Error),
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
    /// Relevance threshold as a share of the median score of the core (the profile works and
    /// the feedback works), 0–1.
    pub relevance_threshold: f32,
    /// Below this share of new relevant works for two stages, snowballing stops.
    pub coverage_threshold: f32,
    /// Links to this many relevant works make a work relevant whatever its text (0: never).
    pub structural_links: usize,
    /// How strong a co-citation or coupling must be to count as a link: works citing both,
    /// or references shared.
    #[serde(default = "default_link_strength")]
    pub link_strength: usize,
    /// How many top discovered works define "relevant" when no seeds are given.
    pub profile_works: usize,
    /// How many of the best works so far join the profile as relevance feedback.
    #[serde(default = "default_feedback_works")]
    pub feedback_works: usize,
    /// Weight of citation-link similarity against text similarity (1 = equal).
    #[serde(default = "default_link_weight")]
    pub link_weight: f32,
    /// Weight of reach (how often a walk along citations from the best works visits a work)
    /// against text similarity (1 = equal).
    #[serde(default = "default_reach_weight")]
    pub reach_weight: f32,
}

fn default_link_strength() -> usize {
    3
}

fn default_feedback_works() -> usize {
    60
}

fn default_link_weight() -> f32 {
    0.15
}

fn default_reach_weight() -> f32 {
    0.8
}

impl Default for SnowballConfig {
    /// The seed values of the design (links to ≥ 3 relevant works, coverage 10 %), five stages
    /// of at most 300 works, and the threshold (0.15 of the core's median score) and ranking
    /// weights leave-one-dataset-out cross-validation chose (`litrev bench snowball-cv`, the
    /// seven SYNERGY reviews with a works file, 45 settings): links weighing 0.15 of text,
    /// reach 0.8 and 60 feedback works.
    ///
    /// The choice keeps the corpus's recall of the included studies first and ranks them
    /// highest second (their recall in the ranking's top 100, 200 and 300), and prefers a
    /// setting that holds on every review to one that wins the mean. Each review's figure
    /// from weights chosen on the other six: corpus recall 0.974 (as the weights chosen by hand
    /// on all seven before, links 0.3, reach 0.2 and 30 feedback works), ranking 0.691 against
    /// their 0.687 (Chou_2004 0.381 → 0.429, Nelson_2002 0.735 → 0.756, Sep_2021 0.798 →
    /// 0.815; Jeyaraman_2020 0.609 → 0.585, Menon_2022 0.592 → 0.560), a keyword ranking's
    /// 0.615. Reach 1.6 loses studies of Chou_2004 (0.857 → 0.571).
    ///
    /// The threshold is low on purpose: snowballing gathers, screening decides. The same bench
    /// chooses it after the weights, as the highest of 0.05–0.3 that keeps 95 % of what the
    /// lowest keeps on every other review: 0.15 on all seven and for six of them left out;
    /// Chou_2004 left out gets 0.2, which loses one of its seven studies there (corpus recall
    /// 0.857 → 0.714, 763 → 625 works), so the cross-validated corpus recall is 0.954.
    fn default() -> SnowballConfig {
        SnowballConfig {
            max_stages: 5,
            expand_per_stage: 300,
            relevance_threshold: 0.15,
            coverage_threshold: 0.10,
            structural_links: 3,
            link_strength: default_link_strength(),
            profile_works: 5,
            feedback_works: default_feedback_works(),
            link_weight: default_link_weight(),
            reach_weight: default_reach_weight(),
        }
    }
}

impl SnowballConfig {
    /// The plan's tier limits (stages, works expanded per stage) with the default thresholds
    /// and weights. The plan's own relevance threshold is the screen's, a stricter judgement.
    pub fn from_plan(plan: &Plan) -> SnowballConfig {
        SnowballConfig {
            max_stages: plan.limits.max_stages,
            expand_per_stage: plan.limits.max_works,
            ..SnowballConfig::default()
        }
    }
}

/// The corpus as it stands before a stage.
#[derive(Debug, Clone, Copy)]
pub struct SnowballState<'a> {
    /// The research question.
    pub question: &'a str,
    /// The domains of a question searched side by side ([`Plan::focuses`]); empty: the
    /// question is one.
    pub focuses: &'a [Focus],
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
    /// A language model's verdicts so far on works their score left in doubt (relevant or
    /// not), which replace the score's judgement of them.
    pub verdicts: &'a BTreeMap<WorkId, bool>,
}

/// Ids one request may list (an OpenAlex OR-filter's limit).
pub const IDS_PER_REQUEST: usize = 100;
/// Works one request may return (OpenAlex's largest page).
pub const WORKS_PER_PAGE: usize = 200;

/// What a stage asked its source for: the numbers the fewest requests it needed follow from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expansion {
    /// Works with references the corpus did not know: those whose references were followed.
    pub referencing: usize,
    /// Their references the corpus did not know.
    pub unknown_references: usize,
    /// Their references the source holds: records the corpus knew, plus those found.
    pub existing_references: usize,
    /// Of those, the records the corpus knew.
    #[serde(default)]
    pub held_references: usize,
    /// Whether the references came as lists of what the works cite (`cited_by:`) rather than
    /// looked up id by id.
    pub reference_lists: bool,
    /// Works whose citing works were asked for (those with citers the corpus did not know).
    pub cited: usize,
    /// Distinct works those citing-work requests returned.
    pub citing_found: usize,
    /// Of those, the works the corpus did not know.
    #[serde(default)]
    pub citing_new: usize,
    /// The works the corpus knew to cite the works whose citing works were asked for.
    #[serde(default)]
    pub held_citing: usize,
    /// How many ids one listing request could name, the works listed from and the known works
    /// left out together; 0 when the source leaves none out
    /// ([`litrev_sources::Capabilities::held_left_out`]).
    #[serde(default)]
    pub ids_per_request: usize,
}

impl Expansion {
    /// The fewest requests that fetch what this expansion fetched, at [`IDS_PER_REQUEST`] ids
    /// and [`WORKS_PER_PAGE`] works a request: the unknown references either looked up by id
    /// or listed by the works citing them, whichever is fewer, plus the citing works listed by
    /// the works they cite. See [`listing_minimum`] for a listing's.
    pub fn minimum_requests(&self) -> u64 {
        let backward = if self.unknown_references == 0 {
            0
        } else {
            batches(self.unknown_references, IDS_PER_REQUEST).min(listing_minimum(
                self.referencing,
                self.existing_references - self.held_references,
                self.held_references,
                self.ids_per_request,
            ))
        };
        // Without leaving out, what came back is what had to: the known citers the source
        // holds, which may differ from those the corpus counts.
        let (citing_new, held_citing) = if self.ids_per_request == 0 {
            (self.citing_found, 0)
        } else {
            (self.citing_new, self.held_citing)
        };
        let forward = if self.cited == 0 {
            0
        } else {
            listing_minimum(self.cited, citing_new, held_citing, self.ids_per_request)
        };
        backward + forward
    }
}

/// The fewest requests listing the works citing (or cited by) `listed` works needs, when the
/// answers hold `new` works the corpus did not know and `held` ones it did: a list per
/// [`IDS_PER_REQUEST`] works, and a page per [`WORKS_PER_PAGE`] works returned.
///
/// A source that cannot leave the held works out (`ids_per_request` 0) returns them all. One
/// that can names at most `ids_per_request` ids a request, listed and left out together, so
/// `P` requests leave out at most `P × ids_per_request − listed` held works and return the
/// rest: `200 P ≥ new + held − (P × ids_per_request − listed)`.
fn listing_minimum(listed: usize, new: usize, held: usize, ids_per_request: usize) -> u64 {
    batches(listed, IDS_PER_REQUEST).max(batches(
        new + held + if ids_per_request == 0 { 0 } else { listed },
        WORKS_PER_PAGE + ids_per_request,
    ))
}

/// `ceil(count / size)`.
fn batches(count: usize, size: usize) -> u64 {
    count.div_ceil(size.max(1)) as u64
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
    /// What the stage asked the source for.
    #[serde(default)]
    pub expansion: Expansion,
    /// What the language model said of the works in doubt, when the run has one.
    #[serde(default)]
    pub scoring: ScorerReport,
}

/// Runs stage `stage` (from 1) of snowballing; with a `scorer`, the works the text judgement
/// is unsure of after the stage are judged by the language model.
///
/// # Errors
/// When the source fails, or a request to the scorer cannot be built.
pub fn expand_stage(
    source: &dyn Source,
    config: &SnowballConfig,
    state: &SnowballState<'_>,
    stage: u32,
    scorer: Option<LlmScorer<'_>>,
) -> Result<StageOutcome> {
    // Every id the corpus knows, aliases of its records included: none is fetched again.
    let mut known: BTreeSet<&WorkId> = state.entries.iter().map(|entry| &entry.work).collect();
    let aliases: Vec<WorkId> = state
        .works
        .values()
        .flat_map(|work| work.ids.all())
        .collect();
    known.extend(aliases.iter());
    let records: BTreeMap<WorkId, &Work> = records_of(state.works.values());
    let before = judge_records(config, state, &records);

    let all: Vec<&Work> = state.works.values().collect();
    let ids: BTreeSet<&WorkId> = state.works.keys().collect();
    let frontier = priority::frontier(
        &before,
        state.works,
        &known,
        &edges_within(&all, &ids),
        state.expanded,
        config.expand_per_stage,
    );
    if frontier.is_empty() {
        return Ok(StageOutcome {
            stop: Some(StopReason::NothingToExpand),
            threshold: before.threshold,
            ..StageOutcome::default()
        });
    }

    let packing = fetch::Packing::of(&source.capabilities());
    let backward = fetch::backward(source, state, &records, &known, &frontier, packing)?;
    let forward = fetch::forward(source, state, &frontier, &backward.found, packing)?;
    let citing_found = forward
        .found
        .iter()
        .map(Work::id)
        .collect::<BTreeSet<_>>()
        .len();

    let mut new_records: BTreeMap<WorkId, (Work, Origin)> = BTreeMap::new();
    for (work, origin) in backward
        .found
        .into_iter()
        .map(|work| (work, Origin::Backward))
        .chain(
            forward
                .found
                .into_iter()
                .map(|work| (work, Origin::Forward)),
        )
    {
        if !work.ids.all().iter().any(|id| known.contains(id)) {
            new_records.entry(work.id()).or_insert((work, origin));
        }
    }
    let found_ids: BTreeSet<WorkId> = new_records
        .values()
        .flat_map(|(work, _)| work.ids.all())
        .collect();
    let stubs: Vec<Work> = backward
        .unknown
        .iter()
        .filter(|id| !found_ids.contains(*id))
        .map(|id| Work::stub(id.clone()))
        .collect();
    let expansion = Expansion {
        referencing: backward.referencing,
        unknown_references: backward.unknown.len(),
        existing_references: backward.held + backward.unknown.len() - stubs.len(),
        held_references: backward.held,
        reference_lists: backward.lists,
        cited: forward.cited,
        citing_found,
        citing_new: new_records
            .values()
            .filter(|(_, origin)| *origin == Origin::Forward)
            .count(),
        held_citing: forward.held_citing,
        ids_per_request: packing.ids_per_request,
    };

    // Judge the new works with the corpus they join.
    let mut all_records = records;
    all_records.extend(records_of(new_records.values().map(|(work, _)| work)));
    let (after, scoring) = judge_with_scorer(config, state, &all_records, scorer)?;
    let mut new_entries = Vec::new();
    let mut new_relevant = 0;
    for (id, (_, origin)) in &new_records {
        if after.relevant.contains_key(id) {
            new_relevant += 1;
        }
        new_entries.push(CorpusEntry {
            work: id.clone(),
            stage,
            origin: *origin,
            score: after.scores.get(id).copied().unwrap_or(0.0),
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
        relevant_total: after.relevant.len(),
    };
    let stop = stop_reason(config, state, &report);

    let mut all_works: Vec<&Work> = state.works.values().collect();
    all_works.extend(new_records.values().map(|(work, _)| work));
    let mut all_ids: BTreeSet<&WorkId> = state.entries.iter().map(|entry| &entry.work).collect();
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
        threshold: after.threshold,
        expansion,
        scoring,
    })
}

/// Judges `records` with the state's verdicts; with a `scorer`, the works the text judgement is
/// unsure of are judged by the language model too, and its verdicts join the others.
fn judge_with_scorer(
    config: &SnowballConfig,
    state: &SnowballState<'_>,
    records: &BTreeMap<WorkId, &Work>,
    scorer: Option<LlmScorer<'_>>,
) -> Result<(Judgement, ScorerReport)> {
    let scored = score_state(config, state, records);
    let after = scored.decide(config, state.seeds, state.verdicts);
    let Some(scorer) = scorer else {
        return Ok((after, ScorerReport::default()));
    };
    let doubtful: Vec<&Work> = scorer::in_doubt(&after, state.verdicts)
        .iter()
        .filter_map(|id| records.get(id).copied())
        .collect();
    if doubtful.is_empty() {
        return Ok((after, ScorerReport::default()));
    }
    let scoring = scorer.score(state.question, &doubtful)?;
    let mut verdicts = state.verdicts.clone();
    verdicts.extend(
        scoring
            .verdicts
            .iter()
            .map(|verdict| (verdict.work.clone(), verdict.relevant)),
    );
    Ok((scored.decide(config, state.seeds, &verdicts), scoring))
}

/// Why snowballing stops after the stage `report` describes: nothing relevant was new, two
/// stages in a row added less than the coverage threshold, or the stage limit is reached.
fn stop_reason(
    config: &SnowballConfig,
    state: &SnowballState<'_>,
    report: &StageReport,
) -> Option<StopReason> {
    let below = |report: &StageReport| coverage_delta(report) < config.coverage_threshold;
    if report.new_relevant == 0 {
        Some(StopReason::Saturated)
    } else if below(report) && state.history.last().is_some_and(below) {
        Some(StopReason::BelowCoverageThreshold)
    } else if report.stage >= config.max_stages {
        Some(StopReason::StageLimit)
    } else {
        None
    }
}

/// Judges the corpus as it stands: every work's score and which are relevant. After the last
/// stage this is the gathered corpus and the engine's relevance ranking.
pub fn judge_corpus(config: &SnowballConfig, state: &SnowballState<'_>) -> Judgement {
    let records = records_of(state.works.values());
    judge_records(config, state, &records)
}

/// Judges `records` against the question and the profile works, with the state's seeds and
/// verdicts.
fn judge_records(
    config: &SnowballConfig,
    state: &SnowballState<'_>,
    records: &BTreeMap<WorkId, &Work>,
) -> Judgement {
    score_state(config, state, records).decide(config, state.seeds, state.verdicts)
}

/// Scores `records` against the question and its profile works or, for a question split into
/// domains, against each domain's terms and the best works of its searches, each work judged
/// by the domain it fits best ([`judge::score_focused`]).
fn score_state<'a>(
    config: &SnowballConfig,
    state: &SnowballState<'_>,
    records: &BTreeMap<WorkId, &'a Work>,
) -> judge::Scored<'a> {
    if state.focuses.is_empty() {
        return judge::score(
            config,
            state.question,
            &profile_works(config, state),
            records,
        );
    }
    let focused: Vec<(&str, Vec<WorkId>)> = state
        .focuses
        .iter()
        .map(|focus| {
            let profile = if state.seeds.is_empty() {
                first_found(config, state, |entry| {
                    entry
                        .queries
                        .iter()
                        .any(|label| focus.queries.contains(label))
                })
            } else {
                state.seeds.to_vec()
            };
            (focus.question.as_str(), profile)
        })
        .collect();
    judge::score_focused(config, &focused, records)
}

/// The coverage delta of a stage: its new relevant works as a share of the relevant works it
/// started from.
pub fn coverage_delta(report: &StageReport) -> f32 {
    let before = report
        .relevant_total
        .saturating_sub(report.new_relevant)
        .max(1);
    report.new_relevant as f32 / before as f32
}

/// Records (not stubs) by primary id.
fn records_of<'a>(works: impl Iterator<Item = &'a Work>) -> BTreeMap<WorkId, &'a Work> {
    works
        .filter(|work| !work.is_stub())
        .map(|work| (work.id(), work))
        .collect()
}

/// Seeds, or failing them the best discovered works: the texts relevance is measured against.
fn profile_works(config: &SnowballConfig, state: &SnowballState<'_>) -> Vec<WorkId> {
    if !state.seeds.is_empty() {
        return state.seeds.to_vec();
    }
    first_found(config, state, |_| true)
}

/// The first discovered works (stage 0, with a record) that `wanted` accepts, as many as the
/// profile takes.
fn first_found(
    config: &SnowballConfig,
    state: &SnowballState<'_>,
    wanted: impl Fn(&CorpusEntry) -> bool,
) -> Vec<WorkId> {
    state
        .entries
        .iter()
        .filter(|entry| {
            entry.stage == 0
                && !matches!(entry.origin, Origin::Page | Origin::Library)
                && state.works.contains_key(&entry.work)
                && wanted(entry)
        })
        .take(config.profile_works)
        .map(|entry| entry.work.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use litrev_model::Query;
    use litrev_sources::{Capabilities, Hit, SourceKind};

    use super::*;
    use crate::test_works::work;

    /// The citation index of a handful of works, remembering which ids it was asked about.
    struct CitationIndex {
        works: Vec<Work>,
        asked_citing: Mutex<Vec<WorkId>>,
    }

    impl Source for CitationIndex {
        fn kind(&self) -> SourceKind {
            SourceKind::OpenAlex
        }
        fn capabilities(&self) -> Capabilities {
            Capabilities {
                batch_lookup: true,
                citing: true,
                ..Capabilities::default()
            }
        }
        fn describe(&self) -> String {
            "citation index".to_owned()
        }
        fn search(&self, _query: &Query, _limit: usize) -> litrev_sources::Result<Vec<Hit>> {
            Ok(Vec::new())
        }
        fn lookup(&self, ids: &[WorkId]) -> litrev_sources::Result<Vec<Work>> {
            Ok(self
                .works
                .iter()
                .filter(|work| ids.contains(&work.id()))
                .cloned()
                .collect())
        }
        fn citing(
            &self,
            ids: &[WorkId],
            _held: &litrev_sources::Held<'_>,
        ) -> litrev_sources::Result<Vec<Work>> {
            self.asked_citing
                .lock()
                .expect("lock")
                .extend(ids.iter().cloned());
            Ok(self
                .works
                .iter()
                .filter(|work| work.references.iter().any(|cited| ids.contains(cited)))
                .cloned()
                .collect())
        }
    }

    /// A corpus before its first stage, for the question "insulin pumps for children".
    struct Start {
        entries: Vec<CorpusEntry>,
        works: BTreeMap<WorkId, Work>,
        seeds: Vec<WorkId>,
        expanded: BTreeSet<WorkId>,
        verdicts: BTreeMap<WorkId, bool>,
    }

    impl Start {
        /// `known` works, found the way each says (the seeds are those of origin `Seed`).
        fn new(known: &[(&Work, Origin)]) -> Start {
            Start {
                entries: known
                    .iter()
                    .map(|(work, origin)| CorpusEntry {
                        work: work.id(),
                        stage: 0,
                        origin: *origin,
                        score: 1.0,
                        queries: Vec::new(),
                    })
                    .collect(),
                works: known
                    .iter()
                    .map(|(work, _)| (work.id(), (*work).clone()))
                    .collect(),
                seeds: known
                    .iter()
                    .filter(|(_, origin)| *origin == Origin::Seed)
                    .map(|(work, _)| work.id())
                    .collect(),
                expanded: BTreeSet::new(),
                verdicts: BTreeMap::new(),
            }
        }

        fn state(&self) -> SnowballState<'_> {
            SnowballState {
                question: "insulin pumps for children",
                focuses: &[],
                seeds: &self.seeds,
                entries: &self.entries,
                works: &self.works,
                expanded: &self.expanded,
                history: &[],
                verdicts: &self.verdicts,
            }
        }
    }

    /// A model giving the same decision about every work.
    struct Always(&'static str);

    impl litrev_llm::LlmProvider for Always {
        fn id(&self) -> String {
            format!("always {}", self.0)
        }

        fn complete(
            &self,
            _request: &litrev_llm::LlmRequest,
        ) -> litrev_llm::Result<litrev_llm::LlmResponse> {
            Ok(litrev_llm::LlmResponse {
                text: format!(r#"{{"decision": "{}", "rationale": "Always."}}"#, self.0),
                input_tokens: 1,
                output_tokens: 1,
                estimated_usage: false,
                truncated: false,
                batched: false,
                cached: false,
            })
        }
    }

    #[test]
    fn the_models_verdicts_decide_the_works_in_doubt() {
        let seed = work("W1", "insulin pumps for children with type 1 diabetes", &[]);
        let citers = [
            work("W2", "insulin pumps for children at school", &["W1"]),
            work("W3", "insulin pumps and diabetes care costs", &["W1"]),
            work("W4", "school meals for children", &["W1"]),
            work("W5", "diabetes in adults", &["W1"]),
            work("W6", "knee surgery outcomes", &["W1"]),
        ];
        let source = CitationIndex {
            works: citers.to_vec(),
            asked_citing: Mutex::new(Vec::new()),
        };
        let start = Start::new(&[(&seed, Origin::Seed)]);
        let state = start.state();
        // A threshold that puts the citers' scores in the band of doubt around it, and no
        // structural rule to make them relevant whatever the model says.
        let config = SnowballConfig {
            relevance_threshold: 0.7,
            structural_links: 0,
            ..SnowballConfig::default()
        };
        let run = |decision: &'static str| {
            let model = Always(decision);
            let scorer = LlmScorer {
                llm: &model,
                model: "m",
            };
            expand_stage(&source, &config, &state, 1, Some(scorer)).expect("stage")
        };
        let (yes, no) = (run("relevant"), run("not_relevant"));
        let asked = |outcome: &StageOutcome| -> Vec<String> {
            outcome
                .scoring
                .verdicts
                .iter()
                .map(|verdict| verdict.work.to_string())
                .collect()
        };
        assert!(!asked(&yes).is_empty(), "no work was in doubt");
        assert_eq!(asked(&yes), asked(&no), "the same works are in doubt");
        let relevant =
            |outcome: &StageOutcome| outcome.report.as_ref().expect("report").new_relevant;
        assert_eq!(
            relevant(&yes) - relevant(&no),
            asked(&yes).len(),
            "each work in doubt is relevant exactly when the model says so"
        );
    }

    #[test]
    fn the_minimum_counts_the_known_works_no_request_has_room_to_leave_out() {
        let expansion = Expansion {
            referencing: 150,
            unknown_references: 900,
            existing_references: 700,
            held_references: 600,
            reference_lists: true,
            cited: 120,
            citing_found: 450,
            citing_new: 90,
            held_citing: 900,
            ids_per_request: 0,
        };
        // Nothing left out: backward 2 lists, 700 works in pages of 200; forward 2 lists, 450.
        assert_eq!(expansion.minimum_requests(), 4 + 3);
        let leaving_out = Expansion {
            ids_per_request: 246,
            ..expansion
        };
        // Backward: the 2 lists can name the 600 known references' worth of room
        // (100 + 600 + 150 ids ≤ 2 × (200 + 246)). Forward: 90 + 900 + 120 = 1,110 > 892, so
        // two requests cannot leave out enough of the 900 known citers: 3.
        assert_eq!(leaving_out.minimum_requests(), 2 + 3);
    }

    /// `work` as the source counts its citers.
    fn counted(mut work: Work, citers: u32) -> Work {
        work.cited_by_count = Some(citers);
        work
    }

    #[test]
    fn citers_are_asked_for_only_where_the_corpus_does_not_know_them_all() {
        // The seed's one citer is in the corpus; the other work's citer is not.
        let seed = counted(work("W1", "insulin pumps for children", &[]), 1);
        let known = counted(work("W2", "insulin pumps in children", &["W1"]), 1);
        let unknown_citer = counted(work("W3", "insulin pumps at school", &["W2"]), 0);
        let source = CitationIndex {
            works: vec![seed.clone(), known.clone(), unknown_citer],
            asked_citing: Mutex::new(Vec::new()),
        };
        let start = Start::new(&[(&seed, Origin::Seed), (&known, Origin::Search)]);
        let state = start.state();
        let outcome =
            expand_stage(&source, &SnowballConfig::default(), &state, 1, None).expect("stage");

        assert_eq!(
            *source.asked_citing.lock().expect("lock"),
            vec![known.id()],
            "the seed's only citer is known: asking would fetch it again"
        );
        assert_eq!(outcome.expansion.cited, 1);
        assert!(
            outcome.expanded.contains(&seed.id()),
            "{:?}",
            outcome.expanded
        );
        assert!(
            outcome
                .new_entries
                .iter()
                .any(|entry| entry.work.to_string() == "W3" && entry.origin == Origin::Forward)
        );
    }

    #[test]
    fn citers_found_among_the_references_are_not_asked_for() {
        // The seed has two citers: W2, known, and W5, which W2 cites and the stage looks up.
        let seed = counted(work("W1", "insulin pumps for children", &[]), 2);
        let known = counted(work("W2", "insulin pumps in children", &["W1", "W5"]), 0);
        let referenced = counted(work("W5", "insulin pumps at school", &["W1"]), 1);
        let source = CitationIndex {
            works: vec![seed.clone(), known.clone(), referenced.clone()],
            asked_citing: Mutex::new(Vec::new()),
        };
        let start = Start::new(&[(&seed, Origin::Seed), (&known, Origin::Search)]);
        let outcome = expand_stage(&source, &SnowballConfig::default(), &start.state(), 1, None)
            .expect("stage");

        assert!(
            outcome
                .new_entries
                .iter()
                .any(|entry| entry.work == referenced.id() && entry.origin == Origin::Backward),
            "{:?}",
            outcome.new_entries
        );
        assert_eq!(
            *source.asked_citing.lock().expect("lock"),
            Vec::<WorkId>::new(),
            "both of the seed's citers are known once the references are in"
        );
        assert_eq!(outcome.expansion.cited, 0);
    }
}
