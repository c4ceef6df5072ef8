//! OpenAlex Work objects as the API and the data dump spell them.
//!
//! Fields are optional and lenient because the two schemas differ and many values are null.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer};

#[derive(Debug, Deserialize)]
pub(crate) struct WireWork {
    pub id: Option<String>,
    pub doi: Option<String>,
    pub title: Option<String>,
    pub display_name: Option<String>,
    pub publication_year: Option<i32>,
    pub publication_date: Option<String>,
    pub ids: Option<WireIds>,
    pub language: Option<String>,
    pub primary_location: Option<WireLocation>,
    pub best_oa_location: Option<WireLocation>,
    pub host_venue: Option<WireHostVenue>,
    #[serde(rename = "type")]
    pub work_type: Option<String>,
    pub type_crossref: Option<String>,
    pub open_access: Option<WireOpenAccess>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub authorships: Vec<WireAuthorship>,
    pub cited_by_count: Option<u32>,
    pub biblio: Option<WireBiblio>,
    pub is_retracted: Option<bool>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub concepts: Vec<WireNamed>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub topics: Vec<WireNamed>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub keywords: Vec<WireKeyword>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub mesh: Vec<WireMesh>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub referenced_works: Vec<String>,
    pub abstract_inverted_index: Option<BTreeMap<String, Vec<usize>>>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct WireIds {
    pub openalex: Option<String>,
    pub doi: Option<String>,
    pub pmid: Option<String>,
    pub pmcid: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct WireLocation {
    pub landing_page_url: Option<String>,
    pub pdf_url: Option<String>,
    pub is_oa: Option<bool>,
    pub source: Option<WireLocationSource>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct WireLocationSource {
    pub display_name: Option<String>,
    pub host_organization_name: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct WireHostVenue {
    pub display_name: Option<String>,
    pub publisher: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct WireOpenAccess {
    pub oa_url: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct WireAuthorship {
    pub author: Option<WireAuthor>,
    pub raw_author_name: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct WireAuthor {
    pub id: Option<String>,
    pub display_name: Option<String>,
    pub orcid: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct WireBiblio {
    #[serde(default, deserialize_with = "stringish")]
    pub volume: Option<String>,
    #[serde(default, deserialize_with = "stringish")]
    pub issue: Option<String>,
    #[serde(default, deserialize_with = "stringish")]
    pub first_page: Option<String>,
    #[serde(default, deserialize_with = "stringish")]
    pub last_page: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct WireNamed {
    pub id: Option<String>,
    pub display_name: Option<String>,
    pub level: Option<u32>,
    /// A topic's field (`Medicine`, `Psychology`), in records since topics exist.
    #[serde(default)]
    pub field: Option<WireField>,
}

/// The field a topic belongs to.
#[derive(Debug, Deserialize)]
pub(crate) struct WireField {
    pub display_name: Option<String>,
}

/// `keywords` was a list of strings in some responses and of objects in others.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum WireKeyword {
    Named { display_name: Option<String> },
    Plain(String),
}

#[derive(Debug, Deserialize)]
pub(crate) struct WireMesh {
    pub descriptor_name: Option<String>,
    pub is_major_topic: Option<bool>,
}

fn null_as_empty<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(deserializer)?.unwrap_or_default())
}

/// Accepts a string or a number (volume `5` and `"5"` both occur) as text.
fn stringish<'de, D>(deserializer: D) -> Result<Option<String>, D::Error>
where
    D: Deserializer<'de>,
{
    let value = Option::<serde_json::Value>::deserialize(deserializer)?;
    Ok(match value {
        Some(serde_json::Value::String(text)) if !text.trim().is_empty() => Some(text),
        Some(serde_json::Value::Number(number)) => Some(number.to_string()),
        _ => None,
    })
}
