//! `review --url`: real web pages (a registry package's test data) served on loopback pass the
//! pages gate, are fetched where the site's robots.txt allows, join the review as grey literature (origin `page`, CSL type `webpage`, counted as
//! other sources in PRISMA); an address on this machine or its network is refused with a clear
//! error unless `LITREV_ALLOW_HOSTS` names it.

use std::io::Read;

use litrev_testkit::fulltext::FullTextFiles;
use litrev_testkit::http::{FaultPlan, Server};
use serde_json::Value;

use crate::support::{describe, litrev, newest_run, question, snapshot_source, table, testdata};

/// Serves the FiveThirtyEight article and Mozilla's page as HTML.
fn page_server() -> Option<Server> {
    let folder = litrev_testkit::web_pages()?;
    let mut article = Vec::new();
    flate2::read::GzDecoder::new(
        std::fs::read(folder.join("fivethirtyeight-manchin.html.gz"))
            .expect("page")
            .as_slice(),
    )
    .read_to_end(&mut article)
    .expect("gzip");
    let mozilla = std::fs::read(folder.join("mozilla-firefox-developer.html")).expect("page");
    let files = FullTextFiles::new()
        .file(
            "/features/manchin.html",
            "text/html; charset=utf-8",
            article,
        )
        .file("/firefox/developer/", "text/html", mozilla.clone())
        .file("/private/developer.html", "text/html", mozilla)
        .file(
            "/robots.txt",
            "text/plain",
            b"User-agent: *\nDisallow: /private/\n".to_vec(),
        );
    Some(Server::start(
        move |request| files.reply(request),
        FaultPlan::none(),
    ))
}

#[test]
fn named_pages_pass_the_gate_and_are_cited_as_grey_literature() {
    let Some(data) = testdata() else { return };
    let Some(server) = page_server() else { return };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let (out_text, base) = (out.display().to_string(), server.url());
    let host = base.trim_start_matches("http://").to_owned();
    let source = snapshot_source(&data, "Donners_2021");
    let pages = [
        format!("{base}/features/manchin.html"),
        format!("{base}/firefox/developer/"),
        format!("{base}/private/developer.html"),
    ];
    let question = question(&data, "Donners_2021");
    let allow = [("LITREV_ALLOW_HOSTS", host.as_str())];
    let asked = litrev(
        home.path(),
        &[
            "review", &question, "--source", &source, "--url", &pages[0], "--url", &pages[1],
            "--url", &pages[2], "--out", &out_text,
        ],
        &allow,
    );
    assert_eq!(asked.status.code(), Some(3), "{}", describe(&asked));
    assert!(
        String::from_utf8_lossy(&asked.stdout).contains("pages.csv"),
        "{}",
        describe(&asked)
    );
    let listed = table(&out.join("pages.csv"));
    assert_eq!(listed.len(), 3);
    assert_eq!(listed[0]["host"], host);
    assert_eq!(
        server.requests(),
        0,
        "nothing is fetched before the approval"
    );

    // Resuming approves; later gates (screening, downloads) are approved the same way.
    let run = newest_run(home.path());
    let mut finished = false;
    for _ in 0..3 {
        let resumed = litrev(home.path(), &["resume", &run], &allow);
        if resumed.status.success() {
            finished = true;
            break;
        }
        assert_eq!(resumed.status.code(), Some(3), "{}", describe(&resumed));
    }
    assert!(finished, "the run finished after its gates");

    // Both pages are in the corpus as pages, included by right.
    let corpus = table(&out.join("corpus.csv"));
    let as_pages: Vec<&str> = corpus
        .iter()
        .filter(|row| row["origin"] == "page")
        .map(|row| row["decision"].as_str())
        .collect();
    assert_eq!(as_pages, ["include", "include"], "{corpus:?}");

    // Cited as grey literature: CSL type webpage with the page's URL, in both bibliographies.
    let references: Vec<Value> = serde_json::from_str(
        &std::fs::read_to_string(out.join("references.json")).expect("references.json"),
    )
    .expect("CSL-JSON");
    let webpages: Vec<&Value> = references
        .iter()
        .filter(|reference| reference["type"] == "webpage")
        .collect();
    assert_eq!(webpages.len(), 2, "{references:?}");
    let article = webpages
        .iter()
        .find(|reference| reference["URL"] == pages[0].as_str())
        .expect("the article's reference");
    assert!(
        article["title"]
            .as_str()
            .is_some_and(|title| title.contains("Manchin")),
        "{article}"
    );
    let markdown = std::fs::read_to_string(out.join("review.md")).expect("review.md");
    assert!(
        markdown.contains("Other sources: three web pages named by the user, of which two were"),
        "{markdown}"
    );
    assert!(
        markdown.contains(&format!(
            "Left out: {} (the site's robots.txt does not let litrev fetch it)",
            pages[2]
        )),
        "{markdown}"
    );
    // Each page's full text is the page as fetched when it was named, read from the store.
    let cards: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("study_cards.json")).expect("study_cards.json"),
    )
    .expect("JSON");
    let read_pages: Vec<&str> = cards["works"]
        .as_array()
        .expect("works")
        .iter()
        .filter(|work| work["status"] == "html")
        .filter_map(|work| work["origin"].as_str())
        .collect();
    assert_eq!(read_pages.len(), 2, "{cards:#}");
    assert!(read_pages.contains(&pages[0].as_str()), "{read_pages:?}");
    let prisma = std::fs::read_to_string(out.join("prisma.svg")).expect("prisma.svg");
    assert!(
        prisma.contains("web pages named by the user (n = 2)"),
        "{prisma}"
    );
}

#[test]
fn pages_on_this_machine_or_its_network_are_refused_with_what_to_do() {
    let Some(data) = testdata() else { return };
    let Some(server) = page_server() else { return };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let out_text = out.display().to_string();
    let source = snapshot_source(&data, "Donners_2021");
    for page in [
        format!("{}/features/manchin.html", server.url()),
        "http://169.254.169.254/latest/meta-data/".to_owned(),
        "http://localhost:9/report".to_owned(),
    ] {
        let refused = litrev(
            home.path(),
            &[
                "review",
                "emicizumab",
                "--source",
                &source,
                "--url",
                &page,
                "--yes",
                "--out",
                &out_text,
            ],
            &[],
        );
        assert_eq!(
            refused.status.code(),
            Some(1),
            "{page}: {}",
            describe(&refused)
        );
        let stderr = String::from_utf8_lossy(&refused.stderr);
        assert!(
            stderr.contains("may not be fetched") && stderr.contains("LITREV_ALLOW_HOSTS"),
            "{page}: {stderr}"
        );
    }
    assert_eq!(server.requests(), 0, "the guard refused before connecting");
    let not_web = litrev(
        home.path(),
        &[
            "review",
            "emicizumab",
            "--source",
            &source,
            "--url",
            "ftp://example.org/x",
            "--yes",
        ],
        &[],
    );
    assert_eq!(not_web.status.code(), Some(1), "{}", describe(&not_web));
    assert!(
        String::from_utf8_lossy(&not_web.stderr).contains("is not a web address"),
        "{}",
        describe(&not_web)
    );
}
