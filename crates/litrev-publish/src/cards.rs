//! `study_cards.json` and `study_cards.csv`: what the full-text step read for each included
//! work (how its text was obtained, or why only its abstract) and its study card, every field a
//! list of verbatim spans with their pinpoints and locators, or *not reported*.

use std::collections::BTreeMap;

use litrev_model::{CardField, NOT_REPORTED, Retrieval, StudyCard, Work, WorkId};
use serde_json::{Value, json};

use crate::Error;
use crate::tables::finish;

/// The format of `study_cards.json`.
const CARDS_FORMAT: u32 = 1;

/// `study_cards.json`: one entry per included work, in the order full texts were sought.
/// `key` is the work's citation key when the review cites it.
pub fn study_cards_json(
    retrievals: &[Retrieval],
    cards: &[StudyCard],
    works: &BTreeMap<WorkId, Work>,
    keys: &BTreeMap<WorkId, String>,
) -> String {
    let by_work: BTreeMap<&WorkId, &StudyCard> =
        cards.iter().map(|card| (&card.work, card)).collect();
    let entries: Vec<Value> = retrievals
        .iter()
        .map(|retrieval| {
            let work = works.get(&retrieval.work);
            let card = by_work.get(&retrieval.work);
            let fields = card.map(|card| {
                CardField::ALL
                    .iter()
                    .filter(|field| !card.spans(**field).is_empty())
                    .map(|field| (field.name().to_owned(), json!(card.spans(*field))))
                    .collect::<serde_json::Map<String, Value>>()
            });
            let not_reported: Option<Vec<&str>> = card.map(|card| {
                CardField::ALL
                    .iter()
                    .filter(|field| card.spans(**field).is_empty())
                    .map(|field| field.name())
                    .collect()
            });
            json!({
                "work": retrieval.work,
                "key": keys.get(&retrieval.work),
                "title": work.and_then(|work| work.title.clone()),
                "year": work.and_then(|work| work.year),
                "status": retrieval.status,
                "missing": retrieval.missing,
                "origin": retrieval.origin,
                "sha256": retrieval.sha256,
                "problems": retrieval.problems,
                "fields": fields,
                "not_reported": not_reported,
            })
        })
        .collect();
    let document = json!({
        "format": CARDS_FORMAT,
        "fields": CardField::ALL.iter().map(|field| field.name()).collect::<Vec<_>>(),
        "works": entries,
    });
    format!(
        "{}\n",
        serde_json::to_string_pretty(&document).unwrap_or_else(|_| "{}".to_owned())
    )
}

/// `study_cards.csv`: one row per included work, one column per field (the spans' text joined
/// by ` | `, each followed by its pinpoint in brackets; `not reported` where the text is silent;
/// empty where no full text was read).
///
/// # Errors
/// When the CSV writer fails.
pub fn study_cards_csv(
    retrievals: &[Retrieval],
    cards: &[StudyCard],
    works: &BTreeMap<WorkId, Work>,
    keys: &BTreeMap<WorkId, String>,
) -> Result<String, Error> {
    let by_work: BTreeMap<&WorkId, &StudyCard> =
        cards.iter().map(|card| (&card.work, card)).collect();
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["key", "work", "title", "year", "status", "missing"];
    header.extend(CardField::ALL.iter().map(|field| field.name()));
    writer.write_record(&header)?;
    for retrieval in retrievals {
        let work = works.get(&retrieval.work);
        let mut row = vec![
            keys.get(&retrieval.work).cloned().unwrap_or_default(),
            retrieval.work.to_string(),
            work.and_then(|work| work.title.clone()).unwrap_or_default(),
            work.and_then(|work| work.year)
                .map(|year| year.to_string())
                .unwrap_or_default(),
            retrieval.status.name().to_owned(),
            retrieval
                .missing
                .map(|missing| missing.name().to_owned())
                .unwrap_or_default(),
        ];
        let card = by_work.get(&retrieval.work);
        row.extend(CardField::ALL.iter().map(|field| match card {
            None => String::new(),
            Some(card) => field_cell(card, *field),
        }));
        writer.write_record(&row)?;
    }
    finish(writer)
}

/// A field of a card as one cell: its spans with their pinpoints, or `not reported`.
pub fn field_cell(card: &StudyCard, field: CardField) -> String {
    let spans = card.spans(field);
    if spans.is_empty() {
        return NOT_REPORTED.to_owned();
    }
    spans
        .iter()
        .map(|span| format!("{} [{}]", span.text, span.pinpoint))
        .collect::<Vec<_>>()
        .join(" | ")
}
