//! Merging records that describe the same work.
//!
//! Two records are the same work when they share any normalised id. The merged record keeps
//! the richest fields of the group, and the map from every raw id to its canonical id is kept
//! so that references written with any id still resolve.

use std::collections::BTreeMap;

use crate::id::WorkId;
use crate::work::Work;

/// Works merged by shared ids, and where each raw id went.
#[derive(Debug, Clone, Default)]
pub struct Deduplicated {
    /// One record per distinct work, in order of first appearance.
    pub works: Vec<Work>,
    /// Every id seen → the primary id of the merged record that holds it.
    pub canonical: BTreeMap<WorkId, WorkId>,
}

/// Merges records that share any normalised id, keeping the richest fields.
pub fn merge_duplicates(records: impl IntoIterator<Item = Work>) -> Deduplicated {
    let mut merged: Vec<Work> = Vec::new();
    let mut slot_of: BTreeMap<WorkId, usize> = BTreeMap::new();
    for record in records {
        let ids = record.ids.all();
        let mut slots: Vec<usize> = ids
            .iter()
            .filter_map(|id| slot_of.get(id).copied())
            .collect();
        slots.sort_unstable();
        slots.dedup();
        let slot = match slots.first() {
            None => {
                merged.push(record);
                merged.len() - 1
            }
            Some(&first) => {
                let base = std::mem::take(&mut merged[first]);
                merged[first] = merge_pair(base, record);
                // A record can bridge two groups that were distinct until now.
                for &other in &slots[1..] {
                    let absorbed = std::mem::take(&mut merged[other]);
                    let base = std::mem::take(&mut merged[first]);
                    merged[first] = merge_pair(base, absorbed);
                }
                first
            }
        };
        for id in merged[slot].ids.all() {
            slot_of.insert(id, slot);
        }
        if slots.len() > 1 {
            for slot_ref in slot_of.values_mut() {
                if slots.contains(slot_ref) {
                    *slot_ref = slot;
                }
            }
        }
    }
    let live: Vec<usize> = {
        let mut live: Vec<usize> = slot_of.values().copied().collect();
        live.sort_unstable();
        live.dedup();
        live
    };
    let mut canonical = BTreeMap::new();
    let mut works = Vec::with_capacity(live.len());
    let mut new_index = BTreeMap::new();
    for slot in live {
        new_index.insert(slot, works.len());
        works.push(std::mem::take(&mut merged[slot]));
    }
    for (id, slot) in slot_of {
        canonical.insert(id, works[new_index[&slot]].id());
    }
    Deduplicated { works, canonical }
}

/// Merges two records of the same work: the richer one wins each field it has.
pub fn merge_pair(a: Work, b: Work) -> Work {
    let (mut rich, poor) = if b.richness() > a.richness() {
        (b, a)
    } else {
        (a, b)
    };
    for id in poor.ids.all() {
        rich.ids.add(id);
    }
    rich.title = rich.title.or(poor.title);
    if rich.authors.is_empty() {
        rich.authors = poor.authors;
    }
    rich.year = rich.year.or(poor.year);
    rich.date = rich.date.or(poor.date);
    rich.venue = rich.venue.or(poor.venue);
    rich.publisher = rich.publisher.or(poor.publisher);
    if rich.kind == crate::work::WorkKind::Other {
        rich.kind = poor.kind;
    }
    if rich.biblio.is_empty() {
        rich.biblio = poor.biblio;
    }
    let longer_abstract = match (&rich.abstract_text, &poor.abstract_text) {
        (Some(mine), Some(theirs)) => theirs.len() > mine.len(),
        (None, Some(_)) => true,
        _ => false,
    };
    if longer_abstract {
        rich.abstract_text = poor.abstract_text;
    }
    rich.language = rich.language.or(poor.language);
    rich.cited_by_count = rich.cited_by_count.max(poor.cited_by_count);
    if rich.keywords.is_empty() {
        rich.keywords = poor.keywords;
    }
    for reference in poor.references {
        if !rich.references.contains(&reference) {
            rich.references.push(reference);
        }
    }
    rich.oa_url = rich.oa_url.or(poor.oa_url);
    rich.is_retracted |= poor.is_retracted;
    rich
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::WorkIds;

    fn work(openalex: Option<&str>, doi: Option<&str>, title: Option<&str>) -> Work {
        Work {
            ids: WorkIds {
                openalex: openalex.map(|id| id.parse().expect("openalex id")),
                doi: doi.map(|id| id.parse().expect("doi")),
                ..WorkIds::default()
            },
            title: title.map(str::to_owned),
            ..Work::default()
        }
    }

    #[test]
    fn merges_records_sharing_an_id_in_any_spelling() {
        let result = merge_duplicates([
            work(Some("W1"), None, Some("A")),
            work(None, Some("https://doi.org/10.1/X"), None),
            work(Some("https://openalex.org/W1"), Some("10.1/x"), Some("A")),
            work(Some("W2"), None, Some("B")),
        ]);
        assert_eq!(result.works.len(), 2);
        let first = &result.works[0];
        assert_eq!(
            first.ids.openalex.as_ref().map(|id| id.as_str()),
            Some("W1")
        );
        assert_eq!(first.ids.doi.as_ref().map(|id| id.as_str()), Some("10.1/x"));
        let doi: WorkId = "10.1/x".parse().expect("doi");
        assert_eq!(result.canonical[&doi].to_string(), "W1");
    }

    #[test]
    fn a_record_bridging_two_groups_joins_them() {
        let result = merge_duplicates([
            work(Some("W1"), None, Some("A")),
            work(None, Some("10.1/x"), Some("A")),
            work(Some("W1"), Some("10.1/x"), None),
        ]);
        assert_eq!(result.works.len(), 1);
        assert_eq!(result.canonical.len(), 2);
    }

    #[test]
    fn the_richest_fields_win() {
        let mut poor = work(Some("W1"), None, Some("Title"));
        poor.abstract_text = Some("short".into());
        let mut rich = work(Some("W1"), None, Some("Title"));
        rich.abstract_text = Some("a much longer abstract".into());
        rich.year = Some(2020);
        let merged = merge_pair(poor, rich);
        assert_eq!(
            merged.abstract_text.as_deref(),
            Some("a much longer abstract")
        );
        assert_eq!(merged.year, Some(2020));
    }
}
