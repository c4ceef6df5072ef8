//! Which relevant works a stage expands first, when it cannot expand them all.
//!
//! A work's priority is its relevance score lifted by five signals of the design, each as a
//! percentile among the candidates: cited often inside the corpus (seminal), cited fast for its
//! age (rising), many links not yet explored (references outside the corpus, citers not yet
//! seen), central in the corpus's citation graph (PageRank), and bridging parts of it that
//! would otherwise hardly meet (betweenness, pivot-sampled in a large corpus). The signals only reorder works
//! of similar relevance: a central but barely relevant work does not jump the queue.

use std::collections::{BTreeMap, BTreeSet};

use litrev_graph::CitationGraph;
use litrev_model::{Citation, Work, WorkId};

use crate::judge::Judgement;

/// How many signals lift a work's relevance.
const SIGNALS: usize = 5;

/// Bridging is measured exactly in a corpus of up to this many works, and from paths out of
/// this many evenly spread ones past it (relative error about 1/√256 ≈ 6 %), so its cost grows
/// with the corpus, not with its square.
const BETWEENNESS_PIVOTS: usize = 256;

/// The relevant works not yet expanded, highest priority first (ties by id), at most `limit`.
pub(crate) fn frontier(
    judgement: &Judgement,
    works: &BTreeMap<WorkId, Work>,
    known: &BTreeSet<&WorkId>,
    citations: &[Citation],
    expanded: &BTreeSet<WorkId>,
    limit: usize,
) -> Vec<WorkId> {
    let candidates: Vec<&WorkId> = judgement
        .relevant
        .keys()
        .filter(|id| !expanded.contains(*id) && works.contains_key(*id))
        .collect();
    if candidates.len() <= 1 || limit >= candidates.len() {
        return candidates.into_iter().take(limit).cloned().collect();
    }
    let nodes: Vec<WorkId> = works.keys().cloned().collect();
    let graph = CitationGraph::new(&nodes, citations);
    let pagerank = graph.pagerank();
    let betweenness = graph.betweenness_among(&nodes, BETWEENNESS_PIVOTS);
    let now = works
        .values()
        .filter_map(|work| work.year)
        .max()
        .unwrap_or(0);
    let signals: Vec<[f64; SIGNALS]> = candidates
        .iter()
        .map(|id| {
            let work = &works[*id];
            let cited_inside = graph.in_degree(id) as f64;
            let cited_all = f64::from(work.cited_by_count.unwrap_or(0));
            let age = work.year.map_or(10, |year| (now - year).max(0) + 1);
            let rising = cited_all / f64::from(age);
            let unknown_references = work
                .references
                .iter()
                .filter(|reference| !known.contains(reference))
                .count() as f64;
            let unseen_citers = (cited_all - cited_inside).max(0.0);
            let central = pagerank.get(*id).copied().unwrap_or(0.0);
            let bridging = betweenness.get(*id).copied().unwrap_or(0.0);
            [
                cited_inside,
                rising,
                unknown_references + unseen_citers,
                central,
                bridging,
            ]
        })
        .collect();
    let mut percentiles: Vec<[f64; SIGNALS]> = vec![[0.0; SIGNALS]; candidates.len()];
    for signal in 0..SIGNALS {
        let values: Vec<f64> = signals.iter().map(|lifts| lifts[signal]).collect();
        for (lifts, percentile) in percentiles.iter_mut().zip(percentiles_of(&values)) {
            lifts[signal] = percentile;
        }
    }
    let mut ranked: Vec<(f64, &WorkId)> = candidates
        .iter()
        .zip(&percentiles)
        .map(|(id, lifts)| {
            let relevance = f64::from(judgement.scores.get(*id).copied().unwrap_or(0.0));
            (
                relevance * (1.0 + lifts.iter().sum::<f64>() / SIGNALS as f64),
                *id,
            )
        })
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    ranked
        .into_iter()
        .take(limit)
        .map(|(_, id)| id.clone())
        .collect()
}

/// Each value's percentile among `values`, 0 for the least and 1 for the greatest (0 for a
/// lone value); equal values share the mean of their ranks, so a tie lifts no work over
/// another.
fn percentiles_of(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let last = (values.len().max(2) - 1) as f64;
    let mut out = vec![0.0; values.len()];
    let mut start = 0;
    for tied in order.chunk_by(|&a, &b| values[a] == values[b]) {
        let mean_rank = (2 * start + tied.len() - 1) as f64 / 2.0;
        for &position in tied {
            out[position] = mean_rank / last;
        }
        start += tied.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Basis;
    use crate::test_works::work;

    #[test]
    fn a_work_bridging_two_groups_goes_first_among_equals() {
        // W9 cites W3 and W5, the only link between {W3, W4} and {W5, W6}; W1 cites W3 and W4,
        // which cite each other. Equal scores, equal counts: only bridging tells them apart,
        // and the tie would otherwise go to the lower id.
        let records = [
            work("W1", "a", &["W3", "W4"]),
            work("W9", "b", &["W3", "W5"]),
            work("W3", "c", &[]),
            work("W4", "d", &["W3"]),
            work("W5", "e", &[]),
            work("W6", "f", &["W5"]),
        ];
        let works: BTreeMap<WorkId, Work> = records
            .iter()
            .map(|work| (work.id(), work.clone()))
            .collect();
        let id = |text: &str| text.parse::<WorkId>().expect("id");
        let judgement = Judgement {
            scores: [(id("W1"), 0.5), (id("W9"), 0.5)].into(),
            relevant: [(id("W1"), Basis::Semantic), (id("W9"), Basis::Semantic)].into(),
            threshold: 0.1,
        };
        let known: BTreeSet<&WorkId> = works.keys().collect();
        let all: Vec<&Work> = works.values().collect();
        let citations = litrev_graph::edges_within(&all, &known);
        let order = frontier(&judgement, &works, &known, &citations, &BTreeSet::new(), 1);
        assert_eq!(order, [id("W9")]);
    }

    #[test]
    fn tied_values_share_their_percentile() {
        assert_eq!(
            percentiles_of(&[3.0, 1.0, 3.0, 0.0]),
            [5.0 / 6.0, 1.0 / 3.0, 5.0 / 6.0, 0.0]
        );
        assert_eq!(percentiles_of(&[7.0]), [0.0]);
    }
}
