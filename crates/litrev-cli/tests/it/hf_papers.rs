//! `--source huggingface`: the plan's keyword searches go to Hugging Face's paper search (a
//! stand-in serving a real recorded answer), its papers join the corpus as preprints known by
//! their arXiv ids, are screened like any record, and the review cites them; its trending list
//! answers the trending channel.

use litrev_testkit::http::FaultPlan;
use litrev_testkit::huggingface::hf_papers_server;
use serde_json::Value;

use crate::support::{describe, litrev, table};

#[test]
fn hugging_face_papers_are_found_screened_and_cited() {
    let Some(answers) = litrev_testkit::hf_papers() else {
        return;
    };
    let server = hf_papers_server(&answers, FaultPlan::none());
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let out_text = out.display().to_string();
    let url = server.url();
    let env = [("LITREV_HUGGINGFACE_URL", url.as_str())];
    let question = "Kazakh open-domain question answering datasets";

    let planned = litrev(
        home.path(),
        &[
            "plan",
            question,
            "--source",
            "huggingface",
            "--out",
            &format!("{out_text}.toml"),
        ],
        &env,
    );
    assert!(planned.status.success(), "{}", describe(&planned));
    let plan_text = std::fs::read_to_string(format!("{out_text}.toml")).expect("plan.toml");
    let plan: toml::Value = toml::from_str(&plan_text).expect("the plan is TOML");
    let estimated = plan["estimate"]["sources"]
        .as_array()
        .expect("sources estimated")
        .iter()
        .find(|source| source["source"].as_str() == Some("huggingface"))
        .and_then(|source| source["requests"].as_integer())
        .expect("huggingface estimated");
    // Planning asks one probe search, for the brief's disciplines.
    let probes = server.requests();
    assert!(
        probes <= 1,
        "planning asks no more than its probe: {probes}"
    );

    let output = litrev(
        home.path(),
        &[
            "review",
            question,
            "--source",
            "huggingface",
            "--tier",
            "quick",
            "--out",
            &out_text,
            "--yes",
        ],
        &env,
    );
    assert!(output.status.success(), "{}", describe(&output));
    // One request per search, as estimated; the plan's probe is the same search, read back
    // from the cache.
    let searches = i64::try_from(server.requests()).expect("count");
    assert!(
        searches >= 1 && searches <= estimated,
        "{searches} requests against {estimated} estimated (probe {probes}): {plan_text}"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("snowballing follows references only"),
        "{stderr}"
    );

    // The nine recorded papers are in the corpus once each, as preprints with their arXiv ids,
    // found by search and screened.
    let corpus = table(&out.join("corpus.csv"));
    assert_eq!(corpus.len(), 9, "{corpus:#?}");
    assert!(
        corpus.iter().all(|row| !row["arxiv"].is_empty()
            && row["origin"] == "search"
            && !row["decision"].is_empty()),
        "{corpus:#?}"
    );
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).expect("run.json"))
            .expect("run.json parses");
    assert!(
        record.to_string().contains("huggingface"),
        "the run names its source: {record:#}"
    );
    // The trending channel: one listing of the Hub's trending papers, those on the topic kept,
    // counted in PRISMA and named in corpus.csv.
    assert!(
        server
            .request_log()
            .iter()
            .any(|line| line.contains("/api/daily_papers?p=0&limit=100&sort=trending")),
        "{:#?}",
        server.request_log()
    );
    let trending = record["counts"]["discover"]["queries"]
        .as_array()
        .expect("queries")
        .iter()
        .find(|query| query["channel"] == "trending")
        .expect("a trending search");
    let trending_hits = trending["hits"].as_u64().expect("hits");
    assert!(trending_hits > 0, "{trending}");
    let prisma = std::fs::read_to_string(out.join("prisma.svg")).expect("prisma.svg");
    assert!(
        prisma.contains(&format!("trending searches (n = {trending_hits})")),
        "{prisma}"
    );
    assert_eq!(
        corpus
            .iter()
            .filter(|row| row["channels"]
                .split(' ')
                .any(|channel| channel == "trending"))
            .count() as u64,
        trending_hits
    );
    // What is included is cited, and every citation resolves to a stored preprint.
    let included = corpus
        .iter()
        .filter(|row| row["decision"] == "include")
        .count();
    let review = std::fs::read_to_string(out.join("review.md")).expect("review.md");
    assert!(included >= 1, "{corpus:#?}");
    assert!(review.contains("most often in arXiv"), "{review}");
    // Each included paper is an e-print in the BibTeX, known by its arXiv id.
    let bib = std::fs::read_to_string(out.join("references.bib")).expect("references.bib");
    assert_eq!(
        bib.matches("archiveprefix = {arXiv}").count(),
        included,
        "{bib}"
    );
    for row in corpus.iter().filter(|row| row["decision"] == "include") {
        assert!(
            bib.contains(&format!("eprint = {{{}}}", row["arxiv"])),
            "{} not in {bib}",
            row["arxiv"]
        );
    }
    // One theme, nothing to compare: no discussion, and no "one themes". The abstracts name
    // no design, and the methods section says so rather than "the four works are four works".
    assert!(
        !review.contains("one themes") && !review.contains("# Discussion"),
        "{review}"
    );
    assert!(
        review.contains("name no study design; they describe their methods as follows."),
        "{review}"
    );
}
