//! A run's output files as frontends hand them out (the server's files route, MCP resources):
//! a name inside the run's folder resolved safely, and the media type of each kind of file.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use litrev_model::RunId;

use crate::error::{Error, Result};
use crate::runner::Runner;

impl Runner {
    /// The bytes of the output file `name` of a run: as the store keeps the published folder
    /// (so any machine on a shared store serves a run another machine published), else from
    /// the run's folder here (the gate's tables before publishing).
    ///
    /// # Errors
    /// [`Error::NoSuchOutput`] when neither has it.
    pub fn output_bytes(&self, run: &RunId, name: &str) -> Result<Vec<u8>> {
        if let Some(bytes) = self.store().output(run, name)? {
            return Ok(bytes);
        }
        let path = self.output_file(run, name)?;
        std::fs::read(&path).map_err(|_| Error::NoSuchOutput {
            run: run.to_string(),
            name: name.to_owned(),
        })
    }

    /// The names and sizes of a run's published files as the store keeps them (empty for a
    /// run published before the store kept them, or not published yet).
    ///
    /// # Errors
    /// When the store fails.
    pub fn output_names(&self, run: &RunId) -> Result<Vec<(String, u64)>> {
        Ok(self.store().output_sizes(run)?)
    }

    /// Writes the output folder a run kept in the store into `out` (any machine can: the
    /// folder need not be where the run published); the number of files written.
    ///
    /// # Errors
    /// When the run is unknown, has not published yet, or a file cannot be written.
    pub fn export(&self, run: &RunId, out: &Path) -> Result<usize> {
        let files = self.store().outputs(run)?;
        if files.is_empty() {
            return Err(Error::NotDone {
                run: run.to_string(),
                why: "it has not published its outputs yet; `litrev runs` shows where it stands, `litrev resume` (or a worker) carries it on".to_owned(),
            });
        }
        for (name, bytes) in &files {
            crate::runner::write_file(out, name, bytes)?;
        }
        Ok(files.len())
    }

    /// Writes a done run's references into the configured Zotero library, as items of the
    /// collection `collection` (default: the run's question): one item per reference the
    /// collection does not hold yet, so exporting again creates nothing.
    ///
    /// # Errors
    /// When the run has not published, no library is configured, or Zotero refuses.
    pub fn export_to_zotero(
        &self,
        run: &RunId,
        collection: Option<&str>,
    ) -> Result<litrev_sources::zotero::ZoteroWrite> {
        let question = self.store().run(run)?.question;
        let bytes = self.output_bytes(run, "references.json").map_err(|_| Error::NotDone {
            run: run.to_string(),
            why: "it has no references.json yet; `litrev runs` shows where it stands, `litrev resume` carries it on".to_owned(),
        })?;
        let references: Vec<serde_json::Value> =
            serde_json::from_slice(&bytes).map_err(|error| Error::NoSuchOutput {
                run: run.to_string(),
                name: format!("references.json (it does not parse: {error})"),
            })?;
        let name = collection.map_or_else(|| collection_name(&question), str::to_owned);
        let mut library = self.sources().zotero()?;
        Ok(library.export(&references, &name)?)
    }

    /// The path of the output file `name` (relative, `/`-separated: `charts/years.svg`) of a
    /// run. Anything outside the run's folder (`..`, absolute paths, symlinks out of it) or not
    /// a file is [`Error::NoSuchOutput`].
    ///
    /// # Errors
    /// When there is no such run or file.
    pub fn output_file(&self, run: &RunId, name: &str) -> Result<PathBuf> {
        let missing = || Error::NoSuchOutput {
            run: run.to_string(),
            name: name.to_owned(),
        };
        let relative = Path::new(name);
        let plain = !name.is_empty()
            && relative
                .components()
                .all(|component| matches!(component, Component::Normal(_)));
        if !plain {
            return Err(missing());
        }
        let folder = self
            .options(run)?
            .out_dir
            .canonicalize()
            .map_err(|_| missing())?;
        let path = folder
            .join(relative)
            .canonicalize()
            .map_err(|_| missing())?;
        if !path.starts_with(&folder) || !path.is_file() {
            return Err(missing());
        }
        Ok(path)
    }
}

/// The media type of an output file, by its extension (without parameters such as charset).
pub fn media_type(name: &str) -> &'static str {
    let extension = name.rsplit_once('.').map_or("", |(_, extension)| extension);
    match extension {
        "md" => "text/markdown",
        "html" => "text/html",
        "json" | "csl-json" => "application/json",
        "csv" => "text/csv",
        "bib" => "application/x-bibtex",
        "ris" => "application/x-research-info-systems",
        "svg" => "image/svg+xml",
        "graphml" => "application/graphml+xml",
        "csl" => "application/vnd.citationstyles.style+xml",
        "docx" => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        _ => "application/octet-stream",
    }
}

/// Rewrites the review and its bibliographies in the folder `out` under other citation keys
/// (`keys`: old key → new, Zotero's item keys after an export): `review.md`'s citations and the
/// entry keys of `references.bib`, `references.json` and `references.ris`. The names of the
/// files rewritten.
///
/// # Errors
/// When a file cannot be read or written.
pub fn cite_with_keys(out: &Path, keys: &BTreeMap<String, String>) -> Result<Vec<String>> {
    type Rekey = fn(&str, &BTreeMap<String, String>) -> Option<String>;
    let files: [(&str, Rekey); 4] = [
        ("review.md", |text, keys| {
            Some(litrev_publish::rekey_markdown(text, keys))
        }),
        ("references.bib", |text, keys| {
            Some(litrev_publish::rekey_bibtex(text, keys))
        }),
        ("references.json", litrev_publish::rekey_csl_json),
        ("references.ris", |text, keys| {
            Some(litrev_publish::rekey_ris(text, keys))
        }),
    ];
    let mut rewritten = Vec::new();
    for (name, rekey) in files {
        let path = out.join(name);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if let Some(new) = rekey(&text, keys) {
            crate::runner::write_file(out, name, new.as_bytes())?;
            rewritten.push(name.to_owned());
        }
    }
    Ok(rewritten)
}

/// A collection's name from a question: its first 100 characters, cut at a word.
fn collection_name(question: &str) -> String {
    let question = question.trim();
    if question.chars().count() <= COLLECTION_NAME_CHARS {
        return question.to_owned();
    }
    let cut: String = question.chars().take(COLLECTION_NAME_CHARS).collect();
    let words = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{}…", words.trim_end())
}

/// The longest collection name made from a question.
const COLLECTION_NAME_CHARS: usize = 100;

#[cfg(test)]
mod tests {
    use super::collection_name;

    #[test]
    fn a_long_question_names_its_collection_up_to_a_word() {
        assert_eq!(
            collection_name("  Emicizumab in humans "),
            "Emicizumab in humans"
        );
        let long = "Pharmacokinetics and associated efficacy of emicizumab in humans: a systematic review of every trial and registry ever run";
        let name = collection_name(long);
        assert!(name.ends_with('…') && name.chars().count() <= 101, "{name}");
        assert!(long.starts_with(name.trim_end_matches('…')));
        assert!(!name.trim_end_matches('…').ends_with(' '));
    }
}
