//! CSL-JSON, as Zotero, Better BibTeX, Mendeley, pandoc and doi.org's content negotiation
//! write it: an array of items (or one item, or citeproc-js's `{"items": [...]}`), each with a
//! `type`, a `title`, names as `family`/`given` or `literal`, and dates as `date-parts`, `raw`
//! or `literal`.

use std::path::Path;

use litrev_model::{Author, Biblio, Work, WorkIds, WorkKind};
use serde_json::Value;

use super::{LabelledWork, UNNAMED_RECORD, add_ids, first_year, terms};
use crate::error::Issue;

/// Reads every item of a CSL-JSON text. Items with neither a title nor an id are skipped and
/// reported (by their place in the list: JSON has no record lines); a text that is no JSON,
/// or JSON of another shape, gives one issue and no records.
pub fn read_csl_json(text: &str, source: &Path) -> (Vec<LabelledWork>, Vec<Issue>) {
    let issue = |line: usize, message: String| Issue {
        path: source.to_owned(),
        line,
        message,
    };
    let value: Value = match serde_json::from_str(text.trim_start_matches('\u{feff}')) {
        Ok(value) => value,
        Err(error) => {
            return (
                Vec::new(),
                vec![issue(
                    error.line(),
                    format!("this is not CSL-JSON ({error}): export the library again as CSL JSON"),
                )],
            );
        }
    };
    let items: Vec<&Value> = match &value {
        Value::Array(items) => items.iter().collect(),
        Value::Object(object) => match object.get("items") {
            Some(Value::Array(items)) => items.iter().collect(),
            _ => vec![&value],
        },
        _ => Vec::new(),
    };
    if items.is_empty() || items.iter().all(|item| !item.is_object()) {
        return (
            Vec::new(),
            vec![issue(
                1,
                "no CSL-JSON item in it (a list of objects with `type` and `title`)".to_owned(),
            )],
        );
    }
    let mut records = Vec::new();
    let mut issues = Vec::new();
    for (at, item) in items.into_iter().enumerate() {
        match record(item) {
            Some(record) => records.push(record),
            None => issues.push(issue(
                1,
                format!("item {} of the list: {UNNAMED_RECORD}", at + 1),
            )),
        }
    }
    (records, issues)
}

/// A field as text: a string trimmed, or a number written out; `None` when missing or empty.
fn text(item: &Value, field: &str) -> Option<String> {
    let text = match item.get(field)? {
        Value::String(text) => text.split_whitespace().collect::<Vec<_>>().join(" "),
        Value::Number(number) => number.to_string(),
        // Some writers (Crossref's API among them) give titles as lists.
        Value::Array(values) => values.iter().find_map(Value::as_str)?.trim().to_owned(),
        _ => return None,
    };
    (!text.is_empty()).then_some(text)
}

fn record(item: &Value) -> Option<LabelledWork> {
    let mut ids = WorkIds::default();
    let pmid = text(item, "PMID").map(|pmid| format!("pmid:{pmid}"));
    let values: Vec<String> = [
        text(item, "DOI"),
        pmid,
        text(item, "PMCID"),
        text(item, "URL"),
    ]
    .into_iter()
    .flatten()
    .collect();
    add_ids(&mut ids, values.iter().map(String::as_str));
    let title = text(item, "title");
    if title.is_none() && ids.primary().is_none() {
        return None;
    }
    let authors = item
        .get("author")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(name)
        .map(Author::named)
        .collect();
    let issued = item.get("issued");
    let date = issued.and_then(|_| crate::zotero::csl_date(item));
    let year = date.as_deref().and_then(first_year).or_else(|| {
        let issued = issued?;
        ["raw", "literal"]
            .iter()
            .find_map(|field| text(issued, field).as_deref().and_then(first_year))
    });
    let (first_page, last_page) = text(item, "page")
        .map(|pages| Biblio::split_pages(&pages))
        .unwrap_or_default();
    let keywords = text(item, "keyword")
        .map(|keywords| terms(&keywords, &[',', ';']))
        .unwrap_or_default();
    let work = Work {
        ids,
        title,
        authors,
        year,
        date: date.filter(|date| date.len() >= 7),
        venue: text(item, "container-title"),
        publisher: text(item, "publisher"),
        kind: kind_of(text(item, "type").as_deref().unwrap_or("")),
        biblio: Biblio {
            volume: text(item, "volume"),
            issue: text(item, "issue"),
            first_page,
            last_page,
        },
        abstract_text: text(item, "abstract"),
        language: text(item, "language")
            .and_then(|language| litrev_model::language_code(&language).map(str::to_owned)),
        keywords,
        ..Work::default()
    };
    Some(LabelledWork { work, label: None })
}

/// A CSL name as written: `given family` (with its particles and suffix), or its `literal`.
fn name(value: &Value) -> Option<String> {
    if let Some(literal) = text(value, "literal") {
        return Some(literal);
    }
    let parts = [
        text(value, "given"),
        text(value, "dropping-particle"),
        text(value, "non-dropping-particle"),
        text(value, "family"),
        text(value, "suffix"),
    ];
    let name = parts.into_iter().flatten().collect::<Vec<_>>().join(" ");
    (!name.is_empty()).then_some(name)
}

/// The kind of a CSL item type.
fn kind_of(csl_type: &str) -> WorkKind {
    match csl_type {
        "article-journal" | "article-magazine" | "article-newspaper" => WorkKind::Article,
        "paper-conference" => WorkKind::ProceedingsArticle,
        "chapter" => WorkKind::BookChapter,
        "book" | "classic" => WorkKind::Book,
        "thesis" => WorkKind::Thesis,
        "report" => WorkKind::Report,
        "review" | "review-book" => WorkKind::Review,
        "dataset" => WorkKind::Dataset,
        "webpage" | "post-weblog" | "post" => WorkKind::Webpage,
        "entry-encyclopedia" | "entry-dictionary" | "entry" => WorkKind::EncyclopediaEntry,
        "article" | "preprint" => WorkKind::Preprint,
        _ => WorkKind::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Vec<LabelledWork>, Vec<Issue>) {
        read_csl_json(text, Path::new("test.json"))
    }

    #[test]
    fn reads_items_names_and_dates() {
        let text = r#"[{"id": "oldenburg2017", "type": "article-journal",
            "title": "Emicizumab prophylaxis in hemophilia A with inhibitors",
            "author": [{"family": "Oldenburg", "given": "Johannes"}, {"literal": "HAVEN 1 Investigators"},
                       {"family": "Ham", "given": "Jan", "non-dropping-particle": "van der"}],
            "issued": {"date-parts": [[2017, 8, 31]]}, "container-title": "New England Journal of Medicine",
            "volume": "377", "issue": 9, "page": "809-818", "DOI": "10.1056/NEJMoa1703068",
            "PMID": "28691557", "language": "en"},
            {"id": "b", "type": "book", "title": "A handbook", "issued": {"raw": "2019"}},
            {"id": "c", "type": "article-journal"}]"#;
        let (records, issues) = read(text);
        assert_eq!(records.len(), 2);
        assert_eq!(issues.len(), 1, "{issues:?}");
        assert!(issues[0].message.starts_with("item 3 of the list"));
        let work = &records[0].work;
        let names: Vec<&str> = work
            .authors
            .iter()
            .map(|author| author.name.as_str())
            .collect();
        assert_eq!(
            names,
            [
                "Johannes Oldenburg",
                "HAVEN 1 Investigators",
                "Jan van der Ham"
            ]
        );
        assert_eq!(work.year, Some(2017));
        assert_eq!(work.date.as_deref(), Some("2017-08-31"));
        assert_eq!(work.biblio.issue.as_deref(), Some("9"));
        assert_eq!(work.biblio.last_page.as_deref(), Some("818"));
        assert!(work.ids.doi.is_some() && work.ids.pmid.is_some());
        assert_eq!(work.language.as_deref(), Some("en"));
        assert_eq!(records[1].work.kind, WorkKind::Book);
        assert_eq!(records[1].work.year, Some(2019));
    }

    #[test]
    fn other_json_is_refused_with_one_issue() {
        for text in ["{\"a\": [", "42", "[1, 2]", "[]"] {
            let (records, issues) = read(text);
            assert!(records.is_empty(), "{text}");
            assert_eq!(issues.len(), 1, "{text}");
        }
        let (records, _) = read(r#"{"items": [{"type": "book", "title": "T"}]}"#);
        assert_eq!(records.len(), 1);
    }
}
