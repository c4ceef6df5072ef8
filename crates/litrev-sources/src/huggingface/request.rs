//! URLs of the Hub's paper search.

use litrev_model::Query;

use crate::query_words::words_within;

/// The Hub's base URL (`LITREV_HUGGINGFACE_URL` replaces it).
pub const DEFAULT_BASE_URL: &str = "https://huggingface.co";

/// Most papers one search asks for: the search has no pages, and its ranking (semantic, over
/// titles and abstracts) is worth little further down.
pub const LIMIT_MAX: usize = 100;

/// The longest query sent, in characters (the Hub's own tools cut queries at 200).
pub const QUERY_MAX_CHARS: usize = 200;

/// A plan query as search words: its distinct words without operators or proximity marks (the
/// search ranks by meaning, not by a Boolean match), cut on whole words to [`QUERY_MAX_CHARS`].
pub fn query_text(query: &Query) -> String {
    words_within(&query.text, usize::MAX, QUERY_MAX_CHARS)
}

/// `/api/papers/search?q=…&limit=…`, `limit` clamped to `1..=LIMIT_MAX`.
pub fn papers_search_url(base: &str, text: &str, limit: usize) -> String {
    let limit = limit.clamp(1, LIMIT_MAX).to_string();
    format!(
        "{}/api/papers/search?{}",
        crate::url::base(base),
        crate::url::query([("q", text), ("limit", limit.as_str())])
    )
}

/// `/api/daily_papers?p=0&limit=…&sort=trending`: the first page of the Daily Papers in the
/// Hub's trending order, `limit` clamped to `1..=LIMIT_MAX`.
pub fn trending_papers_url(base: &str, limit: usize) -> String {
    let limit = limit.clamp(1, LIMIT_MAX).to_string();
    format!(
        "{}/api/daily_papers?{}",
        crate::url::base(base),
        crate::url::query([("p", "0"), ("limit", limit.as_str()), ("sort", "trending")])
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_syntax_becomes_words_within_the_limit() {
        let query = Query::new(
            "q1",
            "pairs",
            "\"kazakh question\"~3 OR \"question answering\"~3",
        );
        assert_eq!(query_text(&query), "kazakh question answering");
        let long = Query::new(
            "q2",
            "long",
            (0..80)
                .map(|n| format!("word{n}"))
                .collect::<Vec<_>>()
                .join(" "),
        );
        let text = query_text(&long);
        assert!(
            text.len() <= QUERY_MAX_CHARS && text.ends_with(char::is_numeric),
            "{text}"
        );
    }

    #[test]
    fn the_url_asks_one_search_of_bounded_length() {
        assert_eq!(
            papers_search_url("http://127.0.0.1:9/", "kazakh question answering", 500),
            "http://127.0.0.1:9/api/papers/search?q=kazakh+question+answering&limit=100"
        );
    }
}
