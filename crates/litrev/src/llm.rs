//! The LLM option of a run: which API, model and budget ([`LlmOptions`], stored with the run;
//! keys never are), the metered provider built from it for planning (query variants),
//! snowballing (works in doubt), screening (eligibility criteria) and the write step, one budget
//! shared in that order, and the `llm` section of `run.json` ([`LlmRecord`]: tokens and dollars
//! per phase, what each phase's model did).

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use litrev_http::{Client, HttpConfig};
use litrev_llm::{
    ANTHROPIC_URL, Anthropic, BatchSettings, DRAFT_SECTION, Ledger, LlmProvider, Metered,
    OPENAI_URL, OpenAiCompatible, PLAN_QUERIES, PhaseUsage, Price, PriceTable, REPAIR_SENTENCE,
    ResponseCache, SCREEN_JUDGE, SNOWBALL_RELEVANCE, STUDY_CARD,
};
use litrev_model::{Plan, Review, ScreeningDecision, Work, WorkId};
use litrev_plan::{PLANNER_PHASE, PlannerReport, QueryPlanner};
use litrev_snowball::{LlmScorer, SCORER_PHASE, ScorerReport, StageOutcome};
use litrev_write::{LlmWriteConfig, LlmWriteReport, WriteInput};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::events::Event;

/// Which API drafts the review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LlmKind {
    /// Any OpenAI-compatible chat-completions API: OpenAI, Ollama, vLLM, llama.cpp's server.
    #[serde(rename = "openai")]
    OpenAi,
    /// Anthropic's Messages API.
    Anthropic,
}

impl LlmKind {
    /// The model used when none is named: a small, cheap one.
    pub fn default_model(self) -> &'static str {
        match self {
            LlmKind::OpenAi => "gpt-4o-mini",
            LlmKind::Anthropic => "claude-haiku-4-5",
        }
    }

    /// The API's own base URL.
    pub fn default_url(self) -> &'static str {
        match self {
            LlmKind::OpenAi => OPENAI_URL,
            LlmKind::Anthropic => ANTHROPIC_URL,
        }
    }

    /// The environment variable holding the API key.
    pub fn key_variable(self) -> &'static str {
        match self {
            LlmKind::OpenAi => "OPENAI_API_KEY",
            LlmKind::Anthropic => "ANTHROPIC_API_KEY",
        }
    }
}

impl FromStr for LlmKind {
    type Err = String;

    fn from_str(text: &str) -> std::result::Result<LlmKind, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "openai" | "openai-compatible" => Ok(LlmKind::OpenAi),
            "anthropic" => Ok(LlmKind::Anthropic),
            other => Err(format!(
                "no LLM provider `{other}`: use openai (OpenAI or any compatible server: Ollama, \
                 vLLM, llama.cpp) or anthropic"
            )),
        }
    }
}

impl fmt::Display for LlmKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LlmKind::OpenAi => "openai",
            LlmKind::Anthropic => "anthropic",
        })
    }
}

/// A run's LLM settings. The API key is read from the environment when the write step runs
/// and is never stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmOptions {
    /// The API.
    pub provider: LlmKind,
    /// The model.
    pub model: String,
    /// The API's base URL; `None` for the provider's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Most US dollars the run's LLM calls may cost; calls that could go past it are refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_usd: Option<f64>,
    /// The model's price, for models litrev has no list price for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<Price>,
    /// Anthropic: send bulk calls as one Message Batch (half price, slower).
    #[serde(default)]
    pub batch: bool,
    /// Eligibility criteria, as written, that the model applies at screening; `None` leaves
    /// screening to the rules and the ranking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub criteria: Option<String>,
}

impl LlmOptions {
    /// `provider` with its default model and URL, no budget.
    pub fn new(provider: LlmKind) -> LlmOptions {
        LlmOptions {
            provider,
            model: provider.default_model().to_owned(),
            url: None,
            budget_usd: None,
            price: None,
            batch: false,
            criteria: None,
        }
    }
}

/// The `llm` section of `run.json`: what the model was asked, what it cost, what came of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmRecord {
    /// The API and where it is (`openai-compatible https://api.openai.com/v1`).
    pub provider: String,
    /// The model.
    pub model: String,
    /// The versioned prompts the calls were made from.
    pub prompts: Vec<String>,
    /// The budget, if one was set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_usd: Option<f64>,
    /// Whether the model has a price (list price or `--llm-price`); unpriced calls count $0.
    pub priced: bool,
    /// Tokens and dollars per phase (`screen`, `write.draft`, `write.repair`).
    pub phases: Vec<PhaseUsage>,
    /// The sum over phases.
    pub total: PhaseUsage,
    /// What the writer did: sentences drafted, kept, repaired, dropped.
    pub writing: LlmWriteReport,
    /// What the judge of the eligibility criteria did at screening, when `--criteria` was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screening: Option<JudgeRecord>,
    /// What the model said of the works snowballing left in doubt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snowballing: Option<SnowballLlmRecord>,
    /// The searches the model added to the plan.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub planning: Option<PlanLlmRecord>,
    /// The study cards the model filled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fulltext: Option<CardsLlmRecord>,
}

/// The searches the model added to the plan and what the call cost (kept with the plan, so a
/// resumed run neither asks again nor forgets the cost; the `planning` part of `run.json`'s
/// `llm` section).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanLlmRecord {
    /// The versioned prompt.
    pub prompt: String,
    /// Tokens and dollars of the `plan` phase.
    pub usage: PhaseUsage,
    /// What was proposed, added and left out.
    #[serde(flatten)]
    pub report: PlannerReport,
    /// What the model's brief (prompt `plan_brief`) filled, asked before the variants.
    #[serde(default)]
    pub brief: litrev_plan::BriefReport,
}

/// What the model said of one snowball stage's works in doubt, and what it cost (kept with the
/// stage, so a resumed run reuses the verdicts).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StageLlmRecord {
    /// Tokens and dollars of the stage's calls.
    pub usage: PhaseUsage,
    /// The verdicts, and the works left to their score.
    pub scoring: ScorerReport,
}

impl StageLlmRecord {
    /// The verdicts of `stages` by work: what later stages' judgements reuse.
    pub(crate) fn verdicts<'a>(
        stages: impl IntoIterator<Item = &'a StageLlmRecord>,
    ) -> BTreeMap<WorkId, bool> {
        stages
            .into_iter()
            .flat_map(|stage| &stage.scoring.verdicts)
            .map(|verdict| (verdict.work.clone(), verdict.relevant))
            .collect()
    }
}

/// What the model said of the works snowballing left in doubt, over every stage (the
/// `snowballing` part of `run.json`'s `llm` section).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SnowballLlmRecord {
    /// The versioned prompt.
    pub prompt: String,
    /// Tokens and dollars of the `snowball` phase.
    pub usage: PhaseUsage,
    /// Works the model gave a verdict on.
    pub judged: usize,
    /// Of those, the ones it found relevant.
    pub relevant: usize,
    /// Works whose call or answer failed: their score decided.
    pub failed: usize,
    /// Works not asked about because the budget ran out: their score decided.
    pub over_budget: usize,
}

impl SnowballLlmRecord {
    /// The sum over the stages' records; `None` when no stage asked the model anything.
    pub(crate) fn of_stages<'a>(
        stages: impl IntoIterator<Item = &'a StageLlmRecord>,
    ) -> Option<SnowballLlmRecord> {
        let stages: Vec<&StageLlmRecord> = stages.into_iter().collect();
        if stages.is_empty() {
            return None;
        }
        let verdicts = || stages.iter().flat_map(|stage| &stage.scoring.verdicts);
        let usage = Ledger {
            phases: stages.iter().map(|stage| stage.usage.clone()).collect(),
        }
        .total();
        Some(SnowballLlmRecord {
            prompt: SNOWBALL_RELEVANCE.id(),
            usage: PhaseUsage {
                phase: SCORER_PHASE.to_owned(),
                ..usage
            },
            judged: verdicts().count(),
            relevant: verdicts().filter(|verdict| verdict.relevant).count(),
            failed: stages.iter().map(|stage| stage.scoring.failed).sum(),
            over_budget: stages.iter().map(|stage| stage.scoring.over_budget).sum(),
        })
    }
}

/// Checks, before a run starts, what would otherwise stop it at the write step: the API key
/// (unless a local server is named) and a price for the model when a budget is set.
///
/// # Errors
/// `Llm` with `MissingKey` or `NoPrice`, saying what to set.
pub(crate) fn check_ready(options: &LlmOptions) -> Result<()> {
    api_key(options)?;
    let mut prices = PriceTable::list_prices();
    if let Some(price) = options.price {
        prices = prices.with(&options.model, price);
    }
    if options.budget_usd.is_some() && prices.price(&options.model).is_none() {
        return Err(llm_error(litrev_llm::Error::NoPrice {
            model: options.model.clone(),
        }));
    }
    Ok(())
}

/// The base URL the options name (or the provider's own).
fn base_url(options: &LlmOptions) -> String {
    options
        .url
        .clone()
        .filter(|url| !url.trim().is_empty())
        .unwrap_or_else(|| options.provider.default_url().to_owned())
}

/// The API key from the environment; required for the provider's own URL only.
fn api_key(options: &LlmOptions) -> Result<Option<String>> {
    let key = std::env::var(options.provider.key_variable())
        .ok()
        .filter(|key| !key.trim().is_empty());
    if key.is_none() && base_url(options) == options.provider.default_url() {
        return Err(llm_error(litrev_llm::Error::MissingKey {
            provider: match options.provider {
                LlmKind::OpenAi => "OpenAI",
                LlmKind::Anthropic => "Anthropic",
            },
            variable: options.provider.key_variable(),
        }));
    }
    Ok(key)
}

fn llm_error(error: litrev_llm::Error) -> Error {
    Error::Llm(litrev_write::Error::Llm(error))
}

/// The run's model behind the response cache, the ledger and `budget` (what is left of the
/// run's budget), and whether the model has a price.
///
/// # Errors
/// `Llm` when the key is missing; `Http` when the HTTP client cannot be built.
fn open_metered(
    cache: &ResponseCache,
    options: &LlmOptions,
    budget: Option<f64>,
) -> Result<(Metered, bool)> {
    check_ready(options)?;
    let url = base_url(options);
    let key = api_key(options)?;
    let client = Client::new(HttpConfig {
        cache_dir: None,
        // A long draft from a slow model takes minutes.
        timeout: Duration::from_secs(600),
        max_retries: 4,
        backoff_base: Duration::from_secs(1),
        ..HttpConfig::default()
    })
    .map_err(|error| Error::Http(error.to_string()))?;
    let provider: Box<dyn LlmProvider> = match options.provider {
        LlmKind::OpenAi => Box::new(OpenAiCompatible::new(&client, &url, key)),
        LlmKind::Anthropic => Box::new(Anthropic::new(
            &client,
            &url,
            key,
            BatchSettings {
                enabled: options.batch,
                ..BatchSettings::default()
            },
        )),
    };
    let mut prices = PriceTable::list_prices();
    if let Some(price) = options.price {
        prices = prices.with(&options.model, price);
    }
    let priced = prices.price(&options.model).is_some();
    let llm = Metered::new(provider, Some(cache.clone()), prices, budget);
    Ok((llm, priced))
}

/// What is left of the run's budget after `spent_usd` (`None`: no budget).
fn left_of_budget(options: &LlmOptions, spent_usd: f64) -> Option<f64> {
    options
        .budget_usd
        .map(|budget| (budget - spent_usd).max(0.0))
}

/// Asks the run's model for query variants and adds the usable ones to `plan`; tells the user
/// what it added and cost. A failed call or answer, or a refusal by the budget, leaves the plan
/// as it was and says so.
///
/// # Errors
/// `Llm` when the key is missing or the prompt cannot be filled; `Http` when the HTTP client
/// cannot be built.
pub(crate) fn plan_queries(
    cache: &ResponseCache,
    options: &LlmOptions,
    plan: &mut Plan,
    events: &dyn Fn(&Event),
) -> Result<PlanLlmRecord> {
    // The plan is the first step to ask the model: the whole budget is left.
    let (llm, priced) = open_metered(cache, options, left_of_budget(options, 0.0))?;
    let planner = QueryPlanner {
        llm: &llm,
        model: &options.model,
    };
    // The brief first: domains it finds get searches of their own before the variants.
    let brief = planner.brief(plan).map_err(llm_error)?;
    if !brief.domains.is_empty() {
        litrev_plan::split_into_domains(plan, litrev_plan::this_year());
    }
    let report = planner.extend(plan).map_err(llm_error)?;
    report_usage(&llm, options, priced, events);
    let said = match (
        &brief.failure,
        brief.filled.is_empty(),
        brief.domains.is_empty(),
    ) {
        (Some(failure), _, _) => format!("no brief ({failure})"),
        (None, true, true) => "the brief as it was".to_owned(),
        (None, _, _) => format!(
            "the brief's {}{}",
            if brief.filled.is_empty() {
                "domains".to_owned()
            } else {
                brief.filled.join(", ")
            },
            if brief.domains.is_empty() {
                String::new()
            } else {
                format!(" (domains: {})", brief.domains.join("; "))
            }
        ),
    };
    events(&Event::Notice {
        message: format!("LLM planning: {said}; {report}"),
    });
    Ok(PlanLlmRecord {
        prompt: PLAN_QUERIES.id(),
        usage: PhaseUsage {
            phase: PLANNER_PHASE.to_owned(),
            ..llm.ledger().total()
        },
        report,
        brief,
    })
}

/// Runs a snowball stage (`expand`), with the run's model scoring the works it leaves in
/// doubt when there is one, within what is left of the budget after `spent_usd`; tells the user
/// what the model said and cost.
///
/// # Errors
/// `Llm` when the key is missing; whatever `expand` returns.
pub(crate) fn snowball_stage(
    cache: &ResponseCache,
    options: Option<&LlmOptions>,
    spent_usd: f64,
    events: &dyn Fn(&Event),
    expand: impl FnOnce(Option<LlmScorer<'_>>) -> Result<StageOutcome>,
) -> Result<(StageOutcome, Option<StageLlmRecord>)> {
    let Some(options) = options else {
        return Ok((expand(None)?, None));
    };
    let (llm, priced) = open_metered(cache, options, left_of_budget(options, spent_usd))?;
    let outcome = expand(Some(LlmScorer {
        llm: &llm,
        model: &options.model,
    }))?;
    report_usage(&llm, options, priced, events);
    let scoring = outcome.scoring.clone();
    let asked = scoring.verdicts.len() + scoring.failed + scoring.over_budget;
    if asked > 0 {
        let relevant = scoring
            .verdicts
            .iter()
            .filter(|verdict| verdict.relevant)
            .count();
        events(&Event::Notice {
            message: format!(
                "LLM snowballing: {asked} works in doubt, {relevant} judged relevant, {} not, {} left to their score after a failed answer, {} left to it for the budget",
                scoring.verdicts.len() - relevant,
                scoring.failed,
                scoring.over_budget
            ),
        });
    }
    let usage = PhaseUsage {
        phase: SCORER_PHASE.to_owned(),
        ..llm.ledger().total()
    };
    Ok((outcome, Some(StageLlmRecord { usage, scoring })))
}

/// What the LLM judge did at screening and what it cost (the `screening` part of `run.json`'s
/// `llm` section).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeRecord {
    /// The API and where it is.
    pub provider: String,
    /// The model.
    pub model: String,
    /// The versioned prompt.
    pub prompt: String,
    /// SHA-256 of the eligibility criteria as given.
    pub criteria_sha256: String,
    /// Tokens and dollars of the `screen` phase.
    pub usage: PhaseUsage,
    /// Works judged, included, excluded, rescued from the ranking's exclusions, and left to
    /// the ranking because the call or the answer failed.
    pub judged: usize,
    /// Works the judge included.
    pub included: usize,
    /// Works the judge excluded.
    pub excluded: usize,
    /// Included works the ranking had left out.
    pub rescued: usize,
    /// Works whose call or answer failed: the ranking's decision stands.
    pub kept_model: usize,
}

/// Applies the run's eligibility criteria to the screening `decisions` with its model, within
/// what is left of the budget after `spent_usd`; without criteria the decisions come back as
/// they were.
///
/// # Errors
/// `Llm` when the key is missing or the budget would be exceeded.
pub(crate) fn judge_screening(
    cache: &ResponseCache,
    options: &LlmOptions,
    spent_usd: f64,
    plan: &Plan,
    works: &BTreeMap<WorkId, Work>,
    decisions: Vec<ScreeningDecision>,
    events: &dyn Fn(&Event),
) -> Result<(Vec<ScreeningDecision>, Option<JudgeRecord>)> {
    let Some(criteria) = options.criteria.as_deref() else {
        return Ok((decisions, None));
    };
    let (llm, priced) = open_metered(cache, options, left_of_budget(options, spent_usd))?;
    let config = litrev_screen::JudgeConfig::for_model(&options.model, plan.limits.max_works);
    let judged = litrev_screen::judge(&llm, &config, &plan.question, criteria, works, decisions);
    report_usage(&llm, options, priced, events);
    let total = llm.ledger().total();
    let (decisions, report) = judged.map_err(llm_error)?;
    events(&Event::Notice {
        message: format!(
            "LLM screening: {} works judged against the criteria, {} included ({} the ranking had left out), {} excluded, {} left to the ranking after a failed answer",
            report.judged, report.included, report.rescued, report.excluded, report.kept_model
        ),
    });
    let usage = PhaseUsage {
        phase: litrev_screen::JUDGE_PHASE.to_owned(),
        ..total
    };
    Ok((
        decisions,
        Some(JudgeRecord {
            provider: llm.id(),
            model: options.model.clone(),
            prompt: SCREEN_JUDGE.id(),
            criteria_sha256: litrev_model::sha256_hex(criteria.as_bytes()),
            usage,
            judged: report.judged,
            included: report.included,
            excluded: report.excluded,
            rescued: report.rescued,
            kept_model: report.kept_model,
        }),
    ))
}

/// Writes the review with the run's model: builds the provider behind the response cache, the
/// ledger and what is left of the budget after the screening judge's calls (`screening`),
/// drafts, and tells the user what it cost.
///
/// # Errors
/// `Llm` when the key is missing, a call fails after retries, or the budget would be exceeded.
pub(crate) fn write_review(
    cache: &ResponseCache,
    options: &LlmOptions,
    input: &WriteInput<'_>,
    earlier: EarlierCalls,
    events: &dyn Fn(&Event),
) -> Result<(Review, LlmRecord)> {
    let (llm, priced) = open_metered(cache, options, left_of_budget(options, earlier.spent()))?;
    let (mut prompts, mut phases): (Vec<String>, Vec<PhaseUsage>) = earlier
        .steps()
        .into_iter()
        .map(|(prompt, usage)| (prompt.to_owned(), usage.clone()))
        .unzip();
    let written =
        litrev_write::write_with_llm(input, &llm, &LlmWriteConfig::for_model(&options.model));
    report_usage(&llm, options, priced, events);
    let ledger = llm.ledger();
    if let Some(failure) = llm.cache_failure() {
        events(&Event::Notice {
            message: format!(
                "LLM answers could not be cached, so a rerun will pay for them again: {failure}"
            ),
        });
    }
    let written = written.map_err(Error::Llm)?;
    let report = written.report;
    events(&Event::Notice {
        message: format!(
            "LLM writing: {} sentences drafted for {} themes, {} kept at once, {} repaired, {} dropped as unsupported",
            report.drafted,
            report.sections,
            report.accepted_at_once,
            report.repaired,
            report.dropped
        ),
    });
    for kept in &report.kept_extractive {
        events(&Event::Notice {
            message: format!("LLM writing: kept the extractive text of theme {kept}"),
        });
    }
    prompts.extend([DRAFT_SECTION.id(), REPAIR_SENTENCE.id()]);
    phases.extend(ledger.phases);
    let run_ledger = Ledger { phases };
    let EarlierCalls {
        planning,
        snowballing,
        screening,
        fulltext,
    } = earlier;
    Ok((
        written.review,
        LlmRecord {
            provider: llm.id(),
            model: options.model.clone(),
            prompts,
            budget_usd: options.budget_usd,
            priced,
            total: run_ledger.total(),
            phases: run_ledger.phases,
            writing: report,
            screening,
            snowballing,
            planning,
            fulltext,
        },
    ))
}

/// The study cards of the full-text step, filled by the model from numbered sentences (never
/// text of its own), and what its calls cost (kept with the step's record; the `fulltext`
/// part of `run.json`'s `llm` section).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardsLlmRecord {
    /// The versioned prompt.
    pub prompt: String,
    /// Tokens and dollars of the `fulltext` phase.
    pub usage: PhaseUsage,
    /// Papers asked, cards filled, extractive cards kept, numbers dropped.
    #[serde(flatten)]
    pub report: litrev_extract::CardLlmReport,
}

/// Fills the study cards of the papers read in full with the run's model, within what is left
/// of the budget after `spent_usd`.
///
/// # Errors
/// `Llm` when the key is missing or the budget would be exceeded.
pub(crate) fn read_cards(
    cache: &ResponseCache,
    options: &LlmOptions,
    spent_usd: f64,
    papers: &[litrev_extract::Paper<'_>],
    events: &dyn Fn(&Event),
) -> Result<(Vec<litrev_model::StudyCard>, CardsLlmRecord)> {
    let (llm, priced) = open_metered(cache, options, left_of_budget(options, spent_usd))?;
    let config = litrev_extract::CardLlmConfig::for_model(&options.model);
    let read = litrev_extract::llm_cards(&llm, &config, papers);
    report_usage(&llm, options, priced, events);
    let total = llm.ledger().total();
    let (cards, report) = read.map_err(llm_error)?;
    events(&Event::Notice {
        message: format!(
            "LLM study cards: {} of {} filled from the sentences the model numbered, {} kept extractive after a failed answer, {} numbers naming no sentence dropped",
            report.filled, report.asked, report.kept_extractive, report.unknown_numbers
        ),
    });
    Ok((
        cards,
        CardsLlmRecord {
            prompt: STUDY_CARD.id(),
            usage: PhaseUsage {
                phase: litrev_extract::CARDS_PHASE.to_owned(),
                ..total
            },
            report,
        },
    ))
}

/// What the model did before a step, in run order: their cost comes off the budget the step
/// may spend, and before the write step their records go into the run's ledger.
pub(crate) struct EarlierCalls {
    /// The query variants of the plan step.
    pub planning: Option<PlanLlmRecord>,
    /// The verdicts of the snowball stages.
    pub snowballing: Option<SnowballLlmRecord>,
    /// The eligibility judge of the screen step.
    pub screening: Option<JudgeRecord>,
    /// The study cards of the full-text step.
    pub fulltext: Option<CardsLlmRecord>,
}

impl EarlierCalls {
    /// The calls of the plan step and of the snowball `stages` so far: what came before a
    /// snowball stage or the screen step.
    pub(crate) fn before_screening<'a>(
        planning: Option<&PlanLlmRecord>,
        stages: impl IntoIterator<Item = &'a StageLlmRecord>,
    ) -> EarlierCalls {
        EarlierCalls {
            planning: planning.cloned(),
            snowballing: SnowballLlmRecord::of_stages(stages),
            screening: None,
            fulltext: None,
        }
    }

    /// Each earlier step's prompt and usage, in run order: the first lines of the run's ledger.
    fn steps(&self) -> Vec<(&str, &PhaseUsage)> {
        [
            self.planning
                .as_ref()
                .map(|planning| (planning.prompt.as_str(), &planning.usage)),
            self.snowballing
                .as_ref()
                .map(|snowballing| (snowballing.prompt.as_str(), &snowballing.usage)),
            self.screening
                .as_ref()
                .map(|screening| (screening.prompt.as_str(), &screening.usage)),
            self.fulltext
                .as_ref()
                .map(|fulltext| (fulltext.prompt.as_str(), &fulltext.usage)),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// Dollars these calls cost: what the next step may no longer spend.
    pub(crate) fn spent(&self) -> f64 {
        self.steps().iter().map(|(_, usage)| usage.cost_usd).sum()
    }
}

/// Tells the user what the model's calls so far cost, when there were any.
fn report_usage(llm: &Metered, options: &LlmOptions, priced: bool, events: &dyn Fn(&Event)) {
    let total = llm.ledger().total();
    if total.calls + total.cache_hits > 0 {
        events(&Event::Notice {
            message: ledger_line(
                &llm.id(),
                &options.model,
                &total,
                options.budget_usd,
                priced,
            ),
        });
    }
}

/// One line on what the model cost: calls, cache hits, tokens, dollars against the budget.
fn ledger_line(
    provider: &str,
    model: &str,
    total: &PhaseUsage,
    budget: Option<f64>,
    priced: bool,
) -> String {
    let cost = if priced {
        format!("${:.4}", total.cost_usd)
    } else {
        "no price known (pass --llm-price to count it)".to_owned()
    };
    let budget = budget.map_or_else(String::new, |budget| format!(" of a ${budget:.2} budget"));
    format!(
        "LLM {model} at {provider}: {} calls, {} answered from cache, {} input + {} output tokens{}, {cost}{budget}",
        total.calls,
        total.cache_hits,
        total.input_tokens,
        total.output_tokens,
        if total.estimated_calls > 0 {
            format!(
                " ({} calls estimated: the server gave no usage)",
                total.estimated_calls
            )
        } else {
            String::new()
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_step_is_left_what_the_steps_before_it_did_not_spend() {
        let usage = |phase: &str, cost_usd: f64| PhaseUsage {
            phase: phase.to_owned(),
            cost_usd,
            ..PhaseUsage::default()
        };
        let planning = PlanLlmRecord {
            prompt: PLAN_QUERIES.id(),
            usage: usage(PLANNER_PHASE, 0.125),
            report: PlannerReport::default(),
            brief: litrev_plan::BriefReport::default(),
        };
        let stage = StageLlmRecord {
            usage: usage(SCORER_PHASE, 0.25),
            scoring: ScorerReport::default(),
        };
        let stages = [stage.clone(), stage];
        let mut options = LlmOptions::new(LlmKind::OpenAi);
        options.budget_usd = Some(1.0);
        let left = |earlier: &EarlierCalls| left_of_budget(&options, earlier.spent());

        // The second snowball stage: planning and the first stage came before it.
        let second_stage = EarlierCalls::before_screening(Some(&planning), &stages[..1]);
        assert_eq!(left(&second_stage), Some(0.625));
        // Screening: planning and every stage.
        let screening = EarlierCalls::before_screening(Some(&planning), &stages);
        assert_eq!(left(&screening), Some(0.375));
        // Writing: the screening judge too.
        let writing = EarlierCalls {
            screening: Some(JudgeRecord {
                provider: "scripted".to_owned(),
                model: "scripted".to_owned(),
                prompt: SCREEN_JUDGE.id(),
                criteria_sha256: String::new(),
                usage: usage(litrev_screen::JUDGE_PHASE, 0.25),
                judged: 0,
                included: 0,
                excluded: 0,
                rescued: 0,
                kept_model: 0,
            }),
            ..screening
        };
        assert_eq!(left(&writing), Some(0.125));
        // Without planning or stages nothing came off.
        assert_eq!(left(&EarlierCalls::before_screening(None, &[])), Some(1.0));
    }

    #[test]
    fn providers_parse_and_options_round_trip() {
        assert_eq!("OpenAI".parse::<LlmKind>(), Ok(LlmKind::OpenAi));
        assert_eq!("anthropic".parse::<LlmKind>(), Ok(LlmKind::Anthropic));
        assert!(
            "gemini"
                .parse::<LlmKind>()
                .unwrap_err()
                .contains("use openai")
        );
        let options = LlmOptions {
            budget_usd: Some(0.5),
            price: Some(Price::new(0.15, 0.6)),
            ..LlmOptions::new(LlmKind::OpenAi)
        };
        let json = serde_json::to_value(&options).expect("json");
        assert_eq!(json["provider"], "openai");
        assert_eq!(json["model"], "gpt-4o-mini");
        assert!(json.get("url").is_none());
        let back: LlmOptions = serde_json::from_value(json).expect("back");
        assert_eq!(back, options);
    }
}
