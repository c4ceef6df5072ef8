//! Plan → candidate works: every query run against the source, seeds looked up, all merged.
//!
//! Records of the same work returned by several queries are merged by shared id; each corpus
//! entry remembers which queries returned it. Seeds the source does not know are an error,
//! because a review built without them would silently answer another question.

use std::collections::BTreeMap;

use litrev_model::{CorpusEntry, Origin, Plan, Work, WorkId, merge_duplicates};
use litrev_sources::Source;
use serde::{Deserialize, Serialize};

/// Why discovery failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The source failed.
    #[error(transparent)]
    Source(#[from] litrev_sources::Error),
    /// Seeds the source does not hold.
    #[error("seed{} not found in {source_name}: {ids}; check the ids, or use a source that holds them", if .missing.len() == 1 { "" } else { "s" })]
    SeedsNotFound {
        /// The missing seeds.
        missing: Vec<WorkId>,
        /// Their ids, joined for the message.
        ids: String,
        /// The source's description.
        source_name: String,
    },
    /// Neither queries nor seeds: nothing to start from.
    #[error(
        "the question has no topic words to search for and no --seed was given: rephrase the question or name seed works"
    )]
    NothingToSearch,
}

/// Result with discovery's error.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What one query returned.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryHits {
    /// The query's label.
    pub label: String,
    /// The query's text.
    pub text: String,
    /// Works returned, best first (primary ids after merging).
    pub works: Vec<WorkId>,
}

/// The discover phase's output.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Discovery {
    /// Every candidate, merged, seeds first, then in order of best rank.
    pub works: Vec<Work>,
    /// A corpus entry per candidate (stage 0).
    pub entries: Vec<CorpusEntry>,
    /// Per-query hit lists.
    pub hits: Vec<QueryHits>,
    /// Total hits before merging.
    pub raw_hits: usize,
}

/// Runs the plan's queries and looks up its seeds.
///
/// # Errors
/// When the source fails, a seed is not found, or there is nothing to search for.
pub fn discover(source: &dyn Source, plan: &Plan) -> Result<Discovery> {
    if plan.queries.is_empty() && plan.seeds.is_empty() {
        return Err(Error::NothingToSearch);
    }
    let seeds = if plan.seeds.is_empty() {
        Vec::new()
    } else {
        source.lookup(&plan.seeds)?
    };
    let missing: Vec<WorkId> = plan
        .seeds
        .iter()
        .filter(|seed| !seeds.iter().any(|work| work.ids.all().contains(seed)))
        .cloned()
        .collect();
    if !missing.is_empty() {
        let ids = missing
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        return Err(Error::SeedsNotFound {
            missing,
            ids,
            source_name: source.describe(),
        });
    }

    let mut records: Vec<Work> = seeds.clone();
    // Per raw record: (origin, query label, normalised score).
    let mut provenance: Vec<(Origin, Option<String>, f32)> =
        seeds.iter().map(|_| (Origin::Seed, None, 1.0)).collect();
    let mut per_query: Vec<(String, String, Vec<WorkId>)> = Vec::new();
    for query in &plan.queries {
        let hits = source.search(query, plan.hits_per_query)?;
        let top = hits
            .first()
            .map_or(1.0, |hit| hit.score.max(f32::MIN_POSITIVE));
        let mut ids = Vec::new();
        for hit in hits {
            ids.push(hit.work.id());
            provenance.push((Origin::Search, Some(query.label.clone()), hit.score / top));
            records.push(hit.work);
        }
        per_query.push((query.label.clone(), query.text.clone(), ids));
    }
    let raw_hits = records.len() - seeds.len();
    let record_ids: Vec<WorkId> = records.iter().map(Work::id).collect();
    let merged = merge_duplicates(records);

    let mut entries: BTreeMap<WorkId, CorpusEntry> = BTreeMap::new();
    for (raw_id, (origin, label, score)) in record_ids.iter().zip(provenance) {
        let id = merged.canonical[raw_id].clone();
        let entry = entries.entry(id.clone()).or_insert_with(|| CorpusEntry {
            work: id,
            stage: 0,
            origin,
            score,
            queries: Vec::new(),
        });
        entry.score = entry.score.max(score);
        if let Some(label) = label
            && !entry.queries.contains(&label)
        {
            entry.queries.push(label);
        }
    }
    let mut works = merged.works;
    // Seeds first, then by best normalised search score, ties by id: stable across runs.
    let rank = |work: &Work| {
        let entry = &entries[&work.id()];
        (entry.origin != Origin::Seed, -entry.score)
    };
    works.sort_by(|a, b| {
        let (a_rank, b_rank) = (rank(a), rank(b));
        a_rank
            .0
            .cmp(&b_rank.0)
            .then(a_rank.1.total_cmp(&b_rank.1))
            .then(a.id().cmp(&b.id()))
    });
    let ordered_entries = works
        .iter()
        .map(|work| entries[&work.id()].clone())
        .collect();
    let hits = per_query
        .into_iter()
        .map(|(label, text, ids)| QueryHits {
            label,
            text,
            works: ids.iter().map(|id| merged.canonical[id].clone()).collect(),
        })
        .collect();
    Ok(Discovery {
        works,
        entries: ordered_entries,
        hits,
        raw_hits,
    })
}
