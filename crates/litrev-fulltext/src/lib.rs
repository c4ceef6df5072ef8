//! Full text for the included works: where each work's text is (a local file the person
//! brought, an open-access copy), reading it (JATS, PDF under limits, or a web page's readable
//! text for a `webpage` work), and the bytes kept by sha256. Pure but for the files it reads
//! and the copies it downloads (through `litrev_http::Downloader`, which refuses any address on
//! this machine or its network); the runner stores what it returns.

mod ids;
mod local;
mod pdf;
mod remote;

use std::io::Read;
use std::path::{Path, PathBuf};

use litrev_model::{FullText, MissingText, Retrieval, TextFormat, TextStatus, Work, sha256_hex};

pub use litrev_http::{DownloadLimits, Downloader};
pub use local::{Library, LocalFile};
pub use pdf::{PdfLimits, read_pdf};
pub use remote::{
    Candidate, KNOWN_HOSTS, PlannedDownload, RemoteBases, candidates, host_of, is_known_host,
    plan_downloads,
};

/// What can go wrong reading full texts.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A folder named by `--fulltext-dir` cannot be listed.
    #[error(
        "cannot read the full-text folder {path}: {message}; check the path given to --fulltext-dir"
    )]
    Folder {
        /// The folder.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// A file cannot be read.
    #[error("cannot read {path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// A text that is not a readable JATS article or PDF.
    #[error("{0}")]
    Parse(String),
}

/// This crate's results.
pub type Result<T> = std::result::Result<T, Error>;

/// How the full-text step reads.
#[derive(Debug, Clone, Default)]
pub struct FulltextConfig {
    /// Folders of the person's own PDFs and JATS files.
    pub dirs: Vec<PathBuf>,
    /// Limits on each PDF.
    pub pdf: PdfLimits,
    /// Works whose open-access copies may be downloaded, best-screened first (`--max-fulltext`);
    /// a work found in the folders costs nothing.
    pub max_downloads: usize,
    /// Where Europe PMC and arXiv are.
    pub bases: RemoteBases,
}

/// Where open-access copies come from: the guarded downloader (`None` for a run that stays
/// offline), and copies downloaded before, by URL, which are read again rather than fetched
/// again.
pub struct Copies<'a> {
    /// The downloader.
    pub downloader: Option<&'a Downloader>,
    /// The bytes an earlier download of a URL brought, when they are kept.
    pub earlier: &'a dyn Fn(&str) -> Option<Vec<u8>>,
}

impl<'a> Copies<'a> {
    /// Copies fetched by `downloader` alone, none known from before.
    pub fn fetched_by(downloader: Option<&'a Downloader>) -> Copies<'a> {
        Copies {
            downloader,
            earlier: &|_| None,
        }
    }
}

/// A full text read, with the bytes it was read from.
#[derive(Debug, Clone)]
pub struct Text {
    /// sha256 of `bytes`, hex.
    pub sha256: String,
    /// The bytes as obtained (a gzipped file is kept unzipped).
    pub bytes: Vec<u8>,
    /// What they say.
    pub text: FullText,
}

/// What the step found for one work.
#[derive(Debug, Clone)]
pub struct Acquired {
    /// How it went.
    pub retrieval: Retrieval,
    /// The text, when one was read.
    pub text: Option<Text>,
}

/// Reads the full text of each work: from the person's folders (scanned into `library`) first, else (with a
/// downloader, within the budget) from its open-access copies; a work with neither is
/// `abstract_only`, saying why (`no_copy`, `budget`, `download_failed`, `parse_failed`).
///
/// # Errors
/// A folder that cannot be listed (a file or download that fails is that work's problem, not
/// an error of the step).
pub fn acquire<'a>(
    config: &FulltextConfig,
    library: &Library,
    works: impl IntoIterator<Item = &'a Work>,
    copies: &Copies<'_>,
) -> Result<Vec<Acquired>> {
    let downloader = copies.downloader;
    let mut downloads_left = config.max_downloads;
    Ok(works
        .into_iter()
        .map(|work| {
            let id = work.id();
            let _processing = litrev_model::processing(&id);
            let mut retrieval = Retrieval {
                work: id,
                status: TextStatus::AbstractOnly,
                missing: Some(MissingText::NoCopy),
                origin: None,
                sha256: None,
                problems: Vec::new(),
            };
            if let Some(file) = library.find(work) {
                retrieval.origin = Some(file.path.display().to_string());
                match read_file(&file.path, config.pdf) {
                    Ok((bytes, text)) => return read(retrieval, bytes, text),
                    Err(error) => {
                        retrieval.missing = Some(MissingText::ParseFailed);
                        retrieval.problems.push(error.to_string());
                    }
                }
            }
            let candidates_of_work = candidates(work, &config.bases);
            if candidates_of_work.is_empty() {
                return Acquired {
                    retrieval,
                    text: None,
                };
            }
            // A copy the store holds already (an earlier run's download, a named page read when
            // it was named) costs no download and needs no downloader.
            let mut obtained = false;
            let mut to_fetch = Vec::new();
            for copy in candidates_of_work {
                let Some(bytes) = (copies.earlier)(&copy.url) else {
                    to_fetch.push(copy);
                    continue;
                };
                obtained = true;
                retrieval.origin = Some(copy.url.clone());
                match read_copy(work, &copy.url, &bytes, config) {
                    Ok(text) => return read(retrieval, bytes, text),
                    Err(error) => retrieval.problems.push(format!("{}: {error}", copy.url)),
                }
            }
            if to_fetch.is_empty() {
                retrieval.missing = Some(MissingText::ParseFailed);
                return Acquired {
                    retrieval,
                    text: None,
                };
            }
            let Some(downloader) = downloader else {
                retrieval.problems.push(
                    "open-access copies not downloaded: the run reads local sources only (name a \
                     live source such as --source openalex to download them)"
                        .to_owned(),
                );
                return Acquired {
                    retrieval,
                    text: None,
                };
            };
            if downloads_left == 0 {
                retrieval.missing = Some(MissingText::Budget);
                return Acquired {
                    retrieval,
                    text: None,
                };
            }
            downloads_left -= 1;
            for copy in to_fetch {
                retrieval.origin = Some(copy.url.clone());
                let bytes = match downloader.get(&copy.url, copy.accepted) {
                    Ok(body) => body.bytes,
                    Err(error) => {
                        retrieval.problems.push(error.to_string());
                        continue;
                    }
                };
                obtained = true;
                match read_copy(work, &copy.url, &bytes, config) {
                    Ok(text) => return read(retrieval, bytes, text),
                    Err(error) => retrieval.problems.push(format!("{}: {error}", copy.url)),
                }
            }
            retrieval.missing = Some(if obtained {
                MissingText::ParseFailed
            } else {
                MissingText::DownloadFailed
            });
            Acquired {
                retrieval,
                text: None,
            }
        })
        .collect())
}

/// A retrieval that read its text.
fn read(mut retrieval: Retrieval, bytes: Vec<u8>, text: FullText) -> Acquired {
    let sha256 = sha256_hex(&bytes);
    retrieval.status = match text.format {
        TextFormat::Jats => TextStatus::Jats,
        TextFormat::Pdf => TextStatus::Pdf,
        TextFormat::Html => TextStatus::Html,
    };
    retrieval.missing = None;
    retrieval.sha256 = Some(sha256.clone());
    Acquired {
        retrieval,
        text: Some(Text {
            sha256,
            bytes,
            text,
        }),
    }
}

/// Reads a copy of `work` fetched from `url`: the page itself for a web page, else JATS or PDF.
fn read_copy(work: &Work, url: &str, bytes: &[u8], config: &FulltextConfig) -> Result<FullText> {
    if remote::is_web_page(work) {
        read_page(work, url, bytes)
    } else {
        read_bytes(bytes, config.pdf)
    }
}

/// Reads a web page's HTML, fetched from `url`, as its full text (the page's readable text).
///
/// # Errors
/// The page has no readable text, or reading it takes too long.
pub fn read_page(work: &Work, url: &str, html: &[u8]) -> Result<FullText> {
    let address = match &work.ids.url {
        Some(address) => address.clone(),
        None => url
            .parse()
            .map_err(|error: litrev_model::IdError| Error::Parse(error.to_string()))?,
    };
    litrev_sources::web::read_page_within(&address, url, html, litrev_sources::web::PAGE_TIME_LIMIT)
        .map(|page| page.text)
        .map_err(|error| Error::Parse(error.to_string()))
}

/// Reads a full-text file (gzipped or not): JATS when it is XML, else PDF.
///
/// # Errors
/// The file cannot be read, or is neither a JATS article nor a readable PDF.
pub fn read_file(path: &Path, limits: PdfLimits) -> Result<(Vec<u8>, FullText)> {
    let io = |error: std::io::Error| Error::Io {
        path: path.to_path_buf(),
        message: error.to_string(),
    };
    let raw = std::fs::read(path).map_err(io)?;
    let bytes = if raw.starts_with(&[0x1f, 0x8b]) {
        let mut unzipped = Vec::new();
        flate2::read::GzDecoder::new(raw.as_slice())
            .take(limits.max_bytes as u64 + 1)
            .read_to_end(&mut unzipped)
            .map_err(io)?;
        unzipped
    } else {
        raw
    };
    let text = read_bytes(&bytes, limits)?;
    Ok((bytes, text))
}

/// Reads full-text bytes: JATS when they look like XML, else PDF.
///
/// # Errors
/// Neither a JATS article nor a readable PDF.
pub fn read_bytes(bytes: &[u8], limits: PdfLimits) -> Result<FullText> {
    let start = &bytes[..bytes.len().min(1024)];
    let looks_xml = start.iter().find(|byte| {
        !byte.is_ascii_whitespace() && **byte != 0xEF && **byte != 0xBB && **byte != 0xBF
    }) == Some(&b'<');
    if looks_xml {
        let xml = String::from_utf8_lossy(bytes);
        litrev_sources::read_jats(&xml).map_err(|error| Error::Parse(error.to_string()))
    } else {
        read_pdf(bytes.to_vec(), limits)
    }
}
