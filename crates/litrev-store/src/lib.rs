//! The store: everything a run produced, in one SQLite file (WAL, the embedded default) or
//! one PostgreSQL database (a team's, shared by workers on several machines).
//!
//! The store is the ground truth of litrev: every step's output is saved in one transaction
//! ([`Store::commit_step`]), so a run stopped anywhere resumes from the last committed step.
//! Works are shared across runs; corpus entries, citations and decisions belong to a run.
//! This is the only crate that knows SQL.

mod backend;
mod error;
mod migrations;
mod store;

pub use backend::Location;
pub use error::{Error, Result};
pub use store::{
    CachedBody, Claim, NewRun, Revision, RunRecord, StepWrites, Store, StoredEvent, StoredText,
};
