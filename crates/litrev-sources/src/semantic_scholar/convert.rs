//! Semantic Scholar responses → `Work`s and small page structs.

use litrev_model::{Author, Biblio, Work, WorkId, WorkIds, WorkKind};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::Error;
use super::wire::{
    WireBulkPage, WireEdge, WireEdgePage, WireError, WirePaper, WireRecommendations, WireSearchPage,
};

/// One paper with the neighbours its response carried (when `citations` or `references` were
/// among the fields asked for).
#[derive(Debug, Clone, PartialEq)]
pub struct Paper {
    /// The paper; its `references` hold the ids of the cited papers when they were returned.
    pub work: Work,
    /// Papers citing it, as returned (a capped sample for much-cited papers).
    pub citations: Vec<Work>,
    /// Papers it cites, as returned.
    pub references: Vec<Work>,
}

/// One page of `/paper/search` (also `/paper/search/match` and `/author/{id}/papers`).
#[derive(Debug, Clone, PartialEq)]
pub struct SearchPage {
    /// Matching papers in all (0 when the route does not say).
    pub total: u64,
    /// Offset of this page.
    pub offset: usize,
    /// Offset of the next page; `None` on the last one.
    pub next: Option<usize>,
    /// The page's papers that carry an id.
    pub works: Vec<Work>,
    /// Papers dropped because they carried no id at all.
    pub skipped: usize,
}

/// One page of `/paper/search/bulk`.
#[derive(Debug, Clone, PartialEq)]
pub struct BulkPage {
    /// Matching papers in all.
    pub total: u64,
    /// Token of the next page; `None` on the last one.
    pub token: Option<String>,
    /// The page's papers that carry an id.
    pub works: Vec<Work>,
    /// Papers dropped because they carried no id at all.
    pub skipped: usize,
}

/// One page of `/paper/{id}/citations` (citing papers) or `/references` (cited papers).
#[derive(Debug, Clone, PartialEq)]
pub struct CitationPage {
    /// Offset of this page.
    pub offset: usize,
    /// Offset of the next page; `None` on the last one.
    pub next: Option<usize>,
    /// The papers at the far end of each edge, when they carry an id.
    pub works: Vec<Work>,
    /// Edges dropped because their paper carried no id (S2 lists unresolved references with
    /// `paperId: null`).
    pub skipped: usize,
}

/// The position-keeping answer of `POST /paper/batch`: `None` where an id was unknown.
pub type BatchResult = Vec<Option<Work>>;

/// Reads `/graph/v1/paper/{id}`.
///
/// # Errors
/// `Error::Api` for an error body, `Error::Format` for anything that is not a paper with an id.
pub fn parse_paper(json: &str) -> Result<Paper, Error> {
    let wire: WirePaper = read(json, "paper")?;
    let citations = wire.citations.as_deref().map(works_of).unwrap_or_default();
    let references = wire.references.as_deref().map(works_of).unwrap_or_default();
    let work = work_from_wire(&wire).ok_or(Error::Format {
        expected: "paper",
        detail: "the paper carries no paperId or external id".to_owned(),
    })?;
    Ok(Paper {
        work,
        citations,
        references,
    })
}

/// Reads a page of `/graph/v1/paper/search`.
///
/// # Errors
/// `Error::Api` for an error body, `Error::Format` for anything else that is not a page.
pub fn parse_search_page(json: &str) -> Result<SearchPage, Error> {
    let value = value_of(json, "search page")?;
    require_any_key(&value, &["data", "total", "offset"], "search page")?;
    let wire: WireSearchPage = from_value(value, "search page")?;
    let (works, skipped) = works_and_skipped(&wire.data);
    Ok(SearchPage {
        total: wire.total.unwrap_or(0),
        offset: wire.offset.unwrap_or(0),
        next: wire.next,
        works,
        skipped,
    })
}

/// Reads a page of `/graph/v1/paper/search/bulk`.
///
/// # Errors
/// `Error::Api` for an error body, `Error::Format` for anything else that is not a page.
pub fn parse_bulk_page(json: &str) -> Result<BulkPage, Error> {
    let value = value_of(json, "bulk search page")?;
    require_any_key(&value, &["data", "total", "token"], "bulk search page")?;
    let wire: WireBulkPage = from_value(value, "bulk search page")?;
    let (works, skipped) = works_and_skipped(&wire.data);
    Ok(BulkPage {
        total: wire.total.unwrap_or(0),
        token: wire.token.filter(|token| !token.is_empty()),
        works,
        skipped,
    })
}

/// Reads the answer of `POST /graph/v1/paper/batch`, one entry per id asked for.
///
/// # Errors
/// `Error::Api` for an error body, `Error::Format` when the body is not a JSON array.
pub fn parse_batch(json: &str) -> Result<BatchResult, Error> {
    let papers: Vec<Option<WirePaper>> = read(json, "batch")?;
    Ok(papers
        .iter()
        .map(|paper| paper.as_ref().and_then(work_from_wire))
        .collect())
}

/// Reads a page of `/graph/v1/paper/{id}/citations`: the citing papers.
///
/// # Errors
/// `Error::Api` for an error body, `Error::Format` for anything else that is not a page.
pub fn parse_citations_page(json: &str) -> Result<CitationPage, Error> {
    edge_page(json, "citations page", |edge| edge.citing_paper.as_ref())
}

/// Reads a page of `/graph/v1/paper/{id}/references`: the cited papers.
///
/// # Errors
/// `Error::Api` for an error body, `Error::Format` for anything else that is not a page.
pub fn parse_references_page(json: &str) -> Result<CitationPage, Error> {
    edge_page(json, "references page", |edge| edge.cited_paper.as_ref())
}

/// Reads either recommendations route (`recommendedPapers`), dropping papers without ids.
///
/// # Errors
/// `Error::Api` for an error body, `Error::Format` for anything else.
pub fn parse_recommendations(json: &str) -> Result<Vec<Work>, Error> {
    let wire: WireRecommendations = read(json, "recommendations")?;
    Ok(works_of(&wire.recommended_papers))
}

/// The error a non-2xx answer carries: its message (from `{"error": …}` or `{"message": …}`,
/// else the body's text) with the status, so `is_not_found` and `is_bad_request` can tell.
pub fn parse_error(status: u16, body: &str) -> Error {
    let message = serde_json::from_str::<WireError>(body)
        .ok()
        .and_then(|wire| wire.error.or(wire.message))
        .unwrap_or_else(|| short(body));
    Error::Api {
        status: Some(status),
        message,
    }
}

fn edge_page(
    json: &str,
    expected: &'static str,
    far_end: impl Fn(&WireEdge) -> Option<&WirePaper>,
) -> Result<CitationPage, Error> {
    let value = value_of(json, expected)?;
    require_any_key(&value, &["data", "offset"], expected)?;
    let wire: WireEdgePage = from_value(value, expected)?;
    let mut works = Vec::with_capacity(wire.data.len());
    for edge in &wire.data {
        if let Some(work) = far_end(edge).and_then(work_from_wire) {
            works.push(work);
        }
    }
    let skipped = wire.data.len() - works.len();
    Ok(CitationPage {
        offset: wire.offset.unwrap_or(0),
        next: wire.next,
        works,
        skipped,
    })
}

fn read<T: DeserializeOwned>(json: &str, expected: &'static str) -> Result<T, Error> {
    from_value(value_of(json, expected)?, expected)
}

/// Parses the JSON and turns an error body into `Error::Api`.
fn value_of(json: &str, expected: &'static str) -> Result<Value, Error> {
    let value: Value = serde_json::from_str(json).map_err(|error| Error::Format {
        expected,
        detail: format!("not JSON ({error}): {}", short(json)),
    })?;
    if let Some(object) = value.as_object() {
        let is_data = ["data", "paperId", "recommendedPapers", "total"]
            .iter()
            .any(|key| object.contains_key(*key));
        let message = object.get("error").and_then(Value::as_str).or_else(|| {
            (!is_data)
                .then(|| object.get("message").and_then(Value::as_str))
                .flatten()
        });
        if let Some(message) = message {
            return Err(Error::Api {
                status: None,
                message: message.to_owned(),
            });
        }
    }
    Ok(value)
}

fn from_value<T: DeserializeOwned>(value: Value, expected: &'static str) -> Result<T, Error> {
    serde_json::from_value(value).map_err(|error| Error::Format {
        expected,
        detail: error.to_string(),
    })
}

fn require_any_key(value: &Value, keys: &[&str], expected: &'static str) -> Result<(), Error> {
    let found = value
        .as_object()
        .is_some_and(|object| keys.iter().any(|key| object.contains_key(*key)));
    if found {
        Ok(())
    } else {
        Err(Error::Format {
            expected,
            detail: format!("expected an object with one of {keys:?}"),
        })
    }
}

fn works_of(papers: &[WirePaper]) -> Vec<Work> {
    papers.iter().filter_map(work_from_wire).collect()
}

fn works_and_skipped(papers: &[WirePaper]) -> (Vec<Work>, usize) {
    let works = works_of(papers);
    let skipped = papers.len() - works.len();
    (works, skipped)
}

/// The ids of a paper: its paperId as `S2Id` and its DOI, PubMed, PMC and arXiv ids.
fn ids_of(paper: &WirePaper) -> WorkIds {
    let mut ids = WorkIds::default();
    if let Some(external) = &paper.external_ids {
        if let Some(doi) = external.doi.as_deref().and_then(|text| text.parse().ok()) {
            ids.add(WorkId::Doi(doi));
        }
        if let Some(pmid) = external
            .pubmed
            .as_deref()
            .and_then(|text| text.parse().ok())
        {
            ids.add(WorkId::Pmid(pmid));
        }
        if let Some(pmcid) = external
            .pubmed_central
            .as_deref()
            .and_then(|text| text.parse().ok())
        {
            ids.add(WorkId::Pmcid(pmcid));
        }
        if let Some(arxiv) = external.arxiv.as_deref().and_then(|text| text.parse().ok()) {
            ids.add(WorkId::Arxiv(arxiv));
        }
    }
    if let Some(s2) = paper.paper_id.as_deref().and_then(|text| text.parse().ok()) {
        ids.add(WorkId::S2(s2));
    }
    ids
}

/// Converts a paper object; `None` when it carries no id litrev can keep.
fn work_from_wire(paper: &WirePaper) -> Option<Work> {
    let ids = ids_of(paper);
    ids.primary()?;
    let journal = paper.journal.as_ref();
    let venue = journal
        .and_then(|journal| clean(journal.name.as_deref()))
        .or_else(|| clean(paper.venue.as_deref()))
        .or_else(|| {
            paper
                .publication_venue
                .as_ref()
                .and_then(|venue| clean(venue.name.as_deref()))
        });
    let (first_page, last_page) = journal
        .and_then(|journal| journal.pages.as_deref())
        .map(Biblio::split_pages)
        .unwrap_or_default();
    let date = clean(paper.publication_date.as_deref());
    let year = paper.year.or_else(|| {
        date.as_deref()
            .and_then(|date| date.get(..4))
            .and_then(|year| year.parse().ok())
    });
    let references = paper
        .references
        .as_deref()
        .unwrap_or_default()
        .iter()
        .filter_map(|reference| ids_of(reference).primary())
        .collect();
    let mut keywords: Vec<String> = Vec::new();
    let categories = paper
        .s2_fields_of_study
        .iter()
        .filter_map(|field| field.category.as_deref());
    for name in paper
        .fields_of_study
        .iter()
        .map(String::as_str)
        .chain(categories)
    {
        let name = name.trim();
        if !name.is_empty()
            && !keywords
                .iter()
                .any(|known| known.eq_ignore_ascii_case(name))
        {
            keywords.push(name.to_owned());
        }
    }
    Some(Work {
        topics: Vec::new(),
        kind: kind_of(paper, &ids),
        ids,
        title: clean(paper.title.as_deref()),
        authors: paper
            .authors
            .iter()
            .filter_map(|author| clean(author.name.as_deref()))
            .map(Author::named)
            .collect(),
        year,
        date,
        venue,
        publisher: None,
        biblio: Biblio {
            volume: journal.and_then(|journal| clean(journal.volume.as_deref())),
            issue: None,
            first_page,
            last_page,
        },
        abstract_text: clean(paper.abstract_text.as_deref()),
        language: None,
        cited_by_count: paper.citation_count,
        // Semantic Scholar's subjects are fields of study: disciplines, not topics.
        fields: keywords.clone(),
        keywords,
        references,
        oa_url: paper
            .open_access_pdf
            .as_ref()
            .and_then(|pdf| clean(pdf.url.as_deref())),
        is_retracted: false,
    })
}

/// The most specific kind `publicationTypes` names; an arXiv-only paper without types is a
/// preprint.
fn kind_of(paper: &WirePaper, ids: &WorkIds) -> WorkKind {
    let has = |name: &str| paper.publication_types.iter().any(|kind| kind == name);
    let ranked = [
        ("Review", WorkKind::Review),
        ("MetaAnalysis", WorkKind::Review),
        ("Book", WorkKind::Book),
        ("BookSection", WorkKind::BookChapter),
        ("Conference", WorkKind::ProceedingsArticle),
        ("Dataset", WorkKind::Dataset),
        ("Editorial", WorkKind::Editorial),
        ("LettersAndComments", WorkKind::Editorial),
        ("News", WorkKind::Editorial),
        ("JournalArticle", WorkKind::Article),
        ("CaseReport", WorkKind::Article),
        ("ClinicalTrial", WorkKind::Article),
        ("Study", WorkKind::Article),
    ];
    if let Some((_, kind)) = ranked.iter().find(|(name, _)| has(name)) {
        return *kind;
    }
    if paper.publication_types.is_empty() && ids.arxiv.is_some() && ids.doi.is_none() {
        return WorkKind::Preprint;
    }
    WorkKind::Other
}

/// Trimmed, white space squeezed; `None` when empty.
fn clean(text: Option<&str>) -> Option<String> {
    let text = text?.split_whitespace().collect::<Vec<_>>().join(" ");
    (!text.is_empty()).then_some(text)
}

fn short(text: &str) -> String {
    let text = text.trim();
    match text.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_paper_with_all_litrev_fields() {
        let json = r#"{"paperId":"2D5673CAA9E6AF3A7B82A43F19EE920992DB07AD",
            "externalIds":{"DOI":"10.1093/MIND/LIX.236.433","CorpusId":14636783,"PubMed":"123","ArXiv":"1402.0030v2"},
            "title":"  Computing  Machinery and Intelligence ","abstract":"I propose…","venue":"Mind",
            "year":1950,"publicationDate":"1950-10-01","journal":{"name":"Mind","pages":" 433-460","volume":"LIX"},
            "authors":[{"authorId":"2262347","name":"A. Turing"}],"citationCount":10059,
            "openAccessPdf":{"url":"","status":"CLOSED"},"publicationTypes":["JournalArticle","Review"],
            "fieldsOfStudy":["Computer Science"],"s2FieldsOfStudy":[{"category":"Computer Science"},{"category":"Philosophy"}],
            "references":[{"paperId":null,"externalIds":{"DOI":"10.2307/3610576"}},{"paperId":null}]}"#;
        let paper = parse_paper(json).expect("paper");
        let work = paper.work;
        assert_eq!(
            work.ids.s2.as_ref().map(|id| id.as_str()),
            Some("2d5673caa9e6af3a7b82a43f19ee920992db07ad")
        );
        assert_eq!(
            work.ids.doi.as_ref().map(|id| id.as_str()),
            Some("10.1093/mind/lix.236.433")
        );
        assert_eq!(work.ids.pmid.as_ref().map(|id| id.as_str()), Some("123"));
        assert_eq!(
            work.ids.arxiv.as_ref().map(|id| id.as_str()),
            Some("1402.0030")
        );
        assert_eq!(
            work.title.as_deref(),
            Some("Computing Machinery and Intelligence")
        );
        assert_eq!(work.kind, WorkKind::Review);
        assert_eq!(work.biblio.first_page.as_deref(), Some("433"));
        assert_eq!(work.biblio.last_page.as_deref(), Some("460"));
        assert_eq!(work.biblio.volume.as_deref(), Some("LIX"));
        assert_eq!(work.oa_url, None, "an empty openAccessPdf url is no link");
        assert_eq!(
            work.keywords,
            vec!["Computer Science".to_owned(), "Philosophy".to_owned()]
        );
        assert_eq!(
            work.references.len(),
            1,
            "a reference without ids is dropped"
        );
        assert_eq!(work.date.as_deref(), Some("1950-10-01"));
    }

    #[test]
    fn tells_error_bodies_from_pages() {
        let not_found = parse_paper(r#"{"error":"Paper with id 0 not found"}"#);
        assert!(
            matches!(&not_found, Err(error) if error.is_not_found()),
            "{not_found:?}"
        );
        let forbidden = parse_error(403, r#"{"message":"Forbidden"}"#);
        assert_eq!(
            forbidden,
            Error::Api {
                status: Some(403),
                message: "Forbidden".to_owned()
            }
        );
        assert!(
            parse_error(
                400,
                "{\"error\":\"Unrecognized or unsupported fields: [unknown]\"}"
            )
            .is_bad_request()
        );
        assert!(parse_error(404, "<html>gone</html>").is_not_found());
        assert!(matches!(parse_search_page("[]"), Err(Error::Format { .. })));
        assert!(matches!(parse_search_page("{}"), Err(Error::Format { .. })));
        assert!(matches!(parse_batch("not json"), Err(Error::Format { .. })));
        let empty = parse_search_page(r#"{"total": 0, "offset": 0}"#).expect("empty page");
        assert_eq!((empty.total, empty.next, empty.works.len()), (0, None, 0));
    }

    #[test]
    fn arxiv_only_papers_without_types_are_preprints() {
        let work = parse_paper(r#"{"paperId":"0000000000000000000000000000000000000001","externalIds":{"ArXiv":"2101.00001"}}"#)
            .expect("paper")
            .work;
        assert_eq!(work.kind, WorkKind::Preprint);
        assert!(parse_paper(r#"{"paperId":null,"title":"no id"}"#).is_err());
    }
}
