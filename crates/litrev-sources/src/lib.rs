//! Where works come from.
//!
//! A [`Source`] answers searches, looks works up by id and follows citations, declaring which
//! of these it can do in its [`Capabilities`]. The first implementation is
//! [`SnapshotSource`]: local files of OpenAlex Work records, indexed on disk with tantivy, so a
//! review needs no key, no network and no service.

pub mod arxiv;
pub mod brave;
pub mod crossref;
mod error;
mod federation;
mod files;
pub mod huggingface;
mod jats;
pub mod library;
mod markup;
pub mod openalex;
pub mod openlibrary;
pub mod pubmed;
mod query_words;
pub mod semantic_scholar;
mod snapshot;
mod source;
pub mod tavily;
pub mod unpaywall;
mod url;
pub mod web;
pub mod zotero;

pub use error::{Error, Issue, Result};
pub use federation::{Federation, SourceFailure};
pub use files::read_bytes;
pub use jats::read_jats;
pub use snapshot::{SnapshotOpenReport, SnapshotSource};
pub use source::{Capabilities, Held, Hit, OaLink, Source, SourceKind, directed};
