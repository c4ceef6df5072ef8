//! The Crossref REST API: `/works` URLs (query, filters, cursor paging, DOI batches) and its
//! work format read into `Work`s.
//!
//! Nothing here talks HTTP. Abstracts arrive as JATS XML and are flattened to plain text; the
//! plain-text `Resource not found.` and the JSON `{"status": "failed", …}` bodies become
//! `Error::Api`.

mod client;
mod convert;
mod request;
mod wire;

#[cfg(test)]
mod tests;

pub use client::{CAPABILITIES, CrossrefConfig, CrossrefSource, policy};
pub use convert::{WorksPage, jats_to_text, parse_error, parse_work, parse_works};
pub use request::{
    DEFAULT_BASE_URL, DOI_BATCH, ROWS_MAX, SELECT, doi_batch_urls, filter, work_url, works_url,
};

/// Why a Crossref response could not be read as works.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Crossref answered with an error body.
    #[error("Crossref answered with an error{}: {message}", status.map(|code| format!(" ({code})")).unwrap_or_default())]
    Api {
        /// The HTTP status, when the caller knew it.
        status: Option<u16>,
        /// The error's kind (`validation-failure`, `resource-failure`), when the body said.
        kind: Option<String>,
        /// Crossref's message.
        message: String,
    },
    /// The body is not the JSON the route returns.
    #[error("not a Crossref {expected} response: {detail}")]
    Format {
        /// What was expected (`work`, `work list`).
        expected: &'static str,
        /// What was wrong.
        detail: String,
    },
}

impl Error {
    /// Whether Crossref said the DOI (or other resource) does not exist.
    pub fn is_not_found(&self) -> bool {
        match self {
            Error::Api {
                status, message, ..
            } => *status == Some(404) || message.eq_ignore_ascii_case("Resource not found."),
            Error::Format { .. } => false,
        }
    }

    /// Whether Crossref refused the request itself (a 400 `validation-failure`).
    pub fn is_bad_request(&self) -> bool {
        matches!(self, Error::Api { status, kind, .. }
            if *status == Some(400) || kind.as_deref() == Some("validation-failure"))
    }
}
