//! The full texts a person brings (`--fulltext-dir`, a Zotero storage folder): every PDF and
//! JATS file under the folders, with the ids and title each gives, matched to works by DOI,
//! PMCID or PMID inside the file, else by title.

use std::path::{Path, PathBuf};

use litrev_model::{
    ArxivId, Doi, FullText, Pmcid, Pmid, TextFormat, Work, WorkIds, normalise_title,
};

use crate::pdf::PdfLimits;
use crate::{Result, read_file};

/// Fewest words of a title matched by title alone.
const MIN_TITLE_WORDS: usize = 4;

/// One local file holding a full text.
#[derive(Debug, Clone)]
pub struct LocalFile {
    /// Where it is.
    pub path: PathBuf,
    /// What it holds.
    pub format: TextFormat,
    /// The ids it gives for itself.
    pub ids: WorkIds,
    /// Its title (JATS), or its first page's words (PDF), normalised and without spaces (a PDF's
    /// text runs may split a word, `M m PPOX`, or join two).
    pub title_words: String,
}

/// The local full texts under some folders.
#[derive(Debug, Default)]
pub struct Library {
    /// Every readable file, in path order.
    pub files: Vec<LocalFile>,
    /// Files that could not be read, with why.
    pub problems: Vec<String>,
}

impl Library {
    /// Reads every `.pdf`, `.nxml`, `.xml` (and their `.gz`) under the folders, recursively.
    ///
    /// # Errors
    /// A folder that does not exist or cannot be listed.
    pub fn scan(dirs: &[PathBuf], limits: PdfLimits) -> Result<Library> {
        let mut paths = Vec::new();
        for dir in dirs {
            list(dir, &mut paths)?;
        }
        paths.sort();
        paths.dedup();
        let mut library = Library::default();
        let first_pages = PdfLimits {
            max_pages: 2,
            ..limits
        };
        for path in paths {
            match read_file(&path, first_pages) {
                Ok((_, text)) => library.files.push(LocalFile {
                    format: text.format,
                    ids: ids_of(&text),
                    title_words: squeezed(&normalise_title(&title_text(&text))),
                    path,
                }),
                Err(error) => library
                    .problems
                    .push(format!("{}: {error}", path.display())),
            }
        }
        Ok(library)
    }

    /// Says that the file at `path` (when scanned) holds the text of the work known as `id`:
    /// a reference manager's attachment belongs to its item whatever the file says of itself.
    pub fn attach(&mut self, path: &Path, id: &litrev_model::WorkId) {
        for file in self.files.iter_mut().filter(|file| file.path == path) {
            file.ids.add(id.clone());
        }
    }

    /// The file holding a work's text: one giving an id of the work, else one whose title (or
    /// first page) holds the work's title; JATS before PDF.
    pub fn find(&self, work: &Work) -> Option<&LocalFile> {
        let by_id = self
            .files
            .iter()
            .filter(|file| file.ids.shares_any(&work.ids))
            .min_by_key(|file| file.format != TextFormat::Jats);
        if by_id.is_some() {
            return by_id;
        }
        let title = normalise_title(work.title.as_deref()?);
        if title.split(' ').count() < MIN_TITLE_WORDS {
            return None;
        }
        let title = squeezed(&title);
        self.files
            .iter()
            // Two DOIs that differ are two works, whatever their titles say.
            .filter(|file| file.ids.doi.is_none() || work.ids.doi.is_none())
            .filter(|file| file.title_words.contains(&title))
            .min_by_key(|file| file.format != TextFormat::Jats)
    }
}

/// Normalised words run together: titles of four words and more, compared so, are not found
/// by chance.
fn squeezed(words: &str) -> String {
    words.replace(' ', "")
}

/// The text a file is matched by title with: its title, else its first page.
fn title_text(text: &FullText) -> String {
    match (&text.title, text.format) {
        (Some(title), TextFormat::Jats) => title.clone(),
        _ => text
            .paragraphs()
            .map(|(_, _, paragraph)| paragraph)
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// The ids a text gives, as `WorkIds` (ids that do not parse are left out).
pub(crate) fn ids_of(text: &FullText) -> WorkIds {
    let mut ids = WorkIds::default();
    for (kind, value) in &text.ids {
        match kind.as_str() {
            "doi" => ids.doi = ids.doi.take().or_else(|| value.parse::<Doi>().ok()),
            "pmid" => ids.pmid = ids.pmid.take().or_else(|| value.parse::<Pmid>().ok()),
            "arxiv" => ids.arxiv = ids.arxiv.take().or_else(|| value.parse::<ArxivId>().ok()),
            "pmc" | "pmcid" => {
                let value = if value.starts_with("PMC") {
                    value.clone()
                } else {
                    format!("PMC{value}")
                };
                ids.pmcid = ids.pmcid.take().or_else(|| value.parse::<Pmcid>().ok());
            }
            _ => {}
        }
    }
    ids
}

/// Collects the full-text files under a folder.
fn list(dir: &Path, paths: &mut Vec<PathBuf>) -> Result<()> {
    let mut pending = vec![dir.to_path_buf()];
    let mut first = true;
    while let Some(dir) = pending.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(error) if first => {
                return Err(crate::Error::Folder {
                    path: dir,
                    message: error.to_string(),
                });
            }
            // A subfolder we may not read is skipped, as a file manager would.
            Err(_) => continue,
        };
        first = false;
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                pending.push(path);
            } else if is_full_text_name(&path) {
                paths.push(path);
            }
        }
    }
    Ok(())
}

/// A name ending `.pdf`, `.nxml` or `.xml`, optionally gzipped.
fn is_full_text_name(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    name.ends_with(".pdf") || name.ends_with(".nxml") || name.ends_with(".xml")
}
