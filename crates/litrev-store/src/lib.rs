//! The embedded store: one SQLite file (WAL) holding everything a run produced.
//!
//! The store is the ground truth of litrev: every step's output is saved in one transaction
//! ([`Store::commit_step`]), so a run stopped anywhere resumes from the last committed step.
//! Works are shared across runs; corpus entries, citations and decisions belong to a run.
//! This is the only crate that knows SQL.

mod error;
mod migrations;
mod store;

pub use error::{Error, Result};
pub use store::{NewRun, Revision, RunRecord, StepWrites, Store, StoredEvent, StoredText};
