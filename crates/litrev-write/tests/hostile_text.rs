//! Evidence spans of hostile abstracts: each span is the verbatim text at its offsets, on char
//! boundaries, in order and disjoint, whatever the abstract holds.

use litrev_model::Work;
use litrev_write::spans_of;
use proptest::prelude::*;

const ABSTRACT_WORDS: &[&str] = &[
    "Background:",
    "Methods",
    "Results The",
    "Conclusions:",
    "we found",
    "no significant",
    "increased",
    "adverse events",
    "This suggests",
    "However,",
    "To review",
    "Copyright ©",
    "Key Points",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn spans_are_verbatim_ordered_and_disjoint(
        text in litrev_testkit::hostile::text_with(ABSTRACT_WORDS.to_vec(), 40)
    ) {
        let mut work = Work::stub("W1".parse().expect("an OpenAlex id"));
        work.abstract_text = Some(text.clone());
        let spans = spans_of(&work);
        let mut previous_end = 0;
        for (index, span) in spans.iter().enumerate() {
            let locator = &span.locator;
            prop_assert_eq!(locator.sentence, index);
            prop_assert!(previous_end <= locator.start && locator.start < locator.end);
            prop_assert_eq!(text.get(locator.start..locator.end), Some(span.text.as_str()));
            previous_end = locator.end;
        }
    }
}
