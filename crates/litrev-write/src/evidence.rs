//! Evidence spans: the sentences of a work's abstract, each with its locator and role, and the
//! sentences of its study card, read from its full text, with their pinpoints.

use litrev_model::{CardField, FullTextSpan, SpanRef, StudyCard, Work, WorkId};
use litrev_text::split_sentences;
use serde::{Deserialize, Serialize};

/// What a sentence of an abstract does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Context and prior knowledge.
    Background,
    /// What the work set out to do.
    Objective,
    /// How it was done.
    Method,
    /// What was found.
    Result,
    /// What the authors conclude.
    Conclusion,
    /// A limit the authors name.
    Limitation,
    /// Work the authors call for.
    FutureWork,
}

/// One sentence of a work's abstract.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    /// Where it is.
    pub locator: SpanRef,
    /// The sentence, verbatim.
    pub text: String,
    /// Its role by cue words.
    pub role: Role,
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
    let ranges = split_sentences(text);
    let count = ranges.len();
    ranges
        .into_iter()
        .enumerate()
        .map(|(index, (start, end))| {
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
                role: role_of(sentence, index, count),
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
                words: span.text.split_whitespace().count(),
            });
        }
    }
    spans
}

/// The role of a sentence from its cue words and its position.
pub fn role_of(sentence: &str, index: usize, count: usize) -> Role {
    let lower = sentence.to_lowercase();
    let has = |cues: &[&str]| cues.iter().any(|cue| lower.contains(cue));
    if has(&[
        "future research",
        "future studies",
        "future work",
        "further research",
        "further studies",
        "further investigation",
        "further work",
        "are needed",
        "is needed",
        "are warranted",
        "is warranted",
        "warrant further",
        "remains to be",
        "should be investigated",
        "should be explored",
        "research is required",
        "more research",
    ]) {
        return Role::FutureWork;
    }
    if has(&[
        "limitation",
        "limited by",
        "small sample",
        "caution",
        "interpreted with care",
        "risk of bias",
        "weakness",
        "could not be",
        "generalizab",
        "generalisab",
    ]) {
        return Role::Limitation;
    }
    if has(&[
        "we conclude",
        "in conclusion",
        "conclusion",
        "these findings",
        "our findings",
        "this suggests",
        "these results suggest",
        "suggest that",
        "suggests that",
        "indicate that",
        "indicates that",
        "support the",
        "supports the",
        "implications",
        "highlight",
        "may be a",
        "should be considered",
    ]) || (index + 1 == count && count > 2)
    {
        return Role::Conclusion;
    }
    if has(&[
        "we found",
        "found that",
        "showed",
        "shown",
        "revealed",
        "demonstrated",
        "was associated",
        "were associated",
        "significant",
        "increased",
        "decreased",
        "reduced",
        "improved",
        "higher",
        "lower",
        "compared with",
        "compared to",
        "odds ratio",
        "hazard ratio",
        "95%",
        "p <",
        "p=",
        "p =",
        "results",
        "no difference",
        "did not",
        "was observed",
        "were observed",
        "effective",
        "efficacy",
    ]) || lower.contains('%')
    {
        return Role::Result;
    }
    if has(&[
        "the aim",
        "we aimed",
        "aimed to",
        "objective",
        "purpose",
        "we sought",
        "this study",
        "this paper",
        "we investigated",
        "we examined",
        "to assess",
        "to evaluate",
        "to examine",
        "to determine",
        "to investigate",
        "to explore",
        "to compare",
        "we describe",
        "we report",
        "we present",
    ]) {
        return Role::Objective;
    }
    if has(&[
        "randomi",
        "participants",
        "patients were",
        "were enrolled",
        "were recruited",
        "cohort",
        "we conducted",
        "we performed",
        "we analy",
        "data were",
        "were analy",
        "we searched",
        "questionnaire",
        "interviews",
        "design",
        "method",
        "using a",
        "we used",
        "were included",
        "trial",
        "sample of",
    ]) {
        return Role::Method;
    }
    Role::Background
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assigns_roles_by_cues() {
        let check = |sentence: &str, expected: Role| {
            assert_eq!(role_of(sentence, 1, 5), expected, "{sentence}");
        };
        check(
            "Further research is needed to confirm this.",
            Role::FutureWork,
        );
        check("A limitation is the small sample.", Role::Limitation);
        check("In conclusion, emicizumab is safe.", Role::Conclusion);
        check("Bleeding rates were reduced by 87%.", Role::Result);
        check("The aim was to assess pharmacokinetics.", Role::Objective);
        check("Patients were randomised to two arms.", Role::Method);
        check("Haemophilia A is a rare disorder.", Role::Background);
        assert_eq!(
            role_of("It is rare.", 4, 5),
            Role::Conclusion,
            "the last sentence concludes"
        );
    }

    #[test]
    fn spans_point_back_into_the_abstract() {
        let mut work = Work::stub("W1".parse().expect("id"));
        work.abstract_text = Some("We ran a trial. Rates fell by 10%. More work is needed.".into());
        let spans = spans_of(&work);
        assert_eq!(spans.len(), 3);
        let text = work.abstract_text.as_deref().expect("abstract");
        for span in &spans {
            assert_eq!(&text[span.locator.start..span.locator.end], span.text);
        }
        assert_eq!(spans[1].role, Role::Result);
    }
}
