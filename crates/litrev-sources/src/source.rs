//! The `Source` trait: one interface over every place works come from.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use litrev_model::{Expert, Query, Topic, Work, WorkId, WorkKind};

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
    /// The Brave Search API's web search (grey literature).
    Brave,
    /// Hugging Face's paper search (machine-learning preprints).
    HuggingFace,
    /// Tavily's search API (grey literature).
    Tavily,
    /// Open Library's search and Books APIs (books).
    OpenLibrary,
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
            SourceKind::Brave => "brave",
            SourceKind::HuggingFace => "huggingface",
            SourceKind::Tavily => "tavily",
            SourceKind::OpenLibrary => "openlibrary",
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
    /// Finds the authors of a topic (`experts`) and lists their works on it (`author_works`).
    pub experts: bool,
    /// Recommends works like given ones.
    pub recommendations: bool,
    /// Finds open-access full-text links.
    pub fulltext_links: bool,
    /// The only kinds of work the source holds (arXiv: preprints); empty: any kind.
    pub held_kinds: &'static [WorkKind],
    /// It answers only the searches that ask for kinds it holds (Open Library: the book
    /// channel's), not the plan's keyword searches: its index would answer those with
    /// whatever books share a word.
    pub kinds_asked_only: bool,
    /// Its works carry citation counts, so its hits can be read most cited first.
    pub citation_counts: bool,
    /// A web search provider: it answers the web channel's searches and no other, and those
    /// searches are asked of nothing else.
    pub web: bool,
    /// Lists what its community reads now (Hugging Face's trending papers): it answers the
    /// trending channel's searches, which are asked of nothing else.
    pub trending: bool,
}

impl Capabilities {
    /// A source that can do nothing: what a source's own capabilities are written over
    /// (`Capabilities { search: true, ..Capabilities::NONE }`) where they must be constant.
    pub const NONE: Capabilities = Capabilities {
        search: false,
        batch_lookup: false,
        citing: false,
        references: false,
        reference_lists: false,
        held_left_out: 0,
        experts: false,
        recommendations: false,
        fulltext_links: false,
        held_kinds: &[],
        kinds_asked_only: false,
        citation_counts: false,
        web: false,
        trending: false,
    };

    /// Whether the source can answer a search as its query directs: it holds one of the
    /// kinds asked for, and counts citations when the most cited are asked for first. A
    /// federation does not ask a source that cannot (arXiv for books, PubMed for the most
    /// cited).
    pub fn answers(&self, query: &Query) -> bool {
        if query.channel == litrev_model::Channel::Expert {
            return self.experts;
        }
        if query.channel == litrev_model::Channel::Trending {
            return self.trending;
        }
        if (query.channel == litrev_model::Channel::Web) != self.web {
            return false;
        }
        let kinds = if query.kinds.is_empty() {
            !self.kinds_asked_only
        } else {
            self.held_kinds.is_empty()
                || query
                    .kinds
                    .iter()
                    .any(|kind| self.held_kinds.contains(kind))
        };
        self.search
            && kinds
            && (query.order != litrev_model::HitOrder::Citations || self.citation_counts)
    }
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

    /// The first `limit` of a source's results, in its order, each scored by its rank.
    pub fn ranked_list(works: Vec<Work>, limit: usize) -> Vec<Hit> {
        works
            .into_iter()
            .take(limit)
            .enumerate()
            .map(|(rank, work)| Hit::ranked(work, rank))
            .collect()
    }
}

/// A search's hits as its query asks for them, whatever the source could do: of its kinds,
/// not before its first year, and the most cited first when it asks for that (ties by id).
pub fn directed(query: &Query, mut hits: Vec<Hit>) -> Vec<Hit> {
    hits.retain(|hit| query.admits(&hit.work));
    if query.order == litrev_model::HitOrder::Citations {
        hits.sort_by(|a, b| {
            b.work
                .cited_by_count
                .cmp(&a.work.cited_by_count)
                .then_with(|| a.work.id().cmp(&b.work.id()))
        });
    }
    hits
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

    /// How many works match `query` in all, as the source counts them (OpenAlex's
    /// `meta.count`); `None` when the source does not say. Plans read it to tell a small
    /// literature from a large one before anything runs.
    ///
    /// # Errors
    /// When the source fails.
    fn count(&self, query: &Query) -> Result<Option<u64>> {
        let _ = query;
        Ok(None)
    }

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

    /// Up to `limit` authors the source files works under any of `topics`, most cited
    /// first, each with the topic they write most on and their works since `since` counted.
    ///
    /// # Errors
    /// When the source fails or cannot find a topic's authors.
    fn experts(&self, topics: &[Topic], since: i32, limit: usize) -> Result<Vec<Expert>> {
        let _ = (topics, since, limit);
        Err(self.unsupported("experts"))
    }

    /// The works of `authors` (the source's author ids) filed under any of `topics`, most
    /// cited first, up to `limit` in all.
    ///
    /// # Errors
    /// When the source fails or cannot list an author's works.
    fn author_works(
        &self,
        authors: &[String],
        topics: &[Topic],
        limit: usize,
    ) -> Result<Vec<Work>> {
        let _ = (authors, topics, limit);
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

#[cfg(test)]
mod tests {
    use super::*;
    use litrev_model::HitOrder;

    fn hit(id: &str, kind: WorkKind, year: Option<i32>, cited: u32) -> Hit {
        let mut work = Work::stub(id.parse().expect("an id"));
        work.kind = kind;
        work.year = year;
        work.cited_by_count = Some(cited);
        Hit { work, score: 1.0 }
    }

    #[test]
    fn directed_hits_are_what_the_query_asks_for_in_its_order() {
        let hits = vec![
            hit("W1", WorkKind::Article, Some(2023), 5),
            hit("W2", WorkKind::BookChapter, Some(2023), 1),
            hit("W3", WorkKind::Book, Some(2010), 9),
            hit("W4", WorkKind::Book, None, 3),
            hit("W5", WorkKind::Book, Some(2024), 3),
        ];
        let ids = |hits: Vec<Hit>| -> Vec<String> {
            hits.iter().map(|hit| hit.work.id().to_string()).collect()
        };
        let plain = Query::new("q1", "", "x");
        assert_eq!(ids(directed(&plain, hits.clone())).len(), 5);
        let books = Query {
            kinds: vec![WorkKind::Book, WorkKind::BookChapter],
            from_year: Some(2020),
            order: HitOrder::Citations,
            ..plain.clone()
        };
        // Articles, works before 2020 and works of no known year are left out; the most cited
        // first, ties by id.
        assert_eq!(ids(directed(&books, hits)), ["W5", "W2"]);

        let arxiv = Capabilities {
            search: true,
            held_kinds: &[WorkKind::Preprint],
            ..Capabilities::default()
        };
        assert!(arxiv.answers(&plain));
        assert!(!arxiv.answers(&books), "no books, no citation counts");
        let recent = Query {
            from_year: Some(2022),
            ..Query::new("q2", "", "x")
        };
        assert!(arxiv.answers(&recent));

        // Open Library answers the book searches alone, not the keyword searches.
        let books_only = Capabilities {
            search: true,
            held_kinds: &[WorkKind::Book],
            kinds_asked_only: true,
            ..Capabilities::default()
        };
        assert!(!books_only.answers(&plain));
        let any_year_books = Query {
            kinds: vec![WorkKind::Book, WorkKind::BookChapter],
            ..plain.clone()
        };
        assert!(books_only.answers(&any_year_books));
    }
}
