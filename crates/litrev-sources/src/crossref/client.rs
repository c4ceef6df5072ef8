//! The Crossref REST API as a [`Source`]: `/works?query=` with cursor paging, DOIs looked up
//! 50 at a time through `filter=doi:…`, and references from the records' own lists (Crossref
//! has no open cited-by route).

use litrev_http::{Endpoint, Request, SourcePolicy};
use litrev_model::{Doi, Query, Work, WorkId};

use super::{ROWS_MAX, SELECT, doi_batch_urls, parse_work, parse_works, work_url, works_url};
use crate::error::{Error, Result};
use crate::query_words::words;
use crate::source::{Capabilities, Held, Hit, Source, SourceKind};

/// How to reach Crossref.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrossrefConfig {
    /// Base URL (`LITREV_CROSSREF_URL` overrides the public API).
    pub base_url: String,
    /// Contact address for the polite pool (`mailto=`).
    pub mailto: String,
}

impl Default for CrossrefConfig {
    fn default() -> CrossrefConfig {
        CrossrefConfig {
            base_url: super::DEFAULT_BASE_URL.to_owned(),
            mailto: String::new(),
        }
    }
}

/// Ten requests a second: within the polite pool's published limit.
pub fn policy() -> SourcePolicy {
    SourcePolicy::new("crossref", 10)
}

/// Crossref over HTTP.
#[derive(Debug, Clone)]
pub struct CrossrefSource {
    endpoint: Endpoint,
    config: CrossrefConfig,
}

impl CrossrefSource {
    /// A source sending its requests through `endpoint` (built with [`policy`]).
    pub fn new(endpoint: Endpoint, config: CrossrefConfig) -> CrossrefSource {
        CrossrefSource { endpoint, config }
    }

    fn get(&self, url: &str, label: &str) -> Result<String> {
        Ok(self
            .endpoint
            .send(&Request::get(url, label))?
            .text()?
            .to_owned())
    }
}

/// What the source can do, known without a client (the plan's estimate reads it).
pub const CAPABILITIES: Capabilities = Capabilities {
    search: true,
    batch_lookup: true,
    references: true,
    citation_counts: true,
    ..Capabilities::NONE
};

impl Source for CrossrefSource {
    fn kind(&self) -> SourceKind {
        SourceKind::Crossref
    }

    fn capabilities(&self) -> Capabilities {
        CAPABILITIES
    }

    fn describe(&self) -> String {
        format!("Crossref at {}", self.config.base_url)
    }

    fn search(&self, query: &Query, limit: usize) -> Result<Vec<Hit>> {
        // `query=` ranks by how many words match: plain words.
        let text = words(&query.text).join(" ");
        let (filter, order) = crate::crossref::request::directions(query);
        let mut hits = Vec::new();
        let mut cursor = "*".to_owned();
        while hits.len() < limit && !text.is_empty() {
            let mut url = works_url(
                &self.config.base_url,
                Some(&text),
                filter.as_deref(),
                Some(SELECT),
                (limit - hits.len()).min(ROWS_MAX),
                &cursor,
                &self.config.mailto,
            );
            if let Some(order) = order {
                url.push('&');
                url.push_str(order);
            }
            let page = parse_works(&self.get(&url, "search")?)
                .map_err(|error| Error::parse(SourceKind::Crossref, error))?;
            let fetched = page.works.len() + page.skipped;
            for work in page.works {
                hits.push(Hit::ranked(work, hits.len()));
            }
            match page.next_cursor {
                Some(next) if fetched > 0 && next != cursor => cursor = next,
                _ => break,
            }
        }
        hits.truncate(limit);
        Ok(hits)
    }

    fn lookup(&self, ids: &[WorkId]) -> Result<Vec<Work>> {
        let mut dois: Vec<Doi> = ids
            .iter()
            .filter_map(|id| match id {
                WorkId::Doi(doi) => Some(doi.clone()),
                _ => None,
            })
            .collect();
        dois.sort();
        dois.dedup();
        let (batches, apart) = doi_batch_urls(
            &self.config.base_url,
            &dois,
            Some(SELECT),
            &self.config.mailto,
        );
        let mut works = Vec::new();
        for url in batches {
            works.extend(
                parse_works(&self.get(&url, "works-by-doi")?)
                    .map_err(|error| Error::parse(SourceKind::Crossref, error))?
                    .works,
            );
        }
        for doi in apart {
            let url = work_url(&self.config.base_url, &doi, &self.config.mailto);
            works.push(
                parse_work(&self.get(&url, "work")?)
                    .map_err(|error| Error::parse(SourceKind::Crossref, error))?,
            );
        }
        Ok(works)
    }

    fn citing(&self, _ids: &[WorkId], _held: &Held<'_>) -> Result<Vec<Work>> {
        Err(self.unsupported("citing works"))
    }

    fn references(&self, ids: &[WorkId], _held: &Held<'_>) -> Result<Vec<Work>> {
        let cited: Vec<WorkId> = self
            .lookup(ids)?
            .iter()
            .flat_map(|work| work.references.iter().cloned())
            .collect();
        self.lookup(&cited)
    }
}
