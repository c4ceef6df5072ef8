//! End-to-end tests: the built `litrev` binary on the real SYNERGY snapshots.

mod bench;
mod books;
mod browser;
mod domains;
mod errors;
mod fulltext;
mod gate;
mod hf_papers;
mod library;
mod llm;
mod mcp;
mod outputs;
mod pages;
mod plan;
mod resume;
mod serve;
mod sources;
mod speed;
mod support;
mod web;
mod workers;
mod zotero;
