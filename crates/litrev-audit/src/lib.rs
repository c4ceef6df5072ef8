//! Review + stored works → verdicts: the grounding invariants, checked before anything is published.
//!
//! Every citation must resolve to a stored, described work among those the review may cite;
//! every sentence taken from a work must cite that work and reproduce its sentence (a short
//! lead-in such as "By contrast," or the citation itself may replace its first words); every
//! sentence paraphrased from works' sentences (the LLM writer's) must cite exactly the works of
//! its spans and be supported by them — its content words found there and its numbers stated
//! there (`litrev_text::check_support`, the rule the writer repairs against). A sentence taken
//! from a full text must read as the stored text (by sha256) has it at its locator. A review that
//! breaks any rule is refused: nothing is published from it.

use std::collections::{BTreeMap, BTreeSet};

use litrev_model::{
    Basis, FullText, Review, Section, SectionKind, Segment, Sentence, Work, WorkId,
};
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
    /// A paraphrased sentence citing a work none of its spans comes from.
    Unbacked {
        /// Sentence number.
        sentence: usize,
        /// The cited work.
        work: WorkId,
    },
    /// A paraphrased sentence its spans do not support (or one without spans).
    Unsupported {
        /// Sentence number.
        sentence: usize,
        /// Why, as the support check says it.
        why: String,
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
    /// Sentences paraphrased from works' texts (the LLM writer), each checked for support.
    #[serde(default)]
    pub paraphrased_sentences: usize,
    /// Taken sentences that come from full texts (each checked at its locator in the stored
    /// text).
    #[serde(default)]
    pub full_text_sentences: usize,
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
pub fn audit(
    review: &Review,
    citable: &BTreeMap<WorkId, Work>,
    texts: &BTreeMap<String, FullText>,
) -> Result<AuditReport, Refused> {
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
                report.full_text_sentences += usize::from(span.full_text.is_some());
                if let Some(problem) = check_span(number, sentence, span, citable, texts) {
                    problems.push(problem);
                }
            }
            Basis::Paraphrase(spans) => {
                report.paraphrased_sentences += 1;
                problems.extend(check_paraphrase(number, sentence, spans, citable, texts));
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
                .flat_map(Section::own_sentences)
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
    texts: &BTreeMap<String, FullText>,
) -> Option<Problem> {
    let work = &span.work;
    if !sentence.cited().any(|cited| cited == work) {
        return Some(Problem::Unattributed {
            sentence: number,
            work: work.clone(),
        });
    }
    let Some(source) = span_text(span, citable, texts) else {
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
        // Quotation marks and ellipses around a quotation are not part of it.
        .filter(|text| text.chars().any(char::is_alphanumeric))
        .max_by_key(|text| text.len())
        .unwrap_or("");
    let verbatim =
        contains_ignoring_first_case(source, longest) && longest.len() * 2 >= source.trim().len();
    (!verbatim).then(|| Problem::NotVerbatim {
        sentence: number,
        work: work.clone(),
    })
}

/// The problems of a paraphrased sentence: each span must point into its work's text and its
/// work be cited, each cited work must have a span, and the spans must support the sentence.
fn check_paraphrase(
    number: usize,
    sentence: &Sentence,
    spans: &[litrev_model::SpanRef],
    citable: &BTreeMap<WorkId, Work>,
    texts: &BTreeMap<String, FullText>,
) -> Vec<Problem> {
    if spans.is_empty() {
        return vec![Problem::Unsupported {
            sentence: number,
            why: "it cites no evidence span".to_owned(),
        }];
    }
    let mut problems = Vec::new();
    let mut evidence = Vec::new();
    for span in spans {
        if !sentence.cited().any(|cited| *cited == span.work) {
            problems.push(Problem::Unattributed {
                sentence: number,
                work: span.work.clone(),
            });
        }
        match span_text(span, citable, texts) {
            Some(text) => evidence.push(text),
            None => problems.push(Problem::BadLocator {
                sentence: number,
                work: span.work.clone(),
            }),
        }
    }
    for cited in sentence.cited() {
        if !spans.iter().any(|span| span.work == *cited) {
            problems.push(Problem::Unbacked {
                sentence: number,
                work: cited.clone(),
            });
        }
    }
    if problems.is_empty()
        && let Err(why) = litrev_text::check_support(&sentence.plain_text(), &evidence)
    {
        problems.push(Problem::Unsupported {
            sentence: number,
            why: why.to_string(),
        });
    }
    problems
}

/// The text a span points at, when its locator is valid; a full-text span's sentence must read
/// exactly as the stored text has it at its locator.
fn span_text<'a>(
    span: &'a litrev_model::SpanRef,
    citable: &'a BTreeMap<WorkId, Work>,
    texts: &'a BTreeMap<String, FullText>,
) -> Option<&'a str> {
    let work = citable.get(&span.work)?;
    if let Some(quoted) = &span.full_text {
        let stored = texts.get(&quoted.sha256)?.span(&quoted.locator)?;
        return (stored == quoted.text).then_some(stored);
    }
    span.text_in(work)
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
                tables: Vec::new(),
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
                full_text: None,
            }),
        }
    }

    #[test]
    fn a_grounded_review_passes() {
        let review = review_of(vec![
            taken("Bleeding fell by 80% in the treated arm", "W1", 16, 56),
            Sentence::structural(vec![Segment::Text("One work.".into())]),
        ]);
        let report = audit(&review, &works(), &BTreeMap::new()).expect("grounded");
        assert_eq!(report.span_sentences, 1);
        assert_eq!(report.structural_sentences, 1);
        assert_eq!(report.theme_citations, vec![("Theme".to_owned(), 1)]);
    }

    #[test]
    fn a_full_text_quote_must_read_as_the_stored_text_has_it() {
        use litrev_model::{FullTextSpan, Locator, SectionRole, TextFormat, TextSection};
        let stored = FullText {
            format: TextFormat::Pdf,
            title: None,
            ids: Vec::new(),
            abstract_paragraphs: Vec::new(),
            sections: vec![TextSection {
                title: "Limitations".into(),
                role: SectionRole::Limitations,
                depth: 1,
                paragraphs: vec!["The sample was small. Follow-up was short.".into()],
                page: Some(4),
            }],
            references: Vec::new(),
        };
        let texts = BTreeMap::from([("abc".to_owned(), stored)]);
        let quote = |text: &str, sha: &str| {
            let mut sentence = taken(text, "W1", 0, 21);
            sentence.basis = Basis::Span(SpanRef {
                work: "W1".parse().expect("id"),
                field: "fulltext".into(),
                sentence: 2,
                start: 0,
                end: 21,
                full_text: Some(FullTextSpan {
                    sha256: sha.into(),
                    locator: Locator {
                        section: 0,
                        paragraph: 0,
                        start: 0,
                        end: 21,
                    },
                    pinpoint: "p. 4".into(),
                    text: text.to_owned() + ".",
                }),
            });
            sentence
        };
        let report = audit(
            &review_of(vec![quote("The sample was small", "abc")]),
            &works(),
            &texts,
        )
        .expect("verbatim at its locator");
        assert_eq!(report.full_text_sentences, 1);
        for wrong in [
            quote("The sample was large", "abc"),
            quote("The sample was small", "other"),
        ] {
            let refused = audit(&review_of(vec![wrong]), &works(), &texts).expect_err("refused");
            assert!(
                matches!(refused.problems[0], Problem::BadLocator { .. }),
                "{:?}",
                refused.problems
            );
        }
    }

    #[test]
    fn unresolved_citations_and_invented_text_are_refused() {
        let review = review_of(vec![
            taken("Bleeding fell by 80% in the treated arm", "W2", 16, 56),
            taken("Bleeding fell by 95% in every arm", "W1", 16, 56),
            taken("Bleeding fell by 80% in the treated arm", "W1", 16, 999),
        ]);
        let refused = audit(&review, &works(), &BTreeMap::new()).expect_err("ungrounded");
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

    fn paraphrase(text: &str, cites: &[&str]) -> Sentence {
        Sentence {
            segments: vec![
                Segment::Text(text.into()),
                Segment::Cite {
                    works: cites.iter().map(|id| id.parse().expect("id")).collect(),
                    form: CiteForm::Parenthetical,
                },
                Segment::Text(".".into()),
            ],
            basis: Basis::Paraphrase(vec![SpanRef {
                work: "W1".parse().expect("id"),
                field: "abstract".into(),
                sentence: 1,
                start: 16,
                end: 56,
                full_text: None,
            }]),
        }
    }

    #[test]
    fn paraphrases_must_cite_their_spans_and_say_only_what_they_say() {
        let grounded = paraphrase("The treated arm reported 80% less bleeding", &["W1"]);
        let report =
            audit(&review_of(vec![grounded]), &works(), &BTreeMap::new()).expect("supported");
        assert_eq!(report.paraphrased_sentences, 1);

        let review = review_of(vec![
            paraphrase("Bleeding fell by 95% in the treated arm", &["W1"]),
            paraphrase("Bleeding fell by 80% in the treated arm", &[]),
            paraphrase("Bleeding fell by 80% in the treated arm", &["W1", "W2"]),
            Sentence {
                basis: Basis::Paraphrase(Vec::new()),
                ..paraphrase("Bleeding fell", &["W1"])
            },
        ]);
        let refused = audit(&review, &works(), &BTreeMap::new()).expect_err("unsupported");
        let kinds: Vec<(usize, &str)> = refused
            .problems
            .iter()
            .map(|problem| match problem {
                Problem::Unsupported { sentence, .. } => (*sentence, "unsupported"),
                Problem::Unattributed { sentence, .. } => (*sentence, "unattributed"),
                Problem::Unbacked { sentence, .. } => (*sentence, "unbacked"),
                Problem::Unresolved { sentence, .. } => (*sentence, "unresolved"),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            kinds,
            [
                (1, "unsupported"),
                (2, "unattributed"),
                (3, "unresolved"),
                (3, "unbacked"),
                (4, "unsupported"),
            ]
        );
        let Problem::Unsupported { why, .. } = &refused.problems[0] else {
            panic!("{:?}", refused.problems[0]);
        };
        assert!(why.contains("95"), "{why}");
    }
}
