//! A local stand-in for where open-access full texts live: Europe PMC's `fullTextXML` (JATS by
//! PMCID), arXiv's `/pdf/{id}` and plain file links, served from folders of JATS and PDF files.
//! Behind [`crate::http::Server`] it takes the same fault plans as the API stand-ins, so the
//! full-text step's downloads are tested and measured against the faults real hosts show.
//!
//! Paths: `/epmc/{PMCID}/fullTextXML` for each JATS file (by the PMCID of its front matter),
//! `/files/{name}` for every file (a gzipped file by its name without `.gz`, unzipped), and
//! `/arxiv/pdf/{stem}` for every PDF.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::path::Path;

use crate::http::{Reply, ServedRequest};

/// Files by path, with their content types.
#[derive(Debug, Clone, Default)]
pub struct FullTextFiles {
    by_path: BTreeMap<String, (&'static str, Vec<u8>)>,
}

impl FullTextFiles {
    /// No files yet.
    pub fn new() -> FullTextFiles {
        FullTextFiles::default()
    }

    /// Adds every JATS (`.nxml`, `.xml`, gzipped or not) and PDF file directly in `dir`.
    ///
    /// # Errors
    /// When the folder or a file cannot be read, or a gzipped file does not unzip.
    pub fn folder(mut self, dir: &Path) -> io::Result<FullTextFiles> {
        let mut paths: Vec<_> = std::fs::read_dir(dir)?
            .map(|entry| entry.map(|entry| entry.path()))
            .collect::<io::Result<_>>()?;
        paths.sort();
        for path in paths {
            let Some(name) = path.file_name().and_then(|name| name.to_str()) else {
                continue;
            };
            let mut bytes = std::fs::read(&path)?;
            let name = match name.strip_suffix(".gz") {
                Some(plain) => {
                    let mut unzipped = Vec::new();
                    flate2::read::GzDecoder::new(bytes.as_slice()).read_to_end(&mut unzipped)?;
                    bytes = unzipped;
                    plain.to_owned()
                }
                None => name.to_owned(),
            };
            if name.ends_with(".nxml") || name.ends_with(".xml") {
                if let Some(pmcid) = pmcid_of(&bytes) {
                    self.by_path.insert(
                        format!("/epmc/{pmcid}/fullTextXML"),
                        ("application/xml", bytes.clone()),
                    );
                }
                self.by_path
                    .insert(format!("/files/{name}"), ("application/xml", bytes));
            } else if let Some(stem) = name.strip_suffix(".pdf") {
                self.by_path.insert(
                    format!("/arxiv/pdf/{stem}"),
                    ("application/pdf", bytes.clone()),
                );
                self.by_path
                    .insert(format!("/files/{name}"), ("application/pdf", bytes));
            }
        }
        Ok(self)
    }

    /// Adds one file at `path` (`/files/landing.html`), served as `content_type`.
    #[must_use]
    pub fn file(mut self, path: &str, content_type: &'static str, bytes: Vec<u8>) -> FullTextFiles {
        self.by_path.insert(path.to_owned(), (content_type, bytes));
        self
    }

    /// The paths served, in order.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.by_path.keys().map(String::as_str)
    }

    /// The answer to a request: the file, or 404.
    pub fn reply(&self, request: &ServedRequest) -> Reply {
        match self.by_path.get(&request.path) {
            Some((content_type, bytes)) => Reply::new(200, content_type, bytes.clone()),
            None => Reply::text(404, "no such full text"),
        }
    }
}

/// The PMCID of a JATS article's front matter (`<article-id pub-id-type="pmc">1790863<`), with
/// its `PMC` prefix.
fn pmcid_of(xml: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(xml);
    let marker = "pub-id-type=\"pmc\"";
    let at = text.find(marker)? + marker.len();
    let rest = &text[at..];
    let value = rest[rest.find('>')? + 1..].split('<').next()?.trim();
    let digits = value.trim_start_matches("PMC");
    (!digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()))
        .then(|| format!("PMC{digits}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_pmcid_of_the_front_matter() {
        let xml = br#"<article-meta><article-id pub-id-type="pmid">1</article-id><article-id pub-id-type="pmc">1790863</article-id>"#;
        assert_eq!(pmcid_of(xml).as_deref(), Some("PMC1790863"));
        assert_eq!(pmcid_of(b"<article/>"), None);
    }
}
