//! Relevance of a text to a question and a few seed texts, by TF-IDF cosine.

use std::collections::BTreeMap;

use crate::terms::{content_words, stem};
use crate::tfidf::{Corpus, SparseVector};

/// A question (and seeds) turned into a direction in TF-IDF space.
#[derive(Debug, Clone)]
pub struct RelevanceProfile {
    corpus: Corpus,
    profile: SparseVector,
}

impl RelevanceProfile {
    /// Builds the profile: the question and the centroid of the seeds count equally.
    ///
    /// `corpus` supplies the IDF weights; it should hold the texts that will be scored.
    pub fn new(corpus: Corpus, question: &str, seeds: &[&str]) -> RelevanceProfile {
        let question_vector = corpus.vector(question);
        let profile = if seeds.is_empty() {
            question_vector
        } else {
            let seed_vectors: Vec<SparseVector> =
                seeds.iter().map(|seed| corpus.vector(seed)).collect();
            let seed_centroid = SparseVector::centroid(&seed_vectors);
            SparseVector::centroid([&question_vector, &seed_centroid])
        };
        RelevanceProfile { corpus, profile }
    }

    /// Builds the profile with relevance feedback: the question, the centroid of the seeds and
    /// the centroid of `feedback` (texts already judged relevant) count equally.
    ///
    /// Feedback brings in the words relevant texts share but the question does not use (a
    /// question on "glucocorticoids in hair" whose studies speak of "hair cortisol"); the
    /// question keeps a third of the weight so the profile cannot drift away from it. An empty
    /// `seeds` or `feedback` is left out.
    pub fn with_feedback(
        corpus: Corpus,
        question: &str,
        seeds: &[&str],
        feedback: &[&str],
    ) -> RelevanceProfile {
        let centroid_of = |texts: &[&str]| {
            let vectors: Vec<SparseVector> = texts.iter().map(|text| corpus.vector(text)).collect();
            SparseVector::centroid(&vectors)
        };
        let mut parts = vec![corpus.vector(question)];
        for texts in [seeds, feedback] {
            if !texts.is_empty() {
                parts.push(centroid_of(texts));
            }
        }
        let profile = SparseVector::centroid(&parts);
        RelevanceProfile { corpus, profile }
    }

    /// Cosine similarity of a text to the profile, 0–1.
    pub fn score(&self, text: &str) -> f32 {
        self.corpus.vector(text).cosine(&self.profile)
    }

    /// Cosine similarity of a vector of this profile's corpus to the profile, 0–1: scores many
    /// texts against several profiles without re-reading them.
    pub fn score_vector(&self, vector: &SparseVector) -> f32 {
        vector.cosine(&self.profile)
    }

    /// The words of `text` that contributed most to its score, best first, as they appear.
    pub fn driving_words(&self, text: &str, count: usize) -> Vec<String> {
        let vector = self.corpus.vector(text);
        let profile: BTreeMap<u32, f32> = self.profile.entries().iter().copied().collect();
        let mut contributions: Vec<(f32, u32)> = vector
            .entries()
            .iter()
            .filter_map(|&(id, weight)| profile.get(&id).map(|&other| (weight * other, id)))
            .collect();
        contributions.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let surface: BTreeMap<String, String> = content_words(text)
            .into_iter()
            .map(|word| (stem(&word), word))
            .rev()
            .collect();
        contributions
            .into_iter()
            .filter_map(|(_, id)| {
                let term = self.corpus.term(id)?;
                Some(
                    surface
                        .get(term)
                        .cloned()
                        .unwrap_or_else(|| term.to_owned()),
                )
            })
            .take(count)
            .collect()
    }

    /// The IDF corpus behind the profile.
    pub fn corpus(&self) -> &Corpus {
        &self.corpus
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_pull_the_profile_towards_their_topic() {
        let texts = [
            "emicizumab prophylaxis in haemophilia A",
            "factor VIII inhibitors in haemophilia",
            "knee surgery outcomes",
        ];
        let corpus = Corpus::fit(texts);
        let plain = RelevanceProfile::new(corpus.clone(), "haemophilia treatment", &[]);
        let seeded =
            RelevanceProfile::new(corpus, "haemophilia treatment", &["emicizumab prophylaxis"]);
        assert!(seeded.score(texts[0]) > plain.score(texts[0]));
        assert_eq!(seeded.score(texts[2]), 0.0);
        let fed = RelevanceProfile::with_feedback(
            Corpus::fit(texts),
            "haemophilia treatment",
            &[],
            &["factor VIII inhibitors"],
        );
        assert!(fed.score(texts[1]) > plain.score(texts[1]));
        assert_eq!(
            fed.score_vector(&fed.corpus().vector(texts[1])),
            fed.score(texts[1])
        );
        let driving = seeded.driving_words(texts[0], 2);
        assert!(driving.contains(&"emicizumab".to_owned()), "{driving:?}");
        assert!(!driving.contains(&"a".to_owned()));
    }
}
