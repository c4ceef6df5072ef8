//! The human gate: a person screens a paused run, one label at a time or from an edited file.
//!
//! Every label is committed to the store the moment it is given, so a killed session loses
//! nothing; `litrev resume` then continues the pipeline with the person's decisions in force.
//! Each label retrains the ranking (the screening SVM, with the seeds as the first included
//! labels), so the records most likely to belong in the review come first.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use litrev_model::{
    CorpusEntry, Decision, Label, Origin, ReasonCode, Reviewer, RunId, ScreeningDecision, Work,
    WorkId,
};
use litrev_screen::{FeatureConfig, FeatureSpace, SvmConfig, Trainer};

use crate::error::{Error, Result};
use crate::runner::Runner;

/// A record to screen, with what litrev decided about it so far.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The work.
    pub work: Work,
    /// The decision in force (the model's, or a person's).
    pub decision: ScreeningDecision,
    /// Records not yet labelled by a person, this one included.
    pub remaining: usize,
}

/// What an import did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportReport {
    /// Rows whose decision differed from the one in force, now recorded as a person's.
    pub changed: usize,
    /// Rows that agreed with the decision in force.
    pub unchanged: usize,
    /// Rows whose id is not in the run's corpus.
    pub unknown: usize,
}

/// An open screening session on a run waiting at the gate.
pub struct ScreeningSession<'a> {
    runner: &'a Runner,
    run: RunId,
    ids: Vec<WorkId>,
    works: BTreeMap<WorkId, Work>,
    model_decisions: BTreeMap<WorkId, ScreeningDecision>,
    seeds: BTreeSet<WorkId>,
    space: FeatureSpace,
    /// Records passed over in this session; they are offered again in the next one.
    skipped: BTreeSet<WorkId>,
}

impl Runner {
    /// Opens a screening session on a run that waits at the gate.
    ///
    /// # Errors
    /// When the run is unknown, not screened yet, or already past the gate.
    pub fn screening_session(&self, run: &RunId) -> Result<ScreeningSession<'_>> {
        self.check_at_gate(run)?;
        let entries = self.store().corpus(run)?;
        let works = self.described_works(&entries)?;
        let model_decisions: BTreeMap<WorkId, ScreeningDecision> = self
            .store()
            .decisions(run)?
            .into_iter()
            .map(|decision| (decision.work.clone(), decision))
            .collect();
        let seeds = seeds_of(&entries);
        let ids: Vec<WorkId> = works.keys().cloned().collect();
        let texts: Vec<String> = works.values().map(Work::indexed_text).collect();
        let links: Vec<Vec<String>> = works.values().map(litrev_screen::record_links).collect();
        let space = FeatureSpace::fit_with_links(&texts, &links).with_embeddings(
            &self.screening_embeddings(&works)?,
            FeatureConfig::default().embedding_weight,
        );
        Ok(ScreeningSession {
            runner: self,
            run: run.clone(),
            ids,
            works,
            model_decisions,
            seeds,
            space,
            skipped: BTreeSet::new(),
        })
    }

    /// The sentence embedding of each work, in id order, for the ranking (the meaning of a
    /// record beside its words: mean WSS@95 0.556 against 0.540 without, leaving one dataset out, see
    /// `litrev bench screen --cv`); none when no model is installed, and the ranking then reads
    /// the words and links alone. Vectors are cached, so the organise step embeds no included
    /// work again.
    ///
    /// # Errors
    /// When an installed model cannot be loaded or run, or its cache cannot be used.
    fn screening_embeddings(&self, works: &BTreeMap<WorkId, Work>) -> Result<Vec<Vec<f32>>> {
        Ok(
            match crate::embeddings::embed_if_installed(self.home(), works)? {
                Ok((embeddings, _)) => works
                    .keys()
                    .map(|id| embeddings.vectors.get(id).cloned().unwrap_or_default())
                    .collect(),
                Err(_) => Vec::new(),
            },
        )
    }

    /// Applies the decisions of a labelled file: rows that differ from the decision in force
    /// become a person's labels, in one transaction.
    ///
    /// Reads CSV (an edited `screening.csv`, or any file with an `openalex_id` or `doi` column
    /// and a `label_included` 1/0 or `decision` include/exclude column, as ASReview exports) and
    /// RIS (ASReview's `ASReview_relevant`/`ASReview_irrelevant` notes, Rayyan's
    /// `RAYYAN-INCLUSION`). Records are matched by any id, then by title.
    ///
    /// # Errors
    /// When the run is not at the gate, or the file cannot be read or lacks the columns.
    pub fn import_labels(&mut self, run: &RunId, path: &Path) -> Result<ImportReport> {
        self.check_at_gate(run)?;
        let rows = read_labelled_rows(path)?;
        self.import_rows(run, rows)
    }

    /// Includes, as the person's labels, the works of a run at the gate that the configured
    /// Zotero library holds (all of it, or its collection `collection`), matched by DOI, else
    /// by title: the studies a researcher already knows belong in the review.
    ///
    /// # Errors
    /// When the run is not at the gate, no library is configured, the collection does not
    /// exist, or Zotero refuses.
    pub fn import_zotero_labels(
        &mut self,
        run: &RunId,
        collection: Option<&str>,
    ) -> Result<ImportReport> {
        self.check_at_gate(run)?;
        let references = self.sources().zotero()?.references(collection)?;
        self.import_rows(run, zotero_rows(references))
    }

    /// Includes, as the person's labels, the works of a run at the gate that a local Zotero
    /// library holds (its `zotero.sqlite`, read from a copy so that a running Zotero is no
    /// obstacle; all of it, or its collection `collection`), matched as
    /// [`Runner::import_zotero_labels`] matches them.
    ///
    /// # Errors
    /// When the run is not at the gate, the file is not a Zotero database, or the collection
    /// does not exist.
    pub fn import_local_zotero_labels(
        &mut self,
        run: &RunId,
        database: &Path,
        collection: Option<&str>,
    ) -> Result<ImportReport> {
        self.check_at_gate(run)?;
        let items = litrev_sources::zotero::read_local_library(database, collection)?;
        self.import_rows(
            run,
            zotero_rows(items.into_iter().map(|item| item.reference)),
        )
    }

    /// Records the rows whose decision differs from the one in force as the person's labels;
    /// a row finds its work by any of its ids, else by its title.
    fn import_rows(&mut self, run: &RunId, rows: Vec<LabelledRow>) -> Result<ImportReport> {
        let in_force: BTreeMap<WorkId, Decision> = self
            .decisions_in_force(run)?
            .into_iter()
            .map(|decision| (decision.work, decision.decision))
            .collect();
        let entries = self.store().corpus(run)?;
        let works = self.stored_works(&entries)?;
        let by_title: BTreeMap<String, WorkId> = works
            .iter()
            .filter_map(|(id, work)| {
                work.title
                    .as_deref()
                    .map(|title| (title_key(title), id.clone()))
            })
            .collect();
        let mut report = ImportReport {
            changed: 0,
            unchanged: 0,
            unknown: 0,
        };
        let mut labels = Vec::new();
        for row in rows {
            let work = row
                .ids
                .iter()
                .find(|id| in_force.contains_key(*id))
                .cloned()
                .or_else(|| {
                    let key = title_key(row.title.as_deref()?);
                    by_title
                        .get(&key)
                        .filter(|id| in_force.contains_key(*id))
                        .cloned()
                });
            match work {
                None => report.unknown += 1,
                Some(work) if in_force[&work] == row.decision => report.unchanged += 1,
                Some(work) => {
                    report.changed += 1;
                    labels.push(Label {
                        work,
                        decision: row.decision,
                    });
                }
            }
        }
        self.store_mut().add_labels(run, &labels)?;
        Ok(report)
    }

    /// The gate's table: every screened work that is more than an id, in ranking order, with
    /// the decision in force (a person's label over the model's).
    ///
    /// # Errors
    /// When the run is unknown, not screened yet, or the store fails.
    pub fn screening_rows(&self, run: &RunId) -> Result<Vec<(Work, ScreeningDecision)>> {
        let record = self.store().run(run)?;
        if !record.steps_done.iter().any(|step| step == "screen") {
            return Err(Error::NotAtGate {
                run: run.to_string(),
                why: "it has not been screened yet".to_owned(),
            });
        }
        let decisions = self.decisions_in_force(run)?;
        // At the gate, each label retrains the ranking of the rest, as `litrev screen` does;
        // the session holds the described works already.
        let (mut works, order) = if self.check_at_gate(run).is_ok() {
            let session = self.screening_session(run)?;
            let order = session.table_order()?;
            (session.works, Some(order))
        } else {
            (self.described_works(&self.store().corpus(run)?)?, None)
        };
        let mut rows: Vec<(Work, ScreeningDecision)> = decisions
            .into_iter()
            .filter_map(|decision| works.remove(&decision.work).map(|work| (work, decision)))
            .collect();
        if let Some(order) = order {
            let position: BTreeMap<&WorkId, usize> = order
                .iter()
                .enumerate()
                .map(|(index, id)| (id, index))
                .collect();
            rows.sort_by_key(|(_, decision)| {
                position.get(&decision.work).copied().unwrap_or(usize::MAX)
            });
        }
        Ok(rows)
    }

    /// Records a person's labels on a run at the gate, in one transaction; ids the run's
    /// corpus does not hold are refused, and then nothing is recorded.
    ///
    /// # Errors
    /// When the run is not at the gate, an id is not in its corpus, or the store fails.
    pub fn label_works(&mut self, run: &RunId, labels: &[Label]) -> Result<()> {
        self.check_at_gate(run)?;
        let known: BTreeSet<WorkId> = self
            .store()
            .corpus(run)?
            .into_iter()
            .map(|entry| entry.work)
            .collect();
        if let Some(unknown) = labels.iter().find(|label| !known.contains(&label.work)) {
            return Err(Error::NotAtGate {
                run: run.to_string(),
                why: format!("{} is not in its corpus", unknown.work),
            });
        }
        self.store_mut().add_labels(run, labels)?;
        Ok(())
    }

    /// The run's decisions with the person's labels in force over the model's.
    pub(crate) fn decisions_in_force(&self, run: &RunId) -> Result<Vec<ScreeningDecision>> {
        let labels = self.store().labels(run)?;
        Ok(apply_labels(self.store().decisions(run)?, &labels))
    }

    fn check_at_gate(&self, run: &RunId) -> Result<()> {
        let record = self.store().run(run)?;
        let done = |step: &str| record.steps_done.iter().any(|done| done == step);
        if !done("screen") {
            return Err(Error::NotAtGate {
                run: run.to_string(),
                why: "it has not been screened yet; run `litrev resume` until it stops at the gate"
                    .to_owned(),
            });
        }
        if done("gate") {
            return Err(Error::NotAtGate {
                run: run.to_string(),
                why: "its screening was approved already; start a new run (without --yes) to screen again".to_owned(),
            });
        }
        Ok(())
    }
}

impl ScreeningSession<'_> {
    /// The next record to screen: the highest-ranked one no person has labelled yet.
    ///
    /// # Errors
    /// When the store fails.
    pub fn next(&self) -> Result<Option<Candidate>> {
        let labels = latest_labels(&self.runner.store().labels(&self.run)?);
        let remaining: Vec<usize> = (0..self.ids.len())
            .filter(|&index| !labels.contains_key(&self.ids[index]))
            .collect();
        let offered: Vec<usize> = remaining
            .iter()
            .copied()
            .filter(|&index| !self.skipped.contains(&self.ids[index]))
            .collect();
        let Some(&best) = self.rank(&labels, &offered).first() else {
            return Ok(None);
        };
        let id = &self.ids[best];
        let decision = self
            .model_decisions
            .get(id)
            .cloned()
            .unwrap_or(ScreeningDecision {
                work: id.clone(),
                decision: Decision::Exclude,
                reason: ReasonCode::OutOfScope,
                rationale: String::new(),
                score: 0.0,
                reviewer: Reviewer::Model,
                domain: None,
            });
        Ok(Some(Candidate {
            work: self.works[id].clone(),
            decision,
            remaining: remaining.len(),
        }))
    }

    /// Every record in the order the gate's table shows: those no person has labelled yet by
    /// the ranking retrained on the labels so far, then the labelled ones in the same order.
    ///
    /// # Errors
    /// When the store fails.
    pub fn table_order(&self) -> Result<Vec<WorkId>> {
        let labels = latest_labels(&self.runner.store().labels(&self.run)?);
        let (labelled, open): (Vec<usize>, Vec<usize>) =
            (0..self.ids.len()).partition(|&index| labels.contains_key(&self.ids[index]));
        Ok(self
            .rank(&labels, &open)
            .into_iter()
            .chain(self.rank(&labels, &labelled))
            .map(|index| self.ids[index].clone())
            .collect())
    }

    /// Records a person's decision, committed at once.
    ///
    /// # Errors
    /// When the store fails.
    pub fn label(&self, work: &WorkId, decision: Decision) -> Result<()> {
        self.runner.store().add_label(
            &self.run,
            &Label {
                work: work.clone(),
                decision,
            },
        )?;
        Ok(())
    }

    /// Passes over a record for the rest of this session.
    pub fn skip(&mut self, work: &WorkId) {
        self.skipped.insert(work.clone());
    }

    /// Takes back the last label.
    ///
    /// # Errors
    /// When the store fails.
    pub fn undo(&self) -> Result<Option<Label>> {
        Ok(self.runner.store().undo_label(&self.run)?)
    }

    /// `remaining` in ranking order: by the SVM trained on the labels and seeds once both
    /// classes are known, by the model's screening score until then.
    fn rank(&self, labels: &BTreeMap<WorkId, Decision>, remaining: &[usize]) -> Vec<usize> {
        let mut labelled: Vec<(usize, bool)> = Vec::new();
        for (index, id) in self.ids.iter().enumerate() {
            match labels.get(id) {
                Some(decision) => labelled.push((index, *decision == Decision::Include)),
                None if self.seeds.contains(id) => labelled.push((index, true)),
                None => {}
            }
        }
        let both_classes = labelled.iter().any(|(_, included)| *included)
            && labelled.iter().any(|(_, included)| !*included);
        let score = |index: usize| -> f32 {
            self.model_decisions
                .get(&self.ids[index])
                .map_or(0.0, |decision| decision.score)
        };
        let mut scored: Vec<(f32, usize)> = if both_classes {
            let model = Trainer::new(SvmConfig::default()).train(&self.space, &labelled);
            remaining
                .iter()
                .map(|&index| (model.score(&self.space, index), index))
                .collect()
        } else {
            remaining
                .iter()
                .map(|&index| (score(index), index))
                .collect()
        };
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.into_iter().map(|(_, index)| index).collect()
    }
}

/// One labelled record of an imported file.
struct LabelledRow {
    ids: Vec<WorkId>,
    title: Option<String>,
    decision: Decision,
}

/// The labelled records of a CSV or RIS file; unlabelled records are left out.
fn read_labelled_rows(path: &Path) -> Result<Vec<LabelledRow>> {
    let bad = |message: String| Error::BadInput {
        path: path.to_owned(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|error| bad(error.to_string()))?;
    let looks_ris = litrev_sources::library::LibraryFormat::detect(&text)
        == Some(litrev_sources::library::LibraryFormat::Ris);
    if looks_ris {
        let (records, _issues) = litrev_sources::library::read_ris(&text, path);
        return Ok(records
            .into_iter()
            .filter_map(|record| {
                Some(LabelledRow {
                    ids: record.work.ids.all(),
                    title: record.work.title,
                    decision: record.label?,
                })
            })
            .collect());
    }
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|error| bad(error.to_string()))?
        .clone();
    let column = |name: &str| headers.iter().position(|header| header == name);
    let id_columns: Vec<usize> = ["openalex_id", "doi", "id"]
        .iter()
        .filter_map(|name| column(name))
        .collect();
    let title_column = column("title");
    let label_column = column("label_included");
    let decision_column = column("decision");
    if (id_columns.is_empty() && title_column.is_none())
        || (label_column.is_none() && decision_column.is_none())
    {
        return Err(bad(
            "expected an openalex_id, doi or title column, and a label_included or decision column"
                .to_owned(),
        ));
    }
    let mut rows = Vec::new();
    for (row_number, row) in reader.records().enumerate() {
        let row = row.map_err(|error| bad(error.to_string()))?;
        let label = label_column.and_then(|at| row.get(at)).map(str::trim);
        let decision = decision_column.and_then(|at| row.get(at)).map(str::trim);
        let decision = match (label, decision) {
            (Some("1"), _) | (None | Some(""), Some("include")) => Decision::Include,
            (Some("0"), _) | (None | Some(""), Some("exclude")) => Decision::Exclude,
            // An empty label is a record nobody decided on: nothing to import.
            (Some("") | None, Some("") | None) => continue,
            (label, decision) => {
                return Err(bad(format!(
                    "row {}: cannot read the decision ({label:?}, {decision:?}): use label_included 1 or 0",
                    row_number + 2
                )));
            }
        };
        rows.push(LabelledRow {
            ids: id_columns
                .iter()
                .filter_map(|&at| row.get(at))
                .filter_map(|text| text.parse::<WorkId>().ok())
                .collect(),
            title: title_column.and_then(|at| row.get(at)).map(str::to_owned),
            decision,
        });
    }
    Ok(rows)
}

/// A title reduced to lower-case letters and digits, for matching records across files.
/// A Zotero library's references as the person's inclusions, each found by its DOI, else its
/// title.
fn zotero_rows(
    references: impl IntoIterator<Item = litrev_sources::zotero::ZoteroReference>,
) -> Vec<LabelledRow> {
    references
        .into_iter()
        .map(|reference| LabelledRow {
            ids: reference
                .doi
                .as_deref()
                .and_then(|doi| doi.parse::<litrev_model::Doi>().ok())
                .map(WorkId::Doi)
                .into_iter()
                .collect(),
            title: reference.title,
            decision: Decision::Include,
        })
        .collect()
}

fn title_key(title: &str) -> String {
    title
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The latest label of each work.
fn latest_labels(labels: &[Label]) -> BTreeMap<WorkId, Decision> {
    labels
        .iter()
        .map(|label| (label.work.clone(), label.decision))
        .collect()
}

/// Decisions with each labelled work's decision replaced by the person's.
pub(crate) fn apply_labels(
    decisions: Vec<ScreeningDecision>,
    labels: &[Label],
) -> Vec<ScreeningDecision> {
    let latest = latest_labels(labels);
    decisions
        .into_iter()
        .map(|decision| match latest.get(&decision.work) {
            Some(&person) => ScreeningDecision {
                decision: person,
                reason: ReasonCode::PersonDecision,
                rationale: format!(
                    "{} by a person (the model said {}: {})",
                    match person {
                        Decision::Include => "included",
                        Decision::Exclude => "excluded",
                    },
                    decision.decision.name(),
                    decision.reason.code()
                ),
                reviewer: Reviewer::Person,
                ..decision
            },
            None => decision,
        })
        .collect()
}

fn seeds_of(entries: &[CorpusEntry]) -> BTreeSet<WorkId> {
    entries
        .iter()
        .filter(|entry| entry.origin == Origin::Seed)
        .map(|entry| entry.work.clone())
        .collect()
}
