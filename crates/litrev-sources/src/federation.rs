//! Several sources asked as one: every call fans out to the sources able to answer it, in
//! parallel, and a source that fails is reported and left out while the others carry on.
//!
//! Records are returned as each source gave them; merging records of the same work is the
//! caller's job (`litrev_model::merge_duplicates`), so that provenance stays visible.

use std::sync::Mutex;

use litrev_model::{Doi, Expert, Query, Topic, Work, WorkId};

use crate::error::{Error, Result};
use crate::source::{Capabilities, Held, Hit, OaLink, Source, SourceKind};

/// A source that failed during a federated call, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFailure {
    /// The source.
    pub source: SourceKind,
    /// What was being asked (`search`, `lookup`, `citing`, `references`).
    pub call: &'static str,
    /// The error, as the user should read it.
    pub message: String,
}

/// Several sources behind one [`Source`].
pub struct Federation {
    sources: Vec<Box<dyn Source>>,
    failures: Mutex<Vec<SourceFailure>>,
}

impl std::fmt::Debug for Federation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Federation")
            .field("sources", &self.describe())
            .finish()
    }
}

impl Federation {
    /// Asks `sources`, in this order of precedence.
    pub fn new(sources: Vec<Box<dyn Source>>) -> Federation {
        Federation {
            sources,
            failures: Mutex::new(Vec::new()),
        }
    }

    /// The sources, in order.
    pub fn sources(&self) -> &[Box<dyn Source>] {
        &self.sources
    }

    /// Every failure so far, oldest first.
    pub fn failures(&self) -> Vec<SourceFailure> {
        self.failures
            .lock()
            .map(|failures| failures.clone())
            .unwrap_or_default()
    }

    /// Runs a search on every source that can search, in parallel; each source's outcome.
    pub fn search_each(&self, query: &Query, limit: usize) -> Vec<(SourceKind, Result<Vec<Hit>>)> {
        self.each(
            |capabilities| capabilities.search,
            |source| {
                if source.capabilities().answers(query) {
                    source.search(query, limit)
                } else {
                    Ok(Vec::new())
                }
            },
        )
    }

    /// How many works `query` matches on each source that searches and answers it (`None`
    /// from a source that does not count).
    pub fn count_each(&self, query: &Query) -> Vec<(SourceKind, Result<Option<u64>>)> {
        self.each(
            |capabilities| capabilities.search,
            |source| {
                if source.capabilities().answers(query) {
                    source.count(query)
                } else {
                    Ok(None)
                }
            },
        )
    }

    /// Calls `call` on every source whose capabilities pass `able`, one thread per source.
    fn each<T: Send>(
        &self,
        able: impl Fn(&Capabilities) -> bool,
        call: impl Fn(&dyn Source) -> Result<T> + Sync,
    ) -> Vec<(SourceKind, Result<T>)> {
        let able: Vec<&dyn Source> = self
            .sources
            .iter()
            .map(AsRef::as_ref)
            .filter(|source| able(&source.capabilities()))
            .collect();
        if able.len() == 1 {
            return able
                .into_iter()
                .map(|source| (source.kind(), call(source)))
                .collect();
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = able
                .iter()
                .map(|&source| {
                    let call = &call;
                    (source.kind(), scope.spawn(move || call(source)))
                })
                .collect();
            handles
                .into_iter()
                .map(|(kind, handle)| {
                    let outcome = handle.join().unwrap_or_else(|_| {
                        Err(Error::Parse {
                            source_name: kind.name(),
                            message: "the source's worker panicked".into(),
                        })
                    });
                    (kind, outcome)
                })
                .collect()
        })
    }

    /// Keeps the answers of the sources that succeeded and records the others; fails only
    /// when every able source failed (or none could answer).
    fn gather<T>(
        &self,
        call: &'static str,
        outcomes: Vec<(SourceKind, Result<Vec<T>>)>,
    ) -> Result<Vec<(SourceKind, Vec<T>)>> {
        let mut answers = Vec::new();
        let mut first_error = None;
        for (source, outcome) in outcomes {
            match outcome {
                Ok(items) => answers.push((source, items)),
                Err(error) => {
                    if let Ok(mut failures) = self.failures.lock() {
                        failures.push(SourceFailure {
                            source,
                            call,
                            message: error.to_string(),
                        });
                    }
                    first_error.get_or_insert(error);
                }
            }
        }
        match (answers.is_empty(), first_error) {
            (true, Some(error)) => Err(error),
            (true, None) => Err(Error::Unsupported {
                source_name: SourceKind::Federation.name(),
                capability: call,
            }),
            (false, _) => Ok(answers),
        }
    }

    fn flat(
        &self,
        call: &'static str,
        able: impl Fn(&Capabilities) -> bool,
        run: impl Fn(&dyn Source) -> Result<Vec<Work>> + Sync,
    ) -> Result<Vec<Work>> {
        let answers = self.gather(call, self.each(able, run))?;
        Ok(answers.into_iter().flat_map(|(_, works)| works).collect())
    }
}

impl Source for Federation {
    fn kind(&self) -> SourceKind {
        SourceKind::Federation
    }

    fn capabilities(&self) -> Capabilities {
        let mut all = Capabilities::default();
        for source in &self.sources {
            let one = source.capabilities();
            all.search |= one.search;
            all.batch_lookup |= one.batch_lookup;
            all.citing |= one.citing;
            all.references |= one.references;
            all.experts |= one.experts;
            all.recommendations |= one.recommendations;
            all.fulltext_links |= one.fulltext_links;
            all.citation_counts |= one.citation_counts;
        }
        // Reference lists go to every source that lists references: batched only when each
        // of them batches.
        all.reference_lists = all.references
            && self
                .sources
                .iter()
                .map(|source| source.capabilities())
                .all(|one| !one.references || one.reference_lists);
        // Held works come back from any source listing citations that does not leave them out.
        all.held_left_out = self
            .sources
            .iter()
            .map(|source| source.capabilities())
            .filter(|one| one.citing || one.references)
            .map(|one| one.held_left_out)
            .min()
            .unwrap_or(0);
        all
    }

    fn describe(&self) -> String {
        self.sources
            .iter()
            .map(|source| source.describe())
            .collect::<Vec<_>>()
            .join(" + ")
    }

    /// Hits of every source, each source's scores divided by its best so they compare, then
    /// merged best first (ties keep the order of the sources).
    fn search(&self, query: &Query, limit: usize) -> Result<Vec<Hit>> {
        let answers = self.gather("search", self.search_each(query, limit))?;
        let mut hits: Vec<(usize, usize, Hit)> = Vec::new();
        for (order, (_, source_hits)) in answers.into_iter().enumerate() {
            let top = source_hits
                .first()
                .map_or(1.0, |hit| hit.score.max(f32::MIN_POSITIVE));
            for (rank, mut hit) in source_hits.into_iter().enumerate() {
                hit.score /= top;
                hits.push((rank, order, hit));
            }
        }
        hits.sort_by(|a, b| {
            b.2.score
                .total_cmp(&a.2.score)
                .then(a.0.cmp(&b.0))
                .then(a.1.cmp(&b.1))
        });
        Ok(hits.into_iter().map(|(_, _, hit)| hit).collect())
    }

    fn lookup(&self, ids: &[WorkId]) -> Result<Vec<Work>> {
        self.flat(
            "lookup",
            |capabilities| capabilities.batch_lookup,
            |source| source.lookup(ids),
        )
    }

    fn citing(&self, ids: &[WorkId], held: &Held<'_>) -> Result<Vec<Work>> {
        self.flat(
            "citing",
            |capabilities| capabilities.citing,
            |source| source.citing(ids, held),
        )
    }

    fn references(&self, ids: &[WorkId], held: &Held<'_>) -> Result<Vec<Work>> {
        self.flat(
            "references",
            |capabilities| capabilities.references,
            |source| source.references(ids, held),
        )
    }

    fn recommend(
        &self,
        positive: &[WorkId],
        negative: &[WorkId],
        limit: usize,
    ) -> Result<Vec<Work>> {
        self.flat(
            "recommendations",
            |capabilities| capabilities.recommendations,
            |source| source.recommend(positive, negative, limit),
        )
    }

    /// The first open location any able source knows, asking them in order.
    /// Every able source's experts, each author once (the first source's record).
    fn experts(&self, topics: &[Topic], since: i32, limit: usize) -> Result<Vec<Expert>> {
        let answers = self.gather(
            "experts",
            self.each(
                |capabilities| capabilities.experts,
                |source| source.experts(topics, since, limit),
            ),
        )?;
        let mut experts: Vec<Expert> = Vec::new();
        litrev_model::add_experts(
            &mut experts,
            answers.into_iter().flat_map(|(_, experts)| experts),
        );
        Ok(experts)
    }

    fn author_works(
        &self,
        authors: &[String],
        topics: &[Topic],
        limit: usize,
    ) -> Result<Vec<Work>> {
        self.flat(
            "author works",
            |capabilities| capabilities.experts,
            |source| source.author_works(authors, topics, limit),
        )
    }

    fn oa_link(&self, doi: &Doi) -> Result<Option<OaLink>> {
        let able: Vec<&dyn Source> = self
            .sources
            .iter()
            .map(AsRef::as_ref)
            .filter(|source| source.capabilities().fulltext_links)
            .collect();
        if able.is_empty() {
            return Err(self.unsupported("open-access links"));
        }
        let mut outcomes = Vec::new();
        for source in able {
            match source.oa_link(doi) {
                Ok(Some(link)) => return Ok(Some(link)),
                Ok(None) => outcomes.push((source.kind(), Ok(Vec::<OaLink>::new()))),
                Err(error) => outcomes.push((source.kind(), Err(error))),
            }
        }
        self.gather("open-access links", outcomes).map(|_| None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A source answering from a fixed list, or failing every call.
    struct Fixed {
        kind: SourceKind,
        works: Vec<Work>,
        fails: bool,
    }

    impl Source for Fixed {
        fn kind(&self) -> SourceKind {
            self.kind
        }
        fn capabilities(&self) -> Capabilities {
            Capabilities {
                search: true,
                batch_lookup: true,
                ..Capabilities::default()
            }
        }
        fn describe(&self) -> String {
            self.kind.name().to_owned()
        }
        fn search(&self, _query: &Query, _limit: usize) -> Result<Vec<Hit>> {
            if self.fails {
                return Err(self.unsupported("search (down)"));
            }
            Ok(self
                .works
                .iter()
                .enumerate()
                .map(|(rank, work)| Hit {
                    work: work.clone(),
                    score: 10.0 / (rank + 1) as f32,
                })
                .collect())
        }
        fn lookup(&self, _ids: &[WorkId]) -> Result<Vec<Work>> {
            self.search(&query(), 10)
                .map(|hits| hits.into_iter().map(|hit| hit.work).collect())
        }
        fn citing(&self, _ids: &[WorkId], _held: &Held<'_>) -> Result<Vec<Work>> {
            Ok(Vec::new())
        }
    }

    /// A source known only by what it can do.
    struct Able(SourceKind, Capabilities);

    impl Source for Able {
        fn kind(&self) -> SourceKind {
            self.0
        }
        fn capabilities(&self) -> Capabilities {
            self.1
        }
        fn describe(&self) -> String {
            self.0.name().to_owned()
        }
        fn search(&self, _query: &Query, _limit: usize) -> Result<Vec<Hit>> {
            Ok(Vec::new())
        }
        fn lookup(&self, _ids: &[WorkId]) -> Result<Vec<Work>> {
            Ok(Vec::new())
        }
        fn citing(&self, _ids: &[WorkId], _held: &Held<'_>) -> Result<Vec<Work>> {
            Ok(Vec::new())
        }
    }

    #[test]
    fn reference_lists_are_batched_only_when_every_source_listing_references_batches() {
        let lists = Capabilities {
            references: true,
            reference_lists: true,
            ..Capabilities::default()
        };
        let one_by_one = Capabilities {
            references: true,
            ..Capabilities::default()
        };
        let searching = Capabilities {
            search: true,
            ..Capabilities::default()
        };
        let batches = |sources: Vec<Capabilities>| {
            Federation::new(
                sources
                    .into_iter()
                    .map(|able| Box::new(Able(SourceKind::OpenAlex, able)) as Box<dyn Source>)
                    .collect(),
            )
            .capabilities()
            .reference_lists
        };
        assert!(batches(vec![lists, searching]), "arXiv lists no references");
        assert!(
            !batches(vec![lists, one_by_one]),
            "Semantic Scholar would be asked once per work"
        );
        assert!(!batches(vec![searching]), "nobody lists references");
    }

    fn query() -> Query {
        Query {
            label: "q1".into(),
            purpose: String::new(),
            text: "anything".into(),
            ..Query::default()
        }
    }

    fn work(id: &str) -> Work {
        Work::stub(id.parse().expect("id"))
    }

    #[test]
    fn merges_scores_across_sources_and_survives_a_failing_one() {
        let federation = Federation::new(vec![
            Box::new(Fixed {
                kind: SourceKind::OpenAlex,
                works: vec![work("W1"), work("W2")],
                fails: false,
            }),
            Box::new(Fixed {
                kind: SourceKind::Crossref,
                works: vec![],
                fails: true,
            }),
            Box::new(Fixed {
                kind: SourceKind::Arxiv,
                works: vec![work("arXiv:2101.00001")],
                fails: false,
            }),
        ]);
        let hits = federation
            .search(&query(), 10)
            .expect("two sources answered");
        let ids: Vec<String> = hits.iter().map(|hit| hit.work.id().to_string()).collect();
        assert_eq!(ids, ["W1", "arXiv:2101.00001", "W2"]);
        let failures = federation.failures();
        assert_eq!(failures.len(), 1);
        assert_eq!(failures[0].source, SourceKind::Crossref);
        assert_eq!(failures[0].call, "search");
    }

    #[test]
    fn fails_when_every_source_fails() {
        let federation = Federation::new(vec![Box::new(Fixed {
            kind: SourceKind::OpenAlex,
            works: vec![],
            fails: true,
        })]);
        assert!(federation.lookup(&[]).is_err());
    }
}
