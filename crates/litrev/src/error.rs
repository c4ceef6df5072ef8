//! The engine's errors and their stable codes.

use std::path::PathBuf;

/// A stable name for each kind of failure; the CLI maps it to an exit code, the server to an
/// HTTP status, each in one place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// The user's input or configuration is wrong: fix it and run again.
    Usage,
    /// A step failed; `litrev resume RUN` retries from it.
    RunFailed,
}

/// What went wrong running a review.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] litrev_store::Error),
    /// A source failed.
    #[error(transparent)]
    Source(#[from] litrev_sources::Error),
    /// Discovery failed.
    #[error(transparent)]
    Discover(#[from] litrev_discover::Error),
    /// Snowballing failed.
    #[error(transparent)]
    Snowball(#[from] litrev_snowball::Error),
    /// Reading full texts failed (a folder given with `--fulltext-dir` cannot be read).
    #[error(transparent)]
    FullText(#[from] litrev_fulltext::Error),
    /// A web page named with `--url` is an address no download may reach.
    #[error(
        "the page {url} may not be fetched ({why}): loopback, private, link-local and metadata addresses are refused; if it is a server of your own network, name its host in LITREV_ALLOW_HOSTS (host[:port]) or under [fetch] allow_hosts in config.toml, else leave the page out"
    )]
    PageRefused {
        /// The page's address.
        url: String,
        /// Why the guard refused it.
        why: String,
    },
    /// The downloader of open-access copies could not be set up.
    #[error("cannot set up full-text downloads: {0}")]
    FullTextDownload(String),
    /// A study card holds a span its text does not: a bug, never published.
    #[error("study card refused: {0}; please report this as a bug")]
    CardNotVerbatim(String),
    /// The LLM writer failed: a missing key, a failed call, or the budget.
    #[error(transparent)]
    Llm(#[from] litrev_write::Error),
    /// The audit refused the review.
    #[error(transparent)]
    Audit(#[from] litrev_audit::Refused),
    /// The embedding model could not be loaded or run, or its cache not be used.
    #[error(transparent)]
    Embed(#[from] litrev_embed::Error),
    /// Publishing failed.
    #[error(transparent)]
    Publish(#[from] litrev_publish::Error),
    /// A source named on the command line is not available.
    #[error(
        "source `{0}` is not available in this build: use --source snapshot:PATH (a file or folder of OpenAlex Works)"
    )]
    UnsupportedSource(String),
    /// A source specification does not parse.
    #[error(
        "cannot read the source `{0}`: write snapshot:PATH, openalex, semantic-scholar, arxiv, pubmed or crossref (several separated by commas)"
    )]
    BadSource(String),
    /// The config file does not parse.
    #[error("cannot read the config file `{path}`: {message}; fix it or remove it")]
    Config {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// Every source failed.
    #[error("every source failed: {0}")]
    AllSourcesFailed(String),
    /// The HTTP layer could not be set up.
    #[error("cannot set up HTTP access: {0}")]
    Http(String),
    /// No data folder could be found for `LITREV_HOME`.
    #[error("cannot find a data folder for litrev: set LITREV_HOME to a writable folder")]
    NoHome,
    /// The output folder cannot be written.
    #[error(
        "cannot write `{path}`: {source}; check that the folder is writable or pass another --out"
    )]
    Write {
        /// The path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The `.csl` file named by `--style` cannot be read.
    #[error(
        "cannot read the citation style file `{path}`: {source}; check the path given to --style, or use apa, mla, ieee, chicago or gb7714"
    )]
    StyleFile {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A stored value the runner needs is missing: the store was changed by hand.
    #[error("the store lacks the output of step `{0}` although later steps ran; start a new run")]
    MissingStep(String),
    /// The question is empty.
    #[error("the question is empty: write the research question in quotes")]
    EmptyQuestion,
    /// The run's options do not decode.
    #[error("the run's stored options do not decode ({0}); it was made by another litrev version")]
    BadOptions(String),
    /// A request's options (a review's, a tool's arguments) do not hold: the message names the
    /// option and what to send instead.
    #[error("{0}")]
    InvalidRequest(String),
    /// No source and no stored run knows the work.
    #[error("no work `{id}` found: {why}")]
    UnknownWork {
        /// The id asked for.
        id: String,
        /// Where it was looked for, and what to do.
        why: String,
    },
    /// A run has no output file of that name.
    #[error(
        "no file `{name}` in run {run}: the run's folder holds its outputs (review.md, references.bib, charts/…)"
    )]
    NoSuchOutput {
        /// The run.
        run: String,
        /// The name asked for.
        name: String,
    },
    /// A claim number that the run's review does not have.
    #[error("no such claim in run {run}: {why}")]
    NoSuchClaim {
        /// The run.
        run: String,
        /// Why, and what to do.
        why: String,
    },
    /// The run is not waiting at the screening gate.
    #[error("run {run} is not waiting at the screening gate: {why}")]
    NotAtGate {
        /// The run.
        run: String,
        /// Why, and what to do.
        why: String,
    },
    /// Answers sent to a run that does not wait for them.
    #[error(
        "run {run} is not waiting for answers (status {status}): only a run whose status is needs_clarification takes them"
    )]
    NotAwaitingAnswers {
        /// The run.
        run: String,
        /// Its status.
        status: String,
    },
    /// Answers to a run's clarifying questions that cannot be taken.
    #[error("run {run}: {why}")]
    BadAnswers {
        /// The run.
        run: String,
        /// Why, and what to do.
        why: String,
    },
    /// An input file does not have the expected shape.
    #[error("cannot use `{path}`: {message}")]
    BadInput {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The review came out empty: nothing was included. `advice` says what to do, from why
    /// the works were left out.
    #[error("no work passed screening, so there is nothing to review: {advice}")]
    NothingIncluded {
        /// What to do next.
        advice: String,
    },
    /// A step panicked: a bug, reported with the step, the work and what to do.
    #[error("{0}")]
    Panicked(Box<crate::panics::PanicReport>),
    /// An edit of the review breaks the grounding rules; nothing was saved.
    #[error(
        "the edit breaks {} rule(s), first: sentence {}: {}; nothing was saved: fix it and save again",
        .0.len(),
        .0.first().map_or(0, |problem| problem.sentence),
        .0.first().map_or("", |problem| problem.problem.as_str())
    )]
    EditRefused(Vec<crate::edit::EditProblem>),
    /// The run is not done, so it has no review to read or edit.
    #[error("run {run} has no finished review: {why}")]
    NotDone {
        /// The run.
        run: String,
        /// Why, and what to do.
        why: String,
    },
}

impl Error {
    /// The stable code of the error.
    pub fn code(&self) -> ErrorCode {
        match self {
            Error::UnsupportedSource(_)
            | Error::BadSource(_)
            | Error::Config { .. }
            | Error::Embed(
                litrev_embed::Error::ModelNotFound { .. }
                | litrev_embed::Error::Io { .. }
                | litrev_embed::Error::Config { .. }
                | litrev_embed::Error::Weights(_)
                | litrev_embed::Error::Tokenizer(_),
            )
            | Error::NoHome
            | Error::PageRefused { .. }
            | Error::EmptyQuestion
            | Error::InvalidRequest(_)
            | Error::UnknownWork { .. }
            | Error::NoSuchOutput { .. }
            | Error::Discover(litrev_discover::Error::SeedsNotFound { .. })
            | Error::Discover(litrev_discover::Error::NothingToSearch)
            | Error::Source(litrev_sources::Error::MissingPath { .. })
            | Error::Source(litrev_sources::Error::MissingSetting { .. })
            | Error::Source(litrev_sources::Error::EmptyFolder { .. })
            | Error::Source(litrev_sources::Error::NoWorks { .. })
            | Error::Source(litrev_sources::Error::DamagedGzip { .. })
            | Error::Source(litrev_sources::Error::ZoteroDatabase { .. })
            | Error::Store(litrev_store::Error::UnknownRun(_))
            | Error::Store(litrev_store::Error::Open { .. })
            | Error::BadInput { .. }
            | Error::NotAtGate { .. }
            | Error::BadAnswers { .. }
            | Error::NotAwaitingAnswers { .. }
            | Error::NotDone { .. }
            | Error::EditRefused(_)
            | Error::NoSuchClaim { .. }
            | Error::NothingIncluded { .. }
            | Error::FullText(litrev_fulltext::Error::Folder { .. })
            | Error::StyleFile { .. }
            | Error::Publish(
                litrev_publish::Error::UnknownStyle(_) | litrev_publish::Error::BadStyle { .. },
            )
            | Error::Llm(litrev_write::Error::Llm(
                litrev_llm::Error::MissingKey { .. }
                | litrev_llm::Error::NoPrice { .. }
                | litrev_llm::Error::OverBudget { .. },
            )) => ErrorCode::Usage,
            _ => ErrorCode::RunFailed,
        }
    }
}

/// Result with the engine's error.
pub type Result<T, E = Error> = std::result::Result<T, E>;
