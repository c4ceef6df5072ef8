//! The arXiv API: `/api/query` URLs, plain questions turned into its query syntax, and its Atom
//! feeds read into `Work`s.
//!
//! Nothing here talks HTTP. Both the current feed layout and the older one (2016: `http://`
//! links, namespaces declared per element) are read; an error feed (an entry whose id is
//! `…/api/errors#…`) becomes `Error::Api`.

mod client;
mod convert;
mod request;
mod wire;

#[cfg(test)]
mod tests;

pub use client::{ArxivConfig, ArxivSource, CAPABILITIES, policy};
pub use convert::{FeedPage, parse_feed};
pub use request::{
    DEFAULT_BASE_URL, MAX_RESULTS, SortBy, id_list_url, query_from_text, search_url,
};

/// Why an arXiv response could not be read as a feed of works.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The API answered with an error feed (a malformed id or query).
    #[error("arXiv answered with an error: {message} ({id})")]
    Api {
        /// The error entry's id (`https://arxiv.org/api/errors#incorrect_id_format_for_abc`).
        id: String,
        /// The error entry's summary (`incorrect id format for abc`).
        message: String,
    },
    /// The body is not an Atom feed.
    #[error("not an arXiv Atom feed: {0}")]
    Format(String),
}
