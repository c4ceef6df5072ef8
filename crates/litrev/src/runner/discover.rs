//! The discover step: the plan's searches and seeds on the run's sources, the pages and
//! libraries the person named, and what a follow-up run takes over from its parent.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use litrev_discover::{Discovery, QueryHits};
use litrev_graph::edges_within;
use litrev_model::{CorpusEntry, Expert, Origin, Plan, Work, WorkId};
use litrev_sources::{Federation, SnapshotSource, Source};
use litrev_store::StepWrites;
use serde::{Deserialize, Serialize};

use super::{Drive, Outcome, Runner, finished};
use crate::continuation::{Continued, Inherited};
use crate::error::{Error, Result};
use crate::options::{RunOptions, SourceSpec};
use crate::record::{OutputFile, SourceCalls};
use crate::sources::report_failures;

/// The discover step's output: what was searched and what it gave, besides the works and
/// corpus entries it stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct DiscoverRecord {
    pub(crate) source: String,
    pub(crate) inputs: Vec<OutputFile>,
    pub(crate) hits: Vec<QueryHits>,
    pub(crate) raw_hits: usize,
    pub(crate) discovered: usize,
    /// Sources that failed and were left out, with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) failed_sources: Vec<String>,
    /// Calls to live APIs during the step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) calls: Vec<SourceCalls>,
    /// What a follow-up run took over from the run it continues.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) continued: Option<Continued>,
    /// The field's experts the expert channel chose (and a continued run's parent chose).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) experts: Vec<Expert>,
    /// The web pages the person named, and which could not be read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) pages: Vec<crate::pages::PageRecord>,
    /// The person's libraries, and what each gave.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) libraries: Vec<crate::library::LibraryRecord>,
}

impl Runner {
    /// Runs (or loads) the discover step; the sources it opened are left in `opened` for the
    /// snowball stages. A run naming pages from unknown hosts may stop at the pages gate
    /// instead, before anything is fetched.
    pub(super) fn discover_step(
        &mut self,
        drive: &Drive<'_>,
        plan: &Plan,
        opened: &mut Option<Federation>,
    ) -> Result<ControlFlow<Outcome, DiscoverRecord>> {
        if let Some(record) = self.stored(drive, "discover")? {
            return Ok(ControlFlow::Continue(record));
        }
        let (options, events) = (&drive.options, drive.events);
        if let Some(paused) = self.pages_gate(drive.run, options)? {
            return Ok(ControlFlow::Break(paused));
        }
        let calls_before = self.sources().http_summary();
        // Opening the sources (indexing snapshots) is part of the step's cost.
        self.measure();
        // Named pages first: an address the guard refuses stops the run before any search.
        let mut pages = self.read_pages(&options.pages, events)?;
        let libraries = crate::library::read_libraries(
            &options.libraries,
            &|library| self.sources().zotero_library(library),
            events,
        )?;
        let sources = self.sources().open(&options.sources, events)?;
        self.started(
            events,
            "discover",
            &format!("searching {}", sources.describe()),
        );
        // A follow-up searches only what its parent did not, and starts from its corpus.
        let mut inherited = match &drive.parent {
            Some(parent) => Some(self.inherited(parent)?),
            None => None,
        };
        let (search, mut hits) = match inherited.as_mut() {
            Some(inherited) => inherited.what_is_new(plan),
            None => (plan.clone(), Vec::new()),
        };
        let reused_hits: usize = hits.iter().map(|hits| hits.works.len()).sum();
        let mut found = if search.queries.is_empty() && search.seeds.is_empty() {
            Discovery::default()
        } else {
            litrev_discover::discover(&sources, &search)?
        };
        report_failures(&sources, 0, events);
        self.sources().report_calls(events);
        add_pages(&mut found, std::mem::take(&mut pages.works));
        let library_works = crate::library::as_sources_know_them(&sources, libraries.works, events);
        add_library(&mut found, library_works);
        let works: Vec<&Work> = found.works.iter().collect();
        let ids: BTreeSet<&WorkId> = found.entries.iter().map(|entry| &entry.work).collect();
        let mut citations = edges_within(&works, &ids);
        let mut discovered = found.works.len();
        hits.append(&mut found.hits);
        let mut experts = std::mem::take(&mut found.experts);
        if let Some(inherited) = inherited.as_mut() {
            discovered += take_over(inherited, &mut found, &mut citations, &mut experts);
        }
        let record = DiscoverRecord {
            source: sources.describe(),
            inputs: input_hashes(options)?,
            hits,
            raw_hits: found.raw_hits + reused_hits,
            discovered,
            failed_sources: sources
                .failures()
                .iter()
                .map(|failure| {
                    format!("{} ({}): {}", failure.source, failure.call, failure.message)
                })
                .collect(),
            calls: SourceCalls::between(&calls_before, &self.sources().http_summary()),
            continued: inherited.map(|inherited| inherited.continued),
            experts,
            pages: pages.records,
            libraries: libraries.records,
        };
        self.commit(
            drive.run,
            "discover",
            &record,
            &StepWrites {
                works: &found.works,
                corpus: &found.entries,
                citations: &citations,
                // The named pages as fetched: the full-text step reads them from the store.
                full_texts: &pages.texts,
                downloads: &pages.downloads,
                ..StepWrites::default()
            },
            Vec::new(),
        )?;
        finished(
            events,
            "discover",
            format!("{} works from {} hits", record.discovered, record.raw_hits),
        );
        *opened = Some(sources);
        Ok(ControlFlow::Continue(record))
    }
}

/// Adds what a follow-up run takes over from its parent (its corpus, citations and experts)
/// to what its own searches found; returns how many of the parent's works the searches did
/// not find again.
fn take_over(
    inherited: &mut Inherited,
    found: &mut Discovery,
    citations: &mut Vec<litrev_model::Citation>,
    experts: &mut Vec<Expert>,
) -> usize {
    litrev_model::add_experts(experts, std::mem::take(&mut inherited.experts));
    let new: BTreeSet<WorkId> = found
        .entries
        .iter()
        .map(|entry| entry.work.clone())
        .collect();
    let carried = inherited
        .entries
        .iter()
        .filter(|entry| !new.contains(&entry.work))
        .count();
    found.entries.append(&mut inherited.entries);
    citations.append(&mut inherited.citations);
    carried
}

/// Adds the named pages' works to a discovery as corpus entries of origin `page`, after the
/// searches' works; a page a search also found keeps its entry (and the queries that found
/// it), its origin now `page`.
fn add_pages(found: &mut Discovery, pages: Vec<Work>) {
    for page in pages {
        let id = page.id();
        match found.entries.iter_mut().find(|entry| entry.work == id) {
            Some(entry) => entry.origin = Origin::Page,
            None => {
                found.entries.push(CorpusEntry {
                    work: id,
                    stage: 0,
                    origin: Origin::Page,
                    score: 0.0,
                    queries: Vec::new(),
                });
                found.works.push(page);
            }
        }
    }
}

/// Adds the records of the person's libraries to the corpus, to be screened like search hits; a
/// work a search found already keeps its entry.
fn add_library(found: &mut Discovery, works: Vec<Work>) {
    // Every id the corpus knows, once: a library of thousands is checked against it, not
    // against each work in turn.
    let mut known: BTreeSet<WorkId> = found.works.iter().flat_map(|work| work.ids.all()).collect();
    for work in works {
        let ids = work.ids.all();
        if ids.iter().any(|id| known.contains(id)) {
            continue;
        }
        known.extend(ids);
        found.entries.push(CorpusEntry {
            work: work.id(),
            stage: 0,
            origin: Origin::Library,
            score: 0.0,
            queries: Vec::new(),
        });
        found.works.push(work);
    }
}

/// The snapshot files a run reads, with their hashes: what `run.json` says it was run on.
fn input_hashes(options: &RunOptions) -> Result<Vec<OutputFile>> {
    let mut inputs = Vec::new();
    for spec in &options.sources {
        if let SourceSpec::Snapshot { paths } = spec {
            for file in SnapshotSource::files_of(paths)? {
                let bytes = std::fs::read(&file).map_err(|source| Error::Write {
                    path: file.clone(),
                    source,
                })?;
                inputs.push(OutputFile {
                    path: file.display().to_string(),
                    sha256: litrev_model::sha256_hex(&bytes),
                    bytes: bytes.len() as u64,
                });
            }
        }
    }
    Ok(inputs)
}
