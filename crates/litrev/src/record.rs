//! `run.json`: the reproducibility record of a run.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The layout version of `run.json`; bumped on any incompatible change.
pub const RECORD_FORMAT: u32 = 1;

/// The contents of `run.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRecordFile {
    /// Layout version of this file.
    pub format: u32,
    /// The tool and its version.
    pub tool: String,
    /// litrev's version.
    pub tool_version: String,
    /// Run id.
    pub run_id: String,
    /// When the run was created (UTC).
    pub created_at: String,
    /// The question.
    pub question: String,
    /// The options as given.
    pub options: Value,
    /// The plan.
    pub plan: Value,
    /// Input files with their content hashes.
    pub inputs: Vec<OutputFile>,
    /// Counts per phase.
    pub counts: Value,
    /// Output files with their content hashes (`run.json` itself excluded).
    pub outputs: Vec<OutputFile>,
}

/// A file and its SHA-256.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputFile {
    /// Path or name.
    pub path: String,
    /// SHA-256, hex.
    pub sha256: String,
    /// Size in bytes.
    pub bytes: u64,
}
