//! The litrev engine: a research question becomes a cited review, step by step.
//!
//! [`Runner`] drives the steps in one fixed order — plan, discover, snowball (stage by stage),
//! screen, the human gate, organise, write, audit, publish — loading each step's inputs from
//! the store, calling the phase, and committing its output in one transaction. A run stopped
//! anywhere (crash, kill, the gate) resumes from the last committed step with
//! [`Runner::resume`], and gives the same outputs as a run that never stopped.
//!
//! ```no_run
//! use litrev::{Home, RunOptions, Runner, SourceSpec};
//! use litrev_model::Tier;
//! let home = Home::from_env().unwrap();
//! let mut runner = Runner::open(home, None).unwrap();
//! let options = RunOptions {
//!     question: "Emicizumab in haemophilia A".into(),
//!     sources: vec![SourceSpec::Snapshot { paths: vec!["works.jsonl.gz".into()] }],
//!     seeds: Vec::new(),
//!     tier: Tier::Quick,
//!     out_dir: "reviews/emicizumab".into(),
//!     approve: true,
//!     filters: Default::default(),
//!     llm: None,
//!     style: Default::default(),
//!     fulltext_dirs: Vec::new(),
//!     max_fulltext: None,
//!     plan: None,
//!     clarify: false,
//!     pages: Vec::new(),
//!     libraries: Vec::new(),
//!     sites: Vec::new(),
//! };
//! let outcome = runner.start(&options, &|event| eprintln!("{event:?}")).unwrap();
//! ```
#![warn(missing_docs)]

pub mod bench;
mod clarify;
mod config;
mod continuation;
mod edit;
mod embeddings;
mod error;
mod estimate;
mod event_log;
mod events;
mod explore;
mod fulltext;
pub use fulltext::DOWNLOAD_GATE;
mod home;
mod library;
mod llm;
mod options;
mod outputs;
mod pages;
mod panics;
mod plan_file;
mod record;
mod request;
mod runner;
mod search;
mod session;
mod shared_cache;
mod sources;
mod telemetry;
mod worker;

pub use clarify::{clarifications_json, plan_json};
pub use config::{ApiConfig, CacheSettings, CacheStore, HttpSettings, SourcesConfig};
pub use continuation::FollowUp;
pub use edit::{EditProblem, ReviewText, Revised};
pub use error::{Error, ErrorCode, Result};
pub use estimate::{RequestModel, SearchShape, estimate, estimate_llm};
pub use event_log::{EventLog, StoredEvent, StreamRecorder};
pub use events::Event;
pub use explore::{Direction, Exploration};
pub use home::Home;
pub use library::{LibraryFile, seeds_from, seeds_from_text};
pub use litrev_llm::Price as LlmPrice;
pub use litrev_model as model;
pub use litrev_plan::{answer as answer_clarification, apply_brief};
pub use litrev_publish::{BuiltinStyle, StyleName};
pub use llm::{LlmKind, LlmOptions, LlmRecord, SnowballLlmRecord, StageLlmRecord};
pub use options::{RunOptions, SourceSpec, default_out_dir};
pub use outputs::{cite_with_keys, media_type};
pub use panics::{PanicReport, install_panic_hook, panic_message};
pub use plan_file::{PlanEdit, generated_plan, plan_edits, plan_to_toml, read_plan};
pub use record::{EstimateCheck, OutputFile, RunRecordFile, SourceCalls};
pub use request::{
    LlmRequest, PriceRequest, ResearchMode, ReviewRequest, parse_pages, parse_seeds, parse_sites,
    parse_tier, parse_years,
};
pub use runner::{Outcome, RunSummary, Runner, Summary, style_csl};
pub use search::{SearchReport, SourceRow};
pub use session::{Candidate, ImportReport, ScreeningSession};
pub use telemetry::{StepTelemetry, Telemetry};
pub use worker::{
    Holder, WorkedRun, WorkerOptions, default_worker_name, drive_held, give_back, work,
};
