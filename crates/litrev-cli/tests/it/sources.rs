//! Live sources through the real HTTP layer, against local servers: an OpenAlex-compatible
//! server over a SYNERGY snapshot and replays of recorded API traffic, with injected faults.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;

use litrev_testkit::http::{Fault, FaultPlan, Server};
use litrev_testkit::openalex::OpenAlexWorks;

use crate::support::{describe, litrev, question, table, testdata, works_file};

/// Short timeouts and backoffs so injected faults cost milliseconds, not minutes. The timeout
/// stays under the stand-in's 1 s slow answers, and above what a normal answer takes while the
/// whole test suite loads both cores (at 400 ms, some timed out and were retried).
const PATIENCE: [(&str, &str); 4] = [
    ("LITREV_HTTP_TIMEOUT_MS", "850"),
    ("LITREV_HTTP_BACKOFF_MS", "5"),
    ("LITREV_HTTP_BACKOFF_MAX_MS", "50"),
    ("LITREV_HTTP_RETRIES", "8"),
];

fn openalex_server(data: &Path, dataset: &str, faults: FaultPlan) -> Server {
    let works = OpenAlexWorks::load(&[works_file(data, dataset)]).expect("snapshot loads");
    Server::start(
        move |request| {
            let (status, body) = works.answer(request);
            litrev_testkit::http::Reply::json(status, &body)
        },
        faults,
    )
}

fn search(home: &Path, question: &str, sources: &str, env: &[(&str, &str)]) -> Output {
    let mut all: Vec<(&str, &str)> = PATIENCE.to_vec();
    all.extend_from_slice(env);
    litrev(
        home,
        &["search", question, "--source", sources, "--json"],
        &all,
    )
}

fn report(output: &Output) -> serde_json::Value {
    assert!(output.status.success(), "{}", describe(output));
    serde_json::from_slice(&output.stdout).expect("search --json prints JSON")
}

fn work_ids(report: &serde_json::Value) -> BTreeSet<String> {
    report["works"]
        .as_array()
        .expect("works")
        .iter()
        .map(|work| work["id"].as_str().expect("id").to_owned())
        .collect()
}

fn row<'a>(report: &'a serde_json::Value, source: &str) -> &'a serde_json::Value {
    report["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .find(|row| row["source"] == source)
        .unwrap_or_else(|| panic!("no row for {source} in {report}"))
}

#[test]
fn a_second_identical_search_is_served_from_the_cache_with_zero_requests() {
    let Some(data) = testdata() else { return };
    let question = question(&data, "Nelson_2002");

    let clean = openalex_server(&data, "Nelson_2002", FaultPlan::none());
    let home = tempfile::tempdir().expect("home");
    let url = clean.url();
    let first = report(&search(
        home.path(),
        &question,
        "openalex",
        &[("LITREV_OPENALEX_URL", &url)],
    ));
    let expected = work_ids(&first);
    assert!(expected.len() >= 50, "{} works found", expected.len());
    let openalex = row(&first, "openalex");
    assert_eq!(openalex["requests"], clean.requests());
    assert_eq!(openalex["retries"], 0);
    assert!(openalex["cost_usd"].as_f64().expect("cost") > 0.0);

    // The same search again: every answer comes from the disk cache.
    let served = clean.requests();
    let again = report(&search(
        home.path(),
        &question,
        "openalex",
        &[("LITREV_OPENALEX_URL", &url)],
    ));
    assert_eq!(clean.requests(), served, "the second run sent requests");
    assert_eq!(work_ids(&again), expected);
    assert_eq!(row(&again, "openalex")["requests"], 0);
    assert_eq!(row(&again, "openalex")["cache_hits"], served);
}

#[test]
fn a_source_down_for_good_is_left_out_and_named() {
    let Some(data) = testdata() else { return };
    let question = question(&data, "Nelson_2002");
    let openalex = openalex_server(&data, "Nelson_2002", FaultPlan::none());
    let down = Server::start(
        |_| litrev_testkit::http::Reply::text(200, "never reached"),
        FaultPlan::only(1.0, 1, vec![Fault::ServerError(503)]),
    );
    let home = tempfile::tempdir().expect("home");
    let (openalex_url, down_url) = (openalex.url(), down.url());
    let output = search(
        home.path(),
        &question,
        "openalex,semantic-scholar",
        &[
            ("LITREV_OPENALEX_URL", &openalex_url),
            ("LITREV_S2_URL", &down_url),
        ],
    );
    let report = report(&output);
    assert!(!work_ids(&report).is_empty());
    let failure = row(&report, "semantic-scholar")["failure"]
        .as_str()
        .expect("the failure is reported")
        .to_owned();
    assert!(failure.contains("503"), "{failure}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("semantic-scholar failed"),
        "the user is told: {stderr}"
    );
}

/// Runs a review into `out` on the live OpenAlex path, OpenAlex being the server at `url`,
/// with `extra` arguments.
fn review_on_openalex(
    home: &Path,
    out: &Path,
    question: &str,
    url: &str,
    extra: &[&str],
) -> Output {
    let mut env: Vec<(&str, &str)> = PATIENCE.to_vec();
    env.push(("LITREV_OPENALEX_URL", url));
    let out = out.display().to_string();
    let mut args = vec!["review", question, "--source", "openalex", "--out", &out];
    args.extend_from_slice(extra);
    litrev(home, &args, &env)
}

/// Runs a review at the exhaustive tier on the live OpenAlex path up to the screening gate.
fn review_to_gate(home: &Path, out: &Path, question: &str, url: &str) -> Output {
    review_on_openalex(home, out, question, url, &["--tier", "exhaustive"])
}

/// Jeyaraman_2020 at the exhaustive tier takes about 30 requests, so that one in five failing
/// hits several (a smaller review now snowballs in a handful).
#[test]
fn discovery_and_snowballing_give_the_same_corpus_under_twenty_percent_faults() {
    let Some(data) = testdata() else { return };
    let question = question(&data, "Jeyaraman_2020");
    let mut corpora = Vec::new();
    let mut retries = Vec::new();
    for faults in [FaultPlan::none(), FaultPlan::mixed(0.2, 11)] {
        let server = openalex_server(&data, "Jeyaraman_2020", faults);
        let home = tempfile::tempdir().expect("home");
        let out = home.path().join("review");
        let output = review_to_gate(home.path(), &out, &question, &server.url());
        assert_eq!(output.status.code(), Some(3), "{}", describe(&output));
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let reported: u64 = stderr
            .lines()
            .filter_map(|line| line.split("openalex: ").nth(1))
            .filter_map(|rest| {
                rest.split(" retries")
                    .next()?
                    .split('(')
                    .nth(1)?
                    .parse()
                    .ok()
            })
            .next_back()
            .unwrap_or_else(|| panic!("no call summary on stderr: {stderr}"));
        retries.push((reported, server.faults_injected(), server.requests()));
        corpora.push(std::fs::read_to_string(out.join("corpus.csv")).expect("corpus.csv"));
    }
    let (clean, faulty) = (retries[0], retries[1]);
    println!(
        "clean: {} requests; 20 % faults: {} requests, {} faults injected, {} retries reported",
        clean.2, faulty.2, faulty.1, faulty.0
    );
    assert_eq!(clean.0, 0);
    assert!(faulty.1 >= 5, "only {} faults injected", faulty.1);
    assert_eq!(faulty.0, faulty.1, "one retry per injected fault");
    assert!(
        corpora[0].lines().count() > 100,
        "corpus of {} lines",
        corpora[0].lines().count()
    );
    assert_eq!(corpora[0], corpora[1], "faults changed the corpus");
}

#[test]
fn arxiv_search_reads_a_recorded_feed_through_the_http_layer() {
    let Some(data) = testdata() else { return };
    let recorded: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            data.join("arxiv-atom/recorded_2026/q_testing_s0_m100_cfe7536492ca.json"),
        )
        .expect("recorded arXiv response"),
    )
    .expect("recording is JSON");
    let mut replay_with = litrev_testkit::http::Replay::new();
    // The recorded feed, served for the request litrev's client makes of the question "testing".
    replay_with.add(
        "GET",
        "https://export.arxiv.org/api/query?search_query=all%3Atesting&start=0&max_results=100&sortBy=relevance&sortOrder=descending",
        200,
        "application/atom+xml",
        recorded["body"].as_str().expect("body").as_bytes(),
    );
    let server = Server::start(replay_with.handler(), FaultPlan::none());
    let home = tempfile::tempdir().expect("home");
    let url = server.url();
    // The standard tier asks for 100 hits per query, as the recording did. Its directed
    // searches reach arXiv as far as it can answer them: the last five years' search is the
    // same request (the disk cache answers it, and the hits before 2022 are dropped), the most
    // cited and the books are not asked of a source of preprints without citation counts.
    let output = litrev(
        home.path(),
        &[
            "search", "testing", "--source", "arxiv", "--tier", "standard", "--json",
        ],
        &[("LITREV_ARXIV_URL", &url)],
    );
    let report = report(&output);
    assert_eq!(
        replay_with.unmatched(),
        0,
        "{:?}",
        replay_with.unmatched_requests()
    );
    assert_eq!(server.requests(), 1);
    assert_eq!(row(&report, "arxiv")["hits"], 200);
    assert_eq!(work_ids(&report).len(), 100);
    for work in report["works"].as_array().expect("works") {
        let ids = work["ids"].to_string().to_lowercase();
        assert!(
            ids.contains("arxiv"),
            "an arXiv entry without its arXiv id: {work}"
        );
    }
}

#[test]
fn a_live_review_runs_end_to_end_and_records_its_calls_in_run_json() {
    let Some(data) = testdata() else { return };
    let question = question(&data, "Nelson_2002");
    let server = openalex_server(&data, "Nelson_2002", FaultPlan::none());
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let mut env: Vec<(&str, &str)> = PATIENCE.to_vec();
    let url = server.url();
    env.push(("LITREV_OPENALEX_URL", &url));
    // The dry run's estimate, asking nothing.
    let output = litrev(
        home.path(),
        &["plan", &question, "--estimate", "--json"],
        &env,
    );
    assert!(output.status.success(), "{}", describe(&output));
    assert_eq!(server.requests(), 0, "estimating sends no request");
    let estimated: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("the estimate is JSON");
    assert!(
        !String::from_utf8_lossy(&output.stderr).contains("estimate:"),
        "asked for, the estimate is said once, on stdout"
    );
    let expected = estimated["requests"].as_u64().expect("requests estimated");
    assert_eq!(estimated["sources"][0]["source"], "openalex", "{estimated}");
    assert!(
        estimated["requests_low"].as_u64() < Some(expected)
            && Some(expected) < estimated["requests_high"].as_u64(),
        "{estimated}"
    );

    let output = review_on_openalex(home.path(), &out, &question, &url, &["--yes"]);
    assert!(output.status.success(), "{}", describe(&output));
    assert!(out.join("review.md").is_file());
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).expect("run.json"))
            .expect("run.json parses");
    let calls = record["calls"].as_array().expect("calls recorded");
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0]["source"], "openalex");
    assert_eq!(calls[0]["requests"], server.requests());
    assert!(calls[0]["cost_usd"].as_f64().expect("cost") > 0.0);

    // run.json puts the same estimate beside what the run asked.
    let check = &record["estimate"];
    assert_eq!(check["estimated"], estimated, "{check}");
    assert_eq!(check["actual_requests"], server.requests(), "{check}");
    assert_eq!(
        check["actual"][0]["cost_usd"], calls[0]["cost_usd"],
        "{check}"
    );
    let ratio = check["ratio"].as_f64().expect("a ratio");
    assert!(
        (ratio - server.requests() as f64 / expected as f64).abs() < 1e-9,
        "{check}"
    );

    // Snowballing's requests against the fewest the same expansion needs, stage by stage.
    let stages = record["counts"]["snowball"].as_array().expect("stages");
    let sum = |field: &str| -> u64 {
        stages
            .iter()
            .map(|stage| stage[field].as_u64().expect("a count"))
            .sum()
    };
    let totals = &record["counts"]["snowball_requests"];
    assert_eq!(totals["openalex"], sum("openalex_requests"), "{totals}");
    assert_eq!(totals["minimum"], sum("minimum_requests"), "{totals}");
    let (asked, minimum) = (sum("openalex_requests"), sum("minimum_requests"));
    assert!(
        0 < minimum && minimum <= asked && asked < server.requests(),
        "the minimum bounds the requests, which exclude discovery's: {totals}, {} in all",
        server.requests()
    );
    let ratio = totals["ratio"].as_f64().expect("a ratio");
    assert!(
        (ratio - asked as f64 / minimum as f64).abs() < 1e-9,
        "{totals}"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "snowballing asked OpenAlex {asked} times where the same expansion needs {minimum} at the fewest (ratio {ratio:.2})"
        )),
        "{stderr}"
    );
}

/// The second gate: a run on a live API that would download copies from hosts that are not
/// known publishers or repositories pauses after the screening gate, lists every planned
/// download in `downloads.csv`, and goes on when resumed (the downloads then fail here, where
/// there is no network, and the works stay abstract only).
#[test]
fn downloads_from_unknown_hosts_wait_for_approval() {
    let Some(data) = testdata() else { return };
    let question = question(&data, "Donners_2021");
    let openalex = openalex_server(&data, "Donners_2021", FaultPlan::none());
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let url = openalex.url();
    let mut env: Vec<(&str, &str)> = PATIENCE.to_vec();
    env.push(("LITREV_OPENALEX_URL", &url));
    let folder = out.display().to_string();
    let json = |output: &Output| -> serde_json::Value {
        serde_json::from_slice(&output.stdout).unwrap_or_else(|_| panic!("{}", describe(output)))
    };
    let screening = litrev(
        home.path(),
        &[
            "review", &question, "--source", "openalex", "--tier", "quick", "--out", &folder,
            "--json",
        ],
        &env,
    );
    assert_eq!(screening.status.code(), Some(3), "{}", describe(&screening));
    let run = json(&screening)["run"].as_str().expect("run").to_owned();
    assert!(!out.join("downloads.csv").exists());

    let downloads = litrev(home.path(), &["resume", &run, "--json"], &env);
    assert_eq!(downloads.status.code(), Some(3), "{}", describe(&downloads));
    let paused = json(&downloads);
    assert_eq!(paused["status"], "awaiting_approval");
    assert_eq!(paused["gate"], "downloads");
    let planned = paused["planned_downloads"].as_u64().expect("planned");
    assert!((1..=20).contains(&planned), "{paused}");
    let unknown: Vec<&str> = paused["unknown_hosts"]
        .as_array()
        .expect("hosts")
        .iter()
        .filter_map(serde_json::Value::as_str)
        .collect();
    assert!(!unknown.is_empty(), "{paused}");
    let rows = table(&out.join("downloads.csv"));
    let works: BTreeSet<&str> = rows.iter().map(|row| row["work"].as_str()).collect();
    assert_eq!(works.len() as u64, planned);
    for row in &rows {
        let known = row["known_host"] == "yes";
        assert_eq!(known, !unknown.contains(&row["host"].as_str()), "{row:?}");
        assert!(row["url"].contains(&row["host"]), "{row:?}");
    }

    let approved = litrev(home.path(), &["resume", &run, "--json"], &env);
    assert!(approved.status.success(), "{}", describe(&approved));
    assert_eq!(json(&approved)["status"], "done");
    let cards = table(&out.join("study_cards.csv"));
    assert!(!cards.is_empty());
}

/// With `--source unpaywall`, a work whose record points at no open copy gets the one Unpaywall
/// knows for its DOI, asked through the HTTP layer within the full-text budget: here a stand-in
/// answers every DOI (in the shape of Unpaywall's documented v2 record) with a PDF on a host no
/// publisher list has, so the download gate shows those copies.
#[test]
fn unpaywall_finds_open_copies_for_dois_without_one() {
    let Some(data) = testdata() else { return };
    let question = question(&data, "Donners_2021");
    let openalex = openalex_server(&data, "Donners_2021", FaultPlan::none());
    let unpaywall = Server::start(
        |request| {
            let doi = request
                .path
                .trim_start_matches("/v2/")
                .replace("%2F", "/")
                .replace("%2f", "/");
            let pdf = format!("https://oa.example.net/{}.pdf", doi.replace('/', "_"));
            let record = serde_json::json!({
                "doi": doi,
                "is_oa": true,
                "oa_status": "green",
                "best_oa_location": {
                    "url": pdf,
                    "url_for_pdf": pdf,
                    "url_for_landing_page": null,
                    "host_type": "repository",
                    "version": "acceptedVersion",
                    "license": null,
                    "is_best": true
                },
                "oa_locations": []
            });
            litrev_testkit::http::Reply::json(200, &record)
        },
        FaultPlan::none(),
    );
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let (openalex_url, unpaywall_url) = (openalex.url(), unpaywall.url());
    let mut env: Vec<(&str, &str)> = PATIENCE.to_vec();
    env.extend([
        ("LITREV_OPENALEX_URL", openalex_url.as_str()),
        ("LITREV_UNPAYWALL_URL", unpaywall_url.as_str()),
        ("LITREV_EMAIL", "tests@example.org"),
    ]);
    let folder = out.display().to_string();
    let screening = litrev(
        home.path(),
        &[
            "review",
            &question,
            "--source",
            "openalex,unpaywall",
            "--tier",
            "quick",
            "--out",
            &folder,
            "--json",
        ],
        &env,
    );
    assert_eq!(screening.status.code(), Some(3), "{}", describe(&screening));
    let summary: serde_json::Value = serde_json::from_slice(&screening.stdout).expect("JSON");
    let run = summary["run"].as_str().expect("run").to_owned();
    assert_eq!(unpaywall.requests(), 0, "nothing is asked before the gate");
    let downloads = litrev(home.path(), &["resume", &run, "--json"], &env);
    assert_eq!(downloads.status.code(), Some(3), "{}", describe(&downloads));
    let asked = unpaywall.requests();
    assert!((1..=20).contains(&asked), "{asked} DOIs asked");
    let rows = table(&out.join("downloads.csv"));
    let from_unpaywall = rows
        .iter()
        .filter(|row| row["host"] == "oa.example.net" && row["known_host"] == "no")
        .count();
    assert!(from_unpaywall > 0, "{rows:?}");
    assert!(from_unpaywall as u64 <= asked, "{rows:?}");
}

/// Past the quick tier a plan adds directed searches, which the OpenAlex client asks for in
/// the API's syntax (`sort=cited_by_count:desc`, `filter=type:book|book-chapter`,
/// `from_publication_date:`): the book channel's hits are books and chapters, and PRISMA counts
/// what each channel identified.
#[test]
fn directed_searches_reach_openalex_in_its_syntax_and_prisma_counts_each_channel() {
    let Some(data) = testdata() else { return };
    let question = question(&data, "Jeyaraman_2020");
    let server = openalex_server(&data, "Jeyaraman_2020", FaultPlan::none());
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let output = review_on_openalex(
        home.path(),
        &out,
        &question,
        &server.url(),
        &["--tier", "standard", "--yes"],
    );
    assert!(output.status.success(), "{}", describe(&output));
    let log: Vec<String> = server
        .request_log()
        .into_iter()
        .map(|line| {
            line.replace("%3A", ":")
                .replace("%7C", "|")
                .replace("%2C", ",")
        })
        .collect();
    let searches: Vec<&String> = log.iter().filter(|line| line.contains("search=")).collect();
    let asked = |part: &str| searches.iter().any(|line| line.contains(part));
    assert!(asked("sort=cited_by_count:desc"), "{searches:#?}");
    assert!(asked("filter=type:book|book-chapter"), "{searches:#?}");
    assert!(asked("filter=from_publication_date:"), "{searches:#?}");

    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).expect("run.json"))
            .expect("run.json parses");
    let queries = record["counts"]["discover"]["queries"]
        .as_array()
        .expect("queries");
    let books = queries
        .iter()
        .find(|query| query["channel"] == "book")
        .expect("a book search");
    let book_hits = books["hits"].as_u64().expect("hits");
    assert!(book_hits > 0, "{books}");
    let keyword_hits: u64 = queries
        .iter()
        .filter(|query| query["channel"] == "keyword")
        .map(|query| query["hits"].as_u64().expect("hits"))
        .sum();
    let prisma = std::fs::read_to_string(out.join("prisma.svg")).expect("prisma.svg");
    assert!(
        prisma.contains(&format!("book searches (n = {book_hits})"))
            && prisma.contains(&format!("keyword searches (n = {keyword_hits})")),
        "{prisma}"
    );

    // The expert channel: the topics' authors from `/authors`, their works by author and topic.
    assert!(
        log.iter().any(|line| line.starts_with("GET /authors?")
            && line.contains("filter=x_concepts.id:C")
            && line.contains("sort=cited_by_count:desc")),
        "{log:#?}"
    );
    assert!(
        log.iter()
            .any(|line| line.contains("filter=authorships.author.id:A")
                && line.contains(",concepts.id:C")),
        "{log:#?}"
    );
    let experts = queries
        .iter()
        .find(|query| query["channel"] == "expert")
        .expect("an expert search");
    let expert_hits = experts["hits"].as_u64().expect("hits");
    assert!(expert_hits > 0, "{experts}");
    assert!(
        prisma.contains(&format!("expert searches (n = {expert_hits})")),
        "{prisma}"
    );
    // corpus.csv says which channels found each work.
    let corpus = crate::support::table(&out.join("corpus.csv"));
    let by_experts = corpus
        .iter()
        .filter(|row| {
            row["channels"]
                .split(' ')
                .any(|channel| channel == "expert")
        })
        .count();
    assert_eq!(
        by_experts as u64, expert_hits,
        "one row per work the channel found"
    );
    assert!(corpus.iter().any(|row| row["channels"] == "keyword"));
    let review = std::fs::read_to_string(out.join("review.md")).expect("review.md");
    let appendix = &review[review
        .find("# Appendix: search documentation")
        .expect("appendix")..];
    for rank in 1..=5 {
        let line = format!("Expert {rank}: ");
        let at = appendix
            .find(&line)
            .unwrap_or_else(|| panic!("{line} in {appendix}"));
        let end = appendix[at..]
            .find("joined the pool.")
            .expect("the sentence's end");
        let why = &appendix[at..at + end];
        assert!(
            why.contains(" works on ") || why.contains(" work on "),
            "{why}"
        );
        assert!(why.contains(" since "), "{why}");
    }
}
