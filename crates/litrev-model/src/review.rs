//! The written review: sections of paragraphs of sentences, each sentence traceable.

use serde::{Deserialize, Serialize};

use crate::id::WorkId;
use crate::{Locator, Work};

/// A review, independent of any output format.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// Title.
    pub title: String,
    /// Sections in order, the abstract first.
    pub sections: Vec<Section>,
}

/// The part of the review a section is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SectionKind {
    /// The abstract.
    Abstract,
    /// Introduction and scope.
    Introduction,
    /// How the works were found and chosen.
    Method,
    /// The seminal works the literature stands on (a synthesis plan's foundations).
    Foundations,
    /// How the works studied their question, across themes (a synthesis plan's methods).
    Approaches,
    /// One theme.
    Theme,
    /// A part of a theme (key findings, methods used, debates, gaps).
    ThemePart,
    /// What the themes show together.
    Discussion,
    /// Gaps and future directions.
    Gaps,
    /// Conclusion.
    Conclusion,
    /// How the works were found, in full.
    Appendix,
}

/// A headed section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Section {
    /// What part of the review this is.
    pub kind: SectionKind,
    /// Heading text.
    pub heading: String,
    /// Paragraphs.
    pub paragraphs: Vec<Paragraph>,
    /// Tables, read after the paragraphs (the appendix's characteristics of included studies).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tables: Vec<Table>,
    /// Subsections.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subsections: Vec<Section>,
}

/// A table of the review: a caption, column headings and rows of cells, each cell a paragraph
/// whose sentences are traceable like any other (an empty cell has none).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// What the table shows, as its caption reads.
    pub caption: String,
    /// Column headings.
    pub columns: Vec<String>,
    /// Rows, each with one cell per column.
    pub rows: Vec<Vec<Paragraph>>,
}

/// A paragraph: sentences read together.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Paragraph {
    /// Sentences.
    pub sentences: Vec<Sentence>,
}

/// One sentence: text with citations, and where its content came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sentence {
    /// Text and citations in reading order.
    pub segments: Vec<Segment>,
    /// Where the content came from.
    pub basis: Basis,
}

/// A piece of a sentence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Segment {
    /// Plain text (Markdown-escaped when rendered).
    Text(String),
    /// A citation of one or more works.
    Cite {
        /// The works cited.
        works: Vec<WorkId>,
        /// How the citation reads.
        form: CiteForm,
    },
}

/// How a citation reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CiteForm {
    /// In parentheses after the claim: `(Smith, 2011)`.
    Parenthetical,
    /// As the subject of the sentence: `Smith (2011)`.
    Narrative,
}

/// Where a sentence's content came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// Built from the run's own structure: counts, years, lists of works.
    Structure,
    /// Taken from a sentence of a work's text.
    Span(SpanRef),
    /// Written in the review's own words (by the LLM writer) from these sentences of works'
    /// texts; the sentence cites each of their works and says nothing they do not (the audit
    /// checks its terms and numbers against them).
    Paraphrase(Vec<SpanRef>),
}

/// A pointer to a sentence of a work's text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpanRef {
    /// The work.
    pub work: WorkId,
    /// Which field (`abstract`, `title`).
    pub field: String,
    /// Sentence index within the field, from 0.
    pub sentence: usize,
    /// Byte offsets of the sentence within the field.
    pub start: usize,
    /// End byte offset (exclusive).
    pub end: usize,
    /// For a sentence of a work's full text (`field` is `fulltext`): where in which stored text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_text: Option<FullTextSpan>,
}

/// A sentence of a work's full text, as a review quotes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FullTextSpan {
    /// The sha256 of the stored text.
    pub sha256: String,
    /// Where in it.
    pub locator: Locator,
    /// How a citation points at it (`sec. Results`, `p. 4`).
    pub pinpoint: String,
    /// The sentence, verbatim (the audit checks it against the stored text).
    pub text: String,
}

impl SpanRef {
    /// The sentence a span points at in its work's record: the abstract's or title's bytes, or
    /// the full-text sentence it carries; `None` when the locator is out of bounds.
    pub fn text_in<'a>(&'a self, work: &'a Work) -> Option<&'a str> {
        let field = match self.field.as_str() {
            "abstract" => work.abstract_text.as_deref()?,
            "title" => work.title.as_deref()?,
            "fulltext" => return self.full_text.as_ref().map(|span| span.text.as_str()),
            _ => return None,
        };
        field.get(self.start..self.end)
    }

    /// The pinpoint a citation of this span carries (`sec. Results`), for full-text spans.
    pub fn pinpoint(&self) -> Option<&str> {
        self.full_text.as_ref().map(|span| span.pinpoint.as_str())
    }
}

impl Sentence {
    /// A sentence built from structure.
    pub fn structural(segments: Vec<Segment>) -> Sentence {
        Sentence {
            segments,
            basis: Basis::Structure,
        }
    }

    /// The sentence's words without its citations, text segments joined by a space: what the
    /// support checks compare with the cited evidence.
    pub fn plain_text(&self) -> String {
        self.segments
            .iter()
            .filter_map(|segment| match segment {
                Segment::Text(text) => Some(text.as_str()),
                Segment::Cite { .. } => None,
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Every work the sentence cites.
    pub fn cited(&self) -> impl Iterator<Item = &WorkId> {
        self.segments.iter().flat_map(|segment| match segment {
            Segment::Text(_) => [].iter(),
            Segment::Cite { works, .. } => works.iter(),
        })
    }
}

impl Section {
    /// The sentences of this section alone, in reading order: its paragraphs', then its
    /// tables' cell by cell, row by row.
    pub fn own_sentences(&self) -> impl Iterator<Item = &Sentence> {
        self.paragraphs
            .iter()
            .chain(
                self.tables
                    .iter()
                    .flat_map(|table| table.rows.iter().flatten()),
            )
            .flat_map(|paragraph| paragraph.sentences.iter())
    }

    /// This section and its subsections, depth first.
    pub fn walk(&self) -> Vec<&Section> {
        let mut all = vec![self];
        for subsection in &self.subsections {
            all.extend(subsection.walk());
        }
        all
    }
}

impl Review {
    /// Every sentence of the review, in reading order.
    pub fn sentences(&self) -> impl Iterator<Item = &Sentence> {
        self.sections
            .iter()
            .flat_map(Section::walk)
            .flat_map(Section::own_sentences)
    }

    /// Every cited work, in order of first citation, without repeats.
    pub fn cited_works(&self) -> Vec<WorkId> {
        let mut seen = std::collections::BTreeSet::new();
        let mut order = Vec::new();
        for id in self.sentences().flat_map(Sentence::cited) {
            if seen.insert(id.clone()) {
                order.push(id.clone());
            }
        }
        order
    }
}
