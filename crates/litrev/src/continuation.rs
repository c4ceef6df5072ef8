//! Follow-up runs: a new question or seed on top of a done run, which starts from what that
//! run holds instead of starting over.
//!
//! The follow-up takes over the parent's corpus, citation edges, search hits and the works it
//! already expanded, and the person's screening labels; it searches only the queries and seeds
//! the parent did not, and snowballs only from works the parent did not expand. Embeddings are
//! cached by text, so they are not computed again either.

use std::collections::BTreeSet;
use std::path::PathBuf;

use litrev_discover::QueryHits;
use litrev_model::{Citation, CorpusEntry, Expert, Plan, RunId, RunStatus, Tier, WorkId};
use litrev_store::NewRun;
use serde::{Deserialize, Serialize};

use crate::runner::{DiscoverRecord, StageRecord, TOOL_VERSION, new_run_id};
use crate::{Error, Result, RunOptions, Runner};

/// What a follow-up changes of the run it continues.
#[derive(Debug, Clone, Default)]
pub struct FollowUp {
    /// The new question; the parent's when `None`.
    pub question: Option<String>,
    /// Seeds added to the parent's.
    pub seeds: Vec<WorkId>,
    /// Another tier; the parent's when `None`.
    pub tier: Option<Tier>,
    /// Where the follow-up writes its files.
    pub out_dir: PathBuf,
}

/// What a follow-up's discovery took over from its parent, kept in its discover record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Continued {
    /// The run continued.
    pub(crate) parent: RunId,
    /// The parent's question.
    pub(crate) parent_question: String,
    /// Corpus entries carried over.
    pub(crate) carried_works: usize,
    /// Queries whose hits were reused instead of searched again.
    pub(crate) reused_queries: usize,
    /// Queries searched because the parent had not run them.
    pub(crate) new_queries: usize,
    /// Works the parent expanded, which snowballing does not expand again.
    pub(crate) expanded: Vec<WorkId>,
}

/// The parent's stored material a follow-up starts from.
pub(crate) struct Inherited {
    pub(crate) continued: Continued,
    pub(crate) entries: Vec<CorpusEntry>,
    pub(crate) citations: Vec<Citation>,
    hits: Vec<QueryHits>,
    /// The experts the parent's expert channel chose.
    pub(crate) experts: Vec<Expert>,
}

impl Inherited {
    /// The part of `plan` the parent did not search, and the parent's hits for the rest.
    pub(crate) fn what_is_new(&mut self, plan: &Plan) -> (Plan, Vec<QueryHits>) {
        let mut search = plan.clone();
        let mut reused = Vec::new();
        search.queries.retain(
            |query| match self.hits.iter().find(|hits| hits.answer(query)) {
                Some(hits) => {
                    reused.push(QueryHits {
                        label: query.label.clone(),
                        ..hits.clone()
                    });
                    false
                }
                None => true,
            },
        );
        let held: BTreeSet<&WorkId> = self.entries.iter().map(|entry| &entry.work).collect();
        search.seeds.retain(|seed| !held.contains(seed));
        self.continued.reused_queries = reused.len();
        self.continued.new_queries = search.queries.len();
        (search, reused)
    }
}

impl Runner {
    /// Creates a follow-up of a done run, queued like [`Runner::create`]: the parent's options
    /// with the follow-up's changes, and the person's screening labels carried over.
    ///
    /// # Errors
    /// [`Error::NotDone`] when the parent is not done; [`Error::EmptyQuestion`]; the store.
    pub fn continue_run(&mut self, parent: &RunId, follow_up: FollowUp) -> Result<RunId> {
        self.done_run(parent, "a follow-up builds on a finished review")?;
        let mut options: RunOptions = self.options(parent)?;
        if let Some(question) = follow_up.question {
            if question.trim().is_empty() {
                return Err(Error::EmptyQuestion);
            }
            options.question = question.trim().to_owned();
        }
        for seed in follow_up.seeds {
            if !options.seeds.contains(&seed) {
                options.seeds.push(seed);
            }
        }
        if let Some(tier) = follow_up.tier {
            options.tier = tier;
        }
        options.out_dir = follow_up.out_dir;
        let run = new_run_id();
        let options_json = serde_json::to_string(&options)
            .map_err(|error| Error::BadOptions(error.to_string()))?;
        let labels = self.store().labels(parent)?;
        let store = self.store_mut();
        store.create_run(&NewRun {
            id: &run,
            question: &options.question,
            options_json: &options_json,
            tool_version: TOOL_VERSION,
            parent: Some(parent),
        })?;
        store.add_labels(&run, &labels)?;
        store.set_status(&run, RunStatus::Queued)?;
        Ok(run)
    }

    /// What a follow-up of `parent` starts from.
    pub(crate) fn inherited(&self, parent: &RunId) -> Result<Inherited> {
        let record = self.store().run(parent)?;
        let discovery: DiscoverRecord = self.output(parent, "discover")?;
        let mut expanded: BTreeSet<WorkId> = discovery
            .continued
            .iter()
            .flat_map(|continued| continued.expanded.iter().cloned())
            .collect();
        for step in record
            .steps_done
            .iter()
            .filter(|step| step.starts_with("snowball."))
        {
            let stage: StageRecord = self.output(parent, step)?;
            expanded.extend(stage.expanded);
        }
        let entries = self.store().corpus(parent)?;
        Ok(Inherited {
            continued: Continued {
                parent: parent.clone(),
                parent_question: record.question,
                carried_works: entries.len(),
                reused_queries: 0,
                new_queries: 0,
                expanded: expanded.into_iter().collect(),
            },
            citations: self.store().citations(parent)?,
            entries,
            hits: discovery.hits,
            experts: discovery.experts,
        })
    }
}
