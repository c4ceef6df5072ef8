//! The Semantic Scholar parsers on every recorded response in the shared data.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use flate2::read::GzDecoder;
use litrev_model::WorkKind;
use litrev_testkit::testdata;
use serde::Deserialize;

use super::*;

/// One flattened HTTP exchange of a cassette.
#[derive(Debug, Deserialize)]
struct Interaction {
    cassette: String,
    uri: String,
    request_body: Option<String>,
    status: u16,
    body: String,
}

fn interactions(path: &Path) -> Vec<Interaction> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    BufReader::new(GzDecoder::new(file))
        .lines()
        .map(|line| serde_json::from_str(&line.expect("line")).expect("interaction"))
        .collect()
}

fn gunzip(path: &Path) -> String {
    let mut text = String::new();
    GzDecoder::new(std::fs::File::open(path).expect("file"))
        .read_to_string(&mut text)
        .expect("gzip text");
    text
}

/// The route of a recorded URI, with the paper id replaced by `{id}`.
fn route(uri: &str) -> String {
    let path = uri
        .trim_start_matches("https://api.semanticscholar.org")
        .split('?')
        .next()
        .unwrap_or("")
        .trim_end_matches('/');
    let parts: Vec<&str> = path.split('/').collect();
    match parts.as_slice() {
        ["", "graph", "v1", "paper", "search", ..]
        | ["", "graph", "v1", "paper", "batch"]
        | ["", "recommendations", ..]
        | ["", "datasets", ..]
        | ["", "graph", "v1", "snippet", ..] => parts[..parts.len().min(5)].join("/"),
        ["", "graph", "v1", "paper", rest @ ..] => {
            let last = rest.last().copied().unwrap_or("");
            if ["citations", "references", "authors"].contains(&last) {
                format!("/graph/v1/paper/{{id}}/{last}")
            } else {
                "/graph/v1/paper/{id}".to_owned()
            }
        }
        ["", "graph", "v1", "author", .., "papers"] => "/graph/v1/author/{id}/papers".to_owned(),
        ["", "graph", "v1", "author", ..] => "/graph/v1/author".to_owned(),
        _ => path.to_owned(),
    }
}

#[test]
fn parses_every_recorded_graph_api_response() {
    let Some(data) = testdata() else { return };
    let recorded = interactions(&data.join("semanticscholar-graph-api/interactions.jsonl.gz"));
    assert_eq!(recorded.len(), 97, "SOURCE.md lists 97 interactions");

    let mut parsed: BTreeMap<String, usize> = BTreeMap::new();
    let mut skipped: BTreeMap<String, usize> = BTreeMap::new();
    let mut errors: Vec<(u16, Error)> = Vec::new();
    let mut citing_turing_neighbour = 0;
    let mut citation_pages_without_next = 0;
    let mut unresolved_references = 0;
    let mut unresolved_citing = 0;
    for interaction in &recorded {
        let route = route(&interaction.uri);
        let body = interaction.body.as_str();
        if interaction.status != 200 {
            let error = parse_error(interaction.status, body);
            // The same body read as a 200 answer is refused as an API error too.
            assert!(
                matches!(parse_paper(body), Err(Error::Api { .. })),
                "{}: {body}",
                interaction.uri
            );
            errors.push((interaction.status, error));
            continue;
        }
        let works = match route.as_str() {
            "/graph/v1/paper/{id}" => {
                let paper = parse_paper(body).expect("paper");
                assert_eq!(
                    paper.work.title.as_deref(),
                    Some("Computing Machinery and Intelligence")
                );
                assert_eq!(
                    paper.work.ids.s2.as_ref().map(|id| id.as_str()),
                    Some("2d5673caa9e6af3a7b82a43f19ee920992db07ad")
                );
                1
            }
            "/graph/v1/paper/search"
            | "/graph/v1/paper/search/match"
            | "/graph/v1/author/{id}/papers" => {
                let page =
                    parse_search_page(body).unwrap_or_else(|e| panic!("{}: {e}", interaction.uri));
                assert!(
                    !page.works.is_empty() || page.total == 0,
                    "{}",
                    interaction.uri
                );
                if interaction
                    .uri
                    .contains("search?query=turing&fields=title&offset=0")
                {
                    assert!(page.total >= 70_000, "turing has {} results", page.total);
                    assert_eq!((page.works.len(), page.next), (100, Some(100)));
                }
                page.works.len()
            }
            "/graph/v1/paper/search/bulk" => {
                let page = parse_bulk_page(body).expect("bulk page");
                assert!(page.total == 2674 || page.total == 3027, "{}", page.total);
                assert!(!page.works.is_empty());
                page.works.len()
            }
            "/graph/v1/paper/batch" => {
                let result = parse_batch(body).expect("batch");
                let asked: serde_json::Value =
                    serde_json::from_str(interaction.request_body.as_deref().unwrap_or("{}"))
                        .expect("request body");
                let asked = asked["ids"].as_array().map_or(0, Vec::len);
                assert_eq!(result.len(), asked, "one answer per id, in order");
                if interaction.cassette.contains("not_found") {
                    assert!(result[0].is_none(), "CorpusId:211530585 is unknown");
                    assert!(result[1..].iter().all(Option::is_some));
                }
                result.iter().flatten().count()
            }
            "/graph/v1/paper/{id}/citations" => {
                let page = parse_citations_page(body).expect("citations");
                unresolved_citing += page.skipped;
                citing_turing_neighbour += page.works.len();
                if page.next.is_none() {
                    citation_pages_without_next += 1;
                }
                page.works.len()
            }
            "/graph/v1/paper/{id}/references" => {
                let page = parse_references_page(body).expect("references");
                unresolved_references += page.skipped;
                page.works.len()
            }
            "/recommendations/v1/papers" | "/recommendations/v1/papers/forpaper" => {
                let works = parse_recommendations(body).expect("recommendations");
                assert!(!works.is_empty());
                works.len()
            }
            // Authors, dataset releases and snippets are not works.
            _ => {
                *skipped.entry(route).or_default() += 1;
                continue;
            }
        };
        assert!(
            works > 0 || body.contains("\"total\": 0"),
            "{}",
            interaction.uri
        );
        *parsed.entry(route).or_default() += 1;
    }

    let parsed_total: usize = parsed.values().sum();
    let skipped_total: usize = skipped.values().sum();
    assert_eq!(
        (parsed_total, errors.len(), skipped_total),
        (81, 5, 11),
        "parsed {parsed:?}, skipped {skipped:?}"
    );
    assert_eq!(parsed["/graph/v1/paper/{id}/citations"], 19);
    assert_eq!(
        (citing_turing_neighbour, unresolved_citing),
        (1_873, 8),
        "19 pages, 1,881 papers citing CorpusID:14514057, 8 of them without any id"
    );
    assert_eq!(
        citation_pages_without_next, 1,
        "only the last page has no next"
    );
    assert!(
        unresolved_references > 0,
        "references with paperId null are counted"
    );

    let statuses: Vec<u16> = errors.iter().map(|(status, _)| *status).collect();
    assert_eq!(statuses.iter().filter(|status| **status == 404).count(), 2);
    assert!(
        errors
            .iter()
            .filter(|(status, _)| *status == 404)
            .all(|(_, e)| e.is_not_found())
    );
    assert!(
        errors
            .iter()
            .filter(|(status, _)| *status == 400)
            .all(|(_, e)| e.is_bad_request())
    );
    assert!(errors.iter().any(|(_, error)| matches!(
        error,
        Error::Api { status: Some(403), message } if message == "Forbidden"
    )));
}

#[test]
fn reads_the_turing_paper_with_its_thousand_citations() {
    let Some(data) = testdata() else { return };
    let json = gunzip(&data.join("semanticscholar-graph-api/json/Paper.json.gz"));
    let paper = parse_paper(&json).expect("Paper.json");
    let work = &paper.work;
    assert_eq!(
        work.ids.doi.as_ref().map(|doi| doi.as_str()),
        Some("10.1093/mind/lix.236.433")
    );
    assert_eq!(
        work.title.as_deref(),
        Some("Computing Machinery and Intelligence")
    );
    assert_eq!(work.year, Some(1950));
    assert_eq!(work.venue.as_deref(), Some("Mind"));
    assert_eq!(work.authors.len(), 1);
    assert_eq!(work.authors[0].name, "A. Turing");
    assert_eq!(work.cited_by_count, Some(10059));
    assert_eq!(
        work.kind,
        WorkKind::Review,
        "S2 types it [JournalArticle, Review]"
    );
    assert!(
        work.abstract_text
            .as_deref()
            .is_some_and(|text| text.starts_with("I propose"))
    );
    assert_eq!(
        paper.citations.len(),
        1_000,
        "the recorded sample of citing papers"
    );
    assert_eq!(
        paper.references.len(),
        8,
        "6 of the 14 references have no id at all"
    );
    assert_eq!(work.references.len(), 8);
    let citing_with_doi = paper
        .citations
        .iter()
        .filter(|work| work.ids.doi.is_some())
        .count();
    assert_eq!(citing_with_doi, 972);
    assert!(paper.citations.iter().all(|work| work.ids.s2.is_some()));

    // Null lists are empty lists.
    let nulls = std::fs::read_to_string(
        data.join("semanticscholar-graph-api/json/PaperWithNullValues.json"),
    )
    .expect("file");
    let paper = parse_paper(&nulls).expect("PaperWithNullValues.json");
    assert!(paper.work.authors.is_empty() && paper.citations.is_empty());

    // A single citation and reference edge, as the edge pages carry them.
    for (file, parse) in [
        (
            "Citation.json",
            parse_citations_page as fn(&str) -> Result<CitationPage, Error>,
        ),
        ("Reference.json", parse_references_page),
    ] {
        let edge = std::fs::read_to_string(data.join("semanticscholar-graph-api/json").join(file))
            .expect("file");
        let page = parse(&format!("{{\"offset\": 0, \"data\": [{edge}]}}")).expect(file);
        assert_eq!(page.works.len(), 1, "{file}");
        assert!(page.works[0].title.is_some());
    }
}

#[test]
fn reads_the_graph_search_pages_recorded_by_litstudy() {
    let Some(data) = testdata() else { return };
    #[derive(Deserialize)]
    struct Recorded {
        url: String,
        content: String,
    }
    let file =
        std::fs::File::open(data.join("import-exports/litstudy/recorded_api_responses.jsonl.gz"))
            .expect("file");
    let mut searched = 0;
    for line in BufReader::new(GzDecoder::new(file)).lines() {
        let recorded: Recorded = serde_json::from_str(&line.expect("line")).expect("record");
        // The legacy v1 `/paper/{id}` routes are not the Graph API: skipped.
        if recorded.url.contains("/graph/v1/paper/search") {
            let page = parse_search_page(&recorded.content).expect("search page");
            assert!(page.total >= 1 && !page.works.is_empty());
            searched += 1;
        }
    }
    assert_eq!(searched, 2);
}
