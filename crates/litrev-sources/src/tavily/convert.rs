//! Tavily's search answer read into works: each result a `webpage` known by its address.

use litrev_model::Work;
use serde::Deserialize;

use crate::web::WebResult;

/// The works of one search answer.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SearchResults {
    /// The results that have an address and a title, in Tavily's order (most relevant first).
    pub works: Vec<Work>,
    /// Results left out for want of an address or a title.
    pub skipped: usize,
}

#[derive(Deserialize)]
struct Answer {
    #[serde(default)]
    results: Option<Vec<Result>>,
    /// Tavily's error body: `{"detail": {"error": "…"}}`.
    #[serde(default)]
    detail: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct Result {
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    published_date: Option<String>,
}

/// Reads one search answer.
///
/// # Errors
/// When the body is not JSON, is Tavily's error body (its message is said), or holds no
/// `results`.
pub fn parse_search_results(body: &str) -> std::result::Result<SearchResults, String> {
    let answer: Answer = serde_json::from_str(body).map_err(|error| error.to_string())?;
    if let Some(detail) = answer.detail {
        let message = detail
            .get("error")
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned)
            .or_else(|| detail.as_str().map(str::to_owned))
            .unwrap_or_else(|| detail.to_string());
        return Err(format!("Tavily answered with an error: {message}"));
    }
    let results = answer
        .results
        .ok_or_else(|| "Tavily's answer holds no `results`".to_owned())?;
    let mut read = SearchResults::default();
    for result in results {
        let work = WebResult {
            url: result.url.as_deref(),
            title: result.title.as_deref(),
            snippets: result.content.as_deref().into_iter().collect(),
            date: result.published_date.as_deref(),
            ..WebResult::default()
        }
        .work();
        match work {
            Some(work) => read.works.push(work),
            None => read.skipped += 1,
        }
    }
    Ok(read)
}

#[cfg(test)]
mod tests {
    use litrev_model::WorkKind;

    use super::*;
    use crate::web::SEP_NAME;

    #[test]
    fn a_result_becomes_a_webpage_with_its_snippet_and_host() {
        let body = r#"{"query":"q","follow_up_questions":null,"answer":null,"images":[],
            "results":[
              {"title":"Tavily &amp; you","url":"https://tavily.com/blog/x","content":"Connect <b>your</b> LLM to the web.","score":0.99,"raw_content":null},
              {"title":"","url":"https://example.org/untitled","content":"x","score":0.5},
              {"title":"News","url":"https://news.example.org/a","content":"Dated.","score":0.4,"published_date":"Tue, 02 Jan 2024 10:00:00 GMT"},
              {"title":"Consciousness (Stanford Encyclopedia of Philosophy)","url":"https://plato.stanford.edu/entries/consciousness/","content":"Perhaps no aspect of mind.","score":0.3}],
            "response_time":1.5}"#;
        let read = parse_search_results(body).expect("reads");
        assert_eq!(read.skipped, 1);
        let first = &read.works[0];
        assert_eq!(first.title.as_deref(), Some("Tavily & you"));
        assert_eq!(
            first.abstract_text.as_deref(),
            Some("Connect your LLM to the web.")
        );
        assert_eq!(first.venue.as_deref(), Some("tavily.com"));
        assert_eq!(first.kind, WorkKind::Webpage);
        assert_eq!(first.id().to_string(), "url:https://tavily.com/blog/x");
        assert_eq!(read.works[2].kind, WorkKind::EncyclopediaEntry);
        assert_eq!(read.works[2].title.as_deref(), Some("Consciousness"));
        assert_eq!(read.works[2].venue.as_deref(), Some(SEP_NAME));
    }

    #[test]
    fn an_error_answer_and_an_empty_one_are_told_apart() {
        let message = parse_search_results(
            r#"{"detail":{"error":"Unauthorized: missing or invalid API key."}}"#,
        )
        .expect_err("an error");
        assert!(message.contains("invalid API key"), "{message}");
        let empty = parse_search_results(r#"{"query":"zzqx","results":[],"response_time":0.2}"#)
            .expect("reads");
        assert!(empty.works.is_empty());
        assert!(parse_search_results("{}").is_err());
        assert!(parse_search_results("<html>").is_err());
    }
}
