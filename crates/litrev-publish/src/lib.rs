//! Run → files: the review in Pandoc Markdown, HTML and DOCX, its references (BibTeX,
//! CSL-JSON, RIS), the corpus and screening tables.
//!
//! HTML and DOCX carry citations and references in the run's [`CitationStyle`] (APA, MLA,
//! IEEE, Chicago, GB/T 7714 or a `.csl` file), formatted by hayagriva in `style.rs`.
//!
//! Formatters are pure: they return the bytes of each file, and the runner writes them and
//! records their hashes. References hold exactly the works the review cites, under the keys
//! of [`litrev_model::assign_keys`], so every `[@key]` resolves in both bibliographies.

mod bibtex;
mod cards;
mod charts;
mod csl_json;
mod document;
mod docx;
mod evidence;
mod graphml;
mod html;
mod markdown;
mod prisma;
mod rekey;
mod ris;
mod style;
mod tables;
mod xml;

use std::collections::BTreeMap;

use litrev_model::{Review, Work, WorkId, assign_keys, sha256_hex};

pub use bibtex::bibtex;
pub use cards::{field_cell, study_cards_csv, study_cards_json};
pub use charts::{CircleNode, bars_svg, citation_circle_svg, stacked_years_svg};
pub use csl_json::csl_json;
pub use evidence::{ClaimEvidence, SpanEvidence, claims};
pub use graphml::{GraphNode, graphml};
pub use markdown::{
    ReadReview, ReadSection, ReadSegment, ReadTable, escape, read_review_markdown, read_sentence,
    review_markdown, sentence_markdown, split_markdown_sentences,
};
pub use prisma::{PrismaCounts, ReportCounts, prisma_svg};
pub use rekey::{rekey_bibtex, rekey_csl_json, rekey_markdown, rekey_ris};
pub use ris::{references_ris, screening_ris};
pub use style::{BuiltinStyle, CitationStyle, StyleName};
pub use tables::{corpus_csv, screening_csv};

/// What went wrong formatting a file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A cited work has no stored record, so it cannot be a reference.
    #[error(
        "the review cites {0}, which has no stored record: refusing to publish a citation that does not resolve"
    )]
    Unresolved(WorkId),
    /// A cited work got no key.
    #[error("no citation key for {0}: refusing to publish a citation that does not resolve")]
    MissingKey(WorkId),
    /// A citation's work is missing from the styled reference list.
    #[error(
        "the citation style left {0} out of the reference list: refusing to publish a citation that does not resolve"
    )]
    UnlistedReference(String),
    /// `--style` names neither a built-in style nor a `.csl` file.
    #[error(
        "unknown citation style `{0}`: use apa, mla, ieee, chicago or gb7714, or the path of a .csl file"
    )]
    UnknownStyle(String),
    /// A `.csl` file is not a style litrev can use.
    #[error(
        "cannot use {} as a citation style: {reason}; pass a CSL 1.0 style file (e.g. from https://github.com/citation-style-language/styles) or one of apa, mla, ieee, chicago, gb7714", path.display()
    )]
    BadStyle {
        /// The file.
        path: std::path::PathBuf,
        /// Why it cannot be used.
        reason: String,
    },
    /// The DOCX writer failed.
    #[error("cannot write review.docx: {0}")]
    Docx(String),
    /// The style could not be written back as a CSL file for pandoc.
    #[error("cannot write style.csl ({0}); this is a bug in litrev: report it with the style")]
    StyleFile(String),
    /// The CSV writer failed.
    #[error("cannot write CSV: {0}")]
    Csv(String),
}

impl From<csv::Error> for Error {
    fn from(error: csv::Error) -> Self {
        Error::Csv(error.to_string())
    }
}

/// A file of the run's output folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    /// File name within the output folder.
    pub name: String,
    /// Contents.
    pub bytes: Vec<u8>,
}

impl Artifact {
    fn new(name: &str, text: String) -> Artifact {
        Artifact {
            name: name.to_owned(),
            bytes: text.into_bytes(),
        }
    }

    /// SHA-256 of the contents, hex.
    pub fn sha256(&self) -> String {
        sha256_hex(&self.bytes)
    }
}

/// The citation keys of the works a review cites.
///
/// # Errors
/// When a cited work has no record among `works`.
pub fn citation_keys(
    review: &Review,
    works: &BTreeMap<WorkId, Work>,
) -> Result<BTreeMap<WorkId, String>, Error> {
    let cited: Vec<&Work> = review
        .cited_works()
        .iter()
        .map(|id| {
            works
                .get(id)
                .filter(|work| !work.is_stub())
                .ok_or_else(|| Error::Unresolved(id.clone()))
        })
        .collect::<Result<_, _>>()?;
    Ok(assign_keys(cited.iter().copied()))
}

/// Formats the review (Markdown, HTML and DOCX, the last two in `style`), its bibliographies
/// and its claim → evidence map.
///
/// # Errors
/// When a cited work has no record among `works`, or the DOCX package cannot be written.
pub fn review_files(
    review: &Review,
    works: &BTreeMap<WorkId, Work>,
    style: &CitationStyle,
) -> Result<Vec<Artifact>, Error> {
    let keys = citation_keys(review, works)?;
    // References in key order, the order most styles sort by anyway.
    let mut ordered: Vec<&Work> = keys.keys().map(|id| &works[id]).collect();
    ordered.sort_by(|a, b| keys[&a.id()].cmp(&keys[&b.id()]));
    let markdown = review_markdown(review, &keys, &["references.json"], Some("style.csl"))?;
    let evidence = claims(review, works, &keys)?;
    let document = document::Document::new(review, works, &keys, &evidence, style)?;
    let evidence = serde_json::to_string_pretty(&evidence).expect("claims always serialise");
    Ok(vec![
        Artifact::new("review.md", markdown),
        Artifact::new("style.csl", style.to_csl()?),
        Artifact::new("review.html", html::review_html(&document, style.title())),
        Artifact {
            name: "review.docx".to_owned(),
            bytes: docx::review_docx(&document)?,
        },
        Artifact::new("references.bib", bibtex(&ordered, &keys)),
        Artifact::new("references.json", csl_json(&ordered, &keys)),
        Artifact::new("references.ris", references_ris(&ordered, &keys)),
        Artifact::new("evidence.json", format!("{evidence}\n")),
    ])
}

#[cfg(test)]
mod tests {
    use litrev_model::{
        Author, Basis, CiteForm, Paragraph, Section, SectionKind, Segment, Sentence, SpanRef,
    };

    use super::*;

    fn id(text: &str) -> WorkId {
        text.parse().expect("id")
    }

    fn work(text_id: &str, author: &str, year: i32, title: &str, abstract_text: &str) -> Work {
        let mut work = Work::stub(id(text_id));
        work.kind = litrev_model::WorkKind::Article;
        work.title = Some(title.to_owned());
        work.authors = vec![Author::named(author)];
        work.year = Some(year);
        work.venue = Some("Journal of Tests & Checks".to_owned());
        work.abstract_text = Some(abstract_text.to_owned());
        work
    }

    /// Two works; a theme section with a subsection; one sentence taken from W1's abstract
    /// citing it, one structural sentence citing both narratively.
    fn review_and_works() -> (Review, BTreeMap<WorkId, Work>) {
        let abstract_text = "Background first. Rates fell by 5% & more.";
        let works = BTreeMap::from([
            (
                id("W1"),
                work("W1", "Ann Smith", 2011, "Falling rates <1%", abstract_text),
            ),
            (
                id("W2"),
                work("W2", "Bo Lee", 2012, "Rising costs", "Costs rose."),
            ),
        ]);
        let start = abstract_text.find("Rates").expect("in the abstract");
        let review = Review {
            title: "Rates & costs: a review".into(),
            sections: vec![Section {
                kind: SectionKind::Theme,
                heading: "Rates <and> costs".into(),
                paragraphs: vec![Paragraph {
                    sentences: vec![Sentence {
                        segments: vec![
                            Segment::Text("Rates fell by 5% & more".into()),
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
                            start,
                            end: abstract_text.len(),
                            full_text: None,
                        }),
                    }],
                }],
                tables: Vec::new(),
                subsections: vec![Section {
                    kind: SectionKind::Theme,
                    heading: "Key findings".into(),
                    paragraphs: vec![Paragraph {
                        sentences: vec![Sentence::structural(vec![
                            Segment::Cite {
                                works: vec![id("W1"), id("W2")],
                                form: CiteForm::Narrative,
                            },
                            Segment::Text(" agree.".into()),
                        ])],
                    }],
                    tables: Vec::new(),
                    subsections: Vec::new(),
                }],
            }],
        };
        (review, works)
    }

    fn file<'a>(artifacts: &'a [Artifact], name: &str) -> &'a [u8] {
        &artifacts
            .iter()
            .find(|artifact| artifact.name == name)
            .unwrap_or_else(|| panic!("{name} is written"))
            .bytes
    }

    #[test]
    fn html_links_citations_to_references_with_their_evidence() {
        let (review, works) = review_and_works();
        let style = CitationStyle::builtin(BuiltinStyle::Apa);
        let artifacts = review_files(&review, &works, &style).expect("publishes");
        let html = String::from_utf8(file(&artifacts, "review.html").to_vec()).expect("UTF-8");
        assert!(html.contains("<title>Rates &amp; costs: a review</title>"));
        assert!(html.contains("<h2 id=\"section-1\">Rates &lt;and&gt; costs</h2>\n"));
        assert!(html.contains("<h3 id=\"section-2\">Key findings</h3>\n"));
        // The side navigation links to both, the part under its section.
        assert!(html.contains(
            "<nav class=\"toc\" aria-label=\"sections\">\n<ol>\n<li><a href=\"#section-1\">Rates &lt;and&gt; costs</a><ol>\n<li><a href=\"#section-2\">Key findings</a></li>\n</ol></li>\n</ol>\n</nav>\n"
        ), "{html}");
        assert!(html.contains(
            "<p>Rates fell by 5% &amp; more <span class=\"citation\">(<a class=\"cite\" href=\"#ref-smith2011falling\" title=\"Smith, A. (2011). Falling rates &lt;1%. Journal of Tests &amp; Checks.\n\nEvidence: “Rates fell by 5% &amp; more.”\">Smith, 2011</a>)</span>.</p>"
        ), "{html}");
        // The structural sentence has no span: hovering shows the references alone. APA
        // orders the works of one citation by author.
        assert!(html.contains(
            "<p><span class=\"citation\"><a class=\"cite\" href=\"#ref-lee2012rising\" title=\"Lee, B. (2012). Rising costs. Journal of Tests &amp; Checks.\">Lee (2012)</a>; <a class=\"cite\" href=\"#ref-smith2011falling\" title=\"Smith, A. (2011). Falling rates &lt;1%. Journal of Tests &amp; Checks.\">Smith (2011)</a></span> agree.</p>"
        ), "{html}");
        assert!(html.contains("<div class=\"csl-entry\" id=\"ref-lee2012rising\">Lee, B. (2012). Rising costs. <i>Journal of Tests &amp; Checks</i>.</div>"), "{html}");
        assert_eq!(html.matches("class=\"csl-entry\"").count(), 2);
        // A citation leads to its reference, and under it to the sentence the claim rests on.
        assert!(html.contains(
            "<ul class=\"evidence-of\" id=\"evidence-smith2011falling\" aria-label=\"evidence\"><li>“Rates fell by 5% &amp; more.” <span class=\"claims\">(claim 1)</span></li></ul>"
        ), "{html}");
        assert!(
            !html.contains("evidence-lee2012rising"),
            "Lee backs no sentence: {html}"
        );
        for target in html.split("href=\"#").skip(1) {
            let target = target.split('"').next().expect("quoted");
            assert!(
                html.contains(&format!("id=\"{target}\"")),
                "{target} resolves"
            );
        }
    }

    #[test]
    fn numeric_styles_number_references_in_citation_order() {
        let (review, works) = review_and_works();
        let style = CitationStyle::builtin(BuiltinStyle::Ieee);
        let artifacts = review_files(&review, &works, &style).expect("publishes");
        let html = String::from_utf8(file(&artifacts, "review.html").to_vec()).expect("UTF-8");
        assert!(html.contains(">[1]</a>"), "{html}");
        assert!(html.contains("<div class=\"references numeric\">"));
        let first = html.find("id=\"ref-smith2011falling\"").expect("listed");
        let second = html.find("id=\"ref-lee2012rising\"").expect("listed");
        assert!(first < second, "IEEE lists works as first cited");
    }

    #[test]
    fn docx_has_heading_styles_citations_and_references() {
        let (review, works) = review_and_works();
        let style = CitationStyle::builtin(BuiltinStyle::Apa);
        let artifacts = review_files(&review, &works, &style).expect("publishes");
        let bytes = file(&artifacts, "review.docx");
        assert!(bytes.starts_with(b"PK"), "a ZIP package");
        let pretty = docx_rs::read_docx(bytes)
            .expect("docx-rs reads it back")
            .json();
        let json = serde_json::from_str::<serde_json::Value>(&pretty)
            .expect("JSON")
            .to_string();
        for expected in [
            "\"name\":\"heading 1\"",
            "\"name\":\"heading 2\"",
            "\"styleId\":\"Bibliography\"",
            "Rates & costs: a review",
            "Rates <and> costs",
            "Smith, 2011",
            "Journal of Tests & Checks",
            "Falling rates <1%",
        ] {
            assert!(json.contains(expected), "{expected} missing from {json}");
        }
        let again = review_files(&review, &works, &style).expect("publishes");
        assert_eq!(
            file(&again, "review.docx"),
            bytes,
            "the same bytes each time"
        );
    }
}
