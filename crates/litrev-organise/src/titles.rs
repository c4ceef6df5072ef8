//! Theme titles: for each theme in review order, the phrase of its works' titles that sets it
//! apart from the other themes (`litrev_text::best_phrase`), no two themes ending on one head
//! word, with the acronyms it holds spelled out from the theme's own definitions. A theme whose
//! phrases all end on a head an earlier theme took takes its best phrase all the same ("Mental
//! health" after "Oral health"): a phrase sharing a head reads better than a list of words.

use std::collections::BTreeSet;

use litrev_text::{PhraseGroup, best_phrase, spell_out_acronyms};

/// A theme's works as the titles are chosen from them.
pub(crate) struct ThemeTexts<'a> {
    /// Each work's title.
    pub titles: Vec<&'a str>,
    /// Each work's title and abstract.
    pub texts: Vec<&'a str>,
}

/// A title per theme, in review order; `None` where no phrase of the theme's titles appears
/// in two of its works, or its only one is an earlier theme's title (the caller keeps its word
/// label then).
pub(crate) fn phrase_titles(themes: &[ThemeTexts<'_>]) -> Vec<Option<String>> {
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let mut chosen: BTreeSet<String> = BTreeSet::new();
    themes
        .iter()
        .enumerate()
        .map(|(index, theme)| {
            let others: Vec<&str> = themes
                .iter()
                .enumerate()
                .filter(|(other, _)| *other != index)
                .flat_map(|(_, other)| other.texts.iter().copied())
                .collect();
            let group = PhraseGroup {
                titles: &theme.titles,
                texts: &theme.texts,
            };
            let phrase = best_phrase(group, &others, themes.len(), &|head| taken.contains(head))
                .or_else(|| {
                    best_phrase(group, &others, themes.len(), &|_| false)
                        .filter(|phrase| !chosen.contains(&phrase.text.to_lowercase()))
                })?;
            taken.insert(phrase.head);
            chosen.insert(phrase.text.to_lowercase());
            let spelled = spell_out_acronyms(&phrase.text, &theme.texts);
            let mut characters = spelled.chars();
            characters
                .next()
                .map(|first| first.to_uppercase().chain(characters).collect())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn themes_take_titles_in_order_and_never_one_head_twice() {
        let knee = [
            "Stem cell injection for knee osteoarthritis",
            "Stem Cell Injection versus hyaluronic acid in knee osteoarthritis",
        ];
        let knee_again = [
            "Stem cell injection in knee osteoarthritis of athletes",
            "Knee osteoarthritis after stem cell injection",
        ];
        let themes = [
            ThemeTexts {
                titles: knee.to_vec(),
                texts: knee.to_vec(),
            },
            ThemeTexts {
                titles: knee_again.to_vec(),
                texts: knee_again.to_vec(),
            },
        ];
        let titles = phrase_titles(&themes);
        let first = titles[0].clone().expect("a title");
        let second = titles[1].clone().expect("a title");
        assert!(first.starts_with(char::is_uppercase), "{first}");
        let head = |title: &str| title.rsplit(' ').next().unwrap_or("").to_lowercase();
        assert_ne!(head(&first), head(&second), "{first} / {second}");
    }
}
