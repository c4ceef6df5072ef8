//! Merging records that describe the same work.
//!
//! Records are the same work when, in this order:
//! 1. they share any normalised id;
//! 2. their normalised titles and first authors' family names are equal (the fingerprint);
//! 3. their titles are nearly equal (indel similarity ≥ [`FUZZY_TITLE_SIMILARITY`]) and their
//!    first authors, or failing authors their years, agree.
//!
//! Steps 2 and 3 never join records whose ids contradict each other (two different DOIs, two
//! different OpenAlex ids…): sources disagree about titles far more often than about ids.
//! The merged record keeps the richest fields of the group, and the map from every raw id to
//! its canonical id is kept so that references written with any id still resolve.

use std::collections::BTreeMap;

use crate::id::{WorkId, WorkIds};
use crate::work::{Work, family_name};

/// Titles at least this similar (rapidfuzz's normalised indel ratio) name the same work when
/// their first authors or years agree.
pub const FUZZY_TITLE_SIMILARITY: f64 = 0.93;

/// Normalised titles shorter than this are too generic (`Introduction`) to match on.
const MIN_TITLE_CHARS: usize = 20;

/// Works merged by shared ids and matching titles, and where each raw id went.
#[derive(Debug, Clone, Default)]
pub struct Deduplicated {
    /// One record per distinct work, in order of first appearance.
    pub works: Vec<Work>,
    /// Every id seen → the primary id of the merged record that holds it.
    pub canonical: BTreeMap<WorkId, WorkId>,
    /// How many records were folded into another, by the rule that matched them.
    pub merges: MergeCounts,
}

/// How many records each dedup rule folded into another.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MergeCounts {
    /// Shared a normalised id.
    pub by_id: usize,
    /// Same normalised title and first author.
    pub by_fingerprint: usize,
    /// Nearly the same title, same first author or year.
    pub by_fuzzy_title: usize,
}

/// Merges records that describe the same work, keeping the richest fields.
pub fn merge_duplicates(records: impl IntoIterator<Item = Work>) -> Deduplicated {
    let records: Vec<Work> = records.into_iter().collect();
    let mut sets = DisjointSets::new(records.len());
    let mut merges = MergeCounts::default();

    let mut first_with: BTreeMap<WorkId, usize> = BTreeMap::new();
    for (index, record) in records.iter().enumerate() {
        for id in record.ids.all() {
            match first_with.get(&id) {
                Some(&other) => {
                    if sets.union(other, index) {
                        merges.by_id += 1;
                    }
                }
                None => {
                    first_with.insert(id, index);
                }
            }
        }
    }

    // Title rules compare whole groups: the union of the ids of the records in each.
    let group_ids = |sets: &mut DisjointSets, records: &[Work]| {
        let mut ids: BTreeMap<usize, WorkIds> = BTreeMap::new();
        for (index, record) in records.iter().enumerate() {
            let group = ids.entry(sets.find(index)).or_default();
            for id in record.ids.all() {
                group.add(id);
            }
        }
        ids
    };
    let keys: Vec<Option<TitleKey>> = records.iter().map(TitleKey::of).collect();

    let mut ids = group_ids(&mut sets, &records);
    let mut by_fingerprint: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for (index, key) in keys.iter().enumerate() {
        let Some(key) = key else { continue };
        let Some(author) = key.author.as_deref() else {
            continue;
        };
        match by_fingerprint.get(&(key.title.as_str(), author)) {
            Some(&other) => {
                if join_unless_conflicting(&mut sets, &mut ids, other, index) {
                    merges.by_fingerprint += 1;
                }
            }
            None => {
                by_fingerprint.insert((key.title.as_str(), author), index);
            }
        }
    }

    // Fuzzy titles, compared within blocks of the same first author (or year, without authors).
    let mut blocks: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (index, key) in keys.iter().enumerate() {
        let Some(key) = key else { continue };
        let block = match (&key.author, key.year) {
            (Some(author), _) => format!("a:{author}"),
            (None, Some(year)) => format!("y:{year}"),
            (None, None) => continue,
        };
        blocks.entry(block).or_default().push(index);
    }
    for members in blocks.values() {
        for (position, &a) in members.iter().enumerate() {
            for &b in &members[position + 1..] {
                if sets.find(a) == sets.find(b) {
                    continue;
                }
                let (Some(key_a), Some(key_b)) = (&keys[a], &keys[b]) else {
                    continue;
                };
                if !key_a.years_agree(key_b) {
                    continue;
                }
                let similarity = rapidfuzz::fuzz::ratio(key_a.title.chars(), key_b.title.chars());
                if similarity >= FUZZY_TITLE_SIMILARITY
                    && join_unless_conflicting(&mut sets, &mut ids, a, b)
                {
                    merges.by_fuzzy_title += 1;
                }
            }
        }
    }

    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for index in 0..records.len() {
        groups.entry(sets.find(index)).or_default().push(index);
    }
    let mut ordered: Vec<Vec<usize>> = groups.into_values().collect();
    ordered.sort_by_key(|members| members[0]);

    let mut slots: Vec<Option<Work>> = records.into_iter().map(Some).collect();
    let mut works = Vec::with_capacity(ordered.len());
    let mut canonical = BTreeMap::new();
    for members in ordered {
        let mut merged: Option<Work> = None;
        // A work holds one id per scheme, so a record's own ids are remembered before merging:
        // every id any record carried must resolve, even one the merged record dropped.
        let mut raw_ids: Vec<WorkId> = Vec::new();
        for index in members {
            let Some(record) = slots[index].take() else {
                continue;
            };
            raw_ids.extend(record.ids.all());
            merged = Some(match merged {
                None => record,
                Some(base) => merge_pair(base, record),
            });
        }
        let Some(work) = merged else { continue };
        let Some(primary) = work.ids.primary() else {
            continue;
        };
        for id in raw_ids.into_iter().chain(work.ids.all()) {
            canonical.insert(id, primary.clone());
        }
        works.push(work);
    }
    Deduplicated {
        works,
        canonical,
        merges,
    }
}

/// Joins the groups of `a` and `b` unless their ids contradict; true when they were joined.
fn join_unless_conflicting(
    sets: &mut DisjointSets,
    ids: &mut BTreeMap<usize, WorkIds>,
    a: usize,
    b: usize,
) -> bool {
    let (root_a, root_b) = (sets.find(a), sets.find(b));
    if root_a == root_b {
        return false;
    }
    let ids_a = ids.get(&root_a).cloned().unwrap_or_default();
    let ids_b = ids.get(&root_b).cloned().unwrap_or_default();
    if ids_conflict(&ids_a, &ids_b) {
        return false;
    }
    sets.union(root_a, root_b);
    let root = sets.find(root_a);
    let mut joined = ids_a;
    for id in ids_b.all() {
        joined.add(id);
    }
    ids.remove(&root_a);
    ids.remove(&root_b);
    ids.insert(root, joined);
    true
}

/// Whether two sets of ids name different works: both have an id of one scheme, and they differ.
fn ids_conflict(a: &WorkIds, b: &WorkIds) -> bool {
    fn differ<T: PartialEq>(a: &Option<T>, b: &Option<T>) -> bool {
        matches!((a, b), (Some(a), Some(b)) if a != b)
    }
    differ(&a.openalex, &b.openalex)
        || differ(&a.doi, &b.doi)
        || differ(&a.pmid, &b.pmid)
        || differ(&a.pmcid, &b.pmcid)
        || differ(&a.arxiv, &b.arxiv)
        || differ(&a.s2, &b.s2)
}

/// What the title rules compare: a normalised title, first author and year.
struct TitleKey {
    title: String,
    author: Option<String>,
    year: Option<i32>,
}

impl TitleKey {
    /// The key of a record, or `None` when its title is missing or too generic to match on.
    fn of(work: &Work) -> Option<TitleKey> {
        let title = normalise(work.title.as_deref()?);
        if title.len() < MIN_TITLE_CHARS {
            return None;
        }
        let author = work
            .authors
            .first()
            .map(|author| normalise(family_name(&author.name)))
            .filter(|name| !name.is_empty());
        Some(TitleKey {
            title,
            author,
            year: work.year,
        })
    }

    /// Years within one of each other (preprint, then print), or unknown on either side.
    fn years_agree(&self, other: &TitleKey) -> bool {
        match (self.year, other.year) {
            (Some(a), Some(b)) => (a - b).abs() <= 1,
            _ => true,
        }
    }
}

/// ASCII-folded, lower-cased letters and digits, single spaces between words: how titles are
/// compared, whatever their accents, case and punctuation.
pub fn normalise(text: &str) -> String {
    let folded = deunicode::deunicode(text).to_lowercase();
    folded
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Union-find over record indices; the smaller index is the root, so groups keep input order.
struct DisjointSets {
    parent: Vec<usize>,
}

impl DisjointSets {
    fn new(len: usize) -> DisjointSets {
        DisjointSets {
            parent: (0..len).collect(),
        }
    }

    fn find(&mut self, mut index: usize) -> usize {
        while self.parent[index] != index {
            self.parent[index] = self.parent[self.parent[index]];
            index = self.parent[index];
        }
        index
    }

    /// Joins two groups; true when they were distinct.
    fn union(&mut self, a: usize, b: usize) -> bool {
        let (root_a, root_b) = (self.find(a), self.find(b));
        if root_a == root_b {
            return false;
        }
        let (low, high) = (root_a.min(root_b), root_a.max(root_b));
        self.parent[high] = low;
        true
    }
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
    if rich.topics.is_empty() {
        rich.topics = poor.topics;
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

    fn titled(doi: Option<&str>, title: &str, author: &str, year: i32) -> Work {
        let mut record = work(None, doi, Some(title));
        record.authors = vec![crate::work::Author::named(author)];
        record.year = Some(year);
        record
    }

    /// A book OpenAlex knows by its id and DOI and Open Library by an ISBN and its page is one
    /// work by its title and first author, and two editions' records by their ISBN.
    #[test]
    fn a_book_from_openalex_and_from_open_library_is_one_work() {
        let book = |ids: &[&str], title: &str, author: &str| {
            let mut work = Work {
                title: Some(title.to_owned()),
                authors: vec![crate::Author::named(author)],
                kind: crate::WorkKind::Book,
                ..Work::default()
            };
            for id in ids {
                work.ids.add(id.parse().expect("an id"));
            }
            work
        };
        let result = merge_duplicates([
            book(
                &["W2130166417", "10.1596/978-0-8213-7576-9"],
                "Payments for Environmental Services: Getting Started",
                "Stefano Pagiola",
            ),
            book(
                &[
                    "isbn:9780821375761",
                    "url:https://openlibrary.org/works/OL1W",
                ],
                "Payments for environmental services: getting started",
                "Pagiola, Stefano",
            ),
            book(
                &["isbn:0-8213-7576-8"],
                "Payments for environmental services (2nd printing)",
                "S. Pagiola",
            ),
        ]);
        assert_eq!(result.works.len(), 1, "{:?}", result.works);
        let ids = &result.works[0].ids;
        assert!(
            ids.openalex.is_some() && ids.isbn.is_some() && ids.url.is_some(),
            "{ids:?}"
        );
        assert_eq!(result.merges.by_id, 1);
        assert_eq!(
            result.merges.by_fingerprint + result.merges.by_fuzzy_title,
            1
        );
    }

    #[test]
    fn records_without_shared_ids_merge_on_title_and_first_author() {
        let result = merge_duplicates([
            titled(
                Some("10.1/a"),
                "Machine Learning for Screening: A Review",
                "Jane Smith",
                2020,
            ),
            titled(
                None,
                "Machine learning for screening — a review",
                "Smith, J.",
                2020,
            ),
        ]);
        assert_eq!(result.works.len(), 1);
        assert_eq!(result.merges.by_fingerprint, 1);
    }

    #[test]
    fn nearly_equal_titles_merge_but_contradicting_ids_do_not() {
        let result = merge_duplicates([
            titled(
                Some("10.1/a"),
                "Active learning for systematic reviews of software engineering",
                "Yu",
                2018,
            ),
            titled(
                None,
                "Active learning for systematic review of software engineering",
                "Yu",
                2019,
            ),
            titled(
                Some("10.1/other"),
                "Active learning for systematic reviews of software engineering",
                "Yu",
                2018,
            ),
        ]);
        assert_eq!(result.merges.by_fuzzy_title, 1);
        assert_eq!(result.works.len(), 2, "a second DOI is a second work");
    }

    #[test]
    fn every_raw_id_resolves_even_when_the_merged_record_keeps_another() {
        let result = merge_duplicates([
            work(Some("W1"), Some("10.1/x"), Some("A")),
            work(Some("W2"), Some("10.1/x"), Some("A")),
        ]);
        assert_eq!(result.works.len(), 1);
        let w2: WorkId = "W2".parse().expect("id");
        assert_eq!(result.canonical[&w2].to_string(), "W1");
    }

    #[test]
    fn short_generic_titles_never_match() {
        let result = merge_duplicates([titled(Some("10.1/a"), "Introduction", "Smith", 2020), {
            let mut record = titled(None, "Introduction", "Smith", 2020);
            record.ids.pmid = Some("123".parse().expect("pmid"));
            record
        }]);
        assert_eq!(result.works.len(), 2);
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
