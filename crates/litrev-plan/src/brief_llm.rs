//! The research brief from a language model (seed S4 §4): the disciplines, methods and
//! population a question implies, and, for a question joining unrelated fields, its domains.
//!
//! The model only fills what nothing settled: a dimension the question states or a probe
//! derived stays as it is, and a question already split into domains (or kept whole by the
//! person's answer) is not split again. Its domains keep only the question's own topic terms,
//! so each domain's searches are made of the question's words. A call that fails, an answer
//! that does not parse, or a call the budget refuses leaves the brief as it was.

use litrev_llm::{JsonSchema, LlmRequest, PLAN_BRIEF, RequestSettings};
use litrev_model::{Domain, Grounds, Plan};
use serde::{Deserialize, Serialize};

use crate::variants::{PLANNER_PHASE, QueryPlanner};

/// Most tokens of the answer: a few short lists.
pub const BRIEF_MAX_TOKENS: u32 = 400;

/// Most entries of one list the brief keeps.
const MAX_ITEMS: usize = 5;

/// What the model's brief changed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BriefReport {
    /// The dimensions it filled (`disciplines`, `methods`, `population`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub filled: Vec<String>,
    /// The domains it split the question into (none: kept whole).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub domains: Vec<String>,
    /// Why no brief came back, when none did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Answer {
    #[serde(default)]
    disciplines: Vec<String>,
    #[serde(default)]
    methods: Vec<String>,
    #[serde(default)]
    population: Vec<String>,
    #[serde(default)]
    domains: Vec<AnswerDomain>,
}

#[derive(Debug, Deserialize)]
struct AnswerDomain {
    name: String,
    #[serde(default)]
    terms: Vec<String>,
}

impl QueryPlanner<'_> {
    /// Asks the model for `plan`'s brief and fills what nothing settled.
    ///
    /// # Errors
    /// When the prompt cannot be filled (a bug); a failed call or answer is reported, not
    /// returned.
    pub fn brief(&self, plan: &mut Plan) -> Result<BriefReport, litrev_llm::Error> {
        let request = self.brief_request(&plan.question)?;
        let answer = match self
            .llm
            .complete(&request)
            .and_then(|response| response.json::<Answer>())
        {
            Ok(answer) => answer,
            Err(error) => {
                return Ok(BriefReport {
                    failure: Some(error.to_string()),
                    ..BriefReport::default()
                });
            }
        };
        let mut report = BriefReport::default();
        let brief = &mut plan.brief;
        for (name, dimension, given) in [
            ("disciplines", &mut brief.disciplines, answer.disciplines),
            ("methods", &mut brief.methods, answer.methods),
            ("population", &mut brief.population, answer.population),
        ] {
            let given = cleaned(given);
            if dimension.basis == Grounds::Assumed && !given.is_empty() {
                dimension.value = given;
                dimension.basis = Grounds::Derived;
                report.filled.push(name.to_owned());
            }
        }
        // A question split already, or kept whole by the person's answer, stays as it is.
        let settled = !brief.domains.is_empty()
            || brief
                .clarifications
                .iter()
                .any(|clarification| clarification.answer.is_some());
        let domains: Vec<Domain> = answer
            .domains
            .into_iter()
            .map(|domain| Domain {
                name: domain.name.trim().to_owned(),
                key_terms: own_terms(&domain.terms, &plan.key_terms),
            })
            .filter(|domain| !domain.name.is_empty() && !domain.key_terms.is_empty())
            .take(MAX_ITEMS)
            .collect();
        if !settled && domains.len() >= 2 {
            report.domains = domains.iter().map(|domain| domain.name.clone()).collect();
            brief.domains = domains;
        }
        Ok(report)
    }

    fn brief_request(&self, question: &str) -> Result<LlmRequest, litrev_llm::Error> {
        let settings = RequestSettings {
            model: self.model.to_owned(),
            max_tokens: BRIEF_MAX_TOKENS,
            temperature: 0.0,
        };
        let list = serde_json::json!({"type": "array", "maxItems": MAX_ITEMS, "items": {"type": "string"}});
        let schema = JsonSchema {
            name: "brief".to_owned(),
            schema: serde_json::json!({
                "type": "object",
                "additionalProperties": false,
                "required": ["disciplines", "methods", "population", "domains"],
                "properties": {
                    "disciplines": list,
                    "methods": list,
                    "population": list,
                    "domains": {
                        "type": "array",
                        "maxItems": MAX_ITEMS,
                        "items": {
                            "type": "object",
                            "additionalProperties": false,
                            "required": ["name", "terms"],
                            "properties": {"name": {"type": "string"}, "terms": list},
                        },
                    },
                },
            }),
        };
        PLAN_BRIEF.request(
            &[("question", question.trim())],
            &settings,
            PLANNER_PHASE,
            schema,
        )
    }
}

/// A list as the brief keeps it: trimmed, non-empty, each once, at most [`MAX_ITEMS`].
fn cleaned(items: Vec<String>) -> Vec<String> {
    let mut kept: Vec<String> = Vec::new();
    for item in items {
        let item = item.trim().to_owned();
        if !item.is_empty() && !kept.contains(&item) && kept.len() < MAX_ITEMS {
            kept.push(item);
        }
    }
    kept
}

/// The question's topic terms among a domain's terms (each term's words matched as the plan
/// writes them), in the question's order.
fn own_terms(terms: &[String], key_terms: &[String]) -> Vec<String> {
    let words: Vec<String> = terms
        .iter()
        .flat_map(|term| crate::topic_words(term))
        .collect();
    key_terms
        .iter()
        .filter(|term| words.contains(term))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use litrev_model::Tier;

    use super::*;
    use crate::scripted::Scripted;
    use crate::{PlanConfig, plan, split_into_domains};

    const QUESTION: &str =
        "Emicizumab pharmacokinetics in haemophilia A, and the rodent object-in-context task";

    /// The brief of `plan` as a scripted model answering `answer` gives it.
    fn ask(plan: &mut Plan, answer: &'static str) -> BriefReport {
        QueryPlanner {
            llm: &Scripted {
                prompt: "plan_brief.v1",
                answer: Ok(answer),
            },
            model: "scripted",
        }
        .brief(plan)
        .expect("asked")
    }

    #[test]
    fn the_model_fills_what_nothing_settled_and_splits_unrelated_fields() {
        let mut plan = plan(QUESTION, &PlanConfig::for_tier(Tier::Standard));
        let answer = r#"{"disciplines": ["Medicine", "Neuroscience", "Medicine"],
            "methods": [" ", "pharmacokinetic studies"], "population": [],
            "domains": [
              {"name": "Haemophilia pharmacology", "terms": ["emicizumab", "pharmacokinetics", "haemophilia"]},
              {"name": "Rodent memory", "terms": ["object-in-context task", "rats"]},
              {"name": "Invented", "terms": ["quantum"]}]}"#;
        let report = ask(&mut plan, answer);
        // The disciplines are the model's; the methods the question states stay its own, and
        // the population, which the model did not name, stays assumed.
        assert_eq!(report.filled, ["disciplines"]);
        assert_eq!(plan.brief.disciplines.value, ["Medicine", "Neuroscience"]);
        assert_eq!(plan.brief.disciplines.basis, Grounds::Derived);
        assert_eq!(plan.brief.methods.basis, Grounds::Stated);
        assert_eq!(plan.brief.population.basis, Grounds::Assumed);
        // Two domains of the question's own terms; the one naming none of them is dropped.
        assert_eq!(
            report.domains,
            ["Haemophilia pharmacology", "Rodent memory"]
        );
        for domain in &plan.brief.domains {
            assert!(
                domain
                    .key_terms
                    .iter()
                    .all(|term| plan.key_terms.contains(term)),
                "{domain:?}"
            );
        }
        let before = plan.queries.len();
        split_into_domains(&mut plan, 2026);
        assert!(plan.queries.len() > before, "each domain gets searches");

        // Asked again, a split question is not split again, and a failed answer changes nothing.
        let again = ask(&mut plan, answer);
        assert!(again.domains.is_empty() && again.filled.is_empty());
        let failed = ask(&mut plan, "not JSON");
        assert!(failed.failure.is_some());
    }
}
