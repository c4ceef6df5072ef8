//! `--source brave`: the plan's web searches (and `--site` searches) go to Brave Search (a
//! stand-in serving a real recorded answer), their pages join the corpus as `webpage` works
//! screened like any record, PRISMA counts them as web searches, and a missing key stops the
//! run before anything runs.

use litrev_testkit::brave::{BRAVE_TEST_KEY, brave_server};
use litrev_testkit::http::FaultPlan;
use serde_json::Value;

use crate::support::{describe, litrev, question, snapshot_source, table, testdata};

#[test]
fn web_searches_reach_brave_and_their_pages_are_screened_and_counted() {
    let Some(data) = testdata() else { return };
    let Some(answers) = litrev_testkit::brave_answers() else {
        return;
    };
    let server = brave_server(&answers, FaultPlan::none());
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let out_text = out.display().to_string();
    let sources = format!("brave,{}", snapshot_source(&data, "Donners_2021"));
    let question = question(&data, "Donners_2021");
    let url = server.url();
    let env = [
        ("LITREV_BRAVE_URL", url.as_str()),
        ("BRAVE_API_KEY", BRAVE_TEST_KEY),
    ];

    // The plan names the web searches and what they cost.
    let planned = litrev(
        home.path(),
        &[
            "plan",
            &question,
            "--source",
            &sources,
            "--site",
            "sep",
            "--out",
            &format!("{out_text}.toml"),
        ],
        &env,
    );
    assert!(planned.status.success(), "{}", describe(&planned));
    let plan_text = std::fs::read_to_string(format!("{out_text}.toml")).expect("plan.toml");
    let plan: toml::Value = toml::from_str(&plan_text).expect("the plan is TOML");
    let web_queries = plan["queries"]
        .as_array()
        .expect("queries")
        .iter()
        .filter(|query| query.get("channel").and_then(toml::Value::as_str) == Some("web"))
        .count();
    assert!(web_queries >= 2, "{plan_text}");
    // The Stanford Encyclopedia of Philosophy is searched as a site of its own.
    assert!(
        plan_text.contains("text = \"site:plato.stanford.edu "),
        "{plan_text}"
    );
    let brave = plan["estimate"]["sources"]
        .as_array()
        .expect("sources estimated")
        .iter()
        .find(|source| source["source"].as_str() == Some("brave"))
        .expect("brave estimated");
    assert_eq!(
        brave["requests"].as_integer(),
        Some(web_queries as i64),
        "{plan_text}"
    );
    assert_eq!(server.requests(), 0, "planning asks nothing");

    let output = litrev(
        home.path(),
        &[
            "review", &question, "--source", &sources, "--site", "sep", "--out", &out_text, "--yes",
        ],
        &env,
    );
    assert!(output.status.success(), "{}", describe(&output));
    assert_eq!(
        server.requests(),
        web_queries as u64,
        "one request per web search"
    );
    let log = server.request_log();
    assert!(
        log.iter()
            .any(|line| line.contains("q=site%3Aplato.stanford.edu+pharmacokinetics+")),
        "{log:#?}"
    );

    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).expect("run.json"))
            .expect("run.json parses");
    let web_hits: u64 = record["counts"]["discover"]["queries"]
        .as_array()
        .expect("queries")
        .iter()
        .filter(|query| query["channel"] == "web")
        .map(|query| query["hits"].as_u64().expect("hits"))
        .sum();
    assert_eq!(web_hits, 20 * web_queries as u64, "{record:#}");
    let prisma = std::fs::read_to_string(out.join("prisma.svg")).expect("prisma.svg");
    assert!(
        prisma.contains(&format!("web searches (n = {web_hits})")),
        "{prisma}"
    );

    // The pages are in the corpus once each, found by the web channel, and screened.
    let corpus = table(&out.join("corpus.csv"));
    let pages: Vec<_> = corpus.iter().filter(|row| !row["url"].is_empty()).collect();
    // Each search answered the same recorded page of 20: the same 20 pages.
    assert_eq!(pages.len(), 20, "{corpus:?}");
    assert!(
        pages
            .iter()
            .all(|row| row["channels"].contains("web") && !row["decision"].is_empty()),
        "{pages:?}"
    );
    let wikipedia = pages
        .iter()
        .find(|row| row["url"] == "https://en.wikipedia.org/wiki/%22Hello,_World!%22_program")
        .expect("the first result");
    assert_eq!(wikipedia["year"], "2024", "{wikipedia:?}");
}

#[test]
fn brave_without_a_key_says_how_to_give_one_before_anything_runs() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let sources = format!("brave,{}", snapshot_source(&data, "Donners_2021"));
    let output = litrev(
        home.path(),
        &[
            "review",
            &question(&data, "Donners_2021"),
            "--source",
            &sources,
            "--out",
            &out.display().to_string(),
            "--yes",
        ],
        &[
            ("BRAVE_API_KEY", ""),
            ("LITREV_BRAVE_URL", "http://127.0.0.1:9"),
        ],
    );
    assert!(!output.status.success(), "{}", describe(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("BRAVE_API_KEY"), "{}", describe(&output));
    assert!(!out.join("review.md").exists());
}

/// `--source tavily`: the same web searches go to Tavily (a stand-in serving the answer
/// Tavily's own client tests serve), one search each, and its page joins the corpus.
#[test]
fn web_searches_reach_tavily_and_its_pages_join_the_corpus() {
    use litrev_testkit::tavily::{TAVILY_TEST_KEY, tavily_server};
    let Some(data) = testdata() else { return };
    let Some(answers) = litrev_testkit::tavily_answers() else {
        return;
    };
    let server = tavily_server(&answers, FaultPlan::none());
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let sources = format!("tavily,{}", snapshot_source(&data, "Donners_2021"));
    let url = server.url();
    let env = [
        ("LITREV_TAVILY_URL", url.as_str()),
        ("TAVILY_API_KEY", TAVILY_TEST_KEY),
    ];
    let output = litrev(
        home.path(),
        &[
            "review",
            &question(&data, "Donners_2021"),
            "--source",
            &sources,
            "--site",
            "sep",
            "--out",
            &out.display().to_string(),
            "--yes",
        ],
        &env,
    );
    assert!(output.status.success(), "{}", describe(&output));
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).expect("run.json"))
            .expect("run.json parses");
    let web: Vec<&Value> = record["counts"]["discover"]["queries"]
        .as_array()
        .expect("queries")
        .iter()
        .filter(|query| query["channel"] == "web")
        .collect();
    assert!(web.len() >= 2, "{record:#}");
    assert_eq!(
        server.requests(),
        web.len() as u64,
        "one search per web query"
    );
    // Each search is answered with the recorded page, except the site search last, which
    // reaches Tavily as `include_domains: ["plato.stanford.edu"]` and finds no page there.
    let hits: Vec<u64> = web
        .iter()
        .map(|query| query["hits"].as_u64().expect("hits"))
        .collect();
    let (site, others) = hits.split_last().expect("web searches");
    assert_eq!(*site, 0, "{web:?}");
    assert!(others.iter().all(|hits| *hits == 1), "{web:?}");
    let corpus = table(&out.join("corpus.csv"));
    let pages: Vec<_> = corpus.iter().filter(|row| !row["url"].is_empty()).collect();
    assert_eq!(pages.len(), 1, "{corpus:?}");
    assert_eq!(pages[0]["url"], "https://tavily.com");
    assert!(pages[0]["channels"].contains("web") && !pages[0]["decision"].is_empty());
}
