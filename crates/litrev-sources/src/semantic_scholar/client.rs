//! The Semantic Scholar Graph and Recommendations APIs as a [`Source`]: relevance search with
//! offset paging, `POST /paper/batch` lookups of up to 500 ids, citations and references
//! paged 1,000 at a time, and recommendations.

use litrev_http::{Endpoint, Request, SourcePolicy};
use litrev_model::{Query, Work, WorkId};

use super::{
    BATCH_MAX_IDS, CITATIONS_LIMIT_MAX, PAPER_FIELDS, PAPER_FIELDS_WITH_REFERENCES,
    SEARCH_LIMIT_MAX, batch_requests, citations_url, paper_id, parse_batch, parse_citations_page,
    parse_recommendations, parse_references_page, parse_search_page, recommendations_request,
    references_url, search_url,
};
use crate::error::{Error, Result};
use crate::query_words::words;
use crate::source::{Capabilities, Held, Hit, Source, SourceKind};

/// The relevance search serves only the first 1,000 results of a query.
const SEARCH_WINDOW: usize = 1000;

/// How to reach Semantic Scholar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SemanticScholarConfig {
    /// Base URL (`LITREV_S2_URL` overrides the public API).
    pub base_url: String,
    /// `S2_API_KEY`, sent as `x-api-key` and never logged.
    pub api_key: Option<String>,
}

impl Default for SemanticScholarConfig {
    fn default() -> SemanticScholarConfig {
        SemanticScholarConfig {
            base_url: super::DEFAULT_BASE_URL.to_owned(),
            api_key: None,
        }
    }
}

/// One request per second: the rate Semantic Scholar grants a key (and, shared, the public pool).
pub fn policy() -> SourcePolicy {
    SourcePolicy::new("semantic-scholar", 1)
}

/// Semantic Scholar over HTTP.
#[derive(Debug, Clone)]
pub struct SemanticScholarSource {
    endpoint: Endpoint,
    config: SemanticScholarConfig,
}

impl SemanticScholarSource {
    /// A source sending its requests through `endpoint` (built with [`policy`]).
    pub fn new(endpoint: Endpoint, config: SemanticScholarConfig) -> SemanticScholarSource {
        SemanticScholarSource { endpoint, config }
    }

    fn send(&self, request: Request) -> Result<String> {
        let request = match &self.config.api_key {
            Some(key) => request.with_secret_header("x-api-key", key),
            None => request,
        };
        let response = self.endpoint.send(&request)?;
        Ok(response.text()?.to_owned())
    }

    fn get(&self, url: &str, label: &str) -> Result<String> {
        self.send(Request::get(url, label))
    }

    /// Follows the citations or references of one paper to the last page.
    fn edges(&self, id: &str, citations: bool) -> Result<Vec<Work>> {
        let mut works = Vec::new();
        let mut offset = 0;
        loop {
            let (url, label) = if citations {
                (
                    citations_url(
                        &self.config.base_url,
                        id,
                        offset,
                        CITATIONS_LIMIT_MAX,
                        PAPER_FIELDS,
                    ),
                    "citations",
                )
            } else {
                (
                    references_url(
                        &self.config.base_url,
                        id,
                        offset,
                        CITATIONS_LIMIT_MAX,
                        PAPER_FIELDS,
                    ),
                    "references",
                )
            };
            let body = self.get(&url, label)?;
            let page = if citations {
                parse_citations_page(&body)
            } else {
                parse_references_page(&body)
            }
            .map_err(|error| Error::parse(SourceKind::SemanticScholar, error))?;
            let fetched = page.works.len();
            works.extend(page.works);
            match page.next {
                Some(next) if fetched > 0 && next > offset => offset = next,
                _ => break,
            }
        }
        Ok(works)
    }
}

/// What the source can do, known without a client (the plan's estimate reads it).
pub const CAPABILITIES: Capabilities = Capabilities {
    search: true,
    batch_lookup: true,
    citing: true,
    references: true,
    recommendations: true,
    citation_counts: true,
    ..Capabilities::NONE
};

impl Source for SemanticScholarSource {
    fn kind(&self) -> SourceKind {
        SourceKind::SemanticScholar
    }

    fn capabilities(&self) -> Capabilities {
        CAPABILITIES
    }

    fn describe(&self) -> String {
        format!("Semantic Scholar at {}", self.config.base_url)
    }

    fn search(&self, query: &Query, limit: usize) -> Result<Vec<Hit>> {
        // The relevance search has no boolean syntax: plain words.
        let text = words(&query.text).join(" ");
        let limit = limit.min(SEARCH_WINDOW);
        let (year, types) = crate::semantic_scholar::request::directions(query);
        let mut hits = Vec::new();
        let mut offset = 0;
        while hits.len() < limit && !text.is_empty() {
            let page_size = (limit - hits.len()).min(SEARCH_LIMIT_MAX);
            let url = search_url(
                &self.config.base_url,
                &text,
                offset,
                page_size,
                PAPER_FIELDS,
                year.as_deref(),
                types.as_deref(),
            );
            let page = parse_search_page(&self.get(&url, "search")?)
                .map_err(|error| Error::parse(SourceKind::SemanticScholar, error))?;
            let fetched = page.works.len() + page.skipped;
            for work in page.works {
                hits.push(Hit::ranked(work, hits.len()));
            }
            match page.next {
                Some(next) if fetched > 0 && next > offset => offset = next,
                _ => break,
            }
        }
        hits.truncate(limit);
        Ok(hits)
    }

    fn lookup(&self, ids: &[WorkId]) -> Result<Vec<Work>> {
        let mut wanted: Vec<String> = ids.iter().filter_map(paper_id).collect();
        let mut seen = std::collections::BTreeSet::new();
        wanted.retain(|id| seen.insert(id.clone()));
        let mut works = Vec::new();
        for (url, body) in
            batch_requests(&self.config.base_url, &wanted, PAPER_FIELDS_WITH_REFERENCES)
        {
            debug_assert!(
                body["ids"]
                    .as_array()
                    .is_some_and(|ids| ids.len() <= BATCH_MAX_IDS)
            );
            let answer = self.send(Request::post_json(&url, "batch", &body))?;
            works.extend(
                parse_batch(&answer)
                    .map_err(|error| Error::parse(SourceKind::SemanticScholar, error))?
                    .into_iter()
                    .flatten(),
            );
        }
        Ok(works)
    }

    /// The citing papers of each id, each marked as citing it so the edge is kept.
    fn citing(&self, ids: &[WorkId], _held: &Held<'_>) -> Result<Vec<Work>> {
        let mut works = Vec::new();
        for id in ids {
            let Some(paper) = paper_id(id) else { continue };
            for mut work in self.edges(&paper, true)? {
                if !work.references.contains(id) {
                    work.references.push(id.clone());
                }
                works.push(work);
            }
        }
        Ok(works)
    }

    fn references(&self, ids: &[WorkId], _held: &Held<'_>) -> Result<Vec<Work>> {
        let mut works = Vec::new();
        for id in ids {
            let Some(paper) = paper_id(id) else { continue };
            works.extend(self.edges(&paper, false)?);
        }
        Ok(works)
    }

    fn recommend(
        &self,
        positive: &[WorkId],
        negative: &[WorkId],
        limit: usize,
    ) -> Result<Vec<Work>> {
        let positive: Vec<String> = positive.iter().filter_map(paper_id).collect();
        let negative: Vec<String> = negative.iter().filter_map(paper_id).collect();
        if positive.is_empty() {
            return Ok(Vec::new());
        }
        let (url, body) = recommendations_request(
            &self.config.base_url,
            &positive,
            &negative,
            PAPER_FIELDS,
            limit,
        );
        let answer = self.send(Request::post_json(&url, "recommendations", &body))?;
        parse_recommendations(&answer)
            .map_err(|error| Error::parse(SourceKind::SemanticScholar, error))
    }
}
