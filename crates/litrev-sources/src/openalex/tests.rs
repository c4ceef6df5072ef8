//! The OpenAlex parsers on the current-schema responses in the shared data: single works,
//! list pages, error bodies and the rate-limit status.

use std::io::{BufRead, BufReader};
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
    status: u16,
    body: String,
}

fn lines(path: &Path) -> Vec<String> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    BufReader::new(GzDecoder::new(file))
        .lines()
        .map(|line| line.expect("line"))
        .collect()
}

fn interactions(path: &Path) -> Vec<Interaction> {
    lines(path)
        .iter()
        .map(|line| serde_json::from_str(line).expect("interaction"))
        .collect()
}

#[test]
fn reads_the_june_2025_work_entity() {
    let Some(data) = testdata() else { return };
    let json = std::fs::read_to_string(data.join("openalex-entities-2025/W2741809807.json"))
        .expect("file");
    let work = parse_work(&json).expect("W2741809807");
    assert_eq!(
        work.ids.openalex.as_ref().map(|id| id.as_str()),
        Some("W2741809807")
    );
    assert_eq!(
        work.ids.doi.as_ref().map(|id| id.as_str()),
        Some("10.7717/peerj.4375")
    );
    assert_eq!(
        work.ids.pmid.as_ref().map(|id| id.as_str()),
        Some("29456894")
    );
    assert_eq!(
        work.ids.pmcid.as_ref().map(|id| id.as_str()),
        Some("PMC5815332")
    );
    assert_eq!(
        work.title.as_deref(),
        Some(
            "The state of OA: a large-scale analysis of the prevalence and impact of Open Access articles"
        )
    );
    assert_eq!(work.year, Some(2018));
    assert_eq!(work.kind, WorkKind::Article);
    assert_eq!(work.references.len(), 45);
    assert_eq!(work.cited_by_count, Some(962));
    assert_eq!(work.venue.as_deref(), Some("PeerJ"));
    assert!(!work.authors.is_empty() && !work.keywords.is_empty());
    assert!(
        work.abstract_text
            .as_deref()
            .is_some_and(|text| text.len() > 500)
    );
    assert!(work.oa_url.is_some());
}

#[test]
fn reads_the_commonmeta_openalex_responses() {
    let Some(data) = testdata() else { return };
    let recorded = interactions(&data.join("commonmeta-recorded/interactions.jsonl.gz"));
    let (mut single, mut titled, mut listed, mut lists) = (0, 0, 0, 0);
    for interaction in recorded
        .iter()
        .filter(|interaction| interaction.uri.starts_with("https://api.openalex.org/"))
    {
        assert_eq!(interaction.status, 200);
        if interaction.uri.contains("/works?") {
            let page = parse_page(&interaction.body)
                .unwrap_or_else(|e| panic!("{}: {e}", interaction.uri));
            assert_eq!(page.skipped, 0);
            assert_eq!(
                page.works.len() as u64,
                page.count,
                "sample=N lists N works"
            );
            listed += page.works.len();
            lists += 1;
        } else {
            let work = parse_work(&interaction.body)
                .unwrap_or_else(|e| panic!("{}: {e}", interaction.uri));
            // Every single-work request was by DOI, and the work carries it.
            let doi = interaction
                .uri
                .trim_start_matches("https://api.openalex.org/works/https://doi.org/");
            let doi = doi.replace("%5B", "[").replace("%5D", "]").to_lowercase();
            assert_eq!(
                work.ids.doi.as_ref().map(|id| id.as_str()),
                Some(doi.as_str()),
                "{}",
                interaction.cassette
            );
            titled += usize::from(work.title.is_some());
            let wire_type = serde_json::from_str::<serde_json::Value>(&interaction.body)
                .ok()
                .and_then(|value| value["type"].as_str().map(str::to_owned))
                .unwrap_or_default();
            let expected = match wire_type.as_str() {
                "article" => WorkKind::Article,
                "book" => WorkKind::Book,
                "book-chapter" => WorkKind::BookChapter,
                "conference-paper" => WorkKind::ProceedingsArticle,
                "dataset" => WorkKind::Dataset,
                "dissertation" => WorkKind::Thesis,
                "preprint" => WorkKind::Preprint,
                _ => WorkKind::Other,
            };
            assert_eq!(
                work.kind, expected,
                "{} ({wire_type})",
                interaction.cassette
            );
            single += 1;
        }
    }
    assert_eq!(
        (single, lists, listed),
        (28, 2, 6),
        "30 OpenAlex responses: 28 works and the sample=1 and sample=5 lists"
    );
    assert_eq!(
        titled, 27,
        "10.7600/jspfsm.56.60 has an empty title upstream"
    );
}

#[test]
fn reads_the_openalexpro_recordings() {
    let Some(data) = testdata() else { return };
    let folder = data.join("openalex-recorded-openalexPro");
    let recorded = interactions(&folder.join("interactions.jsonl.gz"));
    assert_eq!(recorded.len(), 27);
    let (mut pages, mut works, mut errors, mut not_errors) = (0, 0, 0, 0);
    for interaction in &recorded {
        let body = interaction.body.as_str();
        if interaction.status != 200 {
            let error = parse_error(body).unwrap_or_else(|| panic!("{}: {body}", interaction.uri));
            match interaction.status {
                400 => assert!(error.message.contains("DOESNTEXIST"), "{error}"),
                401 => assert_eq!(error.message, "API key not found"),
                other => panic!("unexpected status {other}"),
            }
            assert!(parse_page(body).is_err());
            errors += 1;
            continue;
        }
        assert_eq!(
            parse_error(body),
            None,
            "{} is not an error",
            interaction.uri
        );
        not_errors += 1;
        if interaction.uri.contains("/rate-limit") {
            assert!(
                parse_page(body).is_err(),
                "the rate-limit status is not a page"
            );
        } else if interaction.uri.contains("/works?") {
            let page = parse_page(body).unwrap_or_else(|e| panic!("{}: {e}", interaction.uri));
            assert_eq!(page.skipped, 0);
            if interaction.uri.contains("cited_by%3A") && interaction.uri.contains("cursor=%2A") {
                assert_eq!(
                    (page.count, page.works.len()),
                    (38, 38),
                    "backward snowball"
                );
                assert!(page.next_cursor.is_some());
            }
            if interaction.uri.contains("filter=cites%3A") && interaction.uri.contains("cursor=%2A")
            {
                assert_eq!((page.count, page.works.len()), (5, 5), "forward snowball");
            }
            if interaction.uri.contains("biodiversity+AND+finance") && page.works.len() > 1 {
                assert_eq!((page.count, page.works.len()), (429, 200));
            }
            if interaction.uri.contains("group_by=type") {
                assert!(page.works.is_empty() && page.count == 145_616);
            }
            pages += 1;
            works += page.works.len();
        } else {
            let work = parse_work(body).unwrap_or_else(|e| panic!("{}: {e}", interaction.uri));
            assert!(work.ids.doi.is_some(), "{}", interaction.uri);
            works += 1;
        }
    }
    assert_eq!(
        (pages, errors, not_errors),
        (15, 9, 18),
        "15 list pages, 2 single works and the rate-limit status; 8 × 400 and 1 × 401"
    );
    assert_eq!(
        works, 457,
        "works in the 15 pages and the 2 single responses"
    );

    let snapshots = lines(&folder.join("works_008_parallel_snapshots.jsonl.gz"));
    let parsed = snapshots
        .iter()
        .filter(|line| parse_work(line).is_ok())
        .count();
    assert_eq!((snapshots.len(), parsed), (175, 175));

    let keypapers =
        std::fs::read_to_string(folder.join("keypaper_results_page_1.json")).expect("file");
    let page = parse_page(&keypapers).expect("keypaper page");
    assert_eq!((page.count, page.works.len()), (2, 2));
    assert!(page.next_cursor.is_some());
}

/// A real Author entity read as an expert: of a topic it lists (`topics[].count` works), and
/// of a concept (`x_concepts[].score`, the share of its works), with its h-index, citations
/// and works since a year; an author without any asked topic is no expert of it.
#[test]
fn reads_the_june_2025_author_entity_as_an_expert() {
    let Some(data) = testdata() else { return };
    let json = std::fs::read_to_string(data.join("openalex-entities-2025/A5023888391.json"))
        .expect("file");
    let record: serde_json::Value = serde_json::from_str(&json).expect("json");
    let topic = |id: &str, name: &str| litrev_model::Topic {
        id: id.to_owned(),
        name: name.to_owned(),
    };
    let asked = [
        topic("T11937", "Research data"),
        topic("T10102", "Scientometrics"),
    ];
    let expert = expert_from_json(record.clone(), &asked, 2024).expect("an expert");
    assert_eq!(expert.id, "A5023888391");
    assert_eq!(expert.name, record["display_name"].as_str().expect("name"));
    assert_eq!(expert.topic, asked[1], "the topic with the most works");
    assert_eq!(expert.works_in_topic, 23);
    assert_eq!(expert.h_index, Some(17));
    assert_eq!(
        u64::from(expert.cited_by_count),
        record["cited_by_count"].as_u64().expect("cited")
    );
    let since_2024: u64 = record["counts_by_year"]
        .as_array()
        .expect("years")
        .iter()
        .filter(|year| year["year"].as_i64() >= Some(2024))
        .map(|year| year["works_count"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(u64::from(expert.recent_works), since_2024);

    let concept = [topic("C41008148", "Computer science")];
    let by_concept = expert_from_json(record.clone(), &concept, 2024).expect("by concept");
    let works = record["works_count"].as_f64().expect("works");
    assert_eq!(
        f64::from(by_concept.works_in_topic),
        (works * 0.952).round(),
        "95.2 % of the author's works"
    );
    assert!(expert_from_json(record, &[topic("T1", "Astrology")], 2024).is_none());
    let page = format!(r#"{{"meta":{{"count":1}},"results":[{json}, {{"id":null}}]}}"#);
    assert_eq!(
        parse_author_page(&page, &asked, 2024).expect("page"),
        vec![expert]
    );
}
