//! Plans from hostile questions: no panic, and every query the plan holds says something.

use litrev_model::Tier;
use litrev_plan::{PlanConfig, plan};
use proptest::prelude::*;

const QUESTION_WORDS: &[&str] = &[
    "systematic review",
    "meta-analysis",
    "scoping review",
    "of",
    "the",
    "in",
    "and",
    "or",
    "not",
    "\"",
    "AND",
    "OR",
    "NOT",
    "(",
    ")",
    "*",
    "children",
    "effects",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn every_query_of_a_plan_has_words(
        question in litrev_testkit::hostile::text_with(QUESTION_WORDS.to_vec(), 20)
    ) {
        let planned = plan(&question, &PlanConfig::for_tier(Tier::Quick));
        for query in &planned.queries {
            prop_assert!(!query.text.trim().is_empty(), "{:?} from {question:?}", planned.queries);
        }
    }
}
