//! The Zotero Web API (v3): a review's references written to a Zotero library as items in a
//! collection, tagged, once each (`litrev export RUN --zotero`), and a library's (or one
//! collection's) references read back as screening labels (`litrev screen RUN --import-zotero`).
//!
//! `item.rs` turns a CSL-JSON item (the run's `references.json`) into a Zotero item; `client.rs`
//! finds or creates the collection, reads which references it already holds (each item carries
//! its mark in `extra`: `litrev: doi:10.…` or `litrev: key:…`), and creates the others in
//! batches of 50 under a write token and the library's version. `local.rs` reads a library's
//! own `zotero.sqlite` (a copy of it) for the same labels, with each item's stored files.

mod client;
mod item;
mod local;

pub use client::{
    DEFAULT_BASE_URL, ZoteroConfig, ZoteroLibrary, ZoteroReference, ZoteroWrite, parse_references,
    parse_write_answer, policy,
};
pub(crate) use item::date as csl_date;
pub use item::{MARK_PREFIX, TAG, item_from_csl, mark_of, marks_in_extra};
pub use local::{ZoteroItem, read_local_library};
