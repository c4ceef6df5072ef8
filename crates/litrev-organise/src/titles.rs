//! Theme titles a person would write: noun phrases of the theme's own titles ("Emicizumab
//! prophylaxis", "Bone mineral density"), not lists of words ("Factor, antibody and anti").
//!
//! Candidates are the word runs of the works' titles between punctuation, two to six words
//! long, opening and closing on content words (function words such as "of", "in" and "with"
//! only inside): titles are written as noun phrases, so their runs are mostly noun phrases,
//! without a part-of-speech tagger. A candidate must appear, as a phrase, in at least two of the
//! theme's works (title or abstract). Each is scored by class-based TF-IDF (the share of the
//! theme's works using it against how many works of the whole review do, as BERTopic's
//! c-TF-IDF), a little in favour of longer phrases; themes take their titles in review order,
//! and no two share a head word (the phrase's last word). An acronym in a title is spelled out
//! from the works' own definitions ("people with haemophilia A (PwHA)"), found as Schwartz and
//! Hearst (2003) find them.

use std::collections::{BTreeMap, BTreeSet};

use litrev_text::{is_generic, is_stopword, stem};

use crate::most_common_surface;

/// Words a phrase may hold inside but neither open nor close on.
const CONNECTORS: &[&str] = &[
    "a", "an", "and", "after", "among", "by", "for", "from", "in", "of", "on", "the", "to", "with",
    "without", "versus", "vs",
];

/// The longest phrase, in words.
const MAX_WORDS: usize = 6;

/// A theme's works as the titles are chosen from them.
pub(crate) struct ThemeTexts<'a> {
    /// Each work's title.
    pub titles: Vec<&'a str>,
    /// Each work's title and abstract.
    pub texts: Vec<&'a str>,
}

/// A title per theme, in review order; `None` where no phrase of the theme's titles appears
/// in two of its works (the caller keeps its word label then).
pub(crate) fn phrase_titles(themes: &[ThemeTexts<'_>]) -> Vec<Option<String>> {
    let documents: Vec<Vec<Vec<String>>> = themes
        .iter()
        .map(|theme| theme.texts.iter().map(|text| lower_words(text)).collect())
        .collect();
    let total_works: usize = documents.iter().map(Vec::len).sum();
    let average = total_works as f64 / themes.len().max(1) as f64;
    let mut used_heads: BTreeSet<String> = BTreeSet::new();
    themes
        .iter()
        .zip(&documents)
        .map(|(theme, docs)| {
            let mut candidates: BTreeMap<Vec<String>, BTreeMap<String, usize>> = BTreeMap::new();
            for title in &theme.titles {
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
                .filter_map(|(key, surfaces)| {
                    let here = docs.iter().filter(|doc| contains(doc, &key)).count();
                    if here < 2 {
                        return None;
                    }
                    let everywhere: usize = documents
                        .iter()
                        .map(|docs| docs.iter().filter(|doc| contains(doc, &key)).count())
                        .sum();
                    let share = here as f64 / docs.len() as f64;
                    let distinct = (1.0 + average / everywhere as f64).ln();
                    let length = (key.len() as f64).sqrt();
                    let surface = most_common_surface(&surfaces);
                    Some((share * distinct * length, key, surface))
                })
                .collect();
            scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
            let (_, key, surface) = scored
                .into_iter()
                .find(|(_, key, _)| !used_heads.contains(&head(key)))?;
            used_heads.insert(head(&key));
            Some(capitalised(&spell_out_acronyms(&surface, &theme.texts)))
        })
        .collect()
}

/// A phrase's head: the stem of its last word.
fn head(key: &[String]) -> String {
    key.last().map(|word| stem(word)).unwrap_or_default()
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
    let (Some(first), Some(last)) = (words.first(), words.last()) else {
        return false;
    };
    is_content(first)
        && is_content(last)
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

/// The phrase with its first letter capitalised, and lower-cased words of a Title Case title
/// lowered again ("Bone Mineral Density" → "Bone mineral density"); acronyms and names with
/// capitals inside stay as written.
fn capitalised(phrase: &str) -> String {
    let words: Vec<String> = phrase
        .split(' ')
        .enumerate()
        .map(|(index, word)| {
            let mut characters = word.chars();
            let first = characters.next();
            let rest: String = characters.collect();
            let plain_capital = first.is_some_and(char::is_uppercase)
                && rest.chars().all(|c| c.is_lowercase() || c == '-')
                && !rest.is_empty();
            match first {
                Some(first) if index == 0 => first.to_uppercase().chain(rest.chars()).collect(),
                Some(first) if plain_capital => first.to_lowercase().chain(rest.chars()).collect(),
                _ => word.to_owned(),
            }
        })
        .collect();
    words.join(" ")
}

/// Each acronym of the phrase that the texts define ("long form (SF)") written as its long
/// form with the acronym after it, once.
fn spell_out_acronyms(phrase: &str, texts: &[&str]) -> String {
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
        .map(|(short, longs)| (short, most_common_surface(&longs)))
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
    fn titles_are_phrases_two_works_use_and_no_two_share_a_head() {
        let knee = ThemeTexts {
            titles: vec![
                "Stem cell injection for knee osteoarthritis: a randomised trial",
                "Stem Cell Injection versus hyaluronic acid in knee osteoarthritis",
                "Knee osteoarthritis after stem cell injection",
            ],
            texts: vec![
                "Stem cell injection for knee osteoarthritis: a randomised trial",
                "Stem Cell Injection versus hyaluronic acid in knee osteoarthritis",
                "Knee osteoarthritis after stem cell injection",
            ],
        };
        let hip = ThemeTexts {
            titles: vec![
                "Hip osteoarthritis and walking",
                "Walking in hip osteoarthritis",
            ],
            texts: vec![
                "Hip osteoarthritis and walking",
                "Walking in hip osteoarthritis",
            ],
        };
        let titles = phrase_titles(&[knee, hip]);
        assert_eq!(titles[0].as_deref(), Some("Stem cell injection"));
        // "Hip osteoarthritis" would share the head "osteoarthritis" with nothing chosen, but
        // the knee theme took "injection": both may end as they like, just not alike.
        assert_eq!(titles[1].as_deref(), Some("Hip osteoarthritis"));
        let lone = ThemeTexts {
            titles: vec!["Walking speed", "Reading"],
            texts: vec!["Walking speed", "Reading"],
        };
        assert_eq!(phrase_titles(&[lone]), [None], "no phrase in two works");
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
}
