//! Unpaywall as a [`Source`] that only answers one question: where can this DOI be read
//! openly? It neither searches nor follows citations.

use litrev_http::{Endpoint, Error as HttpError, Request, SourcePolicy};
use litrev_model::{Doi, Query, Work, WorkId};

use super::{parse_record, record_url};
use crate::error::{Error, Result};
use crate::source::{Capabilities, Held, Hit, OaLink, Source, SourceKind};

/// How to reach Unpaywall.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnpaywallConfig {
    /// Base URL (`LITREV_UNPAYWALL_URL` overrides the public API).
    pub base_url: String,
    /// The e-mail Unpaywall requires with every call (`LITREV_EMAIL`).
    pub email: String,
}

impl Default for UnpaywallConfig {
    fn default() -> UnpaywallConfig {
        UnpaywallConfig {
            base_url: super::DEFAULT_BASE_URL.to_owned(),
            email: String::new(),
        }
    }
}

/// Ten requests a second (Unpaywall asks for fewer than 100,000 a day).
pub fn policy() -> SourcePolicy {
    SourcePolicy::new("unpaywall", 10)
}

/// Unpaywall over HTTP.
#[derive(Debug, Clone)]
pub struct UnpaywallSource {
    endpoint: Endpoint,
    config: UnpaywallConfig,
}

impl UnpaywallSource {
    /// A source sending its requests through `endpoint` (built with [`policy`]).
    pub fn new(endpoint: Endpoint, config: UnpaywallConfig) -> UnpaywallSource {
        UnpaywallSource { endpoint, config }
    }
}

impl Source for UnpaywallSource {
    fn kind(&self) -> SourceKind {
        SourceKind::Unpaywall
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            fulltext_links: true,
            ..Capabilities::default()
        }
    }

    fn describe(&self) -> String {
        format!("Unpaywall at {}", self.config.base_url)
    }

    fn search(&self, _query: &Query, _limit: usize) -> Result<Vec<Hit>> {
        Err(self.unsupported("search"))
    }

    fn lookup(&self, _ids: &[WorkId]) -> Result<Vec<Work>> {
        Err(self.unsupported("look-ups by id"))
    }

    fn citing(&self, _ids: &[WorkId], _held: &Held<'_>) -> Result<Vec<Work>> {
        Err(self.unsupported("citing works"))
    }

    /// The best open location of a DOI; `None` when Unpaywall does not know the DOI or knows
    /// no open copy.
    fn oa_link(&self, doi: &Doi) -> Result<Option<OaLink>> {
        if self.config.email.is_empty() {
            return Err(Error::MissingSetting {
                source_name: SourceKind::Unpaywall.name(),
                setting: "a contact e-mail with every request",
                how: "set LITREV_EMAIL or `email` in LITREV_HOME/config.toml",
            });
        }
        let url = record_url(&self.config.base_url, doi, &self.config.email);
        let response = match self.endpoint.send(&Request::get(&url, "record")) {
            Ok(response) => response,
            Err(HttpError::Status { status: 404, .. }) => return Ok(None),
            Err(error) => return Err(error.into()),
        };
        let record = parse_record(response.text()?)
            .map_err(|error| Error::parse(SourceKind::Unpaywall, error))?;
        if !record.is_oa {
            return Ok(None);
        }
        Ok(Some(OaLink {
            doi: record.doi,
            pdf_url: record.pdf_url,
            landing_url: record.landing_url,
            status: record.oa_status,
        }))
    }
}
