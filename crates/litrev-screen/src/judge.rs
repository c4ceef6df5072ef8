//! The LLM judge: eligibility criteria written as text, applied by a language model to the
//! works the ranking put in or near the review.
//!
//! The judge sees the works the model included and the best-ranked ones it left out (a
//! borderline share of the included count), each on its own with the question and the
//! criteria, and answers include or exclude with a reason code and a one-line rationale. Its
//! verdict replaces the model's; seeds, rule exclusions and a person's labels are never sent.
//! The tier's limit still holds: if the judge includes more works than it allows, the
//! lowest-ranked of them are set aside as over the limit. A call that fails or an answer that
//! does not parse keeps the model's decision and says why in its rationale; running over the
//! budget stops the phase with the budget's error, so nothing is paid for twice on resume.

use std::collections::BTreeMap;

use litrev_llm::{JsonSchema, LlmProvider, LlmRequest, RequestSettings, SCREEN_JUDGE, WorkSlots};
use litrev_model::{Decision, ReasonCode, Reviewer, ScreeningDecision, Work, WorkId};
use serde::Deserialize;

/// The ledger line the judge's calls are counted under.
pub const JUDGE_PHASE: &str = "screen";

/// How the judge is run.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeConfig {
    /// The model.
    pub model: String,
    /// Most tokens of one answer.
    pub max_tokens: u32,
    /// Best-ranked excluded works judged too, as a share of the included ones.
    pub borderline_share: f32,
    /// Most works included (the tier's limit).
    pub max_included: usize,
}

impl JudgeConfig {
    /// Settings for `model` under a tier limit: 200 tokens an answer, borderline half the
    /// included count.
    pub fn for_model(model: &str, max_included: usize) -> JudgeConfig {
        JudgeConfig {
            model: model.to_owned(),
            max_tokens: 200,
            borderline_share: 0.5,
            max_included,
        }
    }
}

/// What the judge did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JudgeReport {
    /// Works sent to the judge.
    pub judged: usize,
    /// Works the judge included.
    pub included: usize,
    /// Works the judge excluded.
    pub excluded: usize,
    /// Works the judge included that the ranking had left out.
    pub rescued: usize,
    /// Works whose call failed or whose answer did not parse: the model's decision stands.
    pub kept_model: usize,
}

/// The judge's answer.
#[derive(Debug, Deserialize)]
struct Verdict {
    decision: String,
    reason: String,
    rationale: String,
}

/// Applies `criteria` to the included and borderline works of `decisions` (ranking order, as
/// `screen` returns them) and returns the decisions with the judge's verdicts in place.
///
/// # Errors
/// When the provider refuses a call for the budget, or the prompt cannot be filled: the
/// phase must stop rather than carry on half-judged.
pub fn judge(
    llm: &dyn LlmProvider,
    config: &JudgeConfig,
    question: &str,
    criteria: &str,
    works: &BTreeMap<WorkId, Work>,
    mut decisions: Vec<ScreeningDecision>,
) -> Result<(Vec<ScreeningDecision>, JudgeReport), litrev_llm::Error> {
    let candidates = candidates(config, works, &decisions);
    let requests: Vec<LlmRequest> = candidates
        .iter()
        .map(|&index| request(config, question, criteria, &works[&decisions[index].work]))
        .collect::<Result<_, _>>()?;
    let answers = llm.complete_all(&requests);
    let mut report = JudgeReport {
        judged: candidates.len(),
        ..JudgeReport::default()
    };
    for (&index, answer) in candidates.iter().zip(answers) {
        let decision = &mut decisions[index];
        let verdict = match answer {
            Err(error @ litrev_llm::Error::OverBudget { .. }) => return Err(error),
            Err(error) => Err(error.to_string()),
            Ok(response) => response
                .json::<Verdict>()
                .map_err(|error| error.to_string())
                .and_then(read_verdict),
        };
        match verdict {
            Ok((include, reason, rationale)) => {
                if include && decision.decision == Decision::Exclude {
                    report.rescued += 1;
                }
                if include {
                    report.included += 1;
                } else {
                    report.excluded += 1;
                }
                decision.decision = if include {
                    Decision::Include
                } else {
                    Decision::Exclude
                };
                decision.reason = reason;
                decision.rationale = format!("criteria: {rationale}");
                decision.reviewer = Reviewer::Llm;
            }
            Err(why) => {
                report.kept_model += 1;
                decision.rationale =
                    format!("{} (the LLM judge failed: {why})", decision.rationale);
            }
        }
    }
    enforce_limit(config.max_included, &mut decisions);
    Ok((decisions, report))
}

/// Indices of the works the judge sees: those the ranking included (seeds aside) and the best
/// excluded for being under the threshold or over the limit, up to the borderline share.
fn candidates(
    config: &JudgeConfig,
    works: &BTreeMap<WorkId, Work>,
    decisions: &[ScreeningDecision],
) -> Vec<usize> {
    let judgeable = |decision: &ScreeningDecision| {
        decision.reviewer == Reviewer::Model && works.contains_key(&decision.work)
    };
    let included: Vec<usize> = (0..decisions.len())
        .filter(|&index| {
            judgeable(&decisions[index]) && decisions[index].decision == Decision::Include
        })
        .collect();
    let borderline = (included.len() as f32 * config.borderline_share).ceil() as usize;
    let mut excluded: Vec<usize> = (0..decisions.len())
        .filter(|&index| {
            judgeable(&decisions[index]) && decisions[index].decision == Decision::Exclude
        })
        .collect();
    excluded.sort_by(|&a, &b| {
        decisions[b]
            .score
            .total_cmp(&decisions[a].score)
            .then(decisions[a].work.cmp(&decisions[b].work))
    });
    let mut chosen = included;
    chosen.extend(excluded.into_iter().take(borderline));
    chosen.sort_unstable();
    chosen
}

fn request(
    config: &JudgeConfig,
    question: &str,
    criteria: &str,
    work: &Work,
) -> Result<LlmRequest, litrev_llm::Error> {
    let settings = RequestSettings {
        model: config.model.clone(),
        max_tokens: config.max_tokens,
        temperature: 0.0,
    };
    let slots = WorkSlots::of(work);
    SCREEN_JUDGE.request(
        &slots.with(&[("question", question.trim()), ("criteria", criteria.trim())]),
        &settings,
        JUDGE_PHASE,
        verdict_schema(),
    )
}

/// The decision, the reason code and the rationale of a well-formed verdict.
fn read_verdict(verdict: Verdict) -> Result<(bool, ReasonCode, String), String> {
    let rationale = verdict.rationale.trim();
    if rationale.is_empty() {
        return Err("the answer gives no rationale".to_owned());
    }
    let rationale = rationale.lines().next().unwrap_or(rationale).to_owned();
    match verdict.decision.trim() {
        "include" => Ok((true, ReasonCode::Relevant, rationale)),
        "exclude" => ReasonCode::JUDGE_EXCLUSIONS
            .into_iter()
            .find(|code| code.code() == verdict.reason.trim())
            .map(|code| (false, code, rationale))
            .ok_or_else(|| format!("unknown exclusion reason `{}`", verdict.reason)),
        other => Err(format!("decision `{other}` is neither include nor exclude")),
    }
}

/// Sets aside the lowest-ranked inclusions past `max_included` (seeds and people's choices
/// count but are never set aside).
fn enforce_limit(max_included: usize, decisions: &mut [ScreeningDecision]) {
    let mut included: Vec<usize> = (0..decisions.len())
        .filter(|&index| decisions[index].decision == Decision::Include)
        .collect();
    if included.len() <= max_included {
        return;
    }
    included.sort_by(|&a, &b| {
        decisions[b]
            .score
            .total_cmp(&decisions[a].score)
            .then(decisions[a].work.cmp(&decisions[b].work))
    });
    let mut over = included.len() - max_included;
    for &index in included.iter().rev() {
        if over == 0 {
            break;
        }
        let decision = &mut decisions[index];
        if matches!(decision.reviewer, Reviewer::Llm | Reviewer::Model) {
            decision.decision = Decision::Exclude;
            decision.reason = ReasonCode::OverTierLimit;
            decision.rationale = format!(
                "{}; but the tier's limit of {max_included} works is reached",
                decision.rationale
            );
            over -= 1;
        }
    }
}

fn verdict_schema() -> JsonSchema {
    let mut reasons: Vec<&str> = vec![ReasonCode::Relevant.code()];
    reasons.extend(ReasonCode::JUDGE_EXCLUSIONS.iter().map(|code| code.code()));
    JsonSchema {
        name: "verdict".to_owned(),
        schema: serde_json::json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["decision", "reason", "rationale"],
            "properties": {
                "decision": {"type": "string", "enum": ["include", "exclude"]},
                "reason": {"type": "string", "enum": reasons},
                "rationale": {"type": "string"},
            },
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(decision: &str, reason: &str, rationale: &str) -> Verdict {
        Verdict {
            decision: decision.to_owned(),
            reason: reason.to_owned(),
            rationale: rationale.to_owned(),
        }
    }

    #[test]
    fn verdicts_are_read_strictly() {
        assert_eq!(
            read_verdict(verdict("include", "relevant", "Adults with haemophilia A.")),
            Ok((
                true,
                ReasonCode::Relevant,
                "Adults with haemophilia A.".to_owned()
            ))
        );
        assert_eq!(
            read_verdict(verdict(
                "exclude",
                "wrong_design",
                "A narrative review.\nMore."
            )),
            Ok((
                false,
                ReasonCode::WrongDesign,
                "A narrative review.".to_owned()
            ))
        );
        assert!(read_verdict(verdict("exclude", "seed", "x")).is_err());
        assert!(read_verdict(verdict("maybe", "relevant", "x")).is_err());
        assert!(read_verdict(verdict("include", "relevant", "  ")).is_err());
    }

    #[test]
    fn the_limit_sets_aside_the_lowest_ranked_inclusions_only() {
        let decision = |id: &str, score: f32, reviewer: Reviewer| ScreeningDecision {
            work: id.parse().expect("id"),
            decision: Decision::Include,
            reason: ReasonCode::Relevant,
            rationale: "r".to_owned(),
            score,
            reviewer,
            domain: None,
        };
        let mut decisions = vec![
            decision("W1", 0.1, Reviewer::Rule),
            decision("W2", 0.9, Reviewer::Llm),
            decision("W3", 0.5, Reviewer::Llm),
            decision("W4", 0.2, Reviewer::Person),
        ];
        enforce_limit(3, &mut decisions);
        let kept: Vec<bool> = decisions
            .iter()
            .map(|decision| decision.decision == Decision::Include)
            .collect();
        // W4 and the seed W1 rank lower but are a person's and a rule's: W3 goes.
        assert_eq!(kept, [true, true, false, true]);
        assert_eq!(decisions[2].reason, ReasonCode::OverTierLimit);
    }
}
