//! The role model: the features of a sentence in its abstract, a multinomial logistic
//! regression over them, a second pass over the first pass's readings of the sentence and its
//! neighbours, decoding over the abstract with learnt transitions between roles (Viterbi), and
//! the model's text file.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::{Reading, Role};
use crate::terms::stem;

/// How many roles the model scores.
pub(super) const ROLES: usize = Role::ALL.len();

/// A score per role, in [`Role::ALL`]'s order.
pub(super) type Scores = [f32; ROLES];

/// The model `scripts/train-roles.sh` trains, shipped inside the binary.
const SHIPPED: &str = include_str!("roles.model");

/// The first line of a model file.
const MAGIC: &str = "litrev-roles 2";

/// A learnt sentence-role model.
#[derive(Debug, Clone, PartialEq)]
pub struct RoleModel {
    /// Each feature's weight per role.
    pub(super) weights: HashMap<String, Scores>,
    /// Each role's bias.
    pub(super) bias: Scores,
    /// The log-probability of each role after each role (`transitions[previous][next]`).
    pub(super) transitions: [Scores; ROLES],
    /// How much the transitions count beside the sentence's own scores (0: not at all).
    pub(super) sequence_weight: f32,
    /// The second pass's biases, when the model has one: it reads each sentence again with
    /// the first pass's readings of it and of its neighbours as features (`s:` in `weights`).
    pub(super) stack_bias: Option<Scores>,
}

/// Why a model file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("role model, line {line}: {message}; retrain it with scripts/train-roles.sh")]
pub struct ModelError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl RoleModel {
    /// The model shipped with litrev; `None` only if its file does not read (a unit test
    /// rules that out for every build).
    pub fn shipped() -> Option<&'static RoleModel> {
        static MODEL: OnceLock<Option<RoleModel>> = OnceLock::new();
        MODEL
            .get_or_init(|| RoleModel::parse(SHIPPED).ok())
            .as_ref()
    }

    /// The role of each sentence of one abstract, in order: each sentence scored on its own
    /// features, the sequence then decoded as a whole.
    pub fn classify(&self, sentences: &[&str]) -> Vec<Role> {
        let scores = self.first_pass(sentences);
        let scores = match self.stack_bias {
            Some(bias) if scores.len() >= MIN_SEQUENCE => stacked_features(&scores)
                .iter()
                .map(|features| self.scored(bias, features))
                .collect(),
            _ => scores,
        };
        self.decode(&scores)
    }

    /// The same model without its second pass (`None` when it has none): the baseline
    /// `litrev bench roles` times the second pass against.
    pub fn without_second_pass(&self) -> Option<RoleModel> {
        self.stack_bias?;
        Some(RoleModel {
            stack_bias: None,
            ..self.clone()
        })
    }

    /// Each sentence's log-probabilities read on its own features (words, place, neighbours'
    /// words), before the second pass and the decoding.
    pub(super) fn first_pass(&self, sentences: &[&str]) -> Vec<Scores> {
        features(sentences)
            .iter()
            .map(|features| self.log_probabilities(features))
            .collect()
    }

    /// The role of each sentence of one abstract as litrev uses it: the model's, unless cue
    /// words say the sentence is boilerplate, future work or a limitation
    /// ([`super::cue_role`]).
    pub fn roles(&self, sentences: &[&str]) -> Vec<Role> {
        sentences
            .iter()
            .zip(self.classify(sentences))
            .map(|(sentence, role)| super::cue_role(sentence).unwrap_or(role))
            .collect()
    }

    /// Each sentence's role as [`RoleModel::roles`] gives it, and whether it is sure: the
    /// sentence's own words, read alone (without its place in the abstract or its
    /// neighbours), give it the same role. Leave one dataset out (`litrev bench roles`), the
    /// sure readings are right more often (method 0.90 against 0.72, result 0.89 against
    /// 0.66): an unsure one may hold its role only by where it stands, as an unstructured
    /// abstract's middle sentence is read as a method between its background and its findings.
    pub fn readings(&self, sentences: &[&str]) -> Vec<Reading> {
        self.classify(sentences)
            .into_iter()
            .zip(sentences)
            .map(|(role, sentence)| match super::cue_role(sentence) {
                Some(cued) => Reading {
                    role: cued,
                    sure: true,
                },
                None => Reading {
                    role,
                    sure: self.alone(sentence) == role,
                },
            })
            .collect()
    }

    /// The role a sentence's own words give it, read alone.
    fn alone(&self, sentence: &str) -> Role {
        let features: Vec<String> = features(&[sentence]).into_iter().flatten().collect();
        Role::ALL[argmax(&self.log_probabilities(&features))]
    }

    /// The log-probability of each role for a sentence with these features.
    pub(super) fn log_probabilities(&self, features: &[String]) -> Scores {
        self.scored(self.bias, features)
    }

    /// The log-probability of each role from `bias` and the weights of `features`.
    fn scored(&self, bias: Scores, features: &[String]) -> Scores {
        let mut scores = bias;
        for feature in features {
            if let Some(weights) = self.weights.get(feature) {
                for (score, weight) in scores.iter_mut().zip(weights) {
                    *score += weight;
                }
            }
        }
        log_softmax(&mut scores);
        scores
    }

    /// The most likely sequence of roles given each sentence's log-probabilities.
    fn decode(&self, scores: &[Scores]) -> Vec<Role> {
        let Some(first) = scores.first() else {
            return Vec::new();
        };
        if scores.len() < MIN_SEQUENCE {
            return scores.iter().map(|row| Role::ALL[argmax(row)]).collect();
        }
        let weight = self.sequence_weight;
        // No prior on the first role: structured abstracts all open with background or an
        // objective, but unstructured ones, which litrev reads too, may open with a finding.
        let mut best: Scores = *first;
        let mut back: Vec<[usize; ROLES]> = Vec::with_capacity(scores.len());
        for sentence in &scores[1..] {
            let mut next = [f32::NEG_INFINITY; ROLES];
            let mut from = [0; ROLES];
            for role in 0..ROLES {
                for (previous, (earlier, transitions)) in
                    best.iter().zip(&self.transitions).enumerate()
                {
                    let score = earlier + weight * transitions[role] + sentence[role];
                    if score > next[role] {
                        next[role] = score;
                        from[role] = previous;
                    }
                }
            }
            best = next;
            back.push(from);
        }
        let mut role = argmax(&best);
        let mut roles = vec![role];
        for from in back.iter().rev() {
            role = from[role];
            roles.push(role);
        }
        roles.reverse();
        roles.into_iter().map(|role| Role::ALL[role]).collect()
    }

    /// The model as its text file: the roles, the transition log-probabilities,
    /// the biases, then one line per feature (sorted) with its non-zero weights.
    pub fn to_text(&self) -> String {
        let row = |scores: &Scores| {
            scores
                .iter()
                .map(|score| format!("{score:.3}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut out = format!("{MAGIC}\n");
        let names: Vec<&str> = Role::ALL.iter().map(|role| role.name()).collect();
        out.push_str(&format!("roles {}\n", names.join(" ")));
        out.push_str(&format!("sequence_weight {:.3}\n", self.sequence_weight));
        for (role, transitions) in Role::ALL.iter().zip(&self.transitions) {
            out.push_str(&format!("after_{} {}\n", role.name(), row(transitions)));
        }
        out.push_str(&format!("bias {}\n", row(&self.bias)));
        match &self.stack_bias {
            Some(bias) => out.push_str(&format!("stack_bias {}\n", row(bias))),
            None => out.push_str("stack_bias none\n"),
        }
        // Weights are written as signed bytes times one scale: a quarter of the size of
        // decimals, and a difference no measurement here could see.
        let largest = self
            .weights
            .values()
            .flatten()
            .fold(0.0f32, |largest, weight| largest.max(weight.abs()));
        let scale = if largest > 0.0 { largest / 127.0 } else { 1.0 };
        out.push_str(&format!("scale {scale:e}\n"));
        let mut features: Vec<(&String, &Scores)> = self.weights.iter().collect();
        features.sort_by(|a, b| a.0.cmp(b.0));
        for (feature, weights) in features {
            let bytes: Vec<i8> = weights
                .iter()
                .map(|weight| (weight / scale).round().clamp(-127.0, 127.0) as i8)
                .collect();
            if bytes.iter().any(|byte| *byte != 0) {
                let hex: String = bytes
                    .iter()
                    .map(|byte| format!("{:02x}", *byte as u8))
                    .collect();
                out.push_str(&format!("{feature}\t{hex}\n"));
            }
        }
        out
    }

    /// Reads a model file [`RoleModel::to_text`] wrote.
    ///
    /// # Errors
    /// When a line is missing or malformed, or the roles are not this build's.
    pub fn parse(text: &str) -> Result<RoleModel, ModelError> {
        let mut lines = text.lines().enumerate();
        let mut next = |expected: &str| -> Result<(usize, Vec<String>), ModelError> {
            let (index, line) = lines.next().ok_or_else(|| ModelError {
                line: 0,
                message: format!("the file ends before `{expected}`"),
            })?;
            let mut parts = line.split(' ');
            if parts.next() != Some(expected) {
                return Err(ModelError {
                    line: index + 1,
                    message: format!("expected `{expected}`"),
                });
            }
            Ok((index + 1, parts.map(str::to_owned).collect()))
        };
        let (_, version) = next("litrev-roles")?;
        if version != ["2"] {
            return Err(ModelError {
                line: 1,
                message: format!("unknown version {version:?}"),
            });
        }
        let (line, names) = next("roles")?;
        let expected: Vec<&str> = Role::ALL.iter().map(|role| role.name()).collect();
        if names != expected {
            return Err(ModelError {
                line,
                message: format!("roles {names:?}, where this build has {expected:?}"),
            });
        }
        let (line, weight) = next("sequence_weight")?;
        let sequence_weight = number(line, weight.first().map_or("", String::as_str))?;
        let mut transitions = [[0.0; ROLES]; ROLES];
        for (role, row) in Role::ALL.iter().zip(transitions.iter_mut()) {
            let (line, values) = next(&format!("after_{}", role.name()))?;
            *row = scores(line, &values)?;
        }
        let (line, bias) = next("bias")?;
        let bias = scores(line, &bias)?;
        let (line, stack_bias) = next("stack_bias")?;
        let stack_bias = if stack_bias == ["none"] {
            None
        } else {
            Some(scores(line, &stack_bias)?)
        };
        let (line, scale) = next("scale")?;
        let scale = number(line, scale.first().map_or("", String::as_str))?;
        let mut weights = HashMap::new();
        for (index, line) in lines {
            let bad = || ModelError {
                line: index + 1,
                message: format!("a feature line is the feature, a tab and {ROLES} hex bytes"),
            };
            let (feature, hex) = line.split_once('\t').ok_or_else(bad)?;
            if hex.len() != 2 * ROLES || !hex.is_ascii() {
                return Err(bad());
            }
            let mut row = [0.0; ROLES];
            for (slot, pair) in row.iter_mut().zip(hex.as_bytes().chunks(2)) {
                let pair = std::str::from_utf8(pair).map_err(|_| bad())?;
                let byte = u8::from_str_radix(pair, 16).map_err(|_| bad())?;
                *slot = f32::from(byte as i8) * scale;
            }
            weights.insert(feature.to_owned(), row);
        }
        Ok(RoleModel {
            weights,
            bias,
            transitions,
            sequence_weight,
            stack_bias,
        })
    }

    /// The model as its file would give it back: weights rounded as the file writes them.
    pub(super) fn rounded(self) -> RoleModel {
        let text = self.to_text();
        RoleModel::parse(&text).unwrap_or(self)
    }
}

fn number(line: usize, text: &str) -> Result<f32, ModelError> {
    text.parse::<f32>()
        .ok()
        .filter(|value| value.is_finite())
        .ok_or_else(|| ModelError {
            line,
            message: format!("`{text}` is not a number"),
        })
}

fn scores(line: usize, values: &[String]) -> Result<Scores, ModelError> {
    if values.len() != ROLES {
        return Err(ModelError {
            line,
            message: format!("{} values, where there are {ROLES} roles", values.len()),
        });
    }
    let mut out = [0.0; ROLES];
    for (slot, value) in out.iter_mut().zip(values) {
        *slot = number(line, value)?;
    }
    Ok(out)
}

/// Turns scores into log-probabilities, in place.
pub(super) fn log_softmax(scores: &mut Scores) {
    let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let total: f32 = scores.iter().map(|score| (score - max).exp()).sum();
    let log_total = max + total.ln();
    for score in scores.iter_mut() {
        *score -= log_total;
    }
}

fn argmax(scores: &Scores) -> usize {
    let mut best = 0;
    for (index, score) in scores.iter().enumerate() {
        if *score > scores[best] {
            best = index;
        }
    }
    best
}

/// The second pass's features of each sentence, from the first pass's log-probabilities of the
/// abstract's sentences: the first pass's reading (its likeliest role and how sure it is of
/// each) of the sentence and of the two on either side, the pairs of readings it forms with
/// its neighbours, its reading at its place, and how many sentences before and after it read
/// as an objective, a method, a result or a conclusion. Those say what a first-order sequence
/// cannot: that a sentence follows two methods, or that the abstract's objective came already.
pub(super) fn stacked_features(first: &[Scores]) -> Vec<Vec<String>> {
    let count = first.len();
    let reading: Vec<usize> = first.iter().map(argmax).collect();
    let name = |role: usize| Role::ALL[role].name();
    let counted = [
        Role::Objective,
        Role::Method,
        Role::Result,
        Role::Conclusion,
    ];
    (0..count)
        .map(|index| {
            let mut out = Vec::with_capacity(64);
            for offset in -2i64..=2 {
                let at = index as i64 + offset;
                match usize::try_from(at).ok().filter(|at| *at < count) {
                    Some(at) => {
                        out.push(format!("s:a{offset}:{}", name(reading[at])));
                        for (role, score) in first[at].iter().enumerate() {
                            let bin = ((score.exp() * 4.0) as usize).min(3);
                            out.push(format!("s:p{offset}:{}:{bin}", name(role)));
                        }
                    }
                    None => out.push(format!("s:a{offset}:none")),
                }
            }
            let own = name(reading[index]);
            let previous = index.checked_sub(1).map_or("none", |at| name(reading[at]));
            let next = reading.get(index + 1).map_or("none", |role| name(*role));
            out.push(format!("s:pair-:{previous}_{own}"));
            out.push(format!("s:pair+:{own}_{next}"));
            out.push(format!("s:pos{}:{own}", index * 5 / count));
            for role in counted {
                let before = reading[..index]
                    .iter()
                    .filter(|read| **read == role.index())
                    .count()
                    .min(2);
                let after = reading[index + 1..]
                    .iter()
                    .filter(|read| **read == role.index())
                    .count()
                    .min(2);
                out.push(format!("s:before:{}:{before}", role.name()));
                out.push(format!("s:after:{}:{after}", role.name()));
            }
            out
        })
        .collect()
}

/// Abstracts shorter than this are no sequence to read positions in: every structured abstract
/// the model learns from is longer, and a one- or two-sentence abstract is as often a finding
/// as a background.
pub(super) const MIN_SEQUENCE: usize = 3;

/// The features of each sentence of an abstract: its words and word pairs, how it opens, its
/// length, and (in an abstract of [`MIN_SEQUENCE`] sentences or more) where it stands in the
/// abstract, its opening word at that place ("We" opens objectives early and conclusions
/// late), and its neighbours' words and opening words.
pub(super) fn features(sentences: &[&str]) -> Vec<Vec<String>> {
    let words: Vec<Vec<String>> = sentences.iter().map(|sentence| tokens(sentence)).collect();
    let count = words.len();
    (0..count)
        .map(|index| {
            let own = &words[index];
            let mut out: Vec<String> = Vec::with_capacity(own.len() * 4 + 16);
            out.extend(own.iter().map(|word| format!("w:{word}")));
            out.extend(
                own.windows(2)
                    .map(|pair| format!("b:{}_{}", pair[0], pair[1])),
            );
            let first = own.first().map_or("", String::as_str);
            let second = own.get(1).map_or("", String::as_str);
            out.push(format!("f:{first}"));
            out.push(format!("f2:{first}_{second}"));
            out.push(format!("len:{}", (own.len() / 10).min(4)));
            if count < MIN_SEQUENCE {
                out.sort_unstable();
                out.dedup();
                return out;
            }
            out.push(format!("pos:{}", index * 5 / count));
            out.push(format!("fp:{first}_{}", index * 5 / count));
            match index.checked_sub(1).map(|previous| &words[previous]) {
                Some(previous) => {
                    out.extend(previous.iter().map(|word| format!("p:{word}")));
                    out.push(format!(
                        "pf:{}",
                        previous.first().map_or("", String::as_str)
                    ));
                }
                None => out.push("p:<none>".to_owned()),
            }
            match words.get(index + 1) {
                Some(next) => {
                    out.extend(next.iter().map(|word| format!("n:{word}")));
                    out.push(format!("nf:{}", next.first().map_or("", String::as_str)));
                }
                None => out.push("n:<none>".to_owned()),
            }
            out.sort_unstable();
            out.dedup();
            out
        })
        .collect()
}

/// A sentence's tokens: stemmed lower-case words, every number as `0`, and the signs of
/// statistics (`%`, comparisons) as tokens of their own.
fn tokens(sentence: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<String>| {
        if word.is_empty() {
            return;
        }
        if word.chars().any(|c| c.is_ascii_digit()) {
            out.push("0".to_owned());
        } else {
            out.push(stem(&word.to_lowercase()));
        }
        word.clear();
    };
    for c in sentence.chars() {
        if c.is_alphanumeric() {
            word.push(c);
            continue;
        }
        flush(&mut word, &mut out);
        match c {
            '%' => out.push("%".to_owned()),
            '<' | '>' | '=' | '≤' | '≥' | '±' => out.push("<cmp>".to_owned()),
            _ => {}
        }
    }
    flush(&mut word, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_fold_numbers_and_keep_statistics() {
        assert_eq!(
            tokens("Rates fell by 12.5% (P<0.001)."),
            ["rate", "fell", "by", "0", "0", "%", "p", "<cmp>", "0", "0"]
        );
    }

    #[test]
    fn a_model_reads_back_as_written_and_bad_files_say_where() {
        let mut weights = HashMap::new();
        weights.insert(
            "w:trial".to_owned(),
            [0.0, 0.0, 1.27, 0.0, 0.0, 0.0, 0.0, -0.5],
        );
        weights.insert("w:tiny".to_owned(), [0.001; ROLES]);
        let mut model = RoleModel {
            weights,
            bias: [0.1; ROLES],
            transitions: [[-1.5; ROLES]; ROLES],
            sequence_weight: 1.0,
            stack_bias: None,
        };
        let text = model.to_text();
        assert!(
            !text.contains("w:tiny"),
            "weights too small to matter are left out"
        );
        model.weights.remove("w:tiny");
        let read = RoleModel::parse(&text).expect("reads back");
        assert_eq!(
            read.to_text(),
            text,
            "a model read back writes the same file"
        );
        let trial = read.weights.get("w:trial").expect("feature kept");
        assert!(
            (trial[2] - 1.27).abs() < 1e-6 && (trial[7] + 0.5).abs() < 0.01,
            "{trial:?}"
        );
        assert_eq!(read.bias, model.bias);
        let broken = text.replace("w:trial\t00007f", "w:trial\t00007");
        let error = RoleModel::parse(&broken).expect_err("role 9 does not exist");
        assert_eq!(error.line, 15);
        assert!(error.to_string().contains("retrain"), "{error}");
        assert!(
            RoleModel::parse("litrev-roles 1\n").is_err(),
            "a file of the first version"
        );
        assert!(
            RoleModel::parse("litrev-roles 2\n").is_err(),
            "a file that ends early"
        );
        assert!(RoleModel::parse("").is_err());
    }

    #[test]
    fn the_second_pass_reads_each_sentence_with_its_neighbours_readings() {
        let reading = |role: Role, sure: f32| -> Scores {
            let mut scores = [((1.0 - sure) / (ROLES - 1) as f32).ln(); ROLES];
            scores[role.index()] = sure.ln();
            scores
        };
        let first = [
            reading(Role::Background, 0.9),
            reading(Role::Objective, 0.6),
            reading(Role::Method, 0.95),
            reading(Role::Method, 0.3),
            reading(Role::Result, 0.8),
        ];
        let features = stacked_features(&first);
        assert_eq!(features.len(), first.len());
        let third = &features[2];
        let has = |name: &str| third.iter().any(|feature| feature == name);
        for expected in [
            "s:a-2:background",
            "s:a-1:objective",
            "s:a0:method",
            "s:a1:method",
            "s:a2:result",
            "s:p0:method:3",
            "s:p-1:objective:2",
            "s:pair-:objective_method",
            "s:pair+:method_method",
            "s:pos2:method",
            "s:before:objective:1",
            "s:before:method:0",
            "s:after:method:1",
            "s:after:result:1",
        ] {
            assert!(has(expected), "{expected} missing from {third:?}");
        }
        assert!(features[0].iter().any(|feature| feature == "s:a-2:none"));
        assert!(features[4].iter().any(|feature| feature == "s:a1:none"));
        assert!(
            features[4]
                .iter()
                .any(|feature| feature == "s:before:method:2")
        );
    }

    #[test]
    fn decoding_follows_transitions_when_a_sentence_is_unsure() {
        let mut transitions = [[-10.0; ROLES]; ROLES];
        transitions[Role::Method.index()][Role::Result.index()] = 0.0;
        transitions[Role::Method.index()][Role::Method.index()] = -0.5;
        let model = RoleModel {
            weights: HashMap::new(),
            bias: [0.0; ROLES],
            transitions,
            sequence_weight: 1.0,
            stack_bias: None,
        };
        let mut unsure = [-3.0; ROLES];
        unsure[Role::Objective.index()] = -1.0;
        unsure[Role::Result.index()] = -1.2;
        let mut method = [-5.0; ROLES];
        method[Role::Method.index()] = -0.1;
        assert_eq!(
            model.decode(&[method, method, unsure]),
            [Role::Method, Role::Method, Role::Result]
        );
        assert_eq!(
            model.decode(&[method, unsure]),
            [Role::Method, Role::Objective],
            "two sentences are no sequence: each is read alone"
        );
    }
}
