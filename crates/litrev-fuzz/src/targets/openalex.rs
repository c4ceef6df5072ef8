//! OpenAlex: Work records of both schemas (snapshot lines and single-work answers) and the
//! API's list pages and error bodies.

use std::path::Path;

use litrev_sources::openalex;

use super::text;
use crate::check::{self, Checked};
use crate::seeds::{self, Seed, Seeds};

/// Lines of every SYNERGY works file read per seed file (each file holds one review's works).
const LINES_PER_FILE: usize = 40;

/// SYNERGY's works (2023 schema) and the reviews' own records.
pub(super) fn seeds_2023(data: &Path) -> Seeds {
    let mut out = Vec::new();
    for file in seeds::files(&data.join("synergy/works"), &[".jsonl.gz"])? {
        let origin = seeds::relative(data, &file);
        for (index, line) in seeds::lines(&file, LINES_PER_FILE)?.into_iter().enumerate() {
            out.push(Seed::new(format!("{origin}:{}", index + 1), line));
        }
    }
    for file in seeds::files(&data.join("synergy/review_papers"), &[".json"])? {
        out.push(Seed::new(seeds::relative(data, &file), seeds::read(&file)?));
    }
    Ok(seeds::sized(out, seeds::shrink_json))
}

/// Current-schema works: the 2025 entity, openalexPro's snapshot lines, commonmeta's single
/// works.
pub(super) fn seeds_current(data: &Path) -> Seeds {
    let mut out = Vec::new();
    for file in seeds::files(&data.join("openalex-entities-2025"), &[".json"])? {
        let is_work = file
            .file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| name.starts_with('W'));
        if is_work {
            out.push(Seed::new(seeds::relative(data, &file), seeds::read(&file)?));
        }
    }
    let snapshots =
        data.join("openalex-recorded-openalexPro/works_008_parallel_snapshots.jsonl.gz");
    let origin = seeds::relative(data, &snapshots);
    for (index, line) in seeds::lines(&snapshots, 60)?.into_iter().enumerate() {
        out.push(Seed::new(format!("{origin}:{}", index + 1), line));
    }
    out.extend(seeds::interaction_seeds(
        data,
        "commonmeta-recorded/interactions.jsonl.gz",
        "api.openalex.org/works/",
    )?);
    Ok(seeds::sized(out, seeds::shrink_json))
}

/// openalexPro's recorded traffic (pages, single works, errors, the rate-limit status),
/// commonmeta's OpenAlex answers and a key-paper page.
pub(super) fn api_seeds(data: &Path) -> Seeds {
    let mut out = seeds::interaction_seeds(
        data,
        "openalex-recorded-openalexPro/interactions.jsonl.gz",
        "openalex.org",
    )?;
    out.extend(seeds::interaction_seeds(
        data,
        "commonmeta-recorded/interactions.jsonl.gz",
        "api.openalex.org",
    )?);
    let keypapers = data.join("openalex-recorded-openalexPro/keypaper_results_page_1.json");
    out.push(Seed::new(
        seeds::relative(data, &keypapers),
        seeds::read(&keypapers)?,
    ));
    Ok(seeds::sized(out, seeds::shrink_json))
}

/// `parse_work` on one record.
pub(super) fn work(input: &[u8]) -> Checked {
    if let Ok(work) = openalex::parse_work(&text(input)) {
        check::api_work(&work)?;
    }
    Ok(())
}

/// Every OpenAlex response parser on one body.
pub(super) fn api(input: &[u8]) -> Checked {
    let body = text(input);
    if let Ok(page) = openalex::parse_page(&body) {
        if page.scores.len() != page.works.len() {
            return Err(format!(
                "{} scores for {} works",
                page.scores.len(),
                page.works.len()
            ));
        }
        check::api_works(&page.works)?;
    }
    if let Ok(work) = openalex::parse_work(&body) {
        check::api_work(&work)?;
    }
    if let Some(error) = openalex::parse_error(&body) {
        let _ = error.to_string();
    }
    Ok(())
}

/// The topics the author target asks for: the 2025 Author entity's first topic and concept.
fn asked_topics() -> Vec<litrev_model::Topic> {
    [
        ("T10102", "Scientometrics"),
        ("C41008148", "Computer science"),
    ]
    .into_iter()
    .map(|(id, name)| litrev_model::Topic {
        id: id.to_owned(),
        name: name.to_owned(),
    })
    .collect()
}

/// The 2025 Author entities, alone and in a list page as `/authors?filter=…` answers them.
pub(super) fn author_seeds(data: &Path) -> Seeds {
    let mut out = Vec::new();
    for file in seeds::files(&data.join("openalex-entities-2025"), &[".json"])? {
        let is_author = file
            .file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| name.starts_with('A'));
        if is_author {
            let entity = seeds::read(&file)?;
            let name = seeds::relative(data, &file);
            let mut page = b"{\"meta\": {\"count\": 1}, \"results\": [".to_vec();
            page.extend_from_slice(&entity);
            page.extend_from_slice(b"]}");
            out.push(Seed::new(format!("{name} (in a page)"), page));
            out.push(Seed::new(name, entity));
        }
    }
    Ok(seeds::sized(out, seeds::shrink_json))
}

/// `parse_author_page` and `expert_from_json` on one body: every expert has an id of a
/// letter and digits, a name, one of the asked topics, and counts from the asked year.
pub(super) fn authors(input: &[u8]) -> Checked {
    let body = text(input);
    let topics = asked_topics();
    let mut experts = openalex::parse_author_page(&body, &topics, 2020).unwrap_or_default();
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(&body) {
        experts.extend(openalex::expert_from_json(value, &topics, 2020));
    }
    for expert in &experts {
        let mut chars = expert.id.chars();
        let well_formed = chars.next().is_some_and(|c| c.is_ascii_uppercase())
            && expert.id.len() > 1
            && chars.all(|c| c.is_ascii_digit());
        if !well_formed || expert.name.trim().is_empty() || !topics.contains(&expert.topic) {
            return Err(format!("a malformed expert: {expert:?}"));
        }
        if expert.recent_since != 2020 {
            return Err(format!("recent works counted from {}", expert.recent_since));
        }
    }
    Ok(())
}
