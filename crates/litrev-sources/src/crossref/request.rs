//! URLs of the Crossref REST API's `/works` routes.
//!
//! `mailto` puts requests in Crossref's "polite" pool; every builder takes it.

use litrev_model::Doi;

/// The API's base URL.
pub const DEFAULT_BASE_URL: &str = "https://api.crossref.org";

/// Most works one page returns (`rows`).
pub const ROWS_MAX: usize = 1000;

/// DOIs per `filter=doi:…` look-up: short enough for any URL length limit.
pub const DOI_BATCH: usize = 50;

/// The work fields litrev reads (`select=`): everything `parse_work` turns into a `Work` that
/// the API lets a client select. `language` and `subtype` are not selectable (asking for them
/// is a 400); they arrive only when `select` is left out.
pub const SELECT: &str = "DOI,title,original-title,author,issued,published,published-print,\
published-online,container-title,publisher,volume,issue,page,type,abstract,\
is-referenced-by-count,reference,link,license,resource,subject,updated-by";

/// `/works?query=…&filter=…&select=…&rows=…&cursor=…&mailto=…`: one page of a search (or of a
/// filter alone), with cursor paging (`*` for the first page, then the page's `next-cursor`).
///
/// `rows` is clamped to `1..=ROWS_MAX`.
pub fn works_url(
    base: &str,
    text: Option<&str>,
    filter: Option<&str>,
    select: Option<&str>,
    rows: usize,
    cursor: &str,
    mailto: &str,
) -> String {
    let rows = rows.clamp(1, ROWS_MAX).to_string();
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    if let Some(text) = text {
        pairs.push(("query", text));
    }
    if let Some(filter) = filter {
        pairs.push(("filter", filter));
    }
    if let Some(select) = select {
        pairs.push(("select", select));
    }
    pairs.extend([
        ("rows", rows.as_str()),
        ("cursor", cursor),
        ("mailto", mailto),
    ]);
    format!(
        "{}/works?{}",
        crate::url::base(base),
        crate::url::query(pairs)
    )
}

/// `/works/{doi}?mailto=…`: one work.
pub fn work_url(base: &str, doi: &Doi, mailto: &str) -> String {
    format!(
        "{}/works/{}?{}",
        crate::url::base(base),
        crate::url::id_segment(doi.as_str()),
        crate::url::query([("mailto", mailto)])
    )
}

/// `/works?filter=doi:…,doi:…&rows=…`: the works of many DOIs, `DOI_BATCH` a request.
///
/// A DOI holding a comma cannot be written in a filter: such DOIs are returned apart, to be
/// looked up one by one with `work_url`.
pub fn doi_batch_urls(
    base: &str,
    dois: &[Doi],
    select: Option<&str>,
    mailto: &str,
) -> (Vec<String>, Vec<Doi>) {
    let (batchable, apart): (Vec<&Doi>, Vec<&Doi>) =
        dois.iter().partition(|doi| !doi.as_str().contains(','));
    let urls = batchable
        .chunks(DOI_BATCH)
        .map(|chunk| {
            let filter: Vec<String> = chunk
                .iter()
                .map(|doi| format!("doi:{}", doi.as_str()))
                .collect();
            works_url(
                base,
                None,
                Some(&filter.join(",")),
                select,
                chunk.len(),
                "*",
                mailto,
            )
        })
        .collect();
    (urls, apart.into_iter().cloned().collect())
}

/// A `filter=` value for a publication-year range and work types (`from-pub-date:2019-01-01,
/// until-pub-date:2023-12-31,type:journal-article`); `None` when nothing restricts.
pub fn filter(year_from: Option<i32>, year_to: Option<i32>, types: &[&str]) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    if let Some(from) = year_from {
        parts.push(format!("from-pub-date:{from:04}-01-01"));
    }
    if let Some(to) = year_to {
        parts.push(format!("until-pub-date:{to:04}-12-31"));
    }
    parts.extend(types.iter().map(|kind| format!("type:{kind}")));
    (!parts.is_empty()).then(|| parts.join(","))
}

/// A directed query in Crossref's syntax: its kinds and first year as a filter
/// (`type:book,type:book-chapter,…,from-pub-date:2022`, values of one key ORed), and the most
/// cited first as an order (`sort=is-referenced-by-count&order=desc`).
pub fn directions(query: &litrev_model::Query) -> (Option<String>, Option<&'static str>) {
    let mut filters: Vec<String> = query
        .kinds
        .iter()
        .flat_map(|&kind| crossref_types(kind))
        .map(|name| format!("type:{name}"))
        .collect();
    if let Some(year) = query.from_year {
        filters.push(format!("from-pub-date:{year}"));
    }
    let order = (query.order == litrev_model::HitOrder::Citations)
        .then_some("sort=is-referenced-by-count&order=desc");
    ((!filters.is_empty()).then(|| filters.join(",")), order)
}

/// Crossref's `type` values for a kind of work.
fn crossref_types(kind: litrev_model::WorkKind) -> &'static [&'static str] {
    use litrev_model::WorkKind;
    match kind {
        WorkKind::Article | WorkKind::Review => &["journal-article"],
        WorkKind::ProceedingsArticle => &["proceedings-article"],
        WorkKind::BookChapter => &["book-chapter", "book-section", "book-part"],
        WorkKind::Book => &["book", "monograph", "edited-book", "reference-book"],
        WorkKind::Preprint => &["posted-content"],
        WorkKind::Thesis => &["dissertation"],
        WorkKind::Report => &["report"],
        WorkKind::Dataset => &["dataset"],
        _ => &["other"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doi(text: &str) -> Doi {
        text.parse().expect("doi")
    }

    #[test]
    fn builds_search_and_lookup_urls() {
        let years = filter(Some(2019), Some(2023), &["journal-article"]);
        assert_eq!(
            years.as_deref(),
            Some("from-pub-date:2019-01-01,until-pub-date:2023-12-31,type:journal-article")
        );
        assert_eq!(
            works_url(
                DEFAULT_BASE_URL,
                Some("sleep memory"),
                years.as_deref(),
                Some("DOI,title"),
                5000,
                "*",
                "dev@example.org"
            ),
            "https://api.crossref.org/works?query=sleep+memory&filter=from-pub-date%3A2019-01-01%2Cuntil-pub-date%3A2023-12-31%2Ctype%3Ajournal-article&select=DOI%2Ctitle&rows=1000&cursor=*&mailto=dev%40example.org"
        );
        assert_eq!(
            work_url(
                "http://localhost:3/",
                &doi("10.1890/0012-9658(2006)87[2832:TIOPMA]2.0.CO;2"),
                "dev@example.org"
            ),
            "http://localhost:3/works/10.1890/0012-9658%282006%2987%5B2832:tiopma%5D2.0.co%3B2?mailto=dev%40example.org"
        );
        assert_eq!(filter(None, None, &[]), None);
    }

    #[test]
    fn batches_dois_in_filters() {
        let dois: Vec<Doi> = (0..120).map(|n| doi(&format!("10.1000/{n}"))).collect();
        let (urls, apart) = doi_batch_urls(DEFAULT_BASE_URL, &dois, None, "dev@example.org");
        assert_eq!((urls.len(), apart.len()), (3, 0));
        assert!(urls[0].starts_with(
            "https://api.crossref.org/works?filter=doi%3A10.1000%2F0%2Cdoi%3A10.1000%2F1%2C"
        ));
        assert!(urls[0].contains("&rows=50&cursor=*&mailto="));
        assert!(urls[2].contains("&rows=20&"));
        let (urls, apart) = doi_batch_urls(
            DEFAULT_BASE_URL,
            &[doi("10.1/a,b"), doi("10.1/c")],
            None,
            "m",
        );
        assert_eq!(urls.len(), 1);
        assert_eq!(apart, vec![doi("10.1/a,b")]);
    }

    #[test]
    fn directed_queries_become_crossref_filters_and_an_order() {
        let plain = litrev_model::Query::new("q1", "", "insulin pumps");
        assert_eq!(directions(&plain), (None, None));
        let directed = litrev_model::Query {
            kinds: vec![litrev_model::WorkKind::BookChapter],
            from_year: Some(2022),
            order: litrev_model::HitOrder::Citations,
            ..plain
        };
        assert_eq!(
            directions(&directed),
            (
                Some(
                    "type:book-chapter,type:book-section,type:book-part,from-pub-date:2022"
                        .to_owned()
                ),
                Some("sort=is-referenced-by-count&order=desc")
            )
        );
    }
}
