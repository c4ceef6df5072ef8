//! PDF → `FullText`: the text of each page (lopdf), running headers and footers and page
//! numbers dropped, words broken across lines mended, lines joined into paragraphs, and section
//! headings recognised where a line holds one alone. A section is cut where a page ends, so every
//! span knows its page.
//!
//! PDFs are hostile: the parser runs on a thread of its own, under `catch_unwind` and a time
//! limit, after a size check.

use std::collections::BTreeMap;
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::time::Duration;

use litrev_model::{FullText, SectionRole, TextFormat, TextSection};

use crate::ids::ids_in_text;
use crate::{Error, Result};

/// The limits a PDF is read under.
#[derive(Debug, Clone, Copy)]
pub struct PdfLimits {
    /// Files larger than this are not parsed.
    pub max_bytes: usize,
    /// Parsing that takes longer is abandoned (its thread left to finish alone).
    pub timeout: Duration,
    /// Pages past this are not read.
    pub max_pages: usize,
}

impl Default for PdfLimits {
    fn default() -> Self {
        PdfLimits {
            max_bytes: 50 << 20,
            timeout: Duration::from_secs(30),
            max_pages: 300,
        }
    }
}

/// Reads a PDF's text, under the limits.
pub fn read_pdf(bytes: Vec<u8>, limits: PdfLimits) -> Result<FullText> {
    if bytes.is_empty() {
        return Err(Error::Parse("the PDF is empty (zero bytes)".into()));
    }
    if bytes.len() > limits.max_bytes {
        return Err(Error::Parse(format!(
            "the PDF has {} bytes, over the limit of {}",
            bytes.len(),
            limits.max_bytes
        )));
    }
    // The header may follow a little junk (some servers prepend a BOM or white space).
    if !bytes[..bytes.len().min(1024)]
        .windows(4)
        .any(|window| window == b"%PDF")
    {
        return Err(Error::Parse("not a PDF (no %PDF header)".into()));
    }
    let (sender, receiver) = mpsc::channel();
    let max_pages = limits.max_pages;
    let spawned = std::thread::Builder::new()
        .name("litrev-pdf".into())
        .stack_size(16 << 20)
        .spawn(move || {
            let pages = catch_unwind(AssertUnwindSafe(|| page_texts(&bytes, max_pages)))
                .unwrap_or_else(|_| Err(Error::Parse("the PDF parser gave up (panicked)".into())));
            // The receiver is gone when the time limit passed: nothing to tell.
            let _ = sender.send(pages);
        });
    if let Err(error) = spawned {
        return Err(Error::Parse(format!(
            "no thread for the PDF parser: {error}"
        )));
    }
    let pages = match receiver.recv_timeout(limits.timeout) {
        Ok(pages) => pages?,
        Err(_) => {
            return Err(Error::Parse(format!(
                "reading the PDF took over {} s",
                limits.timeout.as_secs()
            )));
        }
    };
    let text = from_pages(&pages);
    if text
        .sections
        .iter()
        .all(|section| section.paragraphs.is_empty())
    {
        return Err(Error::Parse(
            "the PDF has no extractable text (scanned images, or an encrypted file)".into(),
        ));
    }
    Ok(text)
}

/// The raw text of each page, in order.
fn page_texts(bytes: &[u8], max_pages: usize) -> Result<Vec<String>> {
    let document = lopdf::Document::load_mem(bytes)
        .map_err(|error| Error::Parse(format!("not a readable PDF: {error}")))?;
    if document.is_encrypted() {
        return Err(Error::Parse("the PDF is encrypted".into()));
    }
    let numbers: Vec<u32> = document
        .get_pages()
        .keys()
        .copied()
        .take(max_pages)
        .collect();
    let pages = document.get_pages();
    Ok(numbers
        .iter()
        .map(|number| {
            pages
                .get(number)
                .map(|page| page_text(&document, *page))
                .unwrap_or_default()
        })
        .collect())
}

/// A gap in a `TJ` array wider than this (thousandths of the font size, leftwards) is a space
/// between words; kerning inside a word is narrower.
const WORD_GAP: f32 = 200.0;

/// Form XObjects nested deeper than this are not read (a hostile file may nest them forever).
const MAX_FORM_DEPTH: usize = 4;

/// Fonts' encodings by resource name.
type Encodings<'a> = BTreeMap<Vec<u8>, lopdf::Encoding<'a>>;

/// One page's text, line by line: the strings its text operators show (and those of the form
/// XObjects it draws, as publishers' stamps wrap a whole page), decoded by their font's
/// encoding, with a line break where the text moves to another line and a space where it moves
/// along the same line or a `TJ` gap is as wide as a word space. (lopdf's own `extract_text`
/// ignores moves, running the last word of a line into the first of the next, and forms.)
fn page_text(document: &lopdf::Document, page: lopdf::ObjectId) -> String {
    let limit = lopdf::DEFAULT_MAX_DECOMPRESSED_SIZE;
    let encodings: Encodings<'_> = document
        .get_page_fonts(page)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(name, font)| {
            font.get_font_encoding_with_limit(document, limit)
                .ok()
                .map(|encoding| (name, encoding))
        })
        .collect();
    let Some(content) = document
        .get_page_content_with_limit(page, limit)
        .ok()
        .and_then(|data| lopdf::content::Content::decode(&data).ok())
    else {
        return String::new();
    };
    let mut resources: Vec<&lopdf::Dictionary> = Vec::new();
    if let Ok((own, inherited)) = document.get_page_resources(page) {
        resources.extend(own);
        resources.extend(
            inherited
                .into_iter()
                .filter_map(|id| document.get_dictionary(id).ok()),
        );
    }
    let mut reader = TextReader {
        document,
        text: String::new(),
        y: 0.0,
        shown_y: 0.0,
        moved: false,
    };
    reader.show(&content.operations, &encodings, &resources, 0);
    reader.text
}

/// Walks content operations, writing the text they show.
struct TextReader<'a> {
    document: &'a lopdf::Document,
    text: String,
    /// The text line's vertical position, and that of the last string shown.
    y: f32,
    shown_y: f32,
    moved: bool,
}

impl<'a> TextReader<'a> {
    fn break_line(&mut self) {
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push('\n');
        }
    }

    fn space(&mut self) {
        if !self.text.is_empty() && !self.text.ends_with(char::is_whitespace) {
            self.text.push(' ');
        }
    }

    /// Shows `operations` with the fonts of `encodings`; `resources` are where the forms they
    /// draw are found.
    fn show(
        &mut self,
        operations: &[lopdf::content::Operation],
        encodings: &Encodings<'a>,
        resources: &[&'a lopdf::Dictionary],
        depth: usize,
    ) {
        use lopdf::Object;
        let number = |object: Option<&Object>| object.and_then(|object| object.as_float().ok());
        let mut encoding = None;
        for operation in operations {
            let operands = &operation.operands;
            match operation.operator.as_str() {
                "BT" => {
                    self.y = 0.0;
                    self.moved = true;
                }
                "Tf" => {
                    encoding = operands
                        .first()
                        .and_then(|name| name.as_name().ok())
                        .and_then(|name| encodings.get(name));
                }
                "Td" | "TD" => {
                    self.y += number(operands.get(1)).unwrap_or(0.0);
                    self.moved = true;
                }
                "Tm" => {
                    self.y = number(operands.get(5)).unwrap_or(self.y);
                    self.moved = true;
                }
                "T*" => self.break_line(),
                "Do" if depth < MAX_FORM_DEPTH => {
                    let Some(name) = operands.first().and_then(|name| name.as_name().ok()) else {
                        continue;
                    };
                    if let Some((operations, form_encodings, form_resources)) =
                        self.form(name, resources)
                    {
                        self.break_line();
                        let fonts = if form_encodings.is_empty() {
                            encodings
                        } else {
                            &form_encodings
                        };
                        self.show(&operations, fonts, &form_resources, depth + 1);
                        self.break_line();
                    }
                }
                "Tj" | "TJ" | "'" | "\"" => {
                    if matches!(operation.operator.as_str(), "'" | "\"") {
                        self.break_line();
                    } else if self.moved {
                        if (self.y - self.shown_y).abs() > 0.5 {
                            self.break_line();
                        } else {
                            self.space();
                        }
                    }
                    self.moved = false;
                    self.shown_y = self.y;
                    let Some(encoding) = encoding else {
                        continue;
                    };
                    let shown = match operation.operator.as_str() {
                        "\"" => operands.get(2..).unwrap_or_default(),
                        _ => operands.as_slice(),
                    };
                    for operand in shown {
                        let parts = match operand {
                            Object::Array(parts) => parts.as_slice(),
                            single => std::slice::from_ref(single),
                        };
                        for part in parts {
                            match part {
                                Object::String(bytes, _) => {
                                    if let Ok(decoded) = encoding.bytes_to_string(bytes) {
                                        self.text.push_str(&decoded);
                                    }
                                }
                                gap => {
                                    if gap.as_float().is_ok_and(|gap| gap < -WORD_GAP) {
                                        self.space();
                                    }
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// The form XObject `name` of `resources`: its operations, its own fonts' encodings and
    /// resources; `None` for an image or anything unreadable.
    #[allow(clippy::type_complexity)]
    fn form(
        &self,
        name: &[u8],
        resources: &[&'a lopdf::Dictionary],
    ) -> Option<(
        Vec<lopdf::content::Operation>,
        Encodings<'a>,
        Vec<&'a lopdf::Dictionary>,
    )> {
        let document = self.document;
        let limit = lopdf::DEFAULT_MAX_DECOMPRESSED_SIZE;
        let stream = resources.iter().find_map(|resources| {
            let xobjects = document.get_dict_in_dict(resources, b"XObject").ok()?;
            let (_, object) = document.dereference(xobjects.get(name).ok()?).ok()?;
            object.as_stream().ok()
        })?;
        if stream
            .dict
            .get(b"Subtype")
            .and_then(|kind| kind.as_name())
            .ok()?
            != b"Form"
        {
            return None;
        }
        let data = stream.decompressed_content_with_limit(limit).ok()?;
        let operations = lopdf::content::Content::decode(&data).ok()?.operations;
        let own = document.get_dict_in_dict(&stream.dict, b"Resources").ok();
        let encodings = own
            .and_then(|own| document.get_dict_in_dict(own, b"Font").ok())
            .map(|fonts| {
                fonts
                    .iter()
                    .filter_map(|(font_name, font)| {
                        let (_, font) = document.dereference(font).ok()?;
                        let encoding = font
                            .as_dict()
                            .ok()?
                            .get_font_encoding_with_limit(document, limit)
                            .ok()?;
                        Some((font_name.clone(), encoding))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some((operations, encodings, own.into_iter().collect()))
    }
}

/// Pages of raw text → sections of paragraphs.
pub(crate) fn from_pages(pages: &[String]) -> FullText {
    let pages: Vec<Vec<String>> = pages
        .iter()
        .map(|page| {
            page.lines()
                .map(clean_line)
                .filter(|line| !line.is_empty())
                .collect()
        })
        .collect();
    let repeated = running_lines(&pages);
    let mut sections: Vec<TextSection> = Vec::new();
    let mut title = String::new();
    let mut role = SectionRole::Other;
    let mut first_page_text = String::new();
    for (index, lines) in pages.iter().enumerate() {
        let page = index as u32 + 1;
        let lines: Vec<&str> = lines
            .iter()
            .map(String::as_str)
            .filter(|line| !repeated.contains_key(&shape(line)) && !is_page_number(line))
            .collect();
        if index == 0 {
            first_page_text = lines.join(" ");
        }
        let typical = typical_length(&lines);
        sections.push(open_section(&title, role, page));
        let mut paragraph = String::new();
        for line in lines {
            // A lower-case heading (`discussion`) counts only where a sentence has just ended.
            let at_boundary =
                paragraph.is_empty() || paragraph.ends_with(['.', '?', '!']) || !line.contains(' ');
            let capitalised = line
                .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ' ')
                .starts_with(char::is_uppercase);
            if let Some(heading_role) = heading(line).filter(|_| capitalised || at_boundary) {
                flush(&mut paragraph, &mut sections);
                title = line.to_owned();
                role = heading_role;
                sections.push(open_section(&title, role, page));
                continue;
            }
            join_line(&mut paragraph, line);
            let ends_sentence = line.ends_with(['.', '?', '!', ':']);
            if ends_sentence && line.chars().count() * 10 < typical * 7 {
                flush(&mut paragraph, &mut sections);
            }
        }
        flush(&mut paragraph, &mut sections);
    }
    sections.retain(|section| !section.paragraphs.is_empty());
    let ids = ids_in_text(&first_page_text);
    FullText {
        format: TextFormat::Pdf,
        title: None,
        ids,
        abstract_paragraphs: Vec::new(),
        sections,
        references: Vec::new(),
    }
}

/// A section begun on a page (at a heading, or where a page carries the last one on).
fn open_section(title: &str, role: SectionRole, page: u32) -> TextSection {
    TextSection {
        title: title.to_owned(),
        role,
        depth: 1,
        paragraphs: Vec::new(),
        page: Some(page),
    }
}

/// Ends the paragraph being built, into the last section.
fn flush(paragraph: &mut String, sections: &mut [TextSection]) {
    let text = paragraph.trim();
    if !text.is_empty()
        && let Some(section) = sections.last_mut()
    {
        section.paragraphs.push(text.to_owned());
    }
    paragraph.clear();
}

/// Appends a line to a paragraph, mending a word hyphenated across the line break
/// (`treat-` + `ment` → `treatment`) but keeping real hyphens before capitals and digits.
fn join_line(paragraph: &mut String, line: &str) {
    if paragraph.is_empty() {
        paragraph.push_str(line);
        return;
    }
    let broken_word = paragraph.ends_with('-')
        && paragraph
            .chars()
            .rev()
            .nth(1)
            .is_some_and(char::is_alphabetic)
        && line.chars().next().is_some_and(char::is_lowercase);
    if broken_word {
        paragraph.pop();
    } else {
        paragraph.push(' ');
    }
    paragraph.push_str(line);
}

/// A line with ligatures spelled out, soft hyphens and control characters dropped and white
/// space squeezed.
fn clean_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        match c {
            '\u{FB00}' => out.push_str("ff"),
            '\u{FB01}' => out.push_str("fi"),
            '\u{FB02}' => out.push_str("fl"),
            '\u{FB03}' => out.push_str("ffi"),
            '\u{FB04}' => out.push_str("ffl"),
            '\u{00AD}' => {}
            c if c.is_control() || c.is_whitespace() => out.push(' '),
            c => out.push(c),
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A line's shape for spotting running heads: digits stand for any digits.
fn shape(line: &str) -> String {
    line.chars()
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .collect()
}

/// Lines within the first or last three of a page that recur, in shape, on at least half the
/// pages (and on three or more): running heads, footers, journal lines.
fn running_lines(pages: &[Vec<String>]) -> HashMap<String, usize> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    for lines in pages {
        let mut on_page: Vec<String> = lines
            .iter()
            .take(3)
            .chain(lines.iter().rev().take(3))
            .map(|line| shape(line))
            .collect();
        on_page.sort();
        on_page.dedup();
        for line in on_page {
            *seen.entry(line).or_default() += 1;
        }
    }
    let needed = (pages.len() / 2).max(3);
    seen.retain(|_, count| *count >= needed);
    seen
}

/// A line that is a bare page number (`12`, `Page 3 of 20`, `- 4 -`).
fn is_page_number(line: &str) -> bool {
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || c == '-' || c == '/')
        .filter(|word| !word.is_empty())
        .collect();
    !words.is_empty()
        && words.len() <= 4
        && words
            .iter()
            .any(|word| word.chars().all(|c| c.is_ascii_digit()))
        && words.iter().all(|word| {
            word.chars().all(|c| c.is_ascii_digit())
                || matches!(word.to_lowercase().as_str(), "page" | "of" | "p.")
        })
}

/// The length most body lines of a page reach (the 75th percentile, in chars).
fn typical_length(lines: &[&str]) -> usize {
    let mut lengths: Vec<usize> = lines.iter().map(|line| line.chars().count()).collect();
    if lengths.is_empty() {
        return 0;
    }
    lengths.sort_unstable();
    lengths[lengths.len() * 3 / 4]
}

/// The role a line names when it is a section heading alone on its line: short, no sentence
/// punctuation at its end, and words naming a part of a paper (`2. Methods`, `Results and
/// discussion`, `Limitations`); `References` and the like start an unnamed part.
fn heading(line: &str) -> Option<SectionRole> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.is_empty() || words.len() > 5 || line.ends_with([',', ';']) {
        return None;
    }
    let first = words[0].trim_end_matches('.');
    // Numbered headings: `2`, `2.1`, `II`.
    let numbered = first.chars().all(|c| c.is_ascii_digit() || c == '.')
        || first.chars().all(|c| matches!(c, 'I' | 'V' | 'X'));
    // A sentence's last line (`results.`) is not a heading; `2. Methods` is.
    if line.ends_with('.')
        && !(numbered && words.len() > 1 && !words[words.len() - 1].ends_with('.'))
    {
        return None;
    }
    let content: Vec<&str> = if numbered && words.len() > 1 {
        words[1..].to_vec()
    } else {
        words.clone()
    };
    let text = content.join(" ");
    let lower = text.to_lowercase();
    if matches!(
        lower.trim_end_matches(':'),
        "references"
            | "bibliography"
            | "acknowledgements"
            | "acknowledgments"
            | "funding"
            | "competing interests"
            | "conflict of interest"
            | "conflicts of interest"
            | "author contributions"
            | "authors' contributions"
            | "supporting information"
            | "abbreviations"
    ) {
        return Some(SectionRole::Other);
    }
    // Every word a heading's vocabulary: "Methods continued here" is prose, not a heading.
    let all_heading_words = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .all(|word| HEADING_WORDS.contains(&word));
    if !all_heading_words {
        return None;
    }
    match SectionRole::of(None, text.trim_end_matches(':')) {
        SectionRole::Other => None,
        role => Some(role),
    }
}

/// The words section headings are made of.
const HEADING_WORDS: &[&str] = &[
    "introduction",
    "background",
    "aim",
    "aims",
    "objective",
    "objectives",
    "method",
    "methods",
    "methodology",
    "materials",
    "material",
    "and",
    "of",
    "the",
    "study",
    "design",
    "participants",
    "patients",
    "subjects",
    "setting",
    "results",
    "result",
    "findings",
    "discussion",
    "conclusion",
    "conclusions",
    "summary",
    "limitations",
    "limitation",
    "strengths",
    "weaknesses",
    "statistical",
    "analysis",
    "analyses",
    "data",
    "experimental",
    "procedures",
    "general",
    "concluding",
    "remarks",
    "main",
    "key",
    "principal",
    "model",
    "models",
    "approach",
    "experiments",
    "experiment",
    "evaluation",
    "sample",
    "sampling",
    "population",
    "measures",
    "outcomes",
    "procedure",
    "research",
    "future",
    "implications",
    "study's",
    "our",
    "a",
    "in",
    "for",
    "on",
    "&",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_become_sections_with_headings_and_mended_words() {
        let pages = vec![
            "J Test 2020\nA title\nIntroduction\nWe studied treat-\nment effects in forty\nadults.\n1".to_owned(),
            "J Test 2020\nMethods\nForty adults took part.\nThe dose was 5 mg.\n2".to_owned(),
            "J Test 2020\nMethods continued here over\nthe page.\n3".to_owned(),
            "J Test 2020\n4. Limitations\nThe sample was small.\n4".to_owned(),
        ];
        let text = from_pages(&pages);
        let titles: Vec<(&str, SectionRole, Option<u32>)> = text
            .sections
            .iter()
            .map(|section| (section.title.as_str(), section.role, section.page))
            .collect();
        assert_eq!(
            titles,
            vec![
                ("", SectionRole::Other, Some(1)),
                ("Introduction", SectionRole::Introduction, Some(1)),
                ("Methods", SectionRole::Methods, Some(2)),
                ("Methods", SectionRole::Methods, Some(3)),
                ("4. Limitations", SectionRole::Limitations, Some(4)),
            ]
        );
        assert_eq!(
            text.sections[1].paragraphs,
            vec!["We studied treatment effects in forty adults."]
        );
        assert!(
            text.paragraphs().all(|(_, _, p)| !p.contains("J Test")),
            "the running head is dropped: {:?}",
            text.sections
        );
    }

    #[test]
    fn hostile_bytes_give_errors_not_panics() {
        let limits = PdfLimits::default();
        for bytes in [
            Vec::new(),
            b"%PDF-1.7\n".to_vec(),
            b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\ntrailer << /Root 1 0 R >>"
                .to_vec(),
            b"<html>not a pdf</html>".to_vec(),
            vec![0; 4096],
        ] {
            assert!(read_pdf(bytes, limits).is_err());
        }
        let small = PdfLimits {
            max_bytes: 10,
            ..limits
        };
        let error = read_pdf(b"%PDF-1.7 and more bytes".to_vec(), small)
            .err()
            .map(|error| error.to_string())
            .unwrap_or_default();
        assert!(error.contains("over the limit"), "{error}");
    }
}
