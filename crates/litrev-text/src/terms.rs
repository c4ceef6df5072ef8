//! Words → content terms: lower-cased, function words dropped, stemmed.

use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};

use crate::stopwords::is_stopword;

fn stemmer() -> &'static Stemmer {
    static STEMMER: OnceLock<Stemmer> = OnceLock::new();
    STEMMER.get_or_init(|| Stemmer::create(Algorithm::English))
}

/// The Porter2 stem of a lower-case word.
pub fn stem(word: &str) -> String {
    stemmer().stem(word).into_owned()
}

/// Lower-case content words of a text in order: no function words, numbers or single letters.
pub fn content_words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .map(|word| word.trim_matches('\'').to_lowercase())
        .filter(|word| {
            word.chars().count() > 1
                && !word.chars().all(|c| c.is_ascii_digit())
                && !is_stopword(word)
        })
        .collect()
}

/// Lower-case words of a text in order, hyphenated words whole and nothing dropped, with an
/// empty token wherever punctuation ends a clause: the tokens phrases are read from (`stem
/// cells`, `hot flashes`), so that words either side of a stop ("…with inhibitors. Emicizumab…")
/// are never side by side.
pub fn word_tokens(text: &str) -> Vec<String> {
    let mut tokens: Vec<String> = Vec::new();
    // Brackets end a clause too: "microfracture (MFx)" is no phrase "microfracture MFx".
    for clause in text.split(['.', ',', ';', ':', '!', '?', '(', ')', '[', ']']) {
        let mut words = clause
            .split(|c: char| !(c.is_alphanumeric() || c == '-'))
            .filter(|token| !token.is_empty())
            .map(str::to_lowercase)
            .peekable();
        if words.peek().is_some() && !tokens.is_empty() {
            tokens.push(String::new());
        }
        tokens.extend(words);
    }
    tokens
}

/// The stemmed content terms of a text, in order, with repeats.
pub fn terms(text: &str) -> Vec<String> {
    content_words(text).iter().map(|word| stem(word)).collect()
}

/// [`terms`] of each text, in the texts' order, read on every core: the costly part of
/// TF-IDF over a corpus, and the same whatever the number of threads.
pub fn terms_of_each<S: AsRef<str> + Sync>(texts: &[S]) -> Vec<Vec<String>> {
    use rayon::prelude::*;
    texts.par_iter().map(|text| terms(text.as_ref())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_tokens_keep_every_word_and_hyphens_and_mark_where_clauses_end() {
        assert_eq!(
            word_tokens("Hot flashes, in long-term users (n=3)."),
            [
                "hot",
                "flashes",
                "",
                "in",
                "long-term",
                "users",
                "",
                "n",
                "3"
            ]
        );
    }

    #[test]
    fn keeps_content_words_only() {
        assert_eq!(
            content_words("The 2 effects of CBT on PTSD, a 10-year follow-up"),
            vec!["effects", "cbt", "ptsd", "year", "follow"]
        );
        assert_eq!(
            terms("Children's insulin pumps"),
            vec!["children", "insulin", "pump"]
        );
    }
}
