//! The snowballing benchmark: a SYNERGY review's question and its most-cited included studies
//! in, the engine's corpus out, measured against the studies the human reviewers included.
//!
//! The works file is served by a local OpenAlex-compatible server (`litrev-bench-server`) and
//! the engine reaches it through the real OpenAlex client and HTTP stack, so the requests
//! counted are the ones a live run would send. The pool is the works file: the server knows
//! nothing else, so references outside it come back as stubs. Discovery and every stage run as
//! in a review, with the per-stage expansion cap lifted; the gathered corpus is every work the
//! final judgement keeps as relevant, and the engine's ranking is its relevance score. The
//! fewest requests the same expansion needs follow from what each step asked for, batched to
//! the API's limits (OR-lists of 100 ids, pages of 200). A keyword baseline, TF-IDF similarity
//! of the whole pool to the question and the seeds, is measured in the same run, and so is the
//! pool's recall ceiling: the included studies that searching the question's words and
//! following the pool's citations can reach at all. Given a language model, each stage asks it
//! about its works in doubt as a review does.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use litrev_bench_server::http::{FaultPlan, Reply, Server};
use litrev_bench_server::openalex::OpenAlexWorks;
use litrev_graph::{CitationGraph, edges_within};
use litrev_http::{Client, HttpConfig};
use litrev_model::{CorpusEntry, Plan, StageReport, StopReason, Tier, Work, WorkId};
use litrev_plan::PlanConfig;
use litrev_snowball::{Expansion, SnowballConfig, SnowballState};
use litrev_sources::SnapshotSource;
use litrev_sources::openalex::{
    self, MAX_OR_VALUES, MAX_PER_PAGE, OpenAlexConfig, OpenAlexSource, to_search_syntax,
};
use litrev_text::{Corpus, RelevanceProfile};

use super::read_labels;
use crate::Home;
use crate::error::{Error, Result};
use crate::llm::{EarlierCalls, PlanLlmRecord, SnowballLlmRecord, StageLlmRecord};

/// The ranks at which recall is reported: the tiers' corpus caps.
pub const TOP_K: [usize; 3] = [100, 200, 300];

/// What to benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct SnowballBenchOptions {
    /// OpenAlex works file (`.jsonl` or `.jsonl.gz`): the pool the server serves.
    pub works: PathBuf,
    /// SYNERGY labels file (`openalex_id,…,label_included`).
    pub labels: PathBuf,
    /// The review paper's OpenAlex record (its `title` is the question).
    pub review: PathBuf,
    /// How many of the most-cited included studies are the seeds.
    pub seeds: usize,
    /// The tier whose plan, search depth and stage limit the run uses.
    pub tier: Tier,
    /// Overrides the tier's stage limit.
    pub max_stages: Option<u32>,
    /// Replaces snowballing's settings wholesale (the stage cap stays lifted).
    pub config: Option<SnowballConfig>,
    /// A language model settling the works in doubt at each stage, as in a review.
    pub llm: Option<crate::LlmOptions>,
}

/// What the engine gathered.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineNumbers {
    /// Works the final judgement keeps as relevant, seeds left out.
    pub corpus: usize,
    /// Of those, kept for their links to relevant works rather than their score.
    pub structural: usize,
    /// Works with a record the run came to know (relevant or not), seeds left out.
    pub known: usize,
    /// Other included studies in the gathered corpus.
    pub found: usize,
    /// `found` over the other included studies.
    pub recall: f64,
    /// Recall in the top 100, 200 and 300 of the engine's ranking of every known work.
    pub top: [f64; 3],
    /// Works of that ranking needed to reach 95 % of the other included studies.
    pub ranking_for_95: Option<usize>,
}

/// The keyword baseline: the pool ranked by TF-IDF similarity to the question and the seeds.
#[derive(Debug, Clone, PartialEq)]
pub struct BaselineNumbers {
    /// Works of the ranking needed to reach the engine's recall (`None`: never reached).
    pub size_for_engine_recall: Option<usize>,
    /// Works of the ranking needed to reach 95 % of the other included studies.
    pub size_for_95: Option<usize>,
    /// Recall in the top 100, 200 and 300.
    pub top: [f64; 3],
}

/// One stage as the benchmark saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct StageNumbers {
    /// The stage's counts (`None`: nothing was left to expand).
    pub report: Option<StageReport>,
    /// What it asked the source for.
    pub expansion: Expansion,
    /// New relevant works as a share of the relevant works the stage started from.
    pub coverage_delta: f32,
    /// Requests the server received during the stage.
    pub requests: u64,
    /// The fewest requests the same expansion needs.
    pub minimum: u64,
}

/// The benchmark's result for one dataset.
#[derive(Debug, Clone, PartialEq)]
pub struct SnowballBench {
    /// The question (the review paper's title).
    pub question: String,
    /// Works in the pool.
    pub pool: usize,
    /// Included studies in the pool.
    pub included: usize,
    /// The seeds, most cited first.
    pub seeds: Vec<WorkId>,
    /// Included studies other than the seeds: what recall is measured on.
    pub targets: usize,
    /// Of those, the ones linked through the pool's citations (either way, any number of
    /// steps) to a seed or to a work holding one of the question's topic terms: the most that
    /// searching the question's words and snowballing can find in this pool.
    pub reachable: usize,
    /// The engine.
    pub engine: EngineNumbers,
    /// The keyword baseline.
    pub baseline: BaselineNumbers,
    /// Requests of discovery (searches and the seeds' lookup) and their fewest possible.
    pub discover_requests: u64,
    /// The fewest requests discovery needs.
    pub discover_minimum: u64,
    /// Each snowball stage.
    pub stages: Vec<StageNumbers>,
    /// Why snowballing stopped.
    pub stop: Option<StopReason>,
    /// Every request the server received.
    pub requests: u64,
    /// The fewest requests the whole run needs.
    pub minimum: u64,
    /// What the language model said of the works in doubt, and what it cost.
    pub llm: Option<SnowballLlmRecord>,
    /// The searches the language model added to the plan, and what they cost.
    pub planning: Option<PlanLlmRecord>,
}

impl SnowballBench {
    /// Requests over their fewest possible.
    pub fn ratio(&self) -> f64 {
        self.requests as f64 / self.minimum.max(1) as f64
    }
}

/// Runs the snowballing benchmark on one dataset; a language model's answers are cached in
/// `home`.
///
/// # Errors
/// When a file cannot be read, the labels include fewer studies than seeds plus one, or the
/// engine fails.
pub fn snowball_bench(home: &Home, options: &SnowballBenchOptions) -> Result<SnowballBench> {
    let question = read_review_title(&options.review)?;
    let (pool, _issues) = SnapshotSource::read_works(std::slice::from_ref(&options.works))?;
    let label_of = read_labels(&options.labels)?;
    let included: BTreeSet<WorkId> = pool
        .iter()
        .map(Work::id)
        .filter(|id| label_of.get(id).copied().unwrap_or(false))
        .collect();
    let mut by_citations: Vec<&Work> = pool
        .iter()
        .filter(|work| included.contains(&work.id()))
        .collect();
    by_citations.sort_by(|a, b| {
        b.cited_by_count
            .unwrap_or(0)
            .cmp(&a.cited_by_count.unwrap_or(0))
            .then(a.id().cmp(&b.id()))
    });
    let seeds: Vec<WorkId> = by_citations
        .iter()
        .take(options.seeds)
        .map(|work| work.id())
        .collect();
    if seeds.is_empty() || included.len() <= seeds.len() {
        return Err(Error::BadInput {
            path: options.labels.clone(),
            message: format!(
                "{} included studies: need more than the {} seeds to measure recall",
                included.len(),
                options.seeds
            ),
        });
    }
    let seed_set: BTreeSet<&WorkId> = seeds.iter().collect();
    let targets: BTreeSet<&WorkId> = included
        .iter()
        .filter(|id| !seed_set.contains(id))
        .collect();

    let baseline_order = keyword_baseline(&question, &pool, &seeds);
    let baseline: Vec<&WorkId> = baseline_order.iter().collect();

    let mut plan_config = PlanConfig::for_tier(options.tier);
    plan_config.seeds = seeds.clone();
    let mut plan = litrev_plan::plan(&question, &plan_config);
    let planning = match &options.llm {
        Some(llm) => Some(crate::llm::plan_queries(
            &litrev_llm::ResponseCache::new(home.llm_cache()),
            llm,
            &mut plan,
            &|_| {},
        )?),
        None => None,
    };
    // The pool behind a local OpenAlex, reached through the live client.
    let served = OpenAlexWorks::load(std::slice::from_ref(&options.works)).map_err(|source| {
        Error::Write {
            path: options.works.clone(),
            source,
        }
    })?;
    let reachable = reachable_targets(&served, &pool, &plan, &targets);
    let server = Server::start(
        move |request| {
            let (status, body) = served.answer(request);
            Reply::json(status, &body)
        },
        FaultPlan::none(),
    );
    let client =
        Client::new(HttpConfig::default()).map_err(|error| Error::Http(error.to_string()))?;
    let policy = litrev_http::SourcePolicy {
        requests_per_second: 0,
        ..openalex::policy()
    };
    let source = OpenAlexSource::new(
        client.endpoint(policy),
        OpenAlexConfig {
            base_url: server.url(),
            api_key: None,
            mailto: None,
        },
    );

    let discovery = litrev_discover::discover(&source, &plan)?;
    let discover_requests = server.requests();
    let discover_minimum = batches(plan.seeds.len(), MAX_OR_VALUES)
        + plan
            .queries
            .iter()
            .zip(&discovery.hits)
            .filter(|(query, _)| !to_search_syntax(&query.text).is_empty())
            .map(|(_, hits)| batches(hits.works.len(), MAX_PER_PAGE).max(1))
            .sum::<u64>();

    let mut config = options
        .config
        .clone()
        .unwrap_or_else(|| SnowballConfig::from_plan(&plan));
    config.expand_per_stage = usize::MAX;
    if let Some(max_stages) = options.max_stages {
        config.max_stages = max_stages;
    }
    let mut entries: Vec<CorpusEntry> = discovery.entries;
    let mut works: BTreeMap<WorkId, Work> = discovery
        .works
        .into_iter()
        .filter(|work| !work.is_stub())
        .map(|work| (work.id(), work))
        .collect();
    let mut expanded: BTreeSet<WorkId> = BTreeSet::new();
    let mut history: Vec<StageReport> = Vec::new();
    let mut stages: Vec<StageNumbers> = Vec::new();
    let mut judged: Vec<StageLlmRecord> = Vec::new();
    let mut stop = None;
    for stage in 1..=config.max_stages {
        let before = server.requests();
        let verdicts = StageLlmRecord::verdicts(&judged);
        let state = SnowballState {
            question: &plan.question,
            focuses: &[],
            seeds: &plan.seeds,
            entries: &entries,
            works: &works,
            expanded: &expanded,
            history: &history,
            verdicts: &verdicts,
        };
        let spent = EarlierCalls::before_screening(planning.as_ref(), &judged).spent();
        let (outcome, llm) = crate::llm::snowball_stage(
            &litrev_llm::ResponseCache::new(home.llm_cache()),
            options.llm.as_ref(),
            spent,
            &|_| {},
            |scorer| {
                Ok(litrev_snowball::expand_stage(
                    &source, &config, &state, stage, scorer,
                )?)
            },
        )?;
        judged.extend(llm);
        stages.push(StageNumbers {
            coverage_delta: outcome
                .report
                .as_ref()
                .map_or(0.0, litrev_snowball::coverage_delta),
            report: outcome.report.clone(),
            expansion: outcome.expansion,
            requests: server.requests() - before,
            minimum: outcome.expansion.minimum_requests(),
        });
        entries.extend(outcome.new_entries);
        for work in outcome.new_works {
            if !work.is_stub() {
                works.insert(work.id(), work);
            }
        }
        expanded.extend(outcome.expanded);
        history.extend(outcome.report);
        if outcome.stop.is_some() {
            stop = outcome.stop;
            break;
        }
    }

    let state = SnowballState {
        question: &plan.question,
        focuses: &[],
        seeds: &plan.seeds,
        entries: &entries,
        works: &works,
        expanded: &expanded,
        history: &history,
        verdicts: &StageLlmRecord::verdicts(&judged),
    };
    let judgement = litrev_snowball::judge_corpus(&config, &state);
    let gathered: BTreeSet<&WorkId> = judgement
        .relevant
        .keys()
        .filter(|id| !seed_set.contains(id))
        .collect();
    let found = gathered.intersection(&targets).count();
    let ranking: Vec<&WorkId> = judgement
        .ranking()
        .into_iter()
        .filter(|id| !seed_set.contains(id))
        .collect();
    let engine = EngineNumbers {
        corpus: gathered.len(),
        structural: judgement
            .relevant
            .values()
            .filter(|basis| **basis == litrev_snowball::Basis::Structural)
            .count(),
        known: ranking.len(),
        found,
        recall: found as f64 / targets.len() as f64,
        top: TOP_K.map(|k| recall_at(&ranking, &targets, k)),
        ranking_for_95: size_for_recall(&ranking, &targets, needed_for_95(targets.len())),
    };
    let baseline = BaselineNumbers {
        size_for_engine_recall: size_for_recall(&baseline, &targets, found),
        ..keyword_numbers(&baseline, &targets)
    };
    let requests = server.requests();
    let minimum = discover_minimum + stages.iter().map(|stage| stage.minimum).sum::<u64>();
    Ok(SnowballBench {
        question,
        pool: pool.len(),
        included: included.len(),
        seeds,
        targets: targets.len(),
        reachable,
        engine,
        baseline,
        discover_requests,
        discover_minimum,
        stages,
        stop,
        requests,
        minimum,
        llm: SnowballLlmRecord::of_stages(&judged),
        planning,
    })
}

/// How many of `targets` are linked through the pool's citations to a seed or to a work that
/// the OR of the question's topic terms matches on the server: searches built from the
/// question find nothing else, and the server serves no citation path outside the pool.
fn reachable_targets(
    served: &OpenAlexWorks,
    pool: &[Work],
    plan: &Plan,
    targets: &BTreeSet<&WorkId>,
) -> usize {
    // Topic terms are plain words, which the search syntax accepts (none match nothing).
    let matched: Vec<WorkId> = served
        .matching(&plan.key_terms.join(" OR "))
        .unwrap_or_default()
        .iter()
        .filter_map(|id| id.parse().ok())
        .collect();
    let works: Vec<&Work> = pool.iter().collect();
    let nodes: Vec<WorkId> = pool.iter().map(Work::id).collect();
    let graph = CitationGraph::new(&nodes, &edges_within(&works, &nodes.iter().collect()));
    let linked = graph.linked_to(plan.seeds.iter().chain(&matched));
    targets.iter().filter(|id| linked.contains(**id)).count()
}

/// Snowballing's settings for a tier, as a review's plan gives them (the stage cap as planned).
pub fn plan_config_for(tier: Tier) -> SnowballConfig {
    SnowballConfig::from_plan(&litrev_plan::plan("", &PlanConfig::for_tier(tier)))
}

/// The title of a review paper's OpenAlex record.
///
/// # Errors
/// When the file cannot be read or has no title.
pub fn read_review_title(path: &Path) -> Result<String> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Write {
        path: path.to_owned(),
        source,
    })?;
    let record: serde_json::Value =
        serde_json::from_str(&text).map_err(|error| Error::BadInput {
            path: path.to_owned(),
            message: format!("not a JSON record: {error}"),
        })?;
    record
        .get("title")
        .or_else(|| record.get("display_name"))
        .and_then(serde_json::Value::as_str)
        .filter(|title| !title.trim().is_empty())
        .map(|title| title.trim().to_owned())
        .ok_or_else(|| Error::BadInput {
            path: path.to_owned(),
            message: "expected an OpenAlex Work with a `title`".to_owned(),
        })
}

/// Share of `targets` among the first `k` of `ranking`.
pub fn recall_at(ranking: &[&WorkId], targets: &BTreeSet<&WorkId>, k: usize) -> f64 {
    let found = ranking
        .iter()
        .take(k)
        .filter(|id| targets.contains(*id))
        .count();
    found as f64 / targets.len().max(1) as f64
}

/// The shortest prefix of `ranking` holding `needed` of `targets` (`None`: it never does).
pub fn size_for_recall(
    ranking: &[&WorkId],
    targets: &BTreeSet<&WorkId>,
    needed: usize,
) -> Option<usize> {
    if needed == 0 {
        return Some(0);
    }
    let mut found = 0;
    for (position, id) in ranking.iter().enumerate() {
        if targets.contains(*id) {
            found += 1;
            if found >= needed {
                return Some(position + 1);
            }
        }
    }
    None
}

/// The pool but the seeds, ranked by TF-IDF similarity to the question and the seeds (ties by
/// id), the corpus fitted on the pool.
fn keyword_baseline(question: &str, pool: &[Work], seeds: &[WorkId]) -> Vec<WorkId> {
    let texts: Vec<String> = pool.iter().map(Work::title_and_abstract).collect();
    let corpus = Corpus::fit(texts.iter().map(String::as_str));
    let seed_texts: Vec<&str> = pool
        .iter()
        .zip(&texts)
        .filter(|(work, _)| seeds.contains(&work.id()))
        .map(|(_, text)| text.as_str())
        .collect();
    let profile = RelevanceProfile::new(corpus, question, &seed_texts);
    let mut scored: Vec<(f32, WorkId)> = pool
        .iter()
        .zip(&texts)
        .filter(|(work, _)| !seeds.contains(&work.id()))
        .map(|(work, text)| (profile.score(text), work.id()))
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().map(|(_, id)| id).collect()
}

fn keyword_numbers(ranking: &[&WorkId], targets: &BTreeSet<&WorkId>) -> BaselineNumbers {
    BaselineNumbers {
        size_for_engine_recall: None,
        size_for_95: size_for_recall(ranking, targets, needed_for_95(targets.len())),
        top: TOP_K.map(|k| recall_at(ranking, targets, k)),
    }
}

/// How many of `targets` make 95 %.
fn needed_for_95(targets: usize) -> usize {
    (targets * 95).div_ceil(100)
}

/// `ceil(count / size)`.
fn batches(count: usize, size: usize) -> u64 {
    count.div_ceil(size.max(1)) as u64
}
