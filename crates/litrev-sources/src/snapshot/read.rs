//! Reading snapshot files: folders expanded, gzip detected, one Work per line, or a library
//! export's records.

use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

use litrev_model::Work;
use sha2::{Digest, Sha256};

use crate::error::{Error, Issue, Result};
use crate::files::{open, reading_failed};
use crate::openalex::parse_work;

/// Bumped whenever the index layout or the Work conversion changes, so old indexes are rebuilt.
const INDEX_FORMAT: &str = "litrev-snapshot-index-v6";

/// Expands folders into their `.jsonl`/`.jsonl.gz`/`.json` files, sorted; keeps files as given.
pub(crate) fn expand_paths(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if !path.exists() {
            return Err(Error::MissingPath { path: path.clone() });
        }
        if path.is_dir() {
            let entries = std::fs::read_dir(path).map_err(|source| Error::Read {
                path: path.clone(),
                source,
            })?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(|entry| entry.ok().map(|entry| entry.path()))
                .filter(|file| is_work_file(file))
                .collect();
            if found.is_empty() {
                return Err(Error::EmptyFolder { path: path.clone() });
            }
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    files.dedup();
    Ok(files)
}

/// Whether a folder's file is one a snapshot reads: OpenAlex Work records or a library export
/// ([`crate::library::LibraryFormat`]) by its name's ending, gzipped or not. A `.txt` (a Web
/// of Science or MEDLINE export) is read only when named, as a folder's notes are `.txt` too.
fn is_work_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    path.is_file()
        && [
            ".jsonl", ".json", ".ndjson", ".ris", ".bib", ".csv", ".tsv", ".tab", ".nbib", ".isi",
            ".xml",
        ]
        .iter()
        .any(|ending| name.ends_with(ending))
}

/// A name for the index of these files: changes when any file's path, size or mtime does.
pub(crate) fn fingerprint(files: &[PathBuf]) -> Result<String> {
    let mut hasher = Sha256::new();
    hasher.update(INDEX_FORMAT.as_bytes());
    for file in files {
        let canonical = file.canonicalize().map_err(|source| Error::Read {
            path: file.clone(),
            source,
        })?;
        let metadata = std::fs::metadata(&canonical).map_err(|source| Error::Read {
            path: file.clone(),
            source,
        })?;
        let modified = metadata
            .modified()
            .ok()
            .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|age| age.as_nanos())
            .unwrap_or(0);
        hasher.update(canonical.to_string_lossy().as_bytes());
        hasher.update(metadata.len().to_le_bytes());
        hasher.update(modified.to_le_bytes());
    }
    let digest = hasher.finalize();
    Ok(digest
        .iter()
        .take(12)
        .map(|byte| format!("{byte:02x}"))
        .collect())
}

/// The name of the library export a snapshot file is (`RIS`, `Scopus CSV`, as
/// [`crate::library::LibraryFormat::exporter`] gives it), read from its head; `None` for
/// OpenAlex Work records (a first line that is a Work, or a head no export format claims), as
/// [`read_file`] reads them.
///
/// # Errors
/// When the file cannot be read.
pub(crate) fn export_name(path: &Path) -> Result<Option<&'static str>> {
    let read_error = |source| reading_failed(path, None, source);
    let mut first = Vec::new();
    let mut reader = open(path)?;
    loop {
        first.clear();
        if reader.read_until(b'\n', &mut first).map_err(read_error)? == 0 {
            break;
        }
        if !first.trim_ascii().is_empty() {
            break;
        }
    }
    if std::str::from_utf8(&first).is_ok_and(|line| parse_work(line.trim()).is_ok()) {
        return Ok(None);
    }
    let mut head = Vec::new();
    open(path)?
        .take(64 * 1024)
        .read_to_end(&mut head)
        .map_err(read_error)?;
    let (text, _) = crate::library::decode(&head);
    Ok(crate::library::LibraryFormat::detect(&text).map(|format| format.exporter(&text)))
}

/// Reads one file, handing each parsed work to `sink` and recording bad lines as issues: one
/// OpenAlex Work per line, or, for a file none of whose lines is a Work, a library export as
/// `--library` reads it ([`read_export`]).
///
/// # Errors
/// When the file cannot be read, or has lines but none is a Work.
pub(crate) fn read_file(
    path: &Path,
    sink: &mut dyn FnMut(Work),
    issues: &mut Vec<Issue>,
) -> Result<usize> {
    let reader = open(path)?;
    let mut parsed = 0;
    let mut first_problem = None;
    let issues_before = issues.len();
    // Lines are read as bytes: one line that is not UTF-8 is a bad line like any other, not a
    // file that cannot be read.
    for (line_index, line) in reader.split(b'\n').enumerate() {
        let line = line.map_err(|source| reading_failed(path, Some(parsed), source))?;
        let outcome = match std::str::from_utf8(&line).map(str::trim) {
            Ok("") => continue,
            Ok(line) => parse_work(line),
            Err(error) => Err(format!("the line is not UTF-8 text ({error})")),
        };
        match outcome {
            Ok(work) => {
                parsed += 1;
                sink(work);
            }
            Err(message) => {
                first_problem.get_or_insert_with(|| format!("line {}: {message}", line_index + 1));
                issues.push(Issue {
                    path: path.to_owned(),
                    line: line_index + 1,
                    message,
                });
            }
        }
    }
    if parsed == 0
        && let Some(first_problem) = first_problem
    {
        issues.truncate(issues_before);
        // No line is a Work: the file may be a library export, whose own problem is then the
        // one to tell.
        if let Some(read) = read_export(path, open(path)?, sink, issues)? {
            return Ok(read);
        }
        return Err(Error::NoWorks {
            path: path.to_owned(),
            first_problem,
        });
    }
    Ok(parsed)
}

/// A library export (RIS, BibTeX, CSL-JSON, MEDLINE, PubMed XML, Web of Science, a table; in
/// any encoding `library::decode` reads) as a snapshot: the reviewer's own records, a closed
/// corpus. A record with no id (DOI, PMID, arXiv id, web address) could not be cited, so it is
/// left out and counted in one issue. `None` when the text is no export.
///
/// # Errors
/// When the file cannot be read, or none of the export's records has an id.
fn read_export(
    path: &Path,
    mut reader: Box<dyn BufRead>,
    sink: &mut dyn FnMut(Work),
    issues: &mut Vec<Issue>,
) -> Result<Option<usize>> {
    let mut bytes = Vec::new();
    reader
        .read_to_end(&mut bytes)
        .map_err(|source| reading_failed(path, None, source))?;
    let (text, _) = crate::library::decode(&bytes);
    let Some(format) = crate::library::LibraryFormat::detect(&text) else {
        return Ok(None);
    };
    let (records, found) = format.read(&text, path);
    let total = records.len();
    let mut parsed = 0;
    for record in records {
        if record.work.ids.primary().is_some() {
            sink(record.work);
            parsed += 1;
        }
    }
    if parsed == 0 {
        let first_problem = match found.first() {
            _ if total > 0 => format!(
                "none of its {total} {} records has a DOI, PMID, arXiv id or web address",
                format.name()
            ),
            Some(issue) => format!(
                "no {} record could be read: line {}: {}",
                format.name(),
                issue.line,
                issue.message
            ),
            None => format!("it holds no {} record", format.name()),
        };
        return Err(Error::NoWorks {
            path: path.to_owned(),
            first_problem,
        });
    }
    issues.extend(found);
    if parsed < total {
        issues.push(Issue {
            path: path.to_owned(),
            line: 1,
            message: format!(
                "{} of its {total} {} records have no DOI, PMID, arXiv id or web address and were left out: add their DOIs in your reference manager",
                total - parsed,
                format.name()
            ),
        });
    }
    Ok(Some(parsed))
}
