//! Open Library's answers read into works of kind `book`: a search page's works, and the
//! Books API's editions.

use std::collections::BTreeMap;

use litrev_model::{Author, Isbn, WebUrl, Work, WorkIds, WorkKind};
use serde::Deserialize;

use crate::library::first_year;
use crate::markup::inline_to_text;

/// The books of one search page, and how many the search matched in all.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SearchResults {
    /// The works that have a title, in Open Library's order (most relevant first).
    pub works: Vec<Work>,
    /// Documents left out for want of a title or a key.
    pub skipped: usize,
    /// `numFound`: the works the search matched in all.
    pub found: u64,
}

#[derive(Deserialize)]
struct SearchAnswer {
    #[serde(default, rename = "numFound")]
    found: Option<u64>,
    #[serde(default)]
    num_found: Option<u64>,
    docs: Option<Vec<Doc>>,
    #[serde(default)]
    error: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Doc {
    key: Option<String>,
    title: Option<String>,
    subtitle: Option<String>,
    author_name: Vec<String>,
    author_key: Vec<String>,
    first_publish_year: Option<i32>,
    isbn: Vec<String>,
    publisher: Vec<String>,
    language: Vec<String>,
    subject: Vec<String>,
}

/// Most subjects kept as a book's keywords (Open Library lists hundreds for some works).
const KEYWORDS_MAX: usize = 10;

/// Reads one `/search.json` answer.
///
/// # Errors
/// When the body is not JSON, is Open Library's error body, or holds no `docs`.
pub fn parse_search(body: &str) -> Result<SearchResults, String> {
    let answer: SearchAnswer = serde_json::from_str(body).map_err(|error| error.to_string())?;
    if let Some(error) = answer.error {
        return Err(format!("Open Library answered with an error: {error}"));
    }
    let docs = answer
        .docs
        .ok_or_else(|| "Open Library's search answer holds no `docs`".to_owned())?;
    let mut read = SearchResults {
        found: answer.found.or(answer.num_found).unwrap_or(0),
        ..SearchResults::default()
    };
    for doc in docs {
        match book_of(doc) {
            Some(work) => read.works.push(work),
            None => read.skipped += 1,
        }
    }
    Ok(read)
}

/// A search document as a book; none without a title or a work key.
fn book_of(doc: Doc) -> Option<Work> {
    let title = full_title(doc.title.as_deref(), doc.subtitle.as_deref())?;
    let page = page_url(doc.key.as_deref()?, "works")?;
    let authors = doc
        .author_name
        .iter()
        .enumerate()
        .map(|(place, name)| Author {
            id: doc
                .author_key
                .get(place)
                .filter(|key| is_key(key, 'A'))
                .cloned(),
            ..Author::named(inline_to_text(name))
        })
        .filter(|author| !author.name.is_empty())
        .collect();
    Some(Work {
        ids: WorkIds {
            isbn: first_isbn(doc.isbn.iter().map(String::as_str)),
            url: Some(page.clone()),
            ..WorkIds::default()
        },
        title: Some(title),
        authors,
        year: doc
            .first_publish_year
            .filter(|year| (1000..=9999).contains(year)),
        publisher: doc
            .publisher
            .first()
            .map(|name| inline_to_text(name))
            .filter(|name| !name.is_empty()),
        kind: WorkKind::Book,
        language: doc.language.iter().find_map(|code| iso_639_1(code)),
        keywords: doc
            .subject
            .iter()
            .map(|subject| inline_to_text(subject))
            .filter(|subject| !subject.is_empty())
            .take(KEYWORDS_MAX)
            .collect(),
        oa_url: None,
        ..Work::default()
    })
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Edition {
    key: Option<String>,
    title: Option<String>,
    subtitle: Option<String>,
    authors: Vec<Named>,
    publishers: Vec<Named>,
    publish_date: Option<String>,
    identifiers: BTreeMap<String, Vec<String>>,
    subjects: Vec<Named>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Named {
    name: Option<String>,
}

/// Reads one Books API answer (`jscmd=data`): an object from each bibkey asked for to its
/// edition, in the order of the keys; keys Open Library does not know are absent from it.
///
/// # Errors
/// When the body is not a JSON object of editions.
pub fn parse_books(body: &str) -> Result<Vec<Work>, String> {
    let answer: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(body).map_err(|error| error.to_string())?;
    let mut works = Vec::new();
    for (bibkey, value) in answer {
        let edition: Edition = serde_json::from_value(value)
            .map_err(|error| format!("the edition of {bibkey}: {error}"))?;
        if let Some(work) = edition_of(&bibkey, edition) {
            works.push(work);
        }
    }
    Ok(works)
}

/// An edition as a book; none without a title, or without an ISBN or an edition key. Its ISBN is the one it was asked by when that
/// was an ISBN, else the first its identifiers list.
fn edition_of(bibkey: &str, edition: Edition) -> Option<Work> {
    let title = full_title(edition.title.as_deref(), edition.subtitle.as_deref())?;
    let asked = bibkey
        .strip_prefix("ISBN:")
        .and_then(|isbn| isbn.parse::<Isbn>().ok());
    let listed = ["isbn_13", "isbn_10"]
        .iter()
        .flat_map(|kind| edition.identifiers.get(*kind).into_iter().flatten())
        .map(String::as_str);
    // Catalogues write `2000-09`, `October 1, 1988`, `c1994.`, `[1994?]`.
    let date = edition.publish_date.as_deref().and_then(first_year);
    let ids = WorkIds {
        isbn: asked.or_else(|| first_isbn(listed)),
        url: edition
            .key
            .as_deref()
            .and_then(|key| page_url(key, "books")),
        ..WorkIds::default()
    };
    // A record known by nothing could be neither stored nor cited.
    ids.primary()?;
    Some(Work {
        ids,
        title: Some(title),
        authors: names(&edition.authors).map(Author::named).collect(),
        year: date,
        publisher: names(&edition.publishers).next(),
        kind: WorkKind::Book,
        keywords: names(&edition.subjects).take(KEYWORDS_MAX).collect(),
        ..Work::default()
    })
}

/// The non-empty names of a list of `{"name": …}`.
fn names(list: &[Named]) -> impl Iterator<Item = String> + '_ {
    list.iter()
        .filter_map(|named| named.name.as_deref())
        .map(inline_to_text)
        .filter(|name| !name.is_empty())
}

/// `Title: subtitle`, as a book is cited; none without a title.
fn full_title(title: Option<&str>, subtitle: Option<&str>) -> Option<String> {
    let title = title
        .map(inline_to_text)
        .filter(|title| !title.is_empty())?;
    Some(
        match subtitle.map(inline_to_text).filter(|sub| !sub.is_empty()) {
            Some(subtitle) => format!("{title}: {subtitle}"),
            None => title,
        },
    )
}

/// The first ISBN of a list that is one (13 digits preferred: it is the one printed today).
fn first_isbn<'a>(isbns: impl Iterator<Item = &'a str> + Clone) -> Option<Isbn> {
    let digits = |isbn: &&str| isbn.chars().filter(char::is_ascii_digit).count();
    isbns
        .clone()
        .filter(|isbn| digits(isbn) == 13)
        .chain(isbns)
        .find_map(|isbn| isbn.parse().ok())
}

/// Whether `key` is an Open Library key of the kind `letter` names (`OL45883W` a work,
/// `OL7353617M` an edition, `OL34184A` an author).
fn is_key(key: &str, letter: char) -> bool {
    key.strip_prefix("OL")
        .and_then(|rest| rest.strip_suffix(letter))
        .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
}

/// `https://openlibrary.org/works/OL45883W` from `/works/OL45883W` (or `OL45883W`), when the
/// key is one of `folder`'s kind.
fn page_url(key: &str, folder: &str) -> Option<WebUrl> {
    let bare = key.rsplit('/').next().unwrap_or(key);
    let letter = if folder == "works" { 'W' } else { 'M' };
    if !is_key(bare, letter) {
        return None;
    }
    format!("url:https://openlibrary.org/{folder}/{bare}")
        .parse()
        .ok()
}

/// The ISO 639-1 code of a MARC language code, for the languages most books are catalogued
/// in; `None` for the rest (the work then has no language, as when a source does not say).
fn iso_639_1(marc: &str) -> Option<String> {
    const CODES: &[(&str, &str)] = &[
        ("eng", "en"),
        ("fre", "fr"),
        ("ger", "de"),
        ("spa", "es"),
        ("ita", "it"),
        ("por", "pt"),
        ("dut", "nl"),
        ("rus", "ru"),
        ("jpn", "ja"),
        ("chi", "zh"),
        ("kor", "ko"),
        ("ara", "ar"),
        ("pol", "pl"),
        ("swe", "sv"),
        ("dan", "da"),
        ("nor", "no"),
        ("fin", "fi"),
        ("tur", "tr"),
        ("gre", "el"),
        ("heb", "he"),
        ("hin", "hi"),
        ("cze", "cs"),
        ("hun", "hu"),
        ("lat", "la"),
    ];
    CODES
        .iter()
        .find(|(code, _)| code.eq_ignore_ascii_case(marc.trim()))
        .map(|(_, iso)| (*iso).to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_document_becomes_a_book_known_by_its_isbn_and_page() {
        let body = r#"{"numFound":2,"start":0,"numFoundExact":true,"num_found":2,"q":"fox","docs":[
            {"key":"/works/OL45883W","type":"work","title":"Fantastic Mr. Fox","author_name":["Roald Dahl"],
             "author_key":["OL34184A"],"first_publish_year":1970,"isbn":["0140328726","9780140328721"],
             "publisher":["Puffin","Knopf"],"language":["eng"],"subject":["Foxes","Fiction"]},
            {"key":"/works/OL1W","title":""}]}"#;
        let read = parse_search(body).expect("reads");
        assert_eq!((read.found, read.skipped), (2, 1));
        let book = &read.works[0];
        assert_eq!(book.kind, WorkKind::Book);
        assert_eq!(book.id().to_string(), "isbn:9780140328721");
        assert_eq!(
            book.ids.url.as_ref().map(WebUrl::address),
            Some("https://openlibrary.org/works/OL45883W")
        );
        assert_eq!(book.authors[0].name, "Roald Dahl");
        assert_eq!(book.authors[0].id.as_deref(), Some("OL34184A"));
        assert_eq!(
            (
                book.year,
                book.publisher.as_deref(),
                book.language.as_deref()
            ),
            (Some(1970), Some("Puffin"), Some("en"))
        );
        assert_eq!(book.keywords, ["Foxes", "Fiction"]);
    }

    #[test]
    fn errors_and_empty_answers_are_told_apart() {
        assert!(parse_search(r#"{"error":"Invalid query"}"#).is_err());
        assert!(parse_search("{}").is_err());
        assert!(parse_search("<html>").is_err());
        let none = parse_search(r#"{"numFound":0,"docs":[]}"#).expect("reads");
        assert!(none.works.is_empty());
        assert!(parse_books("[]").is_err());
        assert!(parse_books("{}").expect("no editions").is_empty());
    }
}
