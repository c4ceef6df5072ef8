//! Tables of records, as databases and screening tools export them: Scopus CSV, IEEE Xplore,
//! SpringerLink, Embase, ASReview and Rayyan tables, separated by commas, semicolons or tabs.
//! Columns are known by the names those exports give them (`Title`, `Document Title`,
//! `Item Title`; `Source title`, `Publication Title`; `DOI`, `Item DOI`…), whatever their
//! case; ASReview's `label_included` column gives screening labels.

use std::path::Path;

use litrev_model::{Author, Biblio, Decision, Work, WorkIds, WorkKind};

use super::{LabelledWork, Reading, add_ids, first_year, terms};
use crate::error::Issue;

/// The names each field's column goes by, the preferred first.
const TITLE: &[&str] = &[
    "title",
    "document title",
    "item title",
    "article title",
    "primary_title",
];
const ABSTRACT: &[&str] = &["abstract", "abstract_note", "abstract note"];
const DOI: &[&str] = &["doi", "item doi"];
const AUTHORS: &[&str] = &[
    "author full names",
    "authors",
    "author names",
    "author",
    "first_authors",
];
const YEAR: &[&str] = &["year", "publication year", "publication_year", "py"];
const VENUE: &[&str] = &[
    "source title",
    "publication title",
    "journal",
    "secondary_title",
    "source",
];
const VOLUME: &[&str] = &["volume", "journal volume"];
const ISSUE: &[&str] = &["issue", "journal issue", "number"];
const FIRST_PAGE: &[&str] = &["page start", "start page", "start_page"];
const LAST_PAGE: &[&str] = &["page end", "end page", "end_page"];
const KEYWORDS: &[&str] = &[
    "author keywords",
    "keywords",
    "index keywords",
    "mesh_terms",
];
// `pubmedID` is the column of ASReview's and SYNERGY's datasets (the Cohen 2006 sets).
const PMID: &[&str] = &["pubmed id", "pmid", "pubmedid", "pubmed_id"];
const URL: &[&str] = &["url"];
const PUBLISHER: &[&str] = &["publisher"];
const LANGUAGE: &[&str] = &["language of original document", "language"];
const CITED_BY: &[&str] = &["cited by", "article citation count"];
const KIND: &[&str] = &["document type", "content type", "type_of_reference"];
const LABEL: &[&str] = &["label_included", "included"];

/// The separator of a table whose first line is `header`: the one of comma, semicolon and
/// tab that splits it into the most columns.
fn separator(header: &str) -> u8 {
    [b',', b';', b'\t']
        .into_iter()
        .max_by_key(|separator| header.bytes().filter(|b| b == separator).count())
        .unwrap_or(b',')
}

/// A column name as compared: lower case, a byte-order mark and quotes trimmed.
fn normal(name: &str) -> String {
    name.trim_start_matches('\u{feff}')
        .trim()
        .trim_matches('"')
        .trim()
        .to_lowercase()
}

/// Whether a text's first line is a table header with a title column: the test
/// [`super::LibraryFormat::detect`] makes.
pub(super) fn has_title_column(first_line: &str) -> bool {
    let separator = char::from(separator(first_line));
    let columns: Vec<String> = first_line.split(separator).map(normal).collect();
    columns.len() >= 2
        && columns
            .iter()
            .any(|column| TITLE.contains(&column.as_str()))
}

/// Reads every row of a table. Rows with neither a title nor an id are skipped and reported
/// at their line; a row the CSV reader cannot read ends the reading there, reported.
pub fn read_table(text: &str, source: &Path) -> (Vec<LabelledWork>, Vec<Issue>) {
    let text = text.trim_start_matches('\u{feff}');
    let header = text.lines().next().unwrap_or("");
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(separator(header))
        .flexible(true)
        .from_reader(text.as_bytes());
    let columns: Vec<String> = match reader.headers() {
        Ok(headers) => headers.iter().map(normal).collect(),
        Err(error) => {
            let mut reading = Reading::new(source);
            reading.report(1, format!("no table header: {error}"));
            return reading.done();
        }
    };
    let column = |names: &[&str]| {
        names
            .iter()
            .find_map(|name| columns.iter().position(|column| column == name))
    };
    let at = Columns {
        title: column(TITLE),
        abstract_text: column(ABSTRACT),
        doi: column(DOI),
        authors: column(AUTHORS),
        year: column(YEAR),
        venue: column(VENUE),
        volume: column(VOLUME),
        issue: column(ISSUE),
        first_page: column(FIRST_PAGE),
        last_page: column(LAST_PAGE),
        keywords: column(KEYWORDS),
        pmid: column(PMID),
        url: column(URL),
        publisher: column(PUBLISHER),
        language: column(LANGUAGE),
        cited_by: column(CITED_BY),
        kind: column(KIND),
        label: column(LABEL),
    };
    let mut reading = Reading::new(source);
    for row in reader.records() {
        let row = match row {
            Ok(row) => row,
            Err(error) => {
                let line = error
                    .position()
                    .map_or(1, |position| position.line() as usize);
                reading.report(
                    line,
                    format!("the table cannot be read past this row ({error}): the rows before it are kept"),
                );
                break;
            }
        };
        let line = row
            .position()
            .map_or(1, |position| position.line() as usize);
        reading.push(record(&row, &at), line);
    }
    reading.done()
}

/// Where each field is in a table's rows.
struct Columns {
    title: Option<usize>,
    abstract_text: Option<usize>,
    doi: Option<usize>,
    authors: Option<usize>,
    year: Option<usize>,
    venue: Option<usize>,
    volume: Option<usize>,
    issue: Option<usize>,
    first_page: Option<usize>,
    last_page: Option<usize>,
    keywords: Option<usize>,
    pmid: Option<usize>,
    url: Option<usize>,
    publisher: Option<usize>,
    language: Option<usize>,
    cited_by: Option<usize>,
    kind: Option<usize>,
    label: Option<usize>,
}

fn record(row: &csv::StringRecord, at: &Columns) -> Option<LabelledWork> {
    let cell = |column: Option<usize>| {
        let text = row
            .get(column?)?
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        (!text.is_empty()).then_some(text)
    };
    let mut ids = WorkIds::default();
    let pmid = cell(at.pmid).map(|pmid| format!("pmid:{pmid}"));
    let values: Vec<String> = [cell(at.doi), pmid, cell(at.url)]
        .into_iter()
        .flatten()
        .collect();
    add_ids(&mut ids, values.iter().map(String::as_str));
    let title = cell(at.title);
    if title.is_none() && ids.primary().is_none() {
        return None;
    }
    let authors = cell(at.authors)
        .map(|names| {
            author_names(&names)
                .into_iter()
                .map(Author::named)
                .collect()
        })
        .unwrap_or_default();
    let keywords = cell(at.keywords)
        .map(|list| terms(&list, &[';']))
        .unwrap_or_default();
    let label = cell(at.label).and_then(|label| match label.as_str() {
        "1" => Some(Decision::Include),
        "0" => Some(Decision::Exclude),
        _ => None,
    });
    let work = Work {
        ids,
        title,
        authors,
        year: cell(at.year).as_deref().and_then(first_year),
        venue: cell(at.venue),
        publisher: cell(at.publisher),
        kind: kind_of(cell(at.kind).as_deref().unwrap_or("")),
        biblio: Biblio {
            volume: cell(at.volume),
            issue: cell(at.issue),
            first_page: cell(at.first_page),
            last_page: cell(at.last_page),
        },
        abstract_text: cell(at.abstract_text),
        language: cell(at.language)
            .and_then(|language| litrev_model::language_code(&language).map(str::to_owned)),
        cited_by_count: cell(at.cited_by).and_then(|count| count.parse().ok()),
        keywords,
        ..Work::default()
    };
    Some(LabelledWork { work, label })
}

/// The names of a table's authors cell. Scopus (since 2019), Embase and IEEE put `;` between
/// names; older Scopus exports put `, ` between `Family I.` names (`Yagai T., Kimura Y.`);
/// SpringerLink runs `Given Family` names together (`Vivek K. PallipuramMohammad Bhuiyan`).
/// Any other list with commas (`Family, Given` pairs) cannot be split safely and stays one
/// name per `;`.
fn author_names(names: &str) -> Vec<String> {
    if names.contains(';') {
        return terms(names, &[';']);
    }
    if names.contains(',') {
        let parts = terms(names, &[',']);
        // The last word of each is initials: capitals, stops and hyphens, ending in a stop.
        let initialled = |part: &String| {
            part.rsplit_once(' ').is_some_and(|(_, initials)| {
                initials.ends_with('.')
                    && initials.starts_with(char::is_uppercase)
                    && initials
                        .chars()
                        .all(|c| c.is_uppercase() || matches!(c, '.' | '-'))
            })
        };
        return if parts.len() > 1 && parts.iter().all(initialled) {
            parts
        } else {
            vec![names.to_owned()]
        };
    }
    run_together_names(names)
}

/// Names run together without a separator, split where a small letter meets a capital that
/// opens a name of several words (`…PallipuramMohammad Bhuiyan…`); `McDonald` and `DeWitt`
/// stay whole, since what follows their capital is no name of its own.
fn run_together_names(names: &str) -> Vec<String> {
    let chars: Vec<(usize, char)> = names.char_indices().collect();
    let joins: Vec<usize> = chars
        .windows(2)
        .filter(|pair| pair[0].1.is_lowercase() && pair[1].1.is_uppercase())
        .map(|pair| pair[1].0)
        .collect();
    let mut pieces = Vec::new();
    let mut start = 0;
    for (index, &join) in joins.iter().enumerate() {
        let next = joins.get(index + 1).copied().unwrap_or(names.len());
        let opens_a_name = names[join..next].trim().contains(' ');
        let closes_a_name = names[start..join].trim().contains(' ');
        if opens_a_name && closes_a_name {
            pieces.push(names[start..join].trim().to_owned());
            start = join;
        }
    }
    pieces.push(names[start..].trim().to_owned());
    pieces.retain(|piece| !piece.is_empty());
    pieces
}

/// The kind a table's document type names (Scopus `Article`, `Conference Paper`, `Book
/// Chapter`; SpringerLink `Chapter`; RIS types in ASReview's tables).
fn kind_of(kind: &str) -> WorkKind {
    match kind.to_ascii_lowercase().as_str() {
        "article" | "article in press" | "jour" => WorkKind::Article,
        "review" => WorkKind::Review,
        "conference paper" | "conference review" | "conf" => WorkKind::ProceedingsArticle,
        "book chapter" | "chapter" | "chap" => WorkKind::BookChapter,
        "book" => WorkKind::Book,
        "editorial" | "letter" | "note" | "erratum" => WorkKind::Editorial,
        "data paper" => WorkKind::Dataset,
        _ => WorkKind::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authors_are_split_as_each_export_lists_them() {
        let cases: &[(&str, &[&str])] = &[
            ("Wang W.T.; Pu M.H.", &["Wang W.T.", "Pu M.H."]),
            // Scopus before 2019 (metaknowledge's scopus_testing.csv).
            (
                "Yagai T., Kimura Y., Higgins J.P.T., Enriquez-Sarano M.",
                &[
                    "Yagai T.",
                    "Kimura Y.",
                    "Higgins J.P.T.",
                    "Enriquez-Sarano M.",
                ],
            ),
            ("De Koning J.", &["De Koning J."]),
            ("Smith, John", &["Smith, John"]),
            (
                "Scandinavian Simvastatin Survival Study Group",
                &["Scandinavian Simvastatin Survival Study Group"],
            ),
            // SpringerLink (litstudy's springer.csv).
            (
                "Vivek K. PallipuramMohammad BhuiyanMelissa C. Smith",
                &[
                    "Vivek K. Pallipuram",
                    "Mohammad Bhuiyan",
                    "Melissa C. Smith",
                ],
            ),
            (
                "V. A. BakhtinV. A. KryukovB. N. ChetverushkinE. V. Shil’nikov",
                &[
                    "V. A. Bakhtin",
                    "V. A. Kryukov",
                    "B. N. Chetverushkin",
                    "E. V. Shil’nikov",
                ],
            ),
            ("John McDonaldAna DeWitt", &["John McDonald", "Ana DeWitt"]),
            ("Ana DeWitt", &["Ana DeWitt"]),
        ];
        for (names, expected) in cases {
            assert_eq!(author_names(names), *expected, "{names}");
        }
    }

    #[test]
    fn reads_columns_by_their_names_and_separators() {
        let scopus = "\u{feff}Authors,Title,Year,Source title,Volume,Page start,Page end,Cited by,DOI,Abstract,Author Keywords,Document Type\n\
                      \"Phillips J.C., Braun R.\",\"Scalable molecular dynamics with NAMD\",2005,\"Journal of Computational Chemistry\",\"26\",\"1781\",\"1802\",13169,\"10.1002/jcc.20289\",\"An abstract.\",\"NAMD; molecular dynamics\",Article\n";
        assert!(has_title_column(scopus.lines().next().unwrap_or("")));
        let (records, issues) = read_table(scopus, Path::new("scopus.csv"));
        assert!(issues.is_empty(), "{issues:?}");
        let work = &records[0].work;
        assert_eq!(
            work.title.as_deref(),
            Some("Scalable molecular dynamics with NAMD")
        );
        assert_eq!(
            work.venue.as_deref(),
            Some("Journal of Computational Chemistry")
        );
        assert_eq!(work.cited_by_count, Some(13169));
        assert_eq!(work.keywords, ["NAMD", "molecular dynamics"]);
        assert_eq!(work.biblio.last_page.as_deref(), Some("1802"));
        assert!(work.ids.doi.is_some());

        let tabbed = "title\tabstract\tlabel_included\nA trial\tText\t1\nAnother\t\t0\n\t\t1\n";
        let (records, issues) = read_table(tabbed, Path::new("asreview.tsv"));
        let labels: Vec<Option<Decision>> = records.iter().map(|record| record.label).collect();
        assert_eq!(labels, [Some(Decision::Include), Some(Decision::Exclude)]);
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].line, 4);
        // The header of the ASReview datasets (Cohen 2006), whose records are known by PMID.
        let asreview = "record_id,pubmedID,title,keywords,authors,abstract,label_abstract_screening,label_included\n\
                        4,10369404,\"Comparative efficacy and safety of nimesulide and diclofenac\",\"Acute Disease; Adult\",\"Wober, W\",\"Adverse events.\",1,0\n";
        let (records, issues) = read_table(asreview, Path::new("NSAIDS.csv"));
        assert!(issues.is_empty(), "{issues:?}");
        assert_eq!(
            records[0].work.ids.pmid.as_ref().map(ToString::to_string),
            Some("pmid:10369404".to_owned())
        );
        assert_eq!(records[0].label, Some(Decision::Exclude));
        assert!(!has_title_column("abstract,doi"));
        assert!(!has_title_column("title"));
    }
}
