//! Tavily's search API as a source of grey literature, beside Brave: `POST /search` with the
//! query in a JSON body and the key as a bearer token, its results read into works of kind
//! `webpage` known by their address.
//!
//! Nothing here but the client talks HTTP. A result's `content` (Tavily's snippet of the page)
//! becomes the work's abstract, what screening reads; `published_date` (given for news) its
//! date; the site's host its venue.

mod client;
mod convert;
mod request;

pub use client::{CAPABILITIES, COST_USD_PER_REQUEST, TavilyConfig, TavilySource, policy};
pub use convert::{SearchResults, parse_search_results};
pub use request::{
    DEFAULT_BASE_URL, MAX_RESULTS, QUERY_MAX_CHARS, query_text, search_body, search_url,
};
