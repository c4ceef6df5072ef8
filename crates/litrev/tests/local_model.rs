//! The phases' model calls against a real (tiny) model: llama.cpp's server with SmolLM2-135M
//! on loopback, as `bash scripts/llm-smoke.sh` runs it. Structure only — answers read from
//! JSON per the schema, into what the phase stores — never content: the model is too small to
//! know a field's vocabulary or judge relevance.

use std::time::Duration;

use litrev_http::{Client, HttpConfig};
use litrev_llm::OpenAiCompatible;
use litrev_model::{Tier, Work};
use litrev_plan::{PlanConfig, QueryPlanner, plan};
use litrev_snowball::LlmScorer;
use litrev_testkit::llm::local_llm_url;

/// The local model's OpenAI-compatible API, patient with a 135M model on two busy cores.
fn local_model() -> OpenAiCompatible {
    let client = Client::new(HttpConfig {
        max_retries: 0,
        timeout: Duration::from_secs(600),
        ..HttpConfig::default()
    })
    .expect("client");
    OpenAiCompatible::new(&client, &local_llm_url(), None)
}

#[test]
#[ignore = "needs the local LLM server: bash scripts/llm-smoke.sh"]
fn the_planner_adds_searches_the_plan_can_run() {
    let provider = local_model();
    let question = "Emicizumab in haemophilia A: a systematic review";
    let mut planned = plan(question, &PlanConfig::for_tier(Tier::Standard));
    let own = planned.queries.clone();
    let planner = QueryPlanner {
        llm: &provider,
        model: "smollm2",
    };
    let report = planner.extend(&mut planned).expect("request built");
    assert_eq!(report.failure, None, "the answer did not parse: {report:?}");
    assert!(report.proposed > 0, "{report:?}");
    assert_eq!(report.proposed, report.added.len() + report.skipped);
    assert_eq!(
        planned.queries[..own.len()],
        own[..],
        "the question's queries stay first"
    );
    for query in &planned.queries[own.len()..] {
        assert!(report.added.contains(&query.label), "{query:?}");
        assert!(
            query
                .text
                .chars()
                .all(|c| c.is_alphanumeric() || " \"~-'".contains(c)),
            "not the plan's syntax: {query:?}"
        );
    }
}

#[test]
#[ignore = "needs the local LLM server: bash scripts/llm-smoke.sh"]
fn the_snowball_scorer_gives_a_verdict_per_work() {
    let provider = local_model();
    let work = |id: &str, title: &str, abstract_text: &str| {
        let mut work = Work::stub(id.parse().expect("id"));
        work.title = Some(title.to_owned());
        work.abstract_text = Some(abstract_text.to_owned());
        work.year = Some(2020);
        work
    };
    let works = [
        work(
            "W1",
            "Emicizumab prophylaxis in haemophilia A with inhibitors",
            "Weekly emicizumab reduced bleeding rates in people with haemophilia A.",
        ),
        work(
            "W2",
            "Hair cortisol and body mass index",
            "Hair cortisol concentrations rose with body mass index in adults.",
        ),
    ];
    let scorer = LlmScorer {
        llm: &provider,
        model: "smollm2",
    };
    let refs: Vec<&Work> = works.iter().collect();
    let report = scorer
        .score("Emicizumab in haemophilia A", &refs)
        .expect("requests built");
    assert_eq!(report.failed, 0, "an answer did not parse: {report:?}");
    assert_eq!(report.verdicts.len(), 2, "{report:?}");
    assert_eq!(report.verdicts[0].work.to_string(), "W1");
    assert_eq!(report.verdicts[1].work.to_string(), "W2");
}
