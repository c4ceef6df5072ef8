//! A local Open Library stand-in for the book tests, serving the recorded answers of
//! [`crate::openlibrary_answers`] as the site's APIs would:
//!
//! - `/api/books?bibkeys=ISBN:…&format=json&jscmd=data`: the recorded editions each asked ISBN
//!   names (by its ISBN-13, or the ISBN-10 it extends), under the key as asked; ISBNs it does not
//!   hold are absent, as on the site.
//! - `/search.json?q=…&limit=…&page=…`: the recorded works (an author's `works.json`) whose
//!   title, subtitle and subjects match `q` (alternatives joined by `OR`, each a word or a
//!   parenthesised `AND` of words, matched when the text holds all its words; words alone
//!   are all required, as Solr's default), as search documents are made on the
//!   site: the work's key, title, subtitle and subjects, its author's name (from the recorded
//!   author record), and the ISBNs and publishers of the recorded editions of the same title.
//!
//! It refuses what the site refuses: another path, a missing or empty `q`, a `limit` that is no
//! number or a `page` below 1.

use std::path::Path;

use serde_json::{Value, json};

use crate::http::{FaultPlan, Reply, ServedRequest, Server};

/// The recorded answers the stand-in serves.
struct Recorded {
    /// The Books API's answer: bibkey → edition.
    editions: serde_json::Map<String, Value>,
    /// Work records.
    works: Vec<Value>,
    /// The recorded author: key (`/authors/OL23919A`) and name.
    author: (String, String),
}

/// Starts the stand-in over the answer folder (`books.json`, `author_works.json`,
/// `author.json`).
///
/// # Panics
/// When a recorded answer cannot be read: the test data is broken.
pub fn openlibrary_server(answers: &Path, faults: FaultPlan) -> Server {
    let read = |name: &str| -> Value {
        let text = std::fs::read_to_string(answers.join(name))
            .unwrap_or_else(|error| panic!("the recorded {name}: {error}"));
        serde_json::from_str(&text).unwrap_or_else(|error| panic!("{name}: {error}"))
    };
    let editions = read("books.json")
        .as_object()
        .cloned()
        .expect("books.json is an object of editions");
    let works = read("author_works.json")["entries"]
        .as_array()
        .cloned()
        .expect("author_works.json has entries");
    let author = read("author.json");
    let author = (
        author["key"].as_str().unwrap_or_default().to_owned(),
        author["name"].as_str().unwrap_or_default().to_owned(),
    );
    let recorded = Recorded {
        editions,
        works,
        author,
    };
    Server::start(move |request| answer_to(request, &recorded), faults)
}

fn answer_to(request: &ServedRequest, recorded: &Recorded) -> Reply {
    if request.method != "GET" {
        return Reply::json(405, &json!({"error": "method not allowed"}));
    }
    match request.path.as_str() {
        "/api/books" => books(request, recorded),
        "/search.json" => search(request, recorded),
        _ => Reply::new(404, "text/html", b"<html>Page not found</html>".to_vec()),
    }
}

/// The digits of an ISBN-13 and the nine that an ISBN-10 shares with it.
fn same_isbn(isbn13: &str, listed: &str) -> bool {
    let listed: String = listed.chars().filter(char::is_ascii_alphanumeric).collect();
    match listed.len() {
        13 => listed == isbn13,
        10 => isbn13.starts_with("978") && isbn13.get(3..12) == listed.get(..9),
        _ => false,
    }
}

fn books(request: &ServedRequest, recorded: &Recorded) -> Reply {
    let mut answer = serde_json::Map::new();
    for key in request.param("bibkeys").unwrap_or_default().split(',') {
        let Some(isbn) = key.trim().strip_prefix("ISBN:") else {
            continue;
        };
        let found = recorded.editions.values().find(|edition| {
            ["isbn_13", "isbn_10"].iter().any(|kind| {
                edition["identifiers"][kind].as_array().is_some_and(|list| {
                    list.iter()
                        .filter_map(Value::as_str)
                        .any(|listed| same_isbn(isbn, listed))
                })
            })
        });
        if let Some(edition) = found {
            answer.insert(key.trim().to_owned(), edition.clone());
        }
    }
    Reply::json(200, &Value::Object(answer))
}

fn search(request: &ServedRequest, recorded: &Recorded) -> Reply {
    let q = request.param("q").unwrap_or_default().trim().to_lowercase();
    let limit = request
        .param("limit")
        .map_or(Some(100), |v| v.parse::<usize>().ok());
    let page = request
        .param("page")
        .map_or(Some(1), |v| v.parse::<usize>().ok());
    let (Some(limit), Some(page)) = (limit, page.filter(|page| *page >= 1)) else {
        return Reply::json(
            422,
            &json!({"error": "limit and page must be positive numbers"}),
        );
    };
    if q.is_empty() {
        return Reply::json(422, &json!({"error": "q is required"}));
    }
    let alternatives: Vec<Vec<&str>> = q
        .split(" or ")
        .map(|alternative| {
            alternative
                .split_whitespace()
                .map(|word| word.trim_matches(|c| c == '(' || c == ')'))
                .filter(|word| !word.is_empty() && *word != "and")
                .collect()
        })
        .collect();
    let docs: Vec<Value> = recorded
        .works
        .iter()
        .filter(|work| {
            let mut text = format!(
                "{} {}",
                work["title"].as_str().unwrap_or_default(),
                work["subtitle"].as_str().unwrap_or_default()
            );
            for subject in work["subjects"].as_array().into_iter().flatten() {
                text.push(' ');
                text.push_str(subject.as_str().unwrap_or_default());
            }
            let text = text.to_lowercase();
            alternatives
                .iter()
                .any(|words| words.iter().all(|word| text.contains(word)))
        })
        .map(|work| document(work, recorded))
        .collect();
    let found = docs.len();
    let start = (page - 1).saturating_mul(limit);
    let docs: Vec<Value> = docs.into_iter().skip(start).take(limit).collect();
    Reply::json(
        200,
        &json!({"numFound": found, "start": start, "numFoundExact": true, "docs": docs,
                "num_found": found, "q": q, "offset": null}),
    )
}

/// A work record as the search index holds it.
fn document(work: &Value, recorded: &Recorded) -> Value {
    let title = work["title"].as_str().unwrap_or_default();
    let by_recorded_author = work["authors"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|author| author["author"]["key"].as_str() == Some(recorded.author.0.as_str()));
    let editions: Vec<&Value> = recorded
        .editions
        .values()
        .filter(|edition| {
            edition["title"]
                .as_str()
                .is_some_and(|t| t.eq_ignore_ascii_case(title))
        })
        .collect();
    let isbns: Vec<Value> = editions
        .iter()
        .flat_map(|edition| {
            ["isbn_13", "isbn_10"].into_iter().flat_map(move |kind| {
                edition["identifiers"][kind]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
            })
        })
        .collect();
    let publishers: Vec<Value> = editions
        .iter()
        .flat_map(|edition| {
            edition["publishers"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .filter_map(|publisher| publisher.get("name").cloned())
        .collect();
    let mut doc = json!({
        "key": work["key"],
        "type": "work",
        "title": title,
        "subject": work["subjects"].as_array().cloned().unwrap_or_default(),
    });
    if let Some(subtitle) = work["subtitle"].as_str() {
        doc["subtitle"] = json!(subtitle);
    }
    if by_recorded_author {
        doc["author_name"] = json!([recorded.author.1]);
        doc["author_key"] = json!([recorded.author.0.trim_start_matches("/authors/")]);
    }
    if !isbns.is_empty() {
        doc["isbn"] = json!(isbns);
        doc["publisher"] = json!(publishers);
    }
    doc
}
