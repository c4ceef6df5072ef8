//! A work's full text as litrev reads it: sections with their role in a paper (methods,
//! results, limitations…), paragraphs of plain text, figure and table captions, and the
//! references with their ids. Every span of full text litrev quotes is a [`Locator`] into it.

use serde::{Deserialize, Serialize};

/// Where a full text came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextFormat {
    /// JATS XML (PubMed Central, Europe PMC, publishers).
    Jats,
    /// A PDF's extracted text.
    Pdf,
    /// A web page's readable text (grey literature).
    Html,
}

/// The role of a section in a paper, from its `sec-type` or its heading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SectionRole {
    /// Introduction or background.
    Introduction,
    /// Methods, materials, design, participants, analysis.
    Methods,
    /// Results or findings.
    Results,
    /// Discussion.
    Discussion,
    /// Conclusions.
    Conclusions,
    /// The study's limitations (or strengths and limitations).
    Limitations,
    /// Anything else (acknowledgements, case reports, unnamed parts).
    Other,
}

impl SectionRole {
    /// The kind a section's `sec-type` attribute (JATS) or heading names; headings are read by
    /// their words, so "Materials and Methods", "2. Methods" and "Patients and methods" agree.
    /// A heading naming limitations wins over the other words it holds.
    pub fn of(sec_type: Option<&str>, heading: &str) -> SectionRole {
        let words = |text: &str| -> Vec<String> {
            text.split(|c: char| !c.is_alphanumeric())
                .filter(|word| !word.is_empty())
                .map(str::to_lowercase)
                .collect()
        };
        let heading_words = words(heading);
        let has = |wanted: &[&str]| {
            heading_words
                .iter()
                .any(|word| wanted.contains(&word.as_str()))
        };
        if has(&["limitation", "limitations", "weaknesses"]) {
            return SectionRole::Limitations;
        }
        let from_words = |all: &[String]| {
            let has = |wanted: &[&str]| all.iter().any(|word| wanted.contains(&word.as_str()));
            if has(&["introduction", "intro", "background"]) {
                Some(SectionRole::Introduction)
            } else if has(&[
                "method",
                "methods",
                "methodology",
                "materials",
                "design",
                "participants",
                "subjects",
                "patients",
            ]) {
                Some(SectionRole::Methods)
            } else if has(&["results", "findings", "result"]) {
                Some(SectionRole::Results)
            } else if has(&["discussion"]) {
                Some(SectionRole::Discussion)
            } else if has(&["conclusion", "conclusions", "summary"]) {
                Some(SectionRole::Conclusions)
            } else {
                None
            }
        };
        sec_type
            .and_then(|sec_type| from_words(&words(sec_type)))
            .or_else(|| from_words(&heading_words))
            .unwrap_or(SectionRole::Other)
    }
}

/// A section of a full text: its heading, its kind, its depth (1 for top-level sections) and
/// its paragraphs of plain text, white space squeezed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextSection {
    /// The heading as written (empty for text before the first heading).
    pub title: String,
    /// Its role; a subsection without a role of its own takes its parent's.
    pub role: SectionRole,
    /// 1 for top-level sections.
    pub depth: usize,
    /// The paragraphs, in reading order; captions of its figures and tables among them.
    pub paragraphs: Vec<String>,
    /// The page it is printed on (PDF only: a section is cut where a page ends).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<u32>,
}

/// A reference of a full text, with the ids it gives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CitedReference {
    /// The reference's id in the document (`B12`), which citations in the text point at.
    pub label: String,
    /// Its PubMed id, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pmid: Option<String>,
    /// Its DOI, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doi: Option<String>,
    /// The reference as printed, plain text.
    pub text: String,
}

/// A work's full text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FullText {
    /// What it was read from.
    pub format: TextFormat,
    /// The article's title, when the text gives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Ids the text gives for itself: `pmid`, `pmcid`, `doi` (as written).
    #[serde(default)]
    pub ids: Vec<(String, String)>,
    /// The abstract's paragraphs.
    #[serde(default)]
    pub abstract_paragraphs: Vec<String>,
    /// The body, section by section, in reading order.
    pub sections: Vec<TextSection>,
    /// The reference list.
    #[serde(default)]
    pub references: Vec<CitedReference>,
}

/// Where a span of full text is: a paragraph of a section and byte offsets in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Locator {
    /// Index into [`FullText::sections`].
    pub section: usize,
    /// Index into that section's paragraphs.
    pub paragraph: usize,
    /// Byte offset of the span's start in the paragraph.
    pub start: usize,
    /// Byte offset of its end (exclusive).
    pub end: usize,
}

impl FullText {
    /// The text a locator points at, if it points inside a paragraph on char boundaries.
    pub fn span(&self, locator: &Locator) -> Option<&str> {
        self.sections
            .get(locator.section)?
            .paragraphs
            .get(locator.paragraph)?
            .get(locator.start..locator.end)
    }

    /// Every paragraph with its section index and paragraph index, in reading order.
    pub fn paragraphs(&self) -> impl Iterator<Item = (usize, usize, &str)> {
        self.sections
            .iter()
            .enumerate()
            .flat_map(|(section, part)| {
                part.paragraphs
                    .iter()
                    .enumerate()
                    .map(move |(paragraph, text)| (section, paragraph, text.as_str()))
            })
    }

    /// How a citation points at a locator: the page of a PDF (`p. 4`), else the top-level
    /// section's heading (`sec. Results`), else the paragraph's place (`para. 3`).
    pub fn pinpoint(&self, locator: &Locator) -> String {
        let Some(section) = self.sections.get(locator.section) else {
            return format!("para. {}", locator.paragraph + 1);
        };
        if let Some(page) = section.page {
            return format!("p. {page}");
        }
        // A subsection is cited by its own heading when it has one.
        let heading = section.title.trim();
        if heading.is_empty() {
            format!("para. {}", locator.paragraph + 1)
        } else {
            format!("sec. {heading}")
        }
    }

    /// The sections of one kind.
    pub fn sections_of(&self, role: SectionRole) -> impl Iterator<Item = &TextSection> {
        self.sections
            .iter()
            .filter(move |section| section.role == role)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_and_sec_types_name_the_kind() {
        assert_eq!(
            SectionRole::of(Some("materials|methods"), "Whatever"),
            SectionRole::Methods
        );
        assert_eq!(
            SectionRole::of(None, "2. Patients and Methods"),
            SectionRole::Methods
        );
        assert_eq!(
            SectionRole::of(None, "Results and discussion"),
            SectionRole::Results
        );
        assert_eq!(
            SectionRole::of(Some("discussion"), "Strengths and limitations"),
            SectionRole::Limitations
        );
        assert_eq!(
            SectionRole::of(None, "Acknowledgements"),
            SectionRole::Other
        );
        assert_eq!(
            SectionRole::of(None, "Background"),
            SectionRole::Introduction
        );
    }

    #[test]
    fn a_locator_reads_its_span_or_nothing() {
        let text = FullText {
            format: TextFormat::Jats,
            title: None,
            ids: Vec::new(),
            abstract_paragraphs: Vec::new(),
            sections: vec![TextSection {
                title: "Results".into(),
                role: SectionRole::Results,
                depth: 1,
                paragraphs: vec!["Rates fell by 5%. Costs rose.".into()],
                page: None,
            }],
            references: Vec::new(),
        };
        let at = |start, end| Locator {
            section: 0,
            paragraph: 0,
            start,
            end,
        };
        assert_eq!(text.span(&at(0, 17)), Some("Rates fell by 5%."));
        assert_eq!(text.span(&at(0, 99)), None);
        assert_eq!(
            text.span(&Locator {
                section: 1,
                ..at(0, 1)
            }),
            None
        );
        assert_eq!(text.paragraphs().count(), 1);
    }
}
