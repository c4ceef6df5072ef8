//! The Semantic Scholar Academic Graph API: request URLs and its paper format read into `Work`s.
//!
//! Nothing here talks HTTP: `request` builds the URLs (and JSON bodies of the POST routes) a
//! client sends, and the parsers turn the response text into litrev's types. The wire structs
//! in `wire.rs` stay private to this folder.

mod client;
mod convert;
mod request;
mod wire;

#[cfg(test)]
mod tests;

pub use client::{CAPABILITIES, SemanticScholarConfig, SemanticScholarSource, policy};
pub use convert::{
    BatchResult, BulkPage, CitationPage, Paper, SearchPage, parse_batch, parse_bulk_page,
    parse_citations_page, parse_error, parse_paper, parse_recommendations, parse_references_page,
    parse_search_page,
};
pub use request::{
    BATCH_MAX_IDS, BULK_PAGE_MAX, CITATIONS_LIMIT_MAX, DEFAULT_BASE_URL, PAPER_FIELDS,
    PAPER_FIELDS_WITH_REFERENCES, SEARCH_LIMIT_MAX, batch_requests, citations_url, paper_id,
    paper_url, recommendations_for_paper_url, recommendations_request, references_url,
    search_bulk_url, search_url, year_filter,
};

/// Why a Semantic Scholar response could not be read as what was asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The API answered with an error body (`{"error": …}` or `{"message": …}`).
    #[error("Semantic Scholar answered with an error{}: {message}", status_suffix(*status))]
    Api {
        /// The HTTP status, when the caller knew it.
        status: Option<u16>,
        /// The API's message.
        message: String,
    },
    /// The body is not the JSON the endpoint returns.
    #[error("not a Semantic Scholar {expected} response: {detail}")]
    Format {
        /// What was expected (`paper`, `search page`…).
        expected: &'static str,
        /// What was wrong.
        detail: String,
    },
}

impl Error {
    /// Whether the API said the paper (or author) does not exist: a 404, or a body saying so.
    pub fn is_not_found(&self) -> bool {
        match self {
            Error::Api { status, message } => {
                *status == Some(404)
                    || (status.is_none() && message.to_ascii_lowercase().contains("not found"))
            }
            Error::Format { .. } => false,
        }
    }

    /// Whether the API refused the request itself (a 400: unknown field, bad parameter).
    pub fn is_bad_request(&self) -> bool {
        matches!(
            self,
            Error::Api {
                status: Some(400),
                ..
            }
        )
    }
}

fn status_suffix(status: Option<u16>) -> String {
    status.map(|code| format!(" ({code})")).unwrap_or_default()
}
