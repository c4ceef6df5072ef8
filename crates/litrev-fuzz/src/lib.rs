//! Fuzzing every parser of outside data on stable Rust, without cargo-fuzz: a deterministic
//! mutation engine ([`mutate`]) seeded from the shared data ([`seeds`]), one target per parser
//! ([`targets`]), invariants on what they return ([`check`]) and a harness ([`harness`]) that
//! runs each case under `catch_unwind` and a time limit, in a child process so stack overflows
//! are caught too, and saves the failing input.
//!
//! `cargo test -p litrev-fuzz` runs every target for `LITREV_FUZZ_CASES` cases (default
//! [`harness::DEFAULT_CASES`]) from a fixed seed (`LITREV_FUZZ_SEED`); `scripts/fuzz.sh` runs
//! them longer from a random seed it prints. Dev-only: nothing depends on this crate.

pub mod check;
pub mod harness;
pub mod mutate;
pub mod rng;
pub mod seeds;
pub mod targets;
