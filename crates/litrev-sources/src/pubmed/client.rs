//! PubMed through NCBI's E-utilities as a [`Source`]: esearch on the history server then one
//! efetch of the result, efetch by id list, and elink for citing and cited records.

use std::collections::BTreeMap;

use litrev_http::{Endpoint, Request, SourcePolicy};
use litrev_model::{Pmid, Query, Work, WorkId};

use super::{
    Caller, FETCH_MAX, Link, efetch_history_url, efetch_ids_url, elink_url, esearch_url,
    parse_efetch, parse_elink, parse_esearch,
};
use crate::error::{Error, Result};
use crate::query_words::words;
use crate::source::{Capabilities, Held, Hit, Source, SourceKind};

/// PMIDs per efetch or elink call: keeps URLs well under the servers' limits.
const IDS_PER_CALL: usize = 200;

/// How to reach the E-utilities.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PubMedConfig {
    /// Base URL (`LITREV_PUBMED_URL` overrides NCBI's).
    pub base_url: String,
    /// `NCBI_API_KEY`: ten requests a second instead of three; sent as `api_key`, never logged.
    pub api_key: Option<String>,
    /// The contact address NCBI asks every client to send (`email=`).
    pub email: String,
}

impl Default for PubMedConfig {
    fn default() -> PubMedConfig {
        PubMedConfig {
            base_url: super::DEFAULT_BASE_URL.to_owned(),
            api_key: None,
            email: String::new(),
        }
    }
}

/// Three requests a second, or ten with an API key, as NCBI's usage rules allow.
pub fn policy(with_key: bool) -> SourcePolicy {
    SourcePolicy::new("pubmed", if with_key { 10 } else { 3 })
}

/// PubMed over HTTP.
#[derive(Debug, Clone)]
pub struct PubMedSource {
    endpoint: Endpoint,
    config: PubMedConfig,
}

impl PubMedSource {
    /// A source sending its requests through `endpoint` (built with [`policy`]).
    pub fn new(endpoint: Endpoint, config: PubMedConfig) -> PubMedSource {
        PubMedSource { endpoint, config }
    }

    fn caller(&self) -> Caller<'_> {
        Caller {
            tool: "litrev",
            email: &self.config.email,
        }
    }

    fn get(&self, url: &str, label: &str) -> Result<String> {
        let mut request = Request::get(url, label);
        if let Some(key) = &self.config.api_key {
            request = request.with_secret_param("api_key", key);
        }
        Ok(self.endpoint.send(&request)?.text()?.to_owned())
    }

    fn fetch(&self, pmids: &[Pmid]) -> Result<Vec<Work>> {
        let mut works = Vec::new();
        for chunk in pmids.chunks(IDS_PER_CALL) {
            let url = efetch_ids_url(&self.config.base_url, self.caller(), chunk);
            works.extend(
                parse_efetch(&self.get(&url, "efetch")?)
                    .map_err(|error| Error::parse(SourceKind::PubMed, error))?
                    .works,
            );
        }
        Ok(works)
    }

    /// The records linked from each of `ids` by `link`, as (source, linked) pairs.
    fn links(&self, ids: &[WorkId], link: Link) -> Result<Vec<(Pmid, Vec<WorkId>)>> {
        let pmids = pmids_of(ids);
        let mut pairs = Vec::new();
        for chunk in pmids.chunks(IDS_PER_CALL) {
            let url = elink_url(&self.config.base_url, self.caller(), chunk, link);
            for set in parse_elink(&self.get(&url, "elink")?)
                .map_err(|error| Error::parse(SourceKind::PubMed, error))?
            {
                if let Some(source) = set.source() {
                    pairs.push((source, set.linked(link)));
                }
            }
        }
        Ok(pairs)
    }
}

fn pmids_of(ids: &[WorkId]) -> Vec<Pmid> {
    let mut pmids: Vec<Pmid> = ids
        .iter()
        .filter_map(|id| match id {
            WorkId::Pmid(pmid) => Some(pmid.clone()),
            _ => None,
        })
        .collect();
    pmids.sort();
    pmids.dedup();
    pmids
}

/// What the source can do, known without a client (the plan's estimate reads it).
pub const CAPABILITIES: Capabilities = Capabilities {
    search: true,
    batch_lookup: true,
    citing: true,
    references: true,
    ..Capabilities::NONE
};

impl Source for PubMedSource {
    fn kind(&self) -> SourceKind {
        SourceKind::PubMed
    }

    fn capabilities(&self) -> Capabilities {
        CAPABILITIES
    }

    fn describe(&self) -> String {
        format!("PubMed at {}", self.config.base_url)
    }

    fn search(&self, query: &Query, limit: usize) -> Result<Vec<Hit>> {
        // Bare words would all be required: joined by OR, left to Best Match to rank.
        let words = words(&query.text).join(" OR ");
        if words.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let term = crate::pubmed::request::directed_term(&words, query);
        let url = esearch_url(&self.config.base_url, self.caller(), &term, limit);
        let found = parse_esearch(&self.get(&url, "esearch")?)
            .map_err(|error| Error::parse(SourceKind::PubMed, error))?;
        if let Some(error) = found.errors.first() {
            return Err(Error::Parse {
                source_name: SourceKind::PubMed.name(),
                message: format!("esearch refused the term {term:?}: {error}"),
            });
        }
        let rank: BTreeMap<&Pmid, usize> = found
            .pmids
            .iter()
            .enumerate()
            .map(|(rank, pmid)| (pmid, rank))
            .collect();
        let works = match &found.history {
            Some(history) if !found.pmids.is_empty() => {
                let wanted = found.pmids.len().min(FETCH_MAX);
                let url =
                    efetch_history_url(&self.config.base_url, self.caller(), history, 0, wanted);
                parse_efetch(&self.get(&url, "efetch")?)
                    .map_err(|error| Error::parse(SourceKind::PubMed, error))?
                    .works
            }
            _ => self.fetch(&found.pmids)?,
        };
        let mut hits: Vec<(usize, Work)> = works
            .into_iter()
            .filter_map(|work| {
                let position = work.ids.pmid.as_ref().and_then(|pmid| rank.get(pmid))?;
                Some((*position, work))
            })
            .collect();
        hits.sort_by_key(|(position, _)| *position);
        Ok(hits
            .into_iter()
            .take(limit)
            .map(|(position, work)| Hit::ranked(work, position))
            .collect())
    }

    fn lookup(&self, ids: &[WorkId]) -> Result<Vec<Work>> {
        self.fetch(&pmids_of(ids))
    }

    /// Records citing each of `ids` (from PMC reference lists), each marked as citing it.
    fn citing(&self, ids: &[WorkId], _held: &Held<'_>) -> Result<Vec<Work>> {
        let pairs = self.links(ids, Link::CitedIn)?;
        let citing: Vec<WorkId> = pairs
            .iter()
            .flat_map(|(_, linked)| linked.clone())
            .collect();
        let mut works = self.lookup(&citing)?;
        for work in &mut works {
            let Some(own) = work.ids.pmid.clone().map(WorkId::Pmid) else {
                continue;
            };
            for (source, linked) in &pairs {
                let source = WorkId::Pmid(source.clone());
                if linked.contains(&own) && !work.references.contains(&source) {
                    work.references.push(source);
                }
            }
        }
        Ok(works)
    }

    fn references(&self, ids: &[WorkId], _held: &Held<'_>) -> Result<Vec<Work>> {
        let cited: Vec<WorkId> = self
            .links(ids, Link::References)?
            .into_iter()
            .flat_map(|(_, linked)| linked)
            .collect();
        self.lookup(&cited)
    }
}
