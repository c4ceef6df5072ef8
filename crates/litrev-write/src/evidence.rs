//! Evidence spans: the sentences of a work's abstract, each with its locator and role, and the
//! sentences of its study card, read from its full text, with their pinpoints.

use litrev_model::{CardField, FullTextSpan, SpanRef, StudyCard, Work, WorkId};
use litrev_text::sentence_readings;

pub use litrev_text::Role;

/// One sentence of a work's abstract.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    /// Where it is.
    pub locator: SpanRef,
    /// The sentence, verbatim.
    pub text: String,
    /// Its role, by the sentence-role model and cue words.
    pub role: Role,
    /// Whether its own words give it that role, not only its place in the abstract
    /// (`litrev_text::Reading::sure`); a full-text sentence's role, from its card field, is.
    pub sure: bool,
    /// Words in the sentence.
    pub words: usize,
}

/// Splits a work's abstract into spans with roles.
pub fn spans_of(work: &Work) -> Vec<Span> {
    let Some(text) = work.abstract_text.as_deref() else {
        return Vec::new();
    };
    let id: WorkId = work.id();
    let _processing = litrev_model::processing(&id);
    sentence_readings(text)
        .into_iter()
        .enumerate()
        .map(|(index, ((start, end), reading))| {
            let sentence = &text[start..end];
            Span {
                locator: SpanRef {
                    work: id.clone(),
                    field: "abstract".to_owned(),
                    sentence: index,
                    start,
                    end,
                    full_text: None,
                },
                text: sentence.to_owned(),
                role: reading.role,
                sure: reading.sure,
                words: sentence.split_whitespace().count(),
            }
        })
        .collect()
}

/// A work's evidence: its abstract's sentences, then (when it was read in full) its study
/// card's.
pub fn evidence_of(work: &Work, card: Option<&StudyCard>) -> Vec<Span> {
    let mut spans = spans_of(work);
    if let Some(card) = card {
        let first = spans.len();
        spans.extend(card_spans(&work.id(), card, first));
    }
    spans
}

/// The sentences of a work's study card as spans, numbered on from `first` (after the
/// abstract's), each with the role its field gives it; data-availability statements are no
/// evidence of findings and are left out. A sentence filling several fields is one span.
pub fn card_spans(id: &WorkId, card: &StudyCard, first: usize) -> Vec<Span> {
    let mut spans: Vec<Span> = Vec::new();
    for field in CardField::ALL {
        let role = match field {
            CardField::Aim => Role::Objective,
            CardField::Results => Role::Result,
            CardField::Limitations => Role::Limitation,
            CardField::FutureWork => Role::FutureWork,
            CardField::DataAvailability => continue,
            _ => Role::Method,
        };
        for span in card.spans(field) {
            if spans.iter().any(|known| {
                known
                    .locator
                    .full_text
                    .as_ref()
                    .is_some_and(|at| at.locator == span.locator)
            }) {
                continue;
            }
            spans.push(Span {
                locator: SpanRef {
                    work: id.clone(),
                    field: "fulltext".to_owned(),
                    sentence: first + spans.len(),
                    start: span.locator.start,
                    end: span.locator.end,
                    full_text: Some(FullTextSpan {
                        sha256: card.sha256.clone(),
                        locator: span.locator,
                        pinpoint: span.pinpoint.clone(),
                        text: span.text.clone(),
                    }),
                },
                text: span.text.clone(),
                role,
                sure: true,
                words: span.text.split_whitespace().count(),
            });
        }
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_point_back_into_the_abstract() {
        let mut work = Work::stub("W1".parse().expect("id"));
        work.abstract_text = Some(
            "We randomly assigned 60 adults to exercise or usual care. Pain scores fell by 10% \
             with exercise compared with usual care (P<0.01). More work is needed."
                .into(),
        );
        let spans = spans_of(&work);
        assert_eq!(spans.len(), 3);
        let text = work.abstract_text.as_deref().expect("abstract");
        for span in &spans {
            assert_eq!(&text[span.locator.start..span.locator.end], span.text);
        }
        let roles: Vec<Role> = spans.iter().map(|span| span.role).collect();
        assert_eq!(roles, [Role::Method, Role::Result, Role::FutureWork]);
    }
}
