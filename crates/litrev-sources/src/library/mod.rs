//! Imported libraries: the files reviewers bring (RIS from ASReview, Rayyan, Scopus, Web of
//! Science, Ovid, EndNote, Zotero…), read into works and, where the file carries them,
//! screening labels.

mod ris;

pub use ris::{LabelledWork, UNNAMED_RECORD, read_ris};
