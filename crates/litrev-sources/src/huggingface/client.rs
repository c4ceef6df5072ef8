//! The Hub's paper search as a [`Source`]: it answers the plan's keyword searches with
//! preprints, one request per search.

use litrev_http::{Endpoint, Request, SourcePolicy};
use litrev_model::{Channel, Query, Work, WorkId, WorkKind};

use super::{LIMIT_MAX, papers_search_url, parse_papers, query_text, trending_papers_url};
use crate::error::{Error, Result};
use crate::source::{Capabilities, Held, Hit, Source, SourceKind};

/// How to reach the Hub.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HuggingFaceConfig {
    /// Base URL (`LITREV_HUGGINGFACE_URL` overrides the public Hub).
    pub base_url: String,
    /// An access token (`HF_TOKEN`), sent as a bearer token when given and never logged or
    /// cached: the search needs none, but a token's requests get a larger rate limit.
    pub token: Option<String>,
}

impl Default for HuggingFaceConfig {
    fn default() -> HuggingFaceConfig {
        HuggingFaceConfig {
            base_url: super::DEFAULT_BASE_URL.to_owned(),
            token: None,
        }
    }
}

/// Two requests a second: well inside the Hub's limits for anonymous API calls.
pub fn policy() -> SourcePolicy {
    SourcePolicy::new("huggingface", 2)
}

/// What the source can do, known without a client (the plan's estimate reads it).
pub const CAPABILITIES: Capabilities = Capabilities {
    search: true,
    held_kinds: &[WorkKind::Preprint],
    trending: true,
    ..Capabilities::NONE
};

/// Of a trending search's words, how many a paper's title and abstract must hold (or all of
/// them, when it has fewer): the trending list is the whole Hub's, most of it off any topic.
const TRENDING_WORDS_HELD: usize = 2;

/// Whether a paper's title and abstract hold enough of `words` (lower-case) to be on the topic.
fn on_topic(work: &Work, words: &[String]) -> bool {
    let text = format!(
        "{} {}",
        work.title.as_deref().unwrap_or_default(),
        work.abstract_text.as_deref().unwrap_or_default()
    )
    .to_lowercase();
    let held: std::collections::BTreeSet<&str> = text
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .collect();
    let found = words
        .iter()
        .filter(|word| held.contains(word.as_str()))
        .count();
    found >= TRENDING_WORDS_HELD.min(words.len()) && found > 0
}

/// The Hub's paper search over HTTP.
#[derive(Debug, Clone)]
pub struct HuggingFaceSource {
    endpoint: Endpoint,
    config: HuggingFaceConfig,
}

impl HuggingFaceSource {
    /// A source sending its requests through `endpoint` (built with [`policy`]).
    pub fn new(endpoint: Endpoint, config: HuggingFaceConfig) -> HuggingFaceSource {
        HuggingFaceSource { endpoint, config }
    }
}

impl Source for HuggingFaceSource {
    fn kind(&self) -> SourceKind {
        SourceKind::HuggingFace
    }

    fn capabilities(&self) -> Capabilities {
        CAPABILITIES
    }

    fn describe(&self) -> String {
        format!("Hugging Face papers at {}", self.config.base_url)
    }

    /// One request, however many are asked for: the search has no pages. A trending search
    /// reads the first 100 trending papers and keeps those on its words, in trending order.
    fn search(&self, query: &Query, limit: usize) -> Result<Vec<Hit>> {
        let text = query_text(query);
        if text.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let trending = query.channel == Channel::Trending;
        let (url, endpoint) = if trending {
            (
                trending_papers_url(&self.config.base_url, LIMIT_MAX),
                "trending papers",
            )
        } else {
            (
                papers_search_url(&self.config.base_url, &text, limit.min(LIMIT_MAX)),
                "paper search",
            )
        };
        let mut request = Request::get(&url, endpoint).with_header("Accept", "application/json");
        if let Some(token) = self
            .config
            .token
            .as_deref()
            .filter(|token| !token.trim().is_empty())
        {
            request = request.with_secret_header("Authorization", &format!("Bearer {token}"));
        }
        let response = self.endpoint.send(&request)?;
        let mut page = parse_papers(response.text()?)
            .map_err(|error| Error::parse(SourceKind::HuggingFace, error))?;
        if trending {
            let words: Vec<String> = crate::query_words::words(&text)
                .into_iter()
                .map(|word| word.to_lowercase())
                .collect();
            page.works.retain(|work| on_topic(work, &words));
        }
        Ok(Hit::ranked_list(page.works, limit))
    }

    fn lookup(&self, _ids: &[WorkId]) -> Result<Vec<Work>> {
        Ok(Vec::new())
    }

    fn citing(&self, _ids: &[WorkId], _held: &Held<'_>) -> Result<Vec<Work>> {
        Err(self.unsupported("citing works"))
    }
}
