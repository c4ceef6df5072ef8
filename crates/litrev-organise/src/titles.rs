//! Theme titles: for each theme in review order, a phrase of its works' titles that two of
//! them use, no two themes ending on one head word, with the acronyms it holds spelled out from
//! the theme's own definitions. The candidates come ranked by how they set the theme apart in
//! words (`litrev_text::ranked_phrases`, class-based TF-IDF); with sentence embeddings, the one
//! whose meaning best tells the theme's works from the others' is chosen ([`tells_apart`]),
//! as BERTopic's KeyBERTInspired re-ranks its c-TF-IDF words by meaning: a phrase that names
//! two works of twenty ("Childhood trauma") gives way to one that names the theme. A theme
//! whose phrases all end on a head an earlier theme took takes its best phrase all the same
//! ("Mental health" after "Oral health"): a phrase sharing a head reads better than a list of
//! words.

use std::collections::BTreeSet;

use litrev_text::{Phrase, PhraseGroup, ranked_phrases, spell_out_acronyms};

use crate::semantic::dot;

/// Embeds short texts with the model that embedded the works, one unit vector per text in
/// order; `None` when the model fails (the titles then keep the TF-IDF order).
pub type EmbedPhrases<'a> = &'a dyn Fn(&[&str]) -> Option<Vec<Vec<f32>>>;

/// A theme's works as the titles are chosen from them.
pub(crate) struct ThemeTexts<'a> {
    /// Each work's title.
    pub titles: Vec<&'a str>,
    /// Each work's title and abstract.
    pub texts: Vec<&'a str>,
    /// Each work's embedding, when every work has one.
    pub vectors: Option<Vec<&'a [f32]>>,
}

/// How many of a theme's abstract phrases, best in words, are weighed by meaning when no
/// phrase of its titles can title it: embedding every phrase of a theme's abstracts would cost
/// more than the theme's whole organisation.
const ABSTRACT_CANDIDATES: usize = 20;

/// A title per theme, in review order: a phrase of its titles, or when none is left one of
/// its abstracts; `None` where no phrase of either appears in two of its works, or its only
/// ones are earlier themes' titles (the caller keeps its word label then).
pub(crate) fn phrase_titles(
    themes: &[ThemeTexts<'_>],
    embed: Option<EmbedPhrases<'_>>,
) -> Vec<Option<String>> {
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
            let pick = |candidates: Vec<(f64, Phrase)>| match embed {
                Some(embed) => by_meaning(candidates, themes, index, embed),
                None => candidates.into_iter().next().map(|(_, phrase)| phrase),
            };
            let phrase = pick(ranked_phrases(group, &others, themes.len(), &|head| {
                taken.contains(head)
            }))
            .or_else(|| {
                pick(
                    ranked_phrases(group, &others, themes.len(), &|_| false)
                        .into_iter()
                        .filter(|(_, phrase)| !chosen.contains(&phrase.text.to_lowercase()))
                        .collect(),
                )
            })
            .or_else(|| {
                // No phrase of the titles is left ("Cancer statistics, 2012" beside a theme
                // titled "Cancer statistics"): one that two works' abstracts use, of the
                // best few in words.
                let abstracts = PhraseGroup {
                    titles: &theme.texts,
                    texts: &theme.texts,
                };
                pick(
                    ranked_phrases(abstracts, &others, themes.len(), &|head| {
                        taken.contains(head)
                    })
                    .into_iter()
                    .filter(|(_, phrase)| !chosen.contains(&phrase.text.to_lowercase()))
                    .take(ABSTRACT_CANDIDATES)
                    .collect(),
                )
            })?;
            taken.insert(phrase.head);
            chosen.insert(phrase.text.to_lowercase());
            Some(crate::capitalised(&spell_out_acronyms(
                &phrase.text,
                &theme.texts,
            )))
        })
        .collect()
}

/// Of `candidates` (scored and ranked in words) for theme `index`, the one that both sets the
/// theme apart in words and, by its embedding, tells the theme's works from the other themes'
/// ([`tells_apart`]): the product of its score in words and how far it tells them apart
/// better than chance. The first in words on a tie, and when the works or the phrases have
/// no embeddings.
fn by_meaning(
    candidates: Vec<(f64, Phrase)>,
    themes: &[ThemeTexts<'_>],
    index: usize,
    embed: EmbedPhrases<'_>,
) -> Option<Phrase> {
    let first = |candidates: Vec<(f64, Phrase)>| candidates.into_iter().next().map(|(_, p)| p);
    let Some(own) = themes[index].vectors.as_deref() else {
        return first(candidates);
    };
    let rest: Option<Vec<&[f32]>> = themes
        .iter()
        .enumerate()
        .filter(|(other, _)| *other != index)
        .map(|(_, theme)| theme.vectors.as_deref())
        .collect::<Option<Vec<_>>>()
        .map(|vectors| vectors.concat());
    let (Some(rest), true) = (rest, candidates.len() > 1) else {
        return first(candidates);
    };
    let texts: Vec<&str> = candidates
        .iter()
        .map(|(_, phrase)| phrase.text.as_str())
        .collect();
    let Some(vectors) = embed(&texts).filter(|vectors| vectors.len() == candidates.len()) else {
        return first(candidates);
    };
    let mut best: Option<(f64, Phrase)> = None;
    for ((in_words, phrase), vector) in candidates.into_iter().zip(&vectors) {
        let score = in_words * (tells_apart(vector, own, &rest) - 0.5).max(0.0);
        if best.as_ref().is_none_or(|(top, _)| score > *top) {
            best = Some((score, phrase));
        }
    }
    best.map(|(_, phrase)| phrase)
}

/// How well `phrase` tells `own` works from `rest`: the share of (own, other) pairs in which
/// the phrase is closer to the own work (ties count half), the area under the ROC curve of
/// ranking every work by its cosine to the phrase. A phrase that names what the whole theme is
/// about and what the others are not scores near 1; one that names two of its works, or the
/// subject every theme shares, near 0.5. With no works on either side, 0.5.
pub(crate) fn tells_apart(phrase: &[f32], own: &[&[f32]], rest: &[&[f32]]) -> f64 {
    if own.is_empty() || rest.is_empty() {
        return 0.5;
    }
    let mut others: Vec<f32> = rest.iter().map(|work| dot(phrase, work)).collect();
    others.sort_by(f32::total_cmp);
    let mut wins = 0.0;
    for work in own {
        let cosine = dot(phrase, work);
        let below = others.partition_point(|other| *other < cosine);
        let equal = others[below..].partition_point(|other| *other <= cosine);
        wins += below as f64 + equal as f64 / 2.0;
    }
    wins / (own.len() * others.len()) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phrase_that_names_the_whole_theme_tells_it_apart() {
        let unit = |x: f32, y: f32| {
            let norm = (x * x + y * y).sqrt();
            vec![x / norm, y / norm]
        };
        let own = [unit(1.0, 0.1), unit(1.0, 0.3), unit(0.9, 0.5)];
        let rest = [unit(0.2, 1.0), unit(0.1, 1.0)];
        let own: Vec<&[f32]> = own.iter().map(Vec::as_slice).collect();
        let rest: Vec<&[f32]> = rest.iter().map(Vec::as_slice).collect();
        assert!((tells_apart(&unit(1.0, 0.0), &own, &rest) - 1.0).abs() < 1e-9);
        assert!(tells_apart(&unit(0.0, 1.0), &own, &rest) < 1e-9);
        // Equidistant from every work: ties count half.
        assert!((tells_apart(&[0.0, 0.0], &own, &rest) - 0.5).abs() < 1e-9);
        assert!((tells_apart(&unit(1.0, 0.0), &own, &[]) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn with_embeddings_the_title_is_the_phrase_that_names_the_theme() {
        // "Young children" is used by fewer works than "maternal hair cortisol" in words, but
        // its meaning, as the (stand-in) model embeds it, is the theme's.
        let own_titles = [
            "Maternal hair cortisol in pregnancy and young children",
            "Maternal hair cortisol and child behaviour",
            "Hair cortisol of young children in day care",
        ];
        let other_titles = [
            "Hair cortisol in shift workers",
            "Hair cortisol and effort reward imbalance in workers",
        ];
        let vectors = [[1.0_f32, 0.0], [0.0, 1.0]];
        let themes = [
            ThemeTexts {
                titles: own_titles.to_vec(),
                texts: own_titles.to_vec(),
                vectors: Some(vec![&vectors[0]; 3]),
            },
            ThemeTexts {
                titles: other_titles.to_vec(),
                texts: other_titles.to_vec(),
                vectors: Some(vec![&vectors[1]; 2]),
            },
        ];
        let embed = |texts: &[&str]| {
            Some(
                texts
                    .iter()
                    .map(|text| match *text {
                        "young children" => vec![0.9_f32, 0.1],
                        _ => vec![0.5, 0.5],
                    })
                    .collect(),
            )
        };
        let in_words = phrase_titles(&themes, None);
        let by_meaning = phrase_titles(&themes, Some(&embed));
        assert_eq!(in_words[0].as_deref(), Some("Maternal hair cortisol"));
        assert_eq!(by_meaning[0].as_deref(), Some("Young children"));
        // A model that fails leaves the order in words.
        let failing = |_: &[&str]| None;
        assert_eq!(phrase_titles(&themes, Some(&failing)), in_words);
    }

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
                vectors: None,
            },
            ThemeTexts {
                titles: knee_again.to_vec(),
                texts: knee_again.to_vec(),
                vectors: None,
            },
        ];
        let titles = phrase_titles(&themes, None);
        let first = titles[0].clone().expect("a title");
        let second = titles[1].clone().expect("a title");
        assert!(first.starts_with(char::is_uppercase), "{first}");
        let head = |title: &str| title.rsplit(' ').next().unwrap_or("").to_lowercase();
        assert_ne!(head(&first), head(&second), "{first} / {second}");
    }
}
