//! The dry-run estimate of a plan: requests per live source, what they cost and the time spent
//! waiting on the APIs, before anything runs (`litrev plan`), and beside the actual figures in
//! `run.json`. A language model's tokens are not estimated yet.
//!
//! Requests follow the plan's shape ([`SearchShape`]): every search reads its hits page by page
//! on each source that searches, seeds are looked up in batches, and each snowball stage lists
//! its works' references and citing works in OR-lists. How full further search pages come back,
//! and how many lists the stages ask for before saturation, are the [`RequestModel`]'s
//! constants, chosen by `litrev bench estimate` leaving each dataset out.

use litrev_model::{Channel, Estimate, LlmEstimate, LlmPhaseEstimate, Plan, SourceEstimate};
use litrev_sources::Capabilities;
use litrev_sources::openalex::{LIST_COST_USD, MAX_OR_VALUES, MAX_PER_PAGE, SEARCH_COST_USD};

use crate::options::SourceSpec;

/// What requests follow from: the plan's searches and limits, and the sources asked.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchShape {
    /// Searches with words to search for.
    pub queries: usize,
    /// Searches of the expert channel: one list of a topic's authors and one of their works
    /// each, on the sources that find experts.
    pub experts: usize,
    /// Hits read per search.
    pub hits_per_query: usize,
    /// Seeds looked up.
    pub seeds: usize,
    /// Most snowball stages.
    pub max_stages: u32,
    /// The live sources asked, by name (snapshots ask no API).
    pub sources: Vec<&'static str>,
}

impl SearchShape {
    /// The shape of `plan` run on `sources`.
    pub fn of(plan: &Plan, sources: &[SourceSpec]) -> SearchShape {
        let mut names: Vec<&'static str> = sources.iter().filter_map(live_name).collect();
        names.sort_unstable();
        names.dedup();
        SearchShape {
            queries: plan
                .queries
                .iter()
                .filter(|query| !query.text.trim().is_empty() && query.channel != Channel::Expert)
                .count(),
            experts: plan
                .queries
                .iter()
                .filter(|query| query.channel == Channel::Expert)
                .count(),
            hits_per_query: plan.hits_per_query,
            seeds: plan.seeds.len(),
            max_stages: plan.limits.max_stages,
            sources: names,
        }
    }

    /// Search pages beyond each search's first that a source of `page` hits per request could
    /// read.
    fn further_pages(&self, page: usize) -> u64 {
        (self.queries * self.hits_per_query.div_ceil(page.max(1)).saturating_sub(1)) as u64
    }

    /// Requests of the expert channel: a list of authors and a list of their works per
    /// expert search, whatever the model.
    fn expert_lists(&self) -> u64 {
        2 * self.experts as u64
    }

    /// OR-lists the snowball asks for when each stage lists its works' references and their
    /// citing works once: two per stage.
    fn snowball_lists(&self) -> u64 {
        u64::from(self.max_stages) * 2
    }
}

/// The live API a source names, as its requests are recorded.
fn live_name(spec: &SourceSpec) -> Option<&'static str> {
    match spec {
        SourceSpec::Snapshot { .. } | SourceSpec::Unpaywall => None,
        SourceSpec::OpenAlex => Some("openalex"),
        SourceSpec::SemanticScholar => Some("semantic-scholar"),
        SourceSpec::Arxiv => Some("arxiv"),
        SourceSpec::PubMed => Some("pubmed"),
        SourceSpec::Crossref => Some("crossref"),
        SourceSpec::Brave => Some("brave"),
        SourceSpec::HuggingFace => Some("huggingface"),
    }
}

/// How full pages and lists come back: the constants of the estimate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RequestModel {
    /// Requests per search page beyond the first the plan could read (below 1: searches run
    /// out of hits before the plan's depth).
    pub search_fill: f64,
    /// Requests per OR-list the snowball asks for at two a stage (below 1: snowballing
    /// saturates before its last stage; above 1: answers run over a page, or a stage has more
    /// works to expand than one list holds).
    pub snowball_fill: f64,
}

impl RequestModel {
    /// The constants fitted by `litrev bench estimate` to the reviews of the seven SYNERGY
    /// works files at every tier (28 runs) against a local OpenAlex: searches read 0.24 of
    /// their further pages (the pools are small, and a directed search's kinds or years leave
    /// few), and the snowball asks 0.90 requests per list. Fitted leaving each dataset out,
    /// the estimate put 19 of the 28 runs within ±30 % (mean |actual/estimate − 1| 0.23); with
    /// the expert channel's two lists counted (and its works snowballed), 20 of 28 (0.21), the
    /// constants fitted on every run then 0.24 and 0.91. The
    /// misses are the densest and the sparsest pools (Jeyaraman_2020 asks up to 1.9× the
    /// estimate, Menon_2022's quick review half), which a plan's shape alone cannot tell apart,
    /// and the exhaustive reviews of the smallest pools, whose searches run out of hits.
    pub const CHOSEN: RequestModel = RequestModel {
        search_fill: 0.24,
        snowball_fill: 0.90,
    };

    /// Requests of the discover step: each search's first page, the further pages as full as
    /// the model expects, the seeds' lookups and the expert channel's two lists.
    pub fn discover(&self, shape: &SearchShape) -> f64 {
        (shape.queries + shape.seeds.div_ceil(MAX_OR_VALUES)) as f64
            + self.search_fill * shape.further_pages(MAX_PER_PAGE) as f64
            + shape.expert_lists() as f64
    }

    /// Requests of the snowball stages.
    pub fn snowball(&self, shape: &SearchShape) -> f64 {
        self.snowball_fill * shape.snowball_lists() as f64
    }

    /// OpenAlex requests of a run of this shape.
    pub fn requests(&self, shape: &SearchShape) -> u64 {
        (self.discover(shape) + self.snowball(shape)).round() as u64
    }
}

/// A typical answer time of an API, in seconds: requests go out one after another within a
/// step, so a run waits about this long per request when the rate limit spaces them closer.
const ANSWER_SECONDS: f64 = 0.5;

/// How a live source estimated by its paging alone answers a search.
struct Paging {
    /// What it can answer.
    capabilities: Capabilities,
    /// Hits one search request returns.
    page: usize,
    /// Requests a search makes besides its pages.
    extra: u64,
    /// US dollars one request costs.
    usd_per_request: f64,
    /// Seconds one request takes, its answer or its rate limit.
    seconds_per_request: f64,
}

impl Paging {
    /// A free source answering in [`ANSWER_SECONDS`].
    fn free(capabilities: Capabilities, page: usize, extra: u64) -> Paging {
        Paging {
            capabilities,
            page,
            extra,
            usd_per_request: 0.0,
            seconds_per_request: ANSWER_SECONDS,
        }
    }
}

/// For the live sources whose searches are estimated by their paging alone: Semantic Scholar
/// pages of 100; arXiv up to 2,000 in one request; Crossref rows of 1,000; PubMed's ESearch,
/// then EFetch in batches of 200; Brave one page of 20 per web search whatever the plan's
/// depth, each request paid for and one a second; Hugging Face one search of up to 100 papers
/// whatever the depth, two a second.
fn search_paging(source: &str) -> Paging {
    use litrev_sources::{arxiv, brave, crossref, huggingface, pubmed, semantic_scholar};
    match source {
        "semantic-scholar" => Paging::free(semantic_scholar::CAPABILITIES, 100, 0),
        "arxiv" => Paging::free(arxiv::CAPABILITIES, 2_000, 0),
        "crossref" => Paging::free(crossref::CAPABILITIES, 1_000, 0),
        "pubmed" => Paging::free(pubmed::CAPABILITIES, 200, 1),
        "brave" => Paging {
            usd_per_request: brave::COST_USD_PER_REQUEST,
            seconds_per_request: 1.0 / f64::from(brave::policy().requests_per_second.max(1)),
            ..Paging::free(brave::CAPABILITIES, usize::MAX, 0)
        },
        "huggingface" => Paging {
            seconds_per_request: ANSWER_SECONDS
                .max(1.0 / f64::from(huggingface::policy().requests_per_second.max(1))),
            ..Paging::free(huggingface::CAPABILITIES, usize::MAX, 0)
        },
        _ => Paging::free(Capabilities::default(), MAX_PER_PAGE, 0),
    }
}

/// The estimate of a plan run on `sources`. OpenAlex, the source litrev snowballs through, is
/// estimated whole by the [`RequestModel`]; the others by their search pages (their share of
/// snowballing, per work rather than in lists, is not estimated).
pub fn estimate(plan: &Plan, sources: &[SourceSpec]) -> Estimate {
    let shape = SearchShape::of(plan, sources);
    let model = RequestModel::CHOSEN;
    let sources: Vec<SourceEstimate> = shape
        .sources
        .iter()
        .map(|&name| {
            if name == "openalex" {
                let requests = model.requests(&shape);
                let searches = (model.discover(&shape) - shape.expert_lists() as f64)
                    .round()
                    .min(requests as f64);
                let spacing = 1.0
                    / f64::from(
                        litrev_sources::openalex::policy()
                            .requests_per_second
                            .max(1),
                    );
                SourceEstimate {
                    source: name.to_owned(),
                    requests,
                    cost_usd: searches * SEARCH_COST_USD
                        + (requests as f64 - searches) * LIST_COST_USD,
                    api_seconds: requests as f64 * spacing.max(ANSWER_SECONDS),
                }
            } else {
                let paging = search_paging(name);
                // A federation does not ask a source what it cannot answer.
                let asked = plan
                    .queries
                    .iter()
                    .filter(|query| {
                        !query.text.trim().is_empty() && paging.capabilities.answers(query)
                    })
                    .count() as u64;
                let requests =
                    asked * (paging.extra + shape.hits_per_query.div_ceil(paging.page) as u64);
                SourceEstimate {
                    source: name.to_owned(),
                    requests,
                    cost_usd: requests as f64 * paging.usd_per_request,
                    api_seconds: requests as f64 * paging.seconds_per_request,
                }
            }
        })
        .collect();
    Estimate::of(sources)
}

/// Tokens of a title and abstract as the prompts show them: an abstract of about 250 words,
/// its title and the labels around them.
const RECORD_TOKENS: u64 = 450;

/// Tokens of one numbered sentence of a full text shown to the study-card reader.
const SENTENCE_TOKENS: u64 = 40;

/// Tokens of one evidence span shown to the writer, with its key and pinpoint.
const SPAN_TOKENS: u64 = 70;

/// What the run's model may be asked at most within the plan's limits: two planning calls (the
/// brief, the query variants); in
/// each snowball stage, every work the stage may add left in doubt (a bound: the works a
/// score leaves in doubt are not known before the run); with eligibility criteria, the judge
/// on the included works and half as many borderline ones; a study card per full text read;
/// per theme, one draft and the repair rounds. Input tokens are the prompts' own and records
/// of typical length, output tokens each answer as long as its phase allows; the price is
/// the model's list price (or `--llm-price`).
pub fn estimate_llm(plan: &Plan, options: &crate::LlmOptions, max_fulltext: usize) -> LlmEstimate {
    use litrev_llm::{
        DRAFT_SECTION, PLAN_BRIEF, PLAN_QUERIES, REPAIR_SENTENCE, SCREEN_JUDGE, SNOWBALL_RELEVANCE,
        STUDY_CARD, estimate_tokens,
    };
    let model = options.model.as_str();
    let question = estimate_tokens(&plan.question);
    let limits = &plan.limits;
    let phase = |name: &str, calls: u64, input_each: u64, output_each: u64| LlmPhaseEstimate {
        phase: name.to_owned(),
        calls,
        input_tokens: calls * input_each,
        output_tokens: calls * output_each,
    };
    // Planning asks twice: for the brief, then for query variants.
    let mut planning = phase(
        litrev_plan::PLANNER_PHASE,
        1,
        estimate_tokens(PLAN_QUERIES.text) + question,
        u64::from(litrev_plan::PLANNER_MAX_TOKENS),
    );
    planning.calls += 1;
    planning.input_tokens += estimate_tokens(PLAN_BRIEF.text) + question;
    planning.output_tokens += u64::from(litrev_plan::BRIEF_MAX_TOKENS);
    let mut phases = vec![
        planning,
        phase(
            litrev_snowball::SCORER_PHASE,
            u64::from(limits.max_stages) * limits.max_works as u64,
            estimate_tokens(SNOWBALL_RELEVANCE.text) + question + RECORD_TOKENS,
            u64::from(litrev_snowball::SCORER_MAX_TOKENS),
        ),
    ];
    if let Some(criteria) = &options.criteria {
        let judge = litrev_screen::JudgeConfig::for_model(model, limits.max_works);
        // The included works (the tier's limit at most) and the best excluded, a share of them.
        let borderline = (limits.max_works as f32 * judge.borderline_share).ceil() as u64;
        let judged = limits.max_works as u64 + borderline;
        phases.push(phase(
            litrev_screen::JUDGE_PHASE,
            judged,
            estimate_tokens(SCREEN_JUDGE.text)
                + question
                + estimate_tokens(criteria)
                + RECORD_TOKENS,
            u64::from(judge.max_tokens),
        ));
    }
    let cards = litrev_extract::CardLlmConfig::for_model(model);
    phases.push(phase(
        litrev_extract::CARDS_PHASE,
        max_fulltext.min(limits.max_works) as u64,
        estimate_tokens(STUDY_CARD.text) + cards.max_sentences as u64 * SENTENCE_TOKENS,
        u64::from(cards.max_tokens),
    ));
    let write = litrev_write::LlmWriteConfig::for_model(model);
    let themes = litrev_organise::OrganiseConfig::default().max_themes as u64;
    phases.push(phase(
        litrev_write::DRAFT_PHASE,
        themes,
        estimate_tokens(DRAFT_SECTION.text)
            + question
            + write.max_spans_per_section as u64 * SPAN_TOKENS,
        u64::from(write.draft_max_tokens),
    ));
    phases.push(phase(
        litrev_write::REPAIR_PHASE,
        themes * u64::from(write.repair_rounds),
        estimate_tokens(REPAIR_SENTENCE.text) + 3 * SPAN_TOKENS,
        u64::from(write.repair_max_tokens),
    ));
    let input_tokens = phases.iter().map(|phase| phase.input_tokens).sum();
    let output_tokens = phases.iter().map(|phase| phase.output_tokens).sum();
    let mut prices = litrev_llm::PriceTable::list_prices();
    if let Some(price) = options.price {
        prices = prices.with(model, price);
    }
    LlmEstimate {
        model: model.to_owned(),
        calls: phases.iter().map(|phase| phase.calls).sum(),
        input_tokens,
        output_tokens,
        cost_usd: prices
            .price(model)
            .map(|price| price.cost(input_tokens, output_tokens, options.batch)),
        phases,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use litrev_model::Tier;

    fn plan(tier: Tier, seeds: usize) -> Plan {
        let mut config = litrev_plan::PlanConfig::for_tier(tier);
        config.seeds = (0..seeds)
            .map(|n| format!("W{}", 1000 + n).parse().expect("an id"))
            .collect();
        litrev_plan::plan(
            "Pharmacokinetics and associated efficacy of emicizumab in humans",
            &config,
        )
    }

    #[test]
    fn snapshots_cost_no_request_and_openalex_is_estimated_whole() {
        let quick = plan(Tier::Quick, 0);
        let offline = estimate(
            &quick,
            &[SourceSpec::Snapshot {
                paths: vec!["works.jsonl".into()],
            }],
        );
        assert!(offline.sources.is_empty());
        assert_eq!(offline.requests, 0);

        let online = estimate(&quick, &[SourceSpec::OpenAlex]);
        let shape = SearchShape::of(&quick, &[SourceSpec::OpenAlex]);
        // One page per search at the quick tier's depth, and two lists a stage.
        let expected = shape.queries as f64
            + RequestModel::CHOSEN.snowball_fill * f64::from(quick.limits.max_stages) * 2.0;
        assert_eq!(online.requests, expected.round() as u64);
        assert!(online.requests_low < online.requests && online.requests < online.requests_high);
        assert!(online.cost_usd > 0.0 && online.api_seconds > 0.0);
    }

    #[test]
    fn deeper_tiers_seeds_and_more_sources_cost_more() {
        let openalex = [SourceSpec::OpenAlex];
        let requests = |plan: &Plan, sources: &[SourceSpec]| estimate(plan, sources).requests;
        let by_tier: Vec<u64> = Tier::ALL
            .iter()
            .map(|&tier| requests(&plan(tier, 0), &openalex))
            .collect();
        assert!(
            by_tier.windows(2).all(|pair| pair[0] < pair[1]),
            "{by_tier:?}"
        );
        // 150 seeds take two OR-lists to look up.
        assert_eq!(
            requests(&plan(Tier::Quick, 150), &openalex),
            requests(&plan(Tier::Quick, 0), &openalex) + 2
        );
        // PubMed searches with ESearch, then fetches its hits in batches of 200.
        let both = estimate(
            &plan(Tier::Quick, 0),
            &[SourceSpec::OpenAlex, SourceSpec::PubMed],
        );
        let pubmed = both
            .sources
            .iter()
            .find(|source| source.source == "pubmed")
            .expect("pubmed estimated");
        let queries = SearchShape::of(&plan(Tier::Quick, 0), &openalex).queries as u64;
        assert_eq!(pubmed.requests, 2 * queries);
        assert_eq!(both.requests, by_tier[0] + pubmed.requests);
        // Past the quick tier arXiv is not asked for books, the most cited works or experts.
        let standard = plan(Tier::Standard, 0);
        let arxiv = estimate(&standard, &[SourceSpec::Arxiv]);
        let answered = standard
            .queries
            .iter()
            .filter(|query| {
                query.kinds.is_empty()
                    && query.order == litrev_model::HitOrder::Relevance
                    && query.channel != Channel::Expert
            })
            .count() as u64;
        assert!(answered < standard.queries.len() as u64);
        assert_eq!(arxiv.requests, answered);
    }

    #[test]
    fn the_models_calls_are_bounded_by_the_plans_limits_and_priced_when_known() {
        let plan = plan(Tier::Standard, 0);
        let mut options = crate::LlmOptions::new(crate::LlmKind::Anthropic);
        let without = estimate_llm(&plan, &options, 50);
        let phases: Vec<&str> = without
            .phases
            .iter()
            .map(|phase| phase.phase.as_str())
            .collect();
        assert_eq!(
            phases,
            [
                "plan",
                "snowball",
                "fulltext",
                "write.draft",
                "write.repair"
            ]
        );
        assert!(without.cost_usd.is_some_and(|cost| cost > 0.0));
        options.criteria = Some("Randomised trials in adults only.".to_owned());
        let judged = estimate_llm(&plan, &options, 50);
        let screen = judged
            .phases
            .iter()
            .find(|phase| phase.phase == "screen")
            .expect("the judge");
        // The included works and half as many borderline ones.
        assert_eq!(screen.calls, plan.limits.max_works as u64 * 3 / 2);
        assert_eq!(judged.calls, without.calls + screen.calls);
        options.model = "a-local-model".to_owned();
        assert_eq!(estimate_llm(&plan, &options, 50).cost_usd, None);
    }

    #[test]
    fn brave_answers_each_web_search_with_one_paid_request() {
        let mut config = litrev_plan::PlanConfig::for_tier(Tier::Standard);
        config.web_search = true;
        let plan = litrev_plan::plan("Emicizumab prophylaxis: bleeding in haemophilia A", &config);
        let web = plan
            .queries
            .iter()
            .filter(|query| query.channel == Channel::Web)
            .count() as u64;
        assert!(web >= 1);
        let both = estimate(&plan, &[SourceSpec::OpenAlex, SourceSpec::Brave]);
        let brave = both
            .sources
            .iter()
            .find(|source| source.source == "brave")
            .expect("brave estimated");
        assert_eq!(brave.requests, web);
        assert!((brave.cost_usd - web as f64 * 0.005).abs() < 1e-9);
        // OpenAlex is not asked the web searches.
        let alone = estimate(&plan, &[SourceSpec::OpenAlex]);
        assert_eq!(alone.requests + brave.requests, both.requests);
    }
}
