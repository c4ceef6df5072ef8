//! The Crossref parsers on every recorded response in the shared data.
//!
//! The habanero cassettes are read from their YAML originals: the flattened
//! `habanero_interactions.jsonl.gz` lost the bytes of the gzipped bodies (71 of 145) when they
//! were decoded as text, while the YAML keeps them as base64 `!!binary`.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use base64::Engine;
use flate2::read::GzDecoder;
use litrev_model::WorkKind;
use litrev_testkit::testdata;
use serde::Deserialize;
use yaml_rust2::{Yaml, YamlLoader};

use super::*;

/// One recorded exchange.
#[derive(Debug)]
struct Recorded {
    cassette: String,
    uri: String,
    status: u16,
    body: String,
}

/// The body text of a cassette response: gzipped `!!binary` bodies are base64 of gzip bytes.
fn body_text(yaml: &Yaml) -> String {
    let text = yaml.as_str().unwrap_or_default();
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let gzipped = base64::engine::general_purpose::STANDARD
        .decode(compact.as_bytes())
        .ok()
        .filter(|bytes| bytes.starts_with(&[0x1f, 0x8b]));
    match gzipped {
        Some(bytes) => {
            let mut out = String::new();
            GzDecoder::new(bytes.as_slice())
                .read_to_string(&mut out)
                .expect("gzipped body");
            out
        }
        None => text.to_owned(),
    }
}

fn habanero_cassettes(path: &Path) -> Vec<Recorded> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut archive = tar::Archive::new(GzDecoder::new(file));
    let mut recorded = Vec::new();
    for entry in archive.entries().expect("tar entries") {
        let mut entry = entry.expect("tar entry");
        let name = entry.path().expect("entry path").display().to_string();
        if !name.ends_with(".yaml") {
            continue;
        }
        let mut text = String::new();
        entry.read_to_string(&mut text).expect("yaml text");
        let documents = YamlLoader::load_from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let interactions = documents
            .first()
            .and_then(|document| document["interactions"].as_vec())
            .unwrap_or_else(|| panic!("{name} has no interactions"));
        for interaction in interactions {
            let response = &interaction["response"];
            recorded.push(Recorded {
                cassette: name.clone(),
                uri: interaction["request"]["uri"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                status: response["status"]["code"]
                    .as_i64()
                    .and_then(|code| u16::try_from(code).ok())
                    .unwrap_or(0),
                body: body_text(&response["body"]["string"]),
            });
        }
    }
    recorded.sort_by(|a, b| (&a.cassette, &a.uri).cmp(&(&b.cassette, &b.uri)));
    recorded
}

/// What a recorded request asked Crossref for.
#[derive(Debug, PartialEq, Eq)]
enum Route {
    /// `/works?…`.
    WorksList,
    /// `/works/{doi}`.
    Work,
    /// `/members/98/works`, `/journals/{issn}/works`…: work lists under another route.
    OtherWorksList,
    /// Not a work answer: doi.org content negotiation, `/transform`, `/agency`, and the
    /// members, journals, funders, prefixes, types and licenses routes themselves.
    NotWorks,
}

fn route(uri: &str) -> Route {
    let Some(path) = uri
        .strip_prefix("https://api.crossref.org/")
        .or_else(|| uri.strip_prefix("http://api.crossref.org/"))
    else {
        return Route::NotWorks;
    };
    let path = path
        .split('?')
        .next()
        .unwrap_or("")
        .trim_start_matches("v1/");
    let path = path.trim_end_matches('/');
    if path.contains("/transform") || path.ends_with("/agency") {
        Route::NotWorks
    } else if path == "works" {
        Route::WorksList
    } else if path.starts_with("works/") {
        Route::Work
    } else if path.ends_with("/works") {
        Route::OtherWorksList
    } else {
        Route::NotWorks
    }
}

#[test]
fn parses_every_recorded_habanero_works_response() {
    let Some(data) = testdata() else { return };
    let recorded =
        habanero_cassettes(&data.join("crossref-rest-api/habanero_cassettes_vcr_yaml.tar.gz"));
    assert_eq!(recorded.len(), 145, "SOURCE.md lists 145 interactions");

    let (mut lists, mut singles, mut other_lists, mut skipped) = (0, 0, 0, 0);
    let (mut not_found, mut bad_requests) = (0, 0);
    let mut listed = 0;
    let mut cursor_pages = 0;
    for interaction in &recorded {
        let route = route(&interaction.uri);
        let body = interaction.body.as_str();
        if route == Route::NotWorks && !interaction.uri.contains("api.crossref.org") {
            skipped += 1;
            continue;
        }
        if interaction.status >= 400 {
            // Every api.crossref.org error, whatever the route, is an error body of one API.
            let error = parse_error(interaction.status, body);
            match interaction.status {
                404 => {
                    assert!(error.is_not_found(), "{}: {error}", interaction.uri);
                    not_found += 1;
                }
                400 => {
                    assert!(error.is_bad_request(), "{}: {error}", interaction.uri);
                    bad_requests += 1;
                }
                other => panic!("unexpected status {other}"),
            }
            // The parsers refuse the same body as an API error too.
            assert!(
                matches!(parse_work(body), Err(Error::Api { .. })),
                "{}: {body}",
                interaction.uri
            );
            continue;
        }
        match route {
            Route::Work => {
                let work = parse_work(body).unwrap_or_else(|e| panic!("{}: {e}", interaction.uri));
                let asked = interaction
                    .uri
                    .trim_start_matches("https://api.crossref.org/works/");
                assert_eq!(
                    work.ids.doi.as_ref().map(|doi| doi.as_str()),
                    Some(asked.to_lowercase().as_str())
                );
                assert!(work.title.is_some());
                // 10.1109/icdcsw.2003.1203662 has `issued: [[null]]` and no other date.
                assert_eq!(work.year.is_none(), asked == "10.1109/icdcsw.2003.1203662");
                if asked == "10.1136/jclinpath-2020-206745" {
                    assert_eq!(
                        work.title.as_deref(),
                        Some(
                            "Construction of a reference material panel for detecting KRAS / NRAS / EGFR / BRAF / MET mutations in plasma ctDNA"
                        )
                    );
                }
                if asked == "10.1371/journal.pone.0033693" {
                    assert_eq!(work.cited_by_count, Some(72));
                    assert_eq!(
                        work.references.len(),
                        65,
                        "65 of the 70 references carry a DOI"
                    );
                    assert_eq!(work.venue.as_deref(), Some("PLoS ONE"));
                    assert_eq!(work.kind, WorkKind::Article);
                    assert!(work.oa_url.is_some(), "CC BY from day one");
                }
                singles += 1;
            }
            Route::WorksList | Route::OtherWorksList => {
                let page = parse_works(body).unwrap_or_else(|e| panic!("{}: {e}", interaction.uri));
                assert_eq!(page.skipped, 0, "{}", interaction.uri);
                if interaction.uri.contains("cursor=") {
                    assert!(page.next_cursor.is_some(), "{}", interaction.uri);
                    cursor_pages += 1;
                }
                listed += page.works.len();
                if route == Route::WorksList {
                    lists += 1;
                } else {
                    other_lists += 1;
                }
            }
            Route::NotWorks => skipped += 1,
        }
    }
    assert_eq!(
        (
            lists,
            singles,
            other_lists,
            not_found,
            bad_requests,
            skipped
        ),
        (16, 13, 28, 24, 17, 47),
        "/works lists, /works/{{doi}}, other routes' work lists, 404s, 400s, skipped"
    );
    assert_eq!(listed, 630);
    assert_eq!(
        cursor_pages, 10,
        "cursor=* and next-cursor pages of widget and member 98"
    );
}

/// The flattened cassettes agree with the YAML wherever their bodies survived.
#[test]
fn the_flattened_habanero_cassettes_match_the_yaml() {
    let Some(data) = testdata() else { return };
    #[derive(Deserialize)]
    struct Flat {
        uri: String,
        status: u16,
        body: String,
    }
    let file = std::fs::File::open(data.join("crossref-rest-api/habanero_interactions.jsonl.gz"))
        .expect("file");
    let flat: Vec<Flat> = BufReader::new(GzDecoder::new(file))
        .lines()
        .map(|line| serde_json::from_str(&line.expect("line")).expect("interaction"))
        .collect();
    let yaml =
        habanero_cassettes(&data.join("crossref-rest-api/habanero_cassettes_vcr_yaml.tar.gz"));
    let readable: Vec<&Flat> = flat
        .iter()
        .filter(|f| !f.body.starts_with('\u{1f}'))
        .collect();
    assert_eq!(readable.len(), 74);
    for interaction in readable {
        assert!(
            yaml.iter().any(|y| y.uri == interaction.uri
                && y.status == interaction.status
                && y.body == interaction.body),
            "{}",
            interaction.uri
        );
    }
}

#[test]
fn parses_the_other_recorded_crossref_works() {
    let Some(data) = testdata() else { return };
    #[derive(Deserialize)]
    struct Interaction {
        uri: String,
        body: String,
    }
    let file =
        std::fs::File::open(data.join("commonmeta-recorded/interactions.jsonl.gz")).expect("file");
    let (mut singles, mut lists, mut skipped) = (0, 0, 0);
    for line in BufReader::new(GzDecoder::new(file)).lines() {
        let interaction: Interaction = serde_json::from_str(&line.expect("line")).expect("json");
        match route(&interaction.uri) {
            Route::Work => {
                let work = parse_work(&interaction.body).expect("work");
                assert!(work.title.is_some(), "{}", interaction.uri);
                if interaction.uri.ends_with("10.7554/elife.01567") {
                    assert_eq!(work.venue.as_deref(), Some("eLife"));
                    assert!(work.abstract_text.is_some());
                    assert!(!work.references.is_empty());
                }
                singles += 1;
            }
            Route::WorksList => {
                let page = parse_works(&interaction.body).expect("list");
                assert!(!page.works.is_empty() && page.skipped == 0);
                lists += 1;
            }
            // The unixsd XML of `/transform` is Crossref's deposit format, not the REST JSON.
            Route::NotWorks if interaction.uri.contains("api.crossref.org") => skipped += 1,
            _ => {}
        }
    }
    assert_eq!(
        (singles, lists, skipped),
        (3, 3, 1),
        "commonmeta's 7 Crossref works responses"
    );

    // The fixtures are bare `message` objects, without the envelope.
    let fixtures = data.join("commonmeta-recorded/fixtures");
    let single = std::fs::read_to_string(fixtures.join("crossref.json")).expect("file");
    assert!(parse_work(&single).is_ok_and(|work| work.title.is_some()));
    let list = std::fs::read_to_string(fixtures.join("crossref-list.json")).expect("file");
    assert!(parse_works(&list).is_ok_and(|page| !page.works.is_empty()));

    #[derive(Deserialize)]
    struct Litstudy {
        url: String,
        content: String,
    }
    let file =
        std::fs::File::open(data.join("import-exports/litstudy/recorded_api_responses.jsonl.gz"))
            .expect("file");
    let mut litstudy = 0;
    for line in BufReader::new(GzDecoder::new(file)).lines() {
        let recorded: Litstudy = serde_json::from_str(&line.expect("line")).expect("json");
        if let Some(rest) = recorded.url.strip_prefix("https://api.crossref.org/works/") {
            if rest.starts_with('?') {
                assert!(parse_works(&recorded.content).is_ok(), "{}", recorded.url);
            } else {
                assert!(parse_work(&recorded.content).is_ok(), "{}", recorded.url);
            }
            litstudy += 1;
        }
    }
    assert_eq!(litstudy, 5);
}
