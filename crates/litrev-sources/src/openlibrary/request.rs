//! URLs of Open Library's search and Books APIs.

use litrev_model::{Isbn, Query};

use crate::query_words::words_within;

/// The site's base URL (`LITREV_OPENLIBRARY_URL` replaces it).
pub const DEFAULT_BASE_URL: &str = "https://openlibrary.org";

/// Most works one search page returns (`limit`): Open Library's own pages hold 100.
pub const LIMIT_MAX: usize = 100;

/// Most ISBNs one Books API request asks for: the `bibkeys` list stays a short URL.
pub const BIBKEYS_MAX: usize = 50;

/// The fields a search asks for: what a book's record is read from, nothing more (a search
/// document otherwise carries every edition's keys and ids).
const SEARCH_FIELDS: &str = "key,type,title,subtitle,author_name,author_key,first_publish_year,isbn,publisher,language,subject,number_of_pages_median,edition_count";

/// The most words of a query litrev sends.
const QUERY_MAX_WORDS: usize = 30;
/// The most characters of a query litrev sends.
const QUERY_MAX_CHARS: usize = 600;

/// A plan query in the boolean syntax Open Library's Solr search reads, as OpenAlex's does:
/// bare words an OR-list, proximity pairs `(a AND b)`; the distinct words alone (all of them
/// required) when that would be longer than [`QUERY_MAX_CHARS`].
pub fn query_text(query: &Query) -> String {
    let boolean = crate::query_words::to_search_syntax(&query.text);
    if boolean.len() <= QUERY_MAX_CHARS {
        boolean
    } else {
        words_within(&query.text, QUERY_MAX_WORDS, QUERY_MAX_CHARS)
    }
}

/// `/search.json?q=…&fields=…&limit=…&page=…`: one page of works, `page` counted from 1.
pub fn search_url(base: &str, text: &str, limit: usize, page: usize) -> String {
    let limit = limit.clamp(1, LIMIT_MAX).to_string();
    let page = page.max(1).to_string();
    format!(
        "{}/search.json?{}",
        crate::url::base(base),
        crate::url::query([
            ("q", text),
            ("fields", SEARCH_FIELDS),
            ("limit", limit.as_str()),
            ("page", page.as_str()),
        ])
    )
}

/// `/api/books?bibkeys=ISBN:…,ISBN:…&format=json&jscmd=data`: the editions of up to
/// [`BIBKEYS_MAX`] ISBNs (callers batch), with their publishers, dates and identifiers.
pub fn books_url(base: &str, isbns: &[Isbn]) -> String {
    let keys: Vec<String> = isbns
        .iter()
        .take(BIBKEYS_MAX)
        .map(|isbn| format!("ISBN:{}", isbn.as_str()))
        .collect();
    let keys = keys.join(",");
    format!(
        "{}/api/books?{}",
        crate::url::base(base),
        crate::url::query([
            ("bibkeys", keys.as_str()),
            ("format", "json"),
            ("jscmd", "data")
        ])
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_urls_ask_for_a_page_of_works_and_a_batch_of_editions() {
        let query = Query::new(
            "q1",
            "books",
            "\"ecosystem services\"~3 OR \"services payments\"~3",
        );
        assert_eq!(
            query_text(&query),
            "(ecosystem AND services) OR (services AND payments)"
        );
        let url = search_url("http://127.0.0.1:9/", "ecosystem services", 500, 0);
        assert!(
            url.starts_with(
                "http://127.0.0.1:9/search.json?q=ecosystem+services&fields=key%2Ctype%2Ctitle"
            ),
            "{url}"
        );
        assert!(url.ends_with("&limit=100&page=1"), "{url}");
        let isbns: Vec<Isbn> = ["isbn:0439064872", "isbn:9780735211308"]
            .iter()
            .map(|text| text.parse().expect("an ISBN"))
            .collect();
        assert_eq!(
            books_url("https://openlibrary.org", &isbns),
            "https://openlibrary.org/api/books?bibkeys=ISBN%3A9780439064873%2CISBN%3A9780735211308&format=json&jscmd=data"
        );
    }
}
