//! Errors and per-record issues of the sources.

use std::path::PathBuf;

/// What went wrong talking to a source.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A snapshot path does not exist.
    #[error(
        "snapshot `{path}` does not exist: pass an OpenAlex .jsonl or .jsonl.gz file, a library export (RIS, BibTeX, CSL-JSON, MEDLINE, PubMed XML, Web of Science or CSV), or a folder of them"
    )]
    MissingPath {
        /// The path given.
        path: PathBuf,
    },
    /// A snapshot folder holds no Work files.
    #[error(
        "no OpenAlex Work files (.jsonl, .json) or library exports (.ris, .bib, .csv, .tsv, .nbib, .isi, .xml; gzipped or not) in `{path}`: point --source snapshot: at such files or their folder"
    )]
    EmptyFolder {
        /// The folder.
        path: PathBuf,
    },
    /// A file could not be read.
    #[error("cannot read `{path}`: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A gzip file whose stream breaks off or is corrupt.
    #[error(
        "`{path}` is a damaged gzip file ({reason}{}): it was most likely cut off while being downloaded or copied; download or copy it again (`gzip -t {path}` checks a file), then run the command again",
        records.map(|records| format!(", after {records} record{}", if records == 1 { "" } else { "s" })).unwrap_or_default()
    )]
    DamagedGzip {
        /// The file.
        path: PathBuf,
        /// What the decoder said.
        reason: String,
        /// The records read before the break, when counted.
        records: Option<usize>,
    },
    /// A file held lines but not one OpenAlex Work, nor a library export's record.
    #[error(
        "`{path}` holds no OpenAlex Work records ({first_problem}): expected one Work JSON object per line, as in the OpenAlex data dump, or a library export (RIS, BibTeX, CSL-JSON, MEDLINE, PubMed XML, Web of Science, CSV) whose records carry DOIs"
    )]
    NoWorks {
        /// The file.
        path: PathBuf,
        /// What was wrong with the first bad line.
        first_problem: String,
    },
    /// A capability the source does not have.
    #[error("{source_name} cannot give {capability}: use a source that can, or leave it out")]
    Unsupported {
        /// The source.
        source_name: &'static str,
        /// What was asked.
        capability: &'static str,
    },
    /// A local Zotero database could not be read.
    #[error(
        "cannot read the Zotero database `{path}` ({message}): point --zotero-sqlite at the zotero.sqlite in your Zotero data folder (Zotero → Settings → Advanced → Files and Folders)"
    )]
    ZoteroDatabase {
        /// The file given.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A live source failed (after retries, or for good).
    #[error(transparent)]
    Http(#[from] litrev_http::Error),
    /// A Zotero library refused what was asked, with what to do.
    #[error("Zotero: {message}")]
    Zotero {
        /// What went wrong and what to do.
        message: String,
    },
    /// A source cannot be asked without a setting the user has not given.
    #[error("{source_name} needs {setting}: {how}")]
    MissingSetting {
        /// The source.
        source_name: &'static str,
        /// What it needs.
        setting: &'static str,
        /// How to give it.
        how: &'static str,
    },
    /// A response was not in the format the API documents.
    #[error(
        "{source_name} answered in an unexpected format ({message}): the API may have changed; report it with the request"
    )]
    Parse {
        /// The source.
        source_name: &'static str,
        /// What was wrong.
        message: String,
    },
    /// A web page gave no readable text.
    #[error(
        "the page at {url} has no readable text ({message}): check that it is an article or report, not a list or a login page"
    )]
    Page {
        /// The page's address.
        url: String,
        /// What the reader found.
        message: String,
    },
    /// The on-disk search index failed.
    #[error(
        "the search index at `{path}` failed ({message}): delete that folder and run again to rebuild it"
    )]
    Index {
        /// Index folder.
        path: PathBuf,
        /// The index library's message.
        message: String,
    },
}

impl Error {
    /// A response of `source` that did not read as the API documents it.
    pub(crate) fn parse(source: crate::SourceKind, error: impl std::fmt::Display) -> Error {
        Error::Parse {
            source_name: source.name(),
            message: error.to_string(),
        }
    }
}

/// A record skipped while reading a source: reported, never fatal to the rest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// File the record came from.
    pub path: PathBuf,
    /// Line number, from 1.
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

/// Result with the sources' error.
pub type Result<T, E = Error> = std::result::Result<T, E>;
