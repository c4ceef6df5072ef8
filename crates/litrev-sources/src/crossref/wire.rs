//! Crossref's JSON as the REST API spells it (`message` envelopes, kebab-case fields).
//!
//! Every field is optional and lenient: lists may be null, and numbers may arrive as strings.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// The envelope of every answer: `{"status", "message-type", "message"}`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct WireEnvelope {
    pub status: Option<String>,
    pub message_type: Option<String>,
    #[serde(default)]
    pub message: Value,
}

/// The `message` of a `work-list`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct WireList {
    pub total_results: Option<u64>,
    pub next_cursor: Option<String>,
    /// Kept as JSON so one odd record does not fail the page.
    #[serde(default, deserialize_with = "null_as_empty")]
    pub items: Vec<Value>,
}

/// A `work`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct WireWork {
    #[serde(rename = "DOI")]
    pub doi: Option<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub title: Vec<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub original_title: Vec<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub author: Vec<WireAuthor>,
    pub issued: Option<WireDate>,
    pub published: Option<WireDate>,
    pub published_print: Option<WireDate>,
    pub published_online: Option<WireDate>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub container_title: Vec<String>,
    pub publisher: Option<String>,
    #[serde(default, deserialize_with = "stringish")]
    pub volume: Option<String>,
    #[serde(default, deserialize_with = "stringish")]
    pub issue: Option<String>,
    #[serde(default, deserialize_with = "stringish")]
    pub page: Option<String>,
    #[serde(rename = "type")]
    pub work_type: Option<String>,
    pub subtype: Option<String>,
    #[serde(rename = "abstract")]
    pub abstract_text: Option<String>,
    #[serde(default, deserialize_with = "lenient_u32")]
    pub is_referenced_by_count: Option<u32>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub reference: Vec<WireReference>,
    pub language: Option<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub link: Vec<WireLink>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub license: Vec<WireLicense>,
    pub resource: Option<WireResource>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub subject: Vec<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub updated_by: Vec<WireUpdate>,
}

#[derive(Debug, Deserialize)]
pub(super) struct WireAuthor {
    pub given: Option<String>,
    pub family: Option<String>,
    /// Organisations as authors.
    pub name: Option<String>,
    #[serde(rename = "ORCID")]
    pub orcid: Option<String>,
}

/// A date as `date-parts`: `[[2012, 3, 21]]`, `[[2012]]`, or `[[null]]` when unknown.
#[derive(Debug, Deserialize)]
pub(super) struct WireDate {
    #[serde(rename = "date-parts", default, deserialize_with = "null_as_empty")]
    pub date_parts: Vec<Vec<Value>>,
}

#[derive(Debug, Deserialize)]
pub(super) struct WireReference {
    #[serde(rename = "DOI")]
    pub doi: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct WireLink {
    #[serde(rename = "URL")]
    pub url: Option<String>,
    pub content_type: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct WireLicense {
    #[serde(rename = "URL")]
    pub url: Option<String>,
    pub content_version: Option<String>,
    #[serde(default, deserialize_with = "lenient_i64")]
    pub delay_in_days: Option<i64>,
}

#[derive(Debug, Deserialize)]
pub(super) struct WireResource {
    pub primary: Option<WirePrimary>,
}

#[derive(Debug, Deserialize)]
pub(super) struct WirePrimary {
    #[serde(rename = "URL")]
    pub url: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(super) struct WireUpdate {
    #[serde(rename = "type")]
    pub update_type: Option<String>,
}

fn null_as_empty<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(deserializer)?.unwrap_or_default())
}

/// A string or a number as text; blank strings as `None`.
fn stringish<'de, D>(deserializer: D) -> Result<Option<String>, D::Error>
where
    D: Deserializer<'de>,
{
    Ok(match Option::<Value>::deserialize(deserializer)? {
        Some(Value::String(text)) if !text.trim().is_empty() => Some(text.trim().to_owned()),
        Some(Value::Number(number)) => Some(number.to_string()),
        _ => None,
    })
}

fn lenient_u32<'de, D>(deserializer: D) -> Result<Option<u32>, D::Error>
where
    D: Deserializer<'de>,
{
    Ok(stringish(deserializer)?.and_then(|text| text.parse().ok()))
}

fn lenient_i64<'de, D>(deserializer: D) -> Result<Option<i64>, D::Error>
where
    D: Deserializer<'de>,
{
    Ok(stringish(deserializer)?.and_then(|text| text.parse().ok()))
}
