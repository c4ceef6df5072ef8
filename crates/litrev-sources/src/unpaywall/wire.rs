//! Unpaywall's DOI record and error body as the v2 API spells them (only what litrev reads).

use serde::Deserialize;
use serde_json::Value;

/// A DOI record.
#[derive(Debug, Deserialize)]
pub(super) struct WireRecord {
    pub doi: String,
    #[serde(default)]
    pub is_oa: Option<bool>,
    pub oa_status: Option<String>,
    pub best_oa_location: Option<WireLocation>,
}

/// One open-access location.
#[derive(Debug, Deserialize)]
pub(super) struct WireLocation {
    pub url: Option<String>,
    pub url_for_pdf: Option<String>,
    pub url_for_landing_page: Option<String>,
    pub license: Option<String>,
    pub host_type: Option<String>,
    pub version: Option<String>,
}

/// `{"HTTP_status_code": 404, "error": true, "message": "…"}`.
#[derive(Debug, Deserialize)]
pub(super) struct WireError {
    #[serde(rename = "HTTP_status_code")]
    pub status: Option<Value>,
    pub error: Option<Value>,
    pub message: Option<String>,
}
