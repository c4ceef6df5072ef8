//! The local OpenAlex `/works` stand-in tests serve snapshots with:
//! [`litrev_bench_server::openalex`], re-exported so tests keep one import path.

pub use litrev_bench_server::openalex::*;
