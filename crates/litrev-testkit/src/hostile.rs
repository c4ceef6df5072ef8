//! Hostile text for property tests: the pieces real records carry that break naive slicing
//! (the [`PIECES`] `litrev bench sweep` puts into records too), mixed with the words a function
//! under test knows.

use proptest::prelude::*;

pub use litrev_bench_server::hostile::PIECES;

/// One piece: a hostile one, a word the caller's code knows (in lower, Title or UPPER case,
/// maybe with a colon), a very long word, or arbitrary text.
fn piece(known: Vec<&'static str>) -> BoxedStrategy<String> {
    let hostile = proptest::sample::select(PIECES).prop_map(str::to_owned);
    let long_word = (1usize..400).prop_map(|length| "x".repeat(length));
    let any_text = proptest::string::string_regex("(?s).{0,12}")
        .expect("a valid regex")
        .boxed();
    if known.is_empty() {
        return prop_oneof![4 => hostile, 1 => long_word, 2 => any_text].boxed();
    }
    let known_word =
        (proptest::sample::select(known), 0u8..4, any::<bool>()).prop_map(|(word, case, colon)| {
            let mut word = match case {
                0 => word.to_owned(),
                1 => word.to_uppercase(),
                _ => title_case(word),
            };
            if colon {
                word.push(':');
            }
            word
        });
    prop_oneof![4 => hostile, 3 => known_word, 1 => long_word, 2 => any_text].boxed()
}

fn title_case(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// Text made of up to `max_pieces` pieces, joined by nothing or by white space, so pieces sit
/// next to each other, at the start and at the end.
pub fn text_with(known: Vec<&'static str>, max_pieces: usize) -> BoxedStrategy<String> {
    proptest::collection::vec((piece(known), 0u8..3), 0..max_pieces)
        .prop_map(|pieces| {
            let mut text = String::new();
            for (piece, joint) in pieces {
                text.push_str(&piece);
                match joint {
                    0 => {}
                    1 => text.push(' '),
                    _ => text.push_str(" Word "),
                }
            }
            text
        })
        .boxed()
}

/// Hostile text of up to 40 pieces, with no words of the caller's own.
pub fn text() -> BoxedStrategy<String> {
    text_with(Vec::new(), 40)
}
