//! RIS, tolerant of the dialects real exports use: a byte-order mark, Ovid's numbered records
//! (`1. TY  - JOUR`), `TAG - value` with one space, empty tags, and values continued on the
//! following untagged lines (Rayyan's keywords). Screening labels are read from `N1` notes in
//! ASReview's form (`ASReview_relevant`, `ASReview_irrelevant`) and Rayyan's
//! (`RAYYAN-INCLUSION: {"Ann"=>"Included"}`).

use litrev_model::{Author, Biblio, Decision, Work, WorkIds, WorkKind};

use crate::error::Issue;

/// A work read from a library file, with the screening label the file gave it, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelledWork {
    /// The work.
    pub work: Work,
    /// Include or exclude, when the file records a decision.
    pub label: Option<Decision>,
}

/// The issue a record with neither a title nor an id gives: it is skipped.
pub const UNNAMED_RECORD: &str = "a record with neither a title nor an identifier was skipped";

/// Reads every record of a RIS text. Records with neither a title nor an id are skipped and
/// reported; works without any id get none (`ids` empty), so callers match them by title.
pub fn read_ris(text: &str, source: &std::path::Path) -> (Vec<LabelledWork>, Vec<Issue>) {
    let mut records = Vec::new();
    let mut issues = Vec::new();
    let mut fields: Vec<(String, String)> = Vec::new();
    let mut start_line = 1;
    for (index, raw_line) in text.lines().enumerate() {
        let line = raw_line.trim_start_matches('\u{feff}').trim_end();
        match tagged(line) {
            Some(("ER", _)) => {
                let finished = std::mem::take(&mut fields);
                match record(&finished) {
                    Some(record) => records.push(record),
                    None => issues.push(Issue {
                        path: source.to_owned(),
                        line: start_line,
                        message: UNNAMED_RECORD.to_owned(),
                    }),
                }
                start_line = index + 2;
            }
            Some((tag, value)) => {
                if fields.is_empty() {
                    start_line = index + 1;
                }
                fields.push((tag.to_owned(), value.to_owned()));
            }
            None if line.trim().is_empty() => {}
            None => {
                // An untagged line continues the previous value (multi-line keywords, abstracts).
                if let Some((tag, value)) = fields.last_mut() {
                    let separator = if tag == "KW" { "\n" } else { " " };
                    value.push_str(separator);
                    value.push_str(line.trim());
                }
            }
        }
    }
    if !fields.is_empty() {
        issues.push(Issue {
            path: source.to_owned(),
            line: start_line,
            message: "the last record has no `ER  -` line; it was read anyway".to_owned(),
        });
        if let Some(record) = record(&fields) {
            records.push(record);
        }
    }
    (records, issues)
}

/// Whether a line opens a RIS record (`TY  - JOUR`, Ovid's `1. TY  - JOUR`).
pub(super) fn opens_record(line: &str) -> bool {
    tagged(line).is_some_and(|(tag, _)| tag == "TY")
}

/// `TAG  - value` → (`TAG`, `value`); tags are two characters, upper-case letters or digits.
fn tagged(line: &str) -> Option<(&str, &str)> {
    // Ovid numbers its records: "1. TY  - JOUR".
    let line = match line.split_once(". ") {
        Some((number, rest))
            if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) =>
        {
            rest
        }
        _ => line,
    };
    let tag = line.get(..2)?;
    if !tag
        .bytes()
        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        || !tag.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
    {
        return None;
    }
    let rest = line[2..].trim_start_matches(' ');
    let value = rest.strip_prefix('-')?;
    Some((tag, value.trim()))
}

fn record(fields: &[(String, String)]) -> Option<LabelledWork> {
    let first = |tags: &[&str]| {
        tags.iter().find_map(|tag| {
            fields
                .iter()
                .find(|(field, value)| field == tag && !value.is_empty())
                .map(|(_, value)| value.clone())
        })
    };
    let all = |tag: &str| super::tag_values(fields, tag);
    let mut ids = WorkIds::default();
    super::add_ids(
        &mut ids,
        all("DO")
            .into_iter()
            .chain(all("UR"))
            .chain(all("L2"))
            .chain(all("ID"))
            .chain(all("AN")),
    );
    let title = first(&["TI", "T1", "CT", "BT"]);
    if title.is_none() && ids.primary().is_none() {
        return None;
    }
    let year = first(&["PY", "Y1", "DA"])
        .as_deref()
        .and_then(super::first_year);
    let authors = ["AU", "A1"]
        .iter()
        .flat_map(|tag| all(tag))
        .map(Author::named)
        .collect();
    let keywords = all("KW")
        .into_iter()
        .flat_map(|value| value.lines())
        .map(str::trim)
        .filter(|keyword| !keyword.is_empty())
        .map(str::to_owned)
        .collect();
    let notes = all("N1");
    let work = Work {
        ids,
        title,
        authors,
        year,
        date: first(&["DA"]),
        venue: first(&["T2", "JO", "JF", "J2", "JA"]),
        publisher: first(&["PB"]),
        kind: kind_of(first(&["TY"]).as_deref().unwrap_or("")),
        biblio: Biblio {
            volume: first(&["VL"]),
            issue: first(&["IS"]),
            first_page: first(&["SP"]),
            last_page: first(&["EP"]),
        },
        abstract_text: first(&["AB", "N2"]),
        keywords,
        ..Work::default()
    };
    Some(LabelledWork {
        work,
        label: label_of(&notes),
    })
}

fn kind_of(ris_type: &str) -> WorkKind {
    match ris_type {
        "JOUR" | "JFULL" | "EJOUR" | "MGZN" | "NEWS" => WorkKind::Article,
        "CONF" | "CPAPER" => WorkKind::ProceedingsArticle,
        "CHAP" | "ECHAP" => WorkKind::BookChapter,
        "BOOK" | "EBOOK" | "EDBOOK" => WorkKind::Book,
        "THES" => WorkKind::Thesis,
        "RPRT" => WorkKind::Report,
        "DATA" => WorkKind::Dataset,
        "UNPB" | "PREPRINT" => WorkKind::Preprint,
        "ELEC" | "BLOG" | "WEB" => WorkKind::Webpage,
        "ENCYC" | "DICT" => WorkKind::EncyclopediaEntry,
        _ => WorkKind::Other,
    }
}

/// The screening label in a record's notes, in ASReview's or Rayyan's form.
fn label_of(notes: &[&str]) -> Option<Decision> {
    for note in notes {
        if note.contains("ASReview_relevant") {
            return Some(Decision::Include);
        }
        if note.contains("ASReview_irrelevant") {
            return Some(Decision::Exclude);
        }
        if let Some(rest) = note.split("RAYYAN-INCLUSION:").nth(1) {
            let decisions = rest.split('|').next().unwrap_or("");
            let included = decisions.contains("\"Included\"");
            let excluded = decisions.contains("\"Excluded\"");
            let undecided = decisions.contains("\"Maybe\"");
            return match (included, excluded, undecided) {
                (true, false, false) => Some(Decision::Include),
                (false, true, false) => Some(Decision::Exclude),
                // Reviewers disagree or hesitate: no label.
                _ => None,
            };
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn read(text: &str) -> (Vec<LabelledWork>, Vec<Issue>) {
        read_ris(text, Path::new("test.ris"))
    }

    #[test]
    fn reads_fields_dialects_and_continuations() {
        let text = "\u{feff}TY  - JOUR\nTI  - A trial\nAU  - Smith, Jane\nAU  - Lee, Ann\nPY  - 2011///\n\
                    T2  - J Test\nVL  - 5\nSP  - 10\nEP  - 19\nDO  - 10.1000/ABC\nKW  - first\nsecond\n\
                    AB  - Short\nER  - \n\n1. TY  - CHAP\n1. TI  - Numbered\nER  -\nTY - BOOK\nTI - One space\nER -\n";
        let (records, issues) = read(text);
        assert!(issues.is_empty(), "{issues:?}");
        assert_eq!(records.len(), 3);
        let work = &records[0].work;
        assert_eq!(work.title.as_deref(), Some("A trial"));
        assert_eq!(work.authors.len(), 2);
        assert_eq!(work.year, Some(2011));
        assert_eq!(work.venue.as_deref(), Some("J Test"));
        assert_eq!(
            work.ids.doi.as_ref().map(|doi| doi.as_str()),
            Some("10.1000/abc")
        );
        assert_eq!(work.keywords, vec!["first".to_owned(), "second".to_owned()]);
        assert_eq!(work.biblio.last_page.as_deref(), Some("19"));
        assert_eq!(records[1].work.kind, WorkKind::BookChapter);
        assert_eq!(records[2].work.title.as_deref(), Some("One space"));
    }

    #[test]
    fn the_year_is_read_wherever_the_date_puts_it() {
        let (records, _) = read(
            "TY  - JOUR\nTI  - Dated in the American order\nDA  - 08/31/2017\nER  - \n\
             TY  - JOUR\nTI  - Dated by season\nPY  - Summer 2009\nER  - \n",
        );
        let years: Vec<Option<i32>> = records.iter().map(|record| record.work.year).collect();
        assert_eq!(years, [Some(2017), Some(2009)]);
    }

    #[test]
    fn reads_asreview_and_rayyan_labels() {
        let text = "TY  - GEN\nTI  - A\nN1  - ASReview_relevant\nN1  - ASReview_prior\nER  -\n\
                    TY  - GEN\nTI  - B\nN1  - ASReview_irrelevant. Additional notes.\nER  -\n\
                    TY  - GEN\nTI  - C\nN1  - ASReview_not_seen\nER  -\n\
                    TY  - JOUR\nTI  - D\nN1  - RAYYAN-INCLUSION: {\"Ann\"=>\"Included\", \"Bo\"=>\"Included\"} | RAYYAN-LABELS: x\nER  -\n\
                    TY  - JOUR\nTI  - E\nN1  - RAYYAN-INCLUSION: {\"Ann\"=>\"Included\", \"Bo\"=>\"Excluded\"}\nER  -\n";
        let (records, _) = read(text);
        let labels: Vec<Option<Decision>> = records.iter().map(|record| record.label).collect();
        assert_eq!(
            labels,
            vec![
                Some(Decision::Include),
                Some(Decision::Exclude),
                None,
                Some(Decision::Include),
                None
            ]
        );
    }

    #[test]
    fn records_without_title_or_id_are_reported() {
        let (records, issues) = read("TY  - JOUR\nPY  - 2001\nER  -\nTY  - JOUR\nTI  - Kept\n");
        assert_eq!(records.len(), 1);
        assert_eq!(issues.len(), 2, "{issues:?}");
    }

    #[test]
    fn reads_the_real_exports() {
        let Some(data) = litrev_testkit::testdata() else {
            return;
        };
        let folder = data.join("import-exports/asreview-demo-data");
        let expected = [
            ("scopus.ris", 6),
            ("_baseline.ris", 100),
            ("ovid_psycinfo.ris", 6),
            ("web_of_science.txt", 10),
            ("pubmed_endnote.txt", 6),
            ("proquest.ris", 6),
            ("embase.ris", 6),
            ("ris_issue_992.txt", 19),
            ("baseline_zotero.ris", 100),
        ];
        for (file, count) in expected {
            let text = std::fs::read_to_string(folder.join(file)).expect(file);
            assert_eq!(
                crate::library::LibraryFormat::detect(&text),
                Some(crate::library::LibraryFormat::Ris),
                "{file} is told as RIS (Ovid's numbered records too)"
            );
            let (records, _issues) = read_ris(&text, &folder.join(file));
            assert_eq!(records.len(), count, "{file}");
            let titled = records
                .iter()
                .filter(|record| record.work.title.is_some())
                .count();
            assert_eq!(titled, count, "{file}: every record has a title");
        }
        let text =
            std::fs::read_to_string(folder.join("baseline_tag-notes_labels.ris")).expect("labels");
        let (records, _) = read_ris(&text, &folder.join("baseline_tag-notes_labels.ris"));
        let included = records
            .iter()
            .filter(|record| record.label == Some(Decision::Include))
            .count();
        let excluded = records
            .iter()
            .filter(|record| record.label == Some(Decision::Exclude))
            .count();
        assert!(
            included > 0 && excluded > 0,
            "{included} included, {excluded} excluded"
        );
    }
}
