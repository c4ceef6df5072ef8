//! Citation styles: the one place references and in-text citations are formatted in a CSL
//! style (APA, MLA, IEEE, Chicago, GB/T 7714 or any `.csl` file), through hayagriva.
//!
//! Works reach hayagriva as the same CSL-JSON items `references.json` holds, so every styled
//! output agrees with the exported bibliography field for field.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use hayagriva::archive::{ArchivedStyle, locales};
use hayagriva::citationberg::json::Item;
use hayagriva::citationberg::{
    CitationFormat, FontStyle, FontVariant, FontWeight, IndependentStyle, Locale, LocaleCode,
    Style, StyleCategory, VerticalAlign, taxonomy::Locator,
};
use hayagriva::{
    BibliographyDriver, BibliographyRequest, CitationItem, CitationRequest, CitePurpose, ElemChild,
    ElemChildren, ElemMeta, LocatorPayload, SpecificLocator,
};
use litrev_model::{Basis, CiteForm, Review, Segment, WorkId};
use serde::{Deserialize, Serialize};

use crate::Error;

/// A style built into litrev, named on the command line by [`BuiltinStyle::name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuiltinStyle {
    /// APA 7th edition (author-date).
    Apa,
    /// MLA 9th edition (author-page; in-text citations carry the author).
    Mla,
    /// IEEE (numeric, in citation order).
    Ieee,
    /// Chicago Manual of Style, author-date: the review cites in running text, which the
    /// notes variant would turn into footnotes that Markdown and HTML readers lose.
    Chicago,
    /// GB/T 7714—2015, numeric (顺序编码制): the system the standard lists first and most
    /// Chinese journals ask for.
    Gb7714,
}

impl BuiltinStyle {
    /// Every built-in style, in the order `--help` lists them.
    pub const ALL: [BuiltinStyle; 5] = [
        BuiltinStyle::Apa,
        BuiltinStyle::Mla,
        BuiltinStyle::Ieee,
        BuiltinStyle::Chicago,
        BuiltinStyle::Gb7714,
    ];

    /// The name given on the command line.
    pub fn name(self) -> &'static str {
        match self {
            BuiltinStyle::Apa => "apa",
            BuiltinStyle::Mla => "mla",
            BuiltinStyle::Ieee => "ieee",
            BuiltinStyle::Chicago => "chicago",
            BuiltinStyle::Gb7714 => "gb7714",
        }
    }

    fn archived(self) -> ArchivedStyle {
        match self {
            BuiltinStyle::Apa => ArchivedStyle::AmericanPsychologicalAssociation,
            BuiltinStyle::Mla => ArchivedStyle::ModernLanguageAssociation,
            BuiltinStyle::Ieee => ArchivedStyle::InstituteOfElectricalAndElectronicsEngineers,
            BuiltinStyle::Chicago => ArchivedStyle::ChicagoAuthorDate,
            BuiltinStyle::Gb7714 => ArchivedStyle::Gb77142015Numeric,
        }
    }
}

/// The citation style a run asks for: a built-in one or a CSL file, stored with the run as
/// its name or path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum StyleName {
    /// One of litrev's built-in styles.
    Builtin(BuiltinStyle),
    /// A CSL 1.0 style file.
    File(PathBuf),
}

impl Default for StyleName {
    /// APA, the style most review guidelines ask for.
    fn default() -> Self {
        StyleName::Builtin(BuiltinStyle::Apa)
    }
}

impl FromStr for StyleName {
    type Err = Error;

    /// A built-in name (case-insensitive), else a path ending in `.csl` or naming a folder.
    fn from_str(text: &str) -> Result<Self, Error> {
        let text = text.trim();
        if let Some(builtin) = BuiltinStyle::ALL
            .into_iter()
            .find(|style| style.name().eq_ignore_ascii_case(text))
        {
            return Ok(StyleName::Builtin(builtin));
        }
        let looks_like_file = text.to_ascii_lowercase().ends_with(".csl")
            || text.contains(std::path::MAIN_SEPARATOR)
            || text.contains('/');
        if looks_like_file {
            return Ok(StyleName::File(PathBuf::from(text)));
        }
        Err(Error::UnknownStyle(text.to_owned()))
    }
}

impl TryFrom<String> for StyleName {
    type Error = Error;
    fn try_from(text: String) -> Result<Self, Error> {
        text.parse()
    }
}

impl From<StyleName> for String {
    fn from(name: StyleName) -> String {
        name.to_string()
    }
}

impl fmt::Display for StyleName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StyleName::Builtin(style) => f.write_str(style.name()),
            StyleName::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// The deepest element nesting a style file may have: the CSL test suite's styles nest 14
/// deep, and hayagriva overflows a 2 MiB thread stack somewhere past 800.
const MAX_NESTING: usize = 128;

/// How deep the elements of `xml` nest, counting no further than `limit + 1`. Comments,
/// CDATA, processing instructions and the DOCTYPE are skipped, quoted attribute values may
/// hold `>`; malformed markup is counted as well as it goes (the XML reader refuses it after).
fn nesting_depth(xml: &str, limit: usize) -> usize {
    let bytes = xml.as_bytes();
    let (mut depth, mut deepest, mut at) = (0_usize, 0_usize, 0);
    let skip_to = |from: usize, end: &str| {
        xml.get(from..)
            .and_then(|rest| rest.find(end))
            .map_or(bytes.len(), |found| from + found + end.len())
    };
    while let Some(found) = xml.get(at..).and_then(|rest| rest.find('<')) {
        let start = at + found;
        let rest = &xml[start..];
        if rest.starts_with("<!--") {
            at = skip_to(start, "-->");
            continue;
        }
        if rest.starts_with("<![CDATA[") {
            at = skip_to(start, "]]>");
            continue;
        }
        // The tag's end: the first `>` outside quotes.
        let mut quote = None;
        let mut end = bytes.len();
        for (offset, byte) in rest.bytes().enumerate().skip(1) {
            match (quote, byte) {
                (None, b'"' | b'\'') => quote = Some(byte),
                (Some(open), _) if byte == open => quote = None,
                (None, b'>') => {
                    end = start + offset;
                    break;
                }
                _ => {}
            }
        }
        let tag = &xml[start..end];
        if tag.starts_with("</") {
            depth = depth.saturating_sub(1);
        } else if !(tag.starts_with("<?") || tag.starts_with("<!") || tag.ends_with('/')) {
            depth += 1;
            deepest = deepest.max(depth);
            if deepest > limit {
                break;
            }
        }
        at = end + 1;
    }
    deepest
}

/// A loop of macros calling each other (`a → b → a`), if the style has one.
fn macro_cycle(csl: &IndependentStyle) -> Option<Vec<String>> {
    // The macros each macro calls: every `macro` attribute among its elements, found in the
    // serialised form so no kind of element (`<text>`, `<key>`, a `<names>`' substitute, a
    // `<choose>` branch…) is missed.
    fn called(value: &serde_json::Value, out: &mut Vec<String>) {
        let mut stack = vec![value];
        while let Some(node) = stack.pop() {
            match node {
                serde_json::Value::Object(map) => {
                    for (key, child) in map {
                        match child {
                            serde_json::Value::String(name) if key == "@macro" => {
                                out.push(name.clone());
                            }
                            _ => stack.push(child),
                        }
                    }
                }
                serde_json::Value::Array(items) => stack.extend(items),
                _ => {}
            }
        }
    }
    let calls: BTreeMap<&str, Vec<String>> = csl
        .macros
        .iter()
        .map(|csl_macro| {
            let mut out = Vec::new();
            if let Ok(children) = serde_json::to_value(&csl_macro.children) {
                called(&children, &mut out);
            }
            (csl_macro.name.as_str(), out)
        })
        .collect();
    // Depth-first from each macro, without recursion: a path that comes back to a macro on
    // it is a loop.
    let mut done: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    for start in calls.keys() {
        if done.contains(start) {
            continue;
        }
        let mut path: Vec<&str> = vec![start];
        let mut next_call: Vec<usize> = vec![0];
        while let (Some(&current), Some(index)) = (path.last(), next_call.last_mut()) {
            let callees = calls.get(current).map(Vec::as_slice).unwrap_or_default();
            let Some(callee) = callees.get(*index) else {
                done.insert(current);
                path.pop();
                next_call.pop();
                continue;
            };
            *index += 1;
            let callee = callee.as_str();
            if let Some(at) = path.iter().position(|on_path| *on_path == callee) {
                let mut cycle: Vec<String> =
                    path[at..].iter().map(|name| (*name).to_owned()).collect();
                cycle.push(callee.to_owned());
                return Some(cycle);
            }
            if let Some((name, _)) = calls.get_key_value(callee)
                && !done.contains(name)
            {
                path.push(name);
                next_call.push(0);
            }
        }
    }
    None
}

static LOCALES: std::sync::OnceLock<Vec<Locale>> = std::sync::OnceLock::new();

/// A parsed CSL style with the locales it may need, ready to format.
#[derive(Debug, Clone)]
pub struct CitationStyle {
    csl: IndependentStyle,
    /// hayagriva's locales, decoded once per process (decoding them took longer than
    /// parsing most styles).
    locales: &'static [Locale],
}

impl CitationStyle {
    /// A built-in style.
    pub fn builtin(style: BuiltinStyle) -> CitationStyle {
        match style.archived().get() {
            Style::Independent(csl) => CitationStyle::new(csl),
            Style::Dependent(_) => unreachable!("litrev's built-in styles are independent"),
        }
    }

    /// A style from the text of a CSL file; `path` is only named in errors. A dependent style
    /// works when its parent is one of hayagriva's built-in styles.
    ///
    /// # Errors
    /// [`Error::BadStyle`] when the text is not a CSL 1.0 style, or is a dependent style whose
    /// parent is not built in.
    pub fn from_csl(xml: &str, path: &Path) -> Result<CitationStyle, Error> {
        let bad = |reason: String| Error::BadStyle {
            path: path.to_owned(),
            reason,
        };
        // hayagriva's XML reader recurses once per element, so a file of a few thousand nested
        // elements overflows the stack and aborts the process; real styles nest about 15 deep.
        if nesting_depth(xml, MAX_NESTING) > MAX_NESTING {
            return Err(bad(format!(
                "its elements are nested more than {MAX_NESTING} deep, which no CSL style needs"
            )));
        }
        match Style::from_xml(xml).map_err(|error| bad(error.to_string()))? {
            Style::Independent(csl) => {
                // hayagriva expands macros by recursion: one that calls itself overflows the
                // stack when the first citation is formatted.
                if let Some(cycle) = macro_cycle(&csl) {
                    return Err(bad(format!(
                        "its macros call themselves in a loop ({}), which never ends",
                        cycle.join(" → ")
                    )));
                }
                Ok(CitationStyle::new(csl))
            }
            Style::Dependent(dependent) => {
                let parent = &dependent.parent_link.href;
                let Some(archived) = ArchivedStyle::by_id(parent) else {
                    return Err(bad(format!(
                        "it is a dependent style whose parent {parent} is not built in; download the parent style and pass its file instead"
                    )));
                };
                match archived.get() {
                    Style::Independent(mut csl) => {
                        if dependent.default_locale.is_some() {
                            csl.default_locale = dependent.default_locale;
                        }
                        Ok(CitationStyle::new(csl))
                    }
                    Style::Dependent(_) => Err(bad(format!("its parent {parent} is dependent"))),
                }
            }
        }
    }

    fn new(csl: IndependentStyle) -> CitationStyle {
        CitationStyle {
            csl,
            locales: LOCALES.get_or_init(locales),
        }
    }

    /// The style as a CSL 1.0 file (what pandoc's `--citeproc` reads), so `review.md` renders
    /// in the run's style too.
    ///
    /// # Errors
    /// [`Error::StyleFile`] when the style cannot be written back as XML.
    pub fn to_csl(&self) -> Result<String, Error> {
        let xml = Style::Independent(self.csl.clone())
            .to_xml()
            .map_err(|error| Error::StyleFile(error.to_string()))?;
        let xml = match xml.strip_prefix("<style") {
            Some(rest) => format!("<style xmlns=\"http://purl.org/net/xbiblio/csl\"{rest}"),
            None => xml,
        };
        Ok(format!(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n{xml}\n"
        ))
    }

    /// The style's title, as its file states it.
    pub fn title(&self) -> &str {
        &self.csl.info.title.value
    }

    /// Whether in-text citations are numbers (IEEE, GB/T 7714 numeric) rather than names.
    pub fn is_numeric(&self) -> bool {
        self.csl.info.category.iter().any(|category| {
            matches!(
                category,
                StyleCategory::CitationFormat {
                    format: CitationFormat::Numeric | CitationFormat::Label
                }
            )
        })
    }
}

/// A piece of styled text with one formatting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Run {
    pub text: String,
    pub italic: bool,
    pub bold: bool,
    pub small_caps: bool,
    pub superscript: bool,
    pub subscript: bool,
    /// The citation key of the work this piece of a citation names, when the style marks it.
    pub key: Option<String>,
    /// Where the text links to (a DOI or URL in a reference).
    pub url: Option<String>,
}

impl Run {
    /// Unformatted text belonging to no work.
    pub fn plain(text: &str) -> Run {
        Run {
            text: text.to_owned(),
            italic: false,
            bold: false,
            small_caps: false,
            superscript: false,
            subscript: false,
            key: None,
            url: None,
        }
    }

    /// Same formatting and targets, so the two can be one run.
    fn reads_like(&self, other: &Run) -> bool {
        (
            self.italic,
            self.bold,
            self.small_caps,
            self.superscript,
            self.subscript,
            &self.key,
            &self.url,
        ) == (
            other.italic,
            other.bold,
            other.small_caps,
            other.superscript,
            other.subscript,
            &other.key,
            &other.url,
        )
    }
}

/// Text formatted by a style, as runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct StyledText {
    pub runs: Vec<Run>,
}

impl StyledText {
    /// The text without formatting.
    pub fn plain(&self) -> String {
        self.runs.iter().map(|run| run.text.as_str()).collect()
    }

    /// Whether any run names a cited work, i.e. the style marked its citation items.
    pub fn marks_keys(&self) -> bool {
        self.runs.iter().any(|run| run.key.is_some())
    }
}

/// One formatted citation: its text and the keys of the works it cites, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StyledCitation {
    pub text: StyledText,
    pub keys: Vec<String>,
}

/// One formatted entry of the reference list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StyledReference {
    pub key: String,
    /// The label printed in the margin by numeric styles (`[1]`), if any.
    pub label: Option<StyledText>,
    pub text: StyledText,
}

/// A review's citations and references in one style.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Styled {
    /// One per citation of the review, in reading order ([`Review::sentences`]).
    pub citations: Vec<StyledCitation>,
    /// The reference list in the style's order: exactly the cited works.
    pub references: Vec<StyledReference>,
}

/// One citation to format: the items it cites, how it reads, and the pinpoint (`p. 4`) of its
/// one cited item.
pub(crate) type CiteRequest<'a> = (Vec<&'a Item>, CiteForm, Option<&'a str>);

/// Formats every citation of `review` and its reference list. `items` are the CSL-JSON items
/// of the cited works under their keys.
///
/// # Errors
/// [`Error::MissingKey`] when a cited work has no key or item: a citation that would not
/// resolve.
pub(crate) fn style_review(
    review: &Review,
    keys: &BTreeMap<WorkId, String>,
    items: &BTreeMap<String, Item>,
    style: &CitationStyle,
) -> Result<Styled, Error> {
    let items: BTreeMap<&String, Item> = items
        .iter()
        .map(|(key, item)| (key, assume_language(item)))
        .collect();
    let mut cites: Vec<CiteRequest<'_>> = Vec::new();
    for sentence in review.sentences() {
        let quoted = match &sentence.basis {
            Basis::Span(span) => span.pinpoint().map(|pinpoint| (&span.work, pinpoint)),
            _ => None,
        };
        for segment in &sentence.segments {
            let Segment::Cite { works, form } = segment else {
                continue;
            };
            let cited = works
                .iter()
                .map(|work| {
                    keys.get(work)
                        .and_then(|key| items.get(key))
                        .ok_or_else(|| Error::MissingKey(work.clone()))
                })
                .collect::<Result<Vec<_>, _>>()?;
            // A full-text quotation cites its one work with the pinpoint, as review.md does.
            let pinpoint = quoted
                .filter(|(work, _)| works.as_slice() == std::slice::from_ref(*work))
                .map(|(_, pinpoint)| pinpoint);
            cites.push((cited, *form, pinpoint));
        }
    }
    Ok(style_citations(&cites, style))
}

/// A pinpoint as CSL's locator: `p. 4` a page, `sec. Results` a section, `para. 3` a
/// paragraph; anything else is printed as it stands, as a section.
fn csl_locator(pinpoint: &str) -> SpecificLocator<'_> {
    let kinds = [
        ("p. ", Locator::Page),
        ("sec. ", Locator::Section),
        ("para. ", Locator::Paragraph),
    ];
    kinds
        .into_iter()
        .find_map(|(prefix, kind)| {
            pinpoint
                .strip_prefix(prefix)
                .map(|rest| SpecificLocator(kind, LocatorPayload::Str(rest)))
        })
        .unwrap_or(SpecificLocator(
            Locator::Section,
            LocatorPayload::Str(pinpoint),
        ))
}

/// Formats citations (each a list of items and how it reads) and the reference list of every
/// item they cite. Numeric styles number items in the order they are first cited here.
pub(crate) fn style_citations(cites: &[CiteRequest<'_>], style: &CitationStyle) -> Styled {
    // hayagriva's prose form of a numeric citation wraps the number in the layout's brackets
    // outside its formatting (`Smith [<sup>3</sup>]` in GB/T 7714), so a numeric style's
    // narrative citation is built here: the author form, then the citation as it stands alone.
    let numeric = style.is_numeric();
    let mut requests: Vec<(&[&Item], Option<CitePurpose>, Option<&str>)> = Vec::new();
    for (items, form, pinpoint) in cites {
        match form {
            CiteForm::Parenthetical => requests.push((items, None, *pinpoint)),
            CiteForm::Narrative if numeric => {
                requests.push((items, Some(CitePurpose::Author), None));
                requests.push((items, None, *pinpoint));
            }
            CiteForm::Narrative => requests.push((items, Some(CitePurpose::Prose), *pinpoint)),
        }
    }
    let locale = common_locale(cites);
    let mut driver: BibliographyDriver<'_, Item> = BibliographyDriver::new();
    for (items, purpose, pinpoint) in &requests {
        let request_items = items
            .iter()
            .map(|item| {
                let locator = pinpoint.filter(|_| items.len() == 1).map(csl_locator);
                CitationItem::new(*item, locator, None, false, *purpose)
            })
            .collect();
        driver.citation(CitationRequest::new(
            request_items,
            &style.csl,
            locale.clone(),
            style.locales,
            None,
        ));
    }
    let rendered = driver.finish(BibliographyRequest::new(&style.csl, locale, style.locales));
    let mut rendered_citations = rendered.citations.iter();
    let mut next_text = |keys: &[String]| {
        let citation = rendered_citations
            .next()
            .expect("hayagriva renders one citation per request");
        styled(&citation.citation, keys)
    };
    let citations = cites
        .iter()
        .map(|(items, form, _)| {
            let keys: Vec<String> = items.iter().map(|item| item_key(item)).collect();
            let mut text = next_text(&keys);
            if *form == CiteForm::Narrative && numeric {
                let number = next_text(&keys);
                let attached = number.runs.first().is_some_and(|run| run.superscript);
                if !attached {
                    text.runs.push(Run::plain(" "));
                }
                text.runs.extend(number.runs);
            }
            text.runs = drop_empty_parentheses(text.runs);
            StyledCitation { text, keys }
        })
        .collect();
    let references = rendered
        .bibliography
        .map(|bibliography| bibliography.items)
        .unwrap_or_default()
        .into_iter()
        .map(|item| StyledReference {
            label: item
                .first_field
                .map(|field| styled(&ElemChildren(vec![field]), &[])),
            text: styled(&item.content, &[]),
            key: item.key,
        })
        .collect();
    Styled {
        citations,
        references,
    }
}

/// An item as styles should read it. Styles pick their terms by the work's language (GB/T
/// 7714 writes `et al.` for an English work and `等` for a Chinese one) and fall back to their
/// own locale when it is unknown, as it mostly is; a work whose title has no CJK character is
/// taken to be English for styling only (`references.json` states no language it was not given).
fn assume_language(item: &Item) -> Item {
    let mut item = item.clone();
    let title = item.0.get("title").and_then(|title| title.to_str());
    let cjk = title.is_some_and(|title| {
        title.chars().any(|character| {
            matches!(character as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF)
        })
    });
    if !item.0.contains_key("language") && !cjk {
        item.0.insert(
            "language".to_owned(),
            hayagriva::citationberg::json::Value::String("en".to_owned()),
        );
    }
    item
}

/// The locale of the works' language when they all share one: hayagriva takes terms from the
/// request's locale, not each work's, so GB/T 7714 writes `et al.` for English works only
/// when the style is asked for English. Otherwise the style's own locale.
fn common_locale(cites: &[CiteRequest<'_>]) -> Option<LocaleCode> {
    let mut languages = cites.iter().flat_map(|(items, _, _)| items).map(|item| {
        item.0
            .get("language")
            .and_then(|language| language.to_str())
    });
    let first = languages.next()??.trim().to_owned();
    if first.is_empty()
        || !languages.all(|language| language.is_some_and(|language| language.trim() == first))
    {
        return None;
    }
    // A bare language (`en`) names its main region's locale, as CSL locale files do.
    Some(LocaleCode(match first.as_str() {
        "en" => "en-US".to_owned(),
        "zh" => "zh-CN".to_owned(),
        _ => first,
    }))
}

fn item_key(item: &Item) -> String {
    item.id().map(|id| id.into_owned()).unwrap_or_default()
}

/// Flattens hayagriva's element tree into runs; `keys[i]` names the work of the element a
/// style marks as citation item `i`.
fn styled(children: &ElemChildren, keys: &[String]) -> StyledText {
    let mut runs = Vec::new();
    flatten(children, None, keys, &mut runs);
    StyledText {
        runs: edit_chars(runs, |kept, character| {
            // A style's period after a title ending in `?` or `!` (`lives?.`, `lives?.”`):
            // CSL processors drop it, hayagriva 0.10 does not.
            let mut before = kept.iter().rev().map(|(_, character)| *character);
            let after_terminal = match before.next() {
                Some('?' | '!') => true,
                Some('”' | '"' | '’') => matches!(before.next(), Some('?' | '!')),
                _ => false,
            };
            !(character == '.' && after_terminal)
        }),
    }
}

/// Drops `()` left where a style prints a locator litrev never has (MLA's narrative
/// `Zimbardo ()`), with the space before it.
fn drop_empty_parentheses(runs: Vec<Run>) -> Vec<Run> {
    edit_chars(runs, |kept, character| {
        if character == ')' && kept.last().is_some_and(|(_, last)| *last == '(') {
            kept.pop();
            if kept.last().is_some_and(|(_, last)| *last == ' ') {
                kept.pop();
            }
            return false;
        }
        true
    })
}

/// Rebuilds runs keeping the characters `keep` accepts; `keep` sees what is kept so far (run
/// index and character) and may take back from it.
fn edit_chars(
    runs: Vec<Run>,
    mut keep: impl FnMut(&mut Vec<(usize, char)>, char) -> bool,
) -> Vec<Run> {
    let mut kept: Vec<(usize, char)> = Vec::new();
    for (index, run) in runs.iter().enumerate() {
        for character in run.text.chars() {
            if keep(&mut kept, character) {
                kept.push((index, character));
            }
        }
    }
    let mut texts = vec![String::new(); runs.len()];
    for (index, character) in kept {
        texts[index].push(character);
    }
    runs.into_iter()
        .zip(texts)
        .filter(|(_, text)| !text.is_empty())
        .map(|(run, text)| Run { text, ..run })
        .collect()
}

fn flatten(children: &ElemChildren, key: Option<&str>, keys: &[String], runs: &mut Vec<Run>) {
    for child in &children.0 {
        match child {
            ElemChild::Text(formatted) => push_run(runs, &formatted.text, formatted, key, None),
            ElemChild::Link { text, url } => push_run(runs, &text.text, text, key, Some(url)),
            ElemChild::Elem(elem) => {
                let inner = match elem.meta {
                    Some(ElemMeta::Entry(index)) => keys.get(index).map(String::as_str),
                    _ => None,
                };
                flatten(&elem.children, inner.or(key), keys, runs);
            }
            // Markup is for Typst and transparent elements for callers that asked for them.
            ElemChild::Markup(_) | ElemChild::Transparent { .. } => {}
        }
    }
}

fn push_run(
    runs: &mut Vec<Run>,
    text: &str,
    formatted: &hayagriva::Formatted,
    key: Option<&str>,
    url: Option<&str>,
) {
    if text.is_empty() {
        return;
    }
    let formatting = formatted.formatting;
    let run = Run {
        text: text.to_owned(),
        italic: formatting.font_style == FontStyle::Italic,
        bold: formatting.font_weight == FontWeight::Bold,
        small_caps: formatting.font_variant == FontVariant::SmallCaps,
        superscript: formatting.vertical_align == VerticalAlign::Sup,
        subscript: formatting.vertical_align == VerticalAlign::Sub,
        key: key.map(str::to_owned),
        url: url.map(str::to_owned),
    };
    // Neighbours with the same formatting and target read as one run.
    if let Some(last) = runs.last_mut()
        && last.reads_like(&run)
    {
        last.text.push_str(text);
        return;
    }
    runs.push(run);
}

#[cfg(test)]
mod tests;
