//! Crossref answers → `Work`s and a page struct.

use litrev_model::{Author, Biblio, Doi, Work, WorkId, WorkIds, WorkKind};
use serde_json::Value;

use super::Error;
use super::wire::{WireDate, WireEnvelope, WireList, WireWork};
use crate::markup::decode_entities;

/// One page of a `/works` list.
#[derive(Debug, Clone, PartialEq)]
pub struct WorksPage {
    /// Works matching the request in all (`total-results`).
    pub total_results: u64,
    /// Cursor of the next page (`next-cursor`), when the request asked for cursor paging.
    pub next_cursor: Option<String>,
    /// The page's works, in Crossref's order.
    pub works: Vec<Work>,
    /// Items dropped because they had no valid DOI or were not work objects.
    pub skipped: usize,
}

/// Reads `/works/{doi}` (`message-type: work`), or a bare work object.
///
/// # Errors
/// `Error::Api` for an error body (`Resource not found.`, `{"status": "failed", …}`),
/// `Error::Format` for anything else that is not a work with a DOI.
pub fn parse_work(json: &str) -> Result<Work, Error> {
    let message = message(json, "work")?;
    let wire: WireWork = serde_json::from_value(message).map_err(|error| Error::Format {
        expected: "work",
        detail: error.to_string(),
    })?;
    work_from_wire(wire).ok_or(Error::Format {
        expected: "work",
        detail: "the work has no valid DOI".to_owned(),
    })
}

/// Reads a `/works?…` page (`message-type: work-list`; also the `/works` lists under
/// `/members`, `/journals`, `/prefixes`, `/types` and `/funders`), or a bare list object.
///
/// # Errors
/// `Error::Api` for an error body, `Error::Format` for anything else that is not a work list.
pub fn parse_works(json: &str) -> Result<WorksPage, Error> {
    let message = message(json, "work-list")?;
    let list: WireList = serde_json::from_value(message).map_err(|error| Error::Format {
        expected: "work-list",
        detail: error.to_string(),
    })?;
    let total = list.items.len();
    let works: Vec<Work> = list
        .items
        .into_iter()
        .filter_map(|item| serde_json::from_value::<WireWork>(item).ok())
        .filter_map(work_from_wire)
        .collect();
    Ok(WorksPage {
        total_results: list.total_results.unwrap_or(0),
        next_cursor: list.next_cursor.filter(|cursor| !cursor.is_empty()),
        skipped: total - works.len(),
        works,
    })
}

/// The error a failed answer carries, with its HTTP status: the messages of a
/// `{"status": "failed", …}` body, else the body's text (`Resource not found.`).
pub fn parse_error(status: u16, body: &str) -> Error {
    match failure(body) {
        Some(Error::Api { kind, message, .. }) => Error::Api {
            status: Some(status),
            kind,
            message,
        },
        _ => Error::Api {
            status: Some(status),
            kind: None,
            message: short(body),
        },
    }
}

/// The `message` of an `ok` answer of the expected `message-type`.
fn message(json: &str, expected: &'static str) -> Result<Value, Error> {
    if let Some(error) = failure(json) {
        return Err(error);
    }
    let envelope: WireEnvelope = serde_json::from_str(json).map_err(|error| {
        let text = json.trim();
        let is_markup = text.starts_with('<');
        if !is_markup && !text.starts_with(['{', '[']) && text.len() < 200 {
            // Crossref answers unknown resources in plain text.
            return Error::Api {
                status: None,
                kind: None,
                message: text.to_owned(),
            };
        }
        Error::Format {
            expected,
            detail: format!("not JSON ({error}): {}", short(json)),
        }
    })?;
    match envelope.message_type.as_deref() {
        Some(found) if found == expected => Ok(envelope.message),
        // A bare work or list object (a data dump's record, a saved `message`).
        None if envelope.status.is_none() => {
            let value: Value = serde_json::from_str(json).map_err(|error| Error::Format {
                expected,
                detail: error.to_string(),
            })?;
            let key = if expected == "work" { "DOI" } else { "items" };
            if value.get(key).is_some() {
                Ok(value)
            } else {
                Err(Error::Format {
                    expected,
                    detail: format!(
                        "neither an envelope with a message-type nor an object with `{key}`"
                    ),
                })
            }
        }
        found => Err(Error::Format {
            expected,
            detail: format!(
                "message-type is {}",
                found.map_or("missing".to_owned(), |found| format!("`{found}`"))
            ),
        }),
    }
}

/// A `{"status": "failed", "message-type": …, "message": [{…, "message"}]}` body.
fn failure(json: &str) -> Option<Error> {
    let envelope: WireEnvelope = serde_json::from_str(json).ok()?;
    if envelope.status.as_deref() != Some("failed") {
        return None;
    }
    let messages: Vec<String> = match &envelope.message {
        Value::Array(items) => items
            .iter()
            .filter_map(|item| match item {
                Value::String(text) => Some(text.clone()),
                other => other
                    .get("message")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            })
            .collect(),
        Value::String(text) => vec![text.clone()],
        other => other
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .into_iter()
            .collect(),
    };
    Some(Error::Api {
        status: None,
        kind: envelope.message_type,
        message: messages.join("; ").trim().to_owned(),
    })
}

fn work_from_wire(wire: WireWork) -> Option<Work> {
    let doi: Doi = wire.doi.as_deref()?.parse().ok()?;
    let mut ids = WorkIds::default();
    ids.add(WorkId::Doi(doi.clone()));
    let date = [
        &wire.issued,
        &wire.published,
        &wire.published_print,
        &wire.published_online,
    ]
    .into_iter()
    .find_map(|date| date.as_ref().and_then(date_of));
    let year = date.as_ref().map(|(year, _)| *year);
    let (first_page, last_page) = wire
        .page
        .as_deref()
        .map(Biblio::split_pages)
        .unwrap_or_default();
    let kind = match (wire.work_type.as_deref(), wire.subtype.as_deref()) {
        (Some("posted-content"), Some("preprint")) => WorkKind::Preprint,
        (Some(kind), _) => WorkKind::from_source_type(kind),
        (None, _) => WorkKind::Other,
    };
    let oa_url = open_url(&wire, &doi);
    let mut keywords: Vec<String> = Vec::new();
    for subject in &wire.subject {
        let subject = subject.trim();
        if !subject.is_empty()
            && !keywords
                .iter()
                .any(|known| known.eq_ignore_ascii_case(subject))
        {
            keywords.push(subject.to_owned());
        }
    }
    Some(Work {
        topics: Vec::new(),
        ids,
        title: wire
            .title
            .iter()
            .chain(&wire.original_title)
            .find_map(|title| jats_to_text(title)),
        authors: wire
            .author
            .iter()
            .filter_map(|author| {
                let name = match (author.given.as_deref(), author.family.as_deref()) {
                    // Trimmed again: a blank given name or family name left a space behind.
                    (Some(given), Some(family)) => format!("{} {}", given.trim(), family.trim())
                        .trim()
                        .to_owned(),
                    (None, Some(family)) => family.trim().to_owned(),
                    _ => author.name.as_deref()?.trim().to_owned(),
                };
                (!name.is_empty()).then(|| Author {
                    id: None,
                    name,
                    orcid: author.orcid.as_deref().and_then(orcid),
                })
            })
            .collect(),
        year,
        date: date.map(|(_, text)| text),
        venue: wire
            .container_title
            .iter()
            .find_map(|title| jats_to_text(title)),
        publisher: wire.publisher.as_deref().and_then(jats_to_text),
        kind,
        biblio: Biblio {
            volume: wire.volume,
            issue: wire.issue,
            first_page,
            last_page,
        },
        abstract_text: wire.abstract_text.as_deref().and_then(jats_to_text),
        language: wire
            .language
            .map(|language| language.trim().to_ascii_lowercase())
            .filter(|language| !language.is_empty()),
        cited_by_count: wire.is_referenced_by_count,
        keywords,
        fields: Vec::new(),
        references: wire
            .reference
            .iter()
            .filter_map(|reference| reference.doi.as_deref()?.parse().ok())
            .map(WorkId::Doi)
            .collect(),
        oa_url,
        is_retracted: wire.updated_by.iter().any(|update| {
            matches!(
                update.update_type.as_deref(),
                Some("retraction" | "withdrawal" | "removal")
            )
        }),
    })
}

/// A link to the text when a Creative Commons licence covers the published version from the
/// day of publication: the PDF link, else the landing page, else the DOI.
fn open_url(wire: &WireWork, doi: &Doi) -> Option<String> {
    let open = wire.license.iter().any(|license| {
        license
            .url
            .as_deref()
            .is_some_and(|url| url.contains("creativecommons.org"))
            && license.delay_in_days.unwrap_or(0) <= 0
            && matches!(
                license.content_version.as_deref(),
                None | Some("vor" | "unspecified")
            )
    });
    if !open {
        return None;
    }
    let pdf = wire
        .link
        .iter()
        .find(|link| link.content_type.as_deref() == Some("application/pdf"))
        .and_then(|link| link.url.clone());
    let landing = wire
        .resource
        .as_ref()
        .and_then(|resource| resource.primary.as_ref())
        .and_then(|primary| primary.url.clone());
    Some(pdf.or(landing).unwrap_or_else(|| doi.url()))
}

/// Year and `YYYY[-MM[-DD]]` of `date-parts`; `None` when the year is unknown.
fn date_of(date: &WireDate) -> Option<(i32, String)> {
    let parts = date.date_parts.first()?;
    let number = |at: usize| -> Option<i64> {
        match parts.get(at)? {
            Value::Number(number) => number.as_i64(),
            Value::String(text) => text.trim().parse().ok(),
            _ => None,
        }
    };
    let year = i32::try_from(number(0)?).ok()?;
    let month = number(1).filter(|month| (1..=12).contains(month));
    let day = number(2).filter(|day| (1..=31).contains(day));
    let text = match (month, day) {
        (Some(month), Some(day)) => format!("{year:04}-{month:02}-{day:02}"),
        (Some(month), None) => format!("{year:04}-{month:02}"),
        _ => format!("{year:04}"),
    };
    Some((year, text))
}

/// An ORCID iD as `https://orcid.org/…` (Crossref writes `http://orcid.org/…`).
fn orcid(text: &str) -> Option<String> {
    let bare = text
        .trim()
        .trim_start_matches("https://orcid.org/")
        .trim_start_matches("http://orcid.org/");
    let valid = bare.len() == 19
        && bare.chars().enumerate().all(|(at, c)| match at {
            4 | 9 | 14 => c == '-',
            18 => c.is_ascii_digit() || c == 'X',
            _ => c.is_ascii_digit(),
        });
    valid.then(|| format!("https://orcid.org/{bare}"))
}

/// JATS (or HTML) markup as plain text: tags dropped, entities decoded, white space squeezed.
///
/// Section titles become labels (`Background: …`), as PubMed writes structured abstracts; a
/// leading `Abstract` title is dropped. A `<` that does not open a tag (`p < 0.05`) is kept.
/// Linear in the length of the markup, however its tags nest or fail to close.
pub fn jats_to_text(markup: &str) -> Option<String> {
    let text = flatten(markup, true);
    let text = decode_entities(&text)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    (!text.is_empty()).then_some(text)
}

/// Drops the tags of `markup`; with `titles`, a `<title>…</title>` becomes a label. A title's
/// own text is flattened without titles, so nested (or unclosed) titles recurse once at most.
fn flatten(markup: &str, titles: bool) -> String {
    let mut out = String::with_capacity(markup.len());
    let mut rest = markup;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let is_tag =
            after.starts_with(|c: char| c.is_ascii_alphabetic() || matches!(c, '/' | '!' | '?'));
        // A tag ends at the first `>`; a `<` before it means this `<` opened no tag. Looking no
        // further than the next `<` keeps a text full of `<` linear.
        let close = after
            .find(['<', '>'])
            .filter(|at| is_tag && after.as_bytes()[*at] == b'>');
        let Some(close) = close else {
            out.push('<');
            rest = after;
            continue;
        };
        let tag = &after[..close];
        rest = &after[close + 1..];
        let name = tag
            .trim_start_matches('/')
            .split(|c: char| c.is_whitespace() || c == '/')
            .next()
            .unwrap_or("");
        let local = name.rsplit(':').next().unwrap_or(name);
        if titles && local == "title" && !tag.starts_with('/') && !tag.ends_with('/') {
            let end_tag = format!("</{name}>");
            let (raw, after_title) = match rest.find(&end_tag) {
                Some(at) => (&rest[..at], &rest[at + end_tag.len()..]),
                None => (rest, ""),
            };
            rest = after_title;
            let label = decode_entities(&flatten(raw, false))
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let label = label.trim_end_matches([':', '.']);
            if !label.is_empty() && !label.eq_ignore_ascii_case("abstract") {
                out.push(' ');
                out.push_str(label);
                out.push_str(": ");
            }
            continue;
        }
        if matches!(
            local,
            "p" | "sec" | "list-item" | "br" | "break" | "div" | "li" | "title"
        ) {
            out.push(' ');
        }
    }
    out.push_str(rest);
    out
}

fn short(text: &str) -> String {
    let text = text.trim();
    match text.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_name_parts_leave_no_blank_author() {
        // Shown by the fuzz harness's author invariant (`replay crossref`): a given and family
        // name of white space made the author " ", and a blank given name " Smith".
        let json = r#"{"status":"ok","message-type":"work","message":{"DOI":"10.1000/x",
            "author":[{"given":" ","family":"\t"},{"given":"","family":"Smith"},{"family":" "}]}}"#;
        let work = parse_work(json).expect("work");
        let names: Vec<&str> = work
            .authors
            .iter()
            .map(|author| author.name.as_str())
            .collect();
        assert_eq!(names, ["Smith"]);
    }

    #[test]
    fn nested_or_unclosed_titles_and_stray_brackets_stay_linear() {
        // Found by the fuzz target `crossref`: an abstract of 140,000 `<title>` tags without
        // their end tag ran for minutes (each title searched the rest for `</title>` and
        // recursed into it, deep enough to overflow the stack). Now each title's text is
        // flattened once, and a `<` only looks as far as the next `<` for its `>`.
        let titles = "<title>".repeat(200_000);
        let started = std::time::Instant::now();
        assert_eq!(jats_to_text(&titles), None);
        let brackets = format!("{}>", "<a ".repeat(200_000));
        let text = jats_to_text(&brackets).expect("the brackets are text");
        assert!(text.starts_with("<a <a"), "{}", &text[..10]);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(
            jats_to_text("<title>Methods<title>inner</title> We <b>did</b>.").as_deref(),
            Some("Methods inner: We did.")
        );
    }

    #[test]
    fn flattens_jats_abstracts() {
        let jats = "<jats:title>Abstract</jats:title><jats:sec><jats:title>Background</jats:title>\
            <jats:p>CO<jats:sub>2</jats:sub> rose &amp; fell (p&lt;0.05).</jats:p></jats:sec>\
            <jats:sec><jats:title>Methods:</jats:title><jats:p>We used <jats:italic>E. coli</jats:italic>.</jats:p></jats:sec>";
        assert_eq!(
            jats_to_text(jats).as_deref(),
            Some("Background: CO2 rose & fell (p<0.05). Methods: We used E. coli.")
        );
        assert_eq!(
            jats_to_text("<p>n < 3 and m > 4 &#233;t&#xE9;</p>").as_deref(),
            Some("n < 3 and m > 4 été")
        );
        assert_eq!(jats_to_text("  <jats:p/> "), None);
        assert_eq!(jats_to_text("AT&T & co").as_deref(), Some("AT&T & co"));
    }

    #[test]
    fn reads_a_work_message() {
        let json = r#"{"status":"ok","message-type":"work","message-version":"1.0.0","message":{
            "DOI":"10.1371/JOURNAL.PONE.0033693","title":["Methylphenidate <i>Exposure</i>"],
            "author":[{"given":"Shankar","family":"Sadasivan","ORCID":"http://orcid.org/0000-0002-1825-0097"},{"name":"The Consortium"}],
            "issued":{"date-parts":[[2012,3,21]]},"container-title":["PLoS ONE"],"publisher":"PLoS",
            "volume":"7","issue":"3","page":"e33693","type":"journal-article","is-referenced-by-count":72,
            "reference":[{"key":"ref1","DOI":"10.1038/sj.npp.1301164"},{"key":"ref2"}],"language":"en",
            "license":[{"URL":"http://creativecommons.org/licenses/by/4.0/","content-version":"vor","delay-in-days":0}],
            "link":[{"URL":"http://dx.plos.org/10.1371/journal.pone.0033693","content-type":"unspecified"}],
            "resource":{"primary":{"URL":"https://dx.plos.org/10.1371/journal.pone.0033693"}},
            "updated-by":[{"type":"correction"}],"subject":["Multidisciplinary"]}}"#;
        let work = parse_work(json).expect("work");
        assert_eq!(
            work.ids.doi.as_ref().map(Doi::as_str),
            Some("10.1371/journal.pone.0033693")
        );
        assert_eq!(work.title.as_deref(), Some("Methylphenidate Exposure"));
        assert_eq!(work.authors[0].name, "Shankar Sadasivan");
        assert_eq!(
            work.authors[0].orcid.as_deref(),
            Some("https://orcid.org/0000-0002-1825-0097")
        );
        assert_eq!(work.authors[1].name, "The Consortium");
        assert_eq!(
            (work.year, work.date.as_deref()),
            (Some(2012), Some("2012-03-21"))
        );
        assert_eq!(work.biblio.first_page.as_deref(), Some("e33693"));
        assert_eq!(work.references.len(), 1);
        assert_eq!(
            work.oa_url.as_deref(),
            Some("https://dx.plos.org/10.1371/journal.pone.0033693")
        );
        assert!(!work.is_retracted);
        assert_eq!(work.keywords, vec!["Multidisciplinary".to_owned()]);
    }

    #[test]
    fn tells_error_bodies_apart() {
        let not_found = parse_work("Resource not found.");
        assert!(
            matches!(&not_found, Err(error) if error.is_not_found()),
            "{not_found:?}"
        );
        let invalid = r#"{"status":"failed","message-type":"validation-failure","message":[{"type":"integer-not-valid","value":"things","message":"Integer specified as things but must be a positive integer less than or equal to 1000. "}]}"#;
        let error = parse_works(invalid).expect_err("validation failure");
        assert!(error.is_bad_request(), "{error}");
        assert_eq!(
            parse_error(400, invalid),
            Error::Api {
                status: Some(400),
                kind: Some("validation-failure".to_owned()),
                message: "Integer specified as things but must be a positive integer less than or equal to 1000.".to_owned(),
            }
        );
        assert!(parse_error(404, "Resource not found.").is_not_found());
        assert!(matches!(
            parse_works("<!DOCTYPE html><html></html>"),
            Err(Error::Format { .. })
        ));
        let single = r#"{"status":"ok","message-type":"work","message":{"DOI":"10.1/a"}}"#;
        assert!(
            matches!(parse_works(single), Err(Error::Format { .. })),
            "a work is not a list"
        );
    }
}
