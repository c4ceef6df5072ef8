//! Run → files: the review in Pandoc Markdown, its references (BibTeX, CSL-JSON, RIS), the
//! corpus and screening tables.
//!
//! Formatters are pure: they return the bytes of each file, and the runner writes them and
//! records their hashes. References hold exactly the works the review cites, under the keys
//! of [`litrev_model::assign_keys`], so every `[@key]` resolves in both bibliographies.

mod bibtex;
mod charts;
mod csl_json;
mod evidence;
mod graphml;
mod markdown;
mod prisma;
mod ris;
mod tables;
mod xml;

use std::collections::BTreeMap;

use litrev_model::{Review, Work, WorkId, assign_keys};
use sha2::{Digest, Sha256};

pub use bibtex::bibtex;
pub use charts::{bars_svg, stacked_years_svg};
pub use csl_json::csl_json;
pub use evidence::{ClaimEvidence, SpanEvidence, claims};
pub use graphml::{GraphNode, graphml};
pub use markdown::{escape, review_markdown, sentence_markdown};
pub use prisma::{PrismaCounts, prisma_svg};
pub use ris::{references_ris, screening_ris};
pub use tables::{corpus_csv, screening_csv};

/// What went wrong formatting a file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A cited work has no stored record, so it cannot be a reference.
    #[error(
        "the review cites {0}, which has no stored record: refusing to publish a citation that does not resolve"
    )]
    Unresolved(WorkId),
    /// A cited work got no key.
    #[error("no citation key for {0}: refusing to publish a citation that does not resolve")]
    MissingKey(WorkId),
    /// The CSV writer failed.
    #[error("cannot write CSV: {0}")]
    Csv(String),
}

impl From<csv::Error> for Error {
    fn from(error: csv::Error) -> Self {
        Error::Csv(error.to_string())
    }
}

/// A file of the run's output folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    /// File name within the output folder.
    pub name: String,
    /// Contents.
    pub bytes: Vec<u8>,
}

impl Artifact {
    fn new(name: &str, text: String) -> Artifact {
        Artifact {
            name: name.to_owned(),
            bytes: text.into_bytes(),
        }
    }

    /// SHA-256 of the contents, hex.
    pub fn sha256(&self) -> String {
        sha256_hex(&self.bytes)
    }
}

/// SHA-256 of bytes, hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The citation keys of the works a review cites.
///
/// # Errors
/// When a cited work has no record among `works`.
pub fn citation_keys(
    review: &Review,
    works: &BTreeMap<WorkId, Work>,
) -> Result<BTreeMap<WorkId, String>, Error> {
    let cited: Vec<&Work> = review
        .cited_works()
        .iter()
        .map(|id| {
            works
                .get(id)
                .filter(|work| !work.is_stub())
                .ok_or_else(|| Error::Unresolved(id.clone()))
        })
        .collect::<Result<_, _>>()?;
    Ok(assign_keys(cited.iter().copied()))
}

/// Formats the review, its bibliographies and its claim → evidence map.
///
/// # Errors
/// When a cited work has no record among `works`.
pub fn review_files(
    review: &Review,
    works: &BTreeMap<WorkId, Work>,
) -> Result<Vec<Artifact>, Error> {
    let keys = citation_keys(review, works)?;
    // References in key order, the order most styles sort by anyway.
    let mut ordered: Vec<&Work> = keys.keys().map(|id| &works[id]).collect();
    ordered.sort_by(|a, b| keys[&a.id()].cmp(&keys[&b.id()]));
    let markdown = review_markdown(review, &keys, &["references.json"])?;
    let evidence = claims(review, works, &keys)?;
    let evidence = serde_json::to_string_pretty(&evidence).expect("claims always serialise");
    Ok(vec![
        Artifact::new("review.md", markdown),
        Artifact::new("references.bib", bibtex(&ordered, &keys)),
        Artifact::new("references.json", csl_json(&ordered, &keys)),
        Artifact::new("references.ris", references_ris(&ordered, &keys)),
        Artifact::new("evidence.json", format!("{evidence}\n")),
    ])
}
