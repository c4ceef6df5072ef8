//! The `Source` trait: one interface over every place works come from.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use litrev_model::{Query, Work, WorkId};

use crate::error::{Error, Result};

/// The kinds of source litrev knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum SourceKind {
    /// Local files of OpenAlex Work records.
    Snapshot,
    /// The OpenAlex REST API.
    OpenAlex,
    /// The Semantic Scholar Graph and Recommendations APIs.
    SemanticScholar,
    /// The arXiv Atom API.
    Arxiv,
    /// PubMed through NCBI's E-utilities.
    PubMed,
    /// The Crossref REST API.
    Crossref,
    /// Unpaywall's open-access locations by DOI.
    Unpaywall,
    /// Several sources asked together.
    Federation,
}

impl SourceKind {
    /// The name used on the command line and in run records.
    pub fn name(self) -> &'static str {
        match self {
            SourceKind::Snapshot => "snapshot",
            SourceKind::OpenAlex => "openalex",
            SourceKind::SemanticScholar => "semantic-scholar",
            SourceKind::Arxiv => "arxiv",
            SourceKind::PubMed => "pubmed",
            SourceKind::Crossref => "crossref",
            SourceKind::Unpaywall => "unpaywall",
            SourceKind::Federation => "federation",
        }
    }
}

impl fmt::Display for SourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a source can do; a method whose capability is `false` answers `Error::Unsupported`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Capabilities {
    /// Answers keyword searches.
    pub search: bool,
    /// Looks works up by id, many per call.
    pub batch_lookup: bool,
    /// Lists the works citing a work.
    pub citing: bool,
    /// Lists the works a work cites.
    pub references: bool,
    /// Lists the works many works cite in one request (OpenAlex's `cited_by:` OR-lists of
    /// 100 works, pages of 200), rather than one request per work.
    pub reference_lists: bool,
    /// About how many of the works the caller holds ([`Held`]) one listing request leaves out
    /// of its answer, so that they cost no pages (0: none).
    pub held_left_out: usize,
    /// Lists an author's works.
    pub author_works: bool,
    /// Recommends works like given ones.
    pub recommendations: bool,
    /// Finds open-access full-text links.
    pub fulltext_links: bool,
}

/// Where the open-access full text of a work can be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OaLink {
    /// The work's DOI.
    pub doi: litrev_model::Doi,
    /// A PDF, when one is known.
    pub pdf_url: Option<String>,
    /// A landing page with the text.
    pub landing_url: Option<String>,
    /// The source's open-access status (`gold`, `green`, `hybrid`, `bronze`, `closed`).
    pub status: Option<String>,
}

impl OaLink {
    /// The link to follow for the text: the PDF when there is one, else the landing page.
    pub fn best_url(&self) -> Option<&str> {
        self.pdf_url.as_deref().or(self.landing_url.as_deref())
    }
}

/// For each work a listing names, the works of its answer the caller already holds: its known
/// citers, or the references it has records of. A source whose requests can leave works out
/// (OpenAlex: a negated `openalex:!` filter beside the OR-list) leaves out as many as its
/// requests have room for; the others ignore it. It only saves pages: a held work may still
/// come back.
pub type Held<'a> = BTreeMap<&'a WorkId, BTreeSet<&'a WorkId>>;

/// A work returned by a search, with the source's relevance score.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// The work.
    pub work: Work,
    /// The source's score (higher is better; only comparable within one search).
    pub score: f32,
}

impl Hit {
    /// A hit scored by its rank alone (`1 / (rank + 1)`), for sources that order their results
    /// but give no score.
    pub fn ranked(work: Work, rank: usize) -> Hit {
        Hit {
            work,
            score: 1.0 / (rank + 1) as f32,
        }
    }
}

/// A place works come from.
pub trait Source: Send + Sync {
    /// Which kind of source this is.
    fn kind(&self) -> SourceKind;

    /// What the source can do.
    fn capabilities(&self) -> Capabilities;

    /// A human-readable description for run records (`snapshot of 3 files, 5,400 works`).
    fn describe(&self) -> String;

    /// Runs a search, best hits first.
    ///
    /// # Errors
    /// When the source fails; an empty result is not an error.
    fn search(&self, query: &Query, limit: usize) -> Result<Vec<Hit>>;

    /// Looks works up by any of their ids; ids the source does not know are absent from the result.
    ///
    /// # Errors
    /// When the source fails.
    fn lookup(&self, ids: &[WorkId]) -> Result<Vec<Work>>;

    /// The works that cite any of `ids`; those `held` names may be left out.
    ///
    /// # Errors
    /// When the source fails.
    fn citing(&self, ids: &[WorkId], held: &Held<'_>) -> Result<Vec<Work>>;

    /// The works cited by any of `ids`; those `held` names may be left out.
    ///
    /// # Errors
    /// When the source fails or cannot list references.
    fn references(&self, ids: &[WorkId], held: &Held<'_>) -> Result<Vec<Work>> {
        let _ = (ids, held);
        Err(self.unsupported("references"))
    }

    /// Works by an author (a name or the source's author id), most cited first.
    ///
    /// # Errors
    /// When the source fails or cannot list an author's works.
    fn author_works(&self, author: &str, limit: usize) -> Result<Vec<Work>> {
        let _ = (author, limit);
        Err(self.unsupported("author works"))
    }

    /// Works like `positive` (and unlike `negative`), best first.
    ///
    /// # Errors
    /// When the source fails or cannot recommend.
    fn recommend(
        &self,
        positive: &[WorkId],
        negative: &[WorkId],
        limit: usize,
    ) -> Result<Vec<Work>> {
        let _ = (positive, negative, limit);
        Err(self.unsupported("recommendations"))
    }

    /// Where the full text of a work can be read openly, if anywhere.
    ///
    /// # Errors
    /// When the source fails or does not know open-access locations.
    fn oa_link(&self, doi: &litrev_model::Doi) -> Result<Option<OaLink>> {
        let _ = doi;
        Err(self.unsupported("open-access links"))
    }

    /// The error for a capability this source lacks.
    fn unsupported(&self, capability: &'static str) -> Error {
        Error::Unsupported {
            source_name: self.kind().name(),
            capability,
        }
    }
}
