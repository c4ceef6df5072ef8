//! One HTML page → a [`Work`]: its title, byline, site, date and language from the page's
//! metadata, and the opening of its readable text as the abstract a review quotes; and that
//! text, cut into paragraphs and sections, as the page's [`FullText`].

use std::time::Duration;

use litrev_model::{
    Author, FullText, SectionRole, TextFormat, TextSection, WebUrl, Work, WorkIds, WorkKind,
};

use crate::{Error, Result};

/// The content types read as pages.
pub const PAGE_TYPES: &[&str] = &["text/html", "application/xhtml+xml"];

/// Words of the page's text kept as its abstract, at most (cut at the last sentence end
/// before): what a review quotes of it, as it would an abstract.
const ABSTRACT_WORDS: usize = 300;

/// Elements the reader walks at most: a page larger than this is mostly not an article.
const MAX_ELEMENTS: usize = 20_000;

/// Pages larger than this are not read: an article is far smaller, and the reader's time grows
/// faster than the page.
pub const MAX_PAGE_BYTES: usize = 2 << 20;

/// How long reading one page may take before it is given up.
pub const PAGE_TIME_LIMIT: Duration = Duration::from_secs(10);

/// Reads an HTML page fetched from `address` (its final URL after redirects: `fetched_from`)
/// into a work of kind `webpage`, within [`PAGE_TIME_LIMIT`].
///
/// # Errors
/// [`Error::Page`] when the page is too large, takes too long, or has no readable title or
/// text.
pub fn read_page(address: &WebUrl, fetched_from: &str, html: &[u8]) -> Result<Work> {
    read_page_within(address, fetched_from, html, PAGE_TIME_LIMIT).map(|page| page.work)
}

/// A page read: the work it is, and its readable text as a full text.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadPage {
    /// The page as a work of kind `webpage`.
    pub work: Work,
    /// Its readable text: paragraphs as the reader separates them, a short line without a
    /// sentence's end opening a section under that heading.
    pub text: FullText,
}

/// [`read_page`] with a time limit of its own, giving the page's text too: the page is read on
/// a thread of its own, and a reader still busy at `limit` is left to finish alone while the
/// page is refused.
///
/// # Errors
/// As [`read_page`].
pub fn read_page_within(
    address: &WebUrl,
    fetched_from: &str,
    html: &[u8],
    limit: Duration,
) -> Result<ReadPage> {
    let failed = |message: String| Error::Page {
        url: address.address().to_owned(),
        message,
    };
    if html.len() > MAX_PAGE_BYTES {
        return Err(failed(format!(
            "{} bytes of HTML, over the {} the reader takes",
            html.len(),
            MAX_PAGE_BYTES
        )));
    }
    let (sender, receiver) = std::sync::mpsc::channel();
    let (owned_address, owned_from, owned_html) =
        (address.clone(), fetched_from.to_owned(), html.to_vec());
    std::thread::Builder::new()
        .name("litrev-page".to_owned())
        .spawn(move || {
            let read =
                std::panic::catch_unwind(|| read_now(&owned_address, &owned_from, &owned_html));
            // The receiver is gone when the time ran out: nobody waits for this page any more.
            let _ = sender.send(read);
        })
        .map_err(|error| failed(format!("no thread to read it on: {error}")))?;
    match receiver.recv_timeout(limit) {
        Ok(Ok(read)) => read,
        Ok(Err(_)) => Err(failed("the reader failed on it".to_owned())),
        Err(_) => Err(failed(format!(
            "reading it took longer than {} s",
            limit.as_secs_f32()
        ))),
    }
}

/// Reads the page on this thread.
fn read_now(address: &WebUrl, fetched_from: &str, html: &[u8]) -> Result<ReadPage> {
    let failed = |message: String| Error::Page {
        url: address.address().to_owned(),
        message,
    };
    let text = String::from_utf8_lossy(html);
    let config = dom_smoothie::Config {
        max_elements_to_parse: MAX_ELEMENTS,
        // Paragraphs apart, without markup: what the full text is cut into.
        text_mode: dom_smoothie::TextMode::Formatted,
        ..dom_smoothie::Config::default()
    };
    let mut readability =
        dom_smoothie::Readability::new(text.as_ref(), Some(fetched_from), Some(config))
            .map_err(|error| failed(error.to_string()))?;
    let article = readability
        .parse()
        .map_err(|error| failed(error.to_string()))?;
    let body = collapse(&article.text_content);
    if body.split_whitespace().count() < 20 {
        return Err(failed(format!(
            "{} words of text",
            body.split_whitespace().count()
        )));
    }
    let title = Some(collapse(&article.title))
        .filter(|title| !title.is_empty())
        .ok_or_else(|| failed("no title".to_owned()))?;
    let date = article
        .published_time
        .as_deref()
        .map(str::trim)
        .filter(|date| date.len() >= 4)
        .map(|date| date.chars().take(10).collect::<String>());
    let year = date.as_deref().and_then(year_of);
    let site = article
        .site_name
        .as_deref()
        .map(collapse)
        .filter(|site| !site.is_empty())
        .or_else(|| host_of(address.address()).map(str::to_owned));
    let full_text = FullText {
        format: TextFormat::Html,
        title: Some(title.clone()),
        ids: vec![("url".to_owned(), address.address().to_owned())],
        abstract_paragraphs: Vec::new(),
        sections: sections(&article.text_content, &title),
        references: Vec::new(),
    };
    let work = Work {
        ids: WorkIds {
            url: Some(address.clone()),
            ..WorkIds::default()
        },
        title: Some(title),
        authors: byline_authors(article.byline.as_deref()),
        year,
        date,
        venue: site,
        kind: WorkKind::Webpage,
        abstract_text: Some(opening(&body, ABSTRACT_WORDS)),
        language: article
            .lang
            .as_deref()
            .and_then(|lang| lang.get(..2))
            .map(str::to_ascii_lowercase)
            .filter(|lang| lang.chars().all(|c| c.is_ascii_alphabetic())),
        oa_url: Some(fetched_from.to_owned()),
        ..Work::default()
    };
    Ok(ReadPage {
        work,
        text: full_text,
    })
}

/// Words a heading has at most.
const HEADING_WORDS: usize = 12;

/// The reader's text cut into sections: blocks apart are paragraphs; a short block without a
/// sentence's end, followed by more text, is a heading opening a section (the page's own title
/// repeated at the top is dropped, and a short block right under a heading is its first
/// paragraph).
fn sections(text: &str, title: &str) -> Vec<TextSection> {
    let blocks: Vec<String> = text
        .split("\n\n")
        .map(collapse)
        .filter(|block| !block.is_empty())
        .collect();
    let mut sections = vec![TextSection {
        title: String::new(),
        role: SectionRole::Other,
        depth: 1,
        paragraphs: Vec::new(),
        page: None,
    }];
    for (index, block) in blocks.iter().enumerate() {
        let is_heading = block.split_whitespace().count() <= HEADING_WORDS
            && !block.ends_with(['.', '!', '?', ':', ';', ','])
            && index + 1 < blocks.len();
        if index == 0 && is_heading && block == title {
            continue;
        }
        // A second short line under a heading is its subtitle: the section's first paragraph.
        let under_heading = sections
            .last()
            .is_some_and(|section| !section.title.is_empty() && section.paragraphs.is_empty());
        if is_heading && !under_heading {
            sections.push(TextSection {
                title: block.clone(),
                role: SectionRole::of(None, block),
                depth: 1,
                paragraphs: Vec::new(),
                page: None,
            });
        } else if let Some(section) = sections.last_mut() {
            section.paragraphs.push(block.clone());
        }
    }
    sections.retain(|section| !section.paragraphs.is_empty());
    sections
}

/// The year a date opening with one (`2023-06-01…`) gives, when it is a plausible year of
/// publication.
pub(crate) fn year_of(date: &str) -> Option<i32> {
    date.get(..4)
        .and_then(|year| year.parse().ok())
        .filter(|year| (1900..=2200).contains(year))
}

/// The `YYYY-MM-DD` a date or timestamp opens with (`2024-04-06T03:40:36.000Z`), if it opens
/// with one.
pub(crate) fn iso_date(text: &str) -> Option<String> {
    text.trim()
        .get(..10)
        .filter(|date| {
            let bytes = date.as_bytes();
            bytes[4] == b'-' && bytes[7] == b'-' && bytes[..4].iter().all(u8::is_ascii_digit)
        })
        .map(str::to_owned)
}

/// Whitespace runs as one space, control characters dropped.
pub(crate) fn collapse(text: &str) -> String {
    text.split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The byline's names: "By A and B" or "A, B" as authors; none for a blank byline.
fn byline_authors(byline: Option<&str>) -> Vec<Author> {
    let Some(byline) = byline.map(collapse) else {
        return Vec::new();
    };
    let byline = byline
        .strip_prefix("By ")
        .or_else(|| byline.strip_prefix("by "))
        .unwrap_or(&byline);
    byline
        .split([',', ';', '|'])
        .flat_map(|part| part.split(" and "))
        .map(str::trim)
        .filter(|name| !name.is_empty() && name.split_whitespace().count() <= 5)
        .map(Author::named)
        .collect()
}

/// The first `limit` words of a text, cut back to the last sentence end among them when there
/// is one.
fn opening(text: &str, limit: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().take(limit).collect();
    let mut cut = words.len();
    if words.len() == limit
        && let Some(last) = words
            .iter()
            .rposition(|word| word.ends_with(['.', '!', '?']))
    {
        cut = last + 1;
    }
    words[..cut].join(" ")
}

/// The host (and port) of an http(s) address, without any user name: what a page's site is
/// known by.
pub fn host_of(address: &str) -> Option<&str> {
    let rest = address.split_once("://")?.1;
    let host = rest.split(['/', '?', '#']).next()?;
    let host = host.rsplit_once('@').map_or(host, |(_, host)| host);
    Some(host).filter(|host| !host.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_iso_date_is_read_from_the_start_of_a_timestamp_only() {
        assert_eq!(
            iso_date(" 2024-04-06T03:40:36.000Z").as_deref(),
            Some("2024-04-06")
        );
        assert_eq!(iso_date("2024-12-27").as_deref(), Some("2024-12-27"));
        for not_a_date in ["2024", "06/04/2024", "20é4-01-01xx", "abcd-ef-ghij", ""] {
            assert_eq!(iso_date(not_a_date), None, "{not_a_date}");
        }
    }

    const PAGE: &str = r#"<!DOCTYPE html><html lang="en-GB"><head>
        <title>Heat and health: a report</title>
        <meta property="og:site_name" content="Public Health Agency">
        <meta property="article:published_time" content="2023-06-01T09:00:00Z">
        <meta name="author" content="By Ada Lovelace and Mary Somerville">
        </head><body><nav>Home | About | Contact</nav><article>
        <h1>Heat and health: a report</h1>
        <p>Extreme heat raised emergency admissions among older adults in every region we studied during the summer.</p>
        <p>Cooling centres reduced admissions where they opened early, and local alerts reached most households within a day.</p>
        <p>We recommend that councils plan cooling centres before the season and keep their alert lists current.</p>
        </article><footer>Copyright</footer></body></html>"#;

    fn address() -> WebUrl {
        "url:https://agency.example/heat".parse().expect("address")
    }

    #[test]
    fn a_page_becomes_a_webpage_work_with_its_metadata_and_text() {
        let work =
            read_page(&address(), "https://agency.example/heat", PAGE.as_bytes()).expect("read");
        assert_eq!(work.kind, WorkKind::Webpage);
        assert_eq!(work.title.as_deref(), Some("Heat and health: a report"));
        assert_eq!(work.year, Some(2023));
        assert_eq!(work.venue.as_deref(), Some("Public Health Agency"));
        assert_eq!(work.language.as_deref(), Some("en"));
        let names: Vec<&str> = work.authors.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["Ada Lovelace", "Mary Somerville"]);
        let text = work.abstract_text.clone().expect("text");
        assert!(text.starts_with("Extreme heat raised"), "{text}");
        assert!(
            !text.contains("Copyright") && !text.contains("Contact"),
            "{text}"
        );
        assert_eq!(work.id().to_string(), "url:https://agency.example/heat");
        // The text: the title repeated at the top dropped, the three paragraphs apart.
        let page = read_page_within(
            &address(),
            "https://agency.example/heat",
            PAGE.as_bytes(),
            PAGE_TIME_LIMIT,
        )
        .expect("read");
        assert_eq!(page.work, work);
        assert_eq!(page.text.format, TextFormat::Html);
        let paragraphs: Vec<&str> = page
            .text
            .sections
            .iter()
            .flat_map(|section| section.paragraphs.iter().map(String::as_str))
            .collect();
        assert_eq!(paragraphs.len(), 3, "{:#?}", page.text);
        assert!(paragraphs[2].starts_with("We recommend that councils"));
    }

    #[test]
    fn short_lines_without_a_sentence_end_open_sections() {
        let text = "Heat and health\n\nOpening words of the page, which run on as a sentence does.\n\nMethods\n\nWe counted admissions.\n\nFindings\n\nFrom the 2023 season\n\nAdmissions rose.\n\nLast line";
        let found = sections(text, "Heat and health");
        let titles: Vec<&str> = found.iter().map(|section| section.title.as_str()).collect();
        assert_eq!(titles, ["", "Methods", "Findings"]);
        assert_eq!(found[1].role, SectionRole::Methods);
        // A subtitle under a heading, and a short last line, are paragraphs.
        assert_eq!(
            found[2].paragraphs,
            ["From the 2023 season", "Admissions rose.", "Last line"]
        );
    }

    #[test]
    fn a_page_without_text_is_refused_with_its_address() {
        let error = read_page(
            &address(),
            "https://agency.example/heat",
            b"<html><body></body></html>",
        )
        .expect_err("no text");
        assert!(
            error.to_string().contains("https://agency.example/heat"),
            "{error}"
        );
        for hostile in [&b"\xff\xfe\x00<"[..], b"<<<<>>>>", b""] {
            assert!(read_page(&address(), "https://agency.example/heat", hostile).is_err());
        }
    }

    #[test]
    fn an_opening_stops_at_a_sentence_end() {
        let text = "One two. Three four five six";
        assert_eq!(opening(text, 4), "One two.");
        assert_eq!(opening(text, 10), text);
        assert_eq!(
            host_of("https://user@example.org:8080/a"),
            Some("example.org:8080")
        );
    }
}
