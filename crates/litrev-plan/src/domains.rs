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

/// The domains of a question whose probe spread over `disciplines` (each with enough of the
/// probe's works): each discipline's works, grouped by the field they are filed under first,
/// claim the question's terms they use distinctly more often than the others', and share the
/// terms used alike. A discipline that claims no term of its own is no domain; fewer than two
/// domains: none (the question is searched as one).
pub fn find_domains(disciplines: &[String], key_terms: &[String], hits: &[Work]) -> Vec<Domain> {
    if disciplines.len() < 2 || key_terms.is_empty() {
        return Vec::new();
    }
    // Per discipline: how many of its works use each stem, and how many works it has.
    let mut uses: Vec<(usize, BTreeMap<String, usize>)> =
        vec![Default::default(); disciplines.len()];
    let mut stems_of: Vec<BTreeSet<String>> = Vec::new();
    for work in hits {
        let Some(slot) = work
            .fields
            .first()
            .and_then(|field| disciplines.iter().position(|name| name == field))
        else {
            continue;
        };
        let stems: BTreeSet<String> = content_words(&work.title_and_abstract())
            .iter()
            .map(|word| stem(word))
            .collect();
        let (works, counts) = &mut uses[slot];
        *works += 1;
        for found in &stems {
            *counts.entry(found.clone()).or_default() += 1;
        }
        stems_of.push(stems);
    }
    let mut own: Vec<Vec<String>> = vec![Vec::new(); disciplines.len()];
    let mut terms: Vec<Vec<String>> = vec![Vec::new(); disciplines.len()];
    for term in key_terms {
        let term_stem = stem(term);
        let rates: Vec<f64> = uses
            .iter()
            .map(|(works, counts)| match works {
                0 => 0.0,
                works => counts.get(&term_stem).copied().unwrap_or(0) as f64 / *works as f64,
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
    let domains: Vec<Domain> = disciplines
        .iter()
        .zip(own.iter().zip(terms))
        .filter(|(_, (own, _))| !own.is_empty())
        .map(|(name, (_, key_terms))| Domain {
            name: name.clone(),
            key_terms,
        })
        .collect();
    if domains.len() < 2 {
        return Vec::new();
    }
    // Related disciplines meet in their works (one study uses both's terms): the question is
    // one, seen from two sides, and splitting it would search it twice.
    let own_stems: Vec<BTreeSet<String>> = own
        .iter()
        .filter(|terms| !terms.is_empty())
        .map(|terms| terms.iter().map(|term| stem(term)).collect())
        .collect();
    let touched: Vec<usize> = stems_of
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
    domains
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
