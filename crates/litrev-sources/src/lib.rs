//! Where works come from.
//!
//! A [`Source`] answers searches, looks works up by id and follows citations, declaring which
//! of these it can do in its [`Capabilities`]. The first implementation is
//! [`SnapshotSource`]: local files of OpenAlex Work records, indexed on disk with tantivy, so a
//! review needs no key, no network and no service.

mod error;
pub mod library;
pub mod openalex;
mod snapshot;
mod source;

pub use error::{Error, Issue, Result};
pub use snapshot::{SnapshotOpenReport, SnapshotSource};
pub use source::{Capabilities, Hit, Source, SourceKind};
