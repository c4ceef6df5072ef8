//! The plan step: the question (and its brief) turned into searches, or the person's edited
//! plan taken as written.

use litrev_model::Plan;
use litrev_store::StepWrites;
use serde::{Deserialize, Serialize};

use super::{Drive, Runner, finished};
use crate::clarify::BriefState;
use crate::error::Result;
use crate::llm::PlanLlmRecord;

/// The plan step's output: the plan, and what the run's model added to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct PlanRecord {
    #[serde(flatten)]
    pub(super) plan: Plan,
    /// The query variants the model proposed and what they cost, when the run has a model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) llm: Option<PlanLlmRecord>,
    /// What the person changed from the generated plan, when the run follows an edited one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) edits: Vec<crate::PlanEdit>,
}

impl Runner {
    /// Runs (or loads) the plan step; `brief` is what the brief step settled.
    pub(super) fn plan_step(&mut self, drive: &Drive<'_>, brief: BriefState) -> Result<PlanRecord> {
        if let Some(planned) = self.stored(drive, "plan")? {
            return Ok(planned);
        }
        let (options, events) = (&drive.options, drive.events);
        self.started(events, "plan", "turning the question into searches");
        let mut generated = crate::generated_plan(options);
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
                        &self.llm_cache()?,
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
        self.commit(drive.run, "plan", &planned, &StepWrites::default(), usage)?;
        finished(
            events,
            "plan",
            format!(
                "{} queries, {} seeds",
                planned.plan.queries.len(),
                planned.plan.seeds.len()
            ),
        );
        Ok(planned)
    }
}
