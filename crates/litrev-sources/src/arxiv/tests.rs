//! The arXiv feed parser on every recorded response in the shared data (2026 and 2016 feeds).

use litrev_model::WorkKind;
use litrev_testkit::testdata;
use serde::Deserialize;

use super::*;

/// A recorded 2026 response: `{"url", "status_code", "body"}`.
#[derive(Debug, Deserialize)]
struct Recorded {
    url: String,
    status_code: u16,
    body: String,
}

fn files(folder: &std::path::Path, extension: &str) -> Vec<std::path::PathBuf> {
    let mut paths: Vec<_> = std::fs::read_dir(folder)
        .expect("folder")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == extension))
        .collect();
    paths.sort();
    paths
}

/// `start=` and `max_results=` of a recorded request URL.
fn paging(url: &str) -> (u64, usize) {
    let value = |key: &str| {
        url.split(['?', '&'])
            .find_map(|pair| pair.strip_prefix(key))
            .and_then(|value| value.parse::<u64>().ok())
            .unwrap_or(0)
    };
    let max = usize::try_from(value("max_results=")).unwrap_or(0);
    (value("start="), max)
}

#[test]
fn parses_every_recorded_2026_response() {
    let Some(data) = testdata() else { return };
    let paths = files(&data.join("arxiv-atom/recorded_2026"), "json");
    assert_eq!(paths.len(), 20);
    let (mut feeds, mut works, mut errors) = (0, 0, 0);
    for path in &paths {
        let recorded: Recorded =
            serde_json::from_str(&std::fs::read_to_string(path).expect("file")).expect("json");
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or("");
        let parsed = parse_feed(&recorded.body);
        if recorded.status_code != 200 {
            assert_eq!(
                parsed,
                Err(Error::Api {
                    id: "https://arxiv.org/api/errors#incorrect_id_format_for_abc".to_owned(),
                    message: "incorrect id format for abc".to_owned(),
                }),
                "{name}"
            );
            errors += 1;
            continue;
        }
        let page = parsed.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(page.skipped, 0, "{name}");
        if name.starts_with("q_testing") {
            let (start, max) = paging(&recorded.url);
            assert_eq!(page.total_results, 214_881, "{name}");
            assert_eq!(page.start_index, start, "{name}");
            assert_eq!(page.works.len(), max, "{name}");
            assert!(page.works.iter().all(|work| {
                work.title.is_some() && work.abstract_text.is_some() && !work.authors.is_empty()
            }));
            // A DOI or journal reference marks a published version; the rest are preprints.
            assert!(
                page.works
                    .iter()
                    .all(|work| (work.kind == WorkKind::Preprint)
                        == (work.ids.doi.is_none() && work.venue.as_deref() == Some("arXiv")))
            );
        }
        match name.split('_').nth(1).unwrap_or("") {
            "0000.0000" | "0808.05394" if !name.contains("1707.08567") => {
                assert_eq!((page.total_results, page.works.len()), (0, 0), "{name}");
            }
            "1707.08567" | "0808.05394" => {
                let work = &page.works[0];
                assert_eq!(
                    work.ids.arxiv.as_ref().map(|id| id.as_str()),
                    Some("1707.08567")
                );
                assert_eq!(work.authors.len(), 34);
                assert_eq!(work.date.as_deref(), Some("2017-07-27"));
                assert_eq!(work.keywords, vec!["cs.IT".to_owned()]);
                assert_eq!(
                    work.oa_url.as_deref(),
                    Some("https://arxiv.org/pdf/1707.08567v1")
                );
            }
            "2104.12255v1" => {
                assert_eq!(
                    page.works[0].ids.arxiv.as_ref().map(|id| id.as_str()),
                    Some("2104.12255"),
                    "the version is stripped from the id"
                );
            }
            "astro-ph" => {
                let work = &page.works[0];
                assert_eq!(
                    work.ids.arxiv.as_ref().map(|id| id.as_str()),
                    Some("astro-ph/0601001")
                );
                assert_eq!(work.venue.as_deref(), Some("ActaAstron.56:1-50,2006"));
                assert_eq!(work.kind, WorkKind::Article);
                assert_eq!(work.year, Some(2006));
            }
            _ => {}
        }
        feeds += 1;
        works += page.works.len();
    }
    assert_eq!(
        (feeds, errors, works),
        (19, 1, 6 + 100 + 10 * 7 + 15 * 3),
        "19 feeds and the HTTP 400 error feed"
    );
}

#[test]
fn parses_the_2016_feeds() {
    let Some(data) = testdata() else { return };
    let paths = files(&data.join("arxiv-atom/raw_atom"), "xml");
    let mut counts = Vec::new();
    for path in &paths {
        let xml = std::fs::read_to_string(path).expect("file");
        let page = parse_feed(&xml).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(page.skipped, 0);
        let name = path
            .file_stem()
            .and_then(|name| name.to_str())
            .unwrap_or("")
            .to_owned();
        if name == "id_list_1111.2011v2" {
            let work = &page.works[0];
            assert_eq!(
                work.ids.arxiv.as_ref().map(|id| id.as_str()),
                Some("1111.2011")
            );
            assert_eq!(
                work.ids.doi.as_ref().map(|id| id.as_str()),
                Some("10.1103/physrevb.85.115117")
            );
            assert_eq!(
                work.title.as_deref(),
                Some(
                    "Quantum Criticality for Extended Nodes on a Bethe Lattice in the Large Connectivity Limit"
                )
            );
            assert_eq!(work.authors.len(), 3);
            assert_eq!(work.kind, WorkKind::Article);
            assert!(work.abstract_text.as_deref().is_some_and(|text| {
                text.starts_with("Theoretical description") && !text.contains('\n')
            }));
        }
        if name == "search_au_del_maestro" {
            assert_eq!(page.total_results, 31);
        }
        counts.push((name, page.works.len()));
    }
    let counts: Vec<usize> = counts.iter().map(|(_, count)| *count).collect();
    assert_eq!(
        counts,
        vec![1, 10, 10, 1, 2],
        "entries per 2016 feed, in file-name order"
    );
}
