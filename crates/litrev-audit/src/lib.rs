//! Review + stored works → verdicts: the grounding invariants, checked before anything is published.
//!
//! Every citation must resolve to a stored, described work among those the review may cite;
//! every sentence taken from a work must cite that work and reproduce its sentence (a short
//! lead-in such as "By contrast," or the citation itself may replace its first words). A review
//! that breaks either rule is refused: nothing is published from it.

use std::collections::{BTreeMap, BTreeSet};

use litrev_model::{Basis, Review, SectionKind, Segment, Sentence, Work, WorkId};
use serde::{Deserialize, Serialize};

/// One broken grounding rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Problem {
    /// A citation of a work the review may not cite.
    Unresolved {
        /// Sentence number in reading order, from 1.
        sentence: usize,
        /// The cited work.
        work: WorkId,
    },
    /// A sentence whose span points outside its work's text.
    BadLocator {
        /// Sentence number.
        sentence: usize,
        /// The work.
        work: WorkId,
    },
    /// A sentence that does not reproduce its span.
    NotVerbatim {
        /// Sentence number.
        sentence: usize,
        /// The work.
        work: WorkId,
    },
    /// A sentence taken from a work that does not cite it.
    Unattributed {
        /// Sentence number.
        sentence: usize,
        /// The work.
        work: WorkId,
    },
}

/// Why the audit refused the review.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the review breaks {} grounding rule(s), first: {first}; nothing was published — this is a bug in the writer, please report it with the run's store", .problems.len())]
pub struct Refused {
    /// Every problem found.
    pub problems: Vec<Problem>,
    /// The first problem, described.
    pub first: String,
}

/// What the audit counted.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AuditReport {
    /// Sentences in the review.
    pub sentences: usize,
    /// Sentences taken from works' texts.
    pub span_sentences: usize,
    /// Sentences built from structure.
    pub structural_sentences: usize,
    /// Citation occurrences.
    pub citations: usize,
    /// Distinct works cited.
    pub cited_works: usize,
    /// Distinct works cited per theme section, in order.
    pub theme_citations: Vec<(String, usize)>,
}

/// Checks the review against the works it may cite.
///
/// # Errors
/// [`Refused`] listing every problem, when any citation does not resolve or any taken
/// sentence is not grounded in its work.
pub fn audit(review: &Review, citable: &BTreeMap<WorkId, Work>) -> Result<AuditReport, Refused> {
    let mut problems = Vec::new();
    let mut report = AuditReport::default();
    let mut cited: BTreeSet<&WorkId> = BTreeSet::new();
    for (index, sentence) in review.sentences().enumerate() {
        let number = index + 1;
        report.sentences += 1;
        for work in sentence.cited() {
            report.citations += 1;
            cited.insert(work);
            if citable.get(work).is_none_or(Work::is_stub) {
                problems.push(Problem::Unresolved {
                    sentence: number,
                    work: work.clone(),
                });
            }
        }
        match &sentence.basis {
            Basis::Structure => report.structural_sentences += 1,
            Basis::Span(span) => {
                report.span_sentences += 1;
                if let Some(problem) = check_span(number, sentence, span, citable) {
                    problems.push(problem);
                }
            }
        }
    }
    report.cited_works = cited.len();
    report.theme_citations = review
        .sections
        .iter()
        .filter(|section| section.kind == SectionKind::Theme)
        .map(|section| {
            let works: BTreeSet<&WorkId> = section
                .walk()
                .into_iter()
                .flat_map(|part| part.paragraphs.iter())
                .flat_map(|paragraph| paragraph.sentences.iter())
                .flat_map(Sentence::cited)
                .collect();
            (section.heading.clone(), works.len())
        })
        .collect();
    if let Some(first) = problems.first() {
        let first = format!("{first:?}");
        return Err(Refused { problems, first });
    }
    Ok(report)
}

fn check_span(
    number: usize,
    sentence: &Sentence,
    span: &litrev_model::SpanRef,
    citable: &BTreeMap<WorkId, Work>,
) -> Option<Problem> {
    let work = &span.work;
    if !sentence.cited().any(|cited| cited == work) {
        return Some(Problem::Unattributed {
            sentence: number,
            work: work.clone(),
        });
    }
    let text = citable
        .get(work)
        .and_then(|record| match span.field.as_str() {
            "abstract" => record.abstract_text.as_deref(),
            "title" => record.title.as_deref(),
            _ => None,
        })
        .and_then(|text| text.get(span.start..span.end));
    let Some(source) = text else {
        return Some(Problem::BadLocator {
            sentence: number,
            work: work.clone(),
        });
    };
    let longest = sentence
        .segments
        .iter()
        .filter_map(|segment| match segment {
            Segment::Text(text) => {
                Some(text.trim().trim_end_matches(['.', '!', '?', ';', ':', ',']))
            }
            Segment::Cite { .. } => None,
        })
        .max_by_key(|text| text.len())
        .unwrap_or("");
    let verbatim =
        contains_ignoring_first_case(source, longest) && longest.len() * 2 >= source.trim().len();
    (!verbatim).then(|| Problem::NotVerbatim {
        sentence: number,
        work: work.clone(),
    })
}

/// Whether `needle` occurs in `haystack`, allowing its first letter to differ in case.
fn contains_ignoring_first_case(haystack: &str, needle: &str) -> bool {
    if needle.is_empty() {
        return false;
    }
    if haystack.contains(needle) {
        return true;
    }
    let mut characters = needle.chars();
    let Some(first) = characters.next() else {
        return false;
    };
    let rest = characters.as_str();
    first
        .to_uppercase()
        .chain(first.to_lowercase())
        .any(|variant| haystack.contains(&format!("{variant}{rest}")))
}

#[cfg(test)]
mod tests {
    use litrev_model::{CiteForm, Paragraph, Section, SpanRef};

    use super::*;

    fn works() -> BTreeMap<WorkId, Work> {
        let mut work = Work::stub("W1".parse().expect("id"));
        work.title = Some("A trial".into());
        work.abstract_text =
            Some("We ran a trial. Bleeding fell by 80% in the treated arm.".into());
        BTreeMap::from([(work.id(), work)])
    }

    fn review_of(sentences: Vec<Sentence>) -> Review {
        Review {
            title: "T".into(),
            sections: vec![Section {
                kind: SectionKind::Theme,
                heading: "Theme".into(),
                paragraphs: vec![Paragraph { sentences }],
                subsections: Vec::new(),
            }],
        }
    }

    fn taken(text: &str, cite: &str, start: usize, end: usize) -> Sentence {
        Sentence {
            segments: vec![
                Segment::Text(text.into()),
                Segment::Cite {
                    works: vec![cite.parse().expect("id")],
                    form: CiteForm::Parenthetical,
                },
                Segment::Text(".".into()),
            ],
            basis: Basis::Span(SpanRef {
                work: "W1".parse().expect("id"),
                field: "abstract".into(),
                sentence: 1,
                start,
                end,
            }),
        }
    }

    #[test]
    fn a_grounded_review_passes() {
        let review = review_of(vec![
            taken("Bleeding fell by 80% in the treated arm", "W1", 16, 56),
            Sentence::structural(vec![Segment::Text("One work.".into())]),
        ]);
        let report = audit(&review, &works()).expect("grounded");
        assert_eq!(report.span_sentences, 1);
        assert_eq!(report.structural_sentences, 1);
        assert_eq!(report.theme_citations, vec![("Theme".to_owned(), 1)]);
    }

    #[test]
    fn unresolved_citations_and_invented_text_are_refused() {
        let review = review_of(vec![
            taken("Bleeding fell by 80% in the treated arm", "W2", 16, 56),
            taken("Bleeding fell by 95% in every arm", "W1", 16, 56),
            taken("Bleeding fell by 80% in the treated arm", "W1", 16, 999),
        ]);
        let refused = audit(&review, &works()).expect_err("ungrounded");
        assert_eq!(
            refused.problems,
            vec![
                Problem::Unresolved {
                    sentence: 1,
                    work: "W2".parse().expect("id")
                },
                Problem::Unattributed {
                    sentence: 1,
                    work: "W1".parse().expect("id")
                },
                Problem::NotVerbatim {
                    sentence: 2,
                    work: "W1".parse().expect("id")
                },
                Problem::BadLocator {
                    sentence: 3,
                    work: "W1".parse().expect("id")
                },
            ]
        );
        assert!(refused.to_string().contains("nothing was published"));
    }
}
