//! The LLM scorer: when the run has a language model, it settles the works the text judgement
//! is unsure of.
//!
//! A work is in doubt when no seed or citation link makes it relevant and its score lies
//! between half and twice the relevance threshold, where wording alone decides little. The
//! model reads its title and abstract with the question and answers relevant or not; that
//! verdict replaces the score's for the work ([`crate::Basis::Llm`] when relevant), is kept
//! with the stage and reused by later stages, so no work is asked about twice. A call that
//! fails, an answer that does not parse, or a call the budget refuses leaves the score's
//! judgement in place: the stage's requests to the sources are never lost to the model.

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
const MAX_TOKENS: u32 = 200;

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

/// Records in doubt that have no verdict yet, by id: neither seed nor structurally relevant,
/// scoring in `[threshold / 2, 2 × threshold)`.
pub(crate) fn in_doubt(judgement: &Judgement, judged: &BTreeMap<WorkId, bool>) -> Vec<WorkId> {
    let threshold = judgement.threshold;
    judgement
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
        .map(|(id, _)| id.clone())
        .collect()
}

impl LlmScorer<'_> {
    /// Asks the model about each of `works`, all at once (the provider runs them in parallel).
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
        for (work, answer) in works.iter().zip(self.llm.complete_all(&requests)) {
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
            max_tokens: MAX_TOKENS,
            temperature: 0.0,
        };
        let slots = WorkSlots::of(work);
        let mut request = SNOWBALL_RELEVANCE.request(
            &slots.with(&[("question", question.trim())]),
            &settings,
            SCORER_PHASE,
        )?;
        request.schema = Some(JsonSchema {
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
        });
        Ok(request)
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
        assert_eq!(in_doubt(&judgement, &judged), [id("W2"), id("W3")]);
    }
}
