//! Query variants from a language model: searches that reach the studies the question's own
//! words miss (synonyms, the specific interventions, populations or outcomes it implies, older
//! names), as the design's "3–5 query variants".
//!
//! The model answers terms, never query syntax: each term becomes a bare word or a proximity
//! phrase of the plan's own syntax, so a variant searches every source the way the question's
//! queries do. Words naming the kind of review are dropped (unless the question is about
//! reviews), a variant whose words the
//! question's first query already holds is skipped, and at most [`MAX_VARIANTS`] are added, each
//! labelled and with its aim in the plan (and so in the review's method section). A call that
//! fails, an answer that does not parse, or a call the budget refuses leaves the plan as it
//! was: the question's own queries always run.

use std::fmt;

use litrev_llm::{JsonSchema, LlmProvider, LlmRequest, PLAN_QUERIES, RequestSettings};
use litrev_model::Plan;
use serde::{Deserialize, Serialize};

use crate::{push_query, term_words};

/// The ledger line the planner's call is counted under.
pub const PLANNER_PHASE: &str = "plan";

/// Most variants added to a plan.
pub const MAX_VARIANTS: usize = 5;

/// Most terms one variant searches.
const MAX_TERMS: usize = 8;

/// Longest term kept as a phrase, in words; longer ones search their words one by one.
const MAX_PHRASE_WORDS: usize = 4;

/// Most words of a variant's aim kept in the plan.
const MAX_AIM_WORDS: usize = 12;

/// Most tokens of the answer: five searches of eight terms and an aim each.
pub const PLANNER_MAX_TOKENS: u32 = 600;

/// A language model asked at planning: for the research brief ([`QueryPlanner::brief`]), and
/// for searches beyond the question's words ([`QueryPlanner::extend`]).
#[derive(Clone, Copy)]
pub struct QueryPlanner<'a> {
    /// The model behind its cache, ledger and budget.
    pub llm: &'a dyn LlmProvider,
    /// The model's name.
    pub model: &'a str,
}

/// What the planner did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannerReport {
    /// Searches the model proposed.
    pub proposed: usize,
    /// Labels of the queries added to the plan (`q4`…).
    pub added: Vec<String>,
    /// Proposals left out: no topic word, nothing the question's words do not already search,
    /// the same as a query already planned, or beyond [`MAX_VARIANTS`].
    pub skipped: usize,
    /// Why no variant came, when the call or its answer failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// Whether the budget refused the call.
    #[serde(default)]
    pub over_budget: bool,
}

/// One line for the user: what came of the call, the labels added, and why proposals were left
/// out.
impl fmt::Display for PlannerReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.over_budget {
            return write!(
                f,
                "the budget refused the call; the question's own queries run"
            );
        }
        if let Some(failure) = &self.failure {
            return write!(f, "no variants ({failure}); the question's own queries run");
        }
        write!(
            f,
            "{} searches proposed, {} added",
            self.proposed,
            self.added.len()
        )?;
        if !self.added.is_empty() {
            write!(f, " ({})", self.added.join(", "))?;
        }
        write!(f, ", {} left out", self.skipped)?;
        if self.skipped > 0 {
            write!(
                f,
                " (no new topic word, a repeat, or past the first {MAX_VARIANTS})"
            )?;
        }
        Ok(())
    }
}

/// The answer's shape.
#[derive(Debug, Deserialize)]
struct Answer {
    searches: Vec<Search>,
}

#[derive(Debug, Deserialize)]
struct Search {
    terms: Vec<String>,
    #[serde(default)]
    aim: String,
}

impl QueryPlanner<'_> {
    /// Asks the model for variants of `plan`'s question and adds the usable ones to its queries.
    ///
    /// # Errors
    /// When the prompt cannot be filled (a bug); a failed call or answer is reported, not
    /// returned.
    pub fn extend(&self, plan: &mut Plan) -> Result<PlannerReport, litrev_llm::Error> {
        let request = self.request(&plan.question)?;
        let answer = self
            .llm
            .complete(&request)
            .and_then(|response| response.json::<Answer>());
        let answer = match answer {
            Ok(answer) => answer,
            Err(litrev_llm::Error::OverBudget { .. }) => {
                return Ok(PlannerReport {
                    over_budget: true,
                    ..PlannerReport::default()
                });
            }
            Err(error) => {
                return Ok(PlannerReport {
                    failure: Some(error.to_string()),
                    ..PlannerReport::default()
                });
            }
        };
        let mut report = PlannerReport {
            proposed: answer.searches.len(),
            ..PlannerReport::default()
        };
        for search in &answer.searches {
            let added = report.added.len() < MAX_VARIANTS
                && variant_text(&search.terms, &plan.key_terms).is_some_and(|text| {
                    let purpose = match short_aim(&search.aim) {
                        None => "a language model's variant".to_owned(),
                        Some(aim) => format!("a language model's variant: {aim}"),
                    };
                    push_query(&mut plan.queries, &purpose, text)
                });
            if added {
                let label = plan.queries.last().map(|query| query.label.clone());
                report.added.extend(label);
            } else {
                report.skipped += 1;
            }
        }
        Ok(report)
    }

    fn request(&self, question: &str) -> Result<LlmRequest, litrev_llm::Error> {
        let settings = RequestSettings {
            model: self.model.to_owned(),
            max_tokens: PLANNER_MAX_TOKENS,
            temperature: 0.0,
        };
        let count = MAX_VARIANTS.to_string();
        let schema = JsonSchema {
            name: "searches".to_owned(),
            schema: serde_json::json!({
                "type": "object",
                "additionalProperties": false,
                "required": ["searches"],
                "properties": {
                    "searches": {
                        "type": "array",
                        "maxItems": MAX_VARIANTS,
                        "items": {
                            "type": "object",
                            "additionalProperties": false,
                            "required": ["terms", "aim"],
                            "properties": {
                                "terms": {
                                    "type": "array",
                                    "maxItems": MAX_TERMS,
                                    "items": {"type": "string"},
                                },
                                "aim": {"type": "string"},
                            },
                        },
                    },
                },
            }),
        };
        PLAN_QUERIES.request(
            &[("question", question.trim()), ("count", &count)],
            &settings,
            PLANNER_PHASE,
            schema,
        )
    }
}

/// The model's aim on one line of at most [`MAX_AIM_WORDS`] words (the review's method section
/// quotes it), without the quotes and brackets that would confuse the query it describes.
fn short_aim(aim: &str) -> Option<String> {
    let words: Vec<&str> = aim
        .split(|c: char| c.is_whitespace() || "\"()[]{}".contains(c))
        .filter(|word| word.chars().any(char::is_alphanumeric))
        .collect();
    let mut short = words
        .iter()
        .take(MAX_AIM_WORDS)
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    if words.len() > MAX_AIM_WORDS {
        short.push('…');
    }
    let short = short.trim_end_matches(['.', ';', ',']).to_owned();
    (!short.is_empty()).then_some(short)
}

/// A variant's query in the plan's syntax: each term a bare word or a `"…"~3` phrase, without
/// words naming the kind of review unless the question is about reviews; `None` when no term
/// is left or every word is one of the question's `key_terms` (its first query searches them
/// already).
fn variant_text(terms: &[String], key_terms: &[String]) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    let mut words_seen: Vec<String> = Vec::new();
    for term in terms {
        let words = term_words(term, key_terms);
        let rendered: Vec<String> = match words.len() {
            2..=MAX_PHRASE_WORDS => vec![format!("\"{}\"~3", words.join(" "))],
            _ => words.clone(),
        };
        for part in rendered {
            if parts.len() < MAX_TERMS && !parts.contains(&part) {
                parts.push(part);
            }
        }
        words_seen.extend(words);
    }
    let new_words = words_seen.iter().any(|word| !key_terms.contains(word));
    (new_words && !parts.is_empty()).then(|| parts.join(" "))
}

#[cfg(test)]
mod tests {
    use litrev_model::Tier;

    use super::*;
    use crate::scripted::Scripted;
    use crate::{PlanConfig, plan};

    fn question_plan() -> Plan {
        plan(
            "Emicizumab in haemophilia A: a systematic review",
            &PlanConfig::for_tier(Tier::Standard),
        )
    }

    fn extend(answer: Result<&'static str, litrev_llm::Error>) -> (Plan, PlannerReport) {
        let mut plan = question_plan();
        let model = Scripted {
            prompt: "plan_queries.v1",
            answer,
        };
        let planner = QueryPlanner {
            llm: &model,
            model: "scripted",
        };
        let report = planner.extend(&mut plan).expect("prompt fills");
        (plan, report)
    }

    #[test]
    fn terms_become_phrases_and_words_of_the_plan_syntax() {
        let (plan, report) = extend(Ok(r#"{"searches": [
            {"terms": ["ACE910", "bispecific antibody", "Factor VIII inhibitors", "Meta-analysis"], "aim": "the drug's other names"},
            {"terms": ["emicizumab", "haemophilia"], "aim": "the question again"},
            {"terms": ["systematic review"], "aim": "review words only"},
            {"terms": ["bleeding prophylaxis in people with haemophilia a and inhibitors"], "aim": ""}
        ]}"#));
        let before = question_plan().queries.len();
        let added: Vec<(&str, &str)> = plan.queries[before..]
            .iter()
            .map(|query| (query.text.as_str(), query.purpose.as_str()))
            .collect();
        assert_eq!(
            added,
            [
                (
                    "ace910 \"bispecific antibody\"~3 \"factor viii inhibitors\"~3",
                    "a language model's variant: the drug's other names"
                ),
                (
                    "bleeding prophylaxis people haemophilia inhibitors",
                    "a language model's variant"
                ),
            ]
        );
        assert_eq!(report.proposed, 4);
        assert_eq!(report.skipped, 2);
        let labels: Vec<String> = (before + 1..=before + 2).map(|n| format!("q{n}")).collect();
        assert_eq!(report.added, labels);
        assert_eq!(report.failure, None);
    }

    #[test]
    fn review_words_stay_in_the_variants_of_a_question_about_reviews() {
        let term = ["Systematic reviews of air pollution".to_owned()];
        let about_reviews = plan(
            "The methodological rigour of systematic reviews in environmental health",
            &PlanConfig::for_tier(Tier::Standard),
        );
        assert_eq!(
            variant_text(&term, &about_reviews.key_terms).as_deref(),
            Some("\"systematic reviews air pollution\"~3")
        );
        assert_eq!(
            variant_text(&term, &question_plan().key_terms).as_deref(),
            Some("\"air pollution\"~3")
        );
    }

    #[test]
    fn the_report_reads_as_one_line() {
        let (_, report) = extend(Ok(r#"{"searches": [
            {"terms": ["ace910"], "aim": "a"}, {"terms": ["emicizumab"], "aim": "the question"}
        ]}"#));
        assert_eq!(
            report.to_string(),
            "2 searches proposed, 1 added (q7), 1 left out (no new topic word, a repeat, or past the first 5)"
        );
        let failed = PlannerReport {
            failure: Some("no JSON".to_owned()),
            ..PlannerReport::default()
        };
        assert_eq!(
            failed.to_string(),
            "no variants (no JSON); the question's own queries run"
        );
        let refused = PlannerReport {
            over_budget: true,
            ..PlannerReport::default()
        };
        assert!(
            refused
                .to_string()
                .starts_with("the budget refused the call")
        );
    }

    #[test]
    fn aims_are_one_short_line() {
        assert_eq!(
            short_aim("  the drug's\n code name (ACE910).  ").as_deref(),
            Some("the drug's code name ACE910")
        );
        assert_eq!(
            short_aim("one two three four five six seven eight nine ten eleven twelve thirteen")
                .as_deref(),
            Some("one two three four five six seven eight nine ten eleven twelve…")
        );
        assert_eq!(short_aim(" \"\" "), None);
    }

    #[test]
    fn at_most_five_variants_and_no_repeats() {
        let (plan, report) = extend(Ok(r#"{"searches": [
            {"terms": ["ace910"], "aim": "a"}, {"terms": ["ace910"], "aim": "again"},
            {"terms": ["hemlibra"], "aim": "b"}, {"terms": ["fviii mimetic"], "aim": "c"},
            {"terms": ["inhibitors"], "aim": "d"}, {"terms": ["bleeding rate"], "aim": "e"},
            {"terms": ["prophylaxis"], "aim": "f"}
        ]}"#));
        assert_eq!(report.added.len(), MAX_VARIANTS);
        assert_eq!(report.skipped, 2, "the repeat and the sixth");
        assert_eq!(
            plan.queries.len(),
            question_plan().queries.len() + MAX_VARIANTS
        );
    }

    #[test]
    fn a_failed_call_or_answer_leaves_the_plan_as_it_was() {
        for answer in [
            Ok("I would search for ACE910."),
            Ok(r#"{"searches": "ace910"}"#),
            Err(litrev_llm::Error::NoJson {
                snippet: "…".to_owned(),
            }),
        ] {
            let (plan, report) = extend(answer);
            assert_eq!(plan, question_plan());
            assert!(report.added.is_empty());
            assert!(report.failure.is_some(), "{report:?}");
        }
        let (plan, report) = extend(Err(litrev_llm::Error::OverBudget {
            budget: 0.01,
            spent: 0.01,
            needed: 0.001,
            calls: 1,
            model: "scripted".to_owned(),
            suggested: 0.02,
        }));
        assert_eq!(plan, question_plan());
        assert!(report.over_budget && report.failure.is_none());
    }
}
