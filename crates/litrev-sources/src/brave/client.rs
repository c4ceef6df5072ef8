//! The Brave Search API as a [`Source`] of web pages: it answers the plan's web searches (the
//! `web` channel) and nothing else, one page of results per search.

use litrev_http::{Endpoint, Request, SourcePolicy};
use litrev_model::{Query, Work, WorkId, WorkKind};

use super::{COUNT_MAX, parse_web_results, query_text, web_search_url};
use crate::error::{Error, Result};
use crate::source::{Capabilities, Held, Hit, Source, SourceKind};

/// How to reach Brave Search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BraveConfig {
    /// Base URL (`LITREV_BRAVE_URL` overrides the public API).
    pub base_url: String,
    /// The subscription token (`BRAVE_API_KEY`), sent as `X-Subscription-Token` and never
    /// logged or cached.
    pub api_key: Option<String>,
}

impl Default for BraveConfig {
    fn default() -> BraveConfig {
        BraveConfig {
            base_url: super::DEFAULT_BASE_URL.to_owned(),
            api_key: None,
        }
    }
}

/// One request a second: the free plan's rate, which every plan allows.
pub fn policy() -> SourcePolicy {
    SourcePolicy::new("brave", 1)
}

/// What one request costs on Brave's paid Search plan: $5 per 1,000 requests (its list price
/// in 2025; the free plan's monthly requests cost nothing).
pub const COST_USD_PER_REQUEST: f64 = 0.005;

/// What the source can do, known without a client (the plan's estimate reads it).
pub const CAPABILITIES: Capabilities = Capabilities {
    search: true,
    web: true,
    held_kinds: &[WorkKind::Webpage],
    ..Capabilities::NONE
};

/// Brave Search over HTTP.
#[derive(Debug, Clone)]
pub struct BraveSource {
    endpoint: Endpoint,
    config: BraveConfig,
}

impl BraveSource {
    /// A source sending its requests through `endpoint` (built with [`policy`]).
    ///
    /// # Errors
    /// [`Error::MissingSetting`] without a subscription token: Brave answers nothing without one.
    pub fn new(endpoint: Endpoint, config: BraveConfig) -> Result<BraveSource> {
        if config
            .api_key
            .as_deref()
            .is_none_or(|key| key.trim().is_empty())
        {
            return Err(Error::MissingSetting {
                source_name: SourceKind::Brave.name(),
                setting: "a Brave Search API key",
                how: "set BRAVE_API_KEY (or api_key under [brave] in config.toml) to a key from https://brave.com/search/api/, or leave --source brave out",
            });
        }
        Ok(BraveSource { endpoint, config })
    }
}

impl Source for BraveSource {
    fn kind(&self) -> SourceKind {
        SourceKind::Brave
    }

    fn capabilities(&self) -> Capabilities {
        CAPABILITIES
    }

    fn describe(&self) -> String {
        format!("Brave Search at {}", self.config.base_url)
    }

    /// The first page of results only, however many are asked for: a web engine's relevance
    /// falls off after its first results, and every request is paid for.
    fn search(&self, query: &Query, limit: usize) -> Result<Vec<Hit>> {
        let text = query_text(query);
        if text.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let url = web_search_url(&self.config.base_url, &text, limit.min(COUNT_MAX), 0);
        let mut request =
            Request::get(&url, "web search").with_header("Accept", "application/json");
        if let Some(key) = &self.config.api_key {
            request = request.with_secret_header("X-Subscription-Token", key);
        }
        let response = self.endpoint.send(&request)?;
        let page = parse_web_results(response.text()?)
            .map_err(|error| Error::parse(SourceKind::Brave, error))?;
        Ok(Hit::ranked_list(page.works, limit))
    }

    fn lookup(&self, _ids: &[WorkId]) -> Result<Vec<Work>> {
        Ok(Vec::new())
    }

    fn citing(&self, _ids: &[WorkId], _held: &Held<'_>) -> Result<Vec<Work>> {
        Err(self.unsupported("citing works"))
    }
}
