//! The review laid out for the styled formats (HTML, DOCX): headings, paragraphs of text and
//! styled citations, each citation with its references and evidence, and the reference list.
//!
//! One layout for both formats keeps their citations, numbering and evidence identical.

use std::collections::BTreeMap;

use litrev_model::{CiteForm, Review, Section, Segment, Sentence, Work, WorkId};

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
        let references: BTreeMap<&str, String> = styled
            .references
            .iter()
            .map(|reference| (reference.key.as_str(), reference_line(reference)))
            .collect();
        let mut layout = Layout {
            citations: styled.citations.into_iter(),
            evidence: evidence.iter(),
            references: &references,
            blocks: Vec::new(),
        };
        for section in &review.sections {
            layout.section(section, 1)?;
        }
        Ok(Document {
            title: review.title.clone(),
            blocks: layout.blocks,
            references: styled.references,
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
    references: &'a BTreeMap<&'a str, String>,
    blocks: Vec<Block>,
}

impl Layout<'_> {
    fn section(&mut self, section: &Section, level: usize) -> Result<(), Error> {
        self.blocks.push(Block::Heading {
            level,
            text: section.heading.clone(),
        });
        for paragraph in &section.paragraphs {
            let mut inlines = Vec::new();
            for sentence in &paragraph.sentences {
                if !inlines.is_empty() {
                    push_text(&mut inlines, " ");
                }
                self.sentence(sentence, &mut inlines)?;
            }
            self.blocks.push(Block::Paragraph(inlines));
        }
        for subsection in &section.subsections {
            self.section(subsection, level + 1)?;
        }
        Ok(())
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
                    let notes = styled
                        .keys
                        .iter()
                        .map(|key| self.note(key, evidence))
                        .collect::<Result<_, _>>()?;
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

    fn note(&self, key: &str, evidence: &ClaimEvidence) -> Result<CiteNote, Error> {
        let reference = self
            .references
            .get(key)
            .cloned()
            .ok_or_else(|| Error::UnlistedReference(key.to_owned()))?;
        let snippets = evidence
            .span
            .iter()
            .chain(&evidence.spans)
            .filter(|span| span.key == key)
            .map(|span| span.snippet.clone())
            .collect();
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
