//! Hugging Face's paper pages as a source of machine-learning preprints: the Hub's paper
//! search (`/api/papers/search`) for the plan's keyword searches and its trending Daily Papers
//! (`/api/daily_papers?sort=trending`) for the trending channel, their answers read into works
//! known by their arXiv ids.
//!
//! The Hub indexes the arXiv papers its community submits and discusses (the "daily papers"),
//! with the arXiv abstract, the authors and keywords. Nothing here but the client talks HTTP.
//! A paper found here and on arXiv or OpenAlex is one work: they share the arXiv id.

mod client;
mod convert;
mod request;

pub use client::{CAPABILITIES, HuggingFaceConfig, HuggingFaceSource, policy};
pub use convert::{PaperResults, parse_papers};
pub use request::{
    DEFAULT_BASE_URL, LIMIT_MAX, QUERY_MAX_CHARS, papers_search_url, query_text,
    trending_papers_url,
};
