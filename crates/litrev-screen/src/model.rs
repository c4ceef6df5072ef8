//! The ranking model: TF-IDF features of words and word pairs, the works each record cites,
//! and a linear SVM trained on the labels so far.
//!
//! The SVM is the L2-regularised, L2-loss linear SVM solved in the dual by coordinate descent
//! (Hsieh et al., 2008, the LIBLINEAR algorithm): a few milliseconds for thousands of labelled
//! works, so the ranking can be retrained as labels arrive. Included works are rare, so their
//! errors cost more: together they weigh [`SvmConfig::class_ratio`] times the excluded ones.

use std::collections::{BTreeMap, HashMap};

use litrev_model::Work;
use litrev_text::SparseVector;

/// The citation links the ranking model reads of a work (beside [`Work::indexed_text`]): the
/// ids of the works it cites.
pub fn record_links(work: &Work) -> Vec<String> {
    work.references.iter().map(ToString::to_string).collect()
}

/// A record's feature vector: sparse word and link features (ids ascending), then, when the
/// space has them, a dense block (the sentence embedding) at ids `dense_at..`, kept dense so
/// its products run over contiguous memory rather than through an index per value.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Features {
    entries: Vec<(u32, f32)>,
    dense: Vec<f32>,
    dense_at: usize,
}

impl Features {
    /// The dot product with `weights`, summed in lanes: one running sum waits on each addition
    /// before the next (the simulation's training and scoring were bound by that chain), four
    /// or eight lanes overlap them.
    fn dot(&self, weights: &[f32]) -> f32 {
        let product = |&(id, value): &(u32, f32)| weights[id as usize] * value;
        let chunks = self.entries.chunks_exact(4);
        let rest: f32 = chunks.remainder().iter().map(product).sum();
        let mut lanes = [0.0f32; 4];
        for chunk in chunks {
            for (lane, entry) in lanes.iter_mut().zip(chunk) {
                *lane += product(entry);
            }
        }
        (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]) + rest + self.dense_dot(weights)
    }

    fn dense_dot(&self, weights: &[f32]) -> f32 {
        if self.dense.is_empty() {
            return 0.0;
        }
        let weights = &weights[self.dense_at..self.dense_at + self.dense.len()];
        let (values, block) = (self.dense.chunks_exact(8), weights.chunks_exact(8));
        let rest: f32 = values
            .remainder()
            .iter()
            .zip(block.remainder())
            .map(|(value, weight)| value * weight)
            .sum();
        let mut lanes = [0.0f32; 8];
        for (values, weights) in values.zip(block) {
            for ((lane, value), weight) in lanes.iter_mut().zip(values).zip(weights) {
                *lane += value * weight;
            }
        }
        lanes.iter().sum::<f32>() + rest
    }

    fn norm_squared(&self) -> f32 {
        self.entries
            .iter()
            .map(|(_, value)| value * value)
            .chain(self.dense.iter().map(|value| value * value))
            .sum()
    }

    fn add_scaled_to(&self, weights: &mut [f32], scale: f32) {
        for &(id, value) in &self.entries {
            weights[id as usize] += scale * value;
        }
        let block = &mut weights[self.dense_at..self.dense_at + self.dense.len()];
        for (weight, value) in block.iter_mut().zip(&self.dense) {
            *weight += scale * value;
        }
    }
}

/// What the features of a record are made of: settings chosen by leave-one-dataset-out
/// cross-validation over every labelled screening set (`litrev bench screen --cv`), never on
/// the sets they are scored on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FeatureConfig {
    /// How much the citation links weigh beside the text: each record's text features form a
    /// unit vector, its links another scaled by this (0: links unused).
    pub link_weight: f32,
    /// Whether pairs of adjacent words are features beside the words.
    pub word_pairs: bool,
    /// Features in fewer texts than this are dropped (1 keeps every feature).
    pub min_texts: u32,
    /// How much each record's sentence embedding (a unit vector) weighs beside the text's
    /// words, when the caller has embeddings (0: unused). Cross-validation chose 0.15 for every
    /// held-out set (mean WSS@95 0.556 over the 17 labelled sets, against 0.540 without; 0.3
    /// and more won some sets by much and lost others as much).
    pub embedding_weight: f32,
}

impl FeatureConfig {
    /// Checks that the weights are finite and not negative.
    ///
    /// # Errors
    /// Names the first setting out of range.
    pub fn validate(&self) -> Result<(), SettingError> {
        SettingError::check("link_weight", self.link_weight, false)?;
        SettingError::check("embedding_weight", self.embedding_weight, false)
    }
}

/// A screening setting the ranker cannot use (a weight below 0, a C or class ratio of 0, or a
/// value that is not finite); `setting` is the field's name.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{setting} {value}: {}", self.requirement())]
pub struct SettingError {
    /// The field's name, such as `class_ratio`.
    pub setting: &'static str,
    /// The value given.
    pub value: f32,
    /// Whether the setting must be above 0 (else 0 or more).
    pub above_zero: bool,
}

impl SettingError {
    /// What the setting needs, for a message that names it as the user gave it.
    pub fn requirement(&self) -> &'static str {
        if self.above_zero {
            "give a finite number above 0"
        } else {
            "give a finite number of 0 or more"
        }
    }

    fn check(setting: &'static str, value: f32, above_zero: bool) -> Result<(), SettingError> {
        let least = if above_zero { f32::MIN_POSITIVE } else { 0.0 };
        if value.is_finite() && value >= least {
            Ok(())
        } else {
            Err(SettingError {
                setting,
                value,
                above_zero,
            })
        }
    }
}

impl Default for FeatureConfig {
    fn default() -> FeatureConfig {
        FeatureConfig {
            link_weight: 0.3,
            word_pairs: true,
            min_texts: 1,
            embedding_weight: 0.15,
        }
    }
}

/// TF-IDF features fitted on the texts being ranked: words (two characters or more,
/// lower-cased, unstemmed) and pairs of adjacent words, sublinear term frequency, smooth IDF;
/// the text and the citation links are L2-normalised apart, so a long reference list does not
/// drown the words (see [`FeatureConfig`]).
#[derive(Debug, Clone)]
pub struct FeatureSpace {
    dimension: usize,
    vectors: Vec<Features>,
}

impl FeatureSpace {
    /// Fits the vocabulary on `texts` and returns one vector per text.
    ///
    /// Features seen in a single text carry no information for ranking others, and those in
    /// more than 95 % of the texts none for telling them apart: both are dropped.
    pub fn fit(texts: &[String]) -> FeatureSpace {
        FeatureSpace::fit_with_links(texts, &[])
    }

    /// Like [`FeatureSpace::fit`], with each text's citation links (the ids of the works it
    /// cites) as further features: records that cite what included records cite are coupled.
    /// `links` is empty or has one list per text.
    pub fn fit_with_links(texts: &[String], links: &[Vec<String>]) -> FeatureSpace {
        FeatureSpace::fit_with_config(texts, links, &FeatureConfig::default())
    }

    /// Like [`FeatureSpace::fit_with_links`], with the features `config` names.
    pub fn fit_with_config(
        texts: &[String],
        links: &[Vec<String>],
        config: &FeatureConfig,
    ) -> FeatureSpace {
        let documents: Vec<Vec<u64>> = texts
            .iter()
            .map(|text| word_features(text, config.word_pairs))
            .collect();
        let link_documents: Vec<Vec<u64>> = (0..texts.len())
            .map(|index| {
                links.get(index).map_or_else(Vec::new, |links| {
                    links.iter().map(|link| hash(&["cites", link])).collect()
                })
            })
            .collect();
        let mut document_frequency: HashMap<u64, u32> = HashMap::new();
        for (words, links) in documents.iter().zip(&link_documents) {
            let mut seen: Vec<u64> = words.iter().chain(links).copied().collect();
            seen.sort_unstable();
            seen.dedup();
            for feature in seen {
                *document_frequency.entry(feature).or_default() += 1;
            }
        }
        let n = documents.len() as f32;
        // Ids in hash order, so the features do not depend on the map's iteration order.
        let mut kept: Vec<(u64, u32)> = document_frequency
            .into_iter()
            .filter(|(_, frequency)| {
                *frequency >= config.min_texts && (*frequency as f32) <= 0.95 * n
            })
            .collect();
        kept.sort_unstable();
        let ids: HashMap<u64, (u32, f32)> = kept
            .iter()
            .enumerate()
            .map(|(id, (feature, frequency))| {
                let idf = ((1.0 + n) / (1.0 + *frequency as f32)).ln() + 1.0;
                (*feature, (id as u32, idf))
            })
            .collect();
        let tf_idf = |features: &[u64], scale: f32| -> Vec<(u32, f32)> {
            let mut counts: BTreeMap<u32, (u32, f32)> = BTreeMap::new();
            for feature in features {
                if let Some(&(id, idf)) = ids.get(feature) {
                    counts.entry(id).or_insert((0, idf)).0 += 1;
                }
            }
            let weights = counts
                .into_iter()
                .map(|(id, (count, idf))| (id, (1.0 + (count as f32).ln()) * idf))
                .collect();
            SparseVector::normalised(weights)
                .entries()
                .iter()
                .map(|&(id, value)| (id, value * scale))
                .collect()
        };
        let vectors = documents
            .iter()
            .zip(&link_documents)
            .map(|(words, links)| {
                let mut entries = tf_idf(words, 1.0);
                entries.extend(tf_idf(links, config.link_weight));
                entries.sort_unstable_by_key(|&(id, _)| id);
                Features {
                    entries,
                    ..Features::default()
                }
            })
            .collect();
        FeatureSpace {
            dimension: kept.len(),
            vectors,
        }
    }

    /// The space with each text's dense `embeddings` (one per text, in order; unit vectors)
    /// appended as further features, scaled by `weight`: the meaning of a text beside its words,
    /// so records that say the same thing in other words are coupled. Without embeddings, or at
    /// weight 0, the space is unchanged.
    pub fn with_embeddings(mut self, embeddings: &[Vec<f32>], weight: f32) -> FeatureSpace {
        if weight <= 0.0 || embeddings.len() != self.vectors.len() {
            return self;
        }
        let width = embeddings.iter().map(Vec::len).max().unwrap_or(0);
        for (vector, embedding) in self.vectors.iter_mut().zip(embeddings) {
            vector.dense = embedding.iter().map(|value| value * weight).collect();
            vector.dense.resize(width, 0.0);
            vector.dense_at = self.dimension;
        }
        self.dimension += width;
        self
    }

    /// The vector of text `index`.
    pub fn vector(&self, index: usize) -> &Features {
        &self.vectors[index]
    }

    /// Number of texts.
    pub fn len(&self) -> usize {
        self.vectors.len()
    }

    /// Whether there are no texts.
    pub fn is_empty(&self) -> bool {
        self.vectors.is_empty()
    }

    /// Number of features (without the bias).
    pub fn dimension(&self) -> usize {
        self.dimension
    }
}

/// The word and word-pair features of a text, each hashed to 64 bits with its kind, so no
/// string is kept. Words are not stemmed: measured on the SYNERGY datasets, stems and stem
/// pairs ranked worse than the words as written ("treated" and "treatment" mark different
/// kinds of paper).
fn word_features(text: &str, word_pairs: bool) -> Vec<u64> {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|word| word.chars().count() >= 2)
        .map(str::to_lowercase)
        .collect();
    let mut features: Vec<u64> = words.iter().map(|word| hash(&["word", word])).collect();
    if !word_pairs {
        return features;
    }
    features.extend(
        words
            .windows(2)
            .map(|pair| hash(&["words", &pair[0], &pair[1]])),
    );
    features
}

/// FNV-1a over the parts, each followed by a separator byte, so ("ab", "c") and ("a", "bc")
/// differ.
fn hash(parts: &[&str]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.bytes().chain(std::iter::once(0xff)) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}

/// A trained linear model: a score per text, higher meaning more likely included.
#[derive(Debug, Clone)]
pub struct LinearModel {
    weights: Vec<f32>,
    bias: f32,
}

/// Options of the SVM.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SvmConfig {
    /// Regularisation: larger fits the labels more closely.
    pub c: f32,
    /// How many times as much the included examples weigh in the loss, all together, as the
    /// excluded ones all together (ASReview's default model uses 9.8; leave-one-dataset-out
    /// cross-validation chose 5).
    pub class_ratio: f32,
    /// Most passes over the labelled works.
    pub max_epochs: usize,
    /// Stop when no projected gradient exceeds this. LIBLINEAR's 1e-4, which ASReview's
    /// scikit-learn model uses, gave the same screening orders on Cohen_2006_BetaBlockers (5
    /// priors, WSS@95 0.717 either way) and took a quarter longer.
    pub tolerance: f32,
}

impl SvmConfig {
    /// Checks that C and the class ratio are finite and above 0, and the tolerance not
    /// negative.
    ///
    /// # Errors
    /// Names the first setting out of range.
    pub fn validate(&self) -> Result<(), SettingError> {
        SettingError::check("c", self.c, true)?;
        SettingError::check("class_ratio", self.class_ratio, true)?;
        SettingError::check("tolerance", self.tolerance, false)
    }
}

impl Default for SvmConfig {
    fn default() -> SvmConfig {
        SvmConfig {
            c: 0.11,
            class_ratio: 5.0,
            max_epochs: 1000,
            tolerance: 0.001,
        }
    }
}

impl LinearModel {
    /// Trains on `labelled` (text index, included?) pairs from scratch. With no example of one
    /// class the model scores every text 0.
    pub fn train(
        space: &FeatureSpace,
        labelled: &[(usize, bool)],
        config: SvmConfig,
    ) -> LinearModel {
        Trainer::new(config).train(space, labelled)
    }

    /// The decision value of text `index`.
    pub fn score(&self, space: &FeatureSpace, index: usize) -> f32 {
        space.vector(index).dot(&self.weights) + self.bias
    }

    /// The weight of each feature.
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// The bias.
    pub fn bias(&self) -> f32 {
        self.bias
    }
}

/// Trains the SVM again and again as labels are appended, starting each time from the dual
/// solution of the last training (warm start), which is already close: retraining after every
/// label then costs a few passes instead of dozens.
#[derive(Debug, Clone)]
pub struct Trainer {
    config: SvmConfig,
    /// Dual variables of the labels trained on so far, in label order.
    alpha: Vec<f32>,
    /// The primal solution those dual variables give (Σ αₖyₖxₖ and its bias term), carried
    /// from one training to the next rather than summed again from the dual variables.
    weights: Vec<f32>,
    bias: f32,
    random: SplitMix64,
}

impl Trainer {
    /// A trainer with no labels yet.
    pub fn new(config: SvmConfig) -> Trainer {
        Trainer {
            config,
            alpha: Vec::new(),
            weights: Vec::new(),
            bias: 0.0,
            random: SplitMix64::new(0x5eed),
        }
    }

    /// Trains on `labelled`, which must extend the list of the previous call.
    pub fn train(&mut self, space: &FeatureSpace, labelled: &[(usize, bool)]) -> LinearModel {
        let config = self.config;
        let positives = labelled.iter().filter(|(_, included)| *included).count();
        let negatives = labelled.len() - positives;
        if positives == 0 || negatives == 0 {
            return LinearModel {
                weights: vec![0.0f32; space.dimension()],
                bias: 0.0,
            };
        }
        let n = labelled.len() as f32;
        // Per-example costs: the included examples share `class_ratio` parts of the total, the
        // excluded ones one part.
        let share = n / (1.0 + config.class_ratio);
        let c_positive = config.c * share * config.class_ratio / positives as f32;
        let c_negative = config.c * share / negatives as f32;
        // The bias is a feature of constant value 1, regularised like the others (as LIBLINEAR).
        let diagonal: Vec<f32> = labelled
            .iter()
            .map(|&(_, included)| 0.5 / if included { c_positive } else { c_negative })
            .collect();
        let q: Vec<f32> = labelled
            .iter()
            .zip(&diagonal)
            .map(|(&(index, _), d)| space.vector(index).norm_squared() + 1.0 + d)
            .collect();
        // The labels appended since the last training start at α = 0, so the carried weights
        // are still Σ αₖyₖxₖ.
        self.alpha.resize(labelled.len(), 0.0);
        self.weights.resize(space.dimension(), 0.0);
        let (alpha, weights, bias) = (&mut self.alpha, &mut self.weights, &mut self.bias);
        let mut order: Vec<usize> = (0..labelled.len()).collect();
        for _ in 0..config.max_epochs {
            self.random.shuffle(&mut order);
            let mut largest_violation = 0.0f32;
            for &k in &order {
                let (index, included) = labelled[k];
                let y = if included { 1.0 } else { -1.0 };
                let features = space.vector(index);
                let gradient = y * (features.dot(weights) + *bias) - 1.0 + diagonal[k] * alpha[k];
                let projected = if alpha[k] == 0.0 {
                    gradient.min(0.0)
                } else {
                    gradient
                };
                largest_violation = largest_violation.max(projected.abs());
                if projected.abs() > 1e-12 {
                    let previous = alpha[k];
                    alpha[k] = (alpha[k] - gradient / q[k]).max(0.0);
                    let step = (alpha[k] - previous) * y;
                    features.add_scaled_to(weights, step);
                    *bias += step;
                }
            }
            if largest_violation < config.tolerance {
                break;
            }
        }
        LinearModel {
            weights: weights.clone(),
            bias: *bias,
        }
    }
}

/// A small, fast, seedable random number generator (SplitMix64), so simulations are
/// reproducible without a dependency.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound` > 0).
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }

    /// Fisher–Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for index in (1..items.len()).rev() {
            let other = self.below(index + 1);
            items.swap(index, other);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_out_of_range_are_named() {
        assert_eq!(SvmConfig::default().validate(), Ok(()));
        assert_eq!(FeatureConfig::default().validate(), Ok(()));
        let zero_c = SvmConfig {
            c: 0.0,
            ..SvmConfig::default()
        };
        let error = zero_c.validate().expect_err("C of 0");
        assert_eq!(error.setting, "c");
        assert_eq!(error.to_string(), "c 0: give a finite number above 0");
        let ratio = SvmConfig {
            class_ratio: f32::NAN,
            ..SvmConfig::default()
        };
        assert_eq!(ratio.validate().map_err(|e| e.setting), Err("class_ratio"));
        let unused = FeatureConfig {
            embedding_weight: 0.0,
            ..FeatureConfig::default()
        };
        assert_eq!(unused.validate(), Ok(()));
        let negative = FeatureConfig {
            embedding_weight: -0.1,
            ..FeatureConfig::default()
        };
        let error = negative.validate().expect_err("negative weight");
        assert_eq!(
            error.to_string(),
            "embedding_weight -0.1: give a finite number of 0 or more"
        );
    }

    #[test]
    fn ranks_unseen_texts_of_the_labelled_topic_first() {
        let texts: Vec<String> = [
            "insulin pump therapy in children with diabetes",
            "insulin pump glucose control trial",
            "school meals and childhood obesity",
            "vegetables in school meals",
            "insulin pump adherence in adolescents with diabetes",
            "school meal policy and nutrition",
        ]
        .iter()
        .map(|text| (*text).to_owned())
        .collect();
        let space = FeatureSpace::fit(&texts);
        let model = LinearModel::train(
            &space,
            &[(0, true), (2, false), (3, false)],
            SvmConfig::default(),
        );
        assert!(model.score(&space, 1) > model.score(&space, 5));
        assert!(model.score(&space, 4) > model.score(&space, 5));
        let untrained = LinearModel::train(&space, &[(0, true)], SvmConfig::default());
        assert_eq!(untrained.score(&space, 1), 0.0);
    }

    /// The lane sums, the norm and the scaled addition agree with the plain per-value ones
    /// over sparse and dense parts of every length around the lane widths.
    #[test]
    fn products_in_lanes_are_the_plain_sums() {
        for sparse in 0..11usize {
            for dense in [0usize, 3, 8, 19] {
                let value = |id: usize| 0.5 + id as f32 / 7.0;
                let features = Features {
                    entries: (0..sparse).map(|id| (id as u32, value(id))).collect(),
                    dense: (sparse..sparse + dense).map(value).collect(),
                    dense_at: sparse,
                };
                let weights: Vec<f32> = (0..sparse + dense)
                    .map(|id| 1.0 - 0.125 * id as f32)
                    .collect();
                let plain: f32 = (0..sparse + dense).map(|id| value(id) * weights[id]).sum();
                let shape = format!("{sparse} sparse, {dense} dense");
                assert!((features.dot(&weights) - plain).abs() < 1e-4, "{shape}");
                let norm: f32 = (0..sparse + dense).map(|id| value(id) * value(id)).sum();
                assert!((features.norm_squared() - norm).abs() < 1e-4, "{shape}");
                let mut scaled = weights.clone();
                features.add_scaled_to(&mut scaled, 2.0);
                for (id, (after, before)) in scaled.iter().zip(&weights).enumerate() {
                    assert!((after - before - 2.0 * value(id)).abs() < 1e-5, "{shape}");
                }
            }
        }
    }

    /// The trainer carries its weights from one training to the next: after several trainings
    /// on a growing list of labels they are still Σ αₖyₖxₖ, as summed afresh from its duals.
    #[test]
    fn carried_weights_stay_the_sum_of_the_dual_solution() {
        let texts: Vec<String> = (0..40)
            .map(|index| {
                format!(
                    "word{} word{} shared{} common",
                    index % 7,
                    index % 5,
                    index % 3
                )
            })
            .collect();
        let space = FeatureSpace::fit(&texts);
        let labels: Vec<(usize, bool)> = (0..40).map(|index| (index, index % 7 < 2)).collect();
        let mut trainer = Trainer::new(SvmConfig::default());
        let mut model = trainer.train(&space, &labels[..2]);
        for end in [3, 10, 25, 40] {
            model = trainer.train(&space, &labels[..end]);
        }
        let mut weights = vec![0.0f32; space.dimension()];
        let mut bias = 0.0f32;
        for (&alpha, &(index, included)) in trainer.alpha.iter().zip(&labels) {
            let signed = if included { alpha } else { -alpha };
            space.vector(index).add_scaled_to(&mut weights, signed);
            bias += signed;
        }
        assert!(trainer.alpha.iter().any(|&alpha| alpha > 0.0));
        assert!((model.bias() - bias).abs() < 1e-4);
        for (carried, summed) in model.weights().iter().zip(&weights) {
            assert!((carried - summed).abs() < 1e-4);
        }
    }

    #[test]
    fn embeddings_couple_records_that_share_a_meaning_but_no_word() {
        // Texts 1 and 2 share no word with the included text 0; only text 1 shares its
        // embedding's direction.
        let texts: Vec<String> = [
            "glycaemic pump",
            "insulin delivery",
            "school meals",
            "lunch",
        ]
        .iter()
        .map(|text| (*text).to_owned())
        .collect();
        let embeddings = vec![
            vec![1.0, 0.0],
            vec![0.9, 0.1],
            vec![0.0, 1.0],
            vec![0.1, 0.9],
        ];
        let words = FeatureSpace::fit(&texts);
        let space = words.clone().with_embeddings(&embeddings, 0.5);
        assert_eq!(space.dimension(), words.dimension() + 2);
        assert_eq!(space.vector(1).entries, words.vector(1).entries);
        assert_eq!(space.vector(1).dense, vec![0.45, 0.05]);
        assert_eq!(space.vector(1).dense_at, words.dimension());
        let labels = [(0, true), (3, false)];
        let model = LinearModel::train(&space, &labels, SvmConfig::default());
        assert!(model.score(&space, 1) > model.score(&space, 2));
        // Without embeddings, or with a count that does not match the texts, nothing changes.
        let words_only = LinearModel::train(&words, &labels, SvmConfig::default());
        assert_eq!(words_only.score(&words, 1), words_only.score(&words, 2));
        let unchanged = words.clone().with_embeddings(&embeddings[..2], 0.5);
        assert_eq!(unchanged.dimension(), words.dimension());
    }

    #[test]
    fn the_generator_is_reproducible() {
        let mut a = SplitMix64::new(7);
        let mut b = SplitMix64::new(7);
        assert_eq!(a.next_u64(), b.next_u64());
        let mut items = [1, 2, 3, 4, 5];
        a.shuffle(&mut items);
        let mut sorted = items;
        sorted.sort_unstable();
        assert_eq!(sorted, [1, 2, 3, 4, 5]);
    }
}
