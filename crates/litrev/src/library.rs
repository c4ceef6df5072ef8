//! The person's own libraries joined to a review (`--library`, seed S0): a local Zotero
//! database (`zotero.sqlite`, read from a copy while Zotero holds it locked; `--library-collection`
//! takes one collection), a Zotero library on the Web API (`zotero:`, `zotero:groups/ID`), or
//! an export of any reference manager or database: RIS, BibTeX or
//! BibLaTeX, CSL-JSON, MEDLINE text, PubMed XML, Web of Science plain text or a table (Scopus
//! CSV…), told apart by their content. Their works join
//! the corpus with origin `library` and are screened like search hits; a Zotero library's
//! `storage/` folder becomes a full-text folder, so the PDFs it keeps are read for the works
//! included. A record with neither a DOI nor a web address cannot be known by an id and is
//! left out, and the run says how many.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use litrev_model::{Work, WorkId};
use litrev_sources::Source;
use litrev_sources::library::{LibraryFormat, UNNAMED_RECORD};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::events::Event;

/// A library named with `--library`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LibraryFile {
    /// A `zotero.sqlite`, or an export ([`LibraryFormat`]).
    pub path: PathBuf,
    /// For a Zotero library: the collection whose items are taken (all of them when none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collection: Option<String>,
}

/// What a `--library` opens with when it names a Zotero library on the Web API rather than a
/// file: `zotero:` alone for the configured library (`LITREV_ZOTERO_LIBRARY`), or
/// `zotero:users/ID`, `zotero:groups/ID`.
pub const ZOTERO_WEB_PREFIX: &str = "zotero:";

impl LibraryFile {
    /// The Web API library it names, if it names one: `Some(None)` for the configured library,
    /// `Some(Some("groups/ID"))` for another.
    pub(crate) fn web_library(&self) -> Option<Option<&str>> {
        let rest = self.path.to_str()?.strip_prefix(ZOTERO_WEB_PREFIX)?.trim();
        Some(Some(rest).filter(|library| !library.is_empty()))
    }

    /// Whether the file is a Zotero database (SQLite) rather than an export.
    fn is_zotero(&self) -> bool {
        let mut head = [0u8; 16];
        std::fs::File::open(&self.path)
            .and_then(|mut file| std::io::Read::read_exact(&mut file, &mut head))
            .is_ok_and(|()| &head == b"SQLite format 3\0")
    }

    /// The folder of a Zotero library's stored files, when it has one.
    pub(crate) fn storage(&self) -> Option<PathBuf> {
        self.is_zotero()
            .then(|| self.path.with_file_name("storage"))
            .filter(|folder| folder.is_dir())
    }
}

/// What one library gave, stored with the discover step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct LibraryRecord {
    /// The file.
    pub(crate) path: PathBuf,
    /// Its records (of the collection, when one was named).
    pub(crate) records: usize,
    /// Those that joined the corpus as works.
    pub(crate) works: usize,
    /// Those left out for want of a DOI or a web address.
    pub(crate) without_id: usize,
    /// The files a Zotero library keeps for its works: each work's text, whatever the file
    /// says of itself.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) files: Vec<(WorkId, PathBuf)>,
}

/// The works of the named libraries, and what each gave.
#[derive(Default)]
pub(crate) struct Libraries {
    /// Their works, in the libraries' order.
    pub(crate) works: Vec<Work>,
    /// One record per library.
    pub(crate) records: Vec<LibraryRecord>,
}

/// Reads every named library; `zotero` opens a Web API library (the configured one, or the
/// one named).
///
/// # Errors
/// [`Error::BadInput`] for a file that cannot be read or is neither a Zotero database nor an
/// export litrev reads; the Zotero reader's error for a database it cannot read or a collection
/// it lacks; the Web API's for a library it cannot list.
pub(crate) fn read_libraries(
    files: &[LibraryFile],
    zotero: &dyn Fn(Option<&str>) -> Result<litrev_sources::zotero::ZoteroLibrary>,
    events: &dyn Fn(&Event),
) -> Result<Libraries> {
    let mut read = Libraries::default();
    for file in files {
        let mut attached = Vec::new();
        let records: Vec<Option<Work>> = if let Some(library) = file.web_library() {
            zotero(library)?
                .items(file.collection.as_deref())?
                .iter()
                .map(litrev_sources::zotero::ZoteroItem::work)
                .collect()
        } else if file.is_zotero() {
            let items =
                litrev_sources::zotero::read_local_library(&file.path, file.collection.as_deref())?;
            items
                .iter()
                .map(|item| {
                    let work = item.work();
                    if let Some(work) = &work {
                        attached.extend(item.files.iter().map(|path| (work.id(), path.clone())));
                    }
                    work
                })
                .collect()
        } else {
            read_export_works(&file.path, events)?
        };
        let total = records.len();
        let works: Vec<Work> = records.into_iter().flatten().collect();
        let without_id = total - works.len();
        if without_id > 0 {
            events(&Event::Notice {
                message: format!(
                    "{without_id} of the {total} records of {} have neither a DOI nor a web address and were left out: add their DOIs in your reference manager to review them",
                    file.path.display()
                ),
            });
        }
        read.records.push(LibraryRecord {
            path: file.path.clone(),
            records: total,
            works: works.len(),
            without_id,
            files: attached,
        });
        read.works.extend(works);
    }
    Ok(read)
}

/// The libraries' works as the run's sources know them: each one a source finds by its DOI is
/// merged with the source's record (which brings the ids, references and subjects the
/// relevance ranking reads), the library's fields kept where the source has none. A lookup
/// that fails leaves the library's records as they are, and says so.
pub(crate) fn as_sources_know_them(
    sources: &dyn Source,
    works: Vec<Work>,
    events: &dyn Fn(&Event),
) -> Vec<Work> {
    let dois: Vec<WorkId> = works
        .iter()
        .filter_map(|work| work.ids.doi.clone().map(WorkId::Doi))
        .collect();
    if dois.is_empty() || !sources.capabilities().batch_lookup {
        return works;
    }
    let known = match sources.lookup(&dois) {
        Ok(known) => known,
        Err(error) => {
            events(&Event::Notice {
                message: format!(
                    "the library's records could not be looked up ({error}): they are screened as the library gives them"
                ),
            });
            return works;
        }
    };
    // The sources' records by each of their ids, so each library record finds its own at once.
    let mut by_id: BTreeMap<WorkId, &Work> = BTreeMap::new();
    for record in &known {
        for id in record.ids.all() {
            by_id.entry(id).or_insert(record);
        }
    }
    works
        .into_iter()
        .map(|work| {
            let record = work.ids.all().iter().find_map(|id| by_id.get(id).copied());
            match record {
                Some(record) => litrev_model::merge_pair(record.clone(), work),
                None => work,
            }
        })
        .collect()
}

/// The works a library export names, as seeds to start from (`--seeds-from`): each record's
/// DOI, or its first id where it has none (an OpenAlex id, a PMID, an arXiv id); records
/// without an id are passed over, and a work named twice is one seed.
///
/// # Errors
/// [`Error::BadInput`] for a file litrev cannot read as an export, or one naming no work.
pub fn seeds_from(path: &Path, events: &dyn Fn(&Event)) -> Result<Vec<WorkId>> {
    seeds_of(read_export_works(path, events)?, path)
}

/// [`seeds_from`] for an export given as text (uploaded to the server, passed to MCP's
/// `start_review`), `name` naming it in messages.
///
/// # Errors
/// [`Error::BadInput`] for a text litrev cannot read as an export, or one naming no work.
pub fn seeds_from_text(text: &str, name: &str, events: &dyn Fn(&Event)) -> Result<Vec<WorkId>> {
    seeds_of(
        export_works(text, Path::new(name), EXPORT_TEXTS, events)?,
        Path::new(name),
    )
}

/// One seed per work an export's records name.
fn seeds_of(works: Vec<Option<Work>>, path: &Path) -> Result<Vec<WorkId>> {
    let total = works.len();
    let mut seeds: Vec<WorkId> = Vec::new();
    // Every id of the works kept, so a work named twice (by its DOI, then by its PMID alone)
    // is one seed.
    let mut known: Vec<WorkId> = Vec::new();
    for work in works.into_iter().flatten() {
        let ids = work.ids.all();
        if ids.iter().any(|id| known.contains(id)) {
            continue;
        }
        let doi = work.ids.doi.clone().map(WorkId::Doi);
        if let Some(id) = doi.or_else(|| work.ids.primary()) {
            seeds.push(id);
            known.extend(ids);
        }
    }
    if seeds.is_empty() {
        return Err(Error::BadInput {
            path: path.to_owned(),
            message: format!(
                "none of its {total} records has an identifier (DOI, PMID, OpenAlex or arXiv id) to start from: export the library again with DOIs"
            ),
        });
    }
    Ok(seeds)
}

/// What `--library` reads, for the messages that name it.
const LIBRARY_FILES: &str = "a zotero.sqlite, or a RIS, BibTeX, CSL-JSON, MEDLINE (.nbib), PubMed XML, Web of Science (plain text) or CSV export";

/// What a library sent as text (the API's and MCP's `seeds_library`) may be, for its messages.
const EXPORT_TEXTS: &str = "send the text of a RIS, BibTeX, CSL-JSON, MEDLINE (.nbib), PubMed XML, Web of Science (plain text) or CSV export";

/// A library export's records (its format told by its content), as works where they carry
/// an id.
fn read_export_works(path: &Path, events: &dyn Fn(&Event)) -> Result<Vec<Option<Work>>> {
    let bytes = litrev_sources::read_bytes(path).map_err(|error| match error {
        litrev_sources::Error::Read { source, .. } => Error::BadInput {
            path: path.to_owned(),
            message: format!("{source}: name {LIBRARY_FILES}"),
        },
        damaged => Error::Source(damaged),
    })?;
    let (text, encoding) = litrev_sources::library::decode(&bytes);
    if encoding == "windows-1252" {
        events(&Event::Notice {
            message: format!(
                "{} is not UTF-8: it was read as Windows-1252; if accented letters look wrong, export it again as UTF-8",
                path.display()
            ),
        });
    }
    export_works(&text, path, &format!("name {LIBRARY_FILES}"), events)
}

/// The records of an export's text (`path` names it in messages, `formats` says what to give
/// instead when it is none), as works where they carry an id.
fn export_works(
    text: &str,
    path: &Path,
    formats: &str,
    events: &dyn Fn(&Event),
) -> Result<Vec<Option<Work>>> {
    let bad = |message: String| Error::BadInput {
        path: path.to_owned(),
        message,
    };
    let format = LibraryFormat::detect(text)
        .ok_or_else(|| bad(format!("this is no library export litrev reads: {formats}")))?;
    let (records, issues) = format.read(text, path);
    let unnamed = issues
        .iter()
        .filter(|issue| issue.message == UNNAMED_RECORD)
        .count();
    if records.is_empty() {
        let name = format.name();
        return Err(bad(
            match issues.iter().find(|issue| issue.message != UNNAMED_RECORD) {
                _ if unnamed > 0 => format!(
                    "none of its {unnamed} {name} records has a title or an identifier (DOI, PMID, URL): export the library again with those fields"
                ),
                Some(issue) => format!(
                    "no {name} record could be read: line {}: {}",
                    issue.line, issue.message
                ),
                None => format!("no {name} record in it: export the library again"),
            },
        ));
    }
    // Records the reader could not read are named, so the user can mend them; the others
    // are read.
    let unreadable: Vec<&litrev_sources::Issue> = issues
        .iter()
        .filter(|issue| issue.message != UNNAMED_RECORD)
        .collect();
    if let Some(first) = unreadable.first() {
        events(&Event::Notice {
            message: format!(
                "records of {} that could not be read were left out ({} in all), the first at line {}: {}",
                path.display(),
                unreadable.len(),
                first.line,
                first.message
            ),
        });
    }
    Ok(records
        .into_iter()
        .map(|record| Some(record.work).filter(|work| work.ids.primary().is_some()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads library files: no Web API library is named in these tests.
    fn read_files(files: &[LibraryFile], events: &dyn Fn(&Event)) -> Result<Libraries> {
        read_libraries(
            files,
            &|_| {
                Err(litrev_sources::Error::MissingSetting {
                    source_name: "zotero",
                    setting: "a library",
                    how: "these tests read files only",
                }
                .into())
            },
            events,
        )
    }

    /// A real Zotero RIS export gives its records with DOIs as works; a file of records without
    /// any id gives none and says how many it left out; a file that is neither is refused.
    #[test]
    fn ris_exports_give_the_records_they_can_name() {
        let Some(data) = litrev_testkit::testdata() else {
            return;
        };
        let folder = data.join("import-exports/asreview-demo-data");
        let notices = std::sync::Mutex::new(Vec::new());
        let read = read_files(
            &[
                LibraryFile {
                    path: folder.join("baseline_zotero.ris"),
                    collection: None,
                },
                LibraryFile {
                    path: folder.join("baseline_tag-notes.ris"),
                    collection: None,
                },
            ],
            &|event| {
                if let Event::Notice { message } = event {
                    notices.lock().expect("notices").push(message.clone());
                }
            },
        )
        .expect("reads");
        assert_eq!(read.records[0].records, 100);
        assert_eq!(read.records[0].works, 100);
        // Of its eleven records, one has a title (the others are notes alone), and no id.
        assert_eq!(
            (read.records[1].records, read.records[1].without_id),
            (1, 1)
        );
        assert!(read.works[0].ids.doi.is_some() && read.works[0].abstract_text.is_some());
        let said = notices.lock().expect("notices").join("\n");
        assert!(said.contains("1 of the 1 records of"), "{said}");
        let not_a_library = tempfile::NamedTempFile::new().expect("file");
        std::fs::write(not_a_library.path(), "<html><body>A page</body></html>\n").expect("write");
        let refused = read_files(
            &[LibraryFile {
                path: not_a_library.path().to_owned(),
                collection: None,
            }],
            &|_| {},
        )
        .err()
        .expect("refused");
        assert!(
            refused
                .to_string()
                .contains("zotero.sqlite, or a RIS, BibTeX, CSL-JSON"),
            "{refused}"
        );
        // A real RIS file of records that carry only their type and notes: 61 records, each
        // skipped, and the error says so rather than that the file holds no record.
        let untitled = read_files(
            &[LibraryFile {
                path: folder.join("baseline_reference_types.ris"),
                collection: None,
            }],
            &|_| {},
        )
        .err()
        .expect("refused");
        assert!(
            untitled.to_string().contains("none of its 61 RIS records"),
            "{untitled}"
        );
    }

    /// A gzipped export reads as the export itself (the real Zotero RIS export, gzipped here);
    /// one cut off part way is refused as a damaged file, as a snapshot is.
    #[test]
    fn a_gzipped_export_reads_as_itself_and_a_cut_one_is_refused() {
        use std::io::Write;
        let Some(data) = litrev_testkit::testdata() else {
            return;
        };
        let ris = std::fs::read(data.join("import-exports/asreview-demo-data/baseline_zotero.ris"))
            .expect("read");
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(&ris).expect("gzip");
        let gzipped = encoder.finish().expect("gzip");
        let folder = tempfile::tempdir().expect("folder");
        let whole = folder.path().join("zotero.ris.gz");
        std::fs::write(&whole, &gzipped).expect("write");
        let file = |path: &Path| LibraryFile {
            path: path.to_owned(),
            collection: None,
        };
        let read = read_files(&[file(&whole)], &|_| {}).expect("a gzipped RIS export");
        assert_eq!((read.records[0].records, read.records[0].works), (100, 100));
        let cut = folder.path().join("cut.ris.gz");
        std::fs::write(&cut, &gzipped[..gzipped.len() / 2]).expect("write");
        let Err(error) = read_files(&[file(&cut)], &|_| {}) else {
            panic!("a cut-off export was read");
        };
        assert!(
            matches!(
                error,
                Error::Source(litrev_sources::Error::DamagedGzip { .. })
            ),
            "{error}"
        );
    }

    /// A library export's works are seeds: DOIs first, one seed per work; a file naming no work
    /// by an id is refused with what to do.
    #[test]
    fn an_export_gives_its_works_as_seeds() {
        let folder = tempfile::tempdir().expect("folder");
        let medline = folder.path().join("pubmed.nbib");
        std::fs::write(
            &medline,
            "PMID- 28691557\nTI  - Emicizumab prophylaxis\nLID - 10.1056/NEJMoa1703068 [doi]\n\n\
             PMID- 30157389\nTI  - Another\n\nPMID- 28691557\nTI  - The first again\n",
        )
        .expect("write");
        let seeds = seeds_from(&medline, &|_| {}).expect("seeds");
        let named: Vec<String> = seeds.iter().map(ToString::to_string).collect();
        assert_eq!(named, ["10.1056/nejmoa1703068", "pmid:30157389"]);
        let untitled = folder.path().join("none.bib");
        std::fs::write(&untitled, "@article{a, title = {No id}}\n").expect("write");
        let refused = seeds_from(&untitled, &|_| {}).expect_err("refused");
        assert!(
            refused
                .to_string()
                .contains("none of its 1 records has an identifier"),
            "{refused}"
        );
    }

    /// BibTeX and CSL-JSON libraries join as RIS ones do, whatever their files are called; an
    /// entry the reader cannot read is left out and named, the others are kept.
    #[test]
    fn bibtex_and_csl_json_libraries_give_their_records() {
        let folder = tempfile::tempdir().expect("folder");
        let bib = folder.path().join("library.txt");
        std::fs::write(
            &bib,
            "@article{a, title = {Emicizumab prophylaxis}, doi = {10.1056/NEJMoa1703068}, year = 2017}\n\
             @article{b, title = {Broken, doi = {10.1/b}}\n\
             @book{c, title = {No id}, year = 2001}\n",
        )
        .expect("write");
        let json = folder.path().join("library.data");
        std::fs::write(
            &json,
            r#"[{"type": "article-journal", "title": "A trial", "DOI": "10.1000/xyz"}]"#,
        )
        .expect("write");
        let notices = std::sync::Mutex::new(Vec::new());
        let read = read_files(
            &[
                LibraryFile {
                    path: bib,
                    collection: None,
                },
                LibraryFile {
                    path: json,
                    collection: None,
                },
            ],
            &|event| {
                if let Event::Notice { message } = event {
                    notices.lock().expect("notices").push(message.clone());
                }
            },
        )
        .expect("reads");
        assert_eq!(
            (
                read.records[0].records,
                read.records[0].works,
                read.records[0].without_id
            ),
            (2, 1, 1)
        );
        assert_eq!((read.records[1].records, read.records[1].works), (1, 1));
        let dois: Vec<String> = read
            .works
            .iter()
            .filter_map(|work| work.ids.doi.as_ref().map(ToString::to_string))
            .collect();
        assert_eq!(dois, ["10.1056/nejmoa1703068", "10.1000/xyz"]);
        let said = notices.lock().expect("notices").join("\n");
        assert!(
            said.contains("that could not be read were left out (1 in all), the first at line 2"),
            "{said}"
        );
    }

    /// A library record known only by DOI, title and abstract becomes the snapshot's record of
    /// that work (its OpenAlex id and references), keeping what the source lacks.
    #[test]
    fn library_records_are_merged_with_what_the_sources_know() {
        let Some(data) = litrev_testkit::testdata() else {
            return;
        };
        let index = tempfile::tempdir().expect("index folder");
        let (snapshot, _) = litrev_sources::SnapshotSource::open(
            &[data.join("synergy/works/Donners_2021.jsonl.gz")],
            index.path(),
            &|_| {},
        )
        .expect("the snapshot opens");
        let known: Work = Work {
            ids: litrev_model::WorkIds {
                doi: Some("10.1056/NEJMoa1703068".parse().expect("a DOI")),
                ..litrev_model::WorkIds::default()
            },
            title: Some("Emicizumab Prophylaxis in Hemophilia A with Inhibitors".to_owned()),
            venue: Some("From my library".to_owned()),
            ..Work::default()
        };
        let unknown = Work {
            ids: litrev_model::WorkIds {
                doi: Some("10.9999/not.in.the.snapshot".parse().expect("a DOI")),
                ..litrev_model::WorkIds::default()
            },
            title: Some("A record only the library holds".to_owned()),
            ..Work::default()
        };
        let merged = as_sources_know_them(&snapshot, vec![known, unknown.clone()], &|_| {});
        assert!(merged[0].ids.openalex.is_some(), "{:?}", merged[0].ids);
        assert!(!merged[0].references.is_empty());
        assert!(merged[0].abstract_text.is_some());
        assert_eq!(merged[1], unknown);
    }
}
