//! The OpenAlex Work format, shared by the snapshot reader and the live API client (`client.rs`).
//!
//! Both the 2023 schema (`host_venue`, `concepts`) and the current one (`primary_location`,
//! `topics`, `keywords`) are read; abstracts are rebuilt from `abstract_inverted_index`. List
//! responses (`meta` + `results`) and error bodies are read by `parse_page` and `parse_error`.

mod authors;
mod client;
mod convert;
mod page;
mod wire;

#[cfg(test)]
mod tests;

pub use authors::{expert_from_json, parse_author_page};
pub use client::{
    DEFAULT_BASE_URL, LIST_COST_USD, MAX_OR_VALUES, MAX_PER_PAGE, OpenAlexConfig, OpenAlexSource,
    SEARCH_COST_USD, SELECT, policy, to_search_syntax,
};
pub use convert::{parse_work, rebuild_abstract};
pub use page::{ApiError, Page, parse_error, parse_page};
