//! The runs' outputs as MCP resources: `litrev://runs/{run}/{file}` for every file a done run
//! published (`review.md`, `references.bib`, `charts/years.svg`, …), listed and readable.

use std::path::Path;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use litrev::Runner;
use litrev::model::{RunId, RunStatus};
use rmcp::model::{Resource, ResourceContents};

/// The scheme and authority every resource URI opens with.
const PREFIX: &str = "litrev://runs/";

/// Every output file of every done run, newest run first.
pub(crate) fn list(runner: &Runner) -> Result<Vec<Resource>, String> {
    let mut resources = Vec::new();
    for summary in runner.runs().map_err(|error| error.to_string())? {
        if summary.status != RunStatus::Done {
            continue;
        }
        // The store keeps what the run published, whichever machine ran it; a run from
        // before it did is listed from its folder.
        let mut files = runner
            .output_names(&summary.id)
            .map_err(|error| error.to_string())?;
        if files.is_empty() {
            let Some(folder) = &summary.out_dir else {
                continue;
            };
            files = files_in(folder);
        }
        for (name, bytes) in files {
            let uri = format!("{PREFIX}{}/{name}", summary.id);
            resources.push(
                Resource::new(uri, name.clone())
                    .with_title(format!(
                        "{name} of run {}: {}",
                        summary.id, summary.question
                    ))
                    .with_mime_type(litrev::media_type(&name))
                    .with_size(bytes),
            );
        }
    }
    Ok(resources)
}

/// The contents of one resource: text for text files, base64 for the rest (`review.docx`).
pub(crate) fn read(runner: &Runner, uri: &str) -> Result<ResourceContents, String> {
    let unknown = || format!("no resource `{uri}`: resources/list names them, as {PREFIX}RUN/FILE");
    let rest = uri.strip_prefix(PREFIX).ok_or_else(unknown)?;
    let (run, name) = rest.split_once('/').ok_or_else(unknown)?;
    let run: RunId = run.parse().map_err(|_| unknown())?;
    let bytes = runner.output_bytes(&run, name).map_err(|_| unknown())?;
    let mime = litrev::media_type(name);
    Ok(match String::from_utf8(bytes) {
        Ok(text) => ResourceContents::text(text, uri).with_mime_type(mime),
        Err(error) => {
            ResourceContents::blob(STANDARD.encode(error.as_bytes()), uri).with_mime_type(mime)
        }
    })
}

/// The files of a run's folder and its subfolders, as `/`-separated relative names, sorted.
fn files_in(folder: &Path) -> Vec<(String, u64)> {
    let mut found = Vec::new();
    let mut pending = vec![(folder.to_path_buf(), String::new())];
    while let Some((dir, prefix)) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let relative = format!("{prefix}{name}");
            if kind.is_dir() {
                pending.push((entry.path(), format!("{relative}/")));
            } else if kind.is_file() {
                let bytes = entry.metadata().map_or(0, |meta| meta.len());
                found.push((relative, bytes));
            }
        }
    }
    found.sort();
    found
}
