//! The providers against loopback servers: the OpenAI-compatible and Anthropic formats, the
//! Message Batches flow, the cache, the ledger and the budget — never a real paid API.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use litrev_http::{Client, HttpConfig};
use litrev_llm::{
    Anthropic, BatchSettings, Error, JsonSchema, LlmProvider, LlmRequest, Message, Metered,
    OpenAiCompatible, Price, PriceTable, ResponseCache,
};
use litrev_testkit::http::{FaultPlan, Reply, ServedRequest, Server};
use litrev_testkit::llm::{ScriptedLlm, words};
use serde::Deserialize;

#[derive(Debug, Deserialize, PartialEq)]
struct Greeting {
    hello: String,
}

fn client() -> Client {
    Client::new(HttpConfig {
        max_retries: 1,
        backoff_base: Duration::from_millis(1),
        timeout: Duration::from_secs(10),
        ..HttpConfig::default()
    })
    .expect("client")
}

fn request(text: &str) -> LlmRequest {
    LlmRequest {
        model: "scripted-1".into(),
        messages: vec![Message::system("Answer in JSON."), Message::user(text)],
        max_tokens: 100,
        temperature: 0.0,
        schema: Some(JsonSchema {
            name: "greeting".into(),
            schema: serde_json::json!({
                "type": "object",
                "additionalProperties": false,
                "required": ["hello"],
                "properties": {"hello": {"type": "string"}},
            }),
        }),
        prompt: "greeting.v1".into(),
        phase: "test.greet".into(),
    }
}

#[test]
fn openai_compatible_sends_the_schema_and_reads_text_and_usage() {
    let llm = ScriptedLlm::start(|call| {
        format!(
            "Sure:\n```json\n{{\"hello\": \"{}\"}}\n```",
            call.user.to_uppercase()
        )
    });
    let provider = OpenAiCompatible::new(&client(), &llm.openai_url(), Some("sk-test".into()));
    let asked = request("world");
    let answer = provider.complete(&asked).unwrap();
    assert_eq!(
        answer.json::<Greeting>().unwrap(),
        Greeting {
            hello: "WORLD".into()
        }
    );
    assert_eq!(answer.input_tokens, words("Answer in JSON.") + 1);
    assert_eq!(answer.output_tokens, words(&answer.text));
    assert!(!answer.estimated_usage && !answer.cached);
    let call = &llm.calls()[0];
    assert_eq!(call.header("authorization"), Some("Bearer sk-test"));
    assert_eq!(call.body["response_format"]["type"], "json_schema");
    assert_eq!(
        call.body["response_format"]["json_schema"]["schema"]["required"][0],
        "hello"
    );
    assert_eq!(call.model, "scripted-1");
}

#[test]
fn anthropic_messages_force_the_answer_tool() {
    let llm = ScriptedLlm::start(|_| r#"{"hello": "there"}"#.to_owned());
    let provider = Anthropic::new(
        &client(),
        &llm.anthropic_url(),
        Some("sk-ant-test".into()),
        BatchSettings::default(),
    );
    let answer = provider.complete(&request("hi")).unwrap();
    assert_eq!(answer.json::<Greeting>().unwrap().hello, "there");
    assert_eq!(answer.output_tokens, 2);
    let call = &llm.calls()[0];
    assert_eq!(call.api, "anthropic");
    assert_eq!(call.header("x-api-key"), Some("sk-ant-test"));
    assert_eq!(call.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(call.body["system"], "Answer in JSON.");
    assert_eq!(call.body["tool_choice"]["name"], "answer");
}

/// A Message Batches API: created in progress, ended on the second poll, results out of order
/// with one errored request.
fn batch_server() -> (Server, Arc<AtomicU64>) {
    let polls = Arc::new(AtomicU64::new(0));
    let counted = polls.clone();
    let base = Arc::new(std::sync::Mutex::new(String::new()));
    let base_in_handler = base.clone();
    let server = Server::start(
        move |request: &ServedRequest| {
            let base = base_in_handler.lock().expect("base").clone();
            match (request.method.as_str(), request.path.as_str()) {
                ("POST", "/v1/messages/batches") => {
                    let body: serde_json::Value =
                        serde_json::from_slice(&request.body).expect("JSON body");
                    assert_eq!(body["requests"][1]["custom_id"], "r1");
                    assert_eq!(
                        body["requests"][1]["params"]["tool_choice"]["name"],
                        "answer"
                    );
                    Reply::json(
                        200,
                        &serde_json::json!({"id": "msgbatch_1", "processing_status": "in_progress"}),
                    )
                }
                ("GET", "/v1/messages/batches/msgbatch_1") => {
                    let poll = counted.fetch_add(1, Ordering::SeqCst);
                    let status = if poll == 0 { "in_progress" } else { "ended" };
                    Reply::json(
                        200,
                        &serde_json::json!({
                            "id": "msgbatch_1",
                            "processing_status": status,
                            "results_url": format!("{base}/v1/messages/batches/msgbatch_1/results"),
                        }),
                    )
                }
                ("GET", "/v1/messages/batches/msgbatch_1/results") => {
                    let succeeded = |id: &str, hello: &str| {
                        serde_json::json!({"custom_id": id, "result": {"type": "succeeded", "message": {
                            "content": [{"type": "tool_use", "id": "t", "name": "answer", "input": {"hello": hello}}],
                            "stop_reason": "tool_use",
                            "usage": {"input_tokens": 10, "output_tokens": 3},
                        }}})
                    };
                    let errored = serde_json::json!({"custom_id": "r1", "result": {"type": "errored", "error": {"type": "overloaded_error"}}});
                    let lines = [succeeded("r2", "c"), errored, succeeded("r0", "a")]
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("\n");
                    Reply::new(200, "application/binary", lines.into_bytes())
                }
                _ => Reply::text(404, "not found"),
            }
        },
        FaultPlan::none(),
    );
    *base.lock().expect("base") = server.url();
    (server, polls)
}

#[test]
fn anthropic_batches_are_created_polled_and_read_back_in_order() {
    let (server, polls) = batch_server();
    let provider = Anthropic::new(
        &client(),
        &server.url(),
        Some("sk-ant-test".into()),
        BatchSettings {
            enabled: true,
            poll_every: Duration::from_millis(5),
            give_up_after: Duration::from_secs(10),
        },
    );
    let requests = [request("a"), request("b"), request("c")];
    let answers = provider.complete_all(&requests);
    assert_eq!(polls.load(Ordering::SeqCst), 2);
    assert_eq!(answers.len(), 3);
    let first = answers[0].as_ref().unwrap();
    assert!(first.batched);
    assert_eq!(first.json::<Greeting>().unwrap().hello, "a");
    let failed = answers[1].as_ref().unwrap_err();
    assert!(matches!(failed, Error::Batch { .. }), "{failed}");
    assert!(failed.to_string().contains("run again"), "{failed}");
    assert_eq!(
        answers[2]
            .as_ref()
            .unwrap()
            .json::<Greeting>()
            .unwrap()
            .hello,
        "c"
    );
    // Batched answers cost half.
    let metered_price = Price::new(1.0, 1.0);
    assert!((metered_price.cost(10, 3, first.batched) - 6.5e-6).abs() < 1e-12);
}

#[test]
fn metered_calls_are_cached_counted_and_kept_within_budget() {
    let llm = ScriptedLlm::start(|call| format!("{{\"hello\": \"{}\"}}", call.user));
    let folder = tempfile::tempdir().unwrap();
    let metered = Metered::new(
        Box::new(OpenAiCompatible::new(&client(), &llm.openai_url(), None)),
        Some(ResponseCache::new(folder.path().join("llm-cache"))),
        PriceTable::list_prices().with("scripted", Price::new(1_000.0, 1_000.0)),
        Some(0.5),
    );
    let answers = metered.complete_all(&[request("one"), request("two")]);
    assert!(answers.iter().all(Result::is_ok));
    assert_eq!(llm.requests(), 2);
    // The same requests again: from the cache, nothing sent, nothing paid.
    let again = metered.complete_all(&[request("one"), request("two")]);
    assert!(again.iter().all(|answer| answer.as_ref().unwrap().cached));
    assert_eq!(llm.requests(), 2);
    let ledger = metered.ledger();
    let line = &ledger.phases[0];
    assert_eq!(line.phase, "test.greet");
    assert_eq!((line.calls, line.cache_hits), (2, 2));
    let prompt_words = words("Answer in JSON.") + 1;
    assert_eq!(line.input_tokens, 2 * prompt_words);
    assert_eq!(line.output_tokens, 4);
    let expected = (2 * prompt_words + 4) as f64 * 1_000.0 / 1_000_000.0;
    assert!((line.cost_usd - expected).abs() < 1e-9, "{line:?}");
    // A call whose worst case (1,000 output tokens at $1,000 per million = $1) does not fit
    // in what is left of the $0.50 is refused before it is sent.
    let refused = metered
        .complete(&LlmRequest {
            max_tokens: 1_000,
            ..request("three")
        })
        .unwrap_err();
    assert!(matches!(refused, Error::OverBudget { .. }), "{refused}");
    assert!(refused.to_string().contains("--budget"), "{refused}");
    assert_eq!(llm.requests(), 2);
}

#[test]
fn refused_keys_say_what_to_check() {
    let server = Server::start(
        |_request: &ServedRequest| {
            Reply::json(
                401,
                &serde_json::json!({"error": {"message": "Incorrect API key provided"}}),
            )
        },
        FaultPlan::none(),
    );
    let provider = OpenAiCompatible::new(
        &client(),
        &format!("{}/v1", server.url()),
        Some("sk-secret-value".into()),
    );
    let error = provider.complete(&request("hi")).unwrap_err();
    let message = error.to_string();
    assert!(message.contains("check the API key"), "{message}");
    assert!(!message.contains("sk-secret-value"), "{message}");
}
