//! TF-IDF vectors over a corpus of texts, and their cosine similarity.

use std::collections::{BTreeMap, HashMap};

use rayon::prelude::*;

use crate::terms::{terms, terms_of_each};

/// Document frequencies of a set of texts: the IDF side of TF-IDF.
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    /// Term → id, ids given in order of first appearance. Only looked up, never iterated, so
    /// a hash map (a vocabulary lookup per word of every text) keeps outputs deterministic.
    ids: HashMap<String, u32>,
    /// `terms[id]`: the term behind an id.
    terms: Vec<String>,
    document_frequency: Vec<u32>,
    documents: u32,
}

/// An L2-normalised sparse vector: term ids ascending with their weights.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SparseVector {
    entries: Vec<(u32, f32)>,
}

impl Corpus {
    /// Counts in how many texts each term occurs.
    pub fn fit<'a>(texts: impl IntoIterator<Item = &'a str>) -> Corpus {
        let texts: Vec<&str> = texts.into_iter().collect();
        let documents = terms_of_each(&texts);
        Corpus::fit_terms(documents.iter().map(Vec::as_slice))
    }

    /// The corpus of `texts` and each text's vector in it, in order: the texts are read once,
    /// on every core.
    pub fn with_vectors<S: AsRef<str> + Sync>(texts: &[S]) -> (Corpus, Vec<SparseVector>) {
        let documents = terms_of_each(texts);
        let corpus = Corpus::fit_terms(documents.iter().map(Vec::as_slice));
        let vectors = corpus.vectors_of_each(&documents);
        (corpus, vectors)
    }

    /// Counts in how many documents each term occurs, the documents given as their [`terms`]
    /// (from [`crate::terms_of_each`], which reads texts on every core).
    pub fn fit_terms<'a>(documents: impl IntoIterator<Item = &'a [String]>) -> Corpus {
        let mut corpus = Corpus::default();
        for terms in documents {
            corpus.add_terms(terms);
        }
        corpus
    }

    /// Adds one more text to the counts.
    pub fn add(&mut self, text: &str) {
        self.add_terms(&terms(text));
    }

    /// Adds one more document, given as its [`terms`], to the counts.
    pub fn add_terms(&mut self, terms: &[String]) {
        let mut seen: Vec<u32> = terms.iter().map(|term| self.intern(term)).collect();
        seen.sort_unstable();
        seen.dedup();
        for id in seen {
            self.document_frequency[id as usize] += 1;
        }
        self.documents += 1;
    }

    /// Number of texts counted.
    pub fn len(&self) -> usize {
        self.documents as usize
    }

    /// Whether no text was counted.
    pub fn is_empty(&self) -> bool {
        self.documents == 0
    }

    /// Smoothed inverse document frequency of a stemmed term (terms never seen get the highest).
    pub fn idf(&self, term: &str) -> f32 {
        let frequency = self
            .ids
            .get(term)
            .map(|&id| self.document_frequency[id as usize])
            .unwrap_or(0);
        ((1.0 + self.documents as f32) / (1.0 + frequency as f32)).ln() + 1.0
    }

    /// The TF-IDF vector of a text (sublinear term frequency), L2-normalised.
    ///
    /// Terms the corpus has never seen are dropped: they cannot be compared.
    pub fn vector(&self, text: &str) -> SparseVector {
        self.vector_of_terms(&terms(text))
    }

    /// [`Corpus::vector`] of each document given as its [`terms`], in order, on every core.
    pub fn vectors_of_each(&self, documents: &[Vec<String>]) -> Vec<SparseVector> {
        documents
            .par_iter()
            .map(|terms| self.vector_of_terms(terms))
            .collect()
    }

    /// [`Corpus::vector`] of a document given as its [`terms`].
    pub fn vector_of_terms(&self, terms: &[String]) -> SparseVector {
        let mut counts: BTreeMap<u32, u32> = BTreeMap::new();
        for term in terms {
            if let Some(&id) = self.ids.get(term) {
                *counts.entry(id).or_default() += 1;
            }
        }
        let entries = counts
            .into_iter()
            .map(|(id, count)| {
                let frequency = self.document_frequency[id as usize];
                let idf = ((1.0 + self.documents as f32) / (1.0 + frequency as f32)).ln() + 1.0;
                (id, (1.0 + (count as f32).ln()) * idf)
            })
            .collect();
        SparseVector::normalised(entries)
    }

    /// The stemmed term behind an id of a vector.
    pub fn term(&self, id: u32) -> Option<&str> {
        self.terms.get(id as usize).map(String::as_str)
    }

    fn intern(&mut self, term: &str) -> u32 {
        let next = self.ids.len() as u32;
        if let Some(&id) = self.ids.get(term) {
            return id;
        }
        self.ids.insert(term.to_owned(), next);
        self.terms.push(term.to_owned());
        self.document_frequency.push(0);
        next
    }
}

impl SparseVector {
    /// Builds a vector from (id, weight) pairs sorted by id, scaling it to unit length.
    pub fn normalised(mut entries: Vec<(u32, f32)>) -> SparseVector {
        entries.sort_unstable_by_key(|&(id, _)| id);
        let norm = entries
            .iter()
            .map(|(_, weight)| weight * weight)
            .sum::<f32>()
            .sqrt();
        if norm > 0.0 {
            for (_, weight) in &mut entries {
                *weight /= norm;
            }
        }
        SparseVector { entries }
    }

    /// Cosine similarity (the dot product of two unit vectors), 0 when either is empty.
    pub fn cosine(&self, other: &SparseVector) -> f32 {
        let (mut left, mut right) = (
            self.entries.iter().peekable(),
            other.entries.iter().peekable(),
        );
        let mut dot = 0.0;
        while let (Some(&&(a, wa)), Some(&&(b, wb))) = (left.peek(), right.peek()) {
            match a.cmp(&b) {
                std::cmp::Ordering::Less => {
                    left.next();
                }
                std::cmp::Ordering::Greater => {
                    right.next();
                }
                std::cmp::Ordering::Equal => {
                    dot += wa * wb;
                    left.next();
                    right.next();
                }
            }
        }
        dot
    }

    /// The sum of several vectors, renormalised: a centroid direction.
    pub fn centroid<'a>(vectors: impl IntoIterator<Item = &'a SparseVector>) -> SparseVector {
        let mut sums: BTreeMap<u32, f32> = BTreeMap::new();
        for vector in vectors {
            for &(id, weight) in &vector.entries {
                *sums.entry(id).or_default() += weight;
            }
        }
        SparseVector::normalised(sums.into_iter().collect())
    }

    /// The (id, weight) entries, ids ascending.
    pub fn entries(&self) -> &[(u32, f32)] {
        &self.entries
    }

    /// Whether the vector has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn similar_texts_score_higher_than_unrelated_ones() {
        let corpus = Corpus::fit([
            "insulin pump therapy in children with type 1 diabetes",
            "continuous glucose monitoring in adolescents",
            "school meals and obesity",
            "insulin injections versus pumps",
        ]);
        let question = corpus.vector("insulin pumps for children");
        let close = corpus.vector("insulin pump therapy in children with type 1 diabetes");
        let far = corpus.vector("school meals and obesity");
        assert!(question.cosine(&close) > 0.5);
        assert_eq!(question.cosine(&far), 0.0);
        assert!((close.cosine(&close) - 1.0).abs() < 1e-5);
    }

    #[test]
    fn rare_terms_weigh_more() {
        let corpus = Corpus::fit(["common rare", "common", "common"]);
        assert!(corpus.idf("rare") > corpus.idf("common"));
        assert!(corpus.idf("unseen") > corpus.idf("rare"));
    }

    #[test]
    fn centroid_points_between() {
        let corpus = Corpus::fit(["alpha beta", "gamma delta"]);
        let middle = SparseVector::centroid([&corpus.vector("alpha"), &corpus.vector("gamma")]);
        assert!(middle.cosine(&corpus.vector("alpha")) > 0.5);
        assert!(middle.cosine(&corpus.vector("gamma")) > 0.5);
    }
}
