//! The review as Pandoc Markdown with `[@key]` citations.

use std::collections::BTreeMap;

use litrev_model::{CiteForm, Paragraph, Review, Section, Segment, Sentence, WorkId};

use crate::Error;

/// Renders the review. `bibliography` names the file(s) the front matter points pandoc at, and
/// `csl` the style file, so `pandoc --citeproc` formats citations as the run's other files do.
///
/// # Errors
/// [`Error::MissingKey`] when a cited work has no key: a citation that would not resolve.
pub fn review_markdown(
    review: &Review,
    keys: &BTreeMap<WorkId, String>,
    bibliography: &[&str],
    csl: Option<&str>,
) -> Result<String, Error> {
    let mut out = String::new();
    out.push_str("---\n");
    out.push_str(&format!("title: {}\n", yaml_string(&review.title)));
    out.push_str("lang: en\n");
    out.push_str("link-citations: true\n");
    if !bibliography.is_empty() {
        out.push_str("bibliography:\n");
        for file in bibliography {
            out.push_str(&format!("  - {}\n", yaml_string(file)));
        }
    }
    if let Some(csl) = csl {
        out.push_str(&format!("csl: {}\n", yaml_string(csl)));
    }
    out.push_str("---\n");
    for section in &review.sections {
        render_section(section, 1, keys, &mut out)?;
    }
    out.push_str("\n# References\n\n::: {#refs}\n:::\n");
    Ok(out)
}

fn render_section(
    section: &Section,
    level: usize,
    keys: &BTreeMap<WorkId, String>,
    out: &mut String,
) -> Result<(), Error> {
    out.push('\n');
    out.push_str(&"#".repeat(level));
    out.push(' ');
    out.push_str(&escape(&section.heading));
    out.push('\n');
    for paragraph in &section.paragraphs {
        out.push('\n');
        out.push_str(&render_paragraph(paragraph, keys)?);
        out.push('\n');
    }
    for subsection in &section.subsections {
        render_section(subsection, level + 1, keys, out)?;
    }
    Ok(())
}

fn render_paragraph(
    paragraph: &Paragraph,
    keys: &BTreeMap<WorkId, String>,
) -> Result<String, Error> {
    let sentences = paragraph
        .sentences
        .iter()
        .map(|sentence| sentence_markdown(sentence, keys))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(protect_line_start(&sentences.join(" ")))
}

/// One sentence as it reads in `review.md`: escaped text and `@key` / `[@key]` citations.
///
/// # Errors
/// [`Error::MissingKey`] when a cited work has no key.
pub fn sentence_markdown(
    sentence: &Sentence,
    keys: &BTreeMap<WorkId, String>,
) -> Result<String, Error> {
    let mut text = String::new();
    for segment in &sentence.segments {
        match segment {
            Segment::Text(plain) => text.push_str(&escape(plain)),
            Segment::Cite { works, form } => {
                let cited: Vec<String> = works
                    .iter()
                    .map(|work| {
                        keys.get(work)
                            .map(|key| format!("@{key}"))
                            .ok_or_else(|| Error::MissingKey(work.clone()))
                    })
                    .collect::<Result<_, _>>()?;
                match form {
                    CiteForm::Narrative => text.push_str(&cited.join(", ")),
                    CiteForm::Parenthetical => {
                        let joined = cited.join("; ");
                        if !text.is_empty() && !text.ends_with(' ') {
                            text.push(' ');
                        }
                        text.push_str(&format!("[{joined}]"));
                    }
                }
            }
        }
    }
    Ok(text.trim().to_owned())
}

/// Backslash-escapes the characters Pandoc Markdown would read as markup.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for character in text.chars() {
        if matches!(
            character,
            '\\' | '`'
                | '*'
                | '_'
                | '['
                | ']'
                | '{'
                | '}'
                | '<'
                | '>'
                | '#'
                | '@'
                | '$'
                | '~'
                | '^'
                | '|'
        ) {
            out.push('\\');
        }
        out.push(character);
    }
    out
}

/// A paragraph must not open like a list item (`1. `, `- `, `+ `) or a block quote.
fn protect_line_start(paragraph: &str) -> String {
    let digits = paragraph.chars().take_while(char::is_ascii_digit).count();
    let after_digits = &paragraph[digits..];
    let looks_ordered =
        digits > 0 && (after_digits.starts_with(". ") || after_digits.starts_with(") "));
    let looks_bullet = paragraph.starts_with("- ") || paragraph.starts_with("+ ");
    if looks_ordered {
        format!("{}\\{}", &paragraph[..digits], after_digits)
    } else if looks_bullet {
        format!("\\{paragraph}")
    } else {
        paragraph.to_owned()
    }
}

fn yaml_string(text: &str) -> String {
    let escaped = text.replace('\\', "\\\\").replace('"', "\\\"");
    format!("\"{escaped}\"")
}

#[cfg(test)]
mod tests {
    use litrev_model::{Basis, Section, SectionKind, Sentence};

    use super::*;

    fn id(text: &str) -> WorkId {
        text.parse().expect("id")
    }

    #[test]
    fn renders_citations_and_escapes_markup() {
        let keys = BTreeMap::from([
            (id("W1"), "smith2011x".to_owned()),
            (id("W2"), "lee2012y".to_owned()),
        ]);
        let review = Review {
            title: "Q: a \"review\"".into(),
            sections: vec![Section {
                kind: SectionKind::Theme,
                heading: "Costs & *benefits*".into(),
                paragraphs: vec![Paragraph {
                    sentences: vec![
                        Sentence {
                            segments: vec![
                                Segment::Text("12. Rates fell by 5% [n=3] for user@site".into()),
                                Segment::Cite {
                                    works: vec![id("W1"), id("W2")],
                                    form: CiteForm::Parenthetical,
                                },
                                Segment::Text(".".into()),
                            ],
                            basis: Basis::Structure,
                        },
                        Sentence::structural(vec![
                            Segment::Cite {
                                works: vec![id("W1")],
                                form: CiteForm::Narrative,
                            },
                            Segment::Text(" agrees.".into()),
                        ]),
                    ],
                }],
                subsections: Vec::new(),
            }],
        };
        let markdown = review_markdown(&review, &keys, &["references.json"], Some("style.csl"))
            .expect("render");
        assert!(markdown.starts_with("---\ntitle: \"Q: a \\\"review\\\"\"\n"));
        assert!(markdown.contains("# Costs & \\*benefits\\*"));
        assert!(markdown.contains(
            "12\\. Rates fell by 5% \\[n=3\\] for user\\@site [@smith2011x; @lee2012y]. @smith2011x agrees."
        ));
        assert!(markdown.ends_with("::: {#refs}\n:::\n"));
    }

    #[test]
    fn a_cited_work_without_a_key_is_an_error() {
        let review = Review {
            title: "T".into(),
            sections: vec![Section {
                kind: SectionKind::Abstract,
                heading: "A".into(),
                paragraphs: vec![Paragraph {
                    sentences: vec![Sentence::structural(vec![Segment::Cite {
                        works: vec![id("W9")],
                        form: CiteForm::Narrative,
                    }])],
                }],
                subsections: Vec::new(),
            }],
        };
        let error = review_markdown(&review, &BTreeMap::new(), &[], None).expect_err("no key");
        assert!(matches!(error, Error::MissingKey(_)));
    }
}
