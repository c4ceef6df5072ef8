//! The LLM scorer: when the run has a language model, it settles the works the text judgement
//! is unsure of.
//!
//! A work is in doubt when no seed or citation link makes it relevant and its score lies
//! between half and twice the relevance threshold, where wording alone decides little. The
//! model reads its title and abstract with the question and answers relevant or not; that
//! verdict replaces the score's for the work ([`crate::Basis::Llm`] when relevant), is kept
//! with the stage and reused by later stages, so no work is asked about twice. The works
//! nearest the threshold are asked first, and a budget too small for all goes to as many of
//! them as it covers. A call that fails, an answer that does not parse, or a call the budget
//! refuses leaves the score's judgement in place: the stage's requests to the sources are
//! never lost to the model.

use std::collections::BTreeMap;

use litrev_llm::{
    JsonSchema, LlmProvider, LlmRequest, RequestSettings, SNOWBALL_RELEVANCE, WorkSlots,
};
use litrev_model::{Work, WorkId};
use serde::{Deserialize, Serialize};

use crate::judge::Judgement;

/// The ledger line the scorer's calls are counted under.
pub const SCORER_PHASE: &str = "snowball";

/// Most tokens of one answer: a verdict and a sentence.
pub const SCORER_MAX_TOKENS: u32 = 200;

/// A language model asked about the works the text judgement is unsure of.
#[derive(Clone, Copy)]
pub struct LlmScorer<'a> {
    /// The model behind its cache, ledger and budget.
    pub llm: &'a dyn LlmProvider,
    /// The model's name.
    pub model: &'a str,
}

/// What the model said of one work.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LlmVerdict {
    /// The work.
    pub work: WorkId,
    /// Whether it is about the question.
    pub relevant: bool,
    /// The model's one sentence on why.
    pub rationale: String,
}

/// What the scorer did in a stage.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ScorerReport {
    /// The verdicts given.
    pub verdicts: Vec<LlmVerdict>,
    /// Works asked about whose call or answer failed: their score decides.
    pub failed: usize,
    /// Works not asked about because the budget ran out: their score decides.
    #[serde(default)]
    pub over_budget: usize,
}

/// The answer's shape.
#[derive(Debug, Deserialize)]
struct Answer {
    decision: String,
    rationale: String,
}

/// The two decisions the schema allows.
const RELEVANT: &str = "relevant";
const NOT_RELEVANT: &str = "not_relevant";

/// Reads a verdict from an answer: its JSON, or, when the answer was cut off at `max_tokens`
/// after the decision (a model repeating itself in the rationale), the decision alone.
fn read_answer(response: &litrev_llm::LlmResponse) -> Option<(bool, String)> {
    let decided = |decision: &str| match decision {
        RELEVANT => Some(true),
        NOT_RELEVANT => Some(false),
        _ => None,
    };
    if let Ok(answer) = response.json::<Answer>() {
        return decided(answer.decision.trim()).map(|relevant| (relevant, answer.rationale));
    }
    if !response.truncated {
        return None;
    }
    let after_key = response.text.split_once("\"decision\"")?.1;
    let value = after_key.trim_start().strip_prefix(':')?.trim_start();
    let decision = value.strip_prefix('"')?.split('"').next()?;
    decided(decision).map(|relevant| (relevant, "(the answer was cut off)".to_owned()))
}

/// Records in doubt that have no verdict yet: neither seed nor structurally relevant, scoring
/// in `[threshold / 2, 2 × threshold)`; the most in doubt first (the score nearest the
/// threshold, as a ratio), so that a budget too small for all goes to those.
pub(crate) fn in_doubt(judgement: &Judgement, judged: &BTreeMap<WorkId, bool>) -> Vec<WorkId> {
    let threshold = judgement.threshold;
    let mut doubtful: Vec<(f32, &WorkId)> = judgement
        .scores
        .iter()
        .filter(|(id, score)| {
            !judged.contains_key(*id)
                && **score >= threshold / 2.0
                && **score < threshold * 2.0
                && judgement
                    .relevant
                    .get(*id)
                    .is_none_or(|basis| *basis == crate::Basis::Semantic)
        })
        .map(|(id, score)| ((score / threshold).ln().abs(), id))
        .collect();
    doubtful.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(b.1)));
    doubtful.into_iter().map(|(_, id)| id.clone()).collect()
}

/// The answers to `requests`, in order, sending as many as the budget allows.
///
/// A budget refuses a whole set of calls when their worst case together would overspend, so a
/// refused set is asked again in halves: the budget goes to the first requests it covers, and
/// only those it cannot cover come back refused.
fn within_budget(
    llm: &dyn LlmProvider,
    requests: &[LlmRequest],
) -> Vec<litrev_llm::Result<litrev_llm::LlmResponse>> {
    let mut answers: Vec<Option<litrev_llm::Result<litrev_llm::LlmResponse>>> =
        (0..requests.len()).map(|_| None).collect();
    let mut pending: Vec<usize> = (0..requests.len()).collect();
    let mut size = pending.len();
    while !pending.is_empty() {
        let asked: Vec<usize> = pending.iter().copied().take(size).collect();
        let batch: Vec<LlmRequest> = asked.iter().map(|&index| requests[index].clone()).collect();
        let mut refusal = None;
        for (&index, answer) in asked.iter().zip(llm.complete_all(&batch)) {
            match answer {
                Err(error @ litrev_llm::Error::OverBudget { .. }) => refusal = Some(error),
                answer => answers[index] = Some(answer),
            }
        }
        pending.retain(|&index| answers[index].is_none());
        if let Some(refusal) = refusal {
            if asked.len() == 1 {
                // Not even one more call fits: the rest are left.
                for &index in &pending {
                    answers[index] = Some(Err(refusal.clone()));
                }
                break;
            }
            size = (asked.len() / 2).max(1);
        }
    }
    answers.into_iter().flatten().collect()
}

impl LlmScorer<'_> {
    /// Asks the model about each of `works`, in order, as many at once as the budget allows
    /// (the provider runs them in parallel); the works the budget leaves are counted, not
    /// asked.
    ///
    /// # Errors
    /// When the prompt cannot be filled.
    pub fn score(
        &self,
        question: &str,
        works: &[&Work],
    ) -> Result<ScorerReport, litrev_llm::Error> {
        let requests: Vec<LlmRequest> = works
            .iter()
            .map(|work| self.request(question, work))
            .collect::<Result<_, _>>()?;
        let mut report = ScorerReport::default();
        for (work, answer) in works.iter().zip(within_budget(self.llm, &requests)) {
            match answer {
                Err(litrev_llm::Error::OverBudget { .. }) => report.over_budget += 1,
                Err(_) => report.failed += 1,
                Ok(response) => match read_answer(&response) {
                    Some((relevant, rationale)) => report.verdicts.push(LlmVerdict {
                        work: work.id(),
                        relevant,
                        rationale: rationale.trim().to_owned(),
                    }),
                    None => report.failed += 1,
                },
            }
        }
        Ok(report)
    }

    fn request(&self, question: &str, work: &Work) -> Result<LlmRequest, litrev_llm::Error> {
        let settings = RequestSettings {
            model: self.model.to_owned(),
            max_tokens: SCORER_MAX_TOKENS,
            temperature: 0.0,
        };
        let slots = WorkSlots::of(work);
        let schema = JsonSchema {
            name: "relevance".to_owned(),
            schema: serde_json::json!({
                "type": "object",
                "additionalProperties": false,
                // Decision first (keys are written in order), so an answer cut off in its
                // rationale still says it.
                "required": ["decision", "rationale"],
                "properties": {
                    "decision": {"type": "string", "enum": [RELEVANT, NOT_RELEVANT]},
                    "rationale": {"type": "string"},
                },
            }),
        };
        SNOWBALL_RELEVANCE.request(
            &slots.with(&[("question", question.trim())]),
            &settings,
            SCORER_PHASE,
            schema,
        )
    }
}

#[cfg(test)]
mod tests {
    use litrev_llm::LlmResponse;

    use super::*;
    use crate::Basis;
    use crate::test_works::work;

    /// A model whose answer to each work is scripted by its title.
    struct Scripted;

    impl LlmProvider for Scripted {
        fn id(&self) -> String {
            "scripted".to_owned()
        }

        fn complete(&self, request: &LlmRequest) -> litrev_llm::Result<LlmResponse> {
            let user = &request.messages[1].content;
            let (text, truncated) = if user.contains("Title: insulin pumps") {
                (
                    r#"{"decision": "relevant", "rationale": "About insulin pumps."}"#,
                    false,
                )
            } else if user.contains("Title: knee") {
                (
                    "```json\n{\"decision\": \"not_relevant\", \"rationale\": \"About knees.\"}\n```",
                    false,
                )
            } else if user.contains("Title: school") {
                (
                    r#"{"decision": "relevant", "rationale": "School, school, school"#,
                    true,
                )
            } else if user.contains("Title: costs") {
                return Err(litrev_llm::Error::OverBudget {
                    budget: 1.0,
                    spent: 1.0,
                    needed: 0.1,
                    calls: 1,
                    model: "m".to_owned(),
                    suggested: 1.1,
                });
            } else {
                ("I cannot tell.", false)
            };
            Ok(LlmResponse {
                text: text.to_owned(),
                input_tokens: 10,
                output_tokens: 5,
                estimated_usage: false,
                truncated,
                batched: false,
                cached: false,
            })
        }
    }

    #[test]
    fn verdicts_parse_and_failures_leave_works_to_their_score() {
        let works = [
            work("W1", "insulin pumps at school", &[]),
            work("W2", "knee surgery", &[]),
            work("W3", "costs of care", &[]),
            work("W4", "unrelated", &[]),
            work("W5", "school nurses", &[]),
        ];
        let scorer = LlmScorer {
            llm: &Scripted,
            model: "m",
        };
        let refs: Vec<&Work> = works.iter().collect();
        let report = scorer.score("insulin pumps", &refs).expect("scored");
        let said: Vec<(String, bool)> = report
            .verdicts
            .iter()
            .map(|verdict| (verdict.work.to_string(), verdict.relevant))
            .collect();
        assert_eq!(
            said,
            [
                ("W1".to_owned(), true),
                ("W2".to_owned(), false),
                ("W5".to_owned(), true)
            ]
        );
        assert_eq!(report.verdicts[1].rationale, "About knees.");
        assert_eq!(report.verdicts[2].rationale, "(the answer was cut off)");
        assert_eq!((report.failed, report.over_budget), (1, 1));
    }

    #[test]
    fn only_scores_near_the_threshold_without_links_or_verdicts_are_in_doubt() {
        let id = |text: &str| text.parse::<WorkId>().expect("id");
        let judgement = Judgement {
            scores: [
                (id("W1"), 0.04),
                (id("W2"), 0.06),
                (id("W3"), 0.15),
                (id("W4"), 0.25),
                (id("W5"), 0.12),
                (id("W6"), 0.12),
            ]
            .into(),
            relevant: [
                (id("W3"), Basis::Semantic),
                (id("W4"), Basis::Semantic),
                (id("W5"), Basis::Structural),
            ]
            .into(),
            threshold: 0.1,
        };
        let judged: BTreeMap<WorkId, bool> = [(id("W6"), true)].into();
        // W3 (0.15, 1.5 times the threshold) is nearer it than W2 (0.06, 0.6 times).
        assert_eq!(in_doubt(&judgement, &judged), [id("W3"), id("W2")]);
    }

    /// A model behind a budget of `capacity` calls that, like `litrev_llm::Metered`, refuses a
    /// whole set of calls when together they would overspend.
    struct Budgeted {
        capacity: usize,
        sent: std::sync::Mutex<Vec<String>>,
    }

    impl LlmProvider for Budgeted {
        fn id(&self) -> String {
            "budgeted".to_owned()
        }

        fn complete(&self, request: &LlmRequest) -> litrev_llm::Result<LlmResponse> {
            self.complete_all(std::slice::from_ref(request))
                .pop()
                .expect("one answer")
        }

        fn complete_all(&self, requests: &[LlmRequest]) -> Vec<litrev_llm::Result<LlmResponse>> {
            let mut sent = self.sent.lock().expect("lock");
            if sent.len() + requests.len() > self.capacity {
                let refusal = litrev_llm::Error::OverBudget {
                    budget: 1.0,
                    spent: sent.len() as f64 / self.capacity as f64,
                    needed: requests.len() as f64 / self.capacity as f64,
                    calls: requests.len(),
                    model: "m".to_owned(),
                    suggested: 2.0,
                };
                return requests.iter().map(|_| Err(refusal.clone())).collect();
            }
            requests
                .iter()
                .map(|request| {
                    let user = &request.messages[1].content;
                    sent.push(user.clone());
                    Ok(LlmResponse {
                        text: r#"{"decision": "relevant", "rationale": "On topic."}"#.to_owned(),
                        input_tokens: 10,
                        output_tokens: 5,
                        estimated_usage: false,
                        truncated: false,
                        batched: false,
                        cached: false,
                    })
                })
                .collect()
        }
    }

    /// Five works whose prompts are the same length, W1 first.
    fn numbered_works() -> Vec<Work> {
        (1..=5)
            .map(|n| work(&format!("W{n}"), &format!("work number {n}"), &[]))
            .collect()
    }

    /// The works `llm` judged among the numbered works, in order, and how many the budget
    /// left.
    fn judged_numbered(llm: &dyn LlmProvider) -> (Vec<String>, usize) {
        let works = numbered_works();
        let refs: Vec<&Work> = works.iter().collect();
        let scorer = LlmScorer { llm, model: "m" };
        let report = scorer.score("numbered works", &refs).expect("scored");
        assert_eq!(report.failed, 0);
        let judged = report
            .verdicts
            .iter()
            .map(|verdict| verdict.work.to_string())
            .collect();
        (judged, report.over_budget)
    }

    #[test]
    fn a_budget_too_small_for_every_work_goes_to_the_first_ones() {
        let llm = Budgeted {
            capacity: 3,
            sent: std::sync::Mutex::default(),
        };
        assert_eq!(
            judged_numbered(&llm),
            (vec!["W1".into(), "W2".into(), "W3".into()], 2)
        );
        assert_eq!(
            llm.sent.lock().expect("lock").len(),
            3,
            "each work asked once"
        );
    }

    /// A model whose every answer costs exactly the worst case a budget reserves for it.
    struct AtWorstCase;

    impl LlmProvider for AtWorstCase {
        fn id(&self) -> String {
            "at-worst-case".to_owned()
        }

        fn complete(&self, request: &LlmRequest) -> litrev_llm::Result<LlmResponse> {
            Ok(LlmResponse {
                text: r#"{"decision": "not_relevant", "rationale": "Off topic."}"#.to_owned(),
                input_tokens: request.estimated_input_tokens(),
                output_tokens: u64::from(request.max_tokens),
                estimated_usage: false,
                truncated: false,
                batched: false,
                cached: false,
            })
        }
    }

    #[test]
    fn a_metered_budget_is_spent_on_as_many_works_as_it_covers() {
        let price = litrev_llm::Price::new(1.0, 1.0);
        let probe = LlmScorer {
            llm: &AtWorstCase,
            model: "m",
        }
        .request("numbered works", &numbered_works()[0])
        .expect("prompt fills");
        let worst = price.cost(
            probe.estimated_input_tokens(),
            u64::from(probe.max_tokens),
            false,
        );
        // Room for three calls and a half: all five at once are refused, and so is the fourth.
        let metered = litrev_llm::Metered::new(
            Box::new(AtWorstCase),
            None,
            litrev_llm::PriceTable::list_prices().with("m", price),
            Some(3.5 * worst),
        );
        assert_eq!(
            judged_numbered(&metered),
            (vec!["W1".into(), "W2".into(), "W3".into()], 2)
        );
        assert_eq!(metered.ledger().total().calls, 3);
    }
}
