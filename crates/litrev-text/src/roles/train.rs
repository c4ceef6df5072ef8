//! Training the role model on structured abstracts: multinomial logistic regression by
//! AdaGrad over a fixed, seeded order (so the same abstracts give the same model byte for
//! byte), a second pass of the same kind over the first pass's readings of held-out
//! abstracts, and transitions between roles counted from the abstracts' label sequences.

use std::collections::HashMap;

use super::model::{
    MIN_SEQUENCE, ROLES, RoleModel, Scores, features, log_softmax, stacked_features,
};
use super::{LabelledAbstract, Role};

/// The settings of a training run.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainConfig {
    /// Passes over the training sentences.
    pub epochs: usize,
    /// AdaGrad's step size.
    pub learning_rate: f32,
    /// L2 penalty on the weights a step touches.
    pub l2: f32,
    /// Features seen in fewer training sentences than this are left out.
    pub min_count: usize,
    /// How much the learnt transitions count beside each sentence's scores (0: sentences
    /// classified one by one).
    pub sequence_weight: f32,
    /// The seed of the order sentences are visited in.
    pub seed: u64,
    /// The step size of a second pass that reads each sentence again with the first pass's
    /// readings of it and its neighbours ([`stacked_features`]), learnt from first-pass
    /// readings of abstracts the first pass was not trained on (stacked sequential learning,
    /// Cohen & Carvalho 2005); `None`: no second pass.
    pub stack_learning_rate: Option<f32>,
}

/// How many parts the training abstracts are split into for the second pass: each part is read
/// by a first pass trained on the others, as an unseen abstract is.
const STACK_FOLDS: usize = 4;

/// Chosen leaving one dataset out over the 8 datasets with structured abstracts (`litrev bench
/// roles`): a step of 0.03 (weighted F1 0.782 against 0.762 at 0.2, the smaller step keeping
/// the weights of words seen in one field's abstracts from growing) and the transitions at
/// 0.7; 6 or 10 epochs, features seen in 2 or 10 sentences, and other L2 penalties changed
/// the figure by 0.003 or less. The second pass (11 datasets, 2026-12-07): at step 0.1, mean
/// 0.846 and lowest 0.787 against 0.839 and 0.776 without it; at 0.03, 0.845 and 0.770; 6
/// epochs, 0.845 and 0.785 (0.03) or 0.843 and 0.783 (0.1); the sentence's own opening words
/// read again in it, 0.844 and 0.789, and all its words, 0.837 and 0.783.
impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            epochs: 3,
            learning_rate: 0.03,
            l2: 1e-4,
            min_count: 5,
            sequence_weight: 0.7,
            seed: 17,
            stack_learning_rate: Some(0.1),
        }
    }
}

/// Trains a role model on structured abstracts.
pub fn train(abstracts: &[LabelledAbstract], config: &TrainConfig) -> RoleModel {
    let mut model = train_first_pass(abstracts, config);
    if let Some(learning_rate) = config.stack_learning_rate {
        let (weights, bias) = train_second_pass(abstracts, config, learning_rate);
        model.weights.extend(weights);
        model.stack_bias = Some(bias);
    }
    model.rounded()
}

/// The second pass's weights (by feature name) and biases: learnt from each training
/// abstract's first-pass readings by a first pass trained without that abstract's part.
fn train_second_pass(
    abstracts: &[LabelledAbstract],
    config: &TrainConfig,
    learning_rate: f32,
) -> (HashMap<String, Scores>, Scores) {
    let mut examples: Vec<(Vec<String>, Role)> = Vec::new();
    for fold in 0..STACK_FOLDS {
        let (held, kept): (Vec<_>, Vec<_>) = abstracts
            .iter()
            .enumerate()
            .partition(|(index, _)| index % STACK_FOLDS == fold);
        let kept: Vec<LabelledAbstract> = kept.into_iter().map(|(_, kept)| kept.clone()).collect();
        let first = train_first_pass(&kept, config);
        for (_, labelled) in held {
            let sentences: Vec<&str> = labelled.sentences.iter().map(String::as_str).collect();
            let scores = first.first_pass(&sentences);
            if scores.len() < MIN_SEQUENCE {
                continue;
            }
            examples.extend(
                stacked_features(&scores)
                    .into_iter()
                    .zip(labelled.roles.iter().copied()),
            );
        }
    }
    let (names, encoded) = encode(&examples, config.min_count);
    let (weights, bias) = fit(&encoded, names.len(), config, learning_rate);
    (
        names
            .iter()
            .zip(weights)
            .map(|(name, weights)| ((*name).to_owned(), weights))
            .collect(),
        bias,
    )
}

/// The features seen in `min_count` examples or more, sorted, and each example as the
/// indices of its kept features and its role's index.
fn encode(
    examples: &[(Vec<String>, Role)],
    min_count: usize,
) -> (Vec<&str>, Vec<(Vec<usize>, usize)>) {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for (features, _) in examples {
        for feature in features {
            *counts.entry(feature.as_str()).or_default() += 1;
        }
    }
    let mut names: Vec<&str> = counts
        .iter()
        .filter(|(_, count)| **count >= min_count)
        .map(|(name, _)| *name)
        .collect();
    names.sort_unstable();
    let index: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(position, name)| (*name, position))
        .collect();
    let encoded = examples
        .iter()
        .map(|(features, role)| {
            let ids = features
                .iter()
                .filter_map(|feature| index.get(feature.as_str()).copied())
                .collect();
            (ids, role.index())
        })
        .collect();
    (names, encoded)
}

/// The first pass: each sentence read on its own features, with the transitions between roles.
fn train_first_pass(abstracts: &[LabelledAbstract], config: &TrainConfig) -> RoleModel {
    // Each sentence is learnt twice: in its abstract, and alone (its words only), as the
    // model reads the sentences of abstracts too short to be a sequence.
    let examples: Vec<(Vec<String>, Role)> = abstracts
        .iter()
        .flat_map(|labelled| {
            let sentences: Vec<&str> = labelled.sentences.iter().map(String::as_str).collect();
            let alone = sentences
                .iter()
                .map(|sentence| features(&[sentence]).into_iter().flatten().collect());
            features(&sentences)
                .into_iter()
                .chain(alone)
                .zip(labelled.roles.iter().chain(&labelled.roles).copied())
                .collect::<Vec<_>>()
        })
        .collect();
    let (names, encoded) = encode(&examples, config.min_count);
    let (weights, bias) = fit(&encoded, names.len(), config, config.learning_rate);
    let transitions = transitions(abstracts);
    RoleModel {
        weights: names
            .iter()
            .zip(weights)
            .map(|(name, weights)| ((*name).to_owned(), weights))
            .collect(),
        bias,
        transitions,
        sequence_weight: config.sequence_weight,
        stack_bias: None,
    }
}

/// Multinomial logistic regression by AdaGrad at step `learning_rate`: the weights per feature
/// and the biases.
fn fit(
    examples: &[(Vec<usize>, usize)],
    features: usize,
    config: &TrainConfig,
    learning_rate: f32,
) -> (Vec<Scores>, Scores) {
    let mut weights = vec![[0.0f32; ROLES]; features];
    let mut squares = vec![[1e-6f32; ROLES]; features];
    let mut bias = [0.0f32; ROLES];
    let mut bias_squares = [1e-6f32; ROLES];
    let mut order: Vec<usize> = (0..examples.len()).collect();
    let mut state = config.seed.max(1);
    for _ in 0..config.epochs {
        shuffle(&mut order, &mut state);
        for &example in &order {
            let (ids, role) = &examples[example];
            let mut scores = bias;
            for &id in ids {
                for (score, weight) in scores.iter_mut().zip(&weights[id]) {
                    *score += weight;
                }
            }
            log_softmax(&mut scores);
            let gradient: Scores = std::array::from_fn(|class| {
                scores[class].exp() - if class == *role { 1.0 } else { 0.0 }
            });
            for class in 0..ROLES {
                bias_squares[class] += gradient[class] * gradient[class];
                bias[class] -= learning_rate * gradient[class] / bias_squares[class].sqrt();
            }
            for &id in ids {
                for class in 0..ROLES {
                    let step = gradient[class] + config.l2 * weights[id][class];
                    squares[id][class] += step * step;
                    weights[id][class] -= learning_rate * step / squares[id][class].sqrt();
                }
            }
        }
    }
    (weights, bias)
}

/// A Fisher–Yates shuffle driven by xorshift, so the order depends on the seed alone.
fn shuffle(order: &mut [usize], state: &mut u64) {
    for index in (1..order.len()).rev() {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        let other = usize::try_from(*state % (index as u64 + 1)).unwrap_or(0);
        order.swap(index, other);
    }
}

/// The log-probabilities of each role after each role, counted from the abstracts with
/// add-one smoothing.
fn transitions(abstracts: &[LabelledAbstract]) -> [Scores; ROLES] {
    let mut after = [[1.0f32; ROLES]; ROLES];
    for labelled in abstracts {
        for pair in labelled.roles.windows(2) {
            after[pair[0].index()][pair[1].index()] += 1.0;
        }
    }
    for row in &mut after {
        let total: f32 = row.iter().sum();
        for value in row.iter_mut() {
            *value = (*value / total).ln();
        }
    }
    after
}

#[cfg(test)]
mod tests {
    use super::*;

    fn abstracts() -> Vec<LabelledAbstract> {
        let one = |background: &str, method: &str, result: &str| LabelledAbstract {
            sentences: vec![background.to_owned(), method.to_owned(), result.to_owned()],
            roles: vec![Role::Background, Role::Method, Role::Result],
        };
        vec![
            one(
                "Asthma is common in children.",
                "We recruited 40 children in a randomised trial.",
                "Symptoms fell by 30% with the drug.",
            ),
            one(
                "Falls are frequent in old age.",
                "We enrolled 120 adults in a randomised trial.",
                "Falls fell by 25% with exercise.",
            ),
            one(
                "Obesity is rising in adolescents.",
                "We randomised 80 adolescents in a trial.",
                "Weight fell by 5% with the programme.",
            ),
        ]
    }

    #[test]
    fn training_learns_the_labels_and_is_deterministic() {
        let config = TrainConfig {
            min_count: 1,
            ..TrainConfig::default()
        };
        let model = train(&abstracts(), &config);
        assert_eq!(model, train(&abstracts(), &config), "same data, same model");
        assert_eq!(model.to_text(), train(&abstracts(), &config).to_text());
        let roles = model.classify(&[
            "Diabetes is common in adults.",
            "We randomised 60 adults in a trial.",
            "Glucose fell by 10% with the drug.",
        ]);
        assert_eq!(roles, [Role::Background, Role::Method, Role::Result]);
    }

    #[test]
    fn the_second_pass_is_learnt_written_and_read_back_and_can_be_left_out() {
        let config = TrainConfig {
            min_count: 1,
            ..TrainConfig::default()
        };
        // Eight abstracts, so each of the four parts the second pass learns from is read by a
        // first pass trained on the six others.
        let abstracts: Vec<LabelledAbstract> = abstracts().into_iter().cycle().take(8).collect();
        let stacked = train(&abstracts, &config);
        assert!(stacked.stack_bias.is_some());
        assert!(
            stacked
                .weights
                .keys()
                .any(|name| name.starts_with("s:a0:method")),
            "the second pass weighs the first pass's readings"
        );
        let text = stacked.to_text();
        assert_eq!(RoleModel::parse(&text).expect("reads back"), stacked);
        let sentences = [
            "Diabetes is common in adults.",
            "We randomised 60 adults in a trial.",
            "Glucose fell by 10% with the drug.",
        ];
        assert_eq!(
            stacked.classify(&sentences),
            [Role::Background, Role::Method, Role::Result]
        );
        // The second pass decides: biased far enough towards "other", it reads every sentence
        // of a three-sentence abstract so, whatever the first pass says.
        let mut other = [0.0; ROLES];
        other[Role::Other.index()] = 1000.0;
        let overruled = RoleModel {
            stack_bias: Some(other),
            ..stacked.clone()
        };
        assert_eq!(overruled.classify(&sentences), [Role::Other; 3]);
        let first_only = train(
            &abstracts,
            &TrainConfig {
                stack_learning_rate: None,
                ..config
            },
        );
        assert_eq!(first_only.stack_bias, None);
        assert!(!first_only.weights.keys().any(|name| name.starts_with("s:")));
        assert!(first_only.to_text().contains("\nstack_bias none\n"));
        assert_eq!(
            first_only.classify(&sentences),
            [Role::Background, Role::Method, Role::Result]
        );
    }

    #[test]
    fn the_shuffle_is_a_permutation_fixed_by_its_seed() {
        let mut a: Vec<usize> = (0..50).collect();
        let mut b = a.clone();
        let (mut first, mut second) = (7, 7);
        shuffle(&mut a, &mut first);
        shuffle(&mut b, &mut second);
        assert_eq!(a, b);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(a, sorted);
    }
}
