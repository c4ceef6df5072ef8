//! The literature outside a run: one work by any of its ids, the works citing it or cited by
//! it, and works related to some — what an agent asks through `litrev mcp`. Sources answer;
//! the store's works (any run's) answer first for a lookup, so a work a run holds is found
//! offline.

use std::collections::BTreeSet;

use litrev_model::{Work, WorkId, merge_duplicates};
use litrev_sources::{Federation, Held, Source};
use litrev_text::{Corpus, SparseVector};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::events::Event;
use crate::options::SourceSpec;
use crate::runner::Runner;

/// Which way a citation listing follows the links.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// The works that cite the work.
    Citing,
    /// The works the work cites.
    References,
}

/// Works found by exploring, with what could not be asked.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Exploration {
    /// The works, best first.
    pub works: Vec<Work>,
    /// How they were found (`recommendations`, `citation neighbourhood`…).
    pub method: String,
    /// Sources that failed or could not answer, with why; the others' works are kept.
    pub failures: Vec<String>,
}

impl Runner {
    /// One work by any of its ids: the store's record when it is described, else the sources'.
    ///
    /// # Errors
    /// [`Error::UnknownWork`] when neither knows it.
    pub fn get_work(
        &self,
        sources: &[SourceSpec],
        id: &WorkId,
        events: &dyn Fn(&Event),
    ) -> Result<Work> {
        if let Some(work) = self.described(id)? {
            return Ok(work);
        }
        let federation = self.sources().open(sources, events)?;
        self.find_work(&federation, id)
    }

    /// The works citing `id` (or cited by it), most cited first, at most `limit`.
    ///
    /// # Errors
    /// [`Error::UnknownWork`] when the work is not found; a source failure is reported in the
    /// result unless every source failed.
    pub fn citation_search(
        &self,
        sources: &[SourceSpec],
        id: &WorkId,
        direction: Direction,
        limit: usize,
        events: &dyn Fn(&Event),
    ) -> Result<Exploration> {
        let federation = self.sources().open(sources, events)?;
        let work = self.find_work(&federation, id)?;
        let ids = work_ids(&work);
        let held = Held::new();
        let listed = match direction {
            Direction::Citing => federation.citing(&ids, &held),
            Direction::References => federation.references(&ids, &held),
        };
        let mut failures = failures_of(&federation);
        let mut works = match listed {
            Ok(works) => merge_duplicates(works).works,
            Err(error) => {
                failures.push(error.to_string());
                Vec::new()
            }
        };
        works.retain(|other| !other.ids.all().iter().any(|known| ids.contains(known)));
        works.sort_by(|a, b| {
            b.cited_by_count
                .cmp(&a.cited_by_count)
                .then_with(|| a.ids.primary().cmp(&b.ids.primary()))
        });
        works.truncate(limit);
        Ok(Exploration {
            works,
            method: match direction {
                Direction::Citing => "citing works".into(),
                Direction::References => "references".into(),
            },
            failures,
        })
    }

    /// Works related to `ids`: a source's recommendations where one has them, else the
    /// citation neighbourhood (works citing or cited by them) ranked by bibliographic
    /// coupling, co-citation links and TF-IDF similarity to their text, each counting equally.
    ///
    /// # Errors
    /// [`Error::UnknownWork`] when a work is not found.
    pub fn related_works(
        &self,
        sources: &[SourceSpec],
        ids: &[WorkId],
        limit: usize,
        events: &dyn Fn(&Event),
    ) -> Result<Exploration> {
        let federation = self.sources().open(sources, events)?;
        let seeds = ids
            .iter()
            .map(|id| self.find_work(&federation, id))
            .collect::<Result<Vec<_>>>()?;
        let seed_ids: BTreeSet<WorkId> = seeds.iter().flat_map(|work| work.ids.all()).collect();
        let unseen = |work: &Work| !work.ids.all().iter().any(|known| seed_ids.contains(known));
        let mut failures = Vec::new();
        if federation.capabilities().recommendations {
            let asked: Vec<WorkId> = seeds.iter().flat_map(work_ids).collect();
            match federation.recommend(&asked, &[], limit) {
                Ok(works) => {
                    let mut works = merge_duplicates(works).works;
                    works.retain(unseen);
                    works.truncate(limit);
                    if !works.is_empty() {
                        return Ok(Exploration {
                            works,
                            method: "recommendations".into(),
                            failures: failures_of(&federation),
                        });
                    }
                }
                Err(error) => failures.push(error.to_string()),
            }
        }
        let asked: Vec<WorkId> = seeds.iter().flat_map(work_ids).collect();
        let held = Held::new();
        let mut found = Vec::new();
        for listed in [
            federation.citing(&asked, &held),
            federation.references(&asked, &held),
        ] {
            match listed {
                Ok(works) => found.extend(works),
                Err(error) => failures.push(error.to_string()),
            }
        }
        failures.extend(failures_of(&federation));
        let mut candidates = merge_duplicates(found).works;
        candidates.retain(unseen);
        let works = rank_related(&seeds, candidates, limit);
        Ok(Exploration {
            works,
            method: "citation neighbourhood: coupling, links and text similarity".into(),
            failures,
        })
    }

    /// One work: the store's described record, else the sources' (asked once).
    fn find_work(&self, federation: &Federation, id: &WorkId) -> Result<Work> {
        if let Some(work) = self.described(id)? {
            return Ok(work);
        }
        let found = federation.lookup(std::slice::from_ref(id));
        let failures = failures_of(federation);
        merge_duplicates(found.unwrap_or_default())
            .works
            .into_iter()
            .find(|work| work.ids.all().contains(id))
            .ok_or_else(|| Error::UnknownWork {
                id: id.to_string(),
                why: if failures.is_empty() {
                    "no stored run holds it and no source knows it; check the id, or add a source that covers it".into()
                } else {
                    format!("no stored run holds it and the sources failed ({})", failures.join("; "))
                },
            })
    }

    /// The store's record of `id` when it has more than the id.
    fn described(&self, id: &WorkId) -> Result<Option<Work>> {
        let stored = self.store().works(std::slice::from_ref(id))?;
        Ok(stored.into_values().find(|work| work.title.is_some()))
    }
}

/// Every id of a work, in its canonical order.
fn work_ids(work: &Work) -> Vec<WorkId> {
    work.ids.all()
}

fn failures_of(federation: &Federation) -> Vec<String> {
    federation
        .failures()
        .iter()
        .map(|failure| {
            format!(
                "{} ({}): {}",
                failure.source.name(),
                failure.call,
                failure.message
            )
        })
        .collect()
}

/// Candidates ranked by the mean of three parts, each 0–1: the share of the seeds' references
/// they also cite (coupling), whether they cite or are cited by a seed (links), and the TF-IDF
/// cosine of their text to the seeds' centroid. Ties break on ids.
fn rank_related(seeds: &[Work], candidates: Vec<Work>, limit: usize) -> Vec<Work> {
    let seed_refs: BTreeSet<&WorkId> = seeds.iter().flat_map(|work| &work.references).collect();
    let seed_ids: BTreeSet<WorkId> = seeds.iter().flat_map(|work| work.ids.all()).collect();
    let texts: Vec<String> = seeds
        .iter()
        .chain(&candidates)
        .map(Work::indexed_text)
        .collect();
    let (_, vectors) = Corpus::with_vectors(&texts);
    let centroid = SparseVector::centroid(&vectors[..seeds.len()]);
    let mut scored: Vec<f32> = Vec::with_capacity(candidates.len());
    for (index, work) in candidates.iter().enumerate() {
        let coupling = if seed_refs.is_empty() {
            0.0
        } else {
            work.references
                .iter()
                .filter(|id| seed_refs.contains(id))
                .count() as f32
                / seed_refs.len() as f32
        };
        let cites_seed = work.references.iter().any(|id| seed_ids.contains(id));
        let cited_by_seed = seeds
            .iter()
            .any(|seed| seed.references.iter().any(|id| work.ids.all().contains(id)));
        let links = f32::from(u8::from(cites_seed || cited_by_seed));
        let text = vectors[seeds.len() + index].cosine(&centroid);
        scored.push((coupling + links + text) / 3.0);
    }
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by(|&a, &b| {
        scored[b].total_cmp(&scored[a]).then_with(|| {
            candidates[a]
                .ids
                .primary()
                .cmp(&candidates[b].ids.primary())
        })
    });
    order.truncate(limit);
    let mut slots: Vec<Option<Work>> = candidates.into_iter().map(Some).collect();
    order
        .into_iter()
        .filter_map(|index| slots[index].take())
        .collect()
}
