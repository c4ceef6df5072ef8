//! The review laid out for the styled formats (HTML, DOCX): headings, paragraphs of text and
//! styled citations, each citation with its references and evidence, and the reference list.
//!
//! One layout for both formats keeps their citations, numbering and evidence identical.

use std::collections::BTreeMap;

use litrev_model::{CiteForm, Paragraph, Review, Section, Segment, Sentence, Work, WorkId};

use crate::Error;
use crate::csl_json::csl_items;
use crate::evidence::ClaimEvidence;
use crate::style::{CitationStyle, StyledCitation, StyledReference, style_review};

/// The review ready to render.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Document {
    pub title: String,
    pub blocks: Vec<Block>,
    /// The reference list in the style's order.
    pub references: Vec<StyledReference>,
    /// Per cited key, the work's sentences the review rests on, each with the claims (sentence
    /// numbers, from 1) that take or paraphrase it, in reading order of first use.
    pub evidence: BTreeMap<String, Vec<EvidenceUse>>,
}

/// One sentence of a cited work and the claims resting on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EvidenceUse {
    pub snippet: String,
    pub claims: Vec<usize>,
}

/// A heading or a paragraph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Block {
    /// A section heading; top-level sections are at level 1.
    Heading {
        level: usize,
        text: String,
    },
    Paragraph(Vec<Inline>),
    /// A table: caption, column headings and rows of cells, each cell a paragraph's inlines.
    Table {
        caption: String,
        columns: Vec<String>,
        rows: Vec<Vec<Vec<Inline>>>,
    },
}

/// A piece of a paragraph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Inline {
    Text(String),
    Cite(Cite),
}

/// A citation as the style prints it, with what a reader hovering it should see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cite {
    pub styled: StyledCitation,
    /// Per cited key: its formatted reference and the sentences of that work the claim rests on.
    pub notes: Vec<CiteNote>,
}

/// What backs one cited work in one sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CiteNote {
    pub key: String,
    pub reference: String,
    /// The work's sentences the claim is taken from or paraphrases (empty for sentences built
    /// from structure, such as counts and lists).
    pub snippets: Vec<String>,
}

impl Document {
    /// Lays out `review` with its citations in `style`; `evidence` is [`crate::claims`] of it.
    ///
    /// # Errors
    /// When a cited work has no key or record: a citation that would not resolve.
    pub fn new(
        review: &Review,
        works: &BTreeMap<WorkId, Work>,
        keys: &BTreeMap<WorkId, String>,
        evidence: &[ClaimEvidence],
        style: &CitationStyle,
    ) -> Result<Document, Error> {
        let cited: Vec<&Work> = keys
            .keys()
            .map(|id| works.get(id).ok_or_else(|| Error::Unresolved(id.clone())))
            .collect::<Result<_, _>>()?;
        let items = csl_items(&cited, keys);
        let styled = style_review(review, keys, &items, style)?;
        let references: BTreeMap<String, String> = styled
            .references
            .iter()
            .map(|reference| (reference.key.clone(), reference_line(reference)))
            .collect();
        let mut layout = Layout {
            citations: styled.citations.into_iter(),
            evidence: evidence.iter(),
            references: &references,
            blocks: Vec::new(),
            used: BTreeMap::new(),
        };
        for section in &review.sections {
            layout.section(section, 1)?;
        }
        Ok(Document {
            title: review.title.clone(),
            blocks: layout.blocks,
            references: styled.references,
            evidence: layout.used,
        })
    }
}

/// A reference as one line of plain text, its margin label first.
pub(crate) fn reference_line(reference: &StyledReference) -> String {
    match &reference.label {
        Some(label) => format!("{} {}", label.plain().trim(), reference.text.plain().trim()),
        None => reference.text.plain().trim().to_owned(),
    }
}

/// Walks the review in reading order — the order the citations were styled in.
struct Layout<'a> {
    citations: std::vec::IntoIter<StyledCitation>,
    evidence: std::slice::Iter<'a, ClaimEvidence>,
    references: &'a BTreeMap<String, String>,
    blocks: Vec<Block>,
    used: BTreeMap<String, Vec<EvidenceUse>>,
}

impl Layout<'_> {
    fn section(&mut self, section: &Section, level: usize) -> Result<(), Error> {
        self.blocks.push(Block::Heading {
            level,
            text: section.heading.clone(),
        });
        for paragraph in &section.paragraphs {
            let inlines = self.paragraph(paragraph)?;
            self.blocks.push(Block::Paragraph(inlines));
        }
        for table in &section.tables {
            let rows = table
                .rows
                .iter()
                .map(|cells| {
                    cells
                        .iter()
                        .map(|cell| self.paragraph(cell))
                        .collect::<Result<Vec<_>, _>>()
                })
                .collect::<Result<Vec<_>, _>>()?;
            self.blocks.push(Block::Table {
                caption: table.caption.clone(),
                columns: table.columns.clone(),
                rows,
            });
        }
        for subsection in &section.subsections {
            self.section(subsection, level + 1)?;
        }
        Ok(())
    }

    fn paragraph(&mut self, paragraph: &Paragraph) -> Result<Vec<Inline>, Error> {
        let mut inlines = Vec::new();
        for sentence in &paragraph.sentences {
            if !inlines.is_empty() {
                push_text(&mut inlines, " ");
            }
            self.sentence(sentence, &mut inlines)?;
        }
        Ok(inlines)
    }

    fn sentence(&mut self, sentence: &Sentence, inlines: &mut Vec<Inline>) -> Result<(), Error> {
        let evidence = self
            .evidence
            .next()
            .expect("claims holds one entry per sentence, in the same order");
        let mut wrote = false;
        for segment in &sentence.segments {
            match segment {
                Segment::Text(text) => {
                    let text = if wrote {
                        text.as_str()
                    } else {
                        text.trim_start()
                    };
                    wrote |= !text.is_empty();
                    push_text(inlines, text);
                }
                Segment::Cite { form, .. } => {
                    let styled = self
                        .citations
                        .next()
                        .expect("one styled citation per citation, in the same order");
                    let mut notes = Vec::new();
                    for key in &styled.keys {
                        notes.push(self.note(key, evidence)?);
                    }
                    let after_space =
                        matches!(inlines.last(), Some(Inline::Text(text)) if text.ends_with(' '));
                    // A superscript citation sits on the word before it.
                    let superscript = styled.text.runs.first().is_some_and(|run| run.superscript);
                    if *form == CiteForm::Parenthetical && wrote && !after_space && !superscript {
                        push_text(inlines, " ");
                    }
                    wrote = true;
                    inlines.push(Inline::Cite(Cite { styled, notes }));
                }
            }
        }
        Ok(())
    }

    fn note(&mut self, key: &str, evidence: &ClaimEvidence) -> Result<CiteNote, Error> {
        let reference = self
            .references
            .get(key)
            .cloned()
            .ok_or_else(|| Error::UnlistedReference(key.to_owned()))?;
        let snippets: Vec<String> = evidence
            .span
            .iter()
            .chain(&evidence.spans)
            .filter(|span| span.key == key)
            .map(|span| span.snippet.clone())
            .collect();
        let used = self.used.entry(key.to_owned()).or_default();
        for snippet in &snippets {
            match used.iter_mut().find(|known| &known.snippet == snippet) {
                Some(known) if known.claims.last() != Some(&evidence.claim) => {
                    known.claims.push(evidence.claim);
                }
                Some(_) => {}
                None => used.push(EvidenceUse {
                    snippet: snippet.clone(),
                    claims: vec![evidence.claim],
                }),
            }
        }
        Ok(CiteNote {
            key: key.to_owned(),
            reference,
            snippets,
        })
    }
}

/// Appends text, joining it to a text run before it.
fn push_text(inlines: &mut Vec<Inline>, text: &str) {
    if let Some(Inline::Text(last)) = inlines.last_mut() {
        last.push_str(text);
    } else {
        inlines.push(Inline::Text(text.to_owned()));
    }
}
