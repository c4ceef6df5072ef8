//! The screen step and the gate after it: the corpus ranked against the question (and judged
//! against the run's criteria by its model), then checked by a person before anything else.

use litrev_model::{CorpusEntry, Decision, ReasonCode, ScreeningDecision, Work, WorkId};
use litrev_publish::Artifact;
use litrev_screen::ScreenConfig;
use litrev_store::StepWrites;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::discover::DiscoverRecord;
use super::plan::PlanRecord;
use super::snowball::{StageRecord, stage_llm};
use super::{Drive, Outcome, Runner, finished, write_file};
use crate::error::Result;
use crate::llm::EarlierCalls;

/// The screen step's output: its counts by decision and reason, with the judge's report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct ScreenRecord {
    pub(super) considered: usize,
    pub(super) included: usize,
    pub(super) excluded: BTreeMap<ReasonCode, usize>,
    /// The LLM judge's report and usage, when the run gave eligibility criteria.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) judge: Option<crate::llm::JudgeRecord>,
}

impl ScreenRecord {
    /// The counts of `decisions` over the corpus `entries`, without a judge.
    fn of(entries: &[CorpusEntry], decisions: &[ScreeningDecision]) -> ScreenRecord {
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
}

/// Who passed the gate: `--yes` in advance, or `resume` after the person's check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct GateRecord {
    approved_by: String,
}

/// What the steps up to the gate stored, as every later step reads it.
pub(super) struct Screened {
    pub(super) planned: PlanRecord,
    pub(super) discovery: DiscoverRecord,
    pub(super) stages: Vec<StageRecord>,
    pub(super) entries: Vec<CorpusEntry>,
    /// The decisions in force: a person's labels (from `litrev screen`) over the model's.
    pub(super) decisions: Vec<ScreeningDecision>,
    /// The screen step's counts, of the decisions in force.
    pub(super) screen: ScreenRecord,
    /// Every corpus work's stored record, stubs included.
    pub(super) all_works: BTreeMap<WorkId, Work>,
}

impl Screened {
    /// What the run's model did up to and including screening.
    pub(super) fn earlier_calls(&self) -> EarlierCalls {
        EarlierCalls {
            screening: self.screen.judge.clone(),
            ..EarlierCalls::before_screening(self.planned.llm.as_ref(), stage_llm(&self.stages))
        }
    }
}

impl Runner {
    /// Runs the screen step, unless it is done: a stored step is not loaded here, since the
    /// decisions in force ([`Runner::screened`]) are what later steps read.
    pub(super) fn screen_step(
        &mut self,
        drive: &Drive<'_>,
        planned: &PlanRecord,
        stages: &[StageRecord],
        entries: &[CorpusEntry],
    ) -> Result<()> {
        let events = drive.events;
        if drive.skipped("screen") {
            return Ok(());
        }
        self.started(events, "screen", "ranking the corpus against the question");
        let plan = &planned.plan;
        let works = self.described_works(entries)?;
        let citations = self.store().citations(drive.run)?;
        let config = ScreenConfig::from_plan(plan);
        let decisions = litrev_screen::screen(&config, plan, entries, &works, &citations);
        let (decisions, judge) = match &drive.options.llm {
            Some(llm) => crate::llm::judge_screening(
                &self.llm_cache()?,
                llm,
                EarlierCalls::before_screening(planned.llm.as_ref(), stage_llm(stages)).spent(),
                plan,
                &works,
                decisions,
                events,
            )?,
            None => (decisions, None),
        };
        let record = ScreenRecord {
            judge,
            ..ScreenRecord::of(entries, &decisions)
        };
        self.commit(
            drive.run,
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
        Ok(())
    }

    /// The screening as it stands, with the records of the steps before it.
    pub(super) fn screened(
        &mut self,
        drive: &Drive<'_>,
        planned: PlanRecord,
        discovery: DiscoverRecord,
        stages: Vec<StageRecord>,
        entries: Vec<CorpusEntry>,
    ) -> Result<Screened> {
        // The gate's cost (loading every work's record, writing the screening tables) is
        // measured from here; once the gate has passed, it is the next step's loading.
        self.measure();
        let decisions = self.decisions_in_force(drive.run)?;
        let screen = ScreenRecord {
            judge: self.output::<ScreenRecord>(drive.run, "screen")?.judge,
            ..ScreenRecord::of(&entries, &decisions)
        };
        let all_works = self.stored_works(&entries)?;
        Ok(Screened {
            planned,
            discovery,
            stages,
            entries,
            decisions,
            screen,
            all_works,
        })
    }

    /// The gate: a person checks the screening before anything else happens. Without
    /// `approve` the run stops here with the screening tables written; with it, the gate
    /// commits.
    pub(super) fn gate_step(
        &mut self,
        drive: &Drive<'_>,
        approve: bool,
        screened: &Screened,
    ) -> Result<Option<Outcome>> {
        if drive.skipped("gate") {
            return Ok(None);
        }
        let out_dir = &drive.options.out_dir;
        for table in screening_files(screened)? {
            write_file(out_dir, &table.name, &table.bytes)?;
        }
        let screening_csv = out_dir.join("screening.csv");
        if !approve {
            return Ok(Some(Outcome::AwaitingApproval {
                run: drive.run.clone(),
                screening_csv,
                included: screened.screen.included,
                considered: screened.screen.considered,
            }));
        }
        let approved_by = if drive.options.approve {
            "--yes"
        } else {
            "resume"
        };
        self.commit(
            drive.run,
            "gate",
            &GateRecord {
                approved_by: approved_by.to_owned(),
            },
            &StepWrites::default(),
            Vec::new(),
        )?;
        finished(
            drive.events,
            "gate",
            format!("screening approved ({approved_by})"),
        );
        Ok(None)
    }
}

/// The tables a person checks at the gate, published again with the review: `corpus.csv`,
/// `screening.csv`, `screening.ris`.
pub(super) fn screening_files(screened: &Screened) -> Result<Vec<Artifact>> {
    let (entries, works, decisions) = (&screened.entries, &screened.all_works, &screened.decisions);
    let queries = &screened.planned.plan.queries;
    Ok(vec![
        Artifact {
            name: "corpus.csv".to_owned(),
            bytes: litrev_publish::corpus_csv(entries, works, decisions, queries)?.into_bytes(),
        },
        Artifact {
            name: "screening.csv".to_owned(),
            bytes: litrev_publish::screening_csv(decisions, works)?.into_bytes(),
        },
        Artifact {
            name: "screening.ris".to_owned(),
            bytes: litrev_publish::screening_ris(decisions, works).into_bytes(),
        },
    ])
}
