//! Tavily as a [`Source`] of web pages: it answers the plan's web searches (the `web`
//! channel) and nothing else, one search per query.

use litrev_http::{Endpoint, Request, SourcePolicy};
use litrev_model::{Query, Work, WorkId, WorkKind};

use super::{MAX_RESULTS, parse_search_results, query_text, search_body, search_url};
use crate::error::{Error, Result};
use crate::source::{Capabilities, Held, Hit, Source, SourceKind};

/// How to reach Tavily.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TavilyConfig {
    /// Base URL (`LITREV_TAVILY_URL` overrides the public API).
    pub base_url: String,
    /// The API key (`TAVILY_API_KEY`), sent as a bearer token and never logged or cached.
    pub api_key: Option<String>,
}

impl Default for TavilyConfig {
    fn default() -> TavilyConfig {
        TavilyConfig {
            base_url: super::DEFAULT_BASE_URL.to_owned(),
            api_key: None,
        }
    }
}

/// One request a second: under the 100 requests a minute Tavily allows a development key.
pub fn policy() -> SourcePolicy {
    SourcePolicy::new("tavily", 1)
}

/// What one request costs: a basic search is one credit, and a credit $0.008 on Tavily's
/// pay-as-you-go plan (its list price in 2025; the free plan's monthly credits cost nothing).
pub const COST_USD_PER_REQUEST: f64 = 0.008;

/// What the source can do, known without a client (the plan's estimate reads it).
pub const CAPABILITIES: Capabilities = Capabilities {
    search: true,
    web: true,
    held_kinds: &[WorkKind::Webpage],
    ..Capabilities::NONE
};

/// Tavily over HTTP.
#[derive(Debug, Clone)]
pub struct TavilySource {
    endpoint: Endpoint,
    config: TavilyConfig,
}

impl TavilySource {
    /// A source sending its requests through `endpoint` (built with [`policy`]).
    ///
    /// # Errors
    /// [`Error::MissingSetting`] without an API key: Tavily answers nothing without one.
    pub fn new(endpoint: Endpoint, config: TavilyConfig) -> Result<TavilySource> {
        if config
            .api_key
            .as_deref()
            .is_none_or(|key| key.trim().is_empty())
        {
            return Err(Error::MissingSetting {
                source_name: SourceKind::Tavily.name(),
                setting: "a Tavily API key",
                how: "set TAVILY_API_KEY (or api_key under [tavily] in config.toml) to a key from https://app.tavily.com, or leave --source tavily out",
            });
        }
        Ok(TavilySource { endpoint, config })
    }
}

impl Source for TavilySource {
    fn kind(&self) -> SourceKind {
        SourceKind::Tavily
    }

    fn capabilities(&self) -> Capabilities {
        CAPABILITIES
    }

    fn describe(&self) -> String {
        format!("Tavily at {}", self.config.base_url)
    }

    /// One search of up to 20 results, however many are asked for: Tavily does not page, and
    /// every search is paid for.
    fn search(&self, query: &Query, limit: usize) -> Result<Vec<Hit>> {
        let (text, sites) = query_text(query);
        if text.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let body = search_body(&text, &sites, limit.min(MAX_RESULTS));
        let mut request = Request::post_json(&search_url(&self.config.base_url), "search", &body)
            .with_header("Accept", "application/json");
        if let Some(key) = &self.config.api_key {
            request = request.with_secret_header("Authorization", &format!("Bearer {key}"));
        }
        let response = self.endpoint.send(&request)?;
        let page = parse_search_results(response.text()?)
            .map_err(|error| Error::parse(SourceKind::Tavily, error))?;
        Ok(Hit::ranked_list(page.works, limit))
    }

    fn lookup(&self, _ids: &[WorkId]) -> Result<Vec<Work>> {
        Ok(Vec::new())
    }

    fn citing(&self, _ids: &[WorkId], _held: &Held<'_>) -> Result<Vec<Work>> {
        Err(self.unsupported("citing works"))
    }
}
