//! `review.html`: the review as one standalone page (inline CSS, no scripts, no outside
//! assets), its citations in the run's style, each linking to its reference and showing the
//! reference and its evidence when hovered; under each reference, the work's sentences the
//! review rests on, with the claims resting on each.

use std::collections::BTreeMap;

use crate::document::{Block, Cite, CiteNote, Document, EvidenceUse, Inline};
use crate::style::{Run, StyledReference, StyledText};
use crate::xml::escape;

/// The stylesheet: readable measure, hanging references, citations that say they are links.
const CSS: &str = "body{font-family:Georgia,'Times New Roman',serif;line-height:1.55;max-width:46em;margin:2em auto;padding:0 1em;color:#1a1a1a;background:#fff}
h1{font-size:1.8em;line-height:1.2}h2{font-size:1.35em;margin-top:1.8em}h3{font-size:1.12em}h4,h5,h6{font-size:1em}
a.cite{color:#0b5394;text-decoration:none;border-bottom:1px dotted #0b5394}a.cite:hover{background:#eef4fb}
.references .csl-entry{padding-left:2em;text-indent:-2em;margin:.5em 0}
.references.numeric .csl-entry{display:flex;gap:.6em;padding-left:0;text-indent:0}
.references .csl-label{flex:0 0 auto;min-width:2.5em}
.references .csl-entry:target,.references .csl-entry:target+ul.evidence-of{background:#fff7d6}
ul.evidence-of{margin:.1em 0 .8em 2em;padding-left:1em;font-size:.9em;color:#333;border-left:2px solid #dfe6ef;list-style:none}
ul.evidence-of .claims{color:#666;font-size:.9em}
table{border-collapse:collapse;font-size:.85em;margin:1em 0;display:block;overflow-x:auto}caption{text-align:left;font-style:italic;margin-bottom:.3em}
th,td{border:1px solid #dfe6ef;padding:.3em .5em;vertical-align:top;text-align:left}th{background:#f4f7fb}
footer{margin-top:3em;font-size:.85em;color:#555}
nav.toc{font-family:system-ui,sans-serif;font-size:.9em;border-left:3px solid #dfe6ef;padding:.2em 0 .2em 1em;margin:1.5em 0}
nav.toc ol{list-style:none;padding-left:0;margin:0}nav.toc ol ol{padding-left:1em;font-size:.95em}
nav.toc a{color:#0b5394;text-decoration:none}nav.toc a:hover{text-decoration:underline}
@media (min-width:80em){nav.toc{position:fixed;top:2em;left:1em;width:16em;max-height:90vh;overflow:auto;margin:0}}
";

/// Renders the laid-out review as a standalone HTML page; `style_title` names the citation
/// style in the footer.
pub(crate) fn review_html(document: &Document, style_title: &str) -> String {
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str(&format!("<title>{}</title>\n", escape(&document.title)));
    out.push_str(&format!(
        "<style>\n{CSS}</style>\n</head>\n<body>\n<main>\n"
    ));
    out.push_str(&format!("<h1>{}</h1>\n", escape(&document.title)));
    out.push_str(&navigation(document));
    let mut headings = 0;
    for block in &document.blocks {
        match block {
            Block::Heading { level, text } => {
                // The page title is the h1; sections start at h2.
                headings += 1;
                let tag = format!("h{}", (level + 1).min(6));
                out.push_str(&format!(
                    "<{tag} id=\"{}\">{}</{tag}>\n",
                    section_id(headings),
                    escape(text)
                ));
            }
            Block::Paragraph(inlines) => {
                out.push_str(&format!("<p>{}</p>\n", inlines_html(inlines)));
            }
            Block::Table {
                caption,
                columns,
                rows,
            } => {
                out.push_str(&format!(
                    "<table>\n<caption>{}</caption>\n<thead><tr>",
                    escape(caption)
                ));
                for column in columns {
                    out.push_str(&format!("<th scope=\"col\">{}</th>", escape(column)));
                }
                out.push_str("</tr></thead>\n<tbody>\n");
                for cells in rows {
                    out.push_str("<tr>");
                    for cell in cells {
                        out.push_str(&format!("<td>{}</td>", inlines_html(cell)));
                    }
                    out.push_str("</tr>\n");
                }
                out.push_str("</tbody>\n</table>\n");
            }
        }
    }
    out.push_str(&references_html(&document.references, &document.evidence));
    out.push_str(&format!(
        "</main>\n<footer>References formatted in {}.</footer>\n</body>\n</html>\n",
        escape(style_title)
    ));
    out
}

/// A paragraph's text and citations as HTML.
fn inlines_html(inlines: &[Inline]) -> String {
    inlines
        .iter()
        .map(|inline| match inline {
            Inline::Text(text) => escape(text),
            Inline::Cite(cite) => cite_html(cite),
        })
        .collect()
}

/// The id of the `number`th heading (from 1), which the navigation links to.
fn section_id(number: usize) -> String {
    format!("section-{number}")
}

/// The side navigation: the sections and, under each, its parts (the themes and theme
/// parts), linking to their headings.
fn navigation(document: &Document) -> String {
    let mut out = String::from("<nav class=\"toc\" aria-label=\"sections\">\n<ol>\n");
    let mut open_sub = false;
    let mut headings = 0;
    for block in &document.blocks {
        let Block::Heading { level, text } = block else {
            continue;
        };
        headings += 1;
        let item = format!(
            "<li><a href=\"#{}\">{}</a>",
            section_id(headings),
            escape(text)
        );
        match level {
            1 => {
                if open_sub {
                    out.push_str("</ol></li>\n");
                    open_sub = false;
                } else if headings > 1 {
                    out.push_str("</li>\n");
                }
                out.push_str(&item);
            }
            2 => {
                if !open_sub {
                    out.push_str("<ol>\n");
                    open_sub = true;
                }
                out.push_str(&item);
                out.push_str("</li>\n");
            }
            _ => {}
        }
    }
    if open_sub {
        out.push_str("</ol>");
    }
    if headings > 0 {
        out.push_str("</li>\n");
    }
    out.push_str("</ol>\n</nav>\n");
    out
}

/// The id of a reference's entry, which citations link to.
pub(crate) fn reference_id(key: &str) -> String {
    format!("ref-{key}")
}

/// A citation: each part the style marks as one work's links to that work's reference; a
/// citation whose parts are not marked links as a whole to its first work.
fn cite_html(cite: &Cite) -> String {
    let text = &cite.styled.text;
    let mut out = String::from("<span class=\"citation\">");
    if text.marks_keys() {
        let mut index = 0;
        while index < text.runs.len() {
            let key = text.runs[index].key.as_deref();
            let end = text.runs[index..]
                .iter()
                .position(|run| run.key.as_deref() != key)
                .map_or(text.runs.len(), |offset| index + offset);
            let inner: String = text.runs[index..end]
                .iter()
                .map(|run| run_html(run, false))
                .collect();
            match key.and_then(|key| cite.notes.iter().find(|note| note.key == key)) {
                Some(note) => out.push_str(&link(&note.key, &hover(&[note]), &inner)),
                None => out.push_str(&inner),
            }
            index = end;
        }
    } else if let Some(first) = cite.notes.first() {
        let notes: Vec<&CiteNote> = cite.notes.iter().collect();
        let inner: String = text.runs.iter().map(|run| run_html(run, false)).collect();
        out.push_str(&link(&first.key, &hover(&notes), &inner));
    }
    out.push_str("</span>");
    out
}

fn link(key: &str, title: &str, inner: &str) -> String {
    format!(
        "<a class=\"cite\" href=\"#{}\" title=\"{}\">{inner}</a>",
        escape(&reference_id(key)),
        escape(title)
    )
}

/// What hovering shows: each work's reference and the sentences of it the claim rests on.
fn hover(notes: &[&CiteNote]) -> String {
    notes
        .iter()
        .map(|note| {
            let mut text = note.reference.clone();
            for snippet in &note.snippets {
                text.push_str(&format!("\n\nEvidence: “{}”", snippet.trim()));
            }
            text
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The reference list; under each entry, the work's sentences the review rests on, so a
/// citation, which links to the entry, leads to the source sentences of its claims.
fn references_html(
    references: &[StyledReference],
    evidence: &BTreeMap<String, Vec<EvidenceUse>>,
) -> String {
    let numeric = references.iter().any(|reference| reference.label.is_some());
    let mut out = String::from("<h2 id=\"references\">References</h2>\n");
    out.push_str(if numeric {
        "<div class=\"references numeric\">\n"
    } else {
        "<div class=\"references\">\n"
    });
    for reference in references {
        out.push_str(&format!(
            "<div class=\"csl-entry\" id=\"{}\">",
            escape(&reference_id(&reference.key))
        ));
        if let Some(label) = &reference.label {
            out.push_str(&format!(
                "<span class=\"csl-label\">{}</span><span>",
                styled_html(label, true)
            ));
            out.push_str(&styled_html(&reference.text, true));
            out.push_str("</span>");
        } else {
            out.push_str(&styled_html(&reference.text, true));
        }
        out.push_str("</div>\n");
        if let Some(uses) = evidence.get(&reference.key).filter(|uses| !uses.is_empty()) {
            out.push_str(&evidence_html(&reference.key, uses));
        }
    }
    out.push_str("</div>\n");
    out
}

/// The sentences of one work the review rests on, each with the claims resting on it.
fn evidence_html(key: &str, uses: &[EvidenceUse]) -> String {
    let mut out = format!(
        "<ul class=\"evidence-of\" id=\"{}\" aria-label=\"evidence\">",
        escape(&format!("evidence-{key}"))
    );
    for used in uses {
        let claims = used
            .claims
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let label = if used.claims.len() == 1 {
            "claim"
        } else {
            "claims"
        };
        out.push_str(&format!(
            "<li>“{}” <span class=\"claims\">({label} {claims})</span></li>",
            escape(used.snippet.trim())
        ));
    }
    out.push_str("</ul>\n");
    out
}

fn styled_html(text: &StyledText, links: bool) -> String {
    text.runs.iter().map(|run| run_html(run, links)).collect()
}

/// One run with its formatting; its link too when `links` and the URL is a web address.
fn run_html(run: &Run, links: bool) -> String {
    let mut html = escape(&run.text);
    for (on, open, close) in [
        (run.italic, "<i>", "</i>"),
        (run.bold, "<b>", "</b>"),
        (
            run.small_caps,
            "<span style=\"font-variant:small-caps\">",
            "</span>",
        ),
        (run.superscript, "<sup>", "</sup>"),
        (run.subscript, "<sub>", "</sub>"),
    ] {
        if on {
            html = format!("{open}{html}{close}");
        }
    }
    match run.url.as_deref() {
        Some(url) if links && (url.starts_with("https://") || url.starts_with("http://")) => {
            format!("<a href=\"{}\">{html}</a>", escape(url))
        }
        _ => html,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, key: Option<&str>) -> Run {
        Run {
            key: key.map(str::to_owned),
            ..Run::plain(text)
        }
    }

    #[test]
    fn links_each_marked_work_and_escapes_the_hover_text() {
        let cite = Cite {
            styled: crate::style::StyledCitation {
                text: StyledText {
                    runs: vec![
                        run("(", None),
                        run("Smith & Lee, 2011", Some("smith2011")),
                        run("; ", None),
                        run("Ng, 2012", Some("ng2012")),
                        run(")", None),
                    ],
                },
                keys: vec!["smith2011".into(), "ng2012".into()],
            },
            notes: vec![
                CiteNote {
                    key: "smith2011".into(),
                    reference: "Smith, J., & Lee, K. (2011). <Odd> \"title\".".into(),
                    snippets: vec!["Rates fell by 5%.".into()],
                },
                CiteNote {
                    key: "ng2012".into(),
                    reference: "Ng, A. (2012). T.".into(),
                    snippets: Vec::new(),
                },
            ],
        };
        let html = cite_html(&cite);
        assert_eq!(
            html,
            "<span class=\"citation\">(<a class=\"cite\" href=\"#ref-smith2011\" title=\"Smith, J., &amp; Lee, K. (2011). &lt;Odd&gt; &quot;title&quot;.\n\nEvidence: “Rates fell by 5%.”\">Smith &amp; Lee, 2011</a>; <a class=\"cite\" href=\"#ref-ng2012\" title=\"Ng, A. (2012). T.\">Ng, 2012</a>)</span>"
        );
    }

    #[test]
    fn an_unmarked_citation_links_as_a_whole() {
        let cite = Cite {
            styled: crate::style::StyledCitation {
                text: StyledText {
                    runs: vec![run("[1]–[3]", None)],
                },
                keys: vec!["a".into(), "b".into()],
            },
            notes: vec![
                CiteNote {
                    key: "a".into(),
                    reference: "A".into(),
                    snippets: Vec::new(),
                },
                CiteNote {
                    key: "b".into(),
                    reference: "B".into(),
                    snippets: Vec::new(),
                },
            ],
        };
        assert_eq!(
            cite_html(&cite),
            "<span class=\"citation\"><a class=\"cite\" href=\"#ref-a\" title=\"A\n\nB\">[1]–[3]</a></span>"
        );
    }

    #[test]
    fn only_web_links_become_anchors() {
        let mut safe = run("https://doi.org/10.1/x", None);
        safe.url = Some("https://doi.org/10.1/x".into());
        safe.italic = true;
        assert_eq!(
            run_html(&safe, true),
            "<a href=\"https://doi.org/10.1/x\"><i>https://doi.org/10.1/x</i></a>"
        );
        let mut unsafe_link = run("x", None);
        unsafe_link.url = Some("javascript:alert(1)".into());
        assert_eq!(run_html(&unsafe_link, true), "x");
    }
}
