//! The arXiv API as a [`Source`]: searches in its field syntax and look-ups by `id_list`, one
//! request every three seconds as arXiv's terms of use ask.

use std::time::Duration;

use litrev_http::{Endpoint, Request, SourcePolicy};
use litrev_model::{Query, Work, WorkId, WorkKind};

use super::{FeedPage, MAX_RESULTS, SortBy, id_list_url, parse_feed, query_from_text, search_url};
use crate::error::{Error, Result};
use crate::query_words::words;
use crate::source::{Capabilities, Held, Hit, Source, SourceKind};

/// Ids per `id_list` call: URLs stay short and a page holds them all.
const IDS_PER_CALL: usize = 100;

/// How to reach arXiv.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArxivConfig {
    /// Base URL (`LITREV_ARXIV_URL` overrides the export mirror).
    pub base_url: String,
}

impl Default for ArxivConfig {
    fn default() -> ArxivConfig {
        ArxivConfig {
            base_url: super::DEFAULT_BASE_URL.to_owned(),
        }
    }
}

/// At most one request every three seconds.
pub fn policy() -> SourcePolicy {
    SourcePolicy::every("arxiv", Duration::from_secs(3))
}

/// arXiv over HTTP.
#[derive(Debug, Clone)]
pub struct ArxivSource {
    endpoint: Endpoint,
    config: ArxivConfig,
}

impl ArxivSource {
    /// A source sending its requests through `endpoint` (built with [`policy`]).
    pub fn new(endpoint: Endpoint, config: ArxivConfig) -> ArxivSource {
        ArxivSource { endpoint, config }
    }

    fn feed(&self, url: &str, label: &str) -> Result<FeedPage> {
        let response = self.endpoint.send(&Request::get(url, label))?;
        parse_feed(response.text()?).map_err(|error| Error::parse(SourceKind::Arxiv, error))
    }
}

/// What the source can do, known without a client (the plan's estimate reads it).
pub const CAPABILITIES: Capabilities = Capabilities {
    search: true,
    batch_lookup: true,
    held_kinds: &[WorkKind::Preprint],
    ..Capabilities::NONE
};

impl Source for ArxivSource {
    fn kind(&self) -> SourceKind {
        SourceKind::Arxiv
    }

    fn capabilities(&self) -> Capabilities {
        CAPABILITIES
    }

    fn describe(&self) -> String {
        format!("arXiv at {}", self.config.base_url)
    }

    fn search(&self, query: &Query, limit: usize) -> Result<Vec<Hit>> {
        // Bare arXiv terms are all required: the words are joined by OR instead.
        let search = query_from_text(&words(&query.text).join(" OR "));
        if search.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let mut hits = Vec::new();
        while hits.len() < limit {
            let url = search_url(
                &self.config.base_url,
                &search,
                hits.len(),
                (limit - hits.len()).min(MAX_RESULTS),
                SortBy::Relevance,
            );
            let page = self.feed(&url, "search")?;
            let fetched = page.works.len() + page.skipped;
            for work in page.works {
                hits.push(Hit::ranked(work, hits.len()));
            }
            let total = usize::try_from(page.total_results).unwrap_or(usize::MAX);
            if fetched == 0 || hits.len() >= total {
                break;
            }
        }
        hits.truncate(limit);
        Ok(hits)
    }

    fn lookup(&self, ids: &[WorkId]) -> Result<Vec<Work>> {
        let mut wanted: Vec<String> = ids
            .iter()
            .filter_map(|id| match id {
                WorkId::Arxiv(id) => Some(id.as_str().to_owned()),
                _ => None,
            })
            .collect();
        wanted.sort();
        wanted.dedup();
        let mut works = Vec::new();
        for chunk in wanted.chunks(IDS_PER_CALL) {
            let url = id_list_url(&self.config.base_url, chunk, 0, chunk.len());
            works.extend(self.feed(&url, "id-list")?.works);
        }
        Ok(works)
    }

    fn citing(&self, _ids: &[WorkId], _held: &Held<'_>) -> Result<Vec<Work>> {
        Err(self.unsupported("citing works"))
    }
}
