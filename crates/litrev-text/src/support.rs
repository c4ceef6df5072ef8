//! Whether a sentence is supported by the evidence it cites: the share of its content terms
//! found in the evidence, and its numbers that the evidence does not state.
//!
//! The writer uses it to catch a drafted sentence that says more than its spans, and the audit
//! uses it to refuse one that slipped through: one rule, judged the same way in both places.
//! It is lexical on purpose — a paraphrase that keeps the evidence's words passes, a claim the
//! evidence never makes (new terms, new numbers) does not.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use crate::{stem, terms};

/// The least share of a sentence's content terms that its evidence must contain.
pub const MIN_SUPPORT: f32 = 0.6;

/// The least share of a sentence's content terms each cited span must contain on its own, so
/// no citation is decoration.
pub const MIN_SPAN_SUPPORT: f32 = 0.2;

/// How well evidence backs a sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct Support {
    /// Share of the sentence's distinct content terms found in the evidence, 0–1 (0 for a
    /// sentence without content terms: it says nothing checkable).
    pub overlap: f32,
    /// The sentence's numbers the evidence does not contain, as written.
    pub unmatched_numbers: Vec<String>,
    /// Content terms of the sentence absent from the evidence (stems), for explanations.
    pub unmatched_terms: Vec<String>,
}

impl Support {
    /// Whether the sentence passes: overlap at least [`MIN_SUPPORT`] and every number found.
    pub fn holds(&self) -> bool {
        self.overlap >= MIN_SUPPORT && self.unmatched_numbers.is_empty()
    }
}

/// Words that frame a claim rather than make it ("reported", "one study", "suggested"): a
/// review's sentences need them and the evidence rarely has them, so they are not counted.
const FRAMING_WORDS: &[&str] = &[
    "study",
    "studies",
    "work",
    "works",
    "author",
    "authors",
    "research",
    "researchers",
    "evidence",
    "literature",
    "review",
    "report",
    "reported",
    "suggest",
    "suggested",
    "find",
    "found",
    "findings",
    "show",
    "shown",
    "showed",
    "indicate",
    "indicated",
    "observe",
    "observed",
    "note",
    "noted",
    "describe",
    "described",
    "examine",
    "examined",
    "investigate",
    "investigated",
    "assess",
    "assessed",
    "evaluate",
    "evaluated",
    "propose",
    "proposed",
    "argue",
    "argued",
    "conclude",
    "concluded",
    "highlight",
    "highlighted",
    "appear",
    "seem",
    "possibly",
    "potentially",
    "likely",
    "several",
    "various",
    "whereas",
    "while",
    "similarly",
    "additionally",
    "furthermore",
    "moreover",
    "however",
    "together",
    "taken",
    "overall",
];

fn is_framing(term: &str) -> bool {
    static STEMS: OnceLock<BTreeSet<String>> = OnceLock::new();
    STEMS
        .get_or_init(|| FRAMING_WORDS.iter().map(|word| stem(word)).collect())
        .contains(term)
}

/// How well `evidence` (one or more source sentences) supports `sentence`; words that only
/// frame the claim ("reported", "one study") are not counted.
pub fn support(sentence: &str, evidence: &[&str]) -> Support {
    let claimed: BTreeSet<String> = terms(sentence)
        .into_iter()
        .filter(|term| !is_framing(term))
        .collect();
    let backed: BTreeSet<String> = evidence.iter().flat_map(|text| terms(text)).collect();
    let unmatched_terms: Vec<String> = claimed.difference(&backed).cloned().collect();
    let overlap = if claimed.is_empty() {
        0.0
    } else {
        (claimed.len() - unmatched_terms.len()) as f32 / claimed.len() as f32
    };
    let evidence_numbers: BTreeSet<String> = evidence
        .iter()
        .flat_map(|text| numbers(text))
        .map(|(_, value)| value)
        .collect();
    let unmatched_numbers = numbers(sentence)
        .into_iter()
        .filter(|(_, value)| !evidence_numbers.contains(value))
        .map(|(written, _)| written)
        .collect();
    Support {
        overlap,
        unmatched_numbers,
        unmatched_terms,
    }
}

/// Why evidence does not support a sentence.
#[derive(Debug, Clone, PartialEq)]
pub enum Unsupported {
    /// The sentence has no content terms: nothing it says can be checked.
    NoContent,
    /// Numbers of the sentence that no evidence sentence states.
    Numbers(Vec<String>),
    /// Too few of the sentence's content terms are in the evidence.
    Terms {
        /// The share found, 0–1.
        overlap: f32,
        /// The terms (stems) not found.
        missing: Vec<String>,
    },
    /// The evidence sentence at this index shares too few terms with the sentence: its
    /// citation backs nothing.
    IdleSpan(usize),
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unsupported::NoContent => f.write_str("it says nothing its evidence could back"),
            Unsupported::Numbers(numbers) => write!(
                f,
                "its number(s) {} appear in none of the evidence it cites",
                numbers.join(", ")
            ),
            Unsupported::Terms { overlap, missing } => write!(
                f,
                "only {:.0}% of its content words are in the evidence it cites (at least {:.0}% \
                 must be); not in the evidence: {}",
                overlap * 100.0,
                MIN_SUPPORT * 100.0,
                missing.join(", ")
            ),
            Unsupported::IdleSpan(index) => write!(
                f,
                "evidence sentence {} shares too few words with it to back it",
                index + 1
            ),
        }
    }
}

/// The writer's and the audit's rule: the evidence as a whole holds [`support`], and each
/// evidence sentence on its own shares at least [`MIN_SPAN_SUPPORT`] of the sentence's terms.
///
/// # Errors
/// The first reason the sentence is not supported.
pub fn check_support(sentence: &str, evidence: &[&str]) -> Result<Support, Unsupported> {
    let judged = support(sentence, evidence);
    if judged.overlap == 0.0 && judged.unmatched_terms.is_empty() {
        return Err(Unsupported::NoContent);
    }
    if !judged.unmatched_numbers.is_empty() {
        return Err(Unsupported::Numbers(judged.unmatched_numbers));
    }
    if judged.overlap < MIN_SUPPORT {
        return Err(Unsupported::Terms {
            overlap: judged.overlap,
            missing: judged.unmatched_terms,
        });
    }
    if evidence.len() > 1 {
        for (index, text) in evidence.iter().enumerate() {
            if support(sentence, &[text]).overlap < MIN_SPAN_SUPPORT {
                return Err(Unsupported::IdleSpan(index));
            }
        }
    }
    Ok(judged)
}

/// The numbers of a text, each as written and normalised (thousands separators dropped,
/// trailing decimal zeros trimmed): `1,200` and `1200` match, `0.50` and `0.5` match.
fn numbers(text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let characters: Vec<char> = text.chars().collect();
    let mut index = 0;
    while index < characters.len() {
        if !characters[index].is_ascii_digit() {
            index += 1;
            continue;
        }
        let start = index;
        while index < characters.len()
            && (characters[index].is_ascii_digit()
                || (matches!(characters[index], '.' | ',')
                    && characters.get(index + 1).is_some_and(char::is_ascii_digit)))
        {
            index += 1;
        }
        let written: String = characters[start..index].iter().collect();
        // Digits glued to letters are part of a name (H1N1), not a quantity; after a hyphen
        // (COVID-19) they count, and evidence naming COVID-19 has them too.
        let in_word = start > 0 && characters[start - 1].is_alphabetic()
            || characters.get(index).is_some_and(|c| c.is_alphabetic());
        if !in_word {
            found.push((written.clone(), normalise(&written)));
        }
    }
    found
}

fn normalise(number: &str) -> String {
    let plain: String = number.chars().filter(|c| *c != ',').collect();
    match plain.split_once('.') {
        Some((whole, fraction)) => {
            let fraction = fraction.trim_end_matches('0');
            if fraction.is_empty() {
                whole.to_owned()
            } else {
                format!("{whole}.{fraction}")
            }
        }
        None => plain,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPAN: &str = "Prophylaxis with emicizumab reduced annualised bleeding rates by 87% \
                        compared with no prophylaxis in 1,200 patients.";

    #[test]
    fn close_paraphrases_are_supported() {
        let paraphrase = "Emicizumab prophylaxis reduced annualised bleeding rates by 87%.";
        let judged = support(paraphrase, &[SPAN]);
        assert!(judged.holds(), "{judged:?}");
        assert!((judged.overlap - 1.0).abs() < f32::EPSILON);
    }

    #[test]
    fn new_claims_and_numbers_are_not() {
        let invented = "Emicizumab cured every patient and halved mortality worldwide.";
        let judged = support(invented, &[SPAN]);
        assert!(!judged.holds(), "{judged:?}");
        assert!(
            judged.unmatched_terms.contains(&"mortal".to_owned()),
            "{judged:?}"
        );
        let inflated = "Emicizumab prophylaxis reduced annualised bleeding rates by 95%.";
        let judged = support(inflated, &[SPAN]);
        assert_eq!(judged.unmatched_numbers, vec!["95".to_owned()]);
        assert!(!judged.holds());
        let same_numbers =
            "In 1200 patients, bleeding rates fell by 87.0% with emicizumab prophylaxis.";
        assert!(support(same_numbers, &[SPAN]).unmatched_numbers.is_empty());
    }

    #[test]
    fn framing_words_do_not_count_against_a_sentence() {
        let framed = "One study reported that emicizumab prophylaxis reduced bleeding rates.";
        let judged = support(framed, &[SPAN]);
        assert!(judged.holds(), "{judged:?}");
    }

    #[test]
    fn a_sentence_without_content_says_nothing_checkable() {
        assert_eq!(support("It is so.", &[SPAN]).overlap, 0.0);
        assert!(!support("", &[SPAN]).holds());
        assert_eq!(
            check_support("It is so.", &[SPAN]),
            Err(Unsupported::NoContent)
        );
    }

    #[test]
    fn every_cited_span_must_back_the_sentence() {
        let sentence = "Emicizumab prophylaxis reduced annualised bleeding rates by 87%.";
        assert!(check_support(sentence, &[SPAN]).is_ok());
        let idle = "School meals were served daily.";
        assert_eq!(
            check_support(sentence, &[SPAN, idle]),
            Err(Unsupported::IdleSpan(1))
        );
        let inflated = "Emicizumab prophylaxis reduced bleeding by 95%.";
        let reason = check_support(inflated, &[SPAN]).unwrap_err();
        assert_eq!(reason, Unsupported::Numbers(vec!["95".to_owned()]));
        assert!(reason.to_string().contains("95"), "{reason}");
        let invented = "Emicizumab cured every patient and halved mortality worldwide.";
        let reason = check_support(invented, &[SPAN]).unwrap_err();
        assert!(reason.to_string().contains("mortal"), "{reason}");
    }

    #[test]
    fn numbers_inside_names_are_not_numbers() {
        let found: Vec<String> = numbers("H1N1 and COVID-19 in 2020, p=0.05")
            .into_iter()
            .map(|(_, value)| value)
            .collect();
        assert_eq!(found, ["19", "2020", "0.05"]);
    }
}
