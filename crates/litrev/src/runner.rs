//! The runner: the one place the order of the steps is written down.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use litrev_llm::PhaseUsage;
use litrev_model::{CorpusEntry, Decision, RunId, RunStatus, ScreeningDecision, Work, WorkId};
use litrev_publish::{CitationStyle, StyleName};
use litrev_sources::Federation;
use litrev_store::{NewRun, StepWrites, Store};
use serde::Serialize;

use crate::clarify::BriefState;
use crate::error::{Error, Result};
use crate::events::Event;
use crate::home::Home;
use crate::options::{RunOptions, SourceSpec};
use crate::panics::PanicReport;
use crate::sources::SourceOpener;
use crate::telemetry::{Meter, StepTelemetry, Telemetry};

pub(crate) const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");

mod discover;
mod organise;
mod plan;
mod publish;
mod screen;
mod snowball;
mod write;

pub(crate) use discover::DiscoverRecord;
pub(crate) use snowball::StageRecord;
pub(crate) use write::WriteRecord;

/// Set this to a step key (`discover`, `snowball.1`, `screen`…) to abort the process right
/// after that step commits, as a kill would: the resume tests use it.
const FAIL_AFTER_VARIABLE: &str = "LITREV_FAIL_AFTER";
/// `LITREV_PANIC_IN=<step>` panics as the step starts, as a bug would: tests of the panic net.
const PANIC_IN_VARIABLE: &str = "LITREV_PANIC_IN";

/// What every step of one drive reads: the run, the options it was created with, the steps
/// it committed before, and where its events go.
pub(crate) struct Drive<'a> {
    pub(crate) run: &'a RunId,
    pub(crate) options: RunOptions,
    pub(crate) done: BTreeSet<String>,
    /// When the run was created (for `run.json`).
    pub(crate) created_at: String,
    /// The run a follow-up continues.
    pub(crate) parent: Option<RunId>,
    pub(crate) events: &'a dyn Fn(&Event),
}

impl<'a> Drive<'a> {
    /// Reads the run's record from the store.
    fn load(store: &Store, run: &'a RunId, events: &'a dyn Fn(&Event)) -> Result<Drive<'a>> {
        let record = store.run(run)?;
        let options: RunOptions = serde_json::from_str(&record.options_json)
            .map_err(|error| Error::BadOptions(error.to_string()))?;
        Ok(Drive {
            run,
            options,
            done: record.steps_done.into_iter().collect(),
            created_at: record.created_at,
            parent: record.parent,
            events,
        })
    }

    /// Whether `step` was committed before; if so the frontend is told it is skipped.
    pub(crate) fn skipped(&self, step: &str) -> bool {
        let done = self.done.contains(step);
        if done {
            (self.events)(&Event::StepSkipped {
                step: step.to_owned(),
            });
        }
        done
    }
}

/// Drives runs against one store.
pub struct Runner {
    store: Store,
    sources: SourceOpener,
    home: Home,
    /// Measures the step under way, from its start to its commit.
    meter: Option<Meter>,
}

/// How a call to the runner ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Every step is done.
    Done(Summary),
    /// The run waits, before searching, for answers to the brief's clarifying questions
    /// ([`Runner::clarify`]).
    NeedsClarification {
        /// The run.
        run: RunId,
        /// The questions, each with its options (the default first).
        clarifications: Vec<litrev_model::Clarification>,
    },
    /// The run waits at the gate for a person to check the screening.
    AwaitingApproval {
        /// The run.
        run: RunId,
        /// The screening table to check.
        screening_csv: PathBuf,
        /// Works included by screening.
        included: usize,
        /// Works considered.
        considered: usize,
    },
    /// The run waits at the second gate for a person to check the downloads it would make:
    /// more than [`crate::DOWNLOAD_GATE`], or some from hosts that are not known publishers or
    /// repositories.
    AwaitingDownloads {
        /// The run.
        run: RunId,
        /// Works whose open-access copies would be downloaded.
        planned: usize,
        /// Hosts among them that are not known publishers or repositories.
        unknown_hosts: Vec<String>,
        /// Every planned download, with its host (`downloads.csv`).
        downloads_csv: PathBuf,
    },
    /// The run waits, before searching, for a person to check the web pages it would fetch
    /// (`--url`) from hosts that are not known publishers or repositories.
    AwaitingPages {
        /// The run.
        run: RunId,
        /// Pages named.
        pages: usize,
        /// Their hosts that are not known publishers or repositories.
        unknown_hosts: Vec<String>,
        /// Every named page, with its host (`pages.csv`).
        pages_csv: PathBuf,
    },
}

/// What a finished run produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// The run.
    pub run: RunId,
    /// Works ever considered.
    pub considered: usize,
    /// Works included.
    pub included: usize,
    /// Themes.
    pub themes: usize,
    /// Words in the review body.
    pub words: usize,
    /// Citation occurrences in the review.
    pub citations: usize,
    /// How the text themes agree with the citation communities.
    pub views: Option<litrev_model::Views>,
    /// The output folder.
    pub out_dir: PathBuf,
    /// What each step cost.
    pub telemetry: Telemetry,
}

/// A run as listed by `litrev runs`.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSummary {
    /// Id.
    pub id: RunId,
    /// Question.
    pub question: String,
    /// Status.
    pub status: RunStatus,
    /// Creation time.
    pub created_at: String,
    /// The last step committed.
    pub last_step: Option<String>,
    /// Output folder.
    pub out_dir: Option<PathBuf>,
    /// The run it continues, when it is a follow-up.
    pub parent: Option<RunId>,
}

impl RunSummary {
    /// Which gate a run awaiting approval waits at: `screening`, or `downloads` once the
    /// screening was approved (the full-text step's plan of downloads); `None` for a run not
    /// waiting.
    pub fn gate(&self) -> Option<&'static str> {
        (self.status == RunStatus::AwaitingApproval).then(|| {
            if self.last_step.as_deref() == Some("gate") {
                "downloads"
            } else {
                "screening"
            }
        })
    }
}

/// A stored run as listed.
fn summary_of(record: litrev_store::RunRecord) -> RunSummary {
    let out_dir = serde_json::from_str::<RunOptions>(&record.options_json)
        .ok()
        .map(|options| options.out_dir);
    RunSummary {
        id: record.id,
        question: record.question,
        status: record.status,
        created_at: record.created_at,
        last_step: record.steps_done.last().cloned(),
        out_dir,
        parent: record.parent,
    }
}

impl Runner {
    /// Opens the runner on `db` (default: the store in `home`).
    ///
    /// # Errors
    /// When the store cannot be opened.
    pub fn open(home: Home, db: Option<&Path>) -> Result<Runner> {
        let location = home.store_location(db);
        let store = Store::open_at(&location)?;
        let sources = SourceOpener::new(home.clone(), location);
        Ok(Runner {
            store,
            sources,
            home,
            meter: None,
        })
    }

    /// Creates a run and drives it as far as it goes.
    ///
    /// # Errors
    /// When a step fails; the run stays resumable from that step.
    pub fn start(&mut self, options: &RunOptions, events: &dyn Fn(&Event)) -> Result<Outcome> {
        let run = self.create(options)?;
        events(&Event::RunCreated {
            run: run.to_string(),
        });
        let approve = options.approve;
        self.drive(&run, approve, events)
    }

    /// Creates a run, checked and stored with status `queued`, without starting it: a server
    /// answers at once and drives it when a worker is free ([`Runner::drive_queued`]).
    ///
    /// # Errors
    /// When the options are not usable (an empty question, a style that cannot be read, a
    /// snapshot path that does not exist, an LLM without its key); nothing is stored then.
    pub fn create(&mut self, options: &RunOptions) -> Result<RunId> {
        if options.question.trim().is_empty() {
            return Err(Error::EmptyQuestion);
        }
        if let Some(llm) = &options.llm {
            crate::llm::check_ready(llm)?;
        }
        let mut options = options.clone();
        options.sources = SourceSpec::merge(options.sources);
        options.out_dir = absolute(&options.out_dir)?;
        if let StyleName::File(path) = &options.style {
            options.style = StyleName::File(absolute(path)?);
        }
        // A style file that cannot be used fails now, not after the run's searches.
        load_style(&options.style)?;
        // A snapshot that is not there fails now, not at the run's first search.
        for source in &options.sources {
            source.check_paths()?;
        }
        for source in &mut options.sources {
            if let SourceSpec::Snapshot { paths } = source {
                for path in paths.iter_mut() {
                    *path = absolute(path)?;
                }
            }
        }
        let run = new_run_id();
        let options_json = serde_json::to_string(&options)
            .map_err(|error| Error::BadOptions(error.to_string()))?;
        self.store.create_run(&NewRun {
            id: &run,
            question: options.question.trim(),
            options_json: &options_json,
            tool_version: TOOL_VERSION,
            parent: None,
        })?;
        self.store.set_status(&run, RunStatus::Queued)?;
        Ok(run)
    }

    /// Drives a run made by [`Runner::create`] as far as it goes: to the gate, unless its
    /// options approve in advance, or to the end.
    ///
    /// # Errors
    /// When the run is unknown or a step fails; the run stays resumable from that step.
    pub fn drive_queued(&mut self, run: &RunId, events: &dyn Fn(&Event)) -> Result<Outcome> {
        let approve = self.options(run)?.approve;
        self.drive(run, approve, events)
    }

    /// The options a run was created with.
    ///
    /// # Errors
    /// When the run is unknown or its options do not decode.
    pub fn options(&self, run: &RunId) -> Result<RunOptions> {
        let record = self.store.run(run)?;
        serde_json::from_str(&record.options_json)
            .map_err(|error| Error::BadOptions(error.to_string()))
    }

    /// Continues a stopped run from its last committed step; passing the gate counts as approval.
    ///
    /// # Errors
    /// When the run is unknown or a step fails.
    pub fn resume(&mut self, run: &RunId, events: &dyn Fn(&Event)) -> Result<Outcome> {
        let record = self.store.run(run)?;
        // Resuming a run that waits for answers takes every question's default.
        if record.status == RunStatus::NeedsClarification {
            self.clarify(run, &[])?;
        }
        self.drive(run, true, events)
    }

    /// Every run in the store, newest first.
    ///
    /// # Errors
    /// When the store fails.
    pub fn runs(&self) -> Result<Vec<RunSummary>> {
        Ok(self.store.runs()?.into_iter().map(summary_of).collect())
    }

    /// One run as [`Runner::runs`] lists it, read alone.
    ///
    /// # Errors
    /// When there is no such run.
    pub fn run_summary(&self, run: &RunId) -> Result<RunSummary> {
        Ok(summary_of(self.store.run(run)?))
    }

    pub(crate) fn drive(
        &mut self,
        run: &RunId,
        approve: bool,
        events: &dyn Fn(&Event),
    ) -> Result<Outcome> {
        self.store.set_status(run, RunStatus::Running)?;
        // The step running now, for a panic's report: the last one that started.
        let step = std::cell::RefCell::new(String::from("start"));
        let tracking = |event: &Event| {
            if let Event::StepStarted { step: started, .. } = event {
                step.replace(started.clone());
            }
            events(event);
        };
        // A panic is a bug, but it must not cost the user the run: whatever the step had not
        // committed is rolled back as its transaction unwinds, and the run stays resumable.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.drive_steps(run, approve, &tracking)
        }))
        .unwrap_or_else(|payload| {
            Err(Error::Panicked(Box::new(PanicReport::caught(
                &run.to_string(),
                &step.borrow(),
                payload.as_ref(),
            ))))
        });
        // A run that stopped (at a gate, or on an error) ends its step's measure with it:
        // the next drive measures its own.
        self.meter = None;
        let status = match &result {
            Ok(Outcome::Done(_)) => RunStatus::Done,
            Ok(
                Outcome::AwaitingApproval { .. }
                | Outcome::AwaitingDownloads { .. }
                | Outcome::AwaitingPages { .. },
            ) => RunStatus::AwaitingApproval,
            Ok(Outcome::NeedsClarification { .. }) => RunStatus::NeedsClarification,
            Err(_) => RunStatus::Failed,
        };
        self.store.set_status(run, status)?;
        if let Err(error) = &result {
            // Best effort: the failure is already being returned to the caller.
            let _ = self.store.log_event(run, "run", &error.to_string());
        }
        result
    }

    /// Walks the steps in order, each loaded when it was committed before or run and
    /// committed now, until the run is done or stops to wait for a person.
    fn drive_steps(
        &mut self,
        run: &RunId,
        approve: bool,
        events: &dyn Fn(&Event),
    ) -> Result<Outcome> {
        let drive = Drive::load(&self.store, run, events)?;
        let brief = if drive.done.contains("plan") {
            BriefState::NotAsked
        } else {
            self.brief_step(&drive)?
        };
        if let BriefState::Waiting(clarifications) = brief {
            return Ok(Outcome::NeedsClarification {
                run: run.clone(),
                clarifications,
            });
        }
        let planned = self.plan_step(&drive, brief)?;
        let mut opened: Option<Federation> = None;
        let discovery = match self.discover_step(&drive, &planned.plan, &mut opened)? {
            ControlFlow::Continue(discovery) => discovery,
            ControlFlow::Break(paused) => return Ok(paused),
        };
        let stages = self.snowball_steps(&drive, &planned, &discovery, opened)?;
        let entries = self.store.corpus(run)?;
        self.screen_step(&drive, &planned, &stages, &entries)?;
        let screened = self.screened(&drive, planned, discovery, stages, entries)?;
        if let Some(paused) = self.gate_step(&drive, approve, &screened)? {
            return Ok(paused);
        }
        let included = included_works(&screened.decisions, &screened.all_works);
        if included.is_empty() {
            return Err(Error::NothingIncluded {
                advice: nothing_included_advice(&screened.decisions),
            });
        }
        let fulltext = match self.full_text_step(&drive, fulltext_inputs(&screened, &included))? {
            ControlFlow::Continue(record) => record,
            ControlFlow::Break(paused) => return Ok(paused),
        };
        let citations = self.store.citations(run)?;
        let organisation = self.organise_step(&drive, &screened, &included, &citations)?;
        let synthesis = write::Synthesis {
            included: &included,
            citations: &citations,
            fulltext: &fulltext,
            organisation: &organisation,
        };
        let written = self.write_step(&drive, &screened, &synthesis)?;
        let audit = self.audit_step(&drive, &written, &synthesis)?;
        let reviewed = publish::Reviewed {
            synthesis,
            written: &written,
            audit: &audit,
        };
        self.publish_step(&drive, &screened, &reviewed)
    }

    /// A step's stored output when it was committed before (the frontend told it is skipped),
    /// or none when it is still to run.
    pub(crate) fn stored<T: serde::de::DeserializeOwned>(
        &self,
        drive: &Drive<'_>,
        step: &str,
    ) -> Result<Option<T>> {
        if drive.skipped(step) {
            self.output(drive.run, step).map(Some)
        } else {
            Ok(None)
        }
    }

    /// What each step of a run cost, as far as it went, in the order the steps committed.
    ///
    /// # Errors
    /// When the run is unknown or the store fails.
    pub fn telemetry(&self, run: &RunId) -> Result<Telemetry> {
        self.store.run(run)?;
        Ok(Telemetry::of(self.store.step_telemetry(run)?))
    }

    /// Claim `number` of a run's review (sentences counted from 1) with its evidence.
    ///
    /// # Errors
    /// When the run has no review yet, or has fewer sentences.
    pub fn claim(&self, run: &RunId, number: usize) -> Result<litrev_publish::ClaimEvidence> {
        let record = self.store.run(run)?;
        if !record.steps_done.iter().any(|step| step == "write") {
            return Err(Error::NoSuchClaim {
                run: run.to_string(),
                why: "the run has no review yet; `litrev resume` it first".to_owned(),
            });
        }
        let written: WriteRecord = self.output(run, "write")?;
        let entries = self.store.corpus(run)?;
        let works = self.described_works(&entries)?;
        let keys = litrev_publish::citation_keys(&written.review, &works)?;
        let mut claims = litrev_publish::claims(&written.review, &works, &keys)?;
        let count = claims.len();
        if number == 0 || number > count {
            return Err(Error::NoSuchClaim {
                run: run.to_string(),
                why: format!("claims are numbered 1 to {count}"),
            });
        }
        Ok(claims.swap_remove(number - 1))
    }

    /// Starts measuring a step, unless its measure started earlier (before opening sources).
    fn measure(&mut self) {
        if self.meter.is_none() {
            self.meter = Some(Meter::start(self.sources.http_summary()));
        }
    }

    /// Tells the frontend a step started, and measures it from now.
    pub(crate) fn started(&mut self, events: &dyn Fn(&Event), step: &str, detail: &str) {
        self.measure();
        events(&Event::StepStarted {
            step: step.to_owned(),
            detail: detail.to_owned(),
        });
        if std::env::var(PANIC_IN_VARIABLE).as_deref() == Ok(step) {
            // An injected bug, to test the last line of defence.
            panic!("injected panic ({PANIC_IN_VARIABLE}={step})");
        }
    }

    /// What the step under way cost so far (none when nothing measured it); `llm`
    /// is what its language-model calls cost.
    fn reading(&self, step: &str, llm: Vec<PhaseUsage>) -> Option<StepTelemetry> {
        self.meter
            .as_ref()
            .map(|meter| meter.read(step, &self.sources.http_summary(), llm))
    }

    /// Commits a step with what it cost up to now.
    pub(crate) fn commit<T: Serialize>(
        &mut self,
        run: &RunId,
        step: &str,
        output: &T,
        writes: &StepWrites<'_>,
        llm: Vec<PhaseUsage>,
    ) -> Result<()> {
        let telemetry = self.reading(step, llm);
        self.commit_measured(run, step, output, writes, telemetry.as_ref())
    }

    /// Commits a step with `telemetry`, its cost as measured by the caller, and ends its measure.
    fn commit_measured<T: Serialize>(
        &mut self,
        run: &RunId,
        step: &str,
        output: &T,
        writes: &StepWrites<'_>,
        telemetry: Option<&StepTelemetry>,
    ) -> Result<()> {
        self.meter = None;
        let telemetry = telemetry
            .map(serde_json::to_string)
            .transpose()
            .map_err(|error| Error::BadOptions(error.to_string()))?;
        let writes = StepWrites {
            telemetry: telemetry.as_deref(),
            ..*writes
        };
        self.store.commit_step(run, step, output, &writes)?;
        if std::env::var(FAIL_AFTER_VARIABLE).as_deref() == Ok(step) {
            // A simulated kill: no destructors, no cleanup, exactly like `kill -9`.
            std::process::abort();
        }
        Ok(())
    }

    pub(crate) fn output<T: serde::de::DeserializeOwned>(
        &self,
        run: &RunId,
        step: &str,
    ) -> Result<T> {
        self.store
            .step_output(run, step)?
            .ok_or_else(|| Error::MissingStep(step.to_owned()))
    }

    /// The stored records of the corpus entries, stubs included.
    pub(crate) fn stored_works(&self, entries: &[CorpusEntry]) -> Result<BTreeMap<WorkId, Work>> {
        let ids: Vec<WorkId> = entries.iter().map(|entry| entry.work.clone()).collect();
        Ok(self.store.works(&ids)?)
    }

    /// The store.
    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    /// The home: models, caches and settings.
    pub(crate) fn home(&self) -> &Home {
        &self.home
    }

    /// The sources this runner opens (one HTTP client for all of them).
    pub(crate) fn sources(&self) -> &SourceOpener {
        &self.sources
    }

    /// The store, for writes.
    /// Where the run's language-model answers are cached (`[cache] store`).
    pub(crate) fn llm_cache(&self) -> Result<litrev_llm::ResponseCache> {
        self.sources.llm_cache()
    }

    pub(crate) fn store_mut(&mut self) -> &mut Store {
        &mut self.store
    }

    /// The stored records of the corpus entries that are more than an id.
    pub(crate) fn described_works(
        &self,
        entries: &[CorpusEntry],
    ) -> Result<BTreeMap<WorkId, Work>> {
        let mut works = self.stored_works(entries)?;
        works.retain(|_, work| !work.is_stub());
        Ok(works)
    }
}

/// What to do when screening included nothing: when most works were left out for want of an
/// abstract (a SpringerLink export carries none), where abstracts come from; otherwise how to
/// widen the search.
fn nothing_included_advice(decisions: &[ScreeningDecision]) -> String {
    let without_abstract = decisions
        .iter()
        .filter(|decision| decision.reason == litrev_model::ReasonCode::MissingAbstract)
        .count();
    if decisions.is_empty() || without_abstract * 2 < decisions.len() {
        return "broaden the question, add --seed works, or use a larger snapshot".to_owned();
    }
    format!(
        "{without_abstract} of the {} works considered have no abstract, and a review quotes abstracts as its evidence: use an export that carries abstracts (Scopus, Web of Science, PubMed, RIS), or pass the file as --library FILE with an online --source (openalex, semantic-scholar), which finds its works' abstracts by their DOIs",
        decisions.len()
    )
}

/// What the full-text step reads: the decisions, the files a library attached, the included
/// works, and what the run's model spent before it.
fn fulltext_inputs<'a>(
    screened: &'a screen::Screened,
    included: &'a BTreeMap<WorkId, Work>,
) -> crate::fulltext::FulltextInputs<'a> {
    crate::fulltext::FulltextInputs {
        decisions: &screened.decisions,
        attached: screened
            .discovery
            .libraries
            .iter()
            .flat_map(|library| &library.files)
            .map(|(work, path)| (work, path.as_path()))
            .collect(),
        included,
        spent_usd: screened.earlier_calls().spent(),
    }
}

/// The described works screening included, by id.
pub(crate) fn included_works(
    decisions: &[ScreeningDecision],
    works: &BTreeMap<WorkId, Work>,
) -> BTreeMap<WorkId, Work> {
    decisions
        .iter()
        .filter(|decision| decision.decision == Decision::Include)
        .filter_map(|decision| {
            works
                .get(&decision.work)
                .filter(|work| !work.is_stub())
                .map(|work| (decision.work.clone(), work.clone()))
        })
        .collect()
}

pub(crate) fn finished(events: &dyn Fn(&Event), step: &str, summary: String) {
    events(&Event::StepFinished {
        step: step.to_owned(),
        summary,
    });
}

/// Writes a file atomically: a temporary file in the same folder, then a rename.
/// `name` may hold a sub-folder (`charts/years.svg`).
pub(crate) fn write_file(folder: &Path, name: &str, bytes: &[u8]) -> Result<()> {
    let write_error = |path: &Path, source| Error::Write {
        path: path.to_owned(),
        source,
    };
    let target = folder.join(name);
    let parent = target.parent().unwrap_or(folder);
    std::fs::create_dir_all(parent).map_err(|source| write_error(parent, source))?;
    let file_name = target.file_name().map_or_else(
        || name.to_owned(),
        |file| file.to_string_lossy().into_owned(),
    );
    let temporary = parent.join(format!(".{file_name}.partial"));
    std::fs::write(&temporary, bytes).map_err(|source| write_error(&temporary, source))?;
    std::fs::rename(&temporary, &target).map_err(|source| write_error(&target, source))?;
    Ok(())
}

/// A citation style as a CSL file's XML: a built-in style written out, or the named `.csl`
/// file checked and read back, for tools that hand it on (to pandoc, to a reference manager).
///
/// # Errors
/// When the `.csl` file cannot be read or is not a CSL style.
pub fn style_csl(name: &StyleName) -> Result<String> {
    Ok(load_style(name)?.to_csl()?)
}

/// The run's citation style, its `.csl` file read and parsed.
fn load_style(name: &StyleName) -> Result<CitationStyle> {
    match name {
        StyleName::Builtin(style) => Ok(CitationStyle::builtin(*style)),
        StyleName::File(path) => {
            let xml = std::fs::read_to_string(path).map_err(|source| Error::StyleFile {
                path: path.clone(),
                source,
            })?;
            Ok(CitationStyle::from_csl(&xml, path)?)
        }
    }
}

fn absolute(path: &Path) -> Result<PathBuf> {
    if path.is_absolute() {
        return Ok(path.to_owned());
    }
    let current = std::env::current_dir().map_err(|source| Error::Write {
        path: path.to_owned(),
        source,
    })?;
    Ok(current.join(path))
}

/// `YYYYMMDD-HHMMSS-xxxx`: sortable by time, unique within a store.
pub(crate) fn new_run_id() -> RunId {
    let now = chrono::Utc::now();
    let suffix = now.timestamp_subsec_nanos() ^ std::process::id().rotate_left(16);
    RunId::new_unchecked(format!(
        "{}-{:04x}",
        now.format("%Y%m%d-%H%M%S"),
        suffix & 0xffff
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_waiting_run_names_its_gate() {
        let summary = |status, last_step: Option<&str>| RunSummary {
            id: "20261126-000000-abcd".parse().expect("a run id"),
            question: "q".into(),
            status,
            created_at: String::new(),
            last_step: last_step.map(str::to_owned),
            out_dir: None,
            parent: None,
        };
        let waiting = RunStatus::AwaitingApproval;
        assert_eq!(summary(waiting, Some("screen")).gate(), Some("screening"));
        assert_eq!(summary(waiting, Some("gate")).gate(), Some("downloads"));
        assert_eq!(summary(RunStatus::Done, Some("publish")).gate(), None);
    }

    #[test]
    fn an_empty_review_of_works_without_abstracts_says_where_abstracts_come_from() {
        let decision = |id: &str, reason| ScreeningDecision {
            work: id.parse().expect("id"),
            decision: litrev_model::Decision::Exclude,
            reason,
            rationale: String::new(),
            score: 0.0,
            reviewer: litrev_model::Reviewer::Rule,
            domain: None,
        };
        let missing = litrev_model::ReasonCode::MissingAbstract;
        let below = litrev_model::ReasonCode::OutOfScope;
        let advice = nothing_included_advice(&[decision("W1", missing), decision("W2", missing)]);
        assert!(
            advice.starts_with("2 of the 2 works considered have no abstract")
                && advice.contains("--library FILE"),
            "{advice}"
        );
        let advice = nothing_included_advice(&[
            decision("W1", missing),
            decision("W2", below),
            decision("W3", below),
        ]);
        assert!(advice.starts_with("broaden the question"), "{advice}");
    }
}
