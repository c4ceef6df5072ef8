//! Unpaywall: the open-access copy of a work by DOI (`/v2/{doi}?email=…`).
//!
//! Nothing here talks HTTP. A DOI record's `best_oa_location` becomes an [`OaLink`]; Unpaywall's
//! error bodies (`{"error": true, "HTTP_status_code": 404, "message": …}`) become `Error::Api`.

mod client;
mod convert;
mod request;
mod wire;

#[cfg(test)]
mod tests;

pub use client::{UnpaywallConfig, UnpaywallSource, policy};
pub use convert::{OaLink, parse_error, parse_record};
pub use request::{DEFAULT_BASE_URL, record_url};

/// Why an Unpaywall response could not be read as a DOI record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Unpaywall answered with an error body (unknown DOI, missing `email`).
    #[error("Unpaywall answered with an error{}: {message}", status.map(|code| format!(" ({code})")).unwrap_or_default())]
    Api {
        /// The HTTP status, from the body's `HTTP_status_code` or the caller.
        status: Option<u16>,
        /// Unpaywall's message.
        message: String,
    },
    /// The body is not a DOI record.
    #[error("not an Unpaywall DOI record: {0}")]
    Format(String),
}

impl Error {
    /// Whether Unpaywall does not know the DOI (a 404).
    pub fn is_not_found(&self) -> bool {
        matches!(
            self,
            Error::Api {
                status: Some(404),
                ..
            }
        )
    }

    /// Whether Unpaywall refused the request itself (a 422 without `email`, or a 400).
    pub fn is_bad_request(&self) -> bool {
        matches!(
            self,
            Error::Api {
                status: Some(400 | 422),
                ..
            }
        )
    }
}
