//! Markdown escaping of hostile text: no panic, nothing lost, and nothing left that Pandoc
//! would read as a citation or markup.

use litrev_publish::escape;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn escaped_text_keeps_every_letter_and_opens_no_citation(
        text in litrev_testkit::hostile::text_with(vec!["[@key]", "@", "*", "_", "`", "1.", "#"], 30)
    ) {
        let escaped = escape(&text);
        let letters = |text: &str| text.chars().filter(|c| c.is_alphanumeric()).collect::<String>();
        prop_assert_eq!(letters(&escaped), letters(&text));
        prop_assert!(!escaped.contains("[@"), "{escaped:?}");
    }
}
