//! Citation-graph measures over a set of works.
//!
//! Snowballing, screening and organising all ask the graph the same questions (who is cited
//! most inside the corpus, which works share references or citers), so the answers live here.
//!
//! ```
//! use litrev_graph::CitationGraph;
//! use litrev_model::{Citation, WorkId};
//! let id = |text: &str| text.parse::<WorkId>().unwrap();
//! let nodes = [id("W1"), id("W2"), id("W3")];
//! let edges = [
//!     Citation { citing: id("W2"), cited: id("W1") },
//!     Citation { citing: id("W3"), cited: id("W1") },
//! ];
//! let graph = CitationGraph::new(&nodes, &edges);
//! assert_eq!(graph.in_degree(&id("W1")), 2);
//! ```

use std::collections::{BTreeMap, BTreeSet};

use litrev_model::{Citation, Work, WorkId};

/// A directed citation graph restricted to a node set.
#[derive(Debug, Clone)]
pub struct CitationGraph {
    nodes: Vec<WorkId>,
    index: BTreeMap<WorkId, usize>,
    /// `cites[i]`: nodes that node i cites, sorted.
    cites: Vec<Vec<usize>>,
    /// `cited_by[i]`: nodes that cite node i, sorted.
    cited_by: Vec<Vec<usize>>,
}

impl CitationGraph {
    /// Builds the graph of `nodes`, keeping only edges whose both ends are nodes.
    pub fn new(nodes: &[WorkId], edges: &[Citation]) -> CitationGraph {
        let mut unique: Vec<WorkId> = nodes.to_vec();
        unique.sort();
        unique.dedup();
        let index: BTreeMap<WorkId, usize> = unique
            .iter()
            .enumerate()
            .map(|(position, id)| (id.clone(), position))
            .collect();
        let mut cites = vec![Vec::new(); unique.len()];
        let mut cited_by = vec![Vec::new(); unique.len()];
        for edge in edges {
            if let (Some(&from), Some(&to)) = (index.get(&edge.citing), index.get(&edge.cited))
                && from != to
            {
                cites[from].push(to);
                cited_by[to].push(from);
            }
        }
        for list in cites.iter_mut().chain(cited_by.iter_mut()) {
            list.sort_unstable();
            list.dedup();
        }
        CitationGraph {
            nodes: unique,
            index,
            cites,
            cited_by,
        }
    }

    /// The nodes, sorted by id.
    pub fn nodes(&self) -> &[WorkId] {
        &self.nodes
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.cites.iter().map(Vec::len).sum()
    }

    /// Citations a work receives from the node set (0 for unknown works).
    pub fn in_degree(&self, id: &WorkId) -> usize {
        self.index
            .get(id)
            .map_or(0, |&node| self.cited_by[node].len())
    }

    /// References a work makes into the node set.
    pub fn out_degree(&self, id: &WorkId) -> usize {
        self.index.get(id).map_or(0, |&node| self.cites[node].len())
    }

    /// PageRank of every node (damping 0.85, dangling mass spread evenly), summing to 1.
    pub fn pagerank(&self) -> BTreeMap<WorkId, f64> {
        let n = self.nodes.len();
        if n == 0 {
            return BTreeMap::new();
        }
        let damping = 0.85;
        let mut rank = vec![1.0 / n as f64; n];
        for _ in 0..100 {
            let dangling: f64 = (0..n)
                .filter(|&node| self.cites[node].is_empty())
                .map(|node| rank[node])
                .sum();
            let base = (1.0 - damping) / n as f64 + damping * dangling / n as f64;
            let mut next = vec![base; n];
            for (node, targets) in self.cites.iter().enumerate() {
                if targets.is_empty() {
                    continue;
                }
                let share = damping * rank[node] / targets.len() as f64;
                for &target in targets {
                    next[target] += share;
                }
            }
            let change: f64 = next.iter().zip(&rank).map(|(a, b)| (a - b).abs()).sum();
            rank = next;
            if change < 1e-10 {
                break;
            }
        }
        self.nodes.iter().cloned().zip(rank).collect()
    }

    /// How many nodes cite both `a` and `b` (co-citation strength).
    pub fn co_citation(&self, a: &WorkId, b: &WorkId) -> usize {
        match (self.index.get(a), self.index.get(b)) {
            (Some(&a), Some(&b)) => count_shared(&self.cited_by[a], &self.cited_by[b]),
            _ => 0,
        }
    }

    /// How many nodes both `a` and `b` cite (bibliographic-coupling strength).
    pub fn coupling(&self, a: &WorkId, b: &WorkId) -> usize {
        match (self.index.get(a), self.index.get(b)) {
            (Some(&a), Some(&b)) => count_shared(&self.cites[a], &self.cites[b]),
            _ => 0,
        }
    }

    /// Nodes the work cites.
    pub fn references_of(&self, id: &WorkId) -> Vec<&WorkId> {
        self.index.get(id).map_or_else(Vec::new, |&node| {
            self.cites[node]
                .iter()
                .map(|&other| &self.nodes[other])
                .collect()
        })
    }

    /// Nodes citing the work.
    pub fn citers_of(&self, id: &WorkId) -> Vec<&WorkId> {
        self.index.get(id).map_or_else(Vec::new, |&node| {
            self.cited_by[node]
                .iter()
                .map(|&other| &self.nodes[other])
                .collect()
        })
    }
}

/// Citation edges among a set of works: `a → b` whenever `a` lists `b` and both are in `ids`.
pub fn edges_within(works: &[&Work], ids: &BTreeSet<&WorkId>) -> Vec<Citation> {
    let mut edges: BTreeSet<Citation> = BTreeSet::new();
    for work in works {
        let citing = work.id();
        for reference in &work.references {
            if ids.contains(reference) && *reference != citing {
                edges.insert(Citation {
                    citing: citing.clone(),
                    cited: reference.clone(),
                });
            }
        }
    }
    edges.into_iter().collect()
}

fn count_shared(a: &[usize], b: &[usize]) -> usize {
    let (mut i, mut j, mut shared) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    shared
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(text: &str) -> WorkId {
        text.parse().expect("id")
    }

    fn edge(citing: &str, cited: &str) -> Citation {
        Citation {
            citing: id(citing),
            cited: id(cited),
        }
    }

    #[test]
    fn measures_a_small_graph() {
        let nodes = [id("W1"), id("W2"), id("W3"), id("W4")];
        let edges = [
            edge("W2", "W1"),
            edge("W3", "W1"),
            edge("W4", "W1"),
            edge("W3", "W2"),
            edge("W4", "W2"),
            edge("W4", "W9"),
        ];
        let graph = CitationGraph::new(&nodes, &edges);
        assert_eq!(graph.edge_count(), 5, "the edge to W9 leaves the node set");
        assert_eq!(graph.in_degree(&id("W1")), 3);
        assert_eq!(graph.co_citation(&id("W1"), &id("W2")), 2);
        assert_eq!(graph.coupling(&id("W3"), &id("W4")), 2);
        let rank = graph.pagerank();
        let total: f64 = rank.values().sum();
        assert!((total - 1.0).abs() < 1e-9);
        assert!(rank[&id("W1")] > rank[&id("W2")]);
        assert!(rank[&id("W2")] > rank[&id("W4")]);
    }
}
