//! The on-disk tantivy index of a snapshot: full text, ids, reverse citation edges, records.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use litrev_model::{Topic, Work, WorkId};
use tantivy::collector::{DocSetCollector, TopDocs};
use tantivy::query::{QueryParser, TermSetQuery};
use tantivy::schema::{
    Field, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions, Value,
};
use tantivy::{Index, IndexReader, TantivyDocument, Term, doc};

use crate::error::{Error, Issue, Result};
use crate::source::Hit;

use super::read;

/// Written last when building, so a half-built index (killed process) is never used.
const COMPLETE_MARKER: &str = "litrev-complete";
/// The indexing buffer; one thread keeps document order, and so search ties, deterministic.
const WRITER_BUFFER_BYTES: usize = 64 * 1024 * 1024;

/// What opening a snapshot found.
#[derive(Debug, Clone, Default)]
pub struct SnapshotOpenReport {
    /// Works in the index.
    pub works: usize,
    /// Whether the index was built now (false: reused).
    pub built: bool,
    /// Lines skipped while building.
    pub issues: Vec<Issue>,
    /// Where the index lives.
    pub folder: PathBuf,
}

pub(crate) struct SnapshotIndex {
    folder: PathBuf,
    index: Index,
    reader: IndexReader,
    fields: Fields,
}

#[derive(Clone, Copy)]
struct Fields {
    key: Field,
    ids: Field,
    refs: Field,
    title: Field,
    abstract_text: Field,
    record: Field,
    topics: Field,
    authors: Field,
}

impl Fields {
    fn schema() -> (Schema, Fields) {
        let mut builder = Schema::builder();
        let text = TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer("en_stem")
                .set_index_option(IndexRecordOption::WithFreqsAndPositions),
        );
        let fields = Fields {
            key: builder.add_text_field("key", STRING | STORED),
            ids: builder.add_text_field("ids", STRING),
            refs: builder.add_text_field("refs", STRING),
            title: builder.add_text_field("title", text.clone()),
            abstract_text: builder.add_text_field("abstract", text),
            record: builder.add_text_field("record", STORED),
            topics: builder.add_text_field("topics", STRING),
            authors: builder.add_text_field("authors", STRING),
        };
        (builder.build(), fields)
    }

    fn from_schema(schema: &Schema) -> Option<Fields> {
        Some(Fields {
            key: schema.get_field("key").ok()?,
            ids: schema.get_field("ids").ok()?,
            refs: schema.get_field("refs").ok()?,
            title: schema.get_field("title").ok()?,
            abstract_text: schema.get_field("abstract").ok()?,
            record: schema.get_field("record").ok()?,
            topics: schema.get_field("topics").ok()?,
            authors: schema.get_field("authors").ok()?,
        })
    }
}

impl SnapshotIndex {
    pub(crate) fn open_or_build(
        folder: &Path,
        files: &[PathBuf],
        progress: &dyn Fn(usize),
    ) -> Result<(SnapshotIndex, SnapshotOpenReport)> {
        let index_error = |error: tantivy::TantivyError| Error::Index {
            path: folder.to_owned(),
            message: error.to_string(),
        };
        if folder.join(COMPLETE_MARKER).exists() {
            let index = Index::open_in_dir(folder).map_err(index_error)?;
            let opened = SnapshotIndex::from_index(folder, index)?;
            let report = SnapshotOpenReport {
                works: opened.len(),
                built: false,
                issues: Vec::new(),
                folder: folder.to_owned(),
            };
            return Ok((opened, report));
        }
        if folder.exists() {
            std::fs::remove_dir_all(folder).map_err(|source| Error::Read {
                path: folder.to_owned(),
                source,
            })?;
        }
        std::fs::create_dir_all(folder).map_err(|source| Error::Read {
            path: folder.to_owned(),
            source,
        })?;
        let (schema, fields) = Fields::schema();
        let index = Index::create_in_dir(folder, schema).map_err(index_error)?;
        let mut writer = index
            .writer_with_num_threads::<TantivyDocument>(1, WRITER_BUFFER_BYTES)
            .map_err(index_error)?;
        let mut issues = Vec::new();
        let mut seen: BTreeSet<WorkId> = BTreeSet::new();
        let mut added = 0usize;
        let mut add_error = None;
        for file in files {
            read::read_file(
                file,
                &mut |work| {
                    if add_error.is_some() || !seen.insert(work.id()) {
                        return;
                    }
                    match writer.add_document(document(&fields, &work)) {
                        Ok(_) => {
                            added += 1;
                            if added.is_multiple_of(500) {
                                progress(added);
                            }
                        }
                        Err(error) => add_error = Some(error),
                    }
                },
                &mut issues,
            )?;
        }
        if let Some(error) = add_error {
            return Err(index_error(error));
        }
        // A snapshot with no record at all (an empty file, or a folder of empty ones) would
        // only end, several steps later, in a review with nothing to include.
        if added == 0
            && let Some(path) = files.first()
        {
            return Err(Error::NoWorks {
                path: path.clone(),
                first_problem: "it holds no records: it is empty, or every line is blank"
                    .to_owned(),
            });
        }
        writer.commit().map_err(index_error)?;
        writer.wait_merging_threads().map_err(index_error)?;
        progress(added);
        std::fs::write(folder.join(COMPLETE_MARKER), added.to_string()).map_err(|source| {
            Error::Read {
                path: folder.to_owned(),
                source,
            }
        })?;
        let index = Index::open_in_dir(folder).map_err(index_error)?;
        let opened = SnapshotIndex::from_index(folder, index)?;
        let report = SnapshotOpenReport {
            works: opened.len(),
            built: true,
            issues,
            folder: folder.to_owned(),
        };
        Ok((opened, report))
    }

    fn from_index(folder: &Path, index: Index) -> Result<SnapshotIndex> {
        let fields = Fields::from_schema(&index.schema()).ok_or_else(|| Error::Index {
            path: folder.to_owned(),
            message: "the index was made by another version of litrev".to_owned(),
        })?;
        let reader = index.reader().map_err(|error| Error::Index {
            path: folder.to_owned(),
            message: error.to_string(),
        })?;
        Ok(SnapshotIndex {
            folder: folder.to_owned(),
            index,
            reader,
            fields,
        })
    }

    pub(crate) fn len(&self) -> usize {
        usize::try_from(self.reader.searcher().num_docs()).unwrap_or(usize::MAX)
    }

    pub(crate) fn search(&self, text: &str, limit: usize) -> Result<Vec<Hit>> {
        let query = self.text_query(text);
        let searcher = self.reader.searcher();
        let top = searcher
            .search(&query, &TopDocs::with_limit(limit.max(1)).order_by_score())
            .map_err(|error| self.error(error))?;
        top.into_iter()
            .map(|(score, address)| {
                let document: TantivyDocument =
                    searcher.doc(address).map_err(|error| self.error(error))?;
                Ok(Hit {
                    work: self.work_of(&document)?,
                    score,
                })
            })
            .collect()
    }

    /// How many works `text` matches, as [`SnapshotIndex::search`] reads it.
    pub(crate) fn count(&self, text: &str) -> Result<u64> {
        let searcher = self.reader.searcher();
        let count = searcher
            .search(&self.text_query(text), &tantivy::collector::Count)
            .map_err(|error| self.error(error))?;
        Ok(count as u64)
    }

    /// `text` as a query of the titles (weighing twice) and abstracts, read leniently.
    fn text_query(&self, text: &str) -> Box<dyn tantivy::query::Query> {
        let mut parser = QueryParser::for_index(
            &self.index,
            vec![self.fields.title, self.fields.abstract_text],
        );
        parser.set_field_boost(self.fields.title, 2.0);
        parser.parse_query_lenient(text).0
    }

    pub(crate) fn lookup(&self, ids: &[WorkId]) -> Result<Vec<Work>> {
        let terms = ids
            .iter()
            .map(|id| Term::from_field_text(self.fields.ids, &id.to_string()));
        self.matching(TermSetQuery::new(terms))
    }

    pub(crate) fn citing(&self, ids: &[WorkId]) -> Result<Vec<Work>> {
        let terms = ids
            .iter()
            .map(|id| Term::from_field_text(self.fields.refs, &id.to_string()));
        self.matching(TermSetQuery::new(terms))
    }

    /// Every work filed under any of `topics` (by their ids), in key order.
    pub(crate) fn filed_under(&self, topics: &[Topic]) -> Result<Vec<Work>> {
        let terms = topics
            .iter()
            .map(|topic| Term::from_field_text(self.fields.topics, &topic.id));
        self.matching(TermSetQuery::new(terms))
    }

    /// Every work by any of `authors` (their source ids), in key order.
    pub(crate) fn by_authors(&self, authors: &[String]) -> Result<Vec<Work>> {
        let terms = authors
            .iter()
            .map(|author| Term::from_field_text(self.fields.authors, author));
        self.matching(TermSetQuery::new(terms))
    }

    /// Every work matching the query, in key order (deterministic whatever the segments).
    fn matching(&self, query: TermSetQuery) -> Result<Vec<Work>> {
        let searcher = self.reader.searcher();
        let addresses = searcher
            .search(&query, &DocSetCollector)
            .map_err(|error| self.error(error))?;
        let mut works = addresses
            .into_iter()
            .map(|address| {
                let document: TantivyDocument =
                    searcher.doc(address).map_err(|error| self.error(error))?;
                self.work_of(&document)
            })
            .collect::<Result<Vec<Work>>>()?;
        works.sort_by_key(Work::id);
        Ok(works)
    }

    fn work_of(&self, document: &TantivyDocument) -> Result<Work> {
        let record = document
            .get_first(self.fields.record)
            .and_then(|value| value.as_str())
            .unwrap_or("");
        serde_json::from_str(record).map_err(|error| Error::Index {
            path: self.folder.clone(),
            message: format!("a stored record does not parse: {error}"),
        })
    }

    fn error(&self, error: tantivy::TantivyError) -> Error {
        Error::Index {
            path: self.folder.clone(),
            message: error.to_string(),
        }
    }
}

fn document(fields: &Fields, work: &Work) -> TantivyDocument {
    let record = serde_json::to_string(work).expect("a Work always serialises to JSON");
    let mut document = doc!(
        fields.key => work.id().to_string(),
        fields.title => work.title_or_empty(),
        fields.abstract_text => work.abstract_text.as_deref().unwrap_or(""),
        fields.record => record,
    );
    for id in work.ids.all() {
        document.add_text(fields.ids, id.to_string());
    }
    for reference in &work.references {
        document.add_text(fields.refs, reference.to_string());
    }
    for topic in &work.topics {
        document.add_text(fields.topics, &topic.id);
    }
    for author in work.authors.iter().filter_map(|author| author.id.as_ref()) {
        document.add_text(fields.authors, author);
    }
    document
}
