//! URLs and request bodies of the Semantic Scholar Graph and Recommendations APIs.
//!
//! Every builder takes the base URL (`DEFAULT_BASE_URL`, or a test server's) so a client can
//! point it elsewhere, and encodes values the way the API documents them.

use litrev_model::WorkId;

/// The public API's base URL.
pub const DEFAULT_BASE_URL: &str = "https://api.semanticscholar.org";

/// The paper fields litrev asks for: everything `parse_paper` turns into a `Work`.
pub const PAPER_FIELDS: &str = "paperId,externalIds,title,abstract,venue,publicationVenue,year,\
publicationDate,journal,authors,citationCount,referenceCount,openAccessPdf,publicationTypes,\
fieldsOfStudy,s2FieldsOfStudy";

/// `PAPER_FIELDS` plus the ids of each reference, for look-ups that should carry citation
/// edges (single paper and batch routes; the search routes refuse nested fields).
pub const PAPER_FIELDS_WITH_REFERENCES: &str = "paperId,externalIds,title,abstract,venue,\
publicationVenue,year,publicationDate,journal,authors,citationCount,referenceCount,openAccessPdf,\
publicationTypes,fieldsOfStudy,s2FieldsOfStudy,references.paperId,references.externalIds";

/// Most results one relevance-search page returns.
pub const SEARCH_LIMIT_MAX: usize = 100;
/// Most results one bulk-search page returns (the API decides; there is no `limit`).
pub const BULK_PAGE_MAX: usize = 1000;
/// Most ids one batch call accepts.
pub const BATCH_MAX_IDS: usize = 500;
/// Most edges one citations or references page returns.
pub const CITATIONS_LIMIT_MAX: usize = 1000;

/// The form Semantic Scholar accepts for an id (`DOI:…`, `PMID:…`, `ARXIV:…`, `PMCID:…` or a
/// bare paperId); `None` for an OpenAlex id or a web page's address, which it does not know.
pub fn paper_id(id: &WorkId) -> Option<String> {
    match id {
        WorkId::Doi(doi) => Some(format!("DOI:{}", doi.as_str())),
        WorkId::Pmid(pmid) => Some(format!("PMID:{}", pmid.as_str())),
        WorkId::Pmcid(pmcid) => Some(format!(
            "PMCID:{}",
            pmcid.as_str().trim_start_matches("PMC")
        )),
        WorkId::Arxiv(arxiv) => Some(format!("ARXIV:{}", arxiv.as_str())),
        WorkId::S2(s2) => Some(s2.as_str().to_owned()),
        WorkId::OpenAlex(_) | WorkId::Url(_) | WorkId::Isbn(_) => None,
    }
}

/// A year range in the API's `year` syntax (`2019-2023`, `2019-`, `-2023`); `None` when open.
pub fn year_filter(from: Option<i32>, to: Option<i32>) -> Option<String> {
    match (from, to) {
        (None, None) => None,
        (Some(from), Some(to)) if from == to => Some(from.to_string()),
        (from, to) => Some(format!(
            "{}-{}",
            from.map(|year| year.to_string()).unwrap_or_default(),
            to.map(|year| year.to_string()).unwrap_or_default()
        )),
    }
}

/// `GET /graph/v1/paper/{id}`: one paper by any id form `paper_id` produces.
pub fn paper_url(base: &str, id: &str, fields: &str) -> String {
    format!(
        "{}/graph/v1/paper/{}?{}",
        crate::url::base(base),
        crate::url::id_segment(id),
        crate::url::query([("fields", fields)])
    )
}

/// `GET /graph/v1/paper/search`: one page of relevance-ranked results.
///
/// `limit` is clamped to `1..=SEARCH_LIMIT_MAX`; the API serves only the first 1,000 results
/// of a relevance search (use `search_bulk_url` beyond). `year` is `year_filter`'s text.
pub fn search_url(
    base: &str,
    text: &str,
    offset: usize,
    limit: usize,
    fields: &str,
    year: Option<&str>,
    publication_types: Option<&str>,
) -> String {
    let offset = offset.to_string();
    let limit = limit.clamp(1, SEARCH_LIMIT_MAX).to_string();
    let mut pairs = vec![
        ("query", text),
        ("offset", offset.as_str()),
        ("limit", limit.as_str()),
        ("fields", fields),
    ];
    if let Some(year) = year {
        pairs.push(("year", year));
    }
    if let Some(types) = publication_types {
        pairs.push(("publicationTypes", types));
    }
    format!(
        "{}/graph/v1/paper/search?{}",
        crate::url::base(base),
        crate::url::query(pairs)
    )
}

/// `GET /graph/v1/paper/search/bulk`: up to `BULK_PAGE_MAX` results a page, continued with the
/// previous page's `token`.
pub fn search_bulk_url(
    base: &str,
    text: &str,
    token: Option<&str>,
    fields: &str,
    year: Option<&str>,
) -> String {
    let mut pairs = vec![("query", text), ("fields", fields)];
    if let Some(token) = token {
        pairs.push(("token", token));
    }
    if let Some(year) = year {
        pairs.push(("year", year));
    }
    format!(
        "{}/graph/v1/paper/search/bulk?{}",
        crate::url::base(base),
        crate::url::query(pairs)
    )
}

/// `POST /graph/v1/paper/batch`: one `(url, body)` per `BATCH_MAX_IDS` ids, body
/// `{"ids": […]}`. The answer keeps the order of the ids, with `null` for unknown ones.
pub fn batch_requests(
    base: &str,
    ids: &[String],
    fields: &str,
) -> Vec<(String, serde_json::Value)> {
    let url = format!(
        "{}/graph/v1/paper/batch?{}",
        crate::url::base(base),
        crate::url::query([("fields", fields)])
    );
    ids.chunks(BATCH_MAX_IDS)
        .map(|chunk| (url.clone(), serde_json::json!({ "ids": chunk })))
        .collect()
}

/// `GET /graph/v1/paper/{id}/citations`: the papers citing `id`.
///
/// As in the API, `fields` names fields of the citing paper (`title`, not
/// `citingPaper.title`), plus any edge fields (`contexts`, `intents`, `isInfluential`); each
/// answer item carries the paper under `citingPaper`. `limit` is clamped to
/// `1..=CITATIONS_LIMIT_MAX`.
pub fn citations_url(base: &str, id: &str, offset: usize, limit: usize, fields: &str) -> String {
    edges_url(base, id, "citations", offset, limit, fields)
}

/// `GET /graph/v1/paper/{id}/references`: the papers `id` cites, each under `citedPaper`
/// (fields as for `citations_url`).
pub fn references_url(base: &str, id: &str, offset: usize, limit: usize, fields: &str) -> String {
    edges_url(base, id, "references", offset, limit, fields)
}

fn edges_url(
    base: &str,
    id: &str,
    route: &str,
    offset: usize,
    limit: usize,
    fields: &str,
) -> String {
    let offset = offset.to_string();
    let limit = limit.clamp(1, CITATIONS_LIMIT_MAX).to_string();
    format!(
        "{}/graph/v1/paper/{}/{route}?{}",
        crate::url::base(base),
        crate::url::id_segment(id),
        crate::url::query([
            ("offset", offset.as_str()),
            ("limit", limit.as_str()),
            ("fields", fields)
        ])
    )
}

/// `POST /recommendations/v1/papers/`: papers like the positive examples and unlike the
/// negative ones, body `{"positivePaperIds": […], "negativePaperIds": […]}`.
pub fn recommendations_request(
    base: &str,
    positive: &[String],
    negative: &[String],
    fields: &str,
    limit: usize,
) -> (String, serde_json::Value) {
    let limit = limit.clamp(1, 500).to_string();
    let url = format!(
        "{}/recommendations/v1/papers/?{}",
        crate::url::base(base),
        crate::url::query([("fields", fields), ("limit", limit.as_str())])
    );
    let body = serde_json::json!({
        "positivePaperIds": positive,
        "negativePaperIds": negative,
    });
    (url, body)
}

/// `GET /recommendations/v1/papers/forpaper/{id}`: papers recommended from one paper.
pub fn recommendations_for_paper_url(base: &str, id: &str, fields: &str, limit: usize) -> String {
    let limit = limit.clamp(1, 500).to_string();
    format!(
        "{}/recommendations/v1/papers/forpaper/{}?{}",
        crate::url::base(base),
        crate::url::id_segment(id),
        crate::url::query([("fields", fields), ("limit", limit.as_str())])
    )
}

/// A directed query's first year (`year=2022-`) and kinds (`publicationTypes=Book,BookSection`)
/// in the relevance search's syntax; its order is not: that search ranks by relevance alone.
pub fn directions(query: &litrev_model::Query) -> (Option<String>, Option<String>) {
    use litrev_model::WorkKind;
    let mut types: Vec<&str> = query
        .kinds
        .iter()
        .flat_map(|kind| match kind {
            WorkKind::Article => &["JournalArticle"][..],
            WorkKind::ProceedingsArticle => &["Conference"],
            WorkKind::Book => &["Book"],
            WorkKind::BookChapter => &["BookSection"],
            WorkKind::Review => &["Review"],
            WorkKind::Dataset => &["Dataset"],
            WorkKind::Editorial => &["Editorial", "LettersAndComments"],
            _ => &[],
        })
        .copied()
        .collect();
    types.dedup();
    (
        query.from_year.map(|year| format!("{year}-")),
        (!types.is_empty()).then(|| types.join(",")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_the_documented_urls() {
        assert_eq!(
            paper_url(
                "https://api.semanticscholar.org/",
                "DOI:10.1093/mind/lix.236.433",
                "title"
            ),
            "https://api.semanticscholar.org/graph/v1/paper/DOI:10.1093/mind/lix.236.433?fields=title"
        );
        assert_eq!(
            search_url(
                DEFAULT_BASE_URL,
                "turing test",
                100,
                500,
                "title,year",
                Some("2019-"),
                None
            ),
            "https://api.semanticscholar.org/graph/v1/paper/search?query=turing+test&offset=100&limit=100&fields=title%2Cyear&year=2019-"
        );
        let books = litrev_model::Query {
            kinds: vec![
                litrev_model::WorkKind::Book,
                litrev_model::WorkKind::BookChapter,
            ],
            from_year: Some(2022),
            ..litrev_model::Query::new("q5", "books", "turing test")
        };
        let (year, types) = directions(&books);
        assert_eq!(
            search_url(
                DEFAULT_BASE_URL,
                "turing test",
                0,
                100,
                "title",
                year.as_deref(),
                types.as_deref()
            ),
            "https://api.semanticscholar.org/graph/v1/paper/search?query=turing+test&offset=0&limit=100&fields=title&year=2022-&publicationTypes=Book%2CBookSection"
        );
        assert_eq!(
            search_bulk_url(
                "http://localhost:9",
                "kubernetes",
                Some("PCO AB"),
                "title",
                None
            ),
            "http://localhost:9/graph/v1/paper/search/bulk?query=kubernetes&fields=title&token=PCO+AB"
        );
        assert_eq!(
            citations_url(DEFAULT_BASE_URL, "CorpusId:14514057", 0, 5000, "title"),
            "https://api.semanticscholar.org/graph/v1/paper/CorpusId:14514057/citations?offset=0&limit=1000&fields=title"
        );
        assert!(
            references_url(DEFAULT_BASE_URL, "DOI:10.1/a b", 50, 50, "title")
                .contains("/paper/DOI:10.1/a%20b/references?offset=50&limit=50")
        );
        assert_eq!(
            recommendations_for_paper_url(
                DEFAULT_BASE_URL,
                "DOI:10.2139/ssrn.2250500",
                "title",
                100
            ),
            "https://api.semanticscholar.org/recommendations/v1/papers/forpaper/DOI:10.2139/ssrn.2250500?fields=title&limit=100"
        );
    }

    #[test]
    fn batches_at_most_500_ids_a_call() {
        let ids: Vec<String> = (0..1001).map(|n| format!("CorpusId:{n}")).collect();
        let requests = batch_requests(DEFAULT_BASE_URL, &ids, PAPER_FIELDS);
        assert_eq!(requests.len(), 3);
        assert!(requests[0].0.starts_with(
            "https://api.semanticscholar.org/graph/v1/paper/batch?fields=paperId%2CexternalIds"
        ));
        let sizes: Vec<usize> = requests
            .iter()
            .map(|(_, body)| body["ids"].as_array().map_or(0, Vec::len))
            .collect();
        assert_eq!(sizes, vec![500, 500, 1]);
        assert_eq!(requests[2].1["ids"][0], "CorpusId:1000");

        let (url, body) = recommendations_request(
            DEFAULT_BASE_URL,
            &["DOI:10.1145/3544585.3544600".to_owned()],
            &[],
            "title",
            100,
        );
        assert_eq!(
            url,
            "https://api.semanticscholar.org/recommendations/v1/papers/?fields=title&limit=100"
        );
        assert_eq!(body["positivePaperIds"][0], "DOI:10.1145/3544585.3544600");
        assert_eq!(body["negativePaperIds"].as_array().map(Vec::len), Some(0));
    }

    #[test]
    fn writes_ids_and_years_in_the_apis_forms() {
        let id = |text: &str| paper_id(&text.parse().expect("id"));
        assert_eq!(
            id("https://doi.org/10.1093/MIND/LIX.236.433").as_deref(),
            Some("DOI:10.1093/mind/lix.236.433")
        );
        assert_eq!(id("pmid:19872477").as_deref(), Some("PMID:19872477"));
        assert_eq!(id("PMC5442267").as_deref(), Some("PMCID:5442267"));
        assert_eq!(
            id("arXiv:1705.10311v2").as_deref(),
            Some("ARXIV:1705.10311")
        );
        assert_eq!(
            id("s2:2d5673caa9e6af3a7b82a43f19ee920992db07ad").as_deref(),
            Some("2d5673caa9e6af3a7b82a43f19ee920992db07ad")
        );
        assert_eq!(id("W2741809807"), None);
        assert_eq!(
            year_filter(Some(2019), Some(2023)).as_deref(),
            Some("2019-2023")
        );
        assert_eq!(year_filter(Some(2019), None).as_deref(), Some("2019-"));
        assert_eq!(year_filter(None, Some(2023)).as_deref(), Some("-2023"));
        assert_eq!(year_filter(Some(1936), Some(1936)).as_deref(), Some("1936"));
        assert_eq!(year_filter(None, None), None);
    }
}
