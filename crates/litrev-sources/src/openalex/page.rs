//! OpenAlex list responses (`/works?…`: `meta` + `results`) and error bodies.

use litrev_model::Work;
use serde::Deserialize;
use serde_json::Value;

use super::convert::work_from_wire;
use super::wire::WireWork;

/// One page of a `/works` list.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// Works matching the request in all (`meta.count`).
    pub count: u64,
    /// Cursor of the next page (`meta.next_cursor`); `None` on the last page or without cursor
    /// paging.
    pub next_cursor: Option<String>,
    /// The page's works, in the API's order.
    pub works: Vec<Work>,
    /// Each work's `relevance_score`, position by position with `works` (`None` when the
    /// request was not a search or did not select it).
    pub scores: Vec<Option<f32>>,
    /// Results dropped because they were not Work objects with an id.
    pub skipped: usize,
}

/// An OpenAlex error body: `{"error": …, "message": …}` (400 bad parameter, 401 bad key, 404,
/// 429 over the budget).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The error's kind, as the API words it (`Invalid query parameters error.`).
    pub error: String,
    /// What exactly was wrong (`DOESNTEXIST is not a valid field…`).
    pub message: String,
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.error.is_empty(), self.message.is_empty()) {
            (false, false) => write!(f, "{} {}", self.error, self.message),
            (false, true) => f.write_str(&self.error),
            _ => f.write_str(&self.message),
        }
    }
}

#[derive(Debug, Deserialize)]
struct WireList {
    meta: WireMeta,
    #[serde(default)]
    results: Option<Vec<Value>>,
}

#[derive(Debug, Deserialize)]
struct WireMeta {
    count: Option<u64>,
    next_cursor: Option<String>,
}

#[derive(Debug, Deserialize)]
struct WireError {
    error: Option<Value>,
    message: Option<Value>,
}

/// Parses a `/works` list response (also `group_by` answers, whose `results` are empty).
///
/// # Errors
/// When the body is an error body (its message is returned), not JSON, or not a list.
pub fn parse_page(json: &str) -> Result<Page, String> {
    if let Some(error) = parse_error(json) {
        return Err(format!("OpenAlex answered with an error: {error}"));
    }
    let list: WireList = serde_json::from_str(json).map_err(|error| {
        format!("not an OpenAlex list response with `meta` and `results` ({error})")
    })?;
    let results = list.results.unwrap_or_default();
    let mut page = Page {
        count: list.meta.count.unwrap_or(0),
        next_cursor: list.meta.next_cursor.filter(|cursor| !cursor.is_empty()),
        works: Vec::with_capacity(results.len()),
        scores: Vec::with_capacity(results.len()),
        skipped: 0,
    };
    for result in results {
        let score = result
            .get("relevance_score")
            .and_then(Value::as_f64)
            .map(|score| score as f32);
        let work = serde_json::from_value::<WireWork>(result)
            .map_err(|error| error.to_string())
            .and_then(work_from_wire);
        match work {
            Ok(work) => {
                page.works.push(work);
                page.scores.push(score);
            }
            Err(_) => page.skipped += 1,
        }
    }
    Ok(page)
}

/// Reads an OpenAlex error body; `None` when the body is not one (a page, a work, the
/// `/rate-limit` status, or text that is not JSON).
pub fn parse_error(body: &str) -> Option<ApiError> {
    let wire: WireError = serde_json::from_str(body).ok()?;
    let text = |value: Option<Value>| match value {
        Some(Value::String(text)) => text,
        Some(Value::Null | Value::Bool(_)) | None => String::new(),
        Some(other) => other.to_string(),
    };
    let error = text(wire.error);
    let message = text(wire.message);
    (!error.is_empty() || !message.is_empty()).then_some(ApiError { error, message })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lists_scores_and_errors() {
        let json = r#"{"meta":{"count":429,"next_cursor":"IlsxMDAu","per_page":2},
            "results":[{"id":"https://openalex.org/W1","title":"A","relevance_score":12.5},
                       {"title":"no id"},
                       {"id":"https://openalex.org/W2","title":"B"}],"group_by":[]}"#;
        let page = parse_page(json).expect("page");
        assert_eq!(page.count, 429);
        assert_eq!(page.next_cursor.as_deref(), Some("IlsxMDAu"));
        assert_eq!(page.works.len(), 2);
        assert_eq!(page.scores, vec![Some(12.5), None]);
        assert_eq!(page.skipped, 1);

        let last = parse_page(r#"{"meta":{"count":2,"next_cursor":null},"results":[]}"#)
            .expect("last page");
        assert_eq!((last.next_cursor, last.works.len()), (None, 0));

        let error = r#"{"error":"Invalid query parameters error.","message":"DOESNTEXIST is not a valid field."}"#;
        assert_eq!(
            parse_error(error).map(|error| error.message),
            Some("DOESNTEXIST is not a valid field.".to_owned())
        );
        assert!(parse_page(error).is_err_and(|message| message.contains("DOESNTEXIST")));
        assert_eq!(parse_error(json), None);
        assert_eq!(parse_error("Too Many Requests"), None);
        assert!(parse_page(r#"{"id":"https://openalex.org/W1"}"#).is_err());
    }
}
