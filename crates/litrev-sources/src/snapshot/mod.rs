//! An OpenAlex snapshot: local `.jsonl` / `.jsonl.gz` files of Work records, indexed on disk.
//!
//! The index (tantivy) lives in a folder named after a fingerprint of the files (paths, sizes,
//! modification times), so it is built once and reused until the files change. It holds every
//! work's ids, its references (so citing works are a term lookup on the reverse edge) and the
//! stored record, so nothing needs to stay in memory between calls.

mod index;
mod read;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use litrev_model::{Expert, Query, Topic, Work, WorkId};

use crate::error::{Issue, Result};
use crate::source::{Capabilities, Held, Hit, Source, SourceKind};

pub use index::SnapshotOpenReport;

/// Local OpenAlex Work files, searchable and walkable by citation.
pub struct SnapshotSource {
    files: Vec<PathBuf>,
    /// Each file's export name (`RIS`, `Scopus CSV`), `None` for OpenAlex Work records: how the
    /// corpus is named.
    exports: Vec<Option<&'static str>>,
    index: index::SnapshotIndex,
}

impl SnapshotSource {
    /// Opens the snapshot made of `paths` (files or folders), building its index under
    /// `index_root` if it is not there yet. `progress(records_read)` is called while building.
    ///
    /// # Errors
    /// When a path is missing, a file unreadable or holds no Work at all, or the index fails.
    /// Single bad lines are skipped and returned as issues in the report.
    pub fn open(
        paths: &[PathBuf],
        index_root: &Path,
        progress: &dyn Fn(usize),
    ) -> Result<(SnapshotSource, SnapshotOpenReport)> {
        let files = read::expand_paths(paths)?;
        let fingerprint = read::fingerprint(&files)?;
        let folder = index_root.join(&fingerprint);
        let (index, report) = index::SnapshotIndex::open_or_build(&folder, &files, progress)?;
        let exports = files
            .iter()
            .map(|file| read::export_name(file))
            .collect::<Result<_>>()?;
        Ok((
            SnapshotSource {
                files,
                exports,
                index,
            },
            report,
        ))
    }

    /// The Work files that `paths` (files or folders) name, in reading order.
    ///
    /// # Errors
    /// When a path is missing or a folder holds no Work files.
    pub fn files_of(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
        read::expand_paths(paths)
    }

    /// The Work files of the snapshot, in reading order.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// Number of works in the snapshot.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether the snapshot holds no works.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads the files without indexing them: every parsable work, plus the skipped lines.
    ///
    /// # Errors
    /// When a file cannot be read or holds no Work at all.
    pub fn read_works(paths: &[PathBuf]) -> Result<(Vec<Work>, Vec<Issue>)> {
        let files = read::expand_paths(paths)?;
        let mut works = Vec::new();
        let mut issues = Vec::new();
        for file in &files {
            read::read_file(file, &mut |work| works.push(work), &mut issues)?;
        }
        Ok((works, issues))
    }
}

impl Source for SnapshotSource {
    fn kind(&self) -> SourceKind {
        SourceKind::Snapshot
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            search: true,
            batch_lookup: true,
            citing: true,
            references: true,
            reference_lists: true,
            citation_counts: true,
            experts: true,
            ..Capabilities::default()
        }
    }

    /// "a local OpenAlex snapshot (1 file, 5,000 works)", "a library export (1 file: Scopus
    /// CSV, 393 works)", or both kinds named when the files mix them: a review's method says what
    /// its corpus was.
    fn describe(&self) -> String {
        let files = self.files.len();
        let files = format!("{files} file{}", if files == 1 { "" } else { "s" });
        let mut exports: Vec<&str> = self.exports.iter().flatten().copied().collect();
        exports.sort_unstable();
        exports.dedup();
        let openalex = self.exports.iter().any(Option::is_none);
        match (openalex, exports.is_empty()) {
            (_, true) => format!("a local OpenAlex snapshot ({files}, {} works)", self.len()),
            (false, false) => format!(
                "{} ({files}: {}, {} works)",
                if self.files.len() == 1 {
                    "a library export"
                } else {
                    "library exports"
                },
                exports.join(", "),
                self.len()
            ),
            (true, false) => format!(
                "a local OpenAlex snapshot and library exports ({files}: OpenAlex, {}, {} works)",
                exports.join(", "),
                self.len()
            ),
        }
    }

    /// A directed query (kinds, a first year, the most cited first) reads ten times as deep
    /// in the index's relevance ranking and keeps what it asks for: the index knows words,
    /// not kinds, years or citations.
    fn search(&self, query: &Query, limit: usize) -> Result<Vec<Hit>> {
        if !query.is_directed() {
            return self.index.search(&query.text, limit);
        }
        let hits = self
            .index
            .search(&query.text, limit.saturating_mul(DIRECTED_DEPTH))?;
        let mut hits = crate::directed(query, hits);
        hits.truncate(limit);
        Ok(hits)
    }

    /// The works an undirected query matches; none for a directed one, whose kinds and years
    /// the index does not know.
    fn count(&self, query: &Query) -> Result<Option<u64>> {
        if query.is_directed() {
            return Ok(None);
        }
        self.index.count(&query.text).map(Some)
    }

    fn lookup(&self, ids: &[WorkId]) -> Result<Vec<Work>> {
        self.index.lookup(ids)
    }

    fn citing(&self, ids: &[WorkId], _held: &Held<'_>) -> Result<Vec<Work>> {
        self.index.citing(ids)
    }

    /// The authors of the snapshot's works filed under `topics`, each measured on their works
    /// in the snapshot (the only ones it knows): works on the topic, citations, h-index, works
    /// since `since`; most cited first, as OpenAlex sorts them.
    fn experts(&self, topics: &[Topic], since: i32, limit: usize) -> Result<Vec<Expert>> {
        let on_topics = self.index.filed_under(topics)?;
        let mut names: BTreeMap<String, (String, Option<String>)> = BTreeMap::new();
        for work in &on_topics {
            for author in &work.authors {
                if let Some(id) = &author.id {
                    names
                        .entry(id.clone())
                        .or_insert_with(|| (author.name.clone(), author.orcid.clone()));
                }
            }
        }
        let ids: Vec<String> = names.keys().cloned().collect();
        let mut works_of: BTreeMap<&str, Vec<&Work>> = BTreeMap::new();
        let theirs = self.index.by_authors(&ids)?;
        for work in &theirs {
            for author in work
                .authors
                .iter()
                .filter_map(|author| author.id.as_deref())
            {
                if !names.contains_key(author) {
                    continue;
                }
                // An author named twice in one byline counts the work once.
                let list = works_of.entry(author).or_default();
                if !list.iter().any(|known| known.id() == work.id()) {
                    list.push(work);
                }
            }
        }
        let mut experts: Vec<Expert> = names
            .iter()
            .filter_map(|(id, (name, orcid))| {
                let works = works_of.get(id.as_str())?;
                let (works_in_topic, topic) = topics
                    .iter()
                    .map(|topic| {
                        let count = works
                            .iter()
                            .filter(|work| work.topics.iter().any(|filed| filed.id == topic.id))
                            .count();
                        (u32::try_from(count).unwrap_or(u32::MAX), topic)
                    })
                    .max_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.id.cmp(&a.1.id)))?;
                let mut citations: Vec<u32> = works
                    .iter()
                    .map(|work| work.cited_by_count.unwrap_or(0))
                    .collect();
                citations.sort_unstable_by(|a, b| b.cmp(a));
                let h_index = citations
                    .iter()
                    .enumerate()
                    .take_while(|(rank, cited)| **cited as usize > *rank)
                    .count();
                let recent = works
                    .iter()
                    .filter(|work| work.year.is_some_and(|year| year >= since))
                    .count();
                Some(Expert {
                    id: id.clone(),
                    name: name.clone(),
                    orcid: orcid.clone(),
                    topic: topic.clone(),
                    works_in_topic,
                    cited_by_count: citations.iter().copied().fold(0u32, u32::saturating_add),
                    h_index: u32::try_from(h_index).ok(),
                    recent_works: u32::try_from(recent).unwrap_or(u32::MAX),
                    recent_since: since,
                    works: Vec::new(),
                })
            })
            .collect();
        experts.sort_by(|a, b| {
            b.cited_by_count
                .cmp(&a.cited_by_count)
                .then_with(|| a.id.cmp(&b.id))
        });
        experts.truncate(limit);
        Ok(experts)
    }

    fn author_works(
        &self,
        authors: &[String],
        topics: &[Topic],
        limit: usize,
    ) -> Result<Vec<Work>> {
        let mut works: Vec<Work> = self
            .index
            .by_authors(authors)?
            .into_iter()
            .filter(|work| {
                work.topics
                    .iter()
                    .any(|filed| topics.iter().any(|topic| topic.id == filed.id))
            })
            .collect();
        works.sort_by(|a, b| {
            b.cited_by_count
                .cmp(&a.cited_by_count)
                .then_with(|| a.id().cmp(&b.id()))
        });
        works.truncate(limit);
        Ok(works)
    }

    fn references(&self, ids: &[WorkId], _held: &Held<'_>) -> Result<Vec<Work>> {
        let cited: Vec<WorkId> = self
            .lookup(ids)?
            .iter()
            .flat_map(|work| work.references.iter().cloned())
            .collect();
        self.lookup(&cited)
    }
}

/// How much deeper than its limit a directed query reads the index's ranking.
const DIRECTED_DEPTH: usize = 10;

#[cfg(test)]
mod tests;
