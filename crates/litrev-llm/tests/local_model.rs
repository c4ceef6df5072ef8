//! Plumbing against a real (tiny) model: llama.cpp's server with SmolLM2-135M on loopback, as
//! `../shared/tools/local-llm.sh start` runs it. Structure only — valid JSON per schema, tokens
//! counted from the server's usage — never content: the model is too small to judge.
//!
//! Ignored by the default test command (building the server takes minutes and the model writes
//! a few tokens a second): `bash scripts/llm-smoke.sh` starts the server and runs them with
//! `--ignored`, passing its OpenAI base URL in `LITREV_LOCAL_LLM_URL`; run without it they
//! fail and say so. On CPUs with AMX the server needs `LOCAL_LLM_EXTRA_ARGS=--no-repack`, or it
//! dies at start-up with a general protection fault.

use std::time::Duration;

use litrev_http::{Client, HttpConfig};
use litrev_llm::{
    Anthropic, BatchSettings, JsonSchema, LlmProvider, LlmRequest, Message, OpenAiCompatible,
};
use litrev_testkit::llm::local_llm_url;

fn client() -> Client {
    Client::new(HttpConfig {
        max_retries: 0,
        // A 135M model on two busy cores writes a few tokens a second.
        timeout: Duration::from_secs(600),
        ..HttpConfig::default()
    })
    .expect("client")
}

fn request(schema: Option<JsonSchema>) -> LlmRequest {
    LlmRequest {
        model: "smollm2".into(),
        messages: vec![
            Message::system("You answer in JSON."),
            Message::user("Greet the reader."),
        ],
        max_tokens: 40,
        temperature: 0.0,
        schema,
        prompt: "greeting.v1".into(),
        phase: "test.local".into(),
    }
}

#[test]
#[ignore = "needs the local LLM server: bash scripts/llm-smoke.sh"]
fn a_real_model_answers_json_per_schema_with_usage() {
    let url = local_llm_url();
    let provider = OpenAiCompatible::new(&client(), &url, None);
    let schema = JsonSchema {
        name: "greeting".into(),
        schema: serde_json::json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["greeting", "mood"],
            "properties": {
                "greeting": {"type": "string", "maxLength": 30},
                "mood": {"type": "string", "enum": ["warm", "formal"]},
            },
        }),
    };
    let answer = provider.complete(&request(Some(schema))).expect("answer");
    let value: serde_json::Value = answer.json().expect("JSON per schema");
    assert!(value["greeting"].is_string(), "{value}");
    assert!(
        ["warm", "formal"].contains(&value["mood"].as_str().unwrap_or_default()),
        "{value}"
    );
    assert!(!answer.estimated_usage);
    assert!(answer.input_tokens > 0 && answer.output_tokens > 0);
    assert!(answer.output_tokens <= 40);
}

#[test]
#[ignore = "needs the local LLM server: bash scripts/llm-smoke.sh"]
fn a_real_model_answers_the_anthropic_messages_api_with_usage() {
    let url = local_llm_url();
    let base = url.trim_end_matches('/').trim_end_matches("/v1");
    let provider = Anthropic::new(&client(), base, None, BatchSettings::default());
    let answer = provider.complete(&request(None)).expect("answer");
    assert!(!answer.text.trim().is_empty());
    assert!(!answer.estimated_usage);
    assert!(answer.input_tokens > 0 && answer.output_tokens > 0);
}
