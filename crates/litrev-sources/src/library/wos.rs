//! Web of Science's plain-text export (`FN Clarivate Analytics Web of Science`, `VR 1.0`, then
//! records from `PT` to `ER`): two-letter tags, values continued on lines that open with three
//! spaces (one author, one keyword list, one cited reference per line). The cited references
//! that carry a DOI (`…, V28, P1, DOI 10.1119/1.1972585`) become the work's references, so an
//! imported library brings its citation edges.

use std::path::Path;

use litrev_model::{Author, Biblio, Doi, Work, WorkId, WorkIds, WorkKind};

use super::{LabelledWork, Reading, add_ids, first_year, terms};
use crate::error::Issue;

/// A line opening a field: two capitals or digits, then a space or the line's end.
fn tagged(line: &str) -> Option<(&str, &str)> {
    let tag = line.get(..2)?;
    let valid = tag.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
        && tag
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
    let rest = line.get(2..)?;
    (valid && (rest.is_empty() || rest.starts_with(' '))).then(|| (tag, rest.trim()))
}

/// Whether a text opens as a Web of Science plain-text export: its `FN` header, or a record's
/// `PT` tag on its first line.
pub(super) fn opens_export(line: &str) -> bool {
    let line = line.trim_start_matches('\u{feff}');
    line.starts_with("FN ") && line.contains("Web of Science")
        || tagged(line).is_some_and(|(tag, value)| tag == "PT" && value.len() == 1)
}

/// Reads every record of a Web of Science plain-text export. Records with neither a title
/// nor an id are skipped and reported at their first line.
pub fn read_wos(text: &str, source: &Path) -> (Vec<LabelledWork>, Vec<Issue>) {
    let mut reading = Reading::new(source);
    // Each field with its values, one per line of the field.
    let mut fields: Vec<(String, Vec<String>)> = Vec::new();
    let mut start_line = 1;
    let mut finish = |fields: &mut Vec<(String, Vec<String>)>, start_line: usize| {
        if !fields.is_empty() {
            reading.push(record(&std::mem::take(fields)), start_line);
        }
    };
    for (index, raw_line) in text.lines().enumerate() {
        let line = raw_line.trim_start_matches('\u{feff}').trim_end();
        if let Some(continued) = line.strip_prefix("   ") {
            if let Some((_, values)) = fields.last_mut() {
                values.push(continued.trim().to_owned());
            }
            continue;
        }
        match tagged(line) {
            Some(("FN" | "VR" | "EF", _)) | None => {}
            Some(("ER", _)) => finish(&mut fields, start_line),
            Some((tag, value)) => {
                if tag == "PT" {
                    finish(&mut fields, start_line);
                }
                if fields.is_empty() {
                    start_line = index + 1;
                }
                fields.push((tag.to_owned(), vec![value.to_owned()]));
            }
        }
    }
    finish(&mut fields, start_line);
    reading.done()
}

fn record(fields: &[(String, Vec<String>)]) -> Option<LabelledWork> {
    let lines = |tag: &str| -> Vec<&str> {
        fields
            .iter()
            .filter(|(field, _)| field == tag)
            .flat_map(|(_, values)| values.iter().map(String::as_str))
            .filter(|value| !value.is_empty())
            .collect()
    };
    let joined = |tag: &str| {
        let text = lines(tag).join(" ");
        (!text.is_empty()).then_some(text)
    };
    let mut ids = WorkIds::default();
    let pmid = joined("PM").map(|pmid| format!("pmid:{pmid}"));
    let values: Vec<String> = joined("DI").into_iter().chain(pmid).collect();
    add_ids(&mut ids, values.iter().map(String::as_str));
    let title = joined("TI");
    if title.is_none() && ids.primary().is_none() {
        return None;
    }
    let names = if lines("AF").is_empty() {
        lines("AU")
    } else {
        lines("AF")
    };
    let split_terms = |tag: &str| -> Vec<String> {
        joined(tag)
            .map(|list| terms(&list, &[';']))
            .unwrap_or_default()
    };
    let mut keywords = split_terms("DE");
    keywords.extend(split_terms("ID"));
    let references = lines("CR").into_iter().flat_map(cited_dois).collect();
    let work = Work {
        ids,
        title,
        authors: names.into_iter().map(Author::named).collect(),
        year: joined("PY").as_deref().and_then(first_year),
        venue: joined("SO"),
        publisher: joined("PU"),
        kind: kind_of(joined("PT").as_deref(), joined("DT").as_deref()),
        biblio: Biblio {
            volume: joined("VL"),
            issue: joined("IS"),
            first_page: joined("BP").or_else(|| joined("AR")),
            last_page: joined("EP"),
        },
        abstract_text: joined("AB"),
        language: joined("LA")
            .and_then(|language| litrev_model::language_code(&language).map(str::to_owned)),
        cited_by_count: joined("TC").and_then(|count| count.parse().ok()),
        keywords,
        references,
        ..Work::default()
    };
    Some(LabelledWork { work, label: None })
}

/// The DOIs a cited reference names: `DOI 10.1/x`, or `DOI [10.1/x, 10.2/y]` for a work
/// Web of Science knows under two.
fn cited_dois(reference: &str) -> Vec<WorkId> {
    let Some((_, after)) = reference.split_once("DOI ") else {
        return Vec::new();
    };
    after
        .trim_start_matches('[')
        .split([',', ']'])
        .map(str::trim)
        .filter_map(|doi| doi.parse::<Doi>().ok())
        .map(WorkId::Doi)
        .collect()
}

/// The kind of a record's publication type (`PT`: J journal, B book, S series, P patent) and
/// document type (`DT`: Article, Review, Proceedings Paper, Book Chapter…).
fn kind_of(publication_type: Option<&str>, document_type: Option<&str>) -> WorkKind {
    let document = document_type.unwrap_or("").to_ascii_lowercase();
    if document.contains("review") {
        WorkKind::Review
    } else if document.contains("proceedings paper") || document.contains("meeting") {
        WorkKind::ProceedingsArticle
    } else if document.contains("book chapter") {
        WorkKind::BookChapter
    } else if document.starts_with("book") {
        WorkKind::Book
    } else if document.contains("editorial") || document.contains("letter") {
        WorkKind::Editorial
    } else if document.contains("data") {
        WorkKind::Dataset
    } else {
        match publication_type {
            Some("J") => WorkKind::Article,
            Some("B") => WorkKind::Book,
            Some("S") if !document.is_empty() => WorkKind::ProceedingsArticle,
            _ => WorkKind::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fields_continuations_and_cited_dois() {
        let text = "\u{feff}FN Clarivate Analytics Web of Science\nVR 1.0\nPT J\nAU Roach, M\n   Hanks, G\n\
                    AF Roach, Mary\n   Hanks, Geoffrey\nTI A long title\n   over two lines\nSO PHYSICS REPORTS\n\
                    LA English\nDT Review\nDE cats; dogs\nID PETS\nAB An abstract.\nCR ALLEN PJ, 1966, AM J PHYS, V34, P1185, DOI 10.1119/1.1972585\n\
                    \u{20}  Debye P, 1909, ANN PHYS-BERLIN, V30, P57\n   X, 2001, J, DOI [10.1/a, 10.1/b]\n\
                    TC 12\nPY 1979\nVL 52\nIS 3\nBP 133\nEP 201\nDI 10.1016/0370-1573(79)90074-7\nUT WOS:A1979HG74900001\nER\n\nEF\n";
        assert!(opens_export(text.lines().next().unwrap_or("")));
        let (records, issues) = read_wos(text, Path::new("savedrecs.txt"));
        assert!(issues.is_empty(), "{issues:?}");
        let work = &records[0].work;
        assert_eq!(work.title.as_deref(), Some("A long title over two lines"));
        let names: Vec<&str> = work
            .authors
            .iter()
            .map(|author| author.name.as_str())
            .collect();
        assert_eq!(names, ["Roach, Mary", "Hanks, Geoffrey"]);
        assert_eq!(work.keywords, ["cats", "dogs", "PETS"]);
        assert_eq!(work.references.len(), 3);
        assert_eq!(work.kind, WorkKind::Review);
        assert_eq!(work.cited_by_count, Some(12));
        assert_eq!(work.year, Some(1979));
        assert_eq!(work.biblio.last_page.as_deref(), Some("201"));
        assert!(work.ids.doi.is_some());
        assert_eq!(work.language.as_deref(), Some("en"));
    }
}
