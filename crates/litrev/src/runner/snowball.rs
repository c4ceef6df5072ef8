//! The snowball stages: one committed step per stage, each following the references and
//! citing works of the corpus's most relevant works until a stage says stop.

use std::collections::BTreeSet;

use litrev_model::{StageReport, StopReason, WorkId};
use litrev_snowball::{Expansion, SnowballConfig, SnowballState};
use litrev_sources::{Federation, Source};
use litrev_store::StepWrites;
use serde::{Deserialize, Serialize};

use super::discover::DiscoverRecord;
use super::plan::PlanRecord;
use super::{Drive, Runner, finished};
use crate::error::Result;
use crate::events::Event;
use crate::llm::{EarlierCalls, StageLlmRecord};
use crate::record::SourceCalls;
use crate::sources::report_failures;

/// A snowball stage's output: its report, why snowballing stopped after it, the works it
/// expanded and what it asked its sources for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct StageRecord {
    pub(crate) report: Option<StageReport>,
    pub(crate) stop: Option<StopReason>,
    pub(crate) expanded: Vec<WorkId>,
    pub(crate) threshold: f32,
    /// Calls to live APIs during the stage.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) calls: Vec<SourceCalls>,
    /// What the run's language model said of the works the stage left in doubt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) llm: Option<StageLlmRecord>,
    /// What the stage asked its sources for, from which the fewest requests it needed follow.
    #[serde(default)]
    pub(crate) expansion: Expansion,
}

impl StageRecord {
    /// Requests the stage asked OpenAlex for: the API whose batching
    /// [`Expansion::minimum_requests`] counts with.
    pub(crate) fn openalex_requests(&self) -> u64 {
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
pub(super) fn snowball_requests(stages: &[StageRecord]) -> (u64, u64, Option<f64>) {
    let requests: u64 = stages.iter().map(StageRecord::openalex_requests).sum();
    let minimum: u64 = stages
        .iter()
        .map(|stage| stage.expansion.minimum_requests())
        .sum();
    let ratio = (requests > 0).then(|| requests as f64 / minimum.max(1) as f64);
    (requests, minimum, ratio)
}

/// What the run's model said and cost at each of `stages` that asked it.
pub(super) fn stage_llm(stages: &[StageRecord]) -> impl Iterator<Item = &StageLlmRecord> {
    stages.iter().filter_map(|stage| stage.llm.as_ref())
}

impl Runner {
    /// Runs (or loads) every snowball stage the plan allows, until one stops; `opened` is the
    /// discover step's sources, when it ran in this drive.
    pub(super) fn snowball_steps(
        &mut self,
        drive: &Drive<'_>,
        planned: &PlanRecord,
        discovery: &DiscoverRecord,
        mut opened: Option<Federation>,
    ) -> Result<Vec<StageRecord>> {
        let config = SnowballConfig::from_plan(&planned.plan);
        let mut stages: Vec<StageRecord> = Vec::new();
        for stage in 1..=config.max_stages {
            let key = format!("snowball.{stage}");
            let record = match self.stored(drive, &key)? {
                Some(record) => record,
                None => {
                    let before = Earlier {
                        planned,
                        discovery,
                        stages: &stages,
                    };
                    self.snowball_stage(drive, &config, stage, before, &mut opened)?
                }
            };
            let stop = record.stop.is_some();
            stages.push(record);
            if stop {
                break;
            }
        }
        if let (requests, minimum, Some(ratio)) = snowball_requests(&stages) {
            (drive.events)(&Event::Notice {
                message: format!(
                    "snowballing asked OpenAlex {requests} times where the same expansion needs \
                     {minimum} at the fewest (ratio {ratio:.2})"
                ),
            });
        }
        Ok(stages)
    }

    /// Runs snowball stage `stage` and commits it as `snowball.{stage}`.
    fn snowball_stage(
        &mut self,
        drive: &Drive<'_>,
        config: &SnowballConfig,
        stage: u32,
        before: Earlier<'_>,
        opened: &mut Option<Federation>,
    ) -> Result<StageRecord> {
        let (key, events) = (format!("snowball.{stage}"), drive.events);
        let Earlier {
            planned,
            discovery,
            stages,
        } = before;
        let plan = &planned.plan;
        let calls_before = self.sources().http_summary();
        self.measure();
        let sources = match opened.take() {
            Some(sources) => sources,
            None => self.sources().open(&drive.options.sources, events)?,
        };
        if stage == 1 && !sources.capabilities().citing {
            events(&Event::Notice {
                message: format!(
                    "no source here lists citing works ({}): snowballing follows references only; add openalex or semantic-scholar to follow citations forward",
                    sources.describe()
                ),
            });
        }
        self.started(events, &key, "following references and citing works");
        let entries = self.store().corpus(drive.run)?;
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
        let verdicts = StageLlmRecord::verdicts(stage_llm(stages));
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
        let failed_before = sources.failures().len();
        let (outcome, llm) = crate::llm::snowball_stage(
            &self.llm_cache()?,
            drive.options.llm.as_ref(),
            EarlierCalls::before_screening(planned.llm.as_ref(), stage_llm(stages)).spent(),
            events,
            |scorer| {
                Ok(litrev_snowball::expand_stage(
                    &sources, config, &state, stage, scorer,
                )?)
            },
        )?;
        report_failures(&sources, failed_before, events);
        self.sources().report_calls(events);
        let record = StageRecord {
            report: outcome.report.clone(),
            stop: outcome.stop,
            expanded: outcome.expanded.clone(),
            threshold: outcome.threshold,
            calls: SourceCalls::between(&calls_before, &self.sources().http_summary()),
            llm,
            expansion: outcome.expansion,
        };
        self.commit(
            drive.run,
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
        *opened = Some(sources);
        Ok(record)
    }
}

/// What a snowball stage reads of the steps before it.
#[derive(Clone, Copy)]
struct Earlier<'a> {
    planned: &'a PlanRecord,
    discovery: &'a DiscoverRecord,
    stages: &'a [StageRecord],
}
