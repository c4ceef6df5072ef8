//! Phrases a person would write for what a group of works is about: noun phrases of the
//! works' own titles ("Emicizumab prophylaxis", "Bone mineral density"), not lists of words.
//! Theme titles (organise) and paragraph topics (write) are chosen the same way, one level
//! apart.
//!
//! Candidates are the word runs of the group's titles between punctuation, two to six words
//! long, opening and closing on content words (function words such as "of", "in" and "with"
//! only inside): titles are written as noun phrases, so their runs are mostly noun phrases,
//! without a part-of-speech tagger. A candidate must appear, as a phrase, in at least two of the
//! group's works (title or abstract). Each is scored by class-based TF-IDF (the share of the
//! group's works using it against how many works of all groups do, as BERTopic's c-TF-IDF), a
//! little in favour of longer phrases, and its head (last word) must be one no earlier group
//! took. An acronym is spelled out from the works' own definitions ("people with haemophilia A
//! (PwHA)"), found as Schwartz and Hearst (2003) find them.

use std::collections::BTreeMap;

use crate::{is_generic, is_stopword};

/// Words a phrase may hold inside but neither open nor close on.
const CONNECTORS: &[&str] = &[
    "a", "an", "and", "after", "among", "by", "for", "from", "in", "of", "on", "the", "to", "with",
    "without", "versus", "vs",
];

/// Adjectives that open a phrase ("severe bleeding") but never close one ("patients with
/// severe").
const NO_END: &[&str] = &[
    "severe",
    "mild",
    "moderate",
    "chronic",
    "acute",
    "early",
    "late",
    "high",
    "low",
    "long",
    "short",
    "large",
    "small",
    "major",
    "minor",
    "prior",
    "previous",
    "different",
    "several",
];

/// Words that neither open nor close a phrase, though no stopword list has them: quantifiers
/// and the participles titles hang clauses on ("emicizumab given every…").
const NO_EDGE: &[&str] = &[
    "all",
    "both",
    "each",
    "every",
    "per",
    "than",
    "via",
    "given",
    "using",
    "based",
    "including",
    "compared",
    "receiving",
    "treated",
    "new",
    "novel",
];

/// The longest phrase, in words.
const MAX_WORDS: usize = 6;

/// A group of works to find a phrase for.
#[derive(Debug, Clone, Copy)]
pub struct PhraseGroup<'a> {
    /// Each work's title.
    pub titles: &'a [&'a str],
    /// Each work's title and abstract.
    pub texts: &'a [&'a str],
}

/// A phrase chosen for a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phrase {
    /// As it reads inside a sentence: a Title Case word is lower-cased when the texts also
    /// write it so ("Stem Cell Injection" → "stem cell injection"); acronyms and names stay.
    pub text: String,
    /// Its last word, lower-cased: no two groups' phrases share one.
    pub head: String,
}

/// The best phrase of `group` against the works of the other groups (`others`, of `classes`
/// groups in all), whose head `taken` does not hold; `None` when no phrase of its titles
/// appears in two of its works (or in its one work, for a group of one).
pub fn best_phrase(
    group: PhraseGroup<'_>,
    others: &[&str],
    classes: usize,
    taken: &dyn Fn(&str) -> bool,
) -> Option<Phrase> {
    let docs: Vec<Vec<String>> = group.texts.iter().map(|text| lower_words(text)).collect();
    let other_docs: Vec<Vec<String>> = others.iter().map(|text| lower_words(text)).collect();
    let average = (docs.len() + other_docs.len()) as f64 / classes.max(1) as f64;
    let needed = 2.min(docs.len());
    let mut candidates: BTreeMap<Vec<String>, BTreeMap<String, usize>> = BTreeMap::new();
    for title in group.titles {
        for (key, surface) in title_phrases(title) {
            *candidates
                .entry(key)
                .or_default()
                .entry(surface)
                .or_default() += 1;
        }
    }
    let mut scored: Vec<(f64, Vec<String>, String)> = candidates
        .into_iter()
        .filter(|(key, _)| key.last().is_some_and(|head| !taken(head)))
        .filter_map(|(key, surfaces)| {
            let here = docs.iter().filter(|doc| contains(doc, &key)).count();
            if here < needed || here == 0 {
                return None;
            }
            let everywhere = here + other_docs.iter().filter(|doc| contains(doc, &key)).count();
            let share = here as f64 / docs.len() as f64;
            let distinct = (1.0 + average / everywhere as f64).ln();
            let length = (key.len() as f64).sqrt();
            Some((share * distinct * length, key, most_common(&surfaces)))
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let (_, key, surface) = scored.into_iter().next()?;
    Some(Phrase {
        text: in_sentence(&surface, &docs),
        head: key.last().cloned().unwrap_or_default(),
    })
}

/// The candidate phrases of a title: lower-cased words (the key) and the title's spelling.
fn title_phrases(title: &str) -> Vec<(Vec<String>, String)> {
    let mut out = Vec::new();
    for clause in title.split(|c: char| ".,;:!?()[]{}\"“”|".contains(c) || c == '—' || c == '–')
    {
        let words: Vec<&str> = clause
            .split_whitespace()
            .map(|word| word.trim_matches(|c: char| !c.is_alphanumeric()))
            .filter(|word| !word.is_empty())
            .collect();
        for start in 0..words.len() {
            for end in start + 2..=(start + MAX_WORDS).min(words.len()) {
                let run = &words[start..end];
                let lower: Vec<String> = run.iter().map(|word| word.to_lowercase()).collect();
                if is_phrase(&lower) {
                    out.push((lower, run.join(" ")));
                }
            }
        }
    }
    out
}

/// Whether lower-cased words make a title phrase: content words at both ends, connectors or
/// content words inside, no number alone, and not made of generic words only.
fn is_phrase(words: &[String]) -> bool {
    let is_content = |word: &String| {
        !is_stopword(word)
            && !CONNECTORS.contains(&word.as_str())
            && word.chars().any(char::is_alphabetic)
    };
    let is_edge = |word: &String| is_content(word) && !NO_EDGE.contains(&word.as_str());
    let (Some(first), Some(last)) = (words.first(), words.last()) else {
        return false;
    };
    is_edge(first)
        && is_edge(last)
        && !NO_END.contains(&last.as_str())
        && words
            .iter()
            .all(|word| is_content(word) || CONNECTORS.contains(&word.as_str()))
        && words
            .iter()
            .filter(|word| is_content(word))
            .any(|word| !is_generic(word))
        && !is_generic(last)
}

/// A text's words, lower-cased, punctuation marking no word.
fn lower_words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .map(|word| word.trim_matches('-').to_lowercase())
        .filter(|word| !word.is_empty())
        .collect()
}

/// Whether `words` holds `phrase` as consecutive words.
fn contains(words: &[String], phrase: &[String]) -> bool {
    words.windows(phrase.len()).any(|window| window == phrase)
}

/// The spelling a form is most often written in (the first by order among equals).
pub fn most_common(forms: &BTreeMap<String, usize>) -> String {
    forms
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        .map(|(form, _)| form.clone())
        .unwrap_or_default()
}

/// The phrase as it reads mid-sentence: each capitalised word with no other capital that the
/// texts also write lower-case is lower-cased.
fn in_sentence(phrase: &str, docs: &[Vec<String>]) -> String {
    phrase
        .split(' ')
        .map(|word| {
            let mut characters = word.chars();
            // One capital alone ("haemophilia A") is a name, not a capitalised word.
            let plain_capital = characters.next().is_some_and(char::is_uppercase)
                && word.chars().count() > 1
                && characters.all(|c| c.is_lowercase() || c == '-');
            let lower = word.to_lowercase();
            let written_lower = || docs.iter().any(|doc| doc.contains(&lower));
            if plain_capital && written_lower() {
                lower
            } else {
                word.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Each acronym of the phrase that the texts define ("long form (SF)") written as its long
/// form with the acronym after it, once.
pub fn spell_out_acronyms(phrase: &str, texts: &[&str]) -> String {
    let definitions = definitions(texts);
    phrase
        .split(' ')
        .map(|word| match definitions.get(word) {
            Some(long) if !phrase.to_lowercase().contains(&long.to_lowercase()) => {
                format!("{long} ({word})")
            }
            _ => word.to_owned(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The acronyms the texts define, each with its most common long form: Schwartz and Hearst's
/// algorithm (a short form in brackets; its characters matched right to left within the words
/// before it, its first character opening a word).
fn definitions(texts: &[&str]) -> BTreeMap<String, String> {
    let mut found: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for text in texts {
        let mut rest = *text;
        let mut offset = 0;
        while let Some(open) = rest.find('(') {
            let after = &rest[open + 1..];
            let Some(close) = after.find(')') else { break };
            let short = after[..close].trim();
            let before = &text[..offset + open];
            if is_short_form(short)
                && let Some(long) = long_form(short, before)
            {
                *found
                    .entry(short.to_owned())
                    .or_default()
                    .entry(long)
                    .or_default() += 1;
            }
            offset += open + 1;
            rest = &text[offset..];
        }
    }
    found
        .into_iter()
        .map(|(short, longs)| (short, most_common(&longs)))
        .collect()
}

/// A short form: 2 to 10 characters, one word, starting with a letter or digit, with a capital.
fn is_short_form(short: &str) -> bool {
    (2..=10).contains(&short.chars().count())
        && !short.contains(char::is_whitespace)
        && short.starts_with(char::is_alphanumeric)
        && short.chars().any(char::is_uppercase)
}

/// The long form of `short` among the last words of `before`, if its characters can be found
/// there right to left, the first opening a word; at most min(|short| + 5, 2 × |short|) words.
fn long_form(short: &str, before: &str) -> Option<String> {
    let limit = (short.chars().count() + 5).min(2 * short.chars().count());
    let words: Vec<&str> = before.split_whitespace().rev().take(limit).collect();
    let candidate: String = words.into_iter().rev().collect::<Vec<_>>().join(" ");
    let long: Vec<char> = candidate.chars().collect();
    let short: Vec<char> = short.chars().map(|c| c.to_ascii_lowercase()).collect();
    let mut long_index = long.len();
    for (position, wanted) in short.iter().enumerate().rev() {
        if !wanted.is_alphanumeric() {
            continue;
        }
        loop {
            if long_index == 0 {
                return None;
            }
            long_index -= 1;
            let here = long[long_index].to_ascii_lowercase();
            let opens_word = long_index == 0 || !long[long_index - 1].is_alphanumeric();
            if here == *wanted && (position > 0 || opens_word) {
                break;
            }
        }
    }
    let start = long[..long_index]
        .iter()
        .rposition(|c| c.is_whitespace())
        .map_or(0, |space| space + 1);
    let text: String = long[start..].iter().collect();
    let text = text.trim().trim_end_matches(|c: char| !c.is_alphanumeric());
    (text.split_whitespace().count() >= 2 && text.len() > short.len()).then(|| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_capitals_stay_and_quantifiers_end_no_phrase() {
        let docs = vec![lower_words("a cut in haemophilia a")];
        assert_eq!(in_sentence("Haemophilia A", &docs), "haemophilia A");
        let phrases: Vec<String> = title_phrases("Emicizumab given every week")
            .into_iter()
            .map(|(_, surface)| surface)
            .collect();
        assert!(
            !phrases.iter().any(|phrase| phrase.ends_with("every")),
            "{phrases:?}"
        );
        assert!(
            !phrases.iter().any(|phrase| phrase.ends_with("given")),
            "{phrases:?}"
        );
    }

    #[test]
    fn acronyms_are_found_as_schwartz_and_hearst_find_them() {
        let texts = [
            "Emicizumab in people with haemophilia A (PwHA) and inhibitors.",
            "Bone mineral density (BMD) fell in men.",
            "A cut (in two) is no acronym.",
        ];
        let found = definitions(&texts);
        assert_eq!(found["PwHA"], "people with haemophilia A");
        assert_eq!(found["BMD"], "Bone mineral density");
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(
            spell_out_acronyms("Emicizumab prophylaxis in PwHA", &texts),
            "Emicizumab prophylaxis in people with haemophilia A (PwHA)"
        );
    }

    #[test]
    fn a_phrase_is_used_by_two_works_distinct_of_the_others_and_not_taken() {
        let knee_titles = [
            "Stem cell injection for knee osteoarthritis: a randomised trial",
            "Stem Cell Injection versus hyaluronic acid in knee osteoarthritis",
            "Knee osteoarthritis after stem cell injection",
        ];
        let hip = [
            "Hip osteoarthritis and walking",
            "Walking in hip osteoarthritis",
        ];
        let group = PhraseGroup {
            titles: &knee_titles,
            texts: &knee_titles,
        };
        let free = |_: &str| false;
        let best = best_phrase(group, &hip, 2, &free).expect("a phrase");
        assert_eq!(best.text, "stem cell injection");
        assert_eq!(best.head, "injection");
        let taken = |head: &str| head == "injection";
        let next = best_phrase(group, &hip, 2, &taken).expect("another phrase");
        assert_eq!(next.text, "knee osteoarthritis");
        let lone = ["Walking speed", "Reading"];
        let group = PhraseGroup {
            titles: &lone,
            texts: &lone,
        };
        assert_eq!(
            best_phrase(group, &hip, 2, &free),
            None,
            "no phrase in two works"
        );
    }

    #[test]
    fn phrases_open_and_close_on_content_words() {
        let phrases: Vec<String> = title_phrases("Effects of emicizumab on bleeding in children")
            .into_iter()
            .map(|(_, surface)| surface)
            .collect();
        assert!(
            phrases.contains(&"emicizumab on bleeding".to_owned()),
            "{phrases:?}"
        );
        assert!(
            !phrases.iter().any(|phrase| phrase.ends_with(" in")),
            "{phrases:?}"
        );
        assert!(
            !phrases.iter().any(|phrase| phrase.starts_with("of ")),
            "{phrases:?}"
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]

        #[test]
        fn hostile_titles_give_a_phrase_of_their_own_words_or_none(
            a in litrev_testkit::hostile::text_with(vec!["of", "in", "(", ")", "PwHA"], 12),
            b in litrev_testkit::hostile::text_with(vec!["of", "in", "(", ")", "PwHA"], 12),
        ) {
            let texts = [a.as_str(), b.as_str()];
            let group = PhraseGroup { titles: &texts, texts: &texts };
            if let Some(phrase) = best_phrase(group, &texts, 2, &|_| false) {
                let lower = format!("{a} {b}").to_lowercase();
                for word in phrase.text.split(' ') {
                    proptest::prop_assert!(lower.contains(&word.to_lowercase()), "{word}");
                }
            }
            let spelled = spell_out_acronyms(&a, &texts);
            for word in a.split(' ') {
                proptest::prop_assert!(spelled.contains(word), "{word} lost from {spelled}");
            }
        }
    }
}
