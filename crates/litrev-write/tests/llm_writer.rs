//! The LLM writer end to end against a scripted OpenAI-compatible server on loopback:
//! placeholders resolved to the works of their spans, an unsupported claim caught and
//! repaired (or dropped when the repair fails too), tokens counted from the answers' usage,
//! the budget refusing before any call, and cached answers never requested again.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use litrev_http::{Client, HttpConfig};
use litrev_llm::{Error as LlmError, Metered, OpenAiCompatible, Price, PriceTable, ResponseCache};
use litrev_model::{Basis, Organisation, Plan, Review, SectionKind, Segment, Tier, Work, WorkId};
use litrev_testkit::llm::{ChatCall, ScriptedLlm, evidence_lines, faithful_paraphrase, words};
use litrev_write::{Error, LlmWriteConfig, LlmWritten, MethodFacts, WriteInput, write_with_llm};

const MODEL: &str = "scripted-writer";

/// The claim the script slips into the first theme: its number and its words are in no span.
const INVENTED: &str = "Emicizumab prophylaxis eliminated bleeding in 99% of patients worldwide.";

fn work(id: &str, title: &str, year: i32, abstract_text: &str) -> Work {
    let mut work = Work::stub(id.parse().expect("id"));
    work.title = Some(title.into());
    work.year = Some(year);
    work.abstract_text = Some(abstract_text.into());
    work
}

struct Fixture {
    plan: Plan,
    facts: MethodFacts,
    included: BTreeMap<WorkId, Work>,
    organisation: Organisation,
    corpus_citations: BTreeMap<WorkId, usize>,
}

impl Fixture {
    fn new() -> Fixture {
        let works = [
            work(
                "W1",
                "Emicizumab prophylaxis in haemophilia A",
                2018,
                "Haemophilia A is a rare bleeding disorder caused by a lack of factor VIII. \
                 In a randomised trial of 152 patients, emicizumab prophylaxis reduced annualised \
                 bleeding rates by 87% compared with no prophylaxis. \
                 Injection-site reactions were the most common adverse events among treated patients.",
            ),
            work(
                "W2",
                "Weekly emicizumab in children",
                2019,
                "Children with haemophilia A need prophylaxis that is easy to give at home. \
                 Weekly subcutaneous emicizumab was well tolerated by children in an open-label study of 88 participants. \
                 Treated bleeds were rare during the first year of weekly dosing in these children.",
            ),
            work(
                "W3",
                "Costs of haemophilia care",
                2020,
                "Haemophilia care places a large burden on national health budgets every year. \
                 Factor concentrates accounted for most of the annual direct costs of care in the cohort studied. \
                 Cost analyses with longer horizons are needed to compare prophylaxis strategies fairly.",
            ),
            work(
                "W4",
                "Health economics of prophylaxis",
                2021,
                "Prophylaxis decisions weigh clinical benefit against the price of treatment options. \
                 A Markov model estimated that emicizumab prophylaxis lowered lifetime costs for adults with inhibitors. \
                 The model relied on assumptions about adherence that remain untested in practice.",
            ),
        ];
        let included: BTreeMap<WorkId, Work> =
            works.into_iter().map(|work| (work.id(), work)).collect();
        let theme = |id: u32, label: &str, works: &[&str]| {
            serde_json::json!({
                "id": id,
                "label": label,
                "description": format!("Works on {label}."),
                "top_words": label.split(' ').collect::<Vec<_>>(),
                "works": works,
                "key_works": [works[0]],
                "years": [2018, 2021],
            })
        };
        let organisation: Organisation = serde_json::from_value(serde_json::json!({
            "themes": [
                theme(1, "Emicizumab prophylaxis", &["W1", "W2"]),
                theme(2, "Costs of care", &["W3", "W4"]),
            ],
            "key_works": [],
            "outliers": [],
        }))
        .expect("organisation");
        let plan: Plan = serde_json::from_value(serde_json::json!({
            "question": "How well does emicizumab prophylaxis work in haemophilia A?",
            "key_terms": ["emicizumab", "prophylaxis", "haemophilia"],
            "queries": [],
            "seeds": [],
            "tier": "quick",
            "limits": Tier::Quick.limits(),
            "hits_per_query": 100,
            "relevance_threshold": 0.2,
        }))
        .expect("plan");
        Fixture {
            plan,
            facts: MethodFacts {
                source: "a test snapshot".into(),
                included: 4,
                considered: 10,
                ..MethodFacts::default()
            },
            included,
            organisation,
            corpus_citations: BTreeMap::new(),
        }
    }

    fn input(&self) -> WriteInput<'_> {
        WriteInput {
            plan: &self.plan,
            facts: &self.facts,
            included: &self.included,
            organisation: &self.organisation,
            corpus_citations: &self.corpus_citations,
            citations: &[],
            cards: &litrev_write::NO_CARDS,
        }
    }
}

fn sentence(part: &str, text: &str, spans: &[&str]) -> serde_json::Value {
    serde_json::json!({"part": part, "text": text, "spans": spans})
}

/// How the scripted model answers a repair prompt.
#[derive(Clone, Copy)]
enum Repair {
    /// A cautious rewrite from the sentence it cited.
    Cautious,
    /// The same invented claim again.
    Stubborn,
}

/// The scripted model: drafts each theme from its evidence (faithful paraphrases, one inline
/// placeholder, and in the emicizumab theme the invented claim), and answers repairs as told.
/// Answers are wrapped in prose and fences, as models do.
fn script(repair: Repair, answers: Arc<Mutex<Vec<String>>>) -> impl Fn(&ChatCall) -> String {
    move |call: &ChatCall| {
        let evidence = evidence_lines(&call.user);
        let sentences: Vec<serde_json::Value> = if call.system.contains("one thematic section") {
            let mut drafted: Vec<serde_json::Value> = evidence
                .iter()
                .map(|(id, text)| sentence("findings", &faithful_paraphrase(text), &[id]))
                .collect();
            if let [(first_id, first), (second_id, second), ..] = evidence.as_slice() {
                // An inline placeholder in mid-sentence, the rest of the ids in `spans`.
                let inline = format!(
                    "{} [[{first_id}]], while another found that {}",
                    faithful_paraphrase(first).trim_end_matches('.'),
                    faithful_paraphrase(second).replace("One study reported that ", "")
                );
                drafted.push(sentence("debates", &inline, &[second_id]));
            }
            if call.user.contains("Theme: Emicizumab prophylaxis") {
                drafted.push(sentence("findings", INVENTED, &[&evidence[0].0]));
            }
            drafted
        } else {
            let cited = call
                .user
                .lines()
                .find_map(|line| line.strip_prefix("It cited: "))
                .unwrap_or_default()
                .split(", ")
                .next()
                .unwrap_or_default()
                .to_owned();
            match repair {
                Repair::Cautious => {
                    let text = evidence
                        .iter()
                        .find(|(id, _)| *id == cited)
                        .map(|(_, text)| text.clone())
                        .unwrap_or_default();
                    vec![sentence(
                        "findings",
                        &format!(
                            "The evidence suggests that {}",
                            faithful_paraphrase(&text).replace("One study reported that ", "")
                        ),
                        &[&cited],
                    )]
                }
                Repair::Stubborn => vec![sentence("findings", INVENTED, &[&cited])],
            }
        };
        let answer = format!(
            "Here is the section:\n```json\n{}\n```",
            serde_json::json!({ "sentences": sentences })
        );
        answers.lock().expect("answers").push(answer.clone());
        answer
    }
}

fn client() -> Client {
    Client::new(HttpConfig {
        max_retries: 0,
        timeout: Duration::from_secs(20),
        ..HttpConfig::default()
    })
    .expect("client")
}

fn metered(llm: &ScriptedLlm, cache: Option<&std::path::Path>, budget: Option<f64>) -> Metered {
    Metered::new(
        Box::new(OpenAiCompatible::new(&client(), &llm.openai_url(), None)),
        cache.map(ResponseCache::new),
        PriceTable::list_prices().with(MODEL, Price::new(1.0, 2.0)),
        budget,
    )
}

fn write(fixture: &Fixture, provider: &Metered) -> Result<LlmWritten, Error> {
    write_with_llm(
        &fixture.input(),
        provider,
        &LlmWriteConfig::for_model(MODEL),
    )
}

/// The theme parts' sentences: all paraphrases, each citing exactly its spans' works.
fn theme_sentences(review: &Review) -> Vec<&litrev_model::Sentence> {
    review
        .sections
        .iter()
        .filter(|section| section.kind == SectionKind::Theme)
        .flat_map(|section| section.subsections.iter())
        .flat_map(|part| part.paragraphs.iter())
        .flat_map(|paragraph| paragraph.sentences.iter())
        .collect()
}

#[test]
fn placeholders_resolve_and_an_unsupported_claim_is_repaired() {
    let fixture = Fixture::new();
    let answers = Arc::default();
    let llm = ScriptedLlm::start(script(Repair::Cautious, Arc::clone(&answers)));
    let provider = metered(&llm, None, None);
    let written = write(&fixture, &provider).expect("written");
    let report = &written.report;

    assert_eq!(report.sections, 2);
    assert_eq!(report.repaired, 1, "{report:?}");
    assert_eq!(report.dropped, 0, "{report:?}");
    assert_eq!(report.drafted, report.accepted_at_once + 1, "{report:?}");
    assert!(report.kept_extractive.is_empty(), "{report:?}");

    let sentences = theme_sentences(&written.review);
    assert_eq!(sentences.len(), report.accepted_at_once + 1);
    for sentence in &sentences {
        let Basis::Paraphrase(spans) = &sentence.basis else {
            panic!("{sentence:?}");
        };
        // Every citation resolves to an included work, and exactly the spans' works are cited.
        let cited: Vec<&WorkId> = sentence.cited().collect();
        assert!(
            cited
                .iter()
                .all(|work| fixture.included.contains_key(*work))
        );
        for span in spans {
            assert!(cited.contains(&&span.work), "{sentence:?}");
        }
        assert!(!sentence.plain_text().contains("[["), "{sentence:?}");
    }
    // The inline placeholder became a citation in mid-sentence.
    assert!(sentences.iter().any(|sentence| matches!(
        sentence.segments.as_slice(),
        [Segment::Text(_), Segment::Cite { .. }, Segment::Text(middle), Segment::Cite { .. }, Segment::Text(_)]
            if middle.starts_with(", while another found that")
    )));
    // The invented claim is gone; its cautious rewrite is in.
    let all_text: String = sentences
        .iter()
        .map(|sentence| sentence.plain_text())
        .collect();
    assert!(!all_text.contains("99"), "{all_text}");
    assert!(
        all_text.contains("The evidence suggests that"),
        "{all_text}"
    );
    // The repair prompt said why.
    let repair = llm
        .calls()
        .into_iter()
        .find(|call| call.system.contains("check one sentence"))
        .expect("a repair call");
    assert!(repair.user.contains("99"), "{}", repair.user);

    // The review passes the audit, paraphrases included.
    let audited = litrev_audit::audit(&written.review, &fixture.included, &BTreeMap::new())
        .expect("grounded");
    assert_eq!(audited.paraphrased_sentences, sentences.len());

    // Three calls (two drafts, one repair), each counted from the answer's usage.
    assert_eq!(llm.requests(), 3);
    let ledger = provider.ledger();
    let phases: Vec<(&str, u64)> = ledger
        .phases
        .iter()
        .map(|line| (line.phase.as_str(), line.calls))
        .collect();
    assert_eq!(phases, [("write.draft", 2), ("write.repair", 1)]);
    let calls = llm.calls();
    let input: u64 = calls
        .iter()
        .map(|call| words(&call.system) + words(&call.user))
        .sum();
    let output: u64 = answers
        .lock()
        .expect("answers")
        .iter()
        .map(|answer| words(answer))
        .sum();
    let total = ledger.total();
    assert_eq!((total.input_tokens, total.output_tokens), (input, output));
    let cost = (input as f64 + 2.0 * output as f64) / 1_000_000.0;
    assert!((total.cost_usd - cost).abs() < 1e-12, "{total:?}");
}

#[test]
fn a_claim_still_unsupported_after_the_last_round_is_dropped() {
    let fixture = Fixture::new();
    let llm = ScriptedLlm::start(script(Repair::Stubborn, Arc::default()));
    let written = write(&fixture, &metered(&llm, None, None)).expect("written");
    let report = &written.report;
    assert_eq!(report.repair_rounds, 2);
    assert_eq!(report.repaired, 0);
    assert_eq!(report.dropped, 1);
    let dropped = &report.dropped_sentences[0];
    assert_eq!(dropped.section, "Emicizumab prophylaxis");
    assert!(dropped.text.contains("99%"));
    assert!(dropped.why.contains("99"), "{}", dropped.why);
    // Two drafts, then the same repair twice (no cache here).
    assert_eq!(llm.requests(), 4);
    let all_text: String = theme_sentences(&written.review)
        .iter()
        .map(|sentence| sentence.plain_text())
        .collect();
    assert!(!all_text.contains("99"), "{all_text}");
    litrev_audit::audit(&written.review, &fixture.included, &BTreeMap::new()).expect("grounded");
}

#[test]
fn a_budget_too_small_stops_before_any_call() {
    let fixture = Fixture::new();
    let llm = ScriptedLlm::start(script(Repair::Cautious, Arc::default()));
    // Two drafts of up to 3,000 tokens at $2 per million: about $0.012 at worst.
    let error = write(&fixture, &metered(&llm, None, Some(0.005))).expect_err("over budget");
    let Error::Llm(LlmError::OverBudget { spent, calls, .. }) = &error else {
        panic!("{error}");
    };
    assert_eq!((*spent, *calls), (0.0, 2));
    let message = error.to_string();
    assert!(message.contains("Raise --budget"), "{message}");
    assert!(message.contains("$0.0000 of $0.0050 spent"), "{message}");
    assert_eq!(llm.requests(), 0);
}

#[test]
fn cached_answers_are_not_requested_again() {
    let fixture = Fixture::new();
    let llm = ScriptedLlm::start(script(Repair::Cautious, Arc::default()));
    let home = tempfile::tempdir().expect("home");
    let cache = home.path().join("llm-cache");
    let first = write(&fixture, &metered(&llm, Some(&cache), None)).expect("first");
    assert_eq!(llm.requests(), 3);
    let provider = metered(&llm, Some(&cache), None);
    let second = write(&fixture, &provider).expect("second");
    assert_eq!(llm.requests(), 3, "the second run asked the server again");
    assert_eq!(first.review, second.review);
    let total = provider.ledger().total();
    assert_eq!((total.calls, total.cache_hits), (0, 3));
    assert_eq!(total.cost_usd, 0.0);
}
