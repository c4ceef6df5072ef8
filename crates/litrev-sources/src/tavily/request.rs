//! Requests of Tavily's search API.

use litrev_model::Query;
use serde_json::{Value, json};

use crate::query_words::words_within;

/// The API's base URL (`LITREV_TAVILY_URL` replaces it).
pub const DEFAULT_BASE_URL: &str = "https://api.tavily.com";

/// Most results one search returns (`max_results`, 0 to 20).
pub const MAX_RESULTS: usize = 20;

/// The longest query litrev sends, in characters: Tavily's documentation asks for queries
/// under 400 characters, phrased as a search, not a prompt.
pub const QUERY_MAX_CHARS: usize = 400;

/// The most words of a query litrev sends.
const QUERY_MAX_WORDS: usize = 50;

/// A plan query as web search words: its distinct words without operators or proximity marks,
/// cut to the limits on whole words, and the sites its `site:HOST` words restrict it to (the
/// plan's site searches), which Tavily takes as `include_domains` rather than in the query.
pub fn query_text(query: &Query) -> (String, Vec<String>) {
    let mut sites = Vec::new();
    let mut rest = Vec::new();
    for word in query.text.split_whitespace() {
        match word.strip_prefix("site:") {
            Some(host) if !host.is_empty() => sites.push(host.to_ascii_lowercase()),
            _ => rest.push(word),
        }
    }
    (
        words_within(&rest.join(" "), QUERY_MAX_WORDS, QUERY_MAX_CHARS),
        sites,
    )
}

/// `/search` under the base URL.
pub fn search_url(base: &str) -> String {
    format!("{}/search", crate::url::base(base))
}

/// The JSON body of one search: a `basic` search (one credit) of the `general` topic, up to
/// `max_results` results (clamped to `1..=MAX_RESULTS`), without the generated answer, the
/// pages' raw content or images, which litrev does not read; only pages of `sites` when
/// any are given.
pub fn search_body(text: &str, sites: &[String], max_results: usize) -> Value {
    let mut body = json!({
        "query": text,
        "search_depth": "basic",
        "topic": "general",
        "max_results": max_results.clamp(1, MAX_RESULTS),
        "include_answer": false,
        "include_raw_content": false,
        "include_images": false,
    });
    if !sites.is_empty() {
        body["include_domains"] = json!(sites);
    }
    body
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_asks_for_a_basic_search_without_answer_or_raw_content() {
        let query = Query::new("q1", "pairs", "\"insulin pumps\"~3 OR \"pumps children\"~3");
        let (text, sites) = query_text(&query);
        assert!(sites.is_empty());
        let body = search_body(&text, &sites, 50);
        assert_eq!(body["query"], "insulin pumps children");
        assert_eq!(body["max_results"], 20);
        assert_eq!(body["search_depth"], "basic");
        assert_eq!(body["include_answer"], false);
        assert_eq!(body["include_raw_content"], false);
        assert!(body.get("include_domains").is_none());
        assert_eq!(search_body("x", &[], 0)["max_results"], 1);
        let site = Query::new("w1", "site", "site:plato.stanford.edu consciousness qualia");
        let (text, sites) = query_text(&site);
        assert_eq!(
            (text.as_str(), sites.as_slice()),
            (
                "consciousness qualia",
                &["plato.stanford.edu".to_owned()][..]
            )
        );
        assert_eq!(
            search_body(&text, &sites, 5)["include_domains"],
            serde_json::json!(["plato.stanford.edu"])
        );
        assert_eq!(
            search_url("http://127.0.0.1:9/"),
            "http://127.0.0.1:9/search"
        );
    }
}
