//! Citation links as vectors, so "cited together", "citing the same works" and "citing each
//! other" become one similarity, comparable across works the way TF-IDF makes texts comparable.
//!
//! A work's features are the works it cites and the works that cite it, each side also holding
//! the work itself: two works that share references (bibliographic coupling) or citers
//! (co-citation) share features, and so do two works of which one cites the other (the citing
//! work's reference feature is the cited work's own). Features are weighted by inverse document
//! frequency over the corpus (a reference every work shares says little) and those of a single
//! work are dropped, as they can match nothing.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use litrev_model::{Work, WorkId};
use litrev_text::SparseVector;

/// Steps of the walk in [`Links::reach`]: with a restart chance of 0.3, what further steps
/// would move is under 0.7⁵⁰ (2 × 10⁻⁸) of the total.
const REACH_STEPS: usize = 50;

/// The corpus's records with their citation links resolved to record keys.
#[derive(Debug, Clone)]
pub(crate) struct Links<'a> {
    /// The record keys, ascending: position `i` below is `keys[i]`.
    pub keys: Vec<WorkId>,
    /// `references[i]`: what record `i` cites, as record positions when they are records.
    pub references: Vec<Vec<Reference<'a>>>,
    /// `citers[i]`: the records citing record `i`, ascending.
    pub citers: Vec<Vec<usize>>,
}

/// A reference of a record: another record, or a work the corpus has no record of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Reference<'a> {
    /// A record, by position.
    Record(usize),
    /// A work without a record (a stub, or never fetched).
    Outside(&'a WorkId),
}

impl<'a> Links<'a> {
    /// Resolves every reference of `records` (keyed by primary id) against the records' ids.
    pub fn new(records: &BTreeMap<WorkId, &'a Work>) -> Links<'a> {
        let keys: Vec<WorkId> = records.keys().cloned().collect();
        // Looked up once per reference of every record, never iterated: a hash map.
        let mut alias: HashMap<WorkId, usize> = HashMap::with_capacity(records.len() * 2);
        for (position, (key, work)) in records.iter().enumerate() {
            for id in work.ids.all() {
                alias.entry(id).or_insert(position);
            }
            alias.insert(key.clone(), position);
        }
        let mut references = Vec::with_capacity(keys.len());
        let mut citers = vec![Vec::new(); keys.len()];
        for (position, work) in records.values().enumerate() {
            let mut resolved: Vec<Reference<'a>> = work
                .references
                .iter()
                .map(|reference| match alias.get(reference) {
                    Some(&cited) => Reference::Record(cited),
                    None => Reference::Outside(reference),
                })
                .filter(|reference| *reference != Reference::Record(position))
                .collect();
            resolved.sort();
            resolved.dedup();
            for reference in &resolved {
                if let Reference::Record(cited) = reference {
                    citers[*cited].push(position);
                }
            }
            references.push(resolved);
        }
        Links {
            keys,
            references,
            citers,
        }
    }

    /// How many records there are.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// The records record `position` cites.
    pub fn cited_records(&self, position: usize) -> impl Iterator<Item = usize> + '_ {
        self.references[position]
            .iter()
            .filter_map(|reference| match reference {
                Reference::Record(cited) => Some(*cited),
                Reference::Outside(_) => None,
            })
    }

    /// The link vector of every record (see the module docs), L2-normalised.
    pub fn vectors(&self) -> Vec<SparseVector> {
        // Feature keys: (side, record position or outside id); side 0 = cited, 1 = citing.
        let mut features: Vec<Vec<Feature<'a>>> = Vec::with_capacity(self.len());
        for position in 0..self.len() {
            let mut own: Vec<Feature<'a>> = self.references[position]
                .iter()
                .map(|reference| Feature::Cited(*reference))
                .collect();
            own.push(Feature::Cited(Reference::Record(position)));
            own.extend(
                self.citers[position]
                    .iter()
                    .map(|&citer| Feature::CitedBy(citer)),
            );
            own.push(Feature::CitedBy(position));
            own.sort();
            own.dedup();
            features.push(own);
        }
        // Counted and looked up in hash maps; ids follow the features' order, so vectors do not
        // depend on the maps' order.
        let mut frequency: HashMap<Feature<'a>, u32> = HashMap::new();
        for own in &features {
            for feature in own {
                *frequency.entry(*feature).or_default() += 1;
            }
        }
        let mut shared: Vec<Feature<'a>> = frequency
            .iter()
            .filter(|(_, count)| **count > 1)
            .map(|(feature, _)| *feature)
            .collect();
        shared.sort_unstable();
        let ids: HashMap<Feature<'a>, u32> = shared
            .into_iter()
            .enumerate()
            .map(|(id, feature)| (feature, id as u32))
            .collect();
        let documents = self.len() as f32;
        features
            .iter()
            .map(|own| {
                let entries: Vec<(u32, f32)> = own
                    .iter()
                    .filter_map(|feature| {
                        let id = *ids.get(feature)?;
                        let count = frequency[feature] as f32;
                        Some((id, ((1.0 + documents) / (1.0 + count)).ln() + 1.0))
                    })
                    .collect();
                SparseVector::normalised(entries)
            })
            .collect()
    }

    /// How near every record lies to `starts` along citations either way: the visit shares of
    /// a random walk that follows a citation link at each step and jumps back to a start with
    /// probability `restart` (personalised PageRank). Unlike the link vectors, which see one
    /// step, it reaches works two or more citations away. A record without links hands its
    /// share back to the starts. Shares sum to 1; all are 0 when there are no starts.
    pub fn reach(&self, starts: &[usize], restart: f32) -> Vec<f32> {
        let count = self.len();
        if starts.is_empty() {
            return vec![0.0; count];
        }
        let neighbours: Vec<Vec<usize>> = (0..count)
            .map(|position| {
                let mut linked: Vec<usize> = self
                    .cited_records(position)
                    .chain(self.citers[position].iter().copied())
                    .collect();
                linked.sort_unstable();
                linked.dedup();
                linked
            })
            .collect();
        let mut jump = vec![0.0f32; count];
        for &start in starts {
            jump[start] += 1.0 / starts.len() as f32;
        }
        let mut shares = jump.clone();
        for _ in 0..REACH_STEPS {
            let mut next: Vec<f32> = jump.iter().map(|share| restart * share).collect();
            let mut stranded = 0.0;
            for (position, linked) in neighbours.iter().enumerate() {
                let walking = (1.0 - restart) * shares[position];
                if linked.is_empty() {
                    stranded += walking;
                    continue;
                }
                let each = walking / linked.len() as f32;
                for &neighbour in linked {
                    next[neighbour] += each;
                }
            }
            for (share, start) in next.iter_mut().zip(&jump) {
                *share += stranded * start;
            }
            shares = next;
        }
        shares
    }

    /// For every record outside `relevant`, how many relevant records it is linked to: cites or
    /// is cited by, is cited together with by at least `strength` records (co-citation), or
    /// shares at least `strength` references with (bibliographic coupling).
    pub fn linked_counts(&self, relevant: &BTreeSet<usize>, strength: usize) -> Vec<usize> {
        // Who among the relevant cites each reference.
        let mut relevant_citing: HashMap<Reference<'a>, Vec<usize>> = HashMap::new();
        for &member in relevant {
            for reference in &self.references[member] {
                relevant_citing.entry(*reference).or_default().push(member);
            }
        }
        (0..self.len())
            .map(|position| {
                if relevant.contains(&position) {
                    return 0;
                }
                let mut linked: BTreeSet<usize> = BTreeSet::new();
                linked.extend(
                    self.cited_records(position)
                        .filter(|cited| relevant.contains(cited)),
                );
                linked.extend(
                    self.citers[position]
                        .iter()
                        .filter(|citer| relevant.contains(citer)),
                );
                let mut cocited: BTreeMap<usize, usize> = BTreeMap::new();
                for &citer in &self.citers[position] {
                    for cited in self.cited_records(citer) {
                        if cited != position && relevant.contains(&cited) {
                            *cocited.entry(cited).or_default() += 1;
                        }
                    }
                }
                let mut coupled: BTreeMap<usize, usize> = BTreeMap::new();
                for reference in &self.references[position] {
                    for &member in relevant_citing.get(reference).into_iter().flatten() {
                        *coupled.entry(member).or_default() += 1;
                    }
                }
                linked.extend(
                    cocited
                        .into_iter()
                        .chain(coupled)
                        .filter(|(_, count)| *count >= strength)
                        .map(|(member, _)| member),
                );
                linked.len()
            })
            .collect()
    }
}

/// One link feature: a work cited (by the record), or a record citing (the record).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Feature<'a> {
    Cited(Reference<'a>),
    CitedBy(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A work titled by its id.
    fn work(id: &str, references: &[&str]) -> Work {
        crate::test_works::work(id, id, references)
    }

    /// The position of record `id`.
    fn position_of(links: &Links<'_>, id: &str) -> usize {
        links
            .keys
            .iter()
            .position(|key| key.to_string() == id)
            .expect("record")
    }

    #[test]
    fn coupled_cocited_and_citing_works_are_similar() {
        let works = [
            work("W1", &["W10", "W11", "W12"]),
            work("W2", &["W10", "W11", "W12"]),
            work("W3", &["W1"]),
            work("W4", &["W20"]),
            work("W5", &["W1", "W2"]),
            work("W6", &["W1", "W2", "W4"]),
            work("W7", &["W30"]),
        ];
        let records: BTreeMap<WorkId, &Work> = works.iter().map(|work| (work.id(), work)).collect();
        let links = Links::new(&records);
        let vectors = links.vectors();
        let position = |id: &str| position_of(&links, id);
        let similarity = |a: &str, b: &str| vectors[position(a)].cosine(&vectors[position(b)]);
        assert!(similarity("W1", "W2") > 0.5, "coupled and co-cited");
        assert!(similarity("W1", "W3") > 0.0, "W3 cites W1");
        assert!(similarity("W4", "W1") > 0.0, "cited together by W6");
        assert_eq!(similarity("W7", "W1"), 0.0, "no link at all");
        let relevant: BTreeSet<usize> = [position("W1"), position("W2")].into();
        let counts = links.linked_counts(&relevant, 2);
        assert_eq!(counts[position("W5")], 2, "cites both");
        assert_eq!(
            counts[position("W4")],
            0,
            "cited with them by one work only"
        );
        assert_eq!(counts[position("W3")], 1, "cites W1 only");
    }

    #[test]
    fn reach_falls_with_each_citation_step_and_misses_unlinked_works() {
        let works = [
            work("W1", &[]),
            work("W2", &["W1"]),
            work("W3", &["W2"]),
            work("W4", &["W3"]),
            work("W5", &[]),
            work("W6", &["W9"]),
        ];
        let records: BTreeMap<WorkId, &Work> = works.iter().map(|work| (work.id(), work)).collect();
        let links = Links::new(&records);
        let position = |id: &str| position_of(&links, id);
        let reach = links.reach(&[position("W1")], 0.3);
        let at = |id: &str| reach[position(id)];
        assert!(at("W1") > at("W2"), "{reach:?}");
        assert!(at("W2") > at("W3"), "{reach:?}");
        assert!(at("W3") > at("W4"), "{reach:?}");
        assert!(at("W4") > 0.0, "three citations away");
        assert_eq!(at("W5"), 0.0, "no link");
        assert_eq!(at("W6"), 0.0, "cites only a work without a record");
        let total: f32 = reach.iter().sum();
        assert!((total - 1.0).abs() < 1e-4, "shares sum to {total}");
        assert!(links.reach(&[], 0.3).iter().all(|share| *share == 0.0));

        // A start without links hands its walk back to itself.
        let alone = links.reach(&[position("W5")], 0.3);
        assert!((alone[position("W5")] - 1.0).abs() < 1e-4, "{alone:?}");
    }
}
