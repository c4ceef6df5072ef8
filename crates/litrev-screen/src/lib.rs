//! Corpus → one [`ScreeningDecision`] per work: rules first, then a relevance ranking.
//!
//! Rules exclude what cannot be reviewed (stubs without metadata, retracted works, works with
//! no abstract to take evidence from) and what the plan's filters rule out (years, languages,
//! kinds of work, excluded terms). The rest are ranked by TF-IDF similarity to the question
//! and the seeds, boosted by citation links to the other top-ranked works; the best are
//! included up to the tier's limit. Every decision carries a reason code, a score and a
//! one-line rationale naming the words that drove the score.

mod judge;
mod model;
mod rules;
mod simulate;

use std::collections::{BTreeMap, BTreeSet};

use litrev_graph::CitationGraph;
use litrev_model::{
    Citation, CorpusEntry, Decision, Filters, Origin, Plan, ReasonCode, Reviewer,
    ScreeningDecision, Work, WorkId,
};
use litrev_text::{Corpus, RelevanceProfile};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

pub use judge::{JUDGE_PHASE, JudgeConfig, JudgeReport, judge};
pub use model::{
    FeatureConfig, FeatureSpace, LinearModel, SettingError, SplitMix64, SvmConfig, Trainer,
    record_links,
};
pub use rules::rule_exclusion;
pub use simulate::{
    Metrics, Simulation, SimulationConfig, SimulationError, metrics, priors, simulate, simulate_in,
};

/// Options of the screen phase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScreenConfig {
    /// Most works included.
    pub max_included: usize,
    /// Relevance threshold relative to the best-ranked works (0–1).
    pub relative_threshold: f32,
    /// Top discovered works that stand in for seeds when none are given.
    pub profile_works: usize,
    /// Weight of the citation-link boost.
    pub link_weight: f32,
}

impl ScreenConfig {
    /// The plan's limits.
    pub fn from_plan(plan: &Plan) -> ScreenConfig {
        ScreenConfig {
            max_included: plan.limits.max_works,
            relative_threshold: plan.relevance_threshold,
            profile_works: 5,
            link_weight: 0.15,
        }
    }
}

/// Decides on every corpus entry. `works` holds the records of the non-stub entries.
///
/// Decisions come back in ranking order: included works first, best first.
pub fn screen(
    config: &ScreenConfig,
    plan: &Plan,
    entries: &[CorpusEntry],
    works: &BTreeMap<WorkId, Work>,
    citations: &[Citation],
) -> Vec<ScreeningDecision> {
    let named = |origin: Origin| -> BTreeSet<&WorkId> {
        entries
            .iter()
            .filter(|entry| entry.origin == origin)
            .map(|entry| &entry.work)
            .collect()
    };
    let seeds = named(Origin::Seed);
    // The web pages the user named are included by right, but stand for nothing, nor do the
    // records of the user's libraries (which may hold any subject): the profile is the seeds'
    // or the searches'.
    let pages = named(Origin::Page);
    let texts: BTreeMap<&WorkId, String> = works
        .iter()
        .map(|(id, work)| {
            let _processing = litrev_model::processing(id);
            (id, work.title_and_abstract())
        })
        .collect();
    let text_list: Vec<&str> = texts.values().map(String::as_str).collect();
    let (corpus, vectors) = Corpus::with_vectors(&text_list);
    // The profile texts: the seeds, else the first discovered works (of a domain's searches,
    // for a question split into domains).
    let profile_texts = |wanted: &dyn Fn(&CorpusEntry) -> bool| -> Vec<&str> {
        let ids: Vec<&WorkId> = if seeds.is_empty() {
            entries
                .iter()
                .filter(|entry| {
                    entry.stage == 0
                        && !matches!(entry.origin, Origin::Page | Origin::Library)
                        && works.contains_key(&entry.work)
                        && wanted(entry)
                })
                .take(config.profile_works)
                .map(|entry| &entry.work)
                .collect()
        } else {
            seeds.iter().copied().collect()
        };
        ids.iter()
            .filter_map(|id| texts.get(id).map(String::as_str))
            .collect()
    };
    let focuses = plan.focuses();
    let profiles: Vec<(Option<&str>, RelevanceProfile)> = if focuses.is_empty() {
        vec![(
            None,
            RelevanceProfile::new(corpus, &plan.question, &profile_texts(&|_| true)),
        )]
    } else {
        focuses
            .iter()
            .map(|focus| {
                let of_focus = |entry: &CorpusEntry| {
                    entry
                        .queries
                        .iter()
                        .any(|label| focus.queries.contains(label))
                };
                let profile = RelevanceProfile::new(
                    corpus.clone(),
                    &focus.question,
                    &profile_texts(&of_focus),
                );
                (Some(focus.name.as_str()), profile)
            })
            .collect()
    };
    let best_few = config.max_included.clamp(1, 20);

    // Text relevance (to the domain a work fits best), then a boost for citation links to the
    // text-relevant core.
    let fits = best_fits(&profiles, &vectors, best_few);
    let text_scores: BTreeMap<&WorkId, f32> = texts
        .keys()
        .zip(&fits)
        .map(|(id, (_, score))| (*id, *score))
        .collect();
    let fit_of: BTreeMap<&WorkId, usize> = texts
        .keys()
        .zip(&fits)
        .map(|(id, (fit, _))| (*id, *fit))
        .collect();
    let scores = with_links(config, &text_scores, works, citations);

    let mut ranked: Vec<(&WorkId, f32)> = scores.iter().map(|(id, s)| (*id, *s)).collect();
    ranked.sort_by(|a, b| {
        let a_seed = seeds.contains(a.0) || pages.contains(a.0);
        let b_seed = seeds.contains(b.0) || pages.contains(b.0);
        b_seed
            .cmp(&a_seed)
            .then(b.1.total_cmp(&a.1))
            .then(a.0.cmp(b.0))
    });
    // The median of the best few: what a clearly relevant work scores for this question.
    let reference = median_of_best(ranked.iter().map(|(_, score)| *score), best_few);
    let threshold = reference * config.relative_threshold;

    // The words behind each score, for the reasons: read on every core, in ranking order.
    let driving: Vec<String> = ranked
        .par_iter()
        .map(|(id, _)| {
            let _processing = litrev_model::processing(id);
            profiles[fit_of[*id]]
                .1
                .driving_words(&texts[*id], 4)
                .join(", ")
        })
        .collect();
    let bar = Bar {
        config,
        filters: &plan.filters,
        seeds: &seeds,
        pages: &pages,
        threshold,
        total: ranked.len(),
    };
    let mut decisions = Vec::with_capacity(entries.len());
    let mut included = 0usize;
    for (rank, ((id, score), words)) in ranked.into_iter().zip(driving).enumerate() {
        let _processing = litrev_model::processing(id);
        let (decision, reason, rationale, reviewer) =
            bar.judge(id, &works[id], score, rank + 1, included, &words);
        if decision == Decision::Include {
            included += 1;
        }
        decisions.push(ScreeningDecision {
            work: id.clone(),
            decision,
            reason,
            rationale,
            score,
            reviewer,
            domain: profiles[fit_of[id]].0.map(str::to_owned),
        });
    }
    for entry in entries
        .iter()
        .filter(|entry| !works.contains_key(&entry.work))
    {
        decisions.push(ScreeningDecision {
            work: entry.work.clone(),
            decision: Decision::Exclude,
            reason: ReasonCode::NoMetadata,
            rationale: "known only by its id: the source holds no record of it".to_owned(),
            score: 0.0,
            reviewer: Reviewer::Rule,
            domain: None,
        });
    }
    decisions
}

/// Text scores with a boost for citation links to the text-relevant core (the best
/// `max_included` by text): a work the core cites or that cites it is likelier in scope.
fn with_links<'a>(
    config: &ScreenConfig,
    text_scores: &BTreeMap<&'a WorkId, f32>,
    works: &BTreeMap<WorkId, Work>,
    citations: &[Citation],
) -> BTreeMap<&'a WorkId, f32> {
    let mut by_text: Vec<(&WorkId, f32)> = text_scores.iter().map(|(id, s)| (*id, *s)).collect();
    by_text.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    let core_set: BTreeSet<&WorkId> = by_text
        .iter()
        .take(config.max_included)
        .map(|(id, _)| *id)
        .collect();
    let nodes: Vec<WorkId> = works.keys().cloned().collect();
    let graph = CitationGraph::new(&nodes, citations);
    text_scores
        .iter()
        .map(|(id, text_score)| {
            let links = graph
                .references_of(id)
                .into_iter()
                .chain(graph.citers_of(id))
                .filter(|other| core_set.contains(other))
                .count();
            let boost = config.link_weight * (links.min(10) as f32 / 10.0);
            (*id, (text_score + boost).min(1.0))
        })
        .collect()
}

/// What each ranked work is judged against: the user's seeds and pages, the plan's filters,
/// the relevance threshold and the tier's limit.
struct Bar<'a> {
    config: &'a ScreenConfig,
    filters: &'a Filters,
    seeds: &'a BTreeSet<&'a WorkId>,
    pages: &'a BTreeSet<&'a WorkId>,
    threshold: f32,
    /// Works ranked.
    total: usize,
}

impl Bar<'_> {
    /// The decision on the work ranked `rank` (from 1) with `score`, `included` works having
    /// been included before it; `words` are those that drove its score.
    fn judge(
        &self,
        id: &WorkId,
        work: &Work,
        score: f32,
        rank: usize,
        included: usize,
        words: &str,
    ) -> (Decision, ReasonCode, String, Reviewer) {
        let Bar {
            config,
            filters,
            seeds,
            pages,
            threshold,
            total,
        } = *self;
        let drove = if words.is_empty() {
            "no words in common with the question or seeds".to_owned()
        } else {
            format!("shares {words}")
        };
        if seeds.contains(id) {
            (
                Decision::Include,
                ReasonCode::Seed,
                "named as a seed by the user".to_owned(),
                Reviewer::Rule,
            )
        } else if pages.contains(id) {
            (
                Decision::Include,
                ReasonCode::Seed,
                "a web page named by the user (grey literature)".to_owned(),
                Reviewer::Rule,
            )
        } else if let Some((reason, rationale)) = rule_exclusion(filters, work) {
            (Decision::Exclude, reason, rationale, Reviewer::Rule)
        } else if score < threshold {
            (
                Decision::Exclude,
                ReasonCode::OutOfScope,
                format!(
                    "relevance {score:.3} is under the threshold {threshold:.3} (rank {rank} of {total}); {drove}"
                ),
                Reviewer::Model,
            )
        } else if included >= config.max_included {
            (
                Decision::Exclude,
                ReasonCode::OverTierLimit,
                format!(
                    "relevance {score:.3} (rank {rank} of {total}) but the tier's limit of {} works is reached; {drove}",
                    config.max_included
                ),
                Reviewer::Model,
            )
        } else {
            (
                Decision::Include,
                ReasonCode::Relevant,
                format!("relevance {score:.3} (rank {rank} of {total}); {drove}"),
                Reviewer::Model,
            )
        }
    }
}

/// Each text's best profile and its score there: each profile's scores are brought to a common
/// scale by what its best few texts score (so no domain's vocabulary outweighs another's); one
/// profile's scores are kept as they are.
fn best_fits(
    profiles: &[(Option<&str>, RelevanceProfile)],
    vectors: &[litrev_text::SparseVector],
    best_few: usize,
) -> Vec<(usize, f32)> {
    let each: Vec<Vec<f32>> = profiles
        .iter()
        .map(|(_, profile)| {
            vectors
                .iter()
                .map(|vector| profile.score_vector(vector))
                .collect()
        })
        .collect();
    let references: Vec<f32> = each
        .iter()
        .map(|scores| {
            let mut sorted = scores.clone();
            sorted.sort_by(|a, b| b.total_cmp(a));
            median_of_best(sorted.into_iter(), best_few)
        })
        .collect();
    let usable: Vec<f32> = references.iter().copied().filter(|r| *r > 0.0).collect();
    let common = if usable.is_empty() {
        1.0
    } else {
        usable.iter().sum::<f32>() / usable.len() as f32
    };
    (0..vectors.len())
        .map(|position| {
            let mut best = (0, 0.0_f32);
            for (profile, scores) in each.iter().enumerate() {
                let scale = if profiles.len() == 1 || references[profile] <= 0.0 {
                    1.0
                } else {
                    common / references[profile]
                };
                let score = (scores[position] * scale).min(1.0);
                if score > best.1 {
                    best = (profile, score);
                }
            }
            best
        })
        .collect()
}

/// The median of the first `best_few` of scores sorted best first (the first when there are
/// fewer), 0 for none.
fn median_of_best(sorted: impl Iterator<Item = f32>, best_few: usize) -> f32 {
    let best: Vec<f32> = sorted.take(best_few).collect();
    best.get(best_few / 2)
        .or_else(|| best.first())
        .copied()
        .unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use litrev_model::{Tier, WorkIds};

    use super::*;

    fn work(id: &str, title: &str, abstract_text: Option<&str>) -> Work {
        Work {
            ids: WorkIds {
                openalex: Some(id.parse().expect("id")),
                ..WorkIds::default()
            },
            title: Some(title.into()),
            abstract_text: abstract_text.map(str::to_owned),
            ..Work::default()
        }
    }

    fn entry(id: &str, origin: Origin) -> CorpusEntry {
        CorpusEntry {
            work: id.parse().expect("id"),
            stage: 0,
            origin,
            score: 1.0,
            queries: Vec::new(),
        }
    }

    #[test]
    fn rules_then_ranking_with_reasons() {
        let plan = litrev_plan_stub("insulin pumps for children");
        let mut retracted = work(
            "W4",
            "Insulin pumps in children retracted",
            Some("Insulin pumps."),
        );
        retracted.is_retracted = true;
        let records = [
            work(
                "W1",
                "Insulin pumps in children",
                Some("Insulin pump therapy helps children."),
            ),
            work("W2", "School meals", Some("Meals at school and obesity.")),
            work("W3", "Insulin pumps for kids", None),
            retracted,
        ];
        let works: BTreeMap<WorkId, Work> =
            records.into_iter().map(|work| (work.id(), work)).collect();
        let entries = [
            entry("W1", Origin::Search),
            entry("W2", Origin::Search),
            entry("W3", Origin::Search),
            entry("W4", Origin::Search),
            entry("W9", Origin::Backward),
        ];
        let config = ScreenConfig::from_plan(&plan);
        let decisions = screen(&config, &plan, &entries, &works, &[]);
        let reason_of = |id: &str| {
            decisions
                .iter()
                .find(|decision| decision.work.to_string() == id)
                .map(|decision| (decision.decision, decision.reason))
                .expect("decided")
        };
        assert_eq!(decisions.len(), 5, "one decision per entry");
        assert_eq!(reason_of("W1"), (Decision::Include, ReasonCode::Relevant));
        assert_eq!(reason_of("W2"), (Decision::Exclude, ReasonCode::OutOfScope));
        assert_eq!(
            reason_of("W3"),
            (Decision::Exclude, ReasonCode::MissingAbstract)
        );
        assert_eq!(reason_of("W4"), (Decision::Exclude, ReasonCode::Retracted));
        assert_eq!(reason_of("W9"), (Decision::Exclude, ReasonCode::NoMetadata));
        let included = decisions
            .iter()
            .find(|decision| decision.decision == Decision::Include)
            .expect("one included");
        assert!(
            included.rationale.contains("insulin"),
            "{}",
            included.rationale
        );
    }

    #[test]
    fn a_question_in_two_domains_includes_both_and_says_which() {
        let mut plan = litrev_plan_stub("insulin pumps for children and the rodent object task");
        plan.brief.domains = vec![
            litrev_model::Domain {
                name: "Medicine".into(),
                key_terms: vec!["insulin".into(), "pumps".into(), "children".into()],
            },
            litrev_model::Domain {
                name: "Psychology".into(),
                key_terms: vec!["rodent".into(), "object".into(), "task".into()],
            },
        ];
        plan.queries = vec![
            litrev_model::Query {
                domain: Some("Medicine".into()),
                ..litrev_model::Query::new("q1", "", "insulin pumps children")
            },
            litrev_model::Query {
                domain: Some("Psychology".into()),
                ..litrev_model::Query::new("q2", "", "rodent object task")
            },
        ];
        let records = [
            work(
                "W1",
                "Insulin pumps in children",
                Some("Insulin pump therapy helps children."),
            ),
            work(
                "W2",
                "Insulin pump use at school",
                Some("Children on insulin pumps at school."),
            ),
            work(
                "W5",
                "The rodent object task",
                Some("Rats explored each object in the task."),
            ),
            work(
                "W6",
                "Object memory in the rodent",
                Some("A task of object recognition in mice."),
            ),
            work("W9", "School meals", Some("Meals at school and obesity.")),
        ];
        let works: BTreeMap<WorkId, Work> =
            records.into_iter().map(|work| (work.id(), work)).collect();
        let found_by = |id: &str, label: &str| CorpusEntry {
            queries: vec![label.to_owned()],
            ..entry(id, Origin::Search)
        };
        let entries = [
            found_by("W1", "q1"),
            found_by("W5", "q2"),
            found_by("W2", "q1"),
            found_by("W6", "q2"),
            found_by("W9", "q1"),
        ];
        let decisions = screen(
            &ScreenConfig::from_plan(&plan),
            &plan,
            &entries,
            &works,
            &[],
        );
        let decided = |id: &str| {
            decisions
                .iter()
                .find(|decision| decision.work.to_string() == id)
                .map(|decision| (decision.decision, decision.domain.as_deref()))
                .expect("decided")
        };
        assert_eq!(decided("W2"), (Decision::Include, Some("Medicine")));
        assert_eq!(decided("W6"), (Decision::Include, Some("Psychology")));
        assert_eq!(decided("W9").0, Decision::Exclude);
    }

    fn litrev_plan_stub(question: &str) -> Plan {
        let limits = Tier::Quick.limits();
        Plan {
            question: question.into(),
            key_terms: Vec::new(),
            queries: Vec::new(),
            seeds: Vec::new(),
            tier: Tier::Quick,
            limits,
            hits_per_query: limits.max_works,
            relevance_threshold: 0.6,
            filters: litrev_model::Filters::default(),
            brief: litrev_model::Brief::default(),
            synthesis: None,
        }
    }
}
