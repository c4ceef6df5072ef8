//! MEDLINE text, PubMed's own export (`Send to → Citation manager`, `.nbib`; also Ovid's and
//! EBSCO's MEDLINE format): records of `TAG - value` lines, tags of up to four letters padded
//! to four, values continued on lines that open with spaces, records apart by a blank line.

use std::path::Path;

use litrev_model::{Author, Biblio, Work, WorkIds};

use super::{LabelledWork, Reading, add_ids, first_year, tag_values};
use crate::error::Issue;

/// Whether a line opens a MEDLINE field: up to four capitals or digits, padded to four, `- `.
pub(super) fn tagged(line: &str) -> Option<(&str, &str)> {
    let tag = line.get(..4)?.trim_end();
    let rest = line.get(4..)?;
    let value = rest
        .strip_prefix("- ")
        .or_else(|| (rest == "-").then_some(""))?;
    let valid = !tag.is_empty()
        && tag
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        && tag.bytes().next().is_some_and(|b| b.is_ascii_uppercase());
    valid.then_some((tag, value.trim()))
}

/// Reads every record of a MEDLINE text. Records with neither a title nor an id are skipped
/// and reported at their first line.
pub fn read_medline(text: &str, source: &Path) -> (Vec<LabelledWork>, Vec<Issue>) {
    let mut reading = Reading::new(source);
    let mut fields: Vec<(String, String)> = Vec::new();
    let mut start_line = 1;
    let mut finish = |fields: &mut Vec<(String, String)>, start_line: usize| {
        if !fields.is_empty() {
            reading.push(record(&std::mem::take(fields)), start_line);
        }
    };
    for (index, raw_line) in text.lines().enumerate() {
        let line = raw_line.trim_start_matches('\u{feff}').trim_end();
        if line.is_empty() {
            finish(&mut fields, start_line);
            continue;
        }
        match tagged(line) {
            Some((tag, value)) => {
                // A new PMID opens a new record even without a blank line before it.
                if tag == "PMID" {
                    finish(&mut fields, start_line);
                }
                if fields.is_empty() {
                    start_line = index + 1;
                }
                fields.push((tag.to_owned(), value.to_owned()));
            }
            None => {
                if let Some((_, value)) = fields.last_mut() {
                    if !value.is_empty() {
                        value.push(' ');
                    }
                    value.push_str(line.trim());
                }
            }
        }
    }
    finish(&mut fields, start_line);
    reading.done()
}

fn record(fields: &[(String, String)]) -> Option<LabelledWork> {
    let all = |tag: &str| tag_values(fields, tag);
    let first = |tags: &[&str]| {
        tags.iter()
            .find_map(|tag| all(tag).first().map(|value| (*value).to_owned()))
    };
    let mut ids = WorkIds::default();
    let pmid = first(&["PMID"]).map(|pmid| format!("pmid:{pmid}"));
    // `LID` and `AID` hold `10.1056/NEJMoa1703068 [doi]` beside publisher ids (`[pii]`).
    let dois = all("LID")
        .into_iter()
        .chain(all("AID"))
        .filter_map(|value| value.strip_suffix("[doi]").map(str::trim));
    let values: Vec<String> = pmid
        .into_iter()
        .chain(dois.map(str::to_owned))
        .chain(first(&["PMC"]))
        .collect();
    add_ids(&mut ids, values.iter().map(String::as_str));
    let title = first(&["TI", "BTI"]);
    if title.is_none() && ids.primary().is_none() {
        return None;
    }
    // Full names (`Oldenburg, Johannes`) where the record has them, else the short ones.
    let names = if all("FAU").is_empty() {
        all("AU")
    } else {
        all("FAU")
    };
    let authors = names.into_iter().map(Author::named).collect();
    let publication_types: Vec<String> = all("PT").into_iter().map(str::to_owned).collect();
    let (first_page, last_page) = first(&["PG"])
        .map(|pages| Biblio::split_pages(&pages))
        .unwrap_or_default();
    let keywords = all("MH")
        .into_iter()
        .chain(all("OT"))
        .map(|heading| heading.replace('*', ""))
        .collect();
    let work = Work {
        ids,
        title,
        authors,
        year: first(&["DP", "DEP", "DA"]).as_deref().and_then(first_year),
        venue: first(&["JT", "TA"]),
        publisher: first(&["PB"]),
        kind: crate::pubmed::publication_kind(&publication_types),
        biblio: Biblio {
            volume: first(&["VI"]),
            issue: first(&["IP"]),
            first_page,
            last_page,
        },
        abstract_text: first(&["AB"]),
        language: first(&["LA"])
            .and_then(|code| litrev_model::language_code(&code).map(str::to_owned)),
        keywords,
        ..Work::default()
    };
    Some(LabelledWork { work, label: None })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_records_continuations_and_ids() {
        let text = "PMID- 28691557\nOWN - NLM\nTI  - Emicizumab Prophylaxis in Hemophilia A with\n      Inhibitors.\n\
                    PG  - 809-818\nLID - 10.1056/NEJMoa1703068 [doi]\nAB  - BACKGROUND: Emicizumab …\n\
                    FAU - Oldenburg, Johannes\nAU  - Oldenburg J\nFAU - Mahlangu, Johnny N\nLA  - eng\n\
                    PT  - Journal Article\nPT  - Randomized Controlled Trial\nDP  - 2017 Aug 31\n\
                    TA  - N Engl J Med\nJT  - The New England journal of medicine\nVI  - 377\nIP  - 9\n\
                    MH  - Hemophilia A/*drug therapy\n\nPMID- 1\nOWN - NLM\n";
        let (records, issues) = read_medline(text, Path::new("pubmed.nbib"));
        assert!(issues.is_empty(), "{issues:?}");
        assert_eq!(records.len(), 2);
        let work = &records[0].work;
        assert_eq!(
            work.title.as_deref(),
            Some("Emicizumab Prophylaxis in Hemophilia A with Inhibitors.")
        );
        assert_eq!(work.authors[1].name, "Mahlangu, Johnny N");
        assert_eq!(work.year, Some(2017));
        assert_eq!(
            work.venue.as_deref(),
            Some("The New England journal of medicine")
        );
        assert_eq!(work.biblio.last_page.as_deref(), Some("818"));
        assert!(work.ids.doi.is_some() && work.ids.pmid.is_some());
        assert_eq!(work.language.as_deref(), Some("en"));
        assert_eq!(work.keywords, ["Hemophilia A/drug therapy"]);
        assert_eq!(work.kind, litrev_model::WorkKind::Article);
        // A record with a PMID alone is kept: the id names it.
        assert!(records[1].work.title.is_none() && records[1].work.ids.pmid.is_some());
    }

    #[test]
    fn tags_are_four_wide() {
        assert_eq!(tagged("PMID- 1"), Some(("PMID", "1")));
        assert_eq!(tagged("TI  - A title"), Some(("TI", "A title")));
        assert_eq!(tagged("TY  - JOUR"), Some(("TY", "JOUR")));
        assert_eq!(tagged("      continued"), None);
        assert_eq!(tagged("ti  - lower"), None);
        assert_eq!(tagged("é"), None);
    }
}
