//! Open Library as a [`Source`] of books: it answers the plan's book searches (those asking
//! for books or chapters, not its keyword searches) and looks books up by ISBN.

use litrev_http::{Endpoint, Request, SourcePolicy};
use litrev_model::{Isbn, Query, Work, WorkId, WorkKind};

use super::{BIBKEYS_MAX, LIMIT_MAX, books_url, parse_books, parse_search, query_text, search_url};
use crate::error::{Error, Result};
use crate::source::{Capabilities, Held, Hit, Source, SourceKind, directed};

/// How to reach Open Library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenLibraryConfig {
    /// Base URL (`LITREV_OPENLIBRARY_URL` overrides the public site).
    pub base_url: String,
}

impl Default for OpenLibraryConfig {
    fn default() -> OpenLibraryConfig {
        OpenLibraryConfig {
            base_url: super::DEFAULT_BASE_URL.to_owned(),
        }
    }
}

/// One request a second: Open Library's limit for clients that do not identify themselves,
/// and within its three a second for those that do.
pub fn policy() -> SourcePolicy {
    SourcePolicy::new("openlibrary", 1)
}

/// What the source can do, known without a client (the plan's estimate reads it).
pub const CAPABILITIES: Capabilities = Capabilities {
    search: true,
    batch_lookup: true,
    held_kinds: &[WorkKind::Book],
    kinds_asked_only: true,
    ..Capabilities::NONE
};

/// Open Library over HTTP.
#[derive(Debug, Clone)]
pub struct OpenLibrarySource {
    endpoint: Endpoint,
    config: OpenLibraryConfig,
}

impl OpenLibrarySource {
    /// A source sending its requests through `endpoint` (built with [`policy`]).
    pub fn new(endpoint: Endpoint, config: OpenLibraryConfig) -> OpenLibrarySource {
        OpenLibrarySource { endpoint, config }
    }

    fn get(&self, url: &str, endpoint: &str) -> Result<String> {
        let request = Request::get(url, endpoint).with_header("Accept", "application/json");
        Ok(self.endpoint.send(&request)?.text()?.to_owned())
    }
}

impl Source for OpenLibrarySource {
    fn kind(&self) -> SourceKind {
        SourceKind::OpenLibrary
    }

    fn capabilities(&self) -> Capabilities {
        CAPABILITIES
    }

    fn describe(&self) -> String {
        format!("Open Library at {}", self.config.base_url)
    }

    /// The first page of books, up to 100: a book search reads the most relevant books, and
    /// the plan's depth for it is one page.
    fn search(&self, query: &Query, limit: usize) -> Result<Vec<Hit>> {
        let text = query_text(query);
        if text.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let url = search_url(&self.config.base_url, &text, limit.min(LIMIT_MAX), 1);
        let page = parse_search(&self.get(&url, "search")?)
            .map_err(|error| Error::parse(SourceKind::OpenLibrary, error))?;
        Ok(directed(query, Hit::ranked_list(page.works, limit)))
    }

    /// The ISBNs among `ids`, [`BIBKEYS_MAX`] to a request; other ids are not Open Library's.
    fn lookup(&self, ids: &[WorkId]) -> Result<Vec<Work>> {
        let mut isbns: Vec<Isbn> = ids
            .iter()
            .filter_map(|id| match id {
                WorkId::Isbn(isbn) => Some(isbn.clone()),
                _ => None,
            })
            .collect();
        isbns.sort();
        isbns.dedup();
        let mut works = Vec::new();
        for batch in isbns.chunks(BIBKEYS_MAX) {
            let url = books_url(&self.config.base_url, batch);
            works.extend(
                parse_books(&self.get(&url, "books")?)
                    .map_err(|error| Error::parse(SourceKind::OpenLibrary, error))?,
            );
        }
        Ok(works)
    }

    fn citing(&self, _ids: &[WorkId], _held: &Held<'_>) -> Result<Vec<Work>> {
        Err(self.unsupported("citing works"))
    }
}
