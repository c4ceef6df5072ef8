//! OpenAlex Author objects (`/authors/{id}`, `/authors?filter=…` lists) read as candidate
//! experts of the topics a review asked for.
//!
//! Current records say how many of an author's works each topic holds (`topics[].count`);
//! records of the 2023 schema name concepts instead (`x_concepts[].score`, the share of the
//! author's works tagged with the concept, in per cent), from which the count is estimated.

use litrev_model::{Expert, Topic};
use serde::Deserialize;
use serde_json::Value;

use super::convert::entity_id;
use super::page::parse_error;

#[derive(Debug, Deserialize)]
struct WireAuthorRecord {
    id: Option<String>,
    display_name: Option<String>,
    orcid: Option<String>,
    works_count: Option<u32>,
    cited_by_count: Option<u32>,
    summary_stats: Option<WireSummary>,
    #[serde(default)]
    counts_by_year: Option<Vec<WireYearCount>>,
    #[serde(default)]
    topics: Option<Vec<WireAuthorTopic>>,
    #[serde(default)]
    x_concepts: Option<Vec<WireAuthorTopic>>,
}

#[derive(Debug, Deserialize)]
struct WireSummary {
    h_index: Option<u32>,
}

#[derive(Debug, Deserialize)]
struct WireYearCount {
    year: Option<i32>,
    works_count: Option<u32>,
}

#[derive(Debug, Deserialize)]
struct WireAuthorTopic {
    id: Option<String>,
    count: Option<u32>,
    score: Option<f64>,
}

#[derive(Debug, Deserialize)]
struct WireAuthorList {
    #[serde(default)]
    results: Option<Vec<Value>>,
}

/// Reads an author as an expert of `topics`: the asked topic the author has most works on,
/// that count, citations, h-index and works since `since`. `None` when the record has no id
/// or name, or none of the topics.
pub fn expert_from_json(author: Value, topics: &[Topic], since: i32) -> Option<Expert> {
    let wire: WireAuthorRecord = serde_json::from_value(author).ok()?;
    let id = entity_id(wire.id.as_deref()?)?;
    let name = wire.display_name.filter(|name| !name.trim().is_empty())?;
    let works_count = wire.works_count.unwrap_or(0);
    let asked = |entry: &WireAuthorTopic| {
        let entry_id = entity_id(entry.id.as_deref()?)?;
        let topic = topics.iter().find(|topic| topic.id == entry_id)?;
        let count = entry.count.unwrap_or_else(|| {
            // 2023 schema: the share of the author's works, in per cent.
            let share = entry.score.unwrap_or(0.0).clamp(0.0, 100.0) / 100.0;
            (f64::from(works_count) * share).round() as u32
        });
        Some((count, topic.clone()))
    };
    let (works_in_topic, topic) = wire
        .topics
        .iter()
        .chain(wire.x_concepts.iter())
        .flatten()
        .filter_map(asked)
        .max_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.id.cmp(&a.1.id)))?;
    let recent_works = wire
        .counts_by_year
        .iter()
        .flatten()
        .filter(|count| count.year.is_some_and(|year| year >= since))
        .filter_map(|count| count.works_count)
        .sum();
    let orcid = wire.orcid.filter(|orcid| !orcid.trim().is_empty());
    Some(Expert {
        id,
        name: name.trim().to_owned(),
        orcid,
        topic,
        works_in_topic,
        cited_by_count: wire.cited_by_count.unwrap_or(0),
        h_index: wire.summary_stats.and_then(|stats| stats.h_index),
        recent_works,
        recent_since: since,
        works: Vec::new(),
    })
}

/// Reads an `/authors` list response as experts of `topics`, in the API's order; authors
/// without an id, a name or one of the topics are left out.
///
/// # Errors
/// When the body is an error body or not a list.
pub fn parse_author_page(json: &str, topics: &[Topic], since: i32) -> Result<Vec<Expert>, String> {
    if let Some(error) = parse_error(json) {
        return Err(format!("OpenAlex answered with an error: {error}"));
    }
    let list: WireAuthorList = serde_json::from_str(json)
        .map_err(|error| format!("not an OpenAlex list of authors ({error})"))?;
    Ok(list
        .results
        .unwrap_or_default()
        .into_iter()
        .filter_map(|author| expert_from_json(author, topics, since))
        .collect())
}
