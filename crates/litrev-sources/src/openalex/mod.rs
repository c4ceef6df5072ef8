//! The OpenAlex Work format, shared by the snapshot reader (and, later, the live API client).
//!
//! Both the 2023 schema (`host_venue`, `concepts`) and the current one (`primary_location`,
//! `topics`, `keywords`) are read; abstracts are rebuilt from `abstract_inverted_index`.

mod convert;
mod wire;

pub use convert::{parse_work, rebuild_abstract};
