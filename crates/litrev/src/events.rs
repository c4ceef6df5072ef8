//! Events the engine emits while it works; frontends turn them into progress bars or logs.

/// Something the engine is doing or has done.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// A run was created.
    RunCreated {
        /// Its id.
        run: String,
    },
    /// A step started.
    StepStarted {
        /// The step's key (`plan`, `snowball.2`…).
        step: String,
        /// What it is doing, for people.
        detail: String,
    },
    /// Progress within a step.
    Progress {
        /// The step's key.
        step: String,
        /// Units done.
        done: u64,
        /// Units in all, when known.
        total: Option<u64>,
    },
    /// A step was committed to the store.
    StepFinished {
        /// The step's key.
        step: String,
        /// What it produced, for people.
        summary: String,
    },
    /// A step was already done and is skipped on resume.
    StepSkipped {
        /// The step's key.
        step: String,
    },
    /// A remark worth showing (skipped records, a source problem).
    Notice {
        /// The remark.
        message: String,
    },
}
