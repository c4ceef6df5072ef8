//! The full-text reader on real texts: the eight PMC JATS articles of the shared data, and the
//! PDFs pandoc and Chromium print from them (`scripts/make-test-pdfs.sh`).

use std::collections::BTreeSet;

use litrev_fulltext::{Copies, FulltextConfig, Library, PdfLimits, acquire, read_file};
use litrev_model::{
    MissingText, SectionRole, TextFormat, TextStatus, Work, WorkId, WorkIds, normalise_title,
};

fn words(text: &str) -> BTreeSet<String> {
    normalise_title(text)
        .split(' ')
        .filter(|word| word.len() > 3)
        .map(str::to_owned)
        .collect()
}

#[test]
fn pdfs_printed_from_jats_read_back_with_their_sections_and_pages() {
    let (Some(data), Some(pdfs)) = (litrev_testkit::testdata(), litrev_testkit::test_pdfs()) else {
        return;
    };
    let jats_dir = data.join("pmc-jats-and-medline/pmc_oa_nxml");
    let mut checked = 0;
    for entry in std::fs::read_dir(&jats_dir).expect("the JATS folder lists") {
        let path = entry.expect("an entry").path();
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .and_then(|name| name.strip_suffix(".nxml.gz"))
            .expect("a .nxml.gz name")
            .to_owned();
        let (_, jats) = read_file(&path, PdfLimits::default()).expect("the JATS reads");
        let (bytes, pdf) = read_file(&pdfs.join(format!("{name}.pdf")), PdfLimits::default())
            .expect("the PDF reads");
        assert!(bytes.starts_with(b"%PDF"));
        assert_eq!(pdf.format, TextFormat::Pdf);
        // Every section knows its page, pages ascend, and there are several.
        let pages: Vec<u32> = pdf
            .sections
            .iter()
            .map(|s| s.page.expect("a page"))
            .collect();
        assert!(
            pages.windows(2).all(|pair| pair[0] <= pair[1]),
            "{name}: {pages:?}"
        );
        assert!(pages.last().copied().unwrap_or(0) >= 5, "{name}: {pages:?}");
        // The body's words are found in the PDF (the reader loses little).
        let body: String = jats.paragraphs().map(|(_, _, p)| format!("{p} ")).collect();
        let printed: String = pdf.paragraphs().map(|(_, _, p)| format!("{p} ")).collect();
        let (body, printed) = (words(&body), words(&printed));
        let found = body.intersection(&printed).count() as f64 / body.len() as f64;
        assert!(
            found > 0.9,
            "{name}: only {found:.3} of the body's words are in the PDF"
        );
        // Headings are recognised where the JATS has them as top-level roles.
        let roles = |text: &litrev_model::FullText| -> BTreeSet<SectionRole> {
            text.sections.iter().map(|section| section.role).collect()
        };
        for role in [
            SectionRole::Methods,
            SectionRole::Results,
            SectionRole::Discussion,
        ] {
            let in_jats = jats
                .sections
                .iter()
                .any(|section| section.role == role && section.depth == 1);
            if in_jats {
                assert!(
                    roles(&pdf).contains(&role),
                    "{name}: no {role:?} heading found"
                );
            }
        }
        // Each pinpoint of a PDF span is a page.
        let (section, paragraph, text) = pdf.paragraphs().next().expect("a paragraph");
        let locator = litrev_model::Locator {
            section,
            paragraph,
            start: 0,
            end: text.len(),
        };
        assert!(pdf.pinpoint(&locator).starts_with("p. "));
        checked += 1;
    }
    assert_eq!(checked, 8);
}

#[test]
fn local_files_are_matched_to_works_by_id_else_by_title() {
    let (Some(data), Some(pdfs)) = (litrev_testkit::testdata(), litrev_testkit::test_pdfs()) else {
        return;
    };
    let jats_dir = data.join("pmc-jats-and-medline/pmc_oa_nxml");
    let library = Library::scan(std::slice::from_ref(&jats_dir), PdfLimits::default())
        .expect("the folder scans");
    assert_eq!(library.files.len(), 8, "{:?}", library.problems);
    // Works known by their DOI only find their JATS; works known by their title only find
    // the PDF printed from it.
    let mut works_by_id = Vec::new();
    let mut works_by_title = Vec::new();
    for file in &library.files {
        let (_, text) = read_file(&file.path, PdfLimits::default()).expect("reads");
        let doi = file
            .ids
            .doi
            .clone()
            .expect("each PMC article gives its DOI");
        works_by_id.push(Work {
            ids: WorkIds {
                doi: Some(doi),
                ..WorkIds::default()
            },
            title: Some("Unrelated".into()),
            ..Work::stub(WorkId::Pmid("1".parse().expect("a pmid")))
        });
        works_by_title.push(Work {
            ids: WorkIds {
                openalex: Some("W1".parse().expect("an OpenAlex id")),
                ..WorkIds::default()
            },
            title: text.title.clone(),
            ..Work::stub(WorkId::OpenAlex("W1".parse().expect("an OpenAlex id")))
        });
    }
    let config = FulltextConfig {
        dirs: vec![jats_dir.clone()],
        ..FulltextConfig::default()
    };
    let acquired = acquire(
        &config,
        &scanned(&config),
        &works_by_id,
        &Copies::fetched_by(None),
    )
    .expect("acquires");
    assert!(
        acquired
            .iter()
            .all(|a| a.retrieval.status == TextStatus::Jats)
    );
    let shas: BTreeSet<_> = acquired
        .iter()
        .filter_map(|a| a.retrieval.sha256.clone())
        .collect();
    assert_eq!(shas.len(), 8, "each text its own sha256");
    let config = FulltextConfig {
        dirs: vec![pdfs.clone()],
        ..FulltextConfig::default()
    };
    let acquired = acquire(
        &config,
        &scanned(&config),
        &works_by_title,
        &Copies::fetched_by(None),
    )
    .expect("acquires");
    let statuses: Vec<TextStatus> = acquired.iter().map(|a| a.retrieval.status).collect();
    assert_eq!(statuses, vec![TextStatus::Pdf; 8], "{acquired:#?}");
    // A work that is nowhere is abstract only, for want of a copy.
    let nowhere = Work {
        title: Some("A study of nothing in particular at all".into()),
        ..Work::stub(WorkId::Pmid("2".parse().expect("a pmid")))
    };
    let acquired = acquire(
        &config,
        &scanned(&config),
        &[nowhere],
        &Copies::fetched_by(None),
    )
    .expect("acquires");
    assert_eq!(acquired[0].retrieval.missing, Some(MissingText::NoCopy));
    // A folder that is not there is an error naming the flag.
    let error = Library::scan(&[pdfs.join("no-such-folder")], PdfLimits::default())
        .expect_err("a missing folder is an error");
    assert!(error.to_string().contains("--fulltext-dir"), "{error}");
}

#[test]
fn open_access_copies_are_downloaded_within_the_budget_jats_first() {
    let (Some(data), Some(pdfs)) = (litrev_testkit::testdata(), litrev_testkit::test_pdfs()) else {
        return;
    };
    use litrev_testkit::fulltext::FullTextFiles;
    use litrev_testkit::http::{FaultPlan, Server};
    let files = FullTextFiles::new()
        .folder(&data.join("pmc-jats-and-medline/pmc_oa_nxml"))
        .and_then(|files| files.folder(&pdfs))
        .expect("the test files load")
        .file(
            "/files/landing.html",
            "text/html",
            b"<html>a landing page</html>".to_vec(),
        )
        .file(
            "/files/broken.pdf",
            "application/pdf",
            b"%PDF-1.7 cut".to_vec(),
        );
    assert!(
        files
            .paths()
            .any(|path| path == "/epmc/PMC1790863/fullTextXML")
    );
    // The same downloads from a clean host and from one that fails three requests in ten
    // (429s, 5xx, resets, truncated bodies, slow answers) come to the same texts.
    let mut requests = Vec::new();
    for faults in [FaultPlan::none(), FaultPlan::mixed(0.3, 5)] {
        let served = files.clone();
        let server = Server::start(move |request| served.reply(request), faults);
        check_downloads(&server.url());
        requests.push(server.requests());
    }
    assert!(
        requests[1] > requests[0],
        "no fault was retried: {requests:?}"
    );
}

/// Downloads seven works' copies from the stand-in at `base` and checks what each came to.
fn check_downloads(base: &str) {
    use litrev_fulltext::{DownloadLimits, Downloader, RemoteBases};
    use std::time::Duration;
    let work = |n: u32, pmcid: Option<&str>, oa: Option<&str>| Work {
        ids: WorkIds {
            openalex: Some(format!("W{n}").parse().expect("an OpenAlex id")),
            pmcid: pmcid.map(|id| id.parse().expect("a PMCID")),
            ..WorkIds::default()
        },
        title: Some(format!("Work number {n} of a test set")),
        oa_url: oa.map(|path| format!("{base}{path}")),
        ..Work::stub(WorkId::OpenAlex(
            format!("W{n}").parse().expect("an OpenAlex id"),
        ))
    };
    let works = vec![
        // JATS from Europe PMC is tried before the record's own link.
        work(1, Some("PMC1790863"), Some("/files/landing.html")),
        work(2, None, Some("/files/mds526.pdf")),
        work(3, None, Some("/files/landing.html")),
        work(4, None, Some("/files/broken.pdf")),
        work(5, None, Some("/files/missing.pdf")),
        work(6, None, None),
        work(7, None, Some("/files/mds526.pdf")),
    ];
    let config = FulltextConfig {
        max_downloads: 5,
        bases: RemoteBases {
            europe_pmc: format!("{base}/epmc"),
            arxiv: format!("{base}/arxiv"),
        },
        ..FulltextConfig::default()
    };
    // The local server is on loopback: only a downloader told so may reach it.
    let local = Downloader::new(
        DownloadLimits {
            allow_private: true,
            max_retries: 8,
            backoff_base: Duration::from_millis(5),
            backoff_max: Duration::from_millis(50),
            per_host_per_second: 0,
            ..DownloadLimits::default()
        },
        "litrev-test",
    )
    .expect("a downloader");
    let acquired = acquire(
        &config,
        &scanned(&config),
        &works,
        &Copies::fetched_by(Some(&local)),
    )
    .expect("acquires");
    let outcome: Vec<(TextStatus, Option<MissingText>)> = acquired
        .iter()
        .map(|a| (a.retrieval.status, a.retrieval.missing))
        .collect();
    assert_eq!(
        outcome,
        vec![
            (TextStatus::Jats, None),
            (TextStatus::Pdf, None),
            (TextStatus::AbstractOnly, Some(MissingText::DownloadFailed)),
            (TextStatus::AbstractOnly, Some(MissingText::ParseFailed)),
            (TextStatus::AbstractOnly, Some(MissingText::DownloadFailed)),
            (TextStatus::AbstractOnly, Some(MissingText::NoCopy)),
            (TextStatus::AbstractOnly, Some(MissingText::Budget)),
        ],
        "{acquired:#?}"
    );
    assert!(
        acquired[2].retrieval.problems[0].contains("text/html"),
        "{:?}",
        acquired[2].retrieval.problems
    );
    // The same downloads with the guard on are refused: loopback is not a public address.
    let guarded = Downloader::new(DownloadLimits::default(), "litrev-test").expect("a downloader");
    let refused = acquire(
        &config,
        &scanned(&config),
        &works[..2],
        &Copies::fetched_by(Some(&guarded)),
    )
    .expect("acquires");
    for acquired in &refused {
        assert_eq!(
            acquired.retrieval.missing,
            Some(MissingText::DownloadFailed)
        );
        assert!(
            acquired
                .retrieval
                .problems
                .iter()
                .all(|problem| problem.contains("refused")),
            "{:?}",
            acquired.retrieval.problems
        );
    }
}

/// The person's folders of `config`, scanned.
fn scanned(config: &FulltextConfig) -> Library {
    Library::scan(&config.dirs, config.pdf).expect("the folders scan")
}

/// Real scholarly PDFs of many layouts (a 47-page collaboration paper, two-column physics
/// letters, AASTeX, JACoW proceedings, BMC, Elsevier, a QuarkXPress journal; see the folder's
/// PROVENANCE.md) read page by page: each gives text on most of its pages, nine tenths or more
/// of the words poppler's pdftotext reads in it (words that run together would fall short),
/// headings, and the library finds on its first page the id it carries and matches it to a
/// work by that id.
#[test]
fn real_scholarly_pdfs_read_with_their_pages_and_ids() {
    let Some(dir) = litrev_testkit::scholarly_pdfs() else {
        return;
    };
    // File name prefix → the id its first page prints, its pages, and the words poppler's
    // pdftotext (24.02) reads in it: the reference for how much text a reader should find.
    let expected: [(&str, &str, u32, usize); 8] = [
        ("arxiv-1503.07589v1", "arxiv:1503.07589", 47, 27_792),
        ("arxiv-1508.05632v2", "arxiv:1508.05632", 6, 5_189),
        ("arxiv-1706.09498v1", "arxiv:1706.09498", 10, 5_162),
        ("arxiv-1707.04066v1", "arxiv:1707.04066", 21, 8_506),
        (
            "doi-10.18429",
            "doi:10.18429/jacow-ipac2018-wepml008",
            3,
            1_749,
        ),
        ("doi-10.1186", "doi:10.1186/s12984-016-0129-6", 9, 6_286),
        ("doi-10.1016", "doi:10.1016/j.solmat.2015.01.021", 5, 3_737),
        ("doi-10.3906", "doi:10.3906/sag-0902-21", 5, 2_924),
    ];
    let library = Library::scan(std::slice::from_ref(&dir), PdfLimits::default()).expect("scans");
    let mut report = String::new();
    for (prefix, id, pages, reference_words) in expected {
        let file = library
            .files
            .iter()
            .find(|file| {
                file.path
                    .file_name()
                    .is_some_and(|name| name.to_string_lossy().starts_with(prefix))
            })
            .unwrap_or_else(|| panic!("{prefix}: not in the library"));
        let (_, text) = read_file(&file.path, PdfLimits::default())
            .unwrap_or_else(|error| panic!("{prefix}: {error}"));
        assert_eq!(text.format, litrev_model::TextFormat::Pdf);
        let with_text: BTreeSet<u32> = text
            .sections
            .iter()
            .filter(|section| !section.paragraphs.is_empty())
            .filter_map(|section| section.page)
            .collect();
        let words: usize = text
            .paragraphs()
            .map(|(_, _, paragraph)| paragraph.split_whitespace().count())
            .sum();
        report.push_str(&format!(
            "{prefix}: {} of {pages} pages with text, {words} words, {} sections titled\n",
            with_text.len(),
            text.sections
                .iter()
                .filter(|section| !section.title.is_empty())
                .count()
        ));
        assert!(
            with_text.len() as u32 * 10 >= pages * 8,
            "{prefix}: text on {with_text:?} of {pages} pages"
        );
        assert!(
            words * 10 >= reference_words * 9,
            "{prefix}: {words} words where pdftotext reads {reference_words}\n{report}"
        );
        assert!(
            text.sections
                .iter()
                .any(|section| !section.title.is_empty()),
            "{prefix}: no heading recognised"
        );
        let work_id: WorkId = id.parse().expect("an id");
        let mut work = Work::stub(WorkId::OpenAlex("W1".parse().expect("an id")));
        work.ids.add(work_id.clone());
        let found = library
            .find(&work)
            .unwrap_or_else(|| panic!("{prefix}: no file found by {id}: {:?}", file.ids));
        assert_eq!(found.path, file.path, "{prefix}");
    }
}

/// A copy downloaded before (its bytes kept by URL, as the store keeps them) is read again, not
/// fetched again: the second reading sends no request and gives the same text.
#[test]
fn a_copy_downloaded_before_is_read_again_not_fetched() {
    let Some(pdfs) = litrev_testkit::test_pdfs() else {
        return;
    };
    use litrev_fulltext::{DownloadLimits, Downloader};
    use litrev_testkit::fulltext::FullTextFiles;
    use litrev_testkit::http::{FaultPlan, Server};
    let files = FullTextFiles::new().folder(&pdfs).expect("the PDFs load");
    let server = Server::start(move |request| files.reply(request), FaultPlan::none());
    let url = format!("{}/files/mds526.pdf", server.url());
    let work = Work {
        oa_url: Some(url.clone()),
        ..Work::stub(WorkId::OpenAlex("W1".parse().expect("an OpenAlex id")))
    };
    let config = FulltextConfig {
        max_downloads: 5,
        ..FulltextConfig::default()
    };
    let local = Downloader::new(
        DownloadLimits {
            allow_private: true,
            ..DownloadLimits::default()
        },
        "litrev-test",
    )
    .expect("a downloader");
    let library = scanned(&config);
    let first = acquire(
        &config,
        &library,
        [&work],
        &Copies::fetched_by(Some(&local)),
    )
    .expect("acquires");
    assert_eq!(first[0].retrieval.status, TextStatus::Pdf);
    assert_eq!(server.requests(), 1);
    let bytes = first[0].text.as_ref().expect("a text").bytes.clone();
    let earlier = |asked: &str| (asked == url).then(|| bytes.clone());
    let copies = Copies {
        downloader: Some(&local),
        earlier: &earlier,
    };
    let second = acquire(&config, &library, [&work], &copies).expect("acquires");
    assert_eq!(server.requests(), 1, "nothing was fetched again");
    assert_eq!(second[0].retrieval.status, TextStatus::Pdf);
    assert_eq!(second[0].retrieval.sha256, first[0].retrieval.sha256);
}

#[test]
fn a_web_pages_text_is_the_page_read_in_sections() {
    use litrev_fulltext::{DownloadLimits, Downloader};
    use litrev_testkit::fulltext::FullTextFiles;
    use litrev_testkit::http::{FaultPlan, Server};
    use std::io::Read;
    let Some(pages) = litrev_testkit::web_pages() else {
        return;
    };
    let mut article = Vec::new();
    flate2::read::GzDecoder::new(
        std::fs::read(pages.join("fivethirtyeight-manchin.html.gz"))
            .expect("page")
            .as_slice(),
    )
    .read_to_end(&mut article)
    .expect("gzip");
    let files = FullTextFiles::new().file(
        "/features/manchin.html",
        "text/html; charset=utf-8",
        article,
    );
    let server = Server::start(move |request| files.reply(request), FaultPlan::none());
    let address = format!("{}/features/manchin.html", server.url());
    let page = Work {
        ids: WorkIds {
            url: Some(address.parse().expect("an address")),
            ..WorkIds::default()
        },
        title: Some("Could Manchin Actually Leave The Democratic Party?".to_owned()),
        kind: litrev_model::WorkKind::Webpage,
        oa_url: Some(address.clone()),
        ..Work::default()
    };
    let local = Downloader::new(
        DownloadLimits {
            allow_private: true,
            per_host_per_second: 0,
            ..DownloadLimits::default()
        },
        "litrev-test",
    )
    .expect("a downloader");
    let config = FulltextConfig {
        max_downloads: 1,
        ..FulltextConfig::default()
    };
    let acquired = acquire(
        &config,
        &scanned(&config),
        [&page],
        &Copies::fetched_by(Some(&local)),
    )
    .expect("acquires");
    assert_eq!(
        acquired[0].retrieval.status,
        TextStatus::Html,
        "{acquired:#?}"
    );
    assert_eq!(
        acquired[0].retrieval.origin.as_deref(),
        Some(address.as_str())
    );
    let text = &acquired[0].text.as_ref().expect("a text").text;
    assert_eq!(text.format, TextFormat::Html);
    let paragraphs: Vec<&String> = text
        .sections
        .iter()
        .flat_map(|section| &section.paragraphs)
        .collect();
    assert!(
        paragraphs[0].starts_with("Sen. Joe Manchin told reporters Wednesday"),
        "{paragraphs:#?}"
    );
    assert!(paragraphs.len() > 10, "{paragraphs:#?}");
    // The table's title is a heading, and the article's paragraphs follow it in its section.
    assert!(
        text.sections
            .iter()
            .any(|section| section.title == "Few senators or representatives have flipped parties"),
        "{:#?}",
        text.sections
            .iter()
            .map(|section| &section.title)
            .collect::<Vec<_>>()
    );
    // Nothing of the page's navigation or markup is in the text.
    assert!(paragraphs.iter().all(|paragraph| !paragraph.contains('<')));
}
