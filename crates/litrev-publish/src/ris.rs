//! RIS: the cited references for reference managers, and the screened works with their labels
//! in ASReview's form (`N1  - ASReview_relevant`), which ASReview, Rayyan, Zotero and litrev's
//! own importer read back.

use std::collections::BTreeMap;

use litrev_model::{Decision, ScreeningDecision, Work, WorkId, WorkKind};

/// The cited works as RIS, each with its citation key in `ID`.
pub fn references_ris(works: &[&Work], keys: &BTreeMap<WorkId, String>) -> String {
    let mut out = String::new();
    for work in works {
        let Some(key) = work.ids.primary().and_then(|id| keys.get(&id)) else {
            continue;
        };
        write_record(&mut out, work, &[("ID", key.clone())]);
    }
    out
}

/// The screened works as RIS, in ranking order, with their labels and litrev's reasons.
pub fn screening_ris(decisions: &[ScreeningDecision], works: &BTreeMap<WorkId, Work>) -> String {
    let mut out = String::new();
    for decision in decisions {
        let Some(work) = works.get(&decision.work) else {
            continue;
        };
        let label = match decision.decision {
            Decision::Include => "ASReview_relevant",
            Decision::Exclude => "ASReview_irrelevant",
        };
        let reason = format!(
            "litrev: {} ({}), score {:.4}: {}",
            decision.decision.name(),
            decision.reason.code(),
            decision.score,
            decision.rationale
        );
        write_record(&mut out, work, &[("N1", label.to_owned()), ("N1", reason)]);
    }
    out
}

/// One record: the work's fields, then `extra` tags, then `ER`.
fn write_record(out: &mut String, work: &Work, extra: &[(&str, String)]) {
    let mut field = |tag: &str, value: &str| {
        // RIS values are single lines.
        let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
        if !value.is_empty() {
            out.push_str(&format!("{tag}  - {value}\n"));
        }
    };
    field("TY", ris_type(work.kind));
    field("TI", work.title_or_empty());
    for author in &work.authors {
        field("AU", &author.name);
    }
    if let Some(year) = work.year {
        field("PY", &year.to_string());
    }
    field("DA", work.date.as_deref().unwrap_or(""));
    field("T2", work.venue.as_deref().unwrap_or(""));
    field("PB", work.publisher.as_deref().unwrap_or(""));
    field("VL", work.biblio.volume.as_deref().unwrap_or(""));
    field("IS", work.biblio.issue.as_deref().unwrap_or(""));
    field("SP", work.biblio.first_page.as_deref().unwrap_or(""));
    field("EP", work.biblio.last_page.as_deref().unwrap_or(""));
    if let Some(doi) = &work.ids.doi {
        field("DO", doi.as_str());
    }
    if let Some(isbn) = &work.ids.isbn {
        field("SN", isbn.as_str());
    }
    if let Some(openalex) = &work.ids.openalex {
        field("UR", &openalex.url());
    }
    for keyword in &work.keywords {
        field("KW", keyword);
    }
    field("AB", work.abstract_text.as_deref().unwrap_or(""));
    for (tag, value) in extra {
        field(tag, value);
    }
    out.push_str("ER  - \n\n");
}

fn ris_type(kind: WorkKind) -> &'static str {
    match kind {
        WorkKind::Article | WorkKind::Review | WorkKind::Editorial => "JOUR",
        WorkKind::ProceedingsArticle => "CPAPER",
        WorkKind::BookChapter => "CHAP",
        WorkKind::Book => "BOOK",
        WorkKind::Thesis => "THES",
        WorkKind::Report => "RPRT",
        WorkKind::Dataset => "DATA",
        WorkKind::Preprint => "UNPB",
        WorkKind::Webpage => "ELEC",
        WorkKind::EncyclopediaEntry => "ENCYC",
        _ => "GEN",
    }
}

#[cfg(test)]
mod tests {
    use litrev_model::{Author, ReasonCode, Reviewer};

    use super::*;

    fn work() -> Work {
        let mut work = Work::stub("W1".parse().expect("id"));
        work.ids.add("10.1/abc".parse().expect("doi"));
        work.title = Some("A\ntrial".into());
        work.authors = vec![Author::named("Jane Smith")];
        work.year = Some(2011);
        work.kind = WorkKind::ProceedingsArticle;
        work
    }

    #[test]
    fn writes_references_with_keys() {
        let work = work();
        let keys = BTreeMap::from([(work.id(), "smith2011trial".to_owned())]);
        assert_eq!(
            references_ris(&[&work], &keys),
            "TY  - CPAPER\nTI  - A trial\nAU  - Jane Smith\nPY  - 2011\nDO  - 10.1/abc\n\
             UR  - https://openalex.org/W1\nID  - smith2011trial\nER  - \n\n"
        );
    }

    #[test]
    fn a_book_is_written_with_its_isbn_and_publisher() {
        let mut book = Work::stub("isbn:0140328726".parse().expect("an ISBN"));
        book.title = Some("Fantastic Mr. Fox".into());
        book.kind = WorkKind::Book;
        book.publisher = Some("Puffin".into());
        let keys = BTreeMap::from([(book.id(), "dahl1988".to_owned())]);
        let ris = references_ris(&[&book], &keys);
        assert!(ris.starts_with("TY  - BOOK\n"), "{ris}");
        assert!(
            ris.contains("PB  - Puffin\n") && ris.contains("SN  - 9780140328721\n"),
            "{ris}"
        );
    }

    #[test]
    fn writes_labels_in_asreview_form() {
        let work = work();
        let works = BTreeMap::from([(work.id(), work.clone())]);
        let decision = ScreeningDecision {
            work: work.id(),
            decision: Decision::Exclude,
            reason: ReasonCode::OutOfScope,
            rationale: "far".into(),
            score: 0.1,
            reviewer: Reviewer::Model,
            domain: None,
        };
        let ris = screening_ris(&[decision], &works);
        assert!(ris.contains(
            "N1  - ASReview_irrelevant\nN1  - litrev: exclude (out_of_scope), score 0.1000: far\n"
        ));
    }
}
