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

    /// Betweenness of each of `members` on the paths between members (Brandes, undirected):
    /// high for a work on the shortest links between included works that would otherwise hardly
    /// meet. Paths run through the members and the works linked to at least two of them (a
    /// shared reference or a shared citer), not through the rest of the corpus, so the cost
    /// follows the members' neighbourhood, not the corpus. Exact when there are at most
    /// `pivots` members; past that, paths from `pivots` members spread evenly over them
    /// (Brandes & Pich's pivot sampling, an unbiased estimate whose relative error falls as
    /// one over the square root of `pivots`). Normalised to 0–1 by the number of ordered
    /// pairs of other members.
    pub fn betweenness_among(&self, members: &[WorkId], pivots: usize) -> BTreeMap<WorkId, f64> {
        let n = self.nodes.len();
        let mut is_member = vec![false; n];
        for id in members {
            if let Some(&node) = self.index.get(id) {
                is_member[node] = true;
            }
        }
        let member_nodes: Vec<usize> = (0..n).filter(|&node| is_member[node]).collect();
        let neighbours_of = |node: usize| {
            let mut all: Vec<usize> = self.cites[node]
                .iter()
                .chain(&self.cited_by[node])
                .copied()
                .collect();
            all.sort_unstable();
            all.dedup();
            all
        };
        // Works outside the members count when they link two members or more.
        let mut touches = vec![0_u32; n];
        for &member in &member_nodes {
            for other in neighbours_of(member) {
                if !is_member[other] {
                    touches[other] += 1;
                }
            }
        }
        let kept: Vec<usize> = (0..n)
            .filter(|&node| is_member[node] || touches[node] >= 2)
            .collect();
        let mut local = vec![usize::MAX; n];
        for (position, &node) in kept.iter().enumerate() {
            local[node] = position;
        }
        let neighbours: Vec<Vec<usize>> = kept
            .iter()
            .map(|&node| {
                neighbours_of(node)
                    .into_iter()
                    .filter(|&other| local[other] != usize::MAX)
                    .map(|other| local[other])
                    .collect()
            })
            .collect();
        let target: Vec<bool> = kept.iter().map(|&node| is_member[node]).collect();
        let sources: Vec<usize> = member_nodes.iter().map(|&node| local[node]).collect();
        let chosen: Vec<usize> = if sources.len() <= pivots.max(1) {
            sources.clone()
        } else {
            // Evenly spaced over the members in id order: deterministic, and id order is
            // unrelated to the graph's structure.
            let step = sources.len() as f64 / pivots.max(1) as f64;
            (0..pivots.max(1))
                .map(|pick| sources[(pick as f64 * step) as usize])
                .collect()
        };
        let size = kept.len();
        let mut centrality = vec![0.0_f64; size];
        let mut predecessors: Vec<Vec<usize>> = vec![Vec::new(); size];
        let mut paths = vec![0.0_f64; size];
        let mut distance = vec![usize::MAX; size];
        let mut dependency = vec![0.0_f64; size];
        let mut stack: Vec<usize> = Vec::new();
        let mut queue = std::collections::VecDeque::new();
        for &source in &chosen {
            paths[source] = 1.0;
            distance[source] = 0;
            queue.push_back(source);
            while let Some(node) = queue.pop_front() {
                stack.push(node);
                for &next in &neighbours[node] {
                    if distance[next] == usize::MAX {
                        distance[next] = distance[node] + 1;
                        queue.push_back(next);
                    }
                    if distance[next] == distance[node] + 1 {
                        paths[next] += paths[node];
                        predecessors[next].push(node);
                    }
                }
            }
            while let Some(node) = stack.pop() {
                let reached = f64::from(u8::from(target[node] && node != source));
                for &previous in &predecessors[node] {
                    dependency[previous] +=
                        paths[previous] / paths[node] * (reached + dependency[node]);
                }
                if node != source {
                    centrality[node] += dependency[node];
                }
                // Reset what this source touched, so the next one starts clean.
                predecessors[node].clear();
                paths[node] = 0.0;
                distance[node] = usize::MAX;
                dependency[node] = 0.0;
            }
        }
        let scale = sources.len() as f64 / chosen.len().max(1) as f64;
        let pairs = if sources.len() > 2 {
            ((sources.len() - 1) * (sources.len() - 2)) as f64
        } else {
            1.0
        };
        member_nodes
            .iter()
            .map(|&node| {
                (
                    self.nodes[node].clone(),
                    centrality[local[node]] * scale / pairs,
                )
            })
            .collect()
    }

    /// Citation communities of `members` (Leiden, modularity at `resolution`, seeded): works
    /// are linked by direct citation, bibliographic coupling and co-citation, each counted
    /// through every node of the graph (references outside `members` included). Works with no
    /// link to another member are absent from the result.
    pub fn communities(
        &self,
        members: &[WorkId],
        resolution: f64,
        seed: u64,
    ) -> BTreeMap<WorkId, usize> {
        let mut unique: Vec<usize> = members
            .iter()
            .filter_map(|id| self.index.get(id).copied())
            .collect();
        unique.sort_unstable();
        unique.dedup();
        let mut edges: Vec<(usize, usize, f64)> = Vec::new();
        for (a_position, &a) in unique.iter().enumerate() {
            for (b_offset, &b) in unique[a_position + 1..].iter().enumerate() {
                let direct = usize::from(self.cites[a].binary_search(&b).is_ok())
                    + usize::from(self.cites[b].binary_search(&a).is_ok());
                let weight = direct as f64
                    + count_shared(&self.cites[a], &self.cites[b]) as f64
                    + count_shared(&self.cited_by[a], &self.cited_by[b]) as f64;
                if weight > 0.0 {
                    edges.push((a_position, a_position + 1 + b_offset, weight));
                }
            }
        }
        let mut linked: Vec<usize> = edges.iter().flat_map(|&(a, b, _)| [a, b]).collect();
        linked.sort_unstable();
        linked.dedup();
        if linked.is_empty() {
            return BTreeMap::new();
        }
        let compact: BTreeMap<usize, usize> = linked
            .iter()
            .enumerate()
            .map(|(position, &member)| (member, position))
            .collect();
        let mut builder = leiden_rs::GraphDataBuilder::new(linked.len());
        for &(a, b, weight) in &edges {
            // Indices come from `compact`, so the builder accepts every edge.
            if builder.add_edge(compact[&a], compact[&b], weight).is_err() {
                return BTreeMap::new();
            }
        }
        let Ok(graph) = builder.build() else {
            return BTreeMap::new();
        };
        let config = leiden_rs::LeidenConfig::builder()
            .resolution(resolution)
            .seed(seed)
            .build();
        let Ok(result) = leiden_rs::Leiden::new(config).run(&graph) else {
            return BTreeMap::new();
        };
        linked
            .iter()
            .enumerate()
            .map(|(position, &member)| {
                (
                    self.nodes[unique[member]].clone(),
                    result.partition.community_of(position),
                )
            })
            .collect()
    }

    /// Every node linked to one of `starts` through citations followed either way, any number
    /// of steps, the starts that are nodes included: what snowballing from them can reach.
    pub fn linked_to<'a>(&self, starts: impl IntoIterator<Item = &'a WorkId>) -> BTreeSet<&WorkId> {
        let mut seen = vec![false; self.nodes.len()];
        let mut queue: Vec<usize> = starts
            .into_iter()
            .filter_map(|id| self.index.get(id).copied())
            .collect();
        for &node in &queue {
            seen[node] = true;
        }
        while let Some(node) = queue.pop() {
            for &next in self.cites[node].iter().chain(&self.cited_by[node]) {
                if !seen[next] {
                    seen[next] = true;
                    queue.push(next);
                }
            }
        }
        self.nodes
            .iter()
            .zip(seen)
            .filter(|(_, seen)| *seen)
            .map(|(id, _)| id)
            .collect()
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

/// Citations a work gathers per year since it appeared (`cited_by_count` over its age, the
/// current year counting as one): how fast the field takes it up.
pub fn citation_velocity(work: &Work, current_year: i32) -> Option<f64> {
    let year = work.year?;
    let age = (current_year - year).max(0) + 1;
    Some(f64::from(work.cited_by_count?) / f64::from(age))
}

/// Normalised mutual information (arithmetic-mean normalisation) between two labelings of the
/// same items, given as `(a, b)` label pairs: 1 for identical partitions, near 0 for unrelated.
pub fn normalised_mutual_information(pairs: &[(usize, usize)]) -> f64 {
    let n = pairs.len() as f64;
    if pairs.is_empty() {
        return 0.0;
    }
    let mut joint: BTreeMap<(usize, usize), f64> = BTreeMap::new();
    let mut left: BTreeMap<usize, f64> = BTreeMap::new();
    let mut right: BTreeMap<usize, f64> = BTreeMap::new();
    for &(a, b) in pairs {
        *joint.entry((a, b)).or_default() += 1.0;
        *left.entry(a).or_default() += 1.0;
        *right.entry(b).or_default() += 1.0;
    }
    let entropy = |counts: &BTreeMap<usize, f64>| -> f64 {
        counts
            .values()
            .map(|&count| {
                let p = count / n;
                -p * p.ln()
            })
            .sum()
    };
    let mutual: f64 = joint
        .iter()
        .map(|(&(a, b), &count)| {
            let p = count / n;
            p * (p / ((left[&a] / n) * (right[&b] / n))).ln()
        })
        .sum();
    let mean_entropy = (entropy(&left) + entropy(&right)) / 2.0;
    if mean_entropy <= 0.0 {
        // Both labelings put everything in one group: they agree completely.
        1.0
    } else {
        mutual / mean_entropy
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
mod analytics_tests {
    use super::*;

    fn id(text: &str) -> WorkId {
        text.parse().expect("id")
    }

    fn cite(citing: &str, cited: &str) -> Citation {
        Citation {
            citing: id(citing),
            cited: id(cited),
        }
    }

    #[test]
    fn betweenness_among_members_finds_the_work_between_two_groups() {
        // Two groups of members, W1–W3 and W4–W6, whose only link is a work they both meet:
        // W7 cites W1 and W4. W8 is linked to one member only, so no path runs through it.
        let edges = [
            cite("W1", "W2"),
            cite("W2", "W3"),
            cite("W3", "W1"),
            cite("W4", "W5"),
            cite("W5", "W6"),
            cite("W6", "W4"),
            cite("W7", "W1"),
            cite("W7", "W4"),
            cite("W8", "W2"),
        ];
        let nodes: Vec<WorkId> = (1..=8).map(|n| id(&format!("W{n}"))).collect();
        let graph = CitationGraph::new(&nodes, &edges);
        let members: Vec<WorkId> = [1, 2, 3, 4, 5, 6].map(|n| id(&format!("W{n}"))).to_vec();
        let exact = graph.betweenness_among(&members, 100);
        assert_eq!(exact.len(), 6, "one value per member: {exact:?}");
        // W1 and W4 carry every path between the groups: 9 ordered pairs each way of the
        // 3 × 3 across, less those starting or ending at themselves.
        assert!(exact[&id("W1")] > exact[&id("W2")], "{exact:?}");
        assert!(
            (exact[&id("W1")] - exact[&id("W4")]).abs() < 1e-12,
            "{exact:?}"
        );
        assert!(
            exact[&id("W2")] < 1e-12,
            "a triangle corner bridges nothing: {exact:?}"
        );
        // W1 lies on the paths from W2 and W3 to W4, W5, W6 and back: 12 of the 20 ordered
        // pairs of the other five members.
        assert!((exact[&id("W1")] - 12.0 / 20.0).abs() < 1e-12, "{exact:?}");
        // Sampled from three of the six members, the estimate keeps the bridge over the corners.
        let sampled = graph.betweenness_among(&members, 3);
        assert!(sampled[&id("W1")] > sampled[&id("W2")], "{sampled:?}");
    }

    #[test]
    fn communities_recover_two_coupled_groups() {
        // W1–W3 all cite R1 and R2; W4–W6 all cite R3 and R4: two coupling groups.
        let mut edges = Vec::new();
        for citing in ["W1", "W2", "W3"] {
            edges.extend([cite(citing, "W101"), cite(citing, "W102")]);
        }
        for citing in ["W4", "W5", "W6"] {
            edges.extend([cite(citing, "W103"), cite(citing, "W104")]);
        }
        let members: Vec<WorkId> = (1..=6).map(|n| id(&format!("W{n}"))).collect();
        let mut nodes = members.clone();
        nodes.extend((101..=104).map(|n| id(&format!("W{n}"))));
        nodes.push(id("W9"));
        let graph = CitationGraph::new(&nodes, &edges);
        let mut with_isolate = members.clone();
        with_isolate.push(id("W9"));
        let communities = graph.communities(&with_isolate, 1.0, 7);
        assert_eq!(communities.len(), 6, "the unlinked work has no community");
        assert_eq!(communities[&id("W1")], communities[&id("W3")]);
        assert_eq!(communities[&id("W4")], communities[&id("W6")]);
        assert_ne!(communities[&id("W1")], communities[&id("W4")]);
        assert_eq!(
            graph.communities(&with_isolate, 1.0, 7),
            communities,
            "seeded"
        );
    }

    #[test]
    fn nmi_of_identical_permuted_and_independent_labelings() {
        let same: Vec<(usize, usize)> = (0..100).map(|i| (i % 4, i % 4)).collect();
        assert!((normalised_mutual_information(&same) - 1.0).abs() < 1e-12);
        let permuted: Vec<(usize, usize)> = (0..100).map(|i| (i % 4, (i + 1) % 4)).collect();
        assert!((normalised_mutual_information(&permuted) - 1.0).abs() < 1e-12);
        let independent: Vec<(usize, usize)> = (0..400).map(|i| (i % 4, (i / 4) % 4)).collect();
        assert!(normalised_mutual_information(&independent).abs() < 0.05);
    }

    #[test]
    fn velocity_is_citations_per_year_of_age() {
        let work = Work {
            year: Some(2020),
            cited_by_count: Some(30),
            ..Work::stub(id("W1"))
        };
        assert_eq!(citation_velocity(&work, 2024), Some(6.0));
        assert_eq!(citation_velocity(&Work::stub(id("W2")), 2024), None);
    }
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

    #[test]
    fn links_are_followed_both_ways_any_number_of_steps() {
        let nodes = [id("W1"), id("W2"), id("W3"), id("W4"), id("W5")];
        // W3 → W1 ← W2 → W4, and W5 alone.
        let edges = [edge("W3", "W1"), edge("W2", "W1"), edge("W2", "W4")];
        let graph = CitationGraph::new(&nodes, &edges);
        let from = |start: &str| -> Vec<String> {
            graph
                .linked_to([&id(start)])
                .into_iter()
                .map(ToString::to_string)
                .collect()
        };
        assert_eq!(from("W3"), ["W1", "W2", "W3", "W4"]);
        assert_eq!(from("W5"), ["W5"]);
        assert!(graph.linked_to([&id("W9")]).is_empty(), "not a node");
    }
}
