//! The runner: the one place the order of the steps is written down.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use litrev_audit::AuditReport;
use litrev_discover::QueryHits;
use litrev_graph::{CitationGraph, edges_within};
use litrev_llm::PhaseUsage;
use litrev_model::{
    Citation, CorpusEntry, Decision, Expert, Organisation, Plan, ReasonCode, Review, RunId,
    RunStatus, ScreeningDecision, StageReport, StopReason, Work, WorkId,
};
use litrev_organise::OrganiseConfig;
use litrev_publish::{Artifact, CitationStyle, StyleName};
use litrev_screen::ScreenConfig;
use litrev_snowball::{Expansion, SnowballConfig, SnowballState};
use litrev_sources::{Federation, SnapshotSource, Source};
use litrev_store::{NewRun, StepWrites, Store};
use litrev_write::{MethodFacts, QueryFact, WriteInput, words_of};
use serde::{Deserialize, Serialize};

use crate::clarify::BriefState;
use crate::continuation::Continued;
use crate::error::{Error, Result};
use crate::events::Event;
use crate::fulltext::FulltextRecord;
use crate::home::Home;
use crate::llm::{EarlierCalls, PlanLlmRecord, StageLlmRecord};
use crate::options::{RunOptions, SourceSpec};
use crate::panics::PanicReport;
use crate::record::{EstimateCheck, OutputFile, RECORD_FORMAT, RunRecordFile, SourceCalls};
use crate::sources::{SourceOpener, report_failures};
use crate::telemetry::{Meter, StepTelemetry, Telemetry};

pub(crate) const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Set this to a step key (`discover`, `snowball.1`, `screen`…) to abort the process right
/// after that step commits, as a kill would: the resume tests use it.
const FAIL_AFTER_VARIABLE: &str = "LITREV_FAIL_AFTER";
/// `LITREV_PANIC_IN=<step>` panics as the step starts, as a bug would: tests of the panic net.
const PANIC_IN_VARIABLE: &str = "LITREV_PANIC_IN";

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

/// The plan step's output: the plan, and what the run's model added to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct PlanRecord {
    #[serde(flatten)]
    plan: Plan,
    /// The query variants the model proposed and what they cost, when the run has a model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    llm: Option<PlanLlmRecord>,
    /// What the person changed from the generated plan, when the run follows an edited one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    edits: Vec<crate::PlanEdit>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct DiscoverRecord {
    source: String,
    inputs: Vec<OutputFile>,
    pub(crate) hits: Vec<QueryHits>,
    raw_hits: usize,
    discovered: usize,
    /// Sources that failed and were left out, with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    failed_sources: Vec<String>,
    /// Calls to live APIs during the step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    calls: Vec<SourceCalls>,
    /// What a follow-up run took over from the run it continues.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) continued: Option<Continued>,
    /// The field's experts the expert channel chose (and a continued run's parent chose).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) experts: Vec<Expert>,
    /// The web pages the person named, and which could not be read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) pages: Vec<crate::pages::PageRecord>,
    /// The person's libraries, and what each gave.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) libraries: Vec<crate::library::LibraryRecord>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct StageRecord {
    report: Option<StageReport>,
    stop: Option<StopReason>,
    pub(crate) expanded: Vec<WorkId>,
    threshold: f32,
    /// Calls to live APIs during the stage.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    calls: Vec<SourceCalls>,
    /// What the run's language model said of the works the stage left in doubt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    llm: Option<StageLlmRecord>,
    /// What the stage asked its sources for, from which the fewest requests it needed follow.
    #[serde(default)]
    expansion: Expansion,
}

impl StageRecord {
    /// Requests the stage asked OpenAlex for: the API whose batching
    /// [`Expansion::minimum_requests`] counts with.
    fn openalex_requests(&self) -> u64 {
        let openalex = litrev_sources::openalex::policy().source;
        self.calls
            .iter()
            .filter(|calls| calls.source == openalex)
            .map(SourceCalls::asked)
            .sum()
    }
}

/// What snowballing asked OpenAlex for over `stages`, the fewest requests the same expansion
/// needed, and their ratio (none when OpenAlex was not asked: an offline run).
fn snowball_requests(stages: &[StageRecord]) -> (u64, u64, Option<f64>) {
    let requests: u64 = stages.iter().map(StageRecord::openalex_requests).sum();
    let minimum: u64 = stages
        .iter()
        .map(|stage| stage.expansion.minimum_requests())
        .sum();
    let ratio = (requests > 0).then(|| requests as f64 / minimum.max(1) as f64);
    (requests, minimum, ratio)
}

/// What the run's model said and cost at each of `stages` that asked it.
fn stage_llm(stages: &[StageRecord]) -> impl Iterator<Item = &StageLlmRecord> {
    stages.iter().filter_map(|stage| stage.llm.as_ref())
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct ScreenRecord {
    considered: usize,
    included: usize,
    excluded: BTreeMap<ReasonCode, usize>,
    /// The LLM judge's report and usage, when the run gave eligibility criteria.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    judge: Option<crate::llm::JudgeRecord>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct GateRecord {
    approved_by: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct WriteRecord {
    pub(crate) review: Review,
    pub(crate) words: usize,
    /// The language model's ledger and report, when one drafted the themes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) llm: Option<crate::LlmRecord>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct PublishRecord {
    outputs: Vec<OutputFile>,
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
    /// When the options are not usable (an empty question, a style that cannot be read, an
    /// LLM without its key); nothing is stored then.
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

    fn drive_steps(
        &mut self,
        run: &RunId,
        approve: bool,
        events: &dyn Fn(&Event),
    ) -> Result<Outcome> {
        let record = self.store.run(run)?;
        let options: RunOptions = serde_json::from_str(&record.options_json)
            .map_err(|error| Error::BadOptions(error.to_string()))?;
        let done: BTreeSet<String> = record.steps_done.iter().cloned().collect();
        let mut source: Option<Federation> = None;

        // Brief: with `clarify`, a probe and the questions it raises.
        let brief = if done.contains("plan") {
            BriefState::NotAsked
        } else {
            self.brief_step(run, &options, &done, events)?
        };
        if let BriefState::Waiting(clarifications) = brief {
            return Ok(Outcome::NeedsClarification {
                run: run.clone(),
                clarifications,
            });
        }

        // Plan.
        let planned: PlanRecord = if done.contains("plan") {
            events(&Event::StepSkipped {
                step: "plan".into(),
            });
            self.output(run, "plan")?
        } else {
            self.started(events, "plan", "turning the question into searches");
            let mut generated = crate::generated_plan(&options);
            if let BriefState::Ready(brief) = brief {
                generated.brief = *brief;
                litrev_plan::apply_brief(&mut generated);
            }
            // An edited plan runs as the person wrote it: no model adds queries to it.
            let planned = match &options.plan {
                Some(edited) => PlanRecord {
                    edits: crate::plan_edits(&generated, edited),
                    plan: edited.clone(),
                    llm: None,
                },
                None => {
                    let mut plan = generated;
                    let llm = match &options.llm {
                        Some(llm) => Some(crate::llm::plan_queries(
                            &self.sources.llm_cache()?,
                            llm,
                            &mut plan,
                            events,
                        )?),
                        None => None,
                    };
                    PlanRecord {
                        plan,
                        llm,
                        edits: Vec::new(),
                    }
                }
            };
            let usage = planned.llm.iter().map(|llm| llm.usage.clone()).collect();
            self.commit(run, "plan", &planned, &StepWrites::default(), usage)?;
            finished(
                events,
                "plan",
                format!(
                    "{} queries, {} seeds",
                    planned.plan.queries.len(),
                    planned.plan.seeds.len()
                ),
            );
            planned
        };
        let PlanRecord {
            plan,
            llm: planning,
            edits: plan_edits,
        } = planned;

        // Discover.
        let discovery: DiscoverRecord = if done.contains("discover") {
            events(&Event::StepSkipped {
                step: "discover".into(),
            });
            self.output(run, "discover")?
        } else {
            // The pages gate, before anything is fetched.
            if let Some(paused) = self.pages_gate(run, &options)? {
                self.meter = None;
                return Ok(paused);
            }
            let calls_before = self.sources.http_summary();
            // Opening the sources (indexing snapshots) is part of the step's cost.
            self.measure();
            // Named pages first: an address the guard refuses stops the run before any search.
            let mut pages = self.read_pages(&options.pages, events)?;
            let libraries = crate::library::read_libraries(&options.libraries, events)?;
            let opened = self.sources.open(&options.sources, events)?;
            self.started(
                events,
                "discover",
                &format!("searching {}", opened.describe()),
            );
            // A follow-up searches only what its parent did not, and starts from its corpus.
            let mut inherited = match &record.parent {
                Some(parent) => Some(self.inherited(parent)?),
                None => None,
            };
            let (search, mut hits) = match inherited.as_mut() {
                Some(inherited) => inherited.what_is_new(&plan),
                None => (plan.clone(), Vec::new()),
            };
            let reused_hits: usize = hits.iter().map(|hits| hits.works.len()).sum();
            let mut found = if search.queries.is_empty() && search.seeds.is_empty() {
                litrev_discover::Discovery::default()
            } else {
                litrev_discover::discover(&opened, &search)?
            };
            report_failures(&opened, 0, events);
            self.sources.report_calls(events);
            add_pages(&mut found, std::mem::take(&mut pages.works));
            let library_works =
                crate::library::as_sources_know_them(&opened, libraries.works, events);
            add_library(&mut found, library_works);
            let works: Vec<&Work> = found.works.iter().collect();
            let ids: BTreeSet<&WorkId> = found.entries.iter().map(|entry| &entry.work).collect();
            let mut citations = edges_within(&works, &ids);
            let mut discovered = found.works.len();
            hits.append(&mut found.hits);
            let mut experts = std::mem::take(&mut found.experts);
            if let Some(inherited) = inherited.as_mut() {
                litrev_model::add_experts(&mut experts, std::mem::take(&mut inherited.experts));
                let new: BTreeSet<WorkId> = found
                    .entries
                    .iter()
                    .map(|entry| entry.work.clone())
                    .collect();
                discovered += inherited
                    .entries
                    .iter()
                    .filter(|entry| !new.contains(&entry.work))
                    .count();
                found.entries.append(&mut inherited.entries);
                citations.append(&mut inherited.citations);
            }
            let record = DiscoverRecord {
                source: opened.describe(),
                inputs: input_hashes(&options)?,
                hits,
                raw_hits: found.raw_hits + reused_hits,
                discovered,
                failed_sources: opened
                    .failures()
                    .iter()
                    .map(|failure| {
                        format!("{} ({}): {}", failure.source, failure.call, failure.message)
                    })
                    .collect(),
                calls: SourceCalls::between(&calls_before, &self.sources.http_summary()),
                continued: inherited.map(|inherited| inherited.continued),
                experts,
                pages: pages.records,
                libraries: libraries.records,
            };
            self.commit(
                run,
                "discover",
                &record,
                &StepWrites {
                    works: &found.works,
                    corpus: &found.entries,
                    citations: &citations,
                    // The named pages as fetched: the full-text step reads them from the store.
                    full_texts: &pages.texts,
                    downloads: &pages.downloads,
                    ..StepWrites::default()
                },
                Vec::new(),
            )?;
            finished(
                events,
                "discover",
                format!("{} works from {} hits", record.discovered, record.raw_hits),
            );
            source = Some(opened);
            record
        };

        // Snowball, one committed step per stage.
        let config = SnowballConfig::from_plan(&plan);
        let mut stages: Vec<StageRecord> = Vec::new();
        for stage in 1..=config.max_stages {
            let key = format!("snowball.{stage}");
            let record: StageRecord = if done.contains(&key) {
                events(&Event::StepSkipped { step: key.clone() });
                self.output(run, &key)?
            } else {
                let calls_before = self.sources.http_summary();
                self.measure();
                let opened = match source.take() {
                    Some(opened) => opened,
                    None => self.sources.open(&options.sources, events)?,
                };
                if stage == 1 && !opened.capabilities().citing {
                    events(&Event::Notice {
                        message: format!(
                            "no source here lists citing works ({}): snowballing follows references only; add openalex or semantic-scholar to follow citations forward",
                            opened.describe()
                        ),
                    });
                }
                self.started(events, &key, "following references and citing works");
                let entries = self.store.corpus(run)?;
                let works = self.described_works(&entries)?;
                let expanded: BTreeSet<WorkId> = stages
                    .iter()
                    .flat_map(|stage| stage.expanded.iter().cloned())
                    .chain(
                        discovery
                            .continued
                            .iter()
                            .flat_map(|continued| continued.expanded.iter().cloned()),
                    )
                    .collect();
                let history: Vec<StageReport> = stages
                    .iter()
                    .filter_map(|stage| stage.report.clone())
                    .collect();
                let verdicts = StageLlmRecord::verdicts(stage_llm(&stages));
                let focuses = plan.focuses();
                let state = SnowballState {
                    question: &plan.question,
                    focuses: &focuses,
                    seeds: &plan.seeds,
                    entries: &entries,
                    works: &works,
                    expanded: &expanded,
                    history: &history,
                    verdicts: &verdicts,
                };
                let failed_before = opened.failures().len();
                let (outcome, llm) = crate::llm::snowball_stage(
                    &self.sources.llm_cache()?,
                    options.llm.as_ref(),
                    EarlierCalls::before_screening(planning.as_ref(), stage_llm(&stages)).spent(),
                    events,
                    |scorer| {
                        Ok(litrev_snowball::expand_stage(
                            &opened, &config, &state, stage, scorer,
                        )?)
                    },
                )?;
                report_failures(&opened, failed_before, events);
                self.sources.report_calls(events);
                let record = StageRecord {
                    report: outcome.report.clone(),
                    stop: outcome.stop,
                    expanded: outcome.expanded.clone(),
                    threshold: outcome.threshold,
                    calls: SourceCalls::between(&calls_before, &self.sources.http_summary()),
                    llm,
                    expansion: outcome.expansion,
                };
                self.commit(
                    run,
                    &key,
                    &record,
                    &StepWrites {
                        works: &outcome.new_works,
                        corpus: &outcome.new_entries,
                        citations: &outcome.citations,
                        ..StepWrites::default()
                    },
                    record.llm.iter().map(|llm| llm.usage.clone()).collect(),
                )?;
                let mut summary = match &outcome.report {
                    Some(report) => format!(
                        "expanded {}, {} new works, {} relevant",
                        report.expanded, report.new_works, report.new_relevant
                    ),
                    None => "nothing left to expand".to_owned(),
                };
                let requests = record.openalex_requests();
                if requests > 0 {
                    summary.push_str(&format!(
                        "; {requests} OpenAlex requests, {} at the fewest",
                        outcome.expansion.minimum_requests()
                    ));
                }
                finished(events, &key, summary);
                source = Some(opened);
                record
            };
            let stop = record.stop.is_some();
            stages.push(record);
            if stop {
                break;
            }
        }
        drop(source);
        if let (requests, minimum, Some(ratio)) = snowball_requests(&stages) {
            events(&Event::Notice {
                message: format!(
                    "snowballing asked OpenAlex {requests} times where the same expansion needs \
                     {minimum} at the fewest (ratio {ratio:.2})"
                ),
            });
        }

        // Screen.
        let entries = self.store.corpus(run)?;
        if done.contains("screen") {
            events(&Event::StepSkipped {
                step: "screen".into(),
            });
        } else {
            self.started(events, "screen", "ranking the corpus against the question");
            let works = self.described_works(&entries)?;
            let citations = self.store.citations(run)?;
            let config = ScreenConfig::from_plan(&plan);
            let decisions = litrev_screen::screen(&config, &plan, &entries, &works, &citations);
            let (decisions, judge) = match &options.llm {
                Some(llm) => crate::llm::judge_screening(
                    &self.sources.llm_cache()?,
                    llm,
                    EarlierCalls::before_screening(planning.as_ref(), stage_llm(&stages)).spent(),
                    &plan,
                    &works,
                    decisions,
                    events,
                )?,
                None => (decisions, None),
            };
            let record = ScreenRecord {
                judge,
                ..screen_record(&entries, &decisions)
            };
            self.commit(
                run,
                "screen",
                &record,
                &StepWrites {
                    decisions: &decisions,
                    ..StepWrites::default()
                },
                record
                    .judge
                    .iter()
                    .map(|judge| judge.usage.clone())
                    .collect(),
            )?;
            finished(
                events,
                "screen",
                format!("{} included of {}", record.included, record.considered),
            );
        }
        // The gate's cost (loading every work's record, writing the screening tables) is
        // measured from here; once the gate has passed, it is the next step's loading.
        self.measure();
        // A person's labels (from `litrev screen`) are in force over the model's decisions.
        let decisions = self.decisions_in_force(run)?;
        let screen = ScreenRecord {
            judge: self.output::<ScreenRecord>(run, "screen")?.judge,
            ..screen_record(&entries, &decisions)
        };
        let all_works = self.stored_works(&entries)?;

        // Gate: a person checks the screening before anything else happens.
        if done.contains("gate") {
            events(&Event::StepSkipped {
                step: "gate".into(),
            });
        } else {
            let screening_csv =
                self.write_tables(&options.out_dir, &plan, &entries, &all_works, &decisions)?;
            if !approve {
                // The meter stops with the run; the approval starts its own.
                self.meter = None;
                return Ok(Outcome::AwaitingApproval {
                    run: run.clone(),
                    screening_csv,
                    included: screen.included,
                    considered: screen.considered,
                });
            }
            let approved_by = if options.approve { "--yes" } else { "resume" };
            self.commit(
                run,
                "gate",
                &GateRecord {
                    approved_by: approved_by.to_owned(),
                },
                &StepWrites::default(),
                Vec::new(),
            )?;
            finished(
                events,
                "gate",
                format!("screening approved ({approved_by})"),
            );
        }

        let included = included_works(&decisions, &all_works);
        if included.is_empty() {
            return Err(Error::NothingIncluded);
        }

        // Full text.
        let spent_usd = EarlierCalls {
            screening: screen.judge.clone(),
            ..EarlierCalls::before_screening(planning.as_ref(), stage_llm(&stages))
        }
        .spent();
        let inputs = crate::fulltext::FulltextInputs {
            decisions: &decisions,
            attached: discovery
                .libraries
                .iter()
                .flat_map(|library| &library.files)
                .map(|(work, path)| (work, path.as_path()))
                .collect(),
            included: &included,
            spent_usd,
        };
        let fulltext = match self.full_text_step(run, &options, &done, inputs, events)? {
            std::ops::ControlFlow::Continue(record) => record,
            std::ops::ControlFlow::Break(paused) => {
                self.meter = None;
                return Ok(paused);
            }
        };
        let citations = self.store.citations(run)?;

        // Organise.
        let organisation: Organisation = if done.contains("organise") {
            events(&Event::StepSkipped {
                step: "organise".into(),
            });
            self.output(run, "organise")?
        } else {
            self.started(
                events,
                "organise",
                "grouping the included works into themes",
            );
            let embeddings = match crate::embeddings::embed_if_installed(&self.home, &included)? {
                Ok(embeddings) => Some(embeddings),
                Err(why) => {
                    events(&Event::Notice {
                        message: format!("themes from TF-IDF vectors: {why}"),
                    });
                    None
                }
            };
            let mut organisation = litrev_organise::organise(
                &OrganiseConfig::default(),
                &included,
                &citations,
                embeddings.as_ref(),
            );
            let domains: Vec<String> = plan.focuses().into_iter().map(|focus| focus.name).collect();
            let domain_of: BTreeMap<WorkId, String> = decisions
                .iter()
                .filter_map(|decision| Some((decision.work.clone(), decision.domain.clone()?)))
                .collect();
            litrev_organise::place_in_domains(&mut organisation, &domains, &domain_of);
            self.commit(
                run,
                "organise",
                &organisation,
                &StepWrites::default(),
                Vec::new(),
            )?;
            let agreement = organisation.views.as_ref().map_or_else(String::new, |views| {
                format!(
                    "; {} citation communities among {} linked works, NMI with the themes {:.2}",
                    views.communities, views.linked_works, views.nmi
                )
            });
            finished(
                events,
                "organise",
                format!("{} themes{agreement}", organisation.themes.len()),
            );
            organisation
        };

        // Write.
        let written: WriteRecord = if done.contains("write") {
            events(&Event::StepSkipped {
                step: "write".into(),
            });
            self.output(run, "write")?
        } else {
            let detail = match &options.llm {
                None => "writing the review from the works' abstracts".to_owned(),
                Some(llm) => format!("drafting the themes with {} ({})", llm.model, llm.provider),
            };
            self.started(events, "write", &detail);
            let facts = method_facts(&plan, &discovery, &stages, &screen);
            let corpus_citations = corpus_citations(&entries, &citations, &included);
            let input = WriteInput {
                plan: &plan,
                facts: &facts,
                included: &included,
                organisation: &organisation,
                corpus_citations: &corpus_citations,
                citations: &citations,
                cards: &fulltext.cards_by_work(),
            };
            let (review, llm) = match &options.llm {
                None => (litrev_write::write(&input), None),
                Some(llm) => {
                    let earlier = EarlierCalls {
                        screening: screen.judge.clone(),
                        fulltext: fulltext.llm.clone(),
                        ..EarlierCalls::before_screening(planning.as_ref(), stage_llm(&stages))
                    };
                    let (review, record) = crate::llm::write_review(
                        &self.sources.llm_cache()?,
                        llm,
                        &input,
                        earlier,
                        events,
                    )?;
                    (review, Some(record))
                }
            };
            let words = review.sentences().map(words_of).sum();
            let usage = record_phases(llm.as_ref());
            let record = WriteRecord { review, words, llm };
            self.commit(run, "write", &record, &StepWrites::default(), usage)?;
            finished(events, "write", format!("{words} words"));
            record
        };

        // Audit: the grounding invariants, before anything is published.
        let audit: AuditReport = if done.contains("audit") {
            events(&Event::StepSkipped {
                step: "audit".into(),
            });
            self.output(run, "audit")?
        } else {
            self.started(
                events,
                "audit",
                "checking every citation and every taken sentence",
            );
            let texts = self.full_texts(&fulltext)?;
            let report = litrev_audit::audit(&written.review, &included, &texts)?;
            self.commit(run, "audit", &report, &StepWrites::default(), Vec::new())?;
            finished(
                events,
                "audit",
                format!(
                    "{} citations of {} works resolve; {} sentences taken from works are verbatim{}{}",
                    report.citations,
                    report.cited_works,
                    report.span_sentences,
                    if report.full_text_sentences > 0 {
                        format!(
                            " ({} of them from full texts, at their locators)",
                            report.full_text_sentences
                        )
                    } else {
                        String::new()
                    },
                    if report.paraphrased_sentences > 0 {
                        format!(
                            ", {} paraphrased ones are supported by their spans",
                            report.paraphrased_sentences
                        )
                    } else {
                        String::new()
                    }
                ),
            );
            report
        };

        // Publish.
        self.started(events, "publish", "writing the output files");
        let style = load_style(&options.style)?;
        let mut artifacts = litrev_publish::review_files(&written.review, &included, &style)?;
        artifacts.push(Artifact {
            name: "corpus.csv".to_owned(),
            bytes: litrev_publish::corpus_csv(&entries, &all_works, &decisions, &plan.queries)?
                .into_bytes(),
        });
        artifacts.push(Artifact {
            name: "screening.csv".to_owned(),
            bytes: litrev_publish::screening_csv(&decisions, &all_works)?.into_bytes(),
        });
        artifacts.push(Artifact {
            name: "screening.ris".to_owned(),
            bytes: litrev_publish::screening_ris(&decisions, &all_works).into_bytes(),
        });
        artifacts.extend(analysis_files(
            &entries,
            &all_works,
            &included,
            &citations,
            &organisation,
        ));
        let keys = litrev_publish::citation_keys(&written.review, &included)?;
        artifacts.push(Artifact {
            name: "study_cards.json".to_owned(),
            bytes: litrev_publish::study_cards_json(
                &fulltext.retrievals,
                &fulltext.cards,
                &included,
                &keys,
            )
            .into_bytes(),
        });
        artifacts.push(Artifact {
            name: "study_cards.csv".to_owned(),
            bytes: litrev_publish::study_cards_csv(
                &fulltext.retrievals,
                &fulltext.cards,
                &included,
                &keys,
            )?
            .into_bytes(),
        });
        let prisma = prisma_counts(&discovery, &entries, &all_works, &screen, &fulltext);
        artifacts.push(Artifact {
            name: "prisma.svg".to_owned(),
            bytes: litrev_publish::prisma_svg(&prisma).into_bytes(),
        });
        let outputs: Vec<OutputFile> = artifacts
            .iter()
            .map(|artifact| OutputFile {
                path: artifact.name.clone(),
                sha256: artifact.sha256(),
                bytes: artifact.bytes.len() as u64,
            })
            .collect();
        let (asked, minimum, ratio) = snowball_requests(&stages);
        let counts = serde_json::json!({
            "discover": {
                "queries": discovery.hits.iter().map(|hits| serde_json::json!({
                    "label": hits.label, "text": hits.text, "hits": hits.works.len(),
                    "channel": hits.channel().name()
                })).collect::<Vec<_>>(),
                "raw_hits": discovery.raw_hits,
                "works": discovery.discovered,
            },
            "snowball": stages.iter().map(|stage| serde_json::json!({
                "report": stage.report, "stop": stage.stop, "threshold": stage.threshold,
                "openalex_requests": stage.openalex_requests(),
                "minimum_requests": stage.expansion.minimum_requests(),
            })).collect::<Vec<_>>(),
            "snowball_requests": {
                "openalex": asked, "minimum": minimum, "ratio": ratio,
            },
            "screen": screen,
            "organise": {
                "themes": organisation.themes.iter().map(|theme| serde_json::json!({
                    "label": theme.label, "works": theme.works.len()
                })).collect::<Vec<_>>(),
                "views": organisation.views,
            },
            "fulltext": {
                "works": fulltext.counts(),
                "study_cards": fulltext.cards.len(),
            },
            "write": { "words": written.words },
            "audit": audit,
        });
        // The publish step's own cost is read before run.json is written, and stored as read.
        let publishing = self.reading("publish", Vec::new());
        let mut measured: Vec<StepTelemetry> = self.store.step_telemetry(run)?;
        measured.extend(publishing.clone());
        let telemetry = Telemetry::of(measured);
        let calls = SourceCalls::total(
            std::iter::once(discovery.calls.as_slice())
                .chain(stages.iter().map(|stage| stage.calls.as_slice())),
        );
        let run_record = RunRecordFile {
            format: RECORD_FORMAT,
            tool: "litrev".to_owned(),
            tool_version: TOOL_VERSION.to_owned(),
            run_id: run.to_string(),
            created_at: record.created_at.clone(),
            question: plan.question.clone(),
            options: serde_json::to_value(&options)
                .map_err(|error| Error::BadOptions(error.to_string()))?,
            plan: serde_json::to_value(crate::plan_file::with_synthesis(&plan))
                .map_err(|error| Error::BadOptions(error.to_string()))?,
            plan_edits: plan_edits.clone(),
            inputs: discovery.inputs.clone(),
            counts,
            outputs: outputs.clone(),
            estimate: EstimateCheck::of(crate::estimate(&plan, &options.sources), &calls),
            calls,
            llm: written.llm.clone(),
            llm_estimate: options.llm.as_ref().map(|llm| {
                crate::estimate_llm(
                    &plan,
                    llm,
                    options.max_fulltext.unwrap_or(plan.limits.max_fulltext),
                )
            }),
            telemetry: Some(telemetry.clone()),
        };
        let run_json = serde_json::to_string_pretty(&run_record)
            .map_err(|error| Error::BadOptions(error.to_string()))?;
        artifacts.push(Artifact {
            name: "run.json".to_owned(),
            bytes: format!("{run_json}\n").into_bytes(),
        });
        for artifact in &artifacts {
            write_file(&options.out_dir, &artifact.name, &artifact.bytes)?;
        }
        // The folder is kept in the store too: any machine can write it out (`litrev export`).
        let files: Vec<(String, Vec<u8>)> = artifacts
            .iter()
            .map(|artifact| (artifact.name.clone(), artifact.bytes.clone()))
            .collect();
        self.commit_measured(
            run,
            "publish",
            &PublishRecord { outputs },
            &StepWrites {
                outputs: &files,
                ..StepWrites::default()
            },
            publishing.as_ref(),
        )?;
        finished(
            events,
            "publish",
            format!("{} files in {}", artifacts.len(), options.out_dir.display()),
        );

        Ok(Outcome::Done(Summary {
            run: run.clone(),
            considered: screen.considered,
            included: included.len(),
            themes: organisation.themes.len(),
            words: written.words,
            citations: audit.citations,
            views: organisation.views.clone(),
            out_dir: options.out_dir.clone(),
            telemetry,
        }))
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

    fn write_tables(
        &self,
        out_dir: &Path,
        plan: &Plan,
        entries: &[CorpusEntry],
        works: &BTreeMap<WorkId, Work>,
        decisions: &[ScreeningDecision],
    ) -> Result<PathBuf> {
        let corpus = litrev_publish::corpus_csv(entries, works, decisions, &plan.queries)?;
        let screening = litrev_publish::screening_csv(decisions, works)?;
        write_file(out_dir, "corpus.csv", corpus.as_bytes())?;
        write_file(out_dir, "screening.csv", screening.as_bytes())?;
        let ris = litrev_publish::screening_ris(decisions, works);
        write_file(out_dir, "screening.ris", ris.as_bytes())?;
        Ok(out_dir.join("screening.csv"))
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

fn screen_record(entries: &[CorpusEntry], decisions: &[ScreeningDecision]) -> ScreenRecord {
    let mut excluded: BTreeMap<ReasonCode, usize> = BTreeMap::new();
    let mut included = 0;
    for decision in decisions {
        match decision.decision {
            Decision::Include => included += 1,
            Decision::Exclude => *excluded.entry(decision.reason).or_default() += 1,
        }
    }
    ScreenRecord {
        considered: entries.len(),
        included,
        excluded,
        judge: None,
    }
}

fn method_facts(
    plan: &Plan,
    discovery: &DiscoverRecord,
    stages: &[StageRecord],
    screen: &ScreenRecord,
) -> MethodFacts {
    MethodFacts {
        source: discovery.source.clone(),
        queries: plan
            .queries
            .iter()
            .map(|query| QueryFact {
                text: query.text.clone(),
                purpose: query.purpose.clone(),
                hits: discovery
                    .hits
                    .iter()
                    .find(|hits| hits.label == query.label)
                    .map_or(0, |hits| hits.works.len()),
            })
            .collect(),
        seeds: plan.seeds.len(),
        raw_hits: discovery.raw_hits,
        discovered: discovery.discovered,
        stages: stages
            .iter()
            .filter_map(|stage| stage.report.clone())
            .collect(),
        stop: stages.last().and_then(|stage| stage.stop),
        considered: screen.considered,
        excluded: screen.excluded.clone(),
        included: screen.included,
        snowball_model_verdicts: stage_llm(stages)
            .map(|stage| stage.scoring.verdicts.len())
            .sum(),
        criteria_judged: screen.judge.as_ref().map_or(0, |judge| judge.judged),
        continued: discovery
            .continued
            .as_ref()
            .map(|continued| litrev_write::ContinuedFact {
                parent_question: continued.parent_question.clone(),
                carried_works: continued.carried_works,
                new_queries: continued.new_queries,
                reused_queries: continued.reused_queries,
            }),
        experts: discovery.experts.clone(),
        pages: discovery
            .pages
            .iter()
            .map(|page| litrev_write::PageFact {
                address: page.address.clone(),
                work: page.work.clone(),
                failure: page.failure.clone(),
            })
            .collect(),
        libraries: discovery
            .libraries
            .iter()
            .map(|library| litrev_write::LibraryFact {
                name: library.path.file_name().map_or_else(
                    || library.path.display().to_string(),
                    |name| name.to_string_lossy().into_owned(),
                ),
                records: library.records,
                works: library.works,
            })
            .collect(),
    }
}

/// `themes.json`, `graph.graphml` and `charts/*.svg`: the organisation for people and tools.
fn analysis_files(
    entries: &[CorpusEntry],
    works: &BTreeMap<WorkId, Work>,
    included: &BTreeMap<WorkId, Work>,
    citations: &[Citation],
    organisation: &Organisation,
) -> Vec<Artifact> {
    let theme_of: BTreeMap<&WorkId, &str> = organisation
        .themes
        .iter()
        .flat_map(|theme| theme.works.iter().map(move |id| (id, theme.label.as_str())))
        .collect();
    let ids: Vec<WorkId> = entries.iter().map(|entry| entry.work.clone()).collect();
    let graph = CitationGraph::new(&ids, citations);
    let stubs: BTreeMap<WorkId, Work> = entries
        .iter()
        .filter(|entry| !works.contains_key(&entry.work))
        .map(|entry| (entry.work.clone(), Work::stub(entry.work.clone())))
        .collect();
    let nodes: Vec<litrev_publish::GraphNode<'_>> = entries
        .iter()
        .filter_map(|entry| {
            let work = works.get(&entry.work).or_else(|| stubs.get(&entry.work))?;
            Some(litrev_publish::GraphNode {
                work,
                theme: theme_of.get(&entry.work).copied(),
                included: included.contains_key(&entry.work),
                corpus_citations: graph.in_degree(&entry.work),
            })
        })
        .collect();

    let series: Vec<(String, BTreeMap<i32, usize>)> = organisation
        .themes
        .iter()
        .map(|theme| {
            let mut per_year: BTreeMap<i32, usize> = BTreeMap::new();
            for year in theme.works.iter().filter_map(|id| included.get(id)?.year) {
                *per_year.entry(year).or_default() += 1;
            }
            (theme.label.clone(), per_year)
        })
        .collect();
    let top = |counts: BTreeMap<String, usize>, limit: usize| {
        let mut items: Vec<(String, usize)> = counts.into_iter().collect();
        items.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        items.truncate(limit);
        items
    };
    let mut venues: BTreeMap<String, usize> = BTreeMap::new();
    let mut authors: BTreeMap<String, usize> = BTreeMap::new();
    for work in included.values() {
        if let Some(venue) = &work.venue {
            *venues.entry(venue.clone()).or_default() += 1;
        }
        for author in &work.authors {
            *authors.entry(author.name.clone()).or_default() += 1;
        }
    }
    let mut origins: BTreeMap<String, usize> = BTreeMap::new();
    for entry in entries
        .iter()
        .filter(|entry| included.contains_key(&entry.work))
    {
        *origins.entry(entry.origin.name().to_owned()).or_default() += 1;
    }
    // The citation graph among the included works, grouped by theme.
    let theme_index = organisation.theme_index();
    let drawn: Vec<&WorkId> = included.keys().collect();
    let index_of: BTreeMap<&WorkId, usize> = drawn
        .iter()
        .enumerate()
        .map(|(index, id)| (*id, index))
        .collect();
    let circle_nodes: Vec<litrev_publish::CircleNode> = drawn
        .iter()
        .map(|id| litrev_publish::CircleNode {
            label: included[*id]
                .title
                .clone()
                .unwrap_or_else(|| id.to_string()),
            theme: theme_index
                .get(id)
                .copied()
                .unwrap_or(organisation.themes.len()),
            cited: graph.in_degree(id),
        })
        .collect();
    let circle_edges: Vec<(usize, usize)> = citations
        .iter()
        .filter_map(|citation| {
            Some((
                *index_of.get(&citation.citing)?,
                *index_of.get(&citation.cited)?,
            ))
        })
        .collect();
    let mut circle_themes: Vec<String> = organisation
        .themes
        .iter()
        .map(|theme| theme.label.clone())
        .collect();
    if circle_nodes
        .iter()
        .any(|node| node.theme == organisation.themes.len())
    {
        circle_themes.push("outside the themes".to_owned());
    }
    let themes_json =
        serde_json::to_string_pretty(organisation).expect("an organisation always serialises");
    vec![
        Artifact {
            name: "themes.json".to_owned(),
            bytes: format!("{themes_json}\n").into_bytes(),
        },
        Artifact {
            name: "graph.graphml".to_owned(),
            bytes: litrev_publish::graphml(&nodes, citations).into_bytes(),
        },
        Artifact {
            name: "charts/years.svg".to_owned(),
            bytes: litrev_publish::stacked_years_svg("Included works per year, by theme", &series)
                .into_bytes(),
        },
        Artifact {
            name: "charts/venues.svg".to_owned(),
            bytes: litrev_publish::bars_svg("Top venues of the included works", &top(venues, 15))
                .into_bytes(),
        },
        Artifact {
            name: "charts/authors.svg".to_owned(),
            bytes: litrev_publish::bars_svg("Top authors of the included works", &top(authors, 15))
                .into_bytes(),
        },
        Artifact {
            name: "charts/sources.svg".to_owned(),
            bytes: litrev_publish::bars_svg("How the included works were found", &top(origins, 4))
                .into_bytes(),
        },
        Artifact {
            name: "charts/citations.svg".to_owned(),
            bytes: litrev_publish::citation_circle_svg(
                "Citations among the included works, by theme",
                &circle_themes,
                &circle_nodes,
                &circle_edges,
            )
            .into_bytes(),
        },
    ]
}

/// Adds the named pages' works to a discovery as corpus entries of origin `page`, after the
/// searches' works; a page a search also found keeps its entry (and the queries that found
/// it), its origin now `page`.
fn add_pages(found: &mut litrev_discover::Discovery, pages: Vec<Work>) {
    for page in pages {
        let id = page.id();
        match found.entries.iter_mut().find(|entry| entry.work == id) {
            Some(entry) => entry.origin = litrev_model::Origin::Page,
            None => {
                found.entries.push(CorpusEntry {
                    work: id,
                    stage: 0,
                    origin: litrev_model::Origin::Page,
                    score: 0.0,
                    queries: Vec::new(),
                });
                found.works.push(page);
            }
        }
    }
}

/// Adds the records of the person's libraries to the corpus, to be screened like search hits; a
/// work a search found already keeps its entry.
fn add_library(found: &mut litrev_discover::Discovery, works: Vec<Work>) {
    // Every id the corpus knows, once: a library of thousands is checked against it, not
    // against each work in turn.
    let mut known: BTreeSet<WorkId> = found.works.iter().flat_map(|work| work.ids.all()).collect();
    for work in works {
        let ids = work.ids.all();
        if ids.iter().any(|id| known.contains(id)) {
            continue;
        }
        known.extend(ids);
        found.entries.push(CorpusEntry {
            work: work.id(),
            stage: 0,
            origin: litrev_model::Origin::Library,
            score: 0.0,
            queries: Vec::new(),
        });
        found.works.push(work);
    }
}

/// The PRISMA flow's counts, from what the steps stored.
fn prisma_counts(
    discovery: &DiscoverRecord,
    entries: &[CorpusEntry],
    works: &BTreeMap<WorkId, Work>,
    screen: &ScreenRecord,
    fulltext: &FulltextRecord,
) -> litrev_publish::PrismaCounts {
    let described =
        |entry: &&CorpusEntry| works.get(&entry.work).is_some_and(|work| !work.is_stub());
    let named = |origin: litrev_model::Origin| {
        entries
            .iter()
            .filter(|entry| entry.origin == origin)
            .count()
    };
    let (seeds, pages) = (
        named(litrev_model::Origin::Seed),
        named(litrev_model::Origin::Page),
    );
    // A library's records are identified whether or not a search found them too.
    let library = discovery
        .libraries
        .iter()
        .map(|library| library.works)
        .sum();
    let mut excluded: Vec<(String, usize)> = screen
        .excluded
        .iter()
        .filter(|(reason, _)| **reason != ReasonCode::NoMetadata)
        .map(|(reason, count)| (reason.code().to_owned(), *count))
        .collect();
    excluded.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    litrev_publish::PrismaCounts {
        source: discovery.source.clone(),
        search_hits: discovery.raw_hits,
        channels: hits_by_channel(&discovery.hits),
        seeds,
        pages,
        library,
        snowballed: entries.iter().filter(|entry| entry.stage > 0).count(),
        // Every record identified, less those left after merging the same work's records.
        duplicates: (discovery.raw_hits + seeds + pages + library)
            .saturating_sub(discovery.discovered),
        no_metadata: entries.iter().filter(|entry| !described(entry)).count(),
        screened: entries.iter().filter(described).count(),
        excluded,
        included: screen.included,
        reports: Some(fulltext.report_counts()),
    }
}

/// The searches' hits (duplicates included) by the channel of their query, in the channels'
/// order.
fn hits_by_channel(hits: &[QueryHits]) -> Vec<(String, usize)> {
    let mut by_channel: BTreeMap<litrev_model::Channel, usize> = BTreeMap::new();
    for query in hits {
        *by_channel.entry(query.channel()).or_default() += query.works.len();
    }
    by_channel
        .into_iter()
        .map(|(channel, count)| (channel.name().to_owned(), count))
        .collect()
}

/// Citations each included work receives from anywhere in the corpus.
fn corpus_citations(
    entries: &[CorpusEntry],
    citations: &[Citation],
    included: &BTreeMap<WorkId, Work>,
) -> BTreeMap<WorkId, usize> {
    let nodes: Vec<WorkId> = entries.iter().map(|entry| entry.work.clone()).collect();
    let graph = CitationGraph::new(&nodes, citations);
    included
        .keys()
        .map(|id| (id.clone(), graph.in_degree(id)))
        .collect()
}

fn input_hashes(options: &RunOptions) -> Result<Vec<OutputFile>> {
    let mut inputs = Vec::new();
    for spec in &options.sources {
        if let SourceSpec::Snapshot { paths } = spec {
            for file in SnapshotSource::files_of(paths)? {
                let bytes = std::fs::read(&file).map_err(|source| Error::Write {
                    path: file.clone(),
                    source,
                })?;
                inputs.push(OutputFile {
                    path: file.display().to_string(),
                    sha256: litrev_model::sha256_hex(&bytes),
                    bytes: bytes.len() as u64,
                });
            }
        }
    }
    Ok(inputs)
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

/// The language model's usage per phase in a write step's record (none without a model).
fn record_phases(llm: Option<&crate::LlmRecord>) -> Vec<PhaseUsage> {
    llm.map_or_else(Vec::new, |llm| {
        llm.phases
            .iter()
            .filter(|usage| usage.phase.starts_with("write"))
            .cloned()
            .collect()
    })
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
}
