//! Semantic Scholar's JSON as the Graph and Recommendations APIs spell it.
//!
//! Every field is optional (the API returns only the fields asked for, and many are null), and
//! numbers that sometimes arrive as strings are read as either.

use serde::{Deserialize, Deserializer};

/// A paper object (`/paper/{id}`, an item of a search page or batch answer).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct WirePaper {
    pub paper_id: Option<String>,
    pub external_ids: Option<WireExternalIds>,
    pub title: Option<String>,
    #[serde(rename = "abstract")]
    pub abstract_text: Option<String>,
    pub venue: Option<String>,
    pub publication_venue: Option<WireVenue>,
    #[serde(default, deserialize_with = "lenient_i32")]
    pub year: Option<i32>,
    pub publication_date: Option<String>,
    pub journal: Option<WireJournal>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub authors: Vec<WireAuthor>,
    #[serde(default, deserialize_with = "lenient_u32")]
    pub citation_count: Option<u32>,
    pub open_access_pdf: Option<WireOpenAccessPdf>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub publication_types: Vec<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub fields_of_study: Vec<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub s2_fields_of_study: Vec<WireField>,
    /// Present (possibly empty) only when asked for; `None` when absent or null.
    pub citations: Option<Vec<WirePaper>>,
    pub references: Option<Vec<WirePaper>>,
}

/// `externalIds`: strings, except `CorpusId` (a number).
#[derive(Debug, Deserialize)]
pub(super) struct WireExternalIds {
    #[serde(rename = "DOI", default, deserialize_with = "stringish")]
    pub doi: Option<String>,
    #[serde(rename = "ArXiv", default, deserialize_with = "stringish")]
    pub arxiv: Option<String>,
    #[serde(rename = "PubMed", default, deserialize_with = "stringish")]
    pub pubmed: Option<String>,
    #[serde(rename = "PubMedCentral", default, deserialize_with = "stringish")]
    pub pubmed_central: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(super) struct WireVenue {
    pub name: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(super) struct WireJournal {
    pub name: Option<String>,
    #[serde(default, deserialize_with = "stringish")]
    pub volume: Option<String>,
    #[serde(default, deserialize_with = "stringish")]
    pub pages: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(super) struct WireAuthor {
    pub name: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(super) struct WireOpenAccessPdf {
    pub url: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(super) struct WireField {
    pub category: Option<String>,
}

/// `/paper/search` (and `/author/{id}/papers`, `/paper/search/match`): a page of papers.
#[derive(Debug, Deserialize)]
pub(super) struct WireSearchPage {
    #[serde(default)]
    pub total: Option<u64>,
    #[serde(default)]
    pub offset: Option<usize>,
    pub next: Option<usize>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub data: Vec<WirePaper>,
}

/// `/paper/search/bulk`: a page of papers and the token of the next.
#[derive(Debug, Deserialize)]
pub(super) struct WireBulkPage {
    #[serde(default)]
    pub total: Option<u64>,
    pub token: Option<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub data: Vec<WirePaper>,
}

/// `/paper/{id}/citations` and `/references`: edges, each holding the paper at its far end.
#[derive(Debug, Deserialize)]
pub(super) struct WireEdgePage {
    #[serde(default)]
    pub offset: Option<usize>,
    pub next: Option<usize>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub data: Vec<WireEdge>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct WireEdge {
    pub citing_paper: Option<WirePaper>,
    pub cited_paper: Option<WirePaper>,
}

/// `/recommendations/v1/papers…`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct WireRecommendations {
    pub recommended_papers: Vec<WirePaper>,
}

/// An error body: `{"error": "…"}` (400, 404) or `{"message": "…"}` (403, 429).
#[derive(Debug, Deserialize)]
pub(super) struct WireError {
    pub error: Option<String>,
    pub message: Option<String>,
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
    Ok(
        match Option::<serde_json::Value>::deserialize(deserializer)? {
            Some(serde_json::Value::String(text)) if !text.trim().is_empty() => {
                Some(text.trim().to_owned())
            }
            Some(serde_json::Value::Number(number)) => Some(number.to_string()),
            _ => None,
        },
    )
}

fn lenient_i32<'de, D>(deserializer: D) -> Result<Option<i32>, D::Error>
where
    D: Deserializer<'de>,
{
    Ok(stringish(deserializer)?.and_then(|text| text.parse().ok()))
}

fn lenient_u32<'de, D>(deserializer: D) -> Result<Option<u32>, D::Error>
where
    D: Deserializer<'de>,
{
    Ok(stringish(deserializer)?.and_then(|text| text.parse().ok()))
}
