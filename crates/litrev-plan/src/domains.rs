//! Domain decomposition (seed S1, S4 §4c): a question that joins disciplines is split into
//! domains, each with the question's terms its discipline's works use, and each searched side
//! by side with queries of its own — its terms, their adjacent pairs, its seminal works and its
//! recent ones — so that neither discipline's literature buries the other's.

use std::collections::{BTreeMap, BTreeSet};

use litrev_model::{Domain, HitOrder, Plan, Query, Work};
use litrev_text::{content_words, stem};

use crate::{pair_phrases, pairs_or_terms, push_directed};

/// A term belongs to one domain alone when that discipline's probe works use it at least this
/// many times as often (as a share of their works) as any other's; below it, a term both use
/// belongs to both.
const DISTINCT_RATIO: f64 = 2.0;

/// Disciplines are unrelated when at most this share of the probe's works that use either's own
/// terms use both's.
const MEETING_SHARE: f64 = 0.1;

/// How many years the search for a domain's recent works reaches back, this year included
/// (S4 §4c: the last three to five years).
const RECENT_YEARS: i32 = 5;

/// The domains of a question, from its probe's works: first by discipline (when the probe
/// spread over `disciplines`, each with enough of its works), each discipline's works claiming
/// the question's terms they use distinctly more often than the others' ([`split_terms`]);
/// else by topic, when the works fall apart by the question's own terms ([`find_topics`]), as
/// two unrelated questions of one discipline do. Fewer than two domains: none (the question is
/// searched as one).
pub fn find_domains(disciplines: &[String], key_terms: &[String], hits: &[Work]) -> Vec<Domain> {
    if key_terms.is_empty() {
        return Vec::new();
    }
    let stems: Vec<BTreeSet<String>> = hits
        .iter()
        .map(|work| {
            content_words(&work.title_and_abstract())
                .iter()
                .map(|word| stem(word))
                .collect()
        })
        .collect();
    if disciplines.len() >= 2 {
        let group_of: Vec<Option<usize>> = hits
            .iter()
            .map(|work| {
                work.fields
                    .first()
                    .and_then(|field| disciplines.iter().position(|name| name == field))
            })
            .collect();
        let split = split_terms(disciplines.len(), &group_of, key_terms, &stems);
        if split.len() >= 2 {
            return split
                .into_iter()
                .map(|claim| Domain {
                    name: disciplines[claim.group].clone(),
                    key_terms: claim.terms,
                })
                .collect();
        }
    }
    find_topics(key_terms, &stems)
}

/// A group of works that claims terms of the question.
struct Claim {
    /// The group.
    group: usize,
    /// The question's terms its works use: its own and those used alike, in the question's
    /// order.
    terms: Vec<String>,
    /// Its own terms, in the question's order.
    own: Vec<String>,
}

/// The groups of works (`group_of`, by work; `None` for works of no group) that claim terms of
/// their own, with the terms each uses: its own, which its works use at least
/// [`DISTINCT_RATIO`] times as often as any other group's, and those used alike. Empty unless
/// two groups claim terms and their works seldom meet ([`MEETING_SHARE`]).
fn split_terms(
    groups: usize,
    group_of: &[Option<usize>],
    key_terms: &[String],
    stems: &[BTreeSet<String>],
) -> Vec<Claim> {
    if groups < 2 {
        return Vec::new();
    }
    // Per group: how many of its works use each stem, and how many works it has.
    let mut uses: Vec<(usize, BTreeMap<&str, usize>)> = vec![Default::default(); groups];
    for (group, stems) in group_of.iter().zip(stems) {
        let Some(group) = group else { continue };
        let (works, counts) = &mut uses[*group];
        *works += 1;
        for found in stems {
            *counts.entry(found.as_str()).or_default() += 1;
        }
    }
    let mut own: Vec<Vec<String>> = vec![Vec::new(); groups];
    let mut terms: Vec<Vec<String>> = vec![Vec::new(); groups];
    for term in key_terms {
        let term_stem = stem(term);
        let rates: Vec<f64> = uses
            .iter()
            .map(|(works, counts)| match works {
                0 => 0.0,
                works => {
                    counts.get(term_stem.as_str()).copied().unwrap_or(0) as f64 / *works as f64
                }
            })
            .collect();
        let mut order: Vec<usize> = (0..rates.len()).collect();
        order.sort_by(|&a, &b| rates[b].total_cmp(&rates[a]).then(a.cmp(&b)));
        let best = order[0];
        if rates[best] == 0.0 {
            continue;
        }
        let runner_up = rates[order[1]];
        if rates[best] >= DISTINCT_RATIO * runner_up {
            own[best].push(term.clone());
            terms[best].push(term.clone());
        } else {
            for (slot, rate) in rates.iter().enumerate() {
                if *rate > 0.0 && rates[best] < DISTINCT_RATIO * rate {
                    terms[slot].push(term.clone());
                }
            }
        }
    }
    let claiming: Vec<usize> = (0..groups)
        .filter(|&group| !own[group].is_empty())
        .collect();
    if claiming.len() < 2 {
        return Vec::new();
    }
    // Related groups meet in their works (one study uses both's terms): the question is one,
    // seen from two sides, and splitting it would search it twice.
    let own_stems: Vec<BTreeSet<String>> = claiming
        .iter()
        .map(|&group| own[group].iter().map(|term| stem(term)).collect())
        .collect();
    let touched: Vec<usize> = stems
        .iter()
        .map(|stems| {
            own_stems
                .iter()
                .filter(|own| !own.is_disjoint(stems))
                .count()
        })
        .collect();
    let touching = touched.iter().filter(|&&count| count > 0).count();
    let meeting = touched.iter().filter(|&&count| count > 1).count();
    if touching == 0 || meeting as f64 > MEETING_SHARE * touching as f64 {
        return Vec::new();
    }
    claiming
        .into_iter()
        .map(|group| Claim {
            group,
            terms: std::mem::take(&mut terms[group]),
            own: std::mem::take(&mut own[group]),
        })
        .collect()
}

/// A term seeds a topic only when at least this many of the probe's works use it, and
/// [`SEED_SHARE`] of those using any of the question's terms.
const SEED_WORKS: usize = 5;

/// See [`SEED_WORKS`].
const SEED_SHARE: f64 = 0.1;

/// The fewest terms of its own a topic needs.
const MIN_TOPIC_TERMS: usize = 2;

/// Rounds of claiming terms and regrouping the works by them: the groups settle after a few.
const REGROUPINGS: usize = 3;

/// Two topics of one question, from the question's terms alone: the most used term seeds one,
/// and the most used term whose works seldom meet its works ([`MEETING_SHARE`]) the other. The
/// works using one seed alone form the groups, which claim their terms ([`split_terms`]); the
/// works are regrouped by the terms claimed, and the terms claimed again, a few times. Each
/// topic needs [`MIN_TOPIC_TERMS`] of its own, and is named by the three of them most works use,
/// in the question's order.
fn find_topics(key_terms: &[String], stems: &[BTreeSet<String>]) -> Vec<Domain> {
    let stem_of: Vec<String> = key_terms.iter().map(|term| stem(term)).collect();
    let users = |term_stem: &str| -> BTreeSet<usize> {
        (0..stems.len())
            .filter(|&work| stems[work].contains(term_stem))
            .collect()
    };
    let using_any = stems
        .iter()
        .filter(|stems| stem_of.iter().any(|term| stems.contains(term)))
        .count();
    let least = SEED_WORKS.max((SEED_SHARE * using_any as f64).ceil() as usize);
    let mut frequent: Vec<(usize, BTreeSet<usize>)> = stem_of
        .iter()
        .enumerate()
        .map(|(term, term_stem)| (term, users(term_stem)))
        .filter(|(_, works)| works.len() >= least)
        .collect();
    frequent.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    let Some((first, first_works)) = frequent.first() else {
        return Vec::new();
    };
    let apart = |works: &BTreeSet<usize>| {
        let both = works.intersection(first_works).count();
        let either = works.union(first_works).count();
        both as f64 <= MEETING_SHARE * either as f64
    };
    let Some((second, _)) = frequent.iter().skip(1).find(|(_, works)| apart(works)) else {
        return Vec::new();
    };
    let mut seeds: Vec<Vec<String>> = vec![
        vec![stem_of[*first].clone()],
        vec![stem_of[*second].clone()],
    ];
    let mut split = Vec::new();
    for _ in 0..REGROUPINGS {
        let group_of: Vec<Option<usize>> = stems
            .iter()
            .map(|stems| {
                let uses = |group: &Vec<String>| group.iter().any(|term| stems.contains(term));
                match (uses(&seeds[0]), uses(&seeds[1])) {
                    (true, false) => Some(0),
                    (false, true) => Some(1),
                    _ => None,
                }
            })
            .collect();
        split = split_terms(2, &group_of, key_terms, stems);
        if split.len() < 2 {
            return Vec::new();
        }
        let claimed: Vec<Vec<String>> = split
            .iter()
            .map(|claim| claim.own.iter().map(|term| stem(term)).collect())
            .collect();
        if claimed == seeds {
            break;
        }
        seeds = claimed;
    }
    // A topic is more than a word: one term alone apart from the rest is a word the question
    // uses in another sense, or that few of its works use, not a question of its own.
    if seeds.iter().any(|own| own.len() < MIN_TOPIC_TERMS) {
        return Vec::new();
    }
    split
        .into_iter()
        .map(|claim| {
            // Named by the own terms most of the probe's works use, in the question's order.
            let mut own: Vec<(usize, &String)> = claim.own.iter().enumerate().collect();
            own.sort_by_key(|&(place, term)| (std::cmp::Reverse(users(&stem(term)).len()), place));
            own.truncate(NAME_TERMS);
            own.sort_unstable();
            Domain {
                name: topic_name(own.iter().map(|(_, term)| term.as_str())),
                key_terms: claim.terms,
            }
        })
        .collect()
}

/// The most terms naming a topic.
const NAME_TERMS: usize = 3;

/// A topic's name: its terms, as the question has them, "a, b and c".
fn topic_name<'a>(terms: impl Iterator<Item = &'a str>) -> String {
    let terms: Vec<&str> = terms.collect();
    let name = match terms.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    };
    let mut chars = name.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Adds each domain's searches to a plan whose brief holds two domains or more, and gives each
/// domain the budget a question of its own would have (the tier's works, times the domains):
/// the question's own searches stay, for the works between them. Planning twice adds nothing.
pub fn split_into_domains(plan: &mut Plan, this_year: i32) {
    let domains = plan.brief.domains.clone();
    if domains.len() < 2 || plan.queries.iter().any(|query| query.domain.is_some()) {
        return;
    }
    for domain in &domains {
        // The terms no other domain shares make its plain search; the shared ones join its
        // phrases, where they sit beside its own.
        let own: Vec<&str> = domain
            .key_terms
            .iter()
            .filter(|term| {
                !domains
                    .iter()
                    .any(|other| other.name != domain.name && other.key_terms.contains(term))
            })
            .map(String::as_str)
            .collect();
        let all_terms = if own.is_empty() {
            domain.key_terms.join(" ")
        } else {
            own.join(" ")
        };
        let pairs = pairs_or_terms(&pair_phrases(&domain.key_terms), &all_terms);
        let name = &domain.name;
        let searches = [
            Query::new(
                "",
                format!("domain {name}: its topic terms"),
                all_terms.clone(),
            ),
            Query::new(
                "",
                format!("domain {name}: its adjacent topic terms as phrases"),
                pairs.clone(),
            ),
            Query {
                order: HitOrder::Citations,
                ..Query::new(
                    "",
                    format!("domain {name}: its most cited works (seminal works)"),
                    pairs,
                )
            },
            Query {
                from_year: Some(this_year - (RECENT_YEARS - 1)),
                ..Query::new(
                    "",
                    format!("domain {name}: works of the last five years"),
                    all_terms,
                )
            },
        ];
        for query in searches {
            push_directed(
                &mut plan.queries,
                Query {
                    domain: Some(name.clone()),
                    ..query
                },
            );
        }
    }
    plan.limits.max_works = plan.limits.max_works.saturating_mul(domains.len());
}

#[cfg(test)]
mod tests {
    use litrev_model::Tier;

    use super::*;
    use crate::{PlanConfig, plan};

    fn work(id: usize, field: &str, title: &str) -> Work {
        let mut work = Work::stub(format!("W{id}").parse().expect("id"));
        work.title = Some(title.to_owned());
        work.fields = vec![field.to_owned()];
        work
    }

    fn probe() -> Vec<Work> {
        let mut hits = Vec::new();
        for id in 0..10 {
            hits.push(work(
                id,
                "Medicine",
                "Emicizumab pharmacokinetics and efficacy",
            ));
        }
        for id in 10..20 {
            hits.push(work(
                id,
                "Psychology",
                "Object recognition in a rodent context task",
            ));
        }
        hits.push(work(20, "Psychology", "Efficacy of training"));
        hits
    }

    fn terms(words: &[&str]) -> Vec<String> {
        words.iter().map(|word| (*word).to_owned()).collect()
    }

    #[test]
    fn each_discipline_claims_the_terms_its_works_use() {
        let disciplines = terms(&["Medicine", "Psychology"]);
        let key_terms = terms(&["emicizumab", "efficacy", "rodent", "object", "unknown"]);
        let domains = find_domains(&disciplines, &key_terms, &probe());
        assert_eq!(
            domains,
            [
                Domain {
                    name: "Medicine".into(),
                    key_terms: terms(&["emicizumab", "efficacy"]),
                },
                Domain {
                    name: "Psychology".into(),
                    key_terms: terms(&["rodent", "object"]),
                },
            ],
            "efficacy is ten times as common in medicine; unknown is used by neither"
        );
        assert!(
            find_domains(&disciplines, &terms(&["emicizumab"]), &probe()).is_empty(),
            "a discipline without a term of its own is no domain"
        );
    }

    #[test]
    fn a_term_both_disciplines_use_belongs_to_both() {
        let mut hits = probe();
        for hit in &mut hits {
            if let Some(title) = hit.title.as_mut() {
                title.push_str(" under stress");
            }
        }
        let domains = find_domains(
            &terms(&["Medicine", "Psychology"]),
            &terms(&["stress", "emicizumab", "rodent"]),
            &hits,
        );
        assert_eq!(domains[0].key_terms, terms(&["stress", "emicizumab"]));
        assert_eq!(domains[1].key_terms, terms(&["stress", "rodent"]));
    }

    /// Two topics of medicine, and one work that touches both.
    fn one_discipline_two_topics() -> Vec<Work> {
        let mut hits: Vec<Work> = (0..10)
            .map(|id| work(id, "Medicine", "Emicizumab pharmacokinetics and efficacy"))
            .collect();
        hits.extend((10..22).map(|id| work(id, "Medicine", "Hair cortisol under chronic stress")));
        hits.push(work(22, "Medicine", "Efficacy of hair cortisol assays"));
        hits
    }

    #[test]
    fn one_disciplines_works_that_fall_apart_by_the_terms_make_two_topics() {
        let key_terms = terms(&[
            "pharmacokinetics",
            "efficacy",
            "emicizumab",
            "hair",
            "cortisol",
        ]);
        let domains = find_domains(
            &terms(&["Medicine"]),
            &key_terms,
            &one_discipline_two_topics(),
        );
        assert_eq!(
            domains,
            [
                Domain {
                    name: "Hair and cortisol".into(),
                    key_terms: terms(&["hair", "cortisol"]),
                },
                Domain {
                    name: "Pharmacokinetics, efficacy and emicizumab".into(),
                    key_terms: terms(&["pharmacokinetics", "efficacy", "emicizumab"]),
                },
            ],
            "cortisol, the most used term, seeds the first topic; efficacy is ten times as \
             common among the emicizumab works"
        );
    }

    #[test]
    fn one_topic_seen_through_several_terms_is_not_split() {
        let mut hits: Vec<Work> = (0..10)
            .map(|id| work(id, "Medicine", "Emicizumab pharmacokinetics in children"))
            .collect();
        hits.extend((10..20).map(|id| work(id, "Medicine", "Efficacy of emicizumab prophylaxis")));
        let key_terms = terms(&["pharmacokinetics", "efficacy", "emicizumab"]);
        assert!(
            find_domains(&terms(&["Medicine"]), &key_terms, &hits).is_empty(),
            "pharmacokinetics and efficacy never meet, but emicizumab joins them"
        );
        // Too few works to seed a topic: four hits off the question.
        let mut few = hits[..10].to_vec();
        few.extend((30..34).map(|id| work(id, "Medicine", "Hair cortisol")));
        let key_terms = terms(&["emicizumab", "pharmacokinetics", "hair", "cortisol"]);
        assert!(find_domains(&terms(&["Medicine"]), &key_terms, &few).is_empty());
        // A topic of one word: the question's works treat "children" apart, but it is no topic.
        let mut one_word = hits.clone();
        one_word.extend((40..50).map(|id| work(id, "Medicine", "Children")));
        let key_terms = terms(&["pharmacokinetics", "efficacy", "emicizumab", "children"]);
        assert!(find_domains(&terms(&["Medicine"]), &key_terms, &one_word).is_empty());
    }

    #[test]
    fn each_domain_gets_its_searches_and_its_budget_once() {
        let mut planned = plan(
            "Emicizumab efficacy and the rodent object task",
            &PlanConfig::for_tier(Tier::Quick),
        );
        let before = planned.queries.len();
        let budget = planned.limits.max_works;
        planned.brief.domains = find_domains(
            &terms(&["Medicine", "Psychology"]),
            &planned.key_terms,
            &probe(),
        );
        split_into_domains(&mut planned, 2026);
        let medicine: Vec<&Query> = planned
            .queries
            .iter()
            .filter(|query| query.domain.as_deref() == Some("Medicine"))
            .collect();
        assert_eq!(medicine.len(), 4);
        assert_eq!(medicine[0].text, "emicizumab efficacy");
        assert_eq!(medicine[2].order, HitOrder::Citations);
        assert_eq!(medicine[3].from_year, Some(2022));
        assert_eq!(planned.queries.len(), before + 8);
        assert_eq!(planned.limits.max_works, 2 * budget);
        let labels: BTreeSet<&str> = planned.queries.iter().map(|q| q.label.as_str()).collect();
        assert_eq!(labels.len(), planned.queries.len(), "labels stay unique");
        let focuses = planned.focuses();
        assert_eq!(focuses[1].question, "rodent object task");
        assert_eq!(focuses[1].queries.len(), 4);

        let again = planned.clone();
        split_into_domains(&mut planned, 2026);
        assert_eq!(planned, again, "planning twice adds nothing");
    }
}
