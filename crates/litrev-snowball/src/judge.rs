//! Which works of a corpus are relevant, and how much: structural links first, then a semantic
//! score against a threshold.
//!
//! The score mixes three measures, each against a profile made of the question (text only), the
//! seeds and the best works so far (relevance feedback, "what is already included"): TF-IDF
//! similarity of title and abstract, similarity of citation links ([`crate::links`]: cited
//! together, citing the same works, citing each other), and reach, how often a random walk
//! along citations from that core visits the work (two or more citations away, where link
//! similarity sees nothing). Each is scaled by its median over the core before mixing, so
//! none dominates because its numbers run larger. The threshold is a share of the core's
//! median score, so it follows the question rather than a fixed number.
//!
//! Scoring ([`score`]) is the costly part; deciding ([`Scored::decide`]) is cheap, so a stage
//! that asks a language model about the works in doubt decides again without scoring again.

use std::collections::{BTreeMap, BTreeSet};

use litrev_model::{Work, WorkId};
use litrev_text::{Corpus, RelevanceProfile, SparseVector};
use serde::{Deserialize, Serialize};

use crate::SnowballConfig;
use crate::links::Links;

/// The chance that the walk measuring reach ([`Links::reach`]) jumps back to the core at each
/// step: 0.3 keeps most of its visits within two or three citations of the core.
const REACH_RESTART: f32 = 0.3;

/// Why a work is relevant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// The user named it.
    Seed,
    /// Linked to enough relevant works (cites or is cited by them, is cited with them, shares
    /// references with them), whatever its text.
    Structural,
    /// Its score reached the threshold.
    Semantic,
    /// Its score left it in doubt and the language model judged it relevant.
    Llm,
}

/// Relevance of every work of a corpus.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Judgement {
    /// Score of every work with a record, 0–1 (higher is more relevant).
    pub scores: BTreeMap<WorkId, f32>,
    /// The relevant works and why.
    pub relevant: BTreeMap<WorkId, Basis>,
    /// The score a work needs to be relevant semantically.
    pub threshold: f32,
}

impl Judgement {
    /// Every scored work, best first (ties by id): the engine's relevance ranking.
    pub fn ranking(&self) -> Vec<&WorkId> {
        let mut ranked: Vec<(&WorkId, f32)> =
            self.scores.iter().map(|(id, score)| (id, *score)).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
        ranked.into_iter().map(|(id, _)| id).collect()
    }
}

/// Every record's score and the threshold: the costly part of a judgement, which verdicts do
/// not change, so a stage scores once and decides again after asking a model.
pub(crate) struct Scored<'a> {
    links: Links<'a>,
    scores: Vec<f32>,
    threshold: f32,
}

/// Scores `records` (every corpus work with a record, keyed by primary id).
///
/// `profile` are the works relevance is measured against besides the question: the seeds, or
/// failing them the best discovered works.
pub(crate) fn score<'a>(
    config: &SnowballConfig,
    question: &str,
    profile: &[WorkId],
    records: &BTreeMap<WorkId, &'a Work>,
) -> Scored<'a> {
    let links = Links::new(records);
    let positions: std::collections::HashMap<&WorkId, usize> = links
        .keys
        .iter()
        .enumerate()
        .map(|(position, id)| (id, position))
        .collect();
    let texts: Vec<String> = records
        .iter()
        .map(|(id, work)| {
            let _processing = litrev_model::processing(id);
            work.title_and_abstract()
        })
        .collect();
    let (corpus, text_vectors) = Corpus::with_vectors(&texts);
    let profile_positions: Vec<usize> = profile
        .iter()
        .filter_map(|id| positions.get(id).copied())
        .collect();
    let profile_texts: Vec<&str> = profile_positions
        .iter()
        .map(|&position| texts[position].as_str())
        .collect();

    // Relevance feedback: the works closest to the question and profile, before feedback.
    let plain = RelevanceProfile::new(corpus.clone(), question, &profile_texts);
    let plain_scores: Vec<f32> = text_vectors
        .iter()
        .map(|vector| plain.score_vector(vector))
        .collect();
    let mut candidates: Vec<usize> = (0..links.len())
        .filter(|position| !profile_positions.contains(position))
        .collect();
    candidates.sort_by(|&a, &b| plain_scores[b].total_cmp(&plain_scores[a]).then(a.cmp(&b)));
    let feedback: Vec<usize> = candidates.into_iter().take(config.feedback_works).collect();
    let feedback_texts: Vec<&str> = feedback
        .iter()
        .map(|&position| texts[position].as_str())
        .collect();
    let text_profile =
        RelevanceProfile::with_feedback(corpus, question, &profile_texts, &feedback_texts);
    let text_scores: Vec<f32> = text_vectors
        .iter()
        .map(|vector| text_profile.score_vector(vector))
        .collect();

    let link_vectors = links.vectors();
    let centroid_of = |positions: &[usize]| {
        SparseVector::centroid(positions.iter().map(|&position| &link_vectors[position]))
    };
    let link_parts: Vec<SparseVector> = [centroid_of(&profile_positions), centroid_of(&feedback)]
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect();
    let link_profile = SparseVector::centroid(&link_parts);
    let link_scores: Vec<f32> = link_vectors
        .iter()
        .map(|vector| vector.cosine(&link_profile))
        .collect();

    // Mix on a common scale: each similarity over its median in the core.
    let core: Vec<usize> = profile_positions.iter().chain(&feedback).copied().collect();
    let text_reference = median(core.iter().map(|&position| text_scores[position]));
    let link_reference = median(core.iter().map(|&position| link_scores[position]));
    let link_share = if link_reference > 0.0 {
        config.link_weight * text_reference / link_reference
    } else {
        0.0
    };
    // Nearness along citations however many steps out, as ln(1 + n × visit share) over the n
    // records: a work visited as often as a uniform walk would visit it scores ln 2, an
    // unreached one 0.
    let record_count = links.len() as f32;
    let reach_scores: Vec<f32> = links
        .reach(&core, REACH_RESTART)
        .into_iter()
        .map(|share| (record_count * share).ln_1p())
        .collect();
    let reach_reference = median(core.iter().map(|&position| reach_scores[position]));
    let reach_share = if reach_reference > 0.0 {
        config.reach_weight * text_reference / reach_reference
    } else {
        0.0
    };
    let scores: Vec<f32> = text_scores
        .iter()
        .zip(&link_scores)
        .zip(&reach_scores)
        .map(|((text, link), reach)| {
            (text + link_share * link + reach_share * reach) / (1.0 + link_share + reach_share)
        })
        .collect();
    let threshold =
        config.relevance_threshold * median(core.iter().map(|&position| scores[position]));
    Scored {
        links,
        scores,
        threshold,
    }
}

/// Scores `records` against several foci (a domain's terms as the question, and its profile
/// works), each work by the focus it fits best: each focus's scores are brought to a common
/// scale by the median of its core, so that no domain's vocabulary outweighs another's, and
/// the threshold is the foci's mean.
pub(crate) fn score_focused<'a>(
    config: &SnowballConfig,
    foci: &[(&str, Vec<WorkId>)],
    records: &BTreeMap<WorkId, &'a Work>,
) -> Scored<'a> {
    let mut each: Vec<Scored<'a>> = foci
        .iter()
        .map(|(question, profile)| score(config, question, profile, records))
        .collect();
    let usable: Vec<usize> = (0..each.len())
        .filter(|&focus| each[focus].threshold > 0.0)
        .collect();
    if usable.is_empty() {
        return each.swap_remove(0);
    }
    let mean_threshold = usable
        .iter()
        .map(|&focus| each[focus].threshold)
        .sum::<f32>()
        / usable.len() as f32;
    let scores: Vec<f32> = (0..records.len())
        .map(|position| {
            usable
                .iter()
                .map(|&focus| each[focus].scores[position] * mean_threshold / each[focus].threshold)
                .fold(0.0, f32::max)
        })
        .collect();
    let first = each.swap_remove(usable[0]);
    Scored {
        links: first.links,
        scores,
        threshold: mean_threshold,
    }
}

impl Scored<'_> {
    /// Which works are relevant: the seeds by right, then those a model's `verdicts` (on works
    /// their score left in doubt) find relevant, else those scoring at the threshold; then any
    /// work linked to enough relevant works.
    pub(crate) fn decide(
        &self,
        config: &SnowballConfig,
        seeds: &[WorkId],
        verdicts: &BTreeMap<WorkId, bool>,
    ) -> Judgement {
        let Scored {
            links,
            scores,
            threshold,
        } = self;
        let threshold = *threshold;
        let seed_set: BTreeSet<&WorkId> = seeds.iter().collect();
        let mut relevant: BTreeMap<WorkId, Basis> = BTreeMap::new();
        let mut relevant_positions: BTreeSet<usize> = BTreeSet::new();
        for (position, id) in links.keys.iter().enumerate() {
            let basis = if seed_set.contains(id) {
                Some(Basis::Seed)
            } else if let Some(&relevant) = verdicts.get(id) {
                relevant.then_some(Basis::Llm)
            } else if scores[position] >= threshold {
                Some(Basis::Semantic)
            } else {
                None
            };
            if let Some(basis) = basis {
                relevant.insert(id.clone(), basis);
                relevant_positions.insert(position);
            }
        }
        if config.structural_links > 0 {
            let counts = links.linked_counts(&relevant_positions, config.link_strength);
            for (position, count) in counts.into_iter().enumerate() {
                if count >= config.structural_links {
                    relevant.insert(links.keys[position].clone(), Basis::Structural);
                }
            }
        }
        Judgement {
            scores: links
                .keys
                .iter()
                .cloned()
                .zip(scores.iter().copied())
                .collect(),
            relevant,
            threshold,
        }
    }
}

/// The median of some numbers (the upper one of an even count), 0 when there are none.
fn median(values: impl Iterator<Item = f32>) -> f32 {
    let mut values: Vec<f32> = values.collect();
    values.sort_by(f32::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_works::work;

    #[test]
    fn each_work_is_judged_by_the_domain_it_fits_best() {
        let works = [
            work("W1", "emicizumab prophylaxis in haemophilia", &[]),
            work("W2", "emicizumab prophylaxis trial in haemophilia", &[]),
            work("W3", "emicizumab dosing in haemophilia", &[]),
            work("W5", "rodent object recognition memory", &[]),
            work("W6", "object recognition memory in the rodent", &[]),
            work("W7", "rodent object context memory", &[]),
            work("W9", "school meals and obesity", &[]),
        ];
        let records: BTreeMap<WorkId, &Work> = works.iter().map(|work| (work.id(), work)).collect();
        let id = |text: &str| text.parse::<WorkId>().expect("id");
        let config = SnowballConfig {
            feedback_works: 1,
            ..SnowballConfig::default()
        };
        let foci = [
            ("emicizumab haemophilia", vec![id("W1")]),
            ("rodent object recognition", vec![id("W5")]),
        ];
        let judgement =
            score_focused(&config, &foci, &records).decide(&config, &[], &BTreeMap::new());
        for relevant in ["W2", "W3", "W6", "W7"] {
            assert!(
                judgement.relevant.contains_key(&id(relevant)),
                "{relevant}: {:?}, threshold {}",
                judgement.scores,
                judgement.threshold
            );
        }
        assert!(!judgement.relevant.contains_key(&id("W9")));
        // One focus alone leaves the other's works out.
        let alone =
            score(&config, foci[0].0, &foci[0].1, &records).decide(&config, &[], &BTreeMap::new());
        assert!(!alone.relevant.contains_key(&id("W6")));
    }

    #[test]
    fn text_and_links_both_count() {
        let works = [
            work("W1", "emicizumab prophylaxis in haemophilia", &["W9", "W8"]),
            work(
                "W2",
                "emicizumab pharmacokinetics in children",
                &["W9", "W8"],
            ),
            work(
                "W3",
                "bleeding rates under prophylaxis",
                &["W1", "W9", "W8"],
            ),
            work("W4", "knee surgery outcomes", &["W7"]),
            work("W5", "haemophilia care costs", &[]),
        ];
        let records: BTreeMap<WorkId, &Work> = works.iter().map(|work| (work.id(), work)).collect();
        let seed: WorkId = "W1".parse().expect("id");
        let config = SnowballConfig {
            feedback_works: 1,
            ..SnowballConfig::default()
        };
        let seeds = std::slice::from_ref(&seed);
        let scored = score(&config, "emicizumab in haemophilia", seeds, &records);
        let judgement = scored.decide(&config, seeds, &BTreeMap::new());
        let score = |id: &str| judgement.scores[&id.parse::<WorkId>().expect("id")];
        assert!(score("W2") > score("W4"));
        assert!(
            score("W3") > score("W4"),
            "cites the seed and shares its references"
        );
        assert_eq!(judgement.relevant[&seed], Basis::Seed);
        assert!(!judgement.relevant.contains_key(&"W4".parse().expect("id")));
        assert_eq!(judgement.ranking()[0], &seed);

        // A model's verdicts replace the score's judgement; links still count.
        let verdicts: BTreeMap<WorkId, bool> = [
            ("W2".parse().expect("id"), false),
            ("W4".parse().expect("id"), true),
            (seed.clone(), false),
        ]
        .into();
        let judged = scored.decide(&config, seeds, &verdicts);
        let basis = |id: &str| judged.relevant.get(&id.parse::<WorkId>().expect("id"));
        assert_eq!(basis("W2"), None, "judged not relevant");
        assert_eq!(basis("W4"), Some(&Basis::Llm));
        assert_eq!(basis("W1"), Some(&Basis::Seed), "a seed stays a seed");
        assert_eq!(
            judged.scores, judgement.scores,
            "verdicts leave scores alone"
        );
    }

    /// Reach sees a work two citations from the seed, which shares no word, reference or citer
    /// with it: without reach it scores as an unlinked work with the same words.
    #[test]
    fn reach_lifts_a_work_two_citations_from_the_seed() {
        let works = [
            work("W1", "emicizumab prophylaxis in haemophilia", &[]),
            work("W2", "bleeding under factor replacement", &["W1"]),
            work("W3", "knee surgery outcomes", &["W2"]),
            work("W4", "knee surgery outcomes", &[]),
        ];
        let records: BTreeMap<WorkId, &Work> = works.iter().map(|work| (work.id(), work)).collect();
        let seed: WorkId = "W1".parse().expect("id");
        let seeds = std::slice::from_ref(&seed);
        let scores = |reach_weight: f32| {
            let config = SnowballConfig {
                feedback_works: 0,
                reach_weight,
                ..SnowballConfig::default()
            };
            let judgement = score(&config, "emicizumab", seeds, &records).decide(
                &config,
                seeds,
                &BTreeMap::new(),
            );
            let at = |id: &str| judgement.scores[&id.parse::<WorkId>().expect("id")];
            (at("W3"), at("W4"))
        };
        let (linked, unlinked) = scores(0.0);
        assert_eq!(linked, unlinked, "links see one step only");
        let (linked, unlinked) = scores(0.2);
        assert!(linked > unlinked, "{linked} vs {unlinked}");
    }

    /// A work relevant as a seed or by its score keeps that basis however linked it is
    /// (`Links::linked_counts` counts only works outside the relevant ones).
    #[test]
    fn links_keep_only_works_nothing_else_keeps() {
        let works = [
            work("W1", "emicizumab prophylaxis in haemophilia", &[]),
            work("W2", "emicizumab prophylaxis in children", &["W1"]),
            work("W3", "emicizumab prophylaxis and bleeding", &["W1"]),
            work("W4", "emicizumab prophylaxis at home", &["W1"]),
            work("W5", "knee surgery outcomes", &["W2", "W3", "W4"]),
            work("W6", "hip replacement costs", &["W9"]),
        ];
        let records: BTreeMap<WorkId, &Work> = works.iter().map(|work| (work.id(), work)).collect();
        let seed: WorkId = "W1".parse().expect("id");
        // Text alone scores: links and reach would lift W5, whose text shares nothing with
        // the question, over the threshold by its citations, which is what is tested here.
        let config = SnowballConfig {
            feedback_works: 3,
            link_strength: 1,
            relevance_threshold: 0.3,
            link_weight: 0.0,
            reach_weight: 0.0,
            ..SnowballConfig::default()
        };
        let seeds = std::slice::from_ref(&seed);
        let judgement = score(&config, "emicizumab prophylaxis", seeds, &records).decide(
            &config,
            seeds,
            &BTreeMap::new(),
        );
        let basis = |id: &str| judgement.relevant.get(&id.parse::<WorkId>().expect("id"));
        assert_eq!(
            basis("W1"),
            Some(&Basis::Seed),
            "cited by three relevant works"
        );
        assert_eq!(basis("W2"), Some(&Basis::Semantic), "{judgement:?}");
        assert_eq!(basis("W5"), Some(&Basis::Structural), "{judgement:?}");
        assert_eq!(basis("W6"), None, "{judgement:?}");
        for (id, basis) in &judgement.relevant {
            if *basis == Basis::Structural {
                assert!(
                    judgement.scores[id] < judgement.threshold,
                    "{id} kept by its score"
                );
            }
        }
    }
}
