//! The review as Pandoc Markdown with `[@key]` citations.

use std::collections::BTreeMap;

use litrev_model::{Basis, CiteForm, Paragraph, Review, Section, Segment, Sentence, Table, WorkId};

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
    for table in &section.tables {
        render_table(table, keys, out)?;
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

/// A pipe table with its caption above it (`Table: …`, Pandoc's caption paragraph); each cell
/// is its paragraph on one line.
fn render_table(
    table: &Table,
    keys: &BTreeMap<WorkId, String>,
    out: &mut String,
) -> Result<(), Error> {
    out.push_str(&format!("\nTable: {}\n\n", escape(&table.caption)));
    let row = |cells: Vec<String>| format!("| {} |\n", cells.join(" | "));
    out.push_str(&row(table
        .columns
        .iter()
        .map(|column| escape(column))
        .collect()));
    out.push_str(&row(vec!["---".to_owned(); table.columns.len()]));
    for cells in &table.rows {
        let cells = cells
            .iter()
            .map(|cell| render_paragraph(cell, keys))
            .collect::<Result<Vec<_>, _>>()?;
        out.push_str(&row(cells));
    }
    Ok(())
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
                // A sentence quoted from a full text cites its work with the pinpoint
                // (`[@key, sec. Results]`, Pandoc's locator), when it is the only work cited.
                let pinpoint = match &sentence.basis {
                    Basis::Span(span) if works.as_slice() == std::slice::from_ref(&span.work) => {
                        span.pinpoint()
                    }
                    _ => None,
                };
                match form {
                    CiteForm::Narrative => {
                        text.push_str(&cited.join(", "));
                        if let Some(pinpoint) = pinpoint {
                            text.push_str(&format!(" [{}]", escape(pinpoint)));
                        }
                    }
                    CiteForm::Parenthetical => {
                        let mut joined = cited.join("; ");
                        if let Some(pinpoint) = pinpoint {
                            joined.push_str(&format!(", {}", escape(pinpoint)));
                        }
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

/// A review read back from its Markdown: the title of the front matter and the headed blocks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadReview {
    /// The front matter's `title`, when it has one.
    pub title: Option<String>,
    /// Headed blocks in order; the closing `# References` block is left out.
    pub sections: Vec<ReadSection>,
    /// Paragraphs before the first heading.
    pub preamble: Vec<String>,
}

/// One heading and the paragraphs under it, before the next heading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadSection {
    /// Heading level, 1 for `#`.
    pub level: usize,
    /// Heading text, unescaped.
    pub heading: String,
    /// Paragraphs, each as Markdown with its lines joined by a space.
    pub paragraphs: Vec<String>,
    /// Pipe tables, after the paragraphs.
    pub tables: Vec<ReadTable>,
}

/// A pipe table read back: its caption and headings unescaped, its cells as Markdown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadTable {
    /// The `Table:` paragraph above it, without the prefix.
    pub caption: String,
    /// Column headings.
    pub columns: Vec<String>,
    /// Rows of cells, each cell a paragraph's Markdown.
    pub rows: Vec<Vec<String>>,
}

/// A piece of a sentence read from Markdown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadSegment {
    /// Text, unescaped.
    Text(String),
    /// A citation by keys: `[@a; @b]` or a bare `@a`.
    Cite {
        /// The keys, without `@`.
        keys: Vec<String>,
        /// How it reads.
        form: CiteForm,
    },
}

/// Reads Markdown in the shape [`review_markdown`] writes: front matter, `#` headings,
/// paragraphs separated by blank lines, and a closing references block (`::: {#refs}`).
pub fn read_review_markdown(markdown: &str) -> ReadReview {
    let mut read = ReadReview::default();
    let mut lines = markdown.lines().peekable();
    if lines.peek().is_some_and(|line| line.trim_end() == "---") {
        lines.next();
        for line in lines.by_ref() {
            if line.trim_end() == "---" {
                break;
            }
            if let Some(title) = line.strip_prefix("title:") {
                read.title = Some(yaml_unquote(title.trim()));
            }
        }
    }
    let mut paragraph: Vec<&str> = Vec::new();
    let mut table: Vec<&str> = Vec::new();
    let flush = |paragraph: &mut Vec<&str>, read: &mut ReadReview| {
        if paragraph.is_empty() {
            return;
        }
        let text = paragraph.join(" ");
        paragraph.clear();
        match read.sections.last_mut() {
            Some(section) => section.paragraphs.push(text),
            None => read.preamble.push(text),
        }
    };
    for line in lines {
        let trimmed = line.trim();
        if trimmed.starts_with('|') && paragraph.is_empty() {
            table.push(trimmed);
            continue;
        }
        flush_table(&mut table, &mut read);
        let hashes = trimmed.chars().take_while(|c| *c == '#').count();
        if (1..=6).contains(&hashes) && trimmed[hashes..].starts_with(' ') {
            flush(&mut paragraph, &mut read);
            read.sections.push(ReadSection {
                level: hashes,
                heading: unescape(trimmed[hashes..].trim()),
                paragraphs: Vec::new(),
                tables: Vec::new(),
            });
        } else if trimmed.is_empty() || trimmed.starts_with(":::") {
            flush(&mut paragraph, &mut read);
        } else {
            paragraph.push(trimmed);
        }
    }
    flush_table(&mut table, &mut read);
    flush(&mut paragraph, &mut read);
    if read.sections.last().is_some_and(|section| {
        section.level == 1 && section.heading == "References" && section.paragraphs.is_empty()
    }) {
        read.sections.pop();
    }
    read
}

/// Ends a pipe table: its rows (the delimiter row skipped) go to the current section, with the
/// `Table:` paragraph just above it as its caption.
fn flush_table(lines: &mut Vec<&str>, read: &mut ReadReview) {
    if lines.is_empty() {
        return;
    }
    let mut rows = lines.drain(..).map(table_cells);
    let columns = rows
        .next()
        .unwrap_or_default()
        .iter()
        .map(|heading| unescape(heading))
        .collect();
    let rows: Vec<Vec<String>> = rows
        .filter(|cells| {
            !cells
                .iter()
                .all(|cell| !cell.is_empty() && cell.chars().all(|c| matches!(c, '-' | ':' | ' ')))
        })
        .collect();
    let Some(section) = read.sections.last_mut() else {
        return;
    };
    let caption = match section.paragraphs.last() {
        Some(last) if last.starts_with("Table:") => section
            .paragraphs
            .pop()
            .map(|caption| unescape(caption["Table:".len()..].trim()))
            .unwrap_or_default(),
        _ => String::new(),
    };
    section.tables.push(ReadTable {
        caption,
        columns,
        rows,
    });
}

/// The cells of one pipe-table line, split at the pipes Markdown does not escape.
fn table_cells(line: &str) -> Vec<String> {
    let inner = line.trim().strip_prefix('|').unwrap_or(line);
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut characters = inner.chars();
    while let Some(character) = characters.next() {
        match character {
            '\\' => {
                cell.push(character);
                if let Some(escaped) = characters.next() {
                    cell.push(escaped);
                }
            }
            '|' => cells.push(std::mem::take(&mut cell).trim().to_owned()),
            _ => cell.push(character),
        }
    }
    if !cell.trim().is_empty() {
        cells.push(cell.trim().to_owned());
    }
    cells
}

/// Splits a paragraph's Markdown into sentences: a stop (`.`, `!`, `?`, after any closing
/// quote, bracket or citation) followed by white space and a capital, a digit, `@` or `[`.
/// Stops inside a citation's brackets or escaped by `\` do not count.
pub fn split_markdown_sentences(paragraph: &str) -> Vec<&str> {
    let mut sentences = Vec::new();
    let mut start = 0;
    let mut depth = 0usize;
    let mut characters = paragraph.char_indices().peekable();
    while let Some((index, character)) = characters.next() {
        match character {
            '\\' => {
                characters.next();
            }
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            '.' | '!' | '?' if depth == 0 => {
                let mut end = index + character.len_utf8();
                while let Some(&(next, closing)) = characters.peek() {
                    if !matches!(closing, '"' | '”' | ')' | '’' | '\'') {
                        break;
                    }
                    end = next + closing.len_utf8();
                    characters.next();
                }
                let rest = &paragraph[end..];
                let after = rest.trim_start();
                let spaced = after.len() < rest.len();
                let opens = after.chars().next().is_some_and(|next| {
                    next.is_uppercase()
                        || next.is_ascii_digit()
                        || matches!(next, '@' | '[' | '"' | '“')
                });
                if spaced && opens {
                    push_sentence(paragraph, start, end, &mut sentences);
                    start = end;
                }
            }
            _ => {}
        }
    }
    push_sentence(paragraph, start, paragraph.len(), &mut sentences);
    sentences
}

fn push_sentence<'a>(text: &'a str, start: usize, end: usize, sentences: &mut Vec<&'a str>) {
    let sentence = text[start..end].trim();
    if !sentence.is_empty() {
        sentences.push(sentence);
    }
}

/// Reads one sentence's Markdown into text and citations: `[@a; @b]` is parenthetical (the
/// keys kept, any prefix or locator text inside the brackets dropped), a bare `@a` narrative
/// (a locator right after it, `@a [p. 4]`, dropped too), and `\x` the character `x`.
pub fn read_sentence(markdown: &str) -> Vec<ReadSegment> {
    let mut segments = Vec::new();
    let mut text = String::new();
    let mut rest = markdown;
    while let Some(character) = rest.chars().next() {
        if character == '\\' {
            let escaped = rest[1..].chars().next();
            match escaped {
                Some(escaped) => {
                    text.push(escaped);
                    rest = &rest[1 + escaped.len_utf8()..];
                }
                None => {
                    text.push('\\');
                    rest = "";
                }
            }
            continue;
        }
        if character == '['
            && let Some(close) = rest.find(']')
            && rest[1..close].contains('@')
        {
            let keys: Vec<String> = rest[1..close]
                .split(';')
                .filter_map(|item| item.split_once('@').map(|(_, after)| citation_key(after)))
                .filter(|key| !key.is_empty())
                .map(str::to_owned)
                .collect();
            if !keys.is_empty() {
                let trimmed = text.trim_end().len();
                text.truncate(trimmed);
                flush_text(&mut text, &mut segments);
                segments.push(ReadSegment::Cite {
                    keys,
                    form: CiteForm::Parenthetical,
                });
                rest = &rest[close + 1..];
                continue;
            }
        }
        if character == '@' {
            let key = citation_key(&rest[1..]);
            let starts_word = text
                .chars()
                .last()
                .is_none_or(|last| !last.is_alphanumeric());
            if !key.is_empty() && starts_word {
                flush_text(&mut text, &mut segments);
                segments.push(ReadSegment::Cite {
                    keys: vec![key.to_owned()],
                    form: CiteForm::Narrative,
                });
                rest = &rest[1 + key.len()..];
                // `@key [p. 4]`: the locator belongs to the citation, not to the text.
                if let Some(bracketed) = rest.strip_prefix(" [")
                    && let Some(close) = bracketed.find(']')
                    && !bracketed[..close].contains('@')
                {
                    rest = &bracketed[close + 1..];
                }
                continue;
            }
        }
        text.push(character);
        rest = &rest[character.len_utf8()..];
    }
    flush_text(&mut text, &mut segments);
    segments
}

fn flush_text(text: &mut String, segments: &mut Vec<ReadSegment>) {
    if !text.is_empty() {
        segments.push(ReadSegment::Text(std::mem::take(text)));
    }
}

/// The citation key at the start of `text`, as Pandoc reads one: letters, digits and `_`,
/// with internal punctuation (`:.#$%&-+?<>~/`) when a letter or digit follows it.
fn citation_key(text: &str) -> &str {
    let mut end = 0;
    let mut characters = text.char_indices().peekable();
    while let Some((index, character)) = characters.next() {
        if character.is_alphanumeric() || character == '_' {
            end = index + character.len_utf8();
        } else if ":.#$%&-+?<>~/".contains(character)
            && end > 0
            && characters
                .peek()
                .is_some_and(|(_, next)| next.is_alphanumeric() || *next == '_')
        {
            continue;
        } else {
            break;
        }
    }
    &text[..end]
}

/// Undoes [`escape`]: `\x` reads as `x`.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut characters = text.chars();
    while let Some(character) = characters.next() {
        if character == '\\' {
            out.push(characters.next().unwrap_or('\\'));
        } else {
            out.push(character);
        }
    }
    out
}

/// Undoes [`yaml_string`] (and takes a bare value as it is).
fn yaml_unquote(value: &str) -> String {
    match value
        .strip_prefix('"')
        .and_then(|inner| inner.strip_suffix('"'))
    {
        Some(inner) => inner.replace("\\\"", "\"").replace("\\\\", "\\"),
        None => value.to_owned(),
    }
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
                tables: Vec::new(),
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
                tables: Vec::new(),
                subsections: Vec::new(),
            }],
        };
        let error = review_markdown(&review, &BTreeMap::new(), &[], None).expect_err("no key");
        assert!(matches!(error, Error::MissingKey(_)));
    }

    #[test]
    fn reads_back_headings_paragraphs_and_citations() {
        let markdown = "---\ntitle: \"Q: a \\\"review\\\"\"\nlang: en\n---\n\n# Costs & \\*benefits\\*\n\nRates fell by 5% \\[n=3\\] for user\\@site [@smith2011x; @lee2012y]. @smith2011x agrees.\nA second line.\n\n## Part\n\nMore [see @lee2012y, p. 3].\n\n# References\n\n::: {#refs}\n:::\n";
        let read = read_review_markdown(markdown);
        assert_eq!(read.title.as_deref(), Some("Q: a \"review\""));
        assert_eq!(read.sections.len(), 2);
        assert_eq!(read.sections[0].heading, "Costs & *benefits*");
        assert_eq!(
            (read.sections[1].level, read.sections[1].heading.as_str()),
            (2, "Part")
        );
        let paragraph = &read.sections[0].paragraphs[0];
        let sentences = split_markdown_sentences(paragraph);
        assert_eq!(
            sentences,
            vec![
                "Rates fell by 5% \\[n=3\\] for user\\@site [@smith2011x; @lee2012y].",
                "@smith2011x agrees.",
                "A second line."
            ]
        );
        assert_eq!(
            read_sentence(sentences[0]),
            vec![
                ReadSegment::Text("Rates fell by 5% [n=3] for user@site".into()),
                ReadSegment::Cite {
                    keys: vec!["smith2011x".into(), "lee2012y".into()],
                    form: CiteForm::Parenthetical
                },
                ReadSegment::Text(".".into()),
            ]
        );
        assert_eq!(
            read_sentence(sentences[1])[0],
            ReadSegment::Cite {
                keys: vec!["smith2011x".into()],
                form: CiteForm::Narrative
            }
        );
        assert_eq!(
            read_sentence(&read.sections[1].paragraphs[0])[1],
            ReadSegment::Cite {
                keys: vec!["lee2012y".into()],
                form: CiteForm::Parenthetical
            }
        );
    }

    #[test]
    fn full_text_quotes_cite_with_their_pinpoint_and_read_back_without_it() {
        use litrev_model::{FullTextSpan, Locator, SpanRef};
        let work: WorkId = "W1".parse().expect("id");
        let keys = BTreeMap::from([(work.clone(), "smith2020".to_owned())]);
        let span = SpanRef {
            work: work.clone(),
            field: "fulltext".into(),
            sentence: 3,
            start: 0,
            end: 21,
            full_text: Some(FullTextSpan {
                sha256: "abc".into(),
                locator: Locator {
                    section: 2,
                    paragraph: 0,
                    start: 0,
                    end: 21,
                },
                pinpoint: "sec. Results".into(),
                text: "Falls fell by a third.".into(),
            }),
        };
        for (form, expected) in [
            (
                CiteForm::Parenthetical,
                "Falls fell by a third [@smith2020, sec. Results].",
            ),
            (
                CiteForm::Narrative,
                "Falls fell by a third @smith2020 [sec. Results].",
            ),
        ] {
            let sentence = Sentence {
                segments: vec![
                    Segment::Text("Falls fell by a third ".into()),
                    Segment::Cite {
                        works: vec![work.clone()],
                        form,
                    },
                    Segment::Text(".".into()),
                ],
                basis: Basis::Span(span.clone()),
            };
            let markdown = sentence_markdown(&sentence, &keys).expect("renders");
            assert_eq!(markdown, expected);
            let read = read_sentence(&markdown);
            assert!(
                read.iter().all(|segment| match segment {
                    ReadSegment::Text(text) => !text.contains("sec."),
                    ReadSegment::Cite { keys, .. } => keys == &["smith2020".to_owned()],
                }),
                "{read:?}"
            );
        }
    }

    #[test]
    fn tables_render_as_pipe_tables_and_read_back_cell_by_cell() {
        let keys = BTreeMap::from([(id("W1"), "smith2011x".to_owned())]);
        let cell = |segments: Vec<Segment>| Paragraph {
            sentences: vec![Sentence::structural(segments)],
        };
        let review = Review {
            title: "T".into(),
            sections: vec![Section {
                kind: SectionKind::Appendix,
                heading: "Appendix".into(),
                paragraphs: vec![cell(vec![Segment::Text("Before the table.".into())])],
                tables: vec![Table {
                    caption: "Designs | sizes".into(),
                    columns: vec!["Study".into(), "Sample | size".into()],
                    rows: vec![vec![
                        cell(vec![Segment::Cite {
                            works: vec![id("W1")],
                            form: CiteForm::Narrative,
                        }]),
                        cell(vec![
                            Segment::Text("“119 patients | controls”".into()),
                            Segment::Cite {
                                works: vec![id("W1")],
                                form: CiteForm::Parenthetical,
                            },
                        ]),
                    ]],
                }],
                subsections: Vec::new(),
            }],
        };
        let markdown = review_markdown(&review, &keys, &[], None).expect("renders");
        assert!(
            markdown.contains(
                "Table: Designs \\| sizes\n\n| Study | Sample \\| size |\n| --- | --- |\n| @smith2011x | “119 patients \\| controls” [@smith2011x] |\n"
            ),
            "{markdown}"
        );
        let read = read_review_markdown(&markdown);
        let section = &read.sections[0];
        assert_eq!(section.paragraphs, vec!["Before the table.".to_owned()]);
        assert_eq!(
            section.tables,
            vec![ReadTable {
                caption: "Designs | sizes".into(),
                columns: vec!["Study".into(), "Sample | size".into()],
                rows: vec![vec![
                    "@smith2011x".into(),
                    "“119 patients \\| controls” [@smith2011x]".into()
                ]],
            }]
        );
    }

    #[test]
    fn a_rendered_sentence_reads_back_as_itself() {
        let keys = BTreeMap::from([(id("W1"), "smith2011x".to_owned())]);
        let sentence = Sentence::structural(vec![
            Segment::Text("Doses of 3 mg/kg [weekly] cut *bleeds* by 80%".into()),
            Segment::Cite {
                works: vec![id("W1")],
                form: CiteForm::Parenthetical,
            },
            Segment::Text(".".into()),
        ]);
        let markdown = sentence_markdown(&sentence, &keys).expect("render");
        let read = read_sentence(&markdown);
        assert_eq!(
            read,
            vec![
                ReadSegment::Text("Doses of 3 mg/kg [weekly] cut *bleeds* by 80%".into()),
                ReadSegment::Cite {
                    keys: vec!["smith2011x".into()],
                    form: CiteForm::Parenthetical
                },
                ReadSegment::Text(".".into()),
            ]
        );
        assert_eq!(split_markdown_sentences(&markdown), vec![markdown.as_str()]);
    }
}
