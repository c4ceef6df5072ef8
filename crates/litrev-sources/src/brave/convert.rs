//! Brave's web search answer read into works: each result a `webpage` known by its address.

use litrev_model::Work;
use serde::Deserialize;

use crate::web::WebResult;

/// The works of one page of web results, and whether Brave has more.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WebResults {
    /// The results that have an address and a title, in Brave's order.
    pub works: Vec<Work>,
    /// Results left out for want of an address or a title.
    pub skipped: usize,
    /// Brave's `query.more_results_available`.
    pub more: bool,
}

#[derive(Deserialize)]
struct Answer {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    query: Option<QueryInfo>,
    #[serde(default)]
    web: Option<Web>,
    #[serde(default)]
    error: Option<ErrorInfo>,
}

#[derive(Deserialize)]
struct QueryInfo {
    #[serde(default)]
    more_results_available: bool,
}

#[derive(Deserialize)]
struct Web {
    #[serde(default)]
    results: Vec<Result>,
}

#[derive(Deserialize)]
struct Result {
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    extra_snippets: Vec<String>,
    #[serde(default)]
    page_age: Option<String>,
    #[serde(default)]
    language: Option<String>,
    #[serde(default)]
    profile: Option<Profile>,
    #[serde(default)]
    meta_url: Option<MetaUrl>,
}

#[derive(Deserialize)]
struct Profile {
    #[serde(default)]
    name: Option<String>,
}

#[derive(Deserialize)]
struct MetaUrl {
    #[serde(default)]
    hostname: Option<String>,
}

#[derive(Deserialize)]
struct ErrorInfo {
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    detail: Option<String>,
}

/// Reads one web search answer.
///
/// # Errors
/// When the body is not JSON, or is Brave's `ErrorResponse` (its code and detail are said).
pub fn parse_web_results(body: &str) -> std::result::Result<WebResults, String> {
    let answer: Answer = serde_json::from_str(body).map_err(|error| error.to_string())?;
    if answer.kind.as_deref() == Some("ErrorResponse") || answer.error.is_some() {
        let error = answer.error.unwrap_or(ErrorInfo {
            code: None,
            detail: None,
        });
        return Err(format!(
            "Brave answered with an error{}: {}",
            error
                .code
                .map(|code| format!(" ({code})"))
                .unwrap_or_default(),
            error.detail.unwrap_or_else(|| "no detail given".to_owned())
        ));
    }
    let mut read = WebResults {
        more: answer
            .query
            .is_some_and(|query| query.more_results_available),
        ..WebResults::default()
    };
    for result in answer.web.map(|web| web.results).unwrap_or_default() {
        match work_of(result) {
            Some(work) => read.works.push(work),
            None => read.skipped += 1,
        }
    }
    Ok(read)
}

/// A result as a work; none without a web address or a title.
fn work_of(result: Result) -> Option<Work> {
    let snippets = result
        .description
        .iter()
        .chain(&result.extra_snippets)
        .map(String::as_str)
        .collect();
    let hostname = result.meta_url.and_then(|meta| meta.hostname);
    WebResult {
        url: result.url.as_deref(),
        title: result.title.as_deref(),
        snippets,
        date: result.page_age.as_deref(),
        site: result
            .profile
            .and_then(|profile| profile.name)
            .as_deref()
            .or(hostname.as_deref()),
        language: result.language.as_deref(),
    }
    .work()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::SEP_NAME;
    use litrev_model::WorkKind;

    #[test]
    fn a_result_becomes_a_dated_webpage_with_its_snippet() {
        let body = r#"{"type":"search","query":{"original":"x","more_results_available":true},
            "web":{"type":"search","results":[
              {"title":"&quot;Hello&quot; program - Wikipedia","url":"https://en.wikipedia.org/wiki/Hello",
               "description":"A <strong>simple</strong> program&#x27;s output.","page_age":"2024-12-27T15:49:55",
               "profile":{"name":"Wikipedia"},"language":"en"},
              {"title":"No address"},
              {"title":"Undated","url":"https://gobyexample.com/hello-world","meta_url":{"hostname":"gobyexample.com"}}]}}"#;
        let read = parse_web_results(body).expect("reads");
        assert!(read.more);
        assert_eq!(read.skipped, 1);
        let first = &read.works[0];
        assert_eq!(
            first.title.as_deref(),
            Some("\"Hello\" program - Wikipedia")
        );
        assert_eq!(
            first.abstract_text.as_deref(),
            Some("A simple program's output.")
        );
        assert_eq!(
            (first.year, first.date.as_deref()),
            (Some(2024), Some("2024-12-27"))
        );
        assert_eq!(first.venue.as_deref(), Some("Wikipedia"));
        assert_eq!(first.kind, WorkKind::Webpage);
        assert_eq!(
            first.id().to_string(),
            "url:https://en.wikipedia.org/wiki/Hello"
        );
        assert_eq!(read.works[1].venue.as_deref(), Some("gobyexample.com"));
        assert_eq!(read.works[1].year, None);
    }

    #[test]
    fn an_encyclopedia_entry_is_one_by_its_own_title() {
        let body = r#"{"web":{"results":[
            {"title":"Consciousness (Stanford Encyclopedia of Philosophy)","url":"https://plato.stanford.edu/entries/consciousness/","description":"Perhaps no aspect of mind is more familiar.","page_age":"2023-10-24T00:00:00","profile":{"name":"Stanford Encyclopedia of Philosophy"}},
            {"title":"Table of Contents (Stanford Encyclopedia of Philosophy)","url":"https://plato.stanford.edu/contents.html"}]}}"#;
        let read = parse_web_results(body).expect("reads");
        let entry = &read.works[0];
        assert_eq!(entry.kind, WorkKind::EncyclopediaEntry);
        assert_eq!(entry.title.as_deref(), Some("Consciousness"));
        assert_eq!(entry.venue.as_deref(), Some(SEP_NAME));
        assert_eq!(read.works[1].kind, WorkKind::Webpage);
    }

    #[test]
    fn an_error_answer_and_an_empty_one_are_told_apart() {
        let error = r#"{"type":"ErrorResponse","error":{"id":"x","status":422,"code":"VALIDATION","detail":"Unable to validate request parameter(s)"}}"#;
        let message = parse_web_results(error).expect_err("an error");
        assert!(
            message.contains("VALIDATION") && message.contains("Unable to validate"),
            "{message}"
        );
        let empty =
            parse_web_results(r#"{"type":"search","query":{"original":"zzqx"}}"#).expect("reads");
        assert!(empty.works.is_empty() && !empty.more);
        assert!(parse_web_results("<html>").is_err());
    }
}
