//! The snowball scorer against a real (tiny) model: llama.cpp's server with SmolLM2-135M on
//! loopback, as `bash scripts/llm-smoke.sh` runs it. Structure only — a verdict per work, read
//! from JSON per the schema — never content: the model is too small to judge relevance.

use std::time::Duration;

use litrev_http::{Client, HttpConfig};
use litrev_llm::OpenAiCompatible;
use litrev_model::Work;
use litrev_snowball::LlmScorer;
use litrev_testkit::llm::local_llm_url;

#[test]
#[ignore = "needs the local LLM server: bash scripts/llm-smoke.sh"]
fn a_real_model_gives_a_verdict_per_work() {
    let url = local_llm_url();
    let client = Client::new(HttpConfig {
        max_retries: 0,
        timeout: Duration::from_secs(600),
        ..HttpConfig::default()
    })
    .expect("client");
    let provider = OpenAiCompatible::new(&client, &url, None);
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
