//! The LLM option of a run: which API, model and budget ([`LlmOptions`], stored with the run;
//! keys never are), the metered provider built from it for the write step, and the `llm`
//! section of `run.json` ([`LlmRecord`]: tokens and dollars per phase, what the writer did).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use litrev_http::{Client, HttpConfig};
use litrev_llm::{
    ANTHROPIC_URL, Anthropic, BatchSettings, DRAFT_SECTION, LlmProvider, Metered, OPENAI_URL,
    OpenAiCompatible, PhaseUsage, Price, PriceTable, REPAIR_SENTENCE, ResponseCache,
};
use litrev_model::Review;
use litrev_write::{LlmWriteConfig, LlmWriteReport, WriteInput};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::events::Event;
use crate::home::Home;

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
    /// Tokens and dollars per phase (`write.draft`, `write.repair`).
    pub phases: Vec<PhaseUsage>,
    /// The sum over phases.
    pub total: PhaseUsage,
    /// What the writer did: sentences drafted, kept, repaired, dropped.
    pub writing: LlmWriteReport,
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

/// Writes the review with the run's model: builds the provider behind the response cache, the
/// ledger and the budget, drafts, and tells the user what it cost.
///
/// # Errors
/// `Llm` when the key is missing, a call fails after retries, or the budget would be exceeded.
pub(crate) fn write_review(
    home: &Home,
    options: &LlmOptions,
    input: &WriteInput<'_>,
    events: &dyn Fn(&Event),
) -> Result<(Review, LlmRecord)> {
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
    let llm = Metered::new(
        provider,
        Some(ResponseCache::new(home.llm_cache())),
        prices,
        options.budget_usd,
    );
    let written =
        litrev_write::write_with_llm(input, &llm, &LlmWriteConfig::for_model(&options.model));
    let ledger = llm.ledger();
    let total = ledger.total();
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
    Ok((
        written.review,
        LlmRecord {
            provider: llm.id(),
            model: options.model.clone(),
            prompts: vec![DRAFT_SECTION.id(), REPAIR_SENTENCE.id()],
            budget_usd: options.budget_usd,
            priced,
            phases: ledger.phases,
            total,
            writing: report,
        },
    ))
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
