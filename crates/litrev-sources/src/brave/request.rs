//! URLs of the Brave Search API's web search.

use litrev_model::Query;

use crate::query_words::words_within;

/// The API's base URL (`LITREV_BRAVE_URL` replaces it).
pub const DEFAULT_BASE_URL: &str = "https://api.search.brave.com";

/// Most results one request returns (`count`).
pub const COUNT_MAX: usize = 20;

/// The longest query the API takes, in characters and in words.
pub const QUERY_MAX_CHARS: usize = 400;
/// See [`QUERY_MAX_CHARS`].
pub const QUERY_MAX_WORDS: usize = 50;

/// A plan query as web search words: its distinct words without operators or proximity marks
/// (a web engine ranks pages by all of them), cut to the API's limits on whole words.
pub fn query_text(query: &Query) -> String {
    words_within(&query.text, QUERY_MAX_WORDS, QUERY_MAX_CHARS)
}

/// `/res/v1/web/search?q=…&count=…&offset=…`: one page of web results only (no news, videos
/// or discussions blocks), snippets without highlight markup, the query as written (no
/// spelling correction), and no adult content.
///
/// `count` is clamped to `1..=COUNT_MAX`; `offset` counts pages of `count`, as the API does.
pub fn web_search_url(base: &str, text: &str, count: usize, offset: usize) -> String {
    let count = count.clamp(1, COUNT_MAX).to_string();
    let offset = offset.to_string();
    format!(
        "{}/res/v1/web/search?{}",
        crate::url::base(base),
        crate::url::query([
            ("q", text),
            ("count", count.as_str()),
            ("offset", offset.as_str()),
            ("result_filter", "web"),
            ("text_decorations", "false"),
            ("spellcheck", "false"),
            ("safesearch", "strict"),
        ])
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_syntax_becomes_plain_words_within_the_limits() {
        let query = Query::new("q1", "pairs", "\"insulin pumps\"~3 OR \"pumps children\"~3");
        assert_eq!(query_text(&query), "insulin pumps children");
        let long = Query::new(
            "q2",
            "long",
            (0..80)
                .map(|n| format!("w{n}"))
                .collect::<Vec<_>>()
                .join(" "),
        );
        assert_eq!(query_text(&long).split(' ').count(), QUERY_MAX_WORDS);
        let wide = Query::new(
            "q3",
            "wide",
            ["abcdefghij"; 60]
                .iter()
                .enumerate()
                .map(|(n, w)| format!("{w}{n}"))
                .collect::<Vec<_>>()
                .join(" "),
        );
        assert!(query_text(&wide).len() <= QUERY_MAX_CHARS);
    }

    #[test]
    fn the_url_asks_for_web_results_in_pages() {
        assert_eq!(
            web_search_url("http://127.0.0.1:9/", "hello world", 50, 1),
            "http://127.0.0.1:9/res/v1/web/search?q=hello+world&count=20&offset=1&result_filter=web&text_decorations=false&spellcheck=false&safesearch=strict"
        );
    }
}
