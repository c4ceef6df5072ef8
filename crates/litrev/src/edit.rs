//! A person's edit of a review's Markdown → a revised [`Review`] the audit can check.
//!
//! Each sentence of the edit that reads exactly as a sentence of the stored review keeps that
//! sentence's basis (its evidence span, paraphrase spans or structure). A new or changed
//! sentence is read as text and `[@key]` citations; a key must name an included work. A
//! sentence that cites nothing is the editor's own structure. A changed sentence still close
//! to a sentence taken from a work keeps that work's span, so the audit says when it no
//! longer reproduces it; any other sentence that cites works must be supported by them, the
//! rule the LLM writer's paraphrases meet: it is given, per cited work, the sentence of the
//! work's abstract (or its title) that backs it best.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use litrev_model::{
    Basis, Paragraph, Review, Section, SectionKind, Segment, Sentence, SpanRef, Table, Work, WorkId,
};
use litrev_model::{RunId, RunStatus};
use litrev_publish::{ReadSection, ReadSegment};
use serde::{Deserialize, Serialize};

use crate::runner::{WriteRecord, included_works};
use crate::{Error, Event, Outcome, Result, Runner, Summary};

/// A changed sentence keeps the span of the taken sentence it shares this much of its words
/// with (Jaccard over lower-cased words): an edit of a quotation rather than a new claim.
const SAME_SENTENCE: f64 = 0.5;

/// One thing an edit breaks, with the sentence it is in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EditProblem {
    /// Sentence number in reading order, from 1 (0: the edit as a whole).
    pub sentence: usize,
    /// The sentence as the edit has it.
    pub text: String,
    /// What does not hold, and what to do.
    pub problem: String,
}

/// The review of a done run, as its `review.md` reads, and how often a person revised it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewText {
    /// The review's Markdown, with `[@key]` citations.
    pub markdown: String,
    /// Earlier versions kept, one per saved edit.
    pub revisions: usize,
}

/// What saving an edit did.
#[derive(Debug, Clone)]
pub struct Revised {
    /// The revision that keeps the text the edit replaced.
    pub revision: i64,
    /// The run as it now stands, its files written again from the edit.
    pub summary: Summary,
}

impl Runner {
    /// The stored review of a done run as Markdown.
    ///
    /// # Errors
    /// When the run is unknown or has no review yet.
    pub fn review_text(&self, run: &RunId) -> Result<ReviewText> {
        let (written, included) = self.written(run)?;
        let keys = litrev_publish::citation_keys(&written.review, &included)?;
        let markdown = litrev_publish::review_markdown(
            &written.review,
            &keys,
            &["references.json"],
            Some("style.csl"),
        )?;
        Ok(ReviewText {
            markdown,
            revisions: self.store().revisions(run, "write")?.len(),
        })
    }

    /// Saves a person's edit of a done run's review: reads it against the stored review,
    /// audits it as the writer's own output is audited, keeps the replaced text as a revision,
    /// and publishes every file again from the edit.
    ///
    /// # Errors
    /// [`Error::EditRefused`] listing what does not hold (nothing is saved then);
    /// [`Error::NotDone`] when the run is not done; a failure publishing.
    pub fn edit_review(
        &mut self,
        run: &RunId,
        markdown: &str,
        events: &dyn Fn(&Event),
    ) -> Result<Revised> {
        let (written, included) = self.written(run)?;
        let mut keys = litrev_publish::citation_keys(&written.review, &included)?;
        // Any included work may be cited, under the key it would get; a cited work keeps its own.
        let taken: BTreeSet<String> = keys.values().cloned().collect();
        for (work, key) in litrev_model::assign_keys(included.values()) {
            if !keys.contains_key(&work) && !taken.contains(&key) {
                keys.insert(work, key);
            }
        }
        let review =
            revise(markdown, &written.review, &keys, &included).map_err(Error::EditRefused)?;
        // Runs stored before the full-text step have no output of it: no texts to check.
        let fulltext: crate::fulltext::FulltextRecord = self
            .store()
            .step_output(run, "fulltext")?
            .unwrap_or_default();
        let texts = self.full_texts(&fulltext)?;
        litrev_audit::audit(&review, &included, &texts)
            .map_err(|refused| Error::EditRefused(described(&refused.problems, &review)))?;
        let words = review.sentences().map(litrev_write::words_of).sum();
        let record = WriteRecord {
            review,
            words,
            llm: written.llm,
        };
        let revision =
            self.store_mut()
                .revise_step(run, "write", &record, &["audit", "publish"])?;
        match self.drive(run, true, events)? {
            Outcome::Done(summary) => Ok(Revised {
                revision: revision.id,
                summary,
            }),
            Outcome::AwaitingApproval { .. }
            | Outcome::AwaitingDownloads { .. }
            | Outcome::AwaitingPages { .. }
            | Outcome::NeedsClarification { .. } => Err(Error::NotDone {
                run: run.to_string(),
                why: "it went back to a gate".to_owned(),
            }),
        }
    }

    /// A run's record, when it is done; else [`Error::NotDone`] saying its status and then
    /// `what_to_do`.
    pub(crate) fn done_run(
        &self,
        run: &RunId,
        what_to_do: &str,
    ) -> Result<litrev_store::RunRecord> {
        let record = self.store().run(run)?;
        if record.status != RunStatus::Done {
            return Err(Error::NotDone {
                run: run.to_string(),
                why: format!("it is {}; {what_to_do}", record.status.name()),
            });
        }
        Ok(record)
    }

    /// A done run's stored review and the works it may cite.
    fn written(&self, run: &RunId) -> Result<(WriteRecord, BTreeMap<WorkId, Work>)> {
        self.done_run(run, "wait until it is done, or `litrev resume` it")?;
        let written: WriteRecord = self.output(run, "write")?;
        let entries = self.store().corpus(run)?;
        let works = self.described_works(&entries)?;
        let decisions = self.decisions_in_force(run)?;
        Ok((written, included_works(&decisions, &works)))
    }
}

/// Reads `markdown` as a revision of `original`. `keys` are the citation keys of the works it
/// may cite (the included works).
///
/// # Errors
/// Every key that names no included work, and an edit with no section.
pub fn revise(
    markdown: &str,
    original: &Review,
    keys: &BTreeMap<WorkId, String>,
    citable: &BTreeMap<WorkId, Work>,
) -> Result<Review, Vec<EditProblem>> {
    let read = litrev_publish::read_review_markdown(markdown);
    let mut problems = Vec::new();
    if read.sections.is_empty() {
        problems.push(EditProblem {
            sentence: 0,
            text: String::new(),
            problem: "the edit has no `#` heading: keep the review's sections".to_owned(),
        });
        return Err(problems);
    }
    let works_by_key: HashMap<&str, &WorkId> =
        keys.iter().map(|(id, key)| (key.as_str(), id)).collect();
    let kept = KeptSentences::of(original, keys);
    let kinds: HashMap<&str, SectionKind> = original
        .sections
        .iter()
        .flat_map(Section::walk)
        .map(|section| (section.heading.as_str(), section.kind))
        .collect();
    let mut reader = SentenceReader {
        kept: &kept,
        works_by_key: &works_by_key,
        citable,
        problems: &mut problems,
        number: 0,
    };
    let mut preamble = read.preamble.clone();
    let mut sections: Vec<(usize, Section)> = Vec::new();
    for block in &read.sections {
        let mut paragraphs: Vec<Paragraph> = std::mem::take(&mut preamble)
            .iter()
            .chain(&block.paragraphs)
            .map(|paragraph| reader.paragraph(paragraph))
            .collect();
        paragraphs.retain(|paragraph| !paragraph.sentences.is_empty());
        let tables = block
            .tables
            .iter()
            .map(|table| Table {
                caption: table.caption.clone(),
                columns: table.columns.clone(),
                rows: table
                    .rows
                    .iter()
                    .map(|cells| cells.iter().map(|cell| reader.paragraph(cell)).collect())
                    .collect(),
            })
            .collect();
        sections.push((
            block.level,
            Section {
                kind: kind_of(block, &kinds),
                heading: block.heading.clone(),
                paragraphs,
                tables,
                subsections: Vec::new(),
            },
        ));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Review {
        title: read.title.unwrap_or_else(|| original.title.clone()),
        sections: nest(sections),
    })
}

/// A heading the review had keeps its kind; a new one is a theme at the top level and a
/// theme's part below it.
fn kind_of(block: &ReadSection, kinds: &HashMap<&str, SectionKind>) -> SectionKind {
    match kinds.get(block.heading.as_str()) {
        Some(kind) => *kind,
        None if block.level <= 1 => SectionKind::Theme,
        None => SectionKind::ThemePart,
    }
}

/// Nests flat headed sections by level: each goes under the nearest earlier one of a lower
/// level.
fn nest(flat: Vec<(usize, Section)>) -> Vec<Section> {
    let mut stack: Vec<(usize, Section)> = Vec::new();
    let mut top = Vec::new();
    let close = |stack: &mut Vec<(usize, Section)>, top: &mut Vec<Section>| {
        if let Some((_, section)) = stack.pop() {
            match stack.last_mut() {
                Some((_, parent)) => parent.subsections.push(section),
                None => top.push(section),
            }
        }
    };
    for (level, section) in flat {
        while stack.last().is_some_and(|(open, _)| *open >= level) {
            close(&mut stack, &mut top);
        }
        stack.push((level, section));
    }
    while !stack.is_empty() {
        close(&mut stack, &mut top);
    }
    top
}

/// The stored review's sentences by their Markdown, found by their first word.
struct KeptSentences<'a> {
    by_first_word: HashMap<String, Vec<(String, &'a Sentence)>>,
    taken: Vec<(&'a Sentence, BTreeSet<String>)>,
}

impl<'a> KeptSentences<'a> {
    fn of(review: &'a Review, keys: &BTreeMap<WorkId, String>) -> KeptSentences<'a> {
        let mut by_first_word: HashMap<String, Vec<(String, &Sentence)>> = HashMap::new();
        let mut taken = Vec::new();
        for sentence in review.sentences() {
            let Ok(markdown) = litrev_publish::sentence_markdown(sentence, keys) else {
                continue;
            };
            if matches!(sentence.basis, Basis::Span(_)) {
                taken.push((sentence, words(&sentence.plain_text())));
            }
            by_first_word
                .entry(first_word(&markdown).to_owned())
                .or_default()
                .push((markdown, sentence));
        }
        for candidates in by_first_word.values_mut() {
            candidates.sort_by_key(|(markdown, _)| std::cmp::Reverse(markdown.len()));
        }
        KeptSentences {
            by_first_word,
            taken,
        }
    }

    /// The longest stored sentence `text` starts with, ending at white space or the end.
    fn at_start(&self, text: &str) -> Option<(usize, &'a Sentence)> {
        self.by_first_word
            .get(first_word(text))?
            .iter()
            .find(|(markdown, _)| {
                text.starts_with(markdown.as_str())
                    && text[markdown.len()..]
                        .chars()
                        .next()
                        .is_none_or(char::is_whitespace)
            })
            .map(|(markdown, sentence)| (markdown.len(), *sentence))
    }

    /// The span of the taken sentence closest to `text` among those from `cited` works, when
    /// close enough to be an edit of it.
    fn edited_quote(&self, text: &str, cited: &[WorkId]) -> Option<&'a SpanRef> {
        let mine = words(text);
        self.taken
            .iter()
            .filter_map(|(sentence, theirs)| match &sentence.basis {
                Basis::Span(span) if cited.contains(&span.work) => {
                    Some((span, jaccard(&mine, theirs)))
                }
                _ => None,
            })
            .filter(|(_, similarity)| *similarity >= SAME_SENTENCE)
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(span, _)| span)
    }
}

fn first_word(text: &str) -> &str {
    text.split_whitespace().next().unwrap_or("")
}

fn words(text: &str) -> BTreeSet<String> {
    litrev_text::word_tokens(text)
        .into_iter()
        .map(|word| word.to_lowercase())
        .collect()
}

fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        return 0.0;
    }
    a.intersection(b).count() as f64 / union as f64
}

/// Reads paragraphs into sentences, numbering them in reading order as the audit does.
struct SentenceReader<'r, 'a> {
    kept: &'r KeptSentences<'a>,
    works_by_key: &'r HashMap<&'r str, &'r WorkId>,
    citable: &'r BTreeMap<WorkId, Work>,
    problems: &'r mut Vec<EditProblem>,
    number: usize,
}

impl SentenceReader<'_, '_> {
    fn paragraph(&mut self, markdown: &str) -> Paragraph {
        let mut sentences = Vec::new();
        let mut rest = markdown.trim_start();
        while !rest.is_empty() {
            if let Some((length, sentence)) = self.kept.at_start(rest) {
                self.number += 1;
                sentences.push(sentence.clone());
                rest = rest[length..].trim_start();
                continue;
            }
            let next = litrev_publish::split_markdown_sentences(rest)
                .first()
                .map_or(rest.len(), |sentence| {
                    // A sentence of the split is a slice of `rest`; it ends where it ends there.
                    sentence.as_ptr() as usize - rest.as_ptr() as usize + sentence.len()
                });
            self.number += 1;
            sentences.push(self.new_sentence(rest[..next].trim()));
            rest = rest[next..].trim_start();
        }
        Paragraph { sentences }
    }

    /// A sentence the stored review does not have, with the basis it can claim.
    fn new_sentence(&mut self, markdown: &str) -> Sentence {
        let mut segments = Vec::new();
        for segment in litrev_publish::read_sentence(markdown) {
            match segment {
                ReadSegment::Text(text) => segments.push(Segment::Text(text)),
                ReadSegment::Cite { keys, form } => {
                    let mut works = Vec::new();
                    for key in keys {
                        match self.works_by_key.get(key.as_str()) {
                            Some(work) => works.push((*work).clone()),
                            None => self.problems.push(EditProblem {
                                sentence: self.number,
                                text: markdown.to_owned(),
                                problem: format!(
                                    "`@{key}` is not the key of an included work: cite a key from references.bib, or remove the citation"
                                ),
                            }),
                        }
                    }
                    if !works.is_empty() {
                        segments.push(Segment::Cite { works, form });
                    }
                }
            }
        }
        let mut sentence = Sentence::structural(segments);
        let cited: Vec<WorkId> = sentence.cited().cloned().collect();
        if cited.is_empty() {
            return sentence;
        }
        let text = sentence.plain_text();
        let spans: Vec<SpanRef> = cited
            .iter()
            .filter_map(|work| backing_span(&text, work, self.citable))
            .collect();
        let evidence: Vec<&str> = spans
            .iter()
            .filter_map(|span| span_text(span, self.citable))
            .collect();
        let supported = litrev_text::check_support(&text, &evidence).is_ok();
        sentence.basis = match self.kept.edited_quote(&text, &cited) {
            // A broken quotation is reported as one, not as an unsupported claim.
            Some(span) if !supported => Basis::Span(span.clone()),
            _ => Basis::Paraphrase(spans),
        };
        sentence
    }
}

/// The sentence of the work's abstract (or its title, when it has no abstract) that shares
/// most of `text`'s terms.
fn backing_span(text: &str, work: &WorkId, citable: &BTreeMap<WorkId, Work>) -> Option<SpanRef> {
    let record = citable.get(work)?;
    let (field, body) = match (&record.abstract_text, &record.title) {
        (Some(abstract_text), _) if !abstract_text.trim().is_empty() => ("abstract", abstract_text),
        (_, Some(title)) => ("title", title),
        _ => return None,
    };
    let ranges = match field {
        "abstract" => litrev_text::split_sentences(body),
        _ => vec![(0, body.len())],
    };
    ranges
        .into_iter()
        .enumerate()
        .map(|(index, (start, end))| {
            let overlap = litrev_text::support(text, &[&body[start..end]]).overlap;
            (index, start, end, overlap)
        })
        .max_by(|a, b| a.3.total_cmp(&b.3))
        .map(|(sentence, start, end, _)| SpanRef {
            work: work.clone(),
            field: field.to_owned(),
            sentence,
            start,
            end,
            full_text: None,
        })
}

/// The text a span of [`backing_span`] points at.
fn span_text<'a>(span: &'a SpanRef, citable: &'a BTreeMap<WorkId, Work>) -> Option<&'a str> {
    span.text_in(citable.get(&span.work)?)
}

/// Describes the audit's problems with the edit's sentences, numbered as the audit numbers
/// them.
pub(crate) fn described(problems: &[litrev_audit::Problem], review: &Review) -> Vec<EditProblem> {
    use litrev_audit::Problem;
    let texts: Vec<String> = review
        .sentences()
        .map(|sentence| {
            sentence
                .segments
                .iter()
                .map(|segment| match segment {
                    Segment::Text(text) => text.clone(),
                    Segment::Cite { works, .. } => format!(
                        " [{}]",
                        works
                            .iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join("; ")
                    ),
                })
                .collect()
        })
        .collect();
    problems
        .iter()
        .map(|problem| {
            let (sentence, what) = match problem {
                Problem::Unresolved { sentence, work } => (
                    *sentence,
                    format!("it cites {work}, which is not an included work with a record"),
                ),
                Problem::BadLocator { sentence, work } => (
                    *sentence,
                    format!("its evidence points outside the text of {work}"),
                ),
                Problem::NotVerbatim { sentence, work } => (
                    *sentence,
                    format!(
                        "it was taken from {work} and no longer matches that work's sentence: restore the quotation, or rewrite it so that it does not read as one"
                    ),
                ),
                Problem::Unattributed { sentence, work } => (
                    *sentence,
                    format!("it is taken from {work} but no longer cites it"),
                ),
                Problem::Unbacked { sentence, work } => (
                    *sentence,
                    format!("it cites {work}, but none of its evidence comes from that work"),
                ),
                Problem::Unsupported { sentence, why } => (
                    *sentence,
                    format!(
                        "the works it cites do not support it ({why}): say what they say, or cite the works that say it"
                    ),
                ),
            };
            EditProblem {
                sentence,
                text: texts.get(sentence.wrapping_sub(1)).cloned().unwrap_or_default(),
                problem: what,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use litrev_model::CiteForm;

    use super::*;

    fn id(text: &str) -> WorkId {
        text.parse().expect("id")
    }

    fn citable() -> BTreeMap<WorkId, Work> {
        let mut work = Work::stub(id("W1"));
        work.title = Some("A trial".into());
        work.abstract_text =
            Some("We ran a trial. Bleeding fell by 80% in the treated arm.".into());
        BTreeMap::from([(id("W1"), work)])
    }

    fn original() -> Review {
        Review {
            title: "T".into(),
            sections: vec![Section {
                kind: SectionKind::Theme,
                heading: "Bleeding".into(),
                paragraphs: vec![Paragraph {
                    sentences: vec![
                        Sentence {
                            segments: vec![
                                Segment::Text("Bleeding fell by 80% in the treated arm".into()),
                                Segment::Cite {
                                    works: vec![id("W1")],
                                    form: CiteForm::Parenthetical,
                                },
                                Segment::Text(".".into()),
                            ],
                            basis: Basis::Span(SpanRef {
                                work: id("W1"),
                                field: "abstract".into(),
                                sentence: 1,
                                start: 16,
                                end: 56,
                                full_text: None,
                            }),
                        },
                        Sentence::structural(vec![Segment::Text("One work.".into())]),
                    ],
                }],
                tables: vec![Table {
                    caption: "Results | quoted".into(),
                    columns: vec!["Study".into(), "Result".into()],
                    rows: vec![vec![
                        Paragraph {
                            sentences: vec![Sentence::structural(vec![Segment::Cite {
                                works: vec![id("W1")],
                                form: CiteForm::Narrative,
                            }])],
                        },
                        Paragraph {
                            sentences: vec![Sentence {
                                segments: vec![
                                    Segment::Text("“".into()),
                                    Segment::Text("Bleeding fell by 80%".into()),
                                    Segment::Text("…”".into()),
                                    Segment::Cite {
                                        works: vec![id("W1")],
                                        form: CiteForm::Parenthetical,
                                    },
                                ],
                                basis: Basis::Span(SpanRef {
                                    work: id("W1"),
                                    field: "abstract".into(),
                                    sentence: 1,
                                    start: 16,
                                    end: 36,
                                    full_text: None,
                                }),
                            }],
                        },
                    ]],
                }],
                subsections: Vec::new(),
            }],
        }
    }

    fn keys() -> BTreeMap<WorkId, String> {
        BTreeMap::from([(id("W1"), "lee2020trial".to_owned())])
    }

    fn audited(markdown: &str) -> Result<Review, Vec<EditProblem>> {
        let review = revise(markdown, &original(), &keys(), &citable())?;
        litrev_audit::audit(&review, &citable(), &BTreeMap::new())
            .map_err(|refused| described(&refused.problems, &review))?;
        Ok(review)
    }

    #[test]
    fn an_unchanged_review_reads_back_as_itself() {
        let markdown =
            litrev_publish::review_markdown(&original(), &keys(), &[], None).expect("render");
        let review = audited(&markdown).expect("unchanged");
        assert_eq!(review, original());
    }

    #[test]
    fn own_sentences_and_moved_quotes_pass() {
        let markdown = "# Bleeding\n\nThis section is short. Bleeding fell by 80% in the treated arm [@lee2020trial].\n\n## New part\n\nThe trial found that bleeding fell in the treated arm [@lee2020trial].\n";
        let review = audited(markdown).expect("grounded");
        assert_eq!(review.sections[0].subsections[0].heading, "New part");
        assert_eq!(
            review.sections[0].subsections[0].kind,
            SectionKind::ThemePart
        );
        let new = &review.sections[0].subsections[0].paragraphs[0].sentences[0];
        assert!(matches!(&new.basis, Basis::Paraphrase(spans) if spans[0].sentence == 1));
    }

    #[test]
    fn an_invented_key_is_refused() {
        let problems = audited("# Bleeding\n\nIt works [@smith2024made].\n").expect_err("invented");
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].sentence, 1);
        assert!(problems[0].problem.contains("@smith2024made"));
    }

    #[test]
    fn a_changed_quote_and_an_unsupported_claim_are_refused() {
        let problems = audited(
            "# Bleeding\n\nBleeding fell by 95% in the treated arm [@lee2020trial]. The drug cures cancer in children [@lee2020trial].\n",
        )
        .expect_err("ungrounded");
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].problem.contains("no longer matches"));
        assert_eq!(problems[1].sentence, 2);
        assert!(problems[1].problem.contains("do not support"));
    }
}
