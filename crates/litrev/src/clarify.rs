//! The brief's clarifying questions as a state of the run: a run asked to clarify
//! ([`crate::RunOptions::clarify`]) probes its sources before searching, and when the brief
//! raises questions it stops with status `needs_clarification` until [`Runner::clarify`]
//! answers them, so the CLI, the web app and MCP ask the same questions the same way.
//!
//! Two stored steps carry it: `brief` (the probe's brief, questions unanswered) and `clarify`
//! (the brief with the answers given, or the defaults taken); the plan step plans with the
//! latter.

use litrev_model::{Brief, Clarification, RunId, RunStatus};
use litrev_store::StepWrites;

use crate::error::{Error, Result};
use crate::runner::{Drive, Runner, finished};

/// Where a run's brief stands before its plan step.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum BriefState {
    /// The run was not asked to clarify: the plan's own brief stands.
    NotAsked,
    /// The brief to plan with: questions answered, or none raised.
    Ready(Box<Brief>),
    /// Questions wait for answers.
    Waiting(Vec<Clarification>),
}

impl Runner {
    /// The brief step: with [`crate::RunOptions::clarify`] (and no edited plan), a probe search
    /// on the run's sources reads the disciplines and raises at most two questions; the brief
    /// is stored once, so a resumed run does not probe again.
    pub(crate) fn brief_step(&mut self, drive: &Drive<'_>) -> Result<BriefState> {
        let (run, options, done, events) = (drive.run, &drive.options, &drive.done, drive.events);
        if !options.clarify || options.plan.is_some() {
            return Ok(BriefState::NotAsked);
        }
        if done.contains("clarify") {
            return Ok(BriefState::Ready(Box::new(self.output(run, "clarify")?)));
        }
        let brief: Brief = if done.contains("brief") {
            self.output(run, "brief")?
        } else {
            self.started(events, "brief", "a probe search for the research brief");
            let mut plan = crate::generated_plan(options);
            let read = self.probe(&mut plan, &options.sources, events)?;
            self.commit(
                run,
                "brief",
                &plan.brief,
                &StepWrites::default(),
                Vec::new(),
            )?;
            finished(
                events,
                "brief",
                format!(
                    "{read} works probed; disciplines {}; {} question(s)",
                    list_or_none(&plan.brief.disciplines.value),
                    plan.brief.clarifications.len()
                ),
            );
            plan.brief
        };
        Ok(if brief.clarifications.is_empty() {
            BriefState::Ready(Box::new(brief))
        } else {
            BriefState::Waiting(brief.clarifications)
        })
    }

    /// The plan a run follows as the frontends show it ([`plan_json`]), with its estimate for
    /// the run's sources; none before the plan step.
    ///
    /// # Errors
    /// When the run is unknown or its plan or options cannot be read.
    pub fn plan_of(&self, run: &RunId) -> Result<Option<serde_json::Value>> {
        let options = self.options(run)?;
        let plan: Option<litrev_model::Plan> = self.store().step_output(run, "plan")?;
        Ok(plan.map(|plan| plan_json(&plan, &crate::estimate(&plan, &options.sources))))
    }

    /// The questions a run waits on (none when it is not waiting for answers).
    ///
    /// # Errors
    /// When the run is unknown or its brief cannot be read.
    pub fn clarifications(&self, run: &RunId) -> Result<Vec<Clarification>> {
        let record = self.store().run(run)?;
        if record.status != RunStatus::NeedsClarification {
            return Ok(Vec::new());
        }
        let brief: Brief = self.output(run, "brief")?;
        Ok(brief.clarifications)
    }

    /// Answers the questions of a run waiting for them, in order: an empty or missing answer
    /// takes the question's default (recorded as assumed). The answered brief is stored and
    /// the run is queued again; drive it with [`Runner::drive_queued`] or `litrev resume`.
    ///
    /// # Errors
    /// When the run does not wait for answers, there are more answers than questions, or an
    /// answer is not one of its question's options; nothing is stored then.
    pub fn clarify(&mut self, run: &RunId, answers: &[String]) -> Result<Brief> {
        let record = self.store().run(run)?;
        let refuse = |why: String| Error::BadAnswers {
            run: run.to_string(),
            why,
        };
        if record.status != RunStatus::NeedsClarification {
            return Err(Error::NotAwaitingAnswers {
                run: run.to_string(),
                status: record.status.name().to_owned(),
            });
        }
        let mut brief: Brief = self.output(run, "brief")?;
        if answers.len() > brief.clarifications.len() {
            return Err(refuse(format!(
                "{} answer(s) given to {} question(s): give one per question, in order",
                answers.len(),
                brief.clarifications.len()
            )));
        }
        for (index, given) in answers.iter().enumerate() {
            if given.trim().is_empty() {
                continue;
            }
            if !litrev_plan::answer(&mut brief, index, given) {
                let clarification = &brief.clarifications[index];
                return Err(refuse(format!(
                    "\"{given}\" is not an answer to \"{}\": answer one of {}",
                    clarification.question,
                    clarification.options.join(", ")
                )));
            }
        }
        self.commit(run, "clarify", &brief, &StepWrites::default(), Vec::new())?;
        let given: Vec<String> = brief
            .clarifications
            .iter()
            .map(|clarification| {
                format!(
                    "{}: {}",
                    clarification.about,
                    clarification.answer.as_deref().unwrap_or("default taken")
                )
            })
            .collect();
        self.store()
            .log_event(run, "clarify", &format!("answers: {}", given.join("; ")))?;
        self.store().set_status(run, RunStatus::Queued)?;
        Ok(brief)
    }
}

/// A plan as the frontends show it (the server's API, MCP): the brief with each part's basis,
/// the searches, seeds and filters, and the estimate of what it asks the live sources for.
pub fn plan_json(
    plan: &litrev_model::Plan,
    estimate: &litrev_model::Estimate,
) -> serde_json::Value {
    serde_json::json!({
        "brief": plan.brief,
        "queries": plan.queries,
        "seeds": plan.seeds,
        "filters": plan.filters,
        "synthesis": plan.synthesis(),
        "estimate": estimate,
    })
}

/// Clarifying questions as the frontends show them (the server's API and stream, MCP):
/// `about`, `question`, `options` and the `default` taken when nobody answers.
pub fn clarifications_json(clarifications: &[Clarification]) -> serde_json::Value {
    clarifications
        .iter()
        .map(|clarification| {
            serde_json::json!({
                "about": clarification.about,
                "question": clarification.question,
                "options": clarification.options,
                "default": clarification.options.first(),
            })
        })
        .collect()
}

fn list_or_none(values: &[String]) -> String {
    if values.is_empty() {
        "none found".to_owned()
    } else {
        values.join(", ")
    }
}
