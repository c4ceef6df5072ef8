//! Small pieces of English: numbers in words, lists, sentence builders.

use litrev_model::{CiteForm, Segment, Sentence, WorkId};

/// `3` → `three` up to twenty, digits beyond.
pub fn number(n: usize) -> String {
    const WORDS: [&str; 21] = [
        "no",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |word| (*word).to_owned())
}

/// `number` with a capital, for the start of a sentence.
pub fn number_capitalised(n: usize) -> String {
    capitalise(&number(n))
}

/// Upper-cases the first letter.
pub fn capitalise(text: &str) -> String {
    let mut characters = text.chars();
    characters
        .next()
        .map(|first| first.to_uppercase().chain(characters).collect())
        .unwrap_or_default()
}

/// A noun after its indefinite article, told by its first letter: "a cohort study", "an
/// animal study".
pub fn with_article(noun: &str) -> String {
    if noun.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {noun}")
    } else {
        format!("a {noun}")
    }
}

/// `work`/`works` by count.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        one.to_owned()
    } else {
        many.to_owned()
    }
}

/// `a`, `a and b`, `a, b and c`.
pub fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Items that may contain commas or `and` themselves: `a; b; and c`.
pub fn label_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [first, second] => format!("{first}; and {second}"),
        [init @ .., last] => format!("{}; and {last}", init.join("; ")),
    }
}

/// Builds a sentence piece by piece.
#[derive(Debug, Default)]
pub struct SentenceBuilder {
    segments: Vec<Segment>,
}

impl SentenceBuilder {
    /// An empty sentence.
    pub fn new() -> SentenceBuilder {
        SentenceBuilder::default()
    }

    /// Appends text.
    pub fn text(mut self, text: impl Into<String>) -> SentenceBuilder {
        let text = text.into();
        if let Some(Segment::Text(last)) = self.segments.last_mut() {
            last.push_str(&text);
        } else if !text.is_empty() {
            self.segments.push(Segment::Text(text));
        }
        self
    }

    /// Appends a narrative citation (`Smith (2011)`).
    pub fn narrative(mut self, work: &WorkId) -> SentenceBuilder {
        self.segments.push(Segment::Cite {
            works: vec![work.clone()],
            form: CiteForm::Narrative,
        });
        self
    }

    /// Appends a parenthetical citation of several works (`(Smith, 2011; Lee, 2012)`).
    pub fn parenthetical(mut self, works: &[WorkId]) -> SentenceBuilder {
        if !works.is_empty() {
            self.segments.push(Segment::Cite {
                works: works.to_vec(),
                form: CiteForm::Parenthetical,
            });
        }
        self
    }

    /// Appends narrative citations joined as a list: `A (2001), B (2002) and C (2003)`.
    pub fn narrative_list(mut self, works: &[WorkId]) -> SentenceBuilder {
        for (index, work) in works.iter().enumerate() {
            if index > 0 {
                let joiner = if index + 1 == works.len() {
                    " and "
                } else {
                    ", "
                };
                self = self.text(joiner);
            }
            self = self.narrative(work);
        }
        self
    }

    /// The finished sentence, built from structure.
    pub fn structural(self) -> Sentence {
        Sentence::structural(self.segments)
    }

    /// The segments, for sentences with another basis.
    pub fn segments(self) -> Vec<Segment> {
        self.segments
    }
}

/// Words a sentence will show: its text, plus two for each narrative citation.
pub fn words_of(sentence: &Sentence) -> usize {
    sentence
        .segments
        .iter()
        .map(|segment| match segment {
            Segment::Text(text) => text.split_whitespace().count(),
            Segment::Cite {
                form: CiteForm::Narrative,
                works,
            } => 2 * works.len(),
            Segment::Cite { .. } => 0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speaks_numbers_and_lists() {
        assert_eq!(number(3), "three");
        assert_eq!(number_capitalised(12), "Twelve");
        assert_eq!(number(42), "42");
        assert_eq!(list(&["a".into(), "b".into(), "c".into()]), "a, b and c");
        assert_eq!(plural(1, "work", "works"), "work");
        assert_eq!(with_article("cohort study"), "a cohort study");
        assert_eq!(with_article("animal study"), "an animal study");
    }
}
