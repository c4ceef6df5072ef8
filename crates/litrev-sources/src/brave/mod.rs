//! The Brave Search API's web search as a source of grey literature: `/res/v1/web/search`
//! URLs, and its results read into works of kind `webpage` known by their address.
//!
//! Nothing here but the client talks HTTP. A result's snippet (its `description`, with Brave's
//! `<strong>` highlights and HTML entities) becomes the work's abstract, what screening reads;
//! `page_age` its date; the site's name its venue.

mod client;
mod convert;
mod request;

pub use client::{BraveConfig, BraveSource, CAPABILITIES, COST_USD_PER_REQUEST, policy};
pub use convert::{WebResults, parse_web_results};
pub use request::{
    COUNT_MAX, DEFAULT_BASE_URL, QUERY_MAX_CHARS, QUERY_MAX_WORDS, query_text, web_search_url,
};
