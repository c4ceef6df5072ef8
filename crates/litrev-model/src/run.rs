//! Runs: one execution of the pipeline for one question, and its steps.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The store's id of a run: `YYYYMMDD-HHMMSS-xxxx`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RunId(String);

/// Text that is not a run id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a run id: `litrev runs` lists them")]
pub struct BadRunId(pub String);

impl RunId {
    /// Wraps text already known to be a run id.
    pub fn new_unchecked(text: String) -> RunId {
        RunId(text)
    }

    /// The id's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for RunId {
    type Err = BadRunId;
    fn from_str(text: &str) -> Result<Self, BadRunId> {
        let text = text.trim();
        let valid = !text.is_empty()
            && text.len() <= 64
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if valid {
            Ok(RunId(text.to_owned()))
        } else {
            Err(BadRunId(text.to_owned()))
        }
    }
}

impl fmt::Display for RunId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The steps of the pipeline, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Step {
    /// Question → plan.
    Plan,
    /// Plan → candidate works.
    Discover,
    /// Candidates → corpus grown through citations.
    Snowball,
    /// Corpus → decisions.
    Screen,
    /// A person approves the decisions.
    Gate,
    /// Included works → their full texts and study cards.
    Fulltext,
    /// Included works → themes and key works.
    Organise,
    /// Everything → review.
    Write,
    /// Review → verified review.
    Audit,
    /// Run → files.
    Publish,
}

impl Step {
    /// Every step in pipeline order.
    pub const ALL: [Step; 10] = [
        Step::Plan,
        Step::Discover,
        Step::Snowball,
        Step::Screen,
        Step::Gate,
        Step::Fulltext,
        Step::Organise,
        Step::Write,
        Step::Audit,
        Step::Publish,
    ];

    /// The lower-case name used in the store, events and error messages.
    pub fn name(self) -> &'static str {
        match self {
            Step::Plan => "plan",
            Step::Discover => "discover",
            Step::Snowball => "snowball",
            Step::Screen => "screen",
            Step::Gate => "gate",
            Step::Fulltext => "fulltext",
            Step::Organise => "organise",
            Step::Write => "write",
            Step::Audit => "audit",
            Step::Publish => "publish",
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A step name that is not one of the pipeline's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown step `{0}`: one of plan, discover, snowball, screen, gate, fulltext, organise, write, audit, publish"
)]
pub struct UnknownStep(pub String);

impl FromStr for Step {
    type Err = UnknownStep;
    fn from_str(text: &str) -> Result<Self, UnknownStep> {
        Step::ALL
            .into_iter()
            .find(|step| step.name() == text.trim())
            .ok_or_else(|| UnknownStep(text.to_owned()))
    }
}

/// Where a run stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// Created and waiting for a worker to start it (the web app's queue).
    Queued,
    /// Steps remain and nothing is waiting.
    Running,
    /// Waiting for a person to approve the screening.
    AwaitingApproval,
    /// Waiting for answers to the brief's clarifying questions before it searches.
    NeedsClarification,
    /// Every step done.
    Done,
    /// The last attempt failed; `litrev resume` retries from the failed step.
    Failed,
}

impl RunStatus {
    /// The snake-case name used in the store.
    pub fn name(self) -> &'static str {
        match self {
            RunStatus::Queued => "queued",
            RunStatus::Running => "running",
            RunStatus::AwaitingApproval => "awaiting_approval",
            RunStatus::NeedsClarification => "needs_clarification",
            RunStatus::Done => "done",
            RunStatus::Failed => "failed",
        }
    }
}

impl FromStr for RunStatus {
    type Err = UnknownStep;
    fn from_str(text: &str) -> Result<Self, UnknownStep> {
        [
            RunStatus::Queued,
            RunStatus::Running,
            RunStatus::AwaitingApproval,
            RunStatus::NeedsClarification,
            RunStatus::Done,
            RunStatus::Failed,
        ]
        .into_iter()
        .find(|status| status.name() == text)
        .ok_or_else(|| UnknownStep(text.to_owned()))
    }
}
