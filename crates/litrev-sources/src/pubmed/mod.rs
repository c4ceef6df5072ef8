//! PubMed through NCBI's E-utilities: esearch, efetch, elink and epost URLs, and their XML read
//! into litrev's types.
//!
//! Nothing here talks HTTP. efetch's `PubmedArticleSet` is read in the DTD versions in use
//! since 2018 (and MEDLINE's `MedlineCitationSet`); `<ERROR>` elements and NCBI's JSON error
//! bodies become `Error::Api`.

mod client;
mod convert;
mod request;
mod wire;

#[cfg(test)]
mod tests;

pub use client::{CAPABILITIES, PubMedConfig, PubMedSource, policy};
pub(crate) use convert::kind_of as publication_kind;
pub use convert::{
    FetchPage, History, LinkSet, LinkSetDb, SearchResult, SummaryPage, parse_efetch, parse_elink,
    parse_epost, parse_error, parse_esearch, parse_esummary,
};
pub use request::{
    Caller, DEFAULT_BASE_URL, FETCH_MAX, Link, SEARCH_MAX, efetch_history_url, efetch_ids_url,
    elink_url, esearch_url,
};

/// Why an E-utilities response could not be read as what was asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// NCBI answered with an error (`<ERROR>…</ERROR>`, or `{"error": …}` such as the rate
    /// limit's).
    #[error("PubMed answered with an error{}: {message}", status.map(|code| format!(" ({code})")).unwrap_or_default())]
    Api {
        /// The HTTP status, when the caller knew it.
        status: Option<u16>,
        /// NCBI's message.
        message: String,
    },
    /// The body is not the XML the utility returns.
    #[error("not a PubMed {expected} response: {detail}")]
    Format {
        /// What was expected (`efetch`, `esearch`…).
        expected: &'static str,
        /// What was wrong.
        detail: String,
    },
}

impl Error {
    /// Whether NCBI said the ids or the database asked for do not exist.
    pub fn is_not_found(&self) -> bool {
        match self {
            Error::Api { status, message } => {
                let message = message.to_ascii_lowercase();
                *status == Some(404)
                    || message.contains("not found")
                    || message.contains("invalid uid")
                    || message.contains("cannot retrieve")
            }
            Error::Format { .. } => false,
        }
    }

    /// Whether NCBI refused the request itself (a 400, or a bad parameter named in the message).
    pub fn is_bad_request(&self) -> bool {
        match self {
            Error::Api { status, message } => {
                let message = message.to_ascii_lowercase();
                *status == Some(400)
                    || message.contains("invalid")
                    || message.contains("empty id list")
                    || message.contains("neither")
            }
            Error::Format { .. } => false,
        }
    }

    /// Whether NCBI refused for going over the request rate (a 429).
    pub fn is_rate_limited(&self) -> bool {
        matches!(self, Error::Api { status, message }
            if *status == Some(429) || message.to_ascii_lowercase().contains("rate limit"))
    }
}
