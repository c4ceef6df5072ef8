//! The embedding view: Ward agglomerative clustering (kodama) of sentence embeddings, cut where
//! the wanted number of themes of at least the minimum size appears.

use kodama::{Method, linkage};

/// Sentence embeddings of works by one model, L2-normalised (a dot product is a cosine).
#[derive(Debug, Clone, PartialEq)]
pub struct Embeddings {
    /// The model that computed them, as `litrev-embed` names it (weights and truncation).
    pub model: String,
    /// One vector per work.
    pub vectors: std::collections::BTreeMap<litrev_model::WorkId, Vec<f32>>,
}

/// Groups `vectors` into `wanted` clusters of at least `min_size` members where the dendrogram
/// allows; members of smaller clusters get `None` (the caller places or sets them aside).
///
/// Ward on Euclidean distances of unit vectors (`sqrt(2 - 2 cos)`) merges whatever raises the
/// within-group variance least, which keeps groups of comparable size; the dendrogram is cut at
/// the fewest clusters that hold `wanted` groups of `min_size`, so a handful of stray works
/// becomes unplaced rather than a theme of one.
pub fn cluster(vectors: &[&[f32]], wanted: usize, min_size: usize) -> Vec<Option<usize>> {
    let n = vectors.len();
    if n < 2 || wanted < 2 {
        return vec![Some(0); n];
    }
    let mut condensed = Vec::with_capacity(n * (n - 1) / 2);
    for (row, a) in vectors.iter().enumerate() {
        for b in &vectors[row + 1..] {
            condensed.push((2.0 - 2.0 * dot(a, b)).max(0.0).sqrt());
        }
    }
    let dendrogram = linkage(&mut condensed, n, Method::Ward);
    let steps = dendrogram.steps();
    let mut best: Option<(usize, Vec<usize>)> = None;
    for clusters in wanted..=n.min(wanted * 3) {
        let labels = cut(n, steps, clusters);
        let big = sizes(&labels)
            .iter()
            .filter(|size| **size >= min_size)
            .count();
        if best.as_ref().is_none_or(|(most, _)| big > *most) {
            best = Some((big, labels));
        }
        if big >= wanted {
            break;
        }
    }
    let Some((_, labels)) = best else {
        return vec![Some(0); n];
    };
    let counts = sizes(&labels);
    let mut renumbered = std::collections::BTreeMap::new();
    labels
        .iter()
        .map(|&label| {
            (counts[label] >= min_size).then(|| {
                let next = renumbered.len();
                *renumbered.entry(label).or_insert(next)
            })
        })
        .collect()
}

/// Cosine of two unit vectors.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The unit-length mean direction of some vectors.
pub fn centroid<'a>(members: impl Iterator<Item = &'a [f32]>) -> Vec<f32> {
    let mut sum: Vec<f32> = Vec::new();
    for member in members {
        if sum.is_empty() {
            sum = vec![0.0; member.len()];
        }
        for (total, value) in sum.iter_mut().zip(member) {
            *total += value;
        }
    }
    let norm = dot(&sum, &sum).sqrt();
    if norm > 0.0 {
        for value in &mut sum {
            *value /= norm;
        }
    }
    sum
}

/// Labels `0..clusters` of the `n` observations after the first `n - clusters` merges, numbered
/// by each cluster's first observation.
fn cut(n: usize, steps: &[kodama::Step<f32>], clusters: usize) -> Vec<usize> {
    // parent[c] for observations (c < n) and merged clusters (n + step).
    let mut parent: Vec<usize> = (0..n + steps.len()).collect();
    for (index, step) in steps.iter().take(n.saturating_sub(clusters)).enumerate() {
        parent[step.cluster1] = n + index;
        parent[step.cluster2] = n + index;
    }
    let root = |mut node: usize| {
        while parent[node] != node {
            node = parent[node];
        }
        node
    };
    let mut numbering = std::collections::BTreeMap::new();
    (0..n)
        .map(|observation| {
            let next = numbering.len();
            *numbering.entry(root(observation)).or_insert(next)
        })
        .collect()
}

fn sizes(labels: &[usize]) -> Vec<usize> {
    let mut counts = vec![0; labels.iter().max().map_or(0, |max| max + 1)];
    for &label in labels {
        counts[label] += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(values: &[f32]) -> Vec<f32> {
        let norm = dot(values, values).sqrt();
        values.iter().map(|value| value / norm).collect()
    }

    #[test]
    fn three_directions_give_three_groups_and_a_stray_stays_unplaced() {
        let mut vectors = Vec::new();
        for axis in 0..3 {
            for jitter in 0..5 {
                let mut values = [0.05 * jitter as f32; 4];
                values[axis] = 1.0;
                vectors.push(unit(&values));
            }
        }
        vectors.push(unit(&[0.0, 0.0, 0.0, 1.0]));
        let slices: Vec<&[f32]> = vectors.iter().map(Vec::as_slice).collect();
        // Three groups in a corpus that can hold four themes: the stray is no theme of its own.
        let labels = cluster(&slices, 4, 3);
        assert_eq!(labels[15], None, "the lone fourth direction is no theme");
        for axis in 0..3 {
            let group = labels[axis * 5];
            assert!(group.is_some());
            assert!(labels[axis * 5..axis * 5 + 5].iter().all(|l| *l == group));
        }
        let distinct: std::collections::BTreeSet<_> = labels.iter().flatten().collect();
        assert_eq!(distinct.len(), 3);

        // Asked for three themes, Ward joins the stray to its nearest group instead.
        let labels = cluster(&slices, 3, 3);
        assert!(labels.iter().all(Option::is_some));
        let distinct: std::collections::BTreeSet<_> = labels.iter().flatten().collect();
        assert_eq!(distinct.len(), 3);
    }

    #[test]
    fn cutting_before_any_merge_keeps_every_observation_apart() {
        let vectors = [unit(&[1.0, 0.0]), unit(&[0.0, 1.0]), unit(&[1.0, 1.0])];
        let slices: Vec<&[f32]> = vectors.iter().map(Vec::as_slice).collect();
        let mut condensed = vec![
            (2.0 - 2.0 * dot(slices[0], slices[1])).sqrt(),
            (2.0 - 2.0 * dot(slices[0], slices[2])).sqrt(),
            (2.0 - 2.0 * dot(slices[1], slices[2])).sqrt(),
        ];
        let dendrogram = linkage(&mut condensed, 3, Method::Ward);
        assert_eq!(cut(3, dendrogram.steps(), 3), vec![0, 1, 2]);
        assert_eq!(cut(3, dendrogram.steps(), 1), vec![0, 0, 0]);
    }
}
