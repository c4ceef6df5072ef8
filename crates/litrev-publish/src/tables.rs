//! `corpus.csv` (every work considered) and `screening.csv` (ASReview-compatible labels).

use std::collections::BTreeMap;

use litrev_model::{CorpusEntry, Decision, Query, ScreeningDecision, Work, WorkId};

use crate::Error;

/// One row per corpus entry: ids, title, year, how it was found (origin, the searches that
/// returned it and the channels they stand for: keyword, book, expert), what was decided and,
/// for a question split into domains, the domain the work fits best.
///
/// # Errors
/// When the CSV writer fails (it writes to memory, so only on invalid data).
pub fn corpus_csv(
    entries: &[CorpusEntry],
    works: &BTreeMap<WorkId, Work>,
    decisions: &[ScreeningDecision],
    queries: &[Query],
) -> Result<String, Error> {
    // Which channel each search stands for, so each row says how the work was found.
    let channel_of: BTreeMap<&str, &'static str> = queries
        .iter()
        .map(|query| (query.label.as_str(), query.channel.name()))
        .collect();
    let decided: BTreeMap<&WorkId, &ScreeningDecision> = decisions
        .iter()
        .map(|decision| (&decision.work, decision))
        .collect();
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record([
        "openalex_id",
        "doi",
        "pmid",
        "title",
        "year",
        "first_author",
        "stage",
        "origin",
        "queries",
        "channels",
        "score",
        "decision",
        "reason",
        "domain",
        "url",
        "arxiv",
        "isbn",
    ])?;
    for entry in entries {
        let work = works.get(&entry.work);
        let ids = work.map(|work| work.ids.clone()).unwrap_or_else(|| {
            let mut ids = litrev_model::WorkIds::default();
            ids.add(entry.work.clone());
            ids
        });
        let decision = decided.get(&entry.work);
        let score = decision.map_or(entry.score, |decision| decision.score);
        writer.write_record([
            ids.openalex.map(|id| id.url()).unwrap_or_default(),
            ids.doi.map(|id| id.to_string()).unwrap_or_default(),
            ids.pmid
                .map(|id| id.as_str().to_owned())
                .unwrap_or_default(),
            work.and_then(|work| work.title.clone()).unwrap_or_default(),
            work.and_then(|work| work.year)
                .map(|year| year.to_string())
                .unwrap_or_default(),
            work.and_then(|work| work.authors.first())
                .map(|author| author.name.clone())
                .unwrap_or_default(),
            entry.stage.to_string(),
            entry.origin.name().to_owned(),
            entry.queries.join(" "),
            channels(entry, &channel_of),
            format!("{score:.4}"),
            decision
                .map(|decision| decision.decision.name())
                .unwrap_or("")
                .to_owned(),
            decision
                .map(|decision| decision.reason.code())
                .unwrap_or("")
                .to_owned(),
            decision
                .and_then(|decision| decision.domain.clone())
                .unwrap_or_default(),
            ids.url
                .map(|url| url.address().to_owned())
                .unwrap_or_default(),
            ids.arxiv
                .map(|id| id.as_str().to_owned())
                .unwrap_or_default(),
            ids.isbn
                .map(|id| id.as_str().to_owned())
                .unwrap_or_default(),
        ])?;
    }
    finish(writer)
}

/// The channels of the searches that found `entry`, each once, in the order of its searches.
fn channels(entry: &CorpusEntry, channel_of: &BTreeMap<&str, &'static str>) -> String {
    let mut channels: Vec<&str> = Vec::new();
    for channel in entry
        .queries
        .iter()
        .filter_map(|label| channel_of.get(label.as_str()))
    {
        if !channels.contains(channel) {
            channels.push(channel);
        }
    }
    channels.join(" ")
}

/// One row per screened work with a record, in ranking order, with ASReview's column names
/// (`title`, `abstract`, `doi`, `authors`, `year`, `label_included`) plus the reasons and
/// the domain.
///
/// # Errors
/// When the CSV writer fails.
pub fn screening_csv(
    decisions: &[ScreeningDecision],
    works: &BTreeMap<WorkId, Work>,
) -> Result<String, Error> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record([
        "record_id",
        "openalex_id",
        "doi",
        "title",
        "abstract",
        "authors",
        "year",
        "label_included",
        "decision",
        "reason",
        "rationale",
        "score",
        "reviewer",
        "domain",
    ])?;
    let mut record_id = 0usize;
    for decision in decisions {
        let Some(work) = works.get(&decision.work) else {
            continue;
        };
        let authors: Vec<&str> = work
            .authors
            .iter()
            .map(|author| author.name.as_str())
            .collect();
        writer.write_record([
            record_id.to_string(),
            work.ids
                .openalex
                .as_ref()
                .map(|id| id.url())
                .unwrap_or_default(),
            work.ids
                .doi
                .as_ref()
                .map(|id| id.to_string())
                .unwrap_or_default(),
            work.title.clone().unwrap_or_default(),
            work.abstract_text.clone().unwrap_or_default(),
            authors.join("; "),
            work.year.map(|year| year.to_string()).unwrap_or_default(),
            if decision.decision == Decision::Include {
                "1"
            } else {
                "0"
            }
            .to_owned(),
            decision.decision.name().to_owned(),
            decision.reason.code().to_owned(),
            decision.rationale.clone(),
            format!("{:.4}", decision.score),
            decision.reviewer.name().to_owned(),
            decision.domain.clone().unwrap_or_default(),
        ])?;
        record_id += 1;
    }
    finish(writer)
}

pub(crate) fn finish(writer: csv::Writer<Vec<u8>>) -> Result<String, Error> {
    let bytes = writer
        .into_inner()
        .map_err(|error| Error::Csv(error.to_string()))?;
    String::from_utf8(bytes).map_err(|error| Error::Csv(error.to_string()))
}
