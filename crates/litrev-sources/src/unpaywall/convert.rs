//! Unpaywall DOI records → `OaLink`.

use litrev_model::Doi;
use serde_json::Value;

use super::Error;
use super::wire::{WireError, WireRecord};

/// Where the open-access copy of a DOI is, by Unpaywall's best location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OaLink {
    /// The DOI the record is for.
    pub doi: Doi,
    /// Whether any open-access copy is known.
    pub is_oa: bool,
    /// Unpaywall's status: `gold`, `hybrid`, `bronze`, `green`, `diamond` or `closed`.
    pub oa_status: Option<String>,
    /// The best location's PDF (`url_for_pdf`).
    pub pdf_url: Option<String>,
    /// The best location's landing page (`url_for_landing_page`, else its `url`).
    pub landing_url: Option<String>,
    /// The copy's licence (`cc-by`…), when known.
    pub license: Option<String>,
    /// Who hosts the copy: `publisher` or `repository`.
    pub host_type: Option<String>,
    /// Which version it is: `publishedVersion`, `acceptedVersion` or `submittedVersion`.
    pub version: Option<String>,
}

impl OaLink {
    /// The link to follow for the text: the PDF when there is one, else the landing page.
    pub fn best_url(&self) -> Option<&str> {
        self.pdf_url.as_deref().or(self.landing_url.as_deref())
    }
}

/// Reads a `/v2/{doi}` record.
///
/// # Errors
/// `Error::Api` for an error body, `Error::Format` for anything that is not a DOI record.
pub fn parse_record(json: &str) -> Result<OaLink, Error> {
    let value: Value = serde_json::from_str(json)
        .map_err(|error| Error::Format(format!("not JSON ({error}): {}", short(json))))?;
    if let Some(error) = api_error(&value) {
        return Err(error);
    }
    let record: WireRecord =
        serde_json::from_value(value).map_err(|error| Error::Format(error.to_string()))?;
    let doi: Doi = record
        .doi
        .parse()
        .map_err(|error| Error::Format(format!("the record's doi: {error}")))?;
    let is_oa = record.is_oa.unwrap_or(false);
    let location = record.best_oa_location.filter(|_| is_oa);
    let clean = |url: Option<String>| {
        url.map(|url| url.trim().to_owned())
            .filter(|url| !url.is_empty())
    };
    let (pdf_url, landing_url, license, host_type, version) = match location {
        Some(location) => (
            clean(location.url_for_pdf),
            clean(location.url_for_landing_page).or_else(|| clean(location.url)),
            location.license,
            location.host_type,
            location.version,
        ),
        None => (None, None, None, None, None),
    };
    Ok(OaLink {
        doi,
        is_oa,
        oa_status: record.oa_status,
        pdf_url,
        landing_url,
        license,
        host_type,
        version,
    })
}

/// The error a failed answer carries: the body's message and `HTTP_status_code`, else the
/// caller's status and the body's text.
pub fn parse_error(status: u16, body: &str) -> Error {
    match serde_json::from_str::<Value>(body)
        .ok()
        .as_ref()
        .and_then(api_error)
    {
        Some(Error::Api { message, .. }) => Error::Api {
            status: Some(status),
            message,
        },
        _ => Error::Api {
            status: Some(status),
            message: short(body),
        },
    }
}

/// An error body: `"error": true` (or an error text) with a message.
fn api_error(value: &Value) -> Option<Error> {
    let wire: WireError = serde_json::from_value(value.clone()).ok()?;
    let is_error = match &wire.error {
        Some(Value::Bool(flag)) => *flag,
        Some(Value::String(text)) => !text.is_empty(),
        _ => false,
    };
    if !is_error {
        return None;
    }
    let status = match wire.status {
        Some(Value::Number(number)) => number.as_u64().and_then(|code| u16::try_from(code).ok()),
        Some(Value::String(text)) => text.parse().ok(),
        _ => None,
    };
    let message = wire
        .message
        .or_else(|| {
            wire.error
                .and_then(|error| error.as_str().map(str::to_owned))
        })
        .unwrap_or_default();
    Some(Error::Api { status, message })
}

fn short(text: &str) -> String {
    let text = text.trim();
    match text.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}
