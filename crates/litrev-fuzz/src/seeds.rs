//! Seed corpora: the real responses, lines and files of the shared data (`LITREV_TESTDATA`)
//! each target starts from, read the way the parsers' own tests read them.
//!
//! Large seeds are made small before fuzzing, since a mutation of a small input reaches the
//! parser's corners as well and costs far less: JSON arrays are cut to their first few
//! elements, RIS files to their first records, CSV files to their first rows, and XML larger
//! than [`MAX_SEED`] is left out.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;
use serde_json::Value;

/// A seed input and where it came from (a file, a line of it, or a recorded request).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seed {
    /// Where the seed came from, relative to the data folder: `synergy/works/X.jsonl.gz:12`,
    /// `semanticscholar-graph-api/interactions.jsonl.gz#GET https://…`.
    pub origin: String,
    /// The seed's bytes.
    pub bytes: Vec<u8>,
}

/// What the loaders return: seeds, or what is missing from the data folder.
pub type Seeds = Result<Vec<Seed>, String>;

/// Seeds are at most this large after shrinking; larger ones are left out.
pub const MAX_SEED: usize = 128 * 1024;

impl Seed {
    /// A seed from text.
    pub fn new(origin: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Seed {
        Seed {
            origin: origin.into(),
            bytes: bytes.into(),
        }
    }
}

/// The seeds that are small enough, after `shrink`.
pub fn sized(seeds: Vec<Seed>, shrink: fn(Vec<u8>) -> Vec<u8>) -> Vec<Seed> {
    seeds
        .into_iter()
        .map(|seed| Seed {
            bytes: if seed.bytes.len() > MAX_SEED / 2 {
                shrink(seed.bytes)
            } else {
                seed.bytes
            },
            origin: seed.origin,
        })
        .filter(|seed| seed.bytes.len() <= MAX_SEED)
        .collect()
}

/// The name of `path` relative to the data folder, for seed origins.
pub fn relative(data: &Path, path: &Path) -> String {
    path.strip_prefix(data)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The bytes of a file, gunzipped when it is gzip.
pub fn read(path: &Path) -> Result<Vec<u8>, String> {
    let bytes = std::fs::read(path).map_err(|error| format!("{}: {error}", path.display()))?;
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        MultiGzDecoder::new(bytes.as_slice())
            .read_to_end(&mut out)
            .map_err(|error| format!("{}: {error}", path.display()))?;
        return Ok(out);
    }
    Ok(bytes)
}

/// The first `limit` lines of a (gzipped) text file.
pub fn lines(path: &Path, limit: usize) -> Result<Vec<String>, String> {
    let file = std::fs::File::open(path).map_err(|error| format!("{}: {error}", path.display()))?;
    let reader: Box<dyn BufRead> = if path.extension().is_some_and(|ext| ext == "gz") {
        Box::new(BufReader::new(MultiGzDecoder::new(file)))
    } else {
        Box::new(BufReader::new(file))
    };
    reader
        .lines()
        .take(limit)
        .map(|line| line.map_err(|error| format!("{}: {error}", path.display())))
        .collect()
}

/// The files of a folder whose names end with one of `endings`, sorted.
pub fn files(folder: &Path, endings: &[&str]) -> Result<Vec<PathBuf>, String> {
    let entries =
        std::fs::read_dir(folder).map_err(|error| format!("{}: {error}", folder.display()))?;
    let mut found: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| endings.iter().any(|ending| name.ends_with(ending)))
        })
        .collect();
    found.sort();
    if found.is_empty() {
        return Err(format!("{} holds no {endings:?} file", folder.display()));
    }
    Ok(found)
}

/// One recorded HTTP exchange of a flattened cassette (`*interactions.jsonl.gz`).
#[derive(Debug, Clone)]
pub struct Interaction {
    /// The request URI.
    pub uri: String,
    /// The HTTP status.
    pub status: u16,
    /// The response body.
    pub body: String,
}

/// Every exchange of an `*interactions.jsonl.gz` file.
pub fn interactions(path: &Path) -> Result<Vec<Interaction>, String> {
    lines(path, usize::MAX)?
        .iter()
        .map(|line| {
            let value: Value = serde_json::from_str(line)
                .map_err(|error| format!("{}: {error}", path.display()))?;
            Ok(Interaction {
                uri: value["uri"].as_str().unwrap_or("").to_owned(),
                status: value["status"]
                    .as_u64()
                    .and_then(|status| u16::try_from(status).ok())
                    .unwrap_or(200),
                body: value["body"].as_str().unwrap_or("").to_owned(),
            })
        })
        .collect()
}

/// The exchanges of an interactions file whose URI contains `host`, as seeds.
pub fn interaction_seeds(data: &Path, file: &str, host: &str) -> Seeds {
    Ok(interactions(&data.join(file))?
        .into_iter()
        .filter(|interaction| interaction.uri.contains(host))
        .map(|interaction| {
            Seed::new(
                format!("{file}#{} {}", interaction.status, interaction.uri),
                interaction.body,
            )
        })
        .collect())
}

/// The entries of a `.tar.gz` whose names end with `ending`, sorted by name.
pub fn tar_entries(path: &Path, ending: &str) -> Seeds {
    let file = std::fs::File::open(path).map_err(|error| format!("{}: {error}", path.display()))?;
    let mut archive = tar::Archive::new(MultiGzDecoder::new(file));
    let mut out = Vec::new();
    let entries = archive
        .entries()
        .map_err(|error| format!("{}: {error}", path.display()))?;
    for entry in entries {
        let mut entry = entry.map_err(|error| format!("{}: {error}", path.display()))?;
        let name = entry
            .path()
            .map(|name| name.display().to_string())
            .unwrap_or_default();
        if !name.ends_with(ending) {
            continue;
        }
        let mut bytes = Vec::new();
        entry
            .read_to_end(&mut bytes)
            .map_err(|error| format!("{}: {name}: {error}", path.display()))?;
        out.push(Seed::new(format!("{}!{name}", path.display()), bytes));
    }
    out.sort_by(|a, b| a.origin.cmp(&b.origin));
    Ok(out)
}

/// A large JSON document with every array cut to its first three elements (a page of 200
/// works becomes a page of three); not JSON: left as is.
pub fn shrink_json(bytes: Vec<u8>) -> Vec<u8> {
    fn cut(value: &mut Value) {
        match value {
            Value::Array(items) => {
                items.truncate(3);
                items.iter_mut().for_each(cut);
            }
            Value::Object(map) => map.values_mut().for_each(cut),
            _ => {}
        }
    }
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(mut value) => {
            cut(&mut value);
            serde_json::to_vec(&value).unwrap_or(bytes)
        }
        Err(_) => bytes,
    }
}

/// A large RIS file cut after the record that ends past `MAX_SEED / 4` bytes.
pub fn shrink_ris(bytes: Vec<u8>) -> Vec<u8> {
    cut_after_line(bytes, |line| line.trim_start().starts_with("ER"))
}

/// A large CSV cut to its first lines (about `MAX_SEED / 4` bytes).
pub fn shrink_lines(bytes: Vec<u8>) -> Vec<u8> {
    cut_after_line(bytes, |_| true)
}

fn cut_after_line(bytes: Vec<u8>, ends_unit: fn(&str) -> bool) -> Vec<u8> {
    let mut at = 0;
    for line in bytes.split_inclusive(|byte| *byte == b'\n') {
        at += line.len();
        if at > MAX_SEED / 4 && ends_unit(&String::from_utf8_lossy(line)) {
            break;
        }
    }
    let mut bytes = bytes;
    bytes.truncate(at);
    bytes
}

/// Leaves a seed as it is.
pub fn keep(bytes: Vec<u8>) -> Vec<u8> {
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shrinking_keeps_json_and_whole_records() {
        let page = format!(
            "{{\"meta\":{{\"count\":9}},\"results\":[{}]}}",
            ["{\"id\":\"W1\",\"x\":[1,2,3,4,5]}"; 9].join(",")
        );
        let shrunk = shrink_json(page.into_bytes());
        let value: Value = serde_json::from_slice(&shrunk).expect("JSON");
        assert_eq!(value["results"].as_array().map(Vec::len), Some(3));
        assert_eq!(value["results"][0]["x"].as_array().map(Vec::len), Some(3));

        let ris = "TY  - JOUR\nTI  - x\nER  - \n".repeat(MAX_SEED / 20);
        let shrunk = String::from_utf8(shrink_ris(ris.into_bytes())).expect("text");
        assert!(shrunk.len() < MAX_SEED / 2 && shrunk.ends_with("ER  - \n"));
    }
}
