//! Which relevant works a stage expands first, when it cannot expand them all.
//!
//! A work's priority is its relevance score lifted by four signals of the design, each as a
//! percentile among the candidates: cited often inside the corpus (seminal), cited fast for its
//! age (rising), many links not yet explored (references outside the corpus, citers not yet
//! seen), and central in the corpus's citation graph (PageRank). The signals only reorder works
//! of similar relevance: a central but barely relevant work does not jump the queue.

use std::collections::{BTreeMap, BTreeSet};

use litrev_graph::CitationGraph;
use litrev_model::{Citation, Work, WorkId};

use crate::judge::Judgement;

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
    let now = works
        .values()
        .filter_map(|work| work.year)
        .max()
        .unwrap_or(0);
    let signals: Vec<[f64; 4]> = candidates
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
            [
                cited_inside,
                rising,
                unknown_references + unseen_citers,
                central,
            ]
        })
        .collect();
    let percentiles: Vec<[f64; 4]> = {
        let mut out = vec![[0.0; 4]; candidates.len()];
        for signal in 0..4 {
            let mut order: Vec<usize> = (0..candidates.len()).collect();
            order.sort_by(|&a, &b| signals[a][signal].total_cmp(&signals[b][signal]));
            let last = (candidates.len() - 1) as f64;
            for (rank, &position) in order.iter().enumerate() {
                out[position][signal] = rank as f64 / last;
            }
        }
        out
    };
    let mut ranked: Vec<(f64, &WorkId)> = candidates
        .iter()
        .zip(&percentiles)
        .map(|(id, lifts)| {
            let relevance = f64::from(judgement.scores.get(*id).copied().unwrap_or(0.0));
            (relevance * (1.0 + lifts.iter().sum::<f64>() / 4.0), *id)
        })
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    ranked
        .into_iter()
        .take(limit)
        .map(|(_, id)| id.clone())
        .collect()
}
