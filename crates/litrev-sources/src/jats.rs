//! JATS XML (the format of PubMed Central, Europe PMC and most publishers' full texts) read
//! into a [`FullText`]: the article's ids and title, its abstract, the body's sections with
//! their kinds and paragraphs (figure and table captions among them, where they stand), and
//! the reference list with the PMIDs and DOIs it gives.
//!
//! Paragraph text is the elements' text flattened (italics, superscripts, citations kept as
//! their text), white space squeezed; figures and tables inside a paragraph become paragraphs
//! of their own after it. The parser is pure: text in, `FullText` out.

use litrev_model::{CitedReference, FullText, SectionRole, TextFormat, TextSection};
use roxmltree::{Document, Node, ParsingOptions};

use crate::error::{Error, Result};

/// Element names that are not running text of the paragraph holding them.
const FLOATS: [&str; 4] = [
    "fig",
    "table-wrap",
    "disp-formula",
    "supplementary-material",
];

/// Reads a JATS article.
///
/// # Errors
/// [`Error::Parse`] when the text is not XML or has no `<article>`.
pub fn read_jats(xml: &str) -> Result<FullText> {
    let options = ParsingOptions {
        allow_dtd: true,
        ..ParsingOptions::default()
    };
    let bad = |message: String| Error::Parse {
        source_name: "jats",
        message,
    };
    let document =
        Document::parse_with_options(xml, options).map_err(|error| bad(error.to_string()))?;
    let article = document
        .descendants()
        .find(|node| node.is_element() && node.tag_name().name() == "article")
        .ok_or_else(|| bad("no <article> element: not a JATS article".into()))?;
    let meta = find(article, &["front", "article-meta"]);
    let ids = meta
        .into_iter()
        .flat_map(|meta| children(meta, "article-id"))
        .filter_map(|id| {
            let kind = id.attribute("pub-id-type")?;
            let value = flat_text(id)?;
            Some((kind.to_owned(), value))
        })
        .collect();
    let title = meta
        .and_then(|meta| find(meta, &["title-group", "article-title"]))
        .and_then(flat_text);
    let abstract_paragraphs = meta
        .and_then(|meta| child(meta, "abstract"))
        .map(|node| {
            node.descendants()
                .filter(|node| node.is_element() && node.tag_name().name() == "p")
                .filter_map(paragraph_text)
                .collect()
        })
        .unwrap_or_default();
    let mut sections = Vec::new();
    if let Some(body) = child(article, "body") {
        read_section(body, "", SectionRole::Other, 0, &mut sections);
    }
    sections.retain(|section: &TextSection| {
        !section.paragraphs.is_empty() || !section.title.is_empty()
    });
    let references = find(article, &["back", "ref-list"])
        .into_iter()
        .flat_map(|list| outermost(list, |node| is(node, "ref")))
        .filter(|node| is(*node, "ref"))
        .map(read_reference)
        .collect();
    Ok(FullText {
        format: TextFormat::Jats,
        title,
        ids,
        abstract_paragraphs,
        sections,
        references,
    })
}

/// Adds the section `body` and every section inside it, in reading order, to `sections`:
/// each section's own paragraphs, then its subsections. Walked with a stack of its own, so
/// nesting however deep cannot overflow the thread's stack.
fn read_section(
    body: Node,
    title: &str,
    parent: SectionRole,
    depth: usize,
    sections: &mut Vec<TextSection>,
) {
    let mut pending = vec![(body, title.to_owned(), parent, depth)];
    while let Some((node, title, parent, depth)) = pending.pop() {
        let own = SectionRole::of(node.attribute("sec-type"), &title);
        let role = if own == SectionRole::Other {
            parent
        } else {
            own
        };
        let mut paragraphs = Vec::new();
        for part in node.children().filter(Node::is_element) {
            match part.tag_name().name() {
                "p" => {
                    paragraphs.extend(paragraph_text(part));
                    for float in outermost(part, is_float)
                        .into_iter()
                        .filter(|node| is_float(*node))
                    {
                        paragraphs.extend(caption_text(float));
                    }
                }
                name if FLOATS.contains(&name) => paragraphs.extend(caption_text(part)),
                "list" => paragraphs.extend(
                    outermost(part, |node| is(node, "list-item"))
                        .into_iter()
                        .filter(|node| is(*node, "list-item"))
                        .filter_map(flat_text),
                ),
                _ => {}
            }
        }
        // Text before the first heading (or a body without sections) is a section of its own.
        if depth > 0 || !paragraphs.is_empty() {
            sections.push(TextSection {
                title,
                role,
                depth: depth.max(1),
                paragraphs,
                page: None,
            });
        }
        let subsections: Vec<Node> = children(node, "sec").collect();
        for sub in subsections.into_iter().rev() {
            let heading = child(sub, "title").and_then(flat_text).unwrap_or_default();
            pending.push((sub, heading, role, depth + 1));
        }
    }
}

/// A paragraph's running text: its floats left out.
fn paragraph_text(node: Node) -> Option<String> {
    let joined: String = outermost(node, is_float)
        .into_iter()
        .filter(Node::is_text)
        .filter_map(|text| text.text())
        .collect();
    squeeze(&joined)
}

fn is_float(node: Node) -> bool {
    node.is_element() && FLOATS.contains(&node.tag_name().name())
}

/// The nodes inside `node` in document order, not descending into those `stop` holds for
/// (which are listed themselves): each node is visited once, however deep the nesting, so
/// hostile XML costs time in proportion to its size.
fn outermost<'a, 'input>(
    node: Node<'a, 'input>,
    stop: impl Fn(Node) -> bool,
) -> Vec<Node<'a, 'input>> {
    let mut found = Vec::new();
    let mut pending: Vec<Node> = node.children().collect();
    pending.reverse();
    while let Some(next) = pending.pop() {
        found.push(next);
        if !stop(next) {
            let mut inner: Vec<Node> = next.children().collect();
            inner.reverse();
            pending.extend(inner);
        }
    }
    found
}

/// A figure's or table's caption, with its label: `Table 1. Characteristics of…`.
fn caption_text(node: Node) -> Option<String> {
    let caption = child(node, "caption").and_then(flat_text)?;
    Some(match child(node, "label").and_then(flat_text) {
        Some(label) => format!("{} {caption}", label.trim_end_matches('.').to_owned() + "."),
        None => caption,
    })
}

fn read_reference(node: Node) -> CitedReference {
    let parts = outermost(node, |inner| is(inner, "pub-id"));
    let id_of = |kind: &str| {
        parts
            .iter()
            .find(|id| is(**id, "pub-id") && id.attribute("pub-id-type") == Some(kind))
            .and_then(|id| flat_text(*id))
    };
    CitedReference {
        label: node.attribute("id").unwrap_or_default().to_owned(),
        pmid: id_of("pmid"),
        doi: id_of("doi"),
        text: flat_text(node).unwrap_or_default(),
    }
}

fn is(node: Node, name: &str) -> bool {
    node.is_element() && node.tag_name().name() == name
}

fn child<'a, 'input>(node: Node<'a, 'input>, name: &str) -> Option<Node<'a, 'input>> {
    node.children().find(|child| is(*child, name))
}

fn children<'a, 'input>(
    node: Node<'a, 'input>,
    name: &'a str,
) -> impl Iterator<Item = Node<'a, 'input>> + 'a {
    node.children().filter(move |child| is(*child, name))
}

fn find<'a, 'input>(node: Node<'a, 'input>, path: &[&str]) -> Option<Node<'a, 'input>> {
    path.iter().try_fold(node, |node, name| child(node, name))
}

/// All the text inside an element, white space squeezed; `None` when empty.
fn flat_text(node: Node) -> Option<String> {
    let joined: String = node
        .descendants()
        .filter(Node::is_text)
        .filter_map(|text| text.text())
        .collect();
    squeeze(&joined)
}

fn squeeze(text: &str) -> Option<String> {
    let squeezed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!squeezed.is_empty()).then_some(squeezed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_paragraphs_floats_and_references() {
        let xml = r#"<!DOCTYPE article PUBLIC "-//NLM//DTD JATS" "x.dtd">
<article><front><article-meta>
<article-id pub-id-type="pmid">123</article-id><article-id pub-id-type="doi">10.1/x</article-id>
<title-group><article-title>A <italic>trial</italic></article-title></title-group>
<abstract><sec><title>Aim</title><p>We  tested   things.</p></sec></abstract>
</article-meta></front>
<body><p>Lead text.</p>
<sec sec-type="methods"><title>Methods</title><p>We enrolled 40 <italic>adults</italic> [<xref ref-type="bibr" rid="B1">1</xref>].<fig id="f1"><label>Figure 1</label><caption><p>Flow of participants.</p></caption></fig></p>
<sec><title>Statistics</title><p>t-tests.</p></sec></sec>
<sec><title>Strengths and limitations</title><p>Small sample.</p></sec>
</body>
<back><ref-list><ref id="B1"><mixed-citation>Smith J. A study. <pub-id pub-id-type="pmid">99</pub-id></mixed-citation></ref></ref-list></back></article>"#;
        let text = read_jats(xml).expect("a JATS article");
        assert_eq!(text.title.as_deref(), Some("A trial"));
        assert!(text.ids.contains(&("pmid".into(), "123".into())));
        assert_eq!(text.abstract_paragraphs, ["We tested things."]);
        let summary: Vec<(&str, SectionRole, usize, Vec<&str>)> = text
            .sections
            .iter()
            .map(|section| {
                (
                    section.title.as_str(),
                    section.role,
                    section.depth,
                    section.paragraphs.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                ("", SectionRole::Other, 1, vec!["Lead text."]),
                (
                    "Methods",
                    SectionRole::Methods,
                    1,
                    vec![
                        "We enrolled 40 adults [1].",
                        "Figure 1. Flow of participants."
                    ]
                ),
                ("Statistics", SectionRole::Methods, 2, vec!["t-tests."]),
                (
                    "Strengths and limitations",
                    SectionRole::Limitations,
                    1,
                    vec!["Small sample."]
                ),
            ]
        );
        assert_eq!(text.references.len(), 1);
        assert_eq!(text.references[0].label, "B1");
        assert_eq!(text.references[0].pmid.as_deref(), Some("99"));
    }

    #[test]
    fn what_is_not_a_jats_article_is_a_parse_error() {
        assert!(read_jats("not xml").is_err());
        assert!(read_jats("<html><body/></html>").is_err());
    }
}

#[cfg(test)]
mod real_articles {
    use std::io::Read;

    use flate2::read::GzDecoder;
    use litrev_testkit::testdata;

    use super::*;

    /// Reference counts the data's SOURCE.md gives for each article.
    const ARTICLES: [(&str, usize); 8] = [
        ("1471-2180-11-174", 64),
        ("1472-6831-8-11", 31),
        ("6605965a", 34),
        ("ehp-116-1694", 58),
        ("mds526", 40),
        ("pntd.0002065", 32),
        ("pone.0000217", 33),
        ("pone.0046493", 58),
    ];

    #[test]
    fn every_pmc_article_reads_into_sections_with_roles_and_its_references() {
        let Some(data) = testdata() else { return };
        for (name, references) in ARTICLES {
            let path = data.join(format!("pmc-jats-and-medline/pmc_oa_nxml/{name}.nxml.gz"));
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let mut xml = String::new();
            GzDecoder::new(bytes.as_slice())
                .read_to_string(&mut xml)
                .expect("gzip text");
            let text = read_jats(&xml).unwrap_or_else(|error| panic!("{name}: {error}"));
            assert!(
                text.title.as_deref().is_some_and(|title| title.len() > 10),
                "{name}"
            );
            assert!(
                text.ids.iter().any(|(kind, _)| kind == "pmid"),
                "{name}: {:?}",
                text.ids
            );
            assert_eq!(text.references.len(), references, "{name}: references");
            assert!(
                text.references
                    .iter()
                    .all(|reference| !reference.text.is_empty() && !reference.label.is_empty()),
                "{name}"
            );
            let roles: Vec<SectionRole> =
                text.sections.iter().map(|section| section.role).collect();
            for wanted in [SectionRole::Methods, SectionRole::Results] {
                assert!(roles.contains(&wanted), "{name}: {wanted:?} in {roles:?}");
            }
            let words: usize = text
                .paragraphs()
                .map(|(_, _, paragraph)| paragraph.split_whitespace().count())
                .sum();
            assert!(words > 1500, "{name}: only {words} words of body text");
            for (_, _, paragraph) in text.paragraphs() {
                assert_eq!(paragraph.trim(), paragraph, "{name}: squeezed");
                assert!(!paragraph.contains("  "), "{name}: squeezed");
                assert!(
                    !paragraph.contains("</") && !paragraph.contains("<xref"),
                    "{name}: no markup left: {paragraph}"
                );
            }
        }
    }
}
