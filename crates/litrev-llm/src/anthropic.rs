//! `Anthropic`: the Messages API (`POST {base}/v1/messages`) and, for bulk calls, the Message
//! Batches API (`/v1/messages/batches`: create, poll until ended, read the results JSONL), which
//! costs half as much and may take minutes.
//!
//! A JSON schema is asked for the way Anthropic documents for structured output from every
//! model: one tool whose `input_schema` is the schema, forced with `tool_choice`; the tool
//! call's input is the answer.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use litrev_http::{Client, Endpoint, Request, SourcePolicy};
use serde::Deserialize;

use crate::request::estimate_tokens;
use crate::{Error, LlmProvider, LlmRequest, LlmResponse, Result, Role};

/// Anthropic's base URL.
pub const ANTHROPIC_URL: &str = "https://api.anthropic.com";

/// The API version header sent with every request.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

/// The tool that carries a schema-constrained answer.
const ANSWER_TOOL: &str = "answer";

const API: &str = "Anthropic Messages";

/// How bulk calls go out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BatchSettings {
    /// Send `complete_all` as one Message Batch (half price, slower) instead of parallel calls.
    pub enabled: bool,
    /// Time between two polls of a batch's status.
    pub poll_every: Duration,
    /// Give up on a batch that has not ended after this long (Anthropic allows 24 h).
    pub give_up_after: Duration,
}

impl Default for BatchSettings {
    /// Off; when on, polls every 10 s for up to 24 h.
    fn default() -> Self {
        BatchSettings {
            enabled: false,
            poll_every: Duration::from_secs(10),
            give_up_after: Duration::from_secs(24 * 60 * 60),
        }
    }
}

/// The Anthropic Messages API at a base URL.
#[derive(Debug, Clone)]
pub struct Anthropic {
    endpoint: Endpoint,
    base_url: String,
    api_key: Option<String>,
    batches: BatchSettings,
}

#[derive(Deserialize)]
struct MessageAnswer {
    content: Vec<Block>,
    usage: Option<Usage>,
    stop_reason: Option<String>,
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Block {
    Text {
        text: String,
    },
    ToolUse {
        input: serde_json::Value,
    },
    #[serde(other)]
    Other,
}

#[derive(Deserialize)]
struct Usage {
    input_tokens: u64,
    output_tokens: u64,
}

#[derive(Deserialize)]
struct Batch {
    id: String,
    processing_status: String,
    results_url: Option<String>,
}

#[derive(Deserialize)]
struct BatchLine {
    custom_id: String,
    result: BatchResult,
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum BatchResult {
    Succeeded { message: MessageAnswer },
    Errored { error: serde_json::Value },
    Canceled,
    Expired,
}

impl Anthropic {
    /// The API at `base_url` (without `/v1`), sending `api_key` as `x-api-key` when given.
    /// Requests go through `client` under the `llm-anthropic` source policy.
    pub fn new(
        client: &Client,
        base_url: &str,
        api_key: Option<String>,
        batches: BatchSettings,
    ) -> Anthropic {
        Anthropic {
            endpoint: client.endpoint(SourcePolicy::new("llm-anthropic", 0)),
            base_url: base_url.trim_end_matches('/').to_owned(),
            api_key: api_key.filter(|key| !key.is_empty()),
            batches,
        }
    }

    /// The Messages request body for `request`.
    fn body(request: &LlmRequest) -> serde_json::Value {
        let system: Vec<&str> = request
            .messages
            .iter()
            .filter(|message| message.role == Role::System)
            .map(|message| message.content.as_str())
            .collect();
        let messages: Vec<serde_json::Value> = request
            .messages
            .iter()
            .filter(|message| message.role != Role::System)
            .map(|message| {
                serde_json::json!({
                    "role": if message.role == Role::Assistant { "assistant" } else { "user" },
                    "content": message.content,
                })
            })
            .collect();
        let mut body = serde_json::json!({
            "model": request.model,
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "messages": messages,
        });
        if !system.is_empty() {
            body["system"] = system.join("\n\n").into();
        }
        if let Some(schema) = &request.schema {
            body["tools"] = serde_json::json!([{
                "name": ANSWER_TOOL,
                "description": format!("Give the answer ({}) in this shape.", schema.name),
                "input_schema": schema.schema,
            }]);
            body["tool_choice"] = serde_json::json!({"type": "tool", "name": ANSWER_TOOL});
        }
        body
    }

    fn http_request(&self, request: Request) -> Request {
        let request = request
            .with_header("anthropic-version", ANTHROPIC_VERSION)
            .with_cacheable(false)
            .with_cost(0.0);
        match &self.api_key {
            Some(key) => request.with_secret_header("x-api-key", key),
            None => request,
        }
    }

    fn failure(&self, message: String) -> Error {
        Error::Answer {
            provider: self.id(),
            api: API,
            message,
        }
    }

    /// An answer's text: the forced tool's input as JSON, else the text blocks joined.
    fn answer_of(&self, request: &LlmRequest, answer: MessageAnswer, batched: bool) -> LlmResponse {
        let mut texts = Vec::new();
        let mut tool_input = None;
        for block in answer.content {
            match block {
                Block::Text { text } => texts.push(text),
                Block::ToolUse { input } => tool_input = Some(input.to_string()),
                Block::Other => {}
            }
        }
        let text = tool_input.unwrap_or_else(|| texts.join(""));
        let (input_tokens, output_tokens, estimated_usage) = match answer.usage {
            Some(usage) => (usage.input_tokens, usage.output_tokens, false),
            None => (
                request.estimated_input_tokens(),
                estimate_tokens(&text),
                true,
            ),
        };
        LlmResponse {
            text,
            input_tokens,
            output_tokens,
            estimated_usage,
            truncated: answer.stop_reason.as_deref() == Some("max_tokens"),
            batched,
            cached: false,
        }
    }

    /// Sends `requests` as one Message Batch and waits for its results, in request order.
    ///
    /// # Errors
    /// When the batch cannot be created, polled or read, or has not ended within
    /// [`BatchSettings::give_up_after`]; a request that errored, was canceled or expired
    /// inside the batch gets its own `Batch` error.
    pub fn batch(&self, requests: &[LlmRequest]) -> Result<Vec<Result<LlmResponse>>> {
        let items: Vec<serde_json::Value> = requests
            .iter()
            .enumerate()
            .map(|(index, request)| {
                serde_json::json!({"custom_id": format!("r{index}"), "params": Self::body(request)})
            })
            .collect();
        let batches_url = format!("{}/v1/messages/batches", self.base_url);
        let create = self.http_request(Request::post_json(
            &batches_url,
            "batch-create",
            &serde_json::json!({ "requests": items }),
        ));
        let mut batch: Batch = self.endpoint.send(&create)?.json()?;
        let started = Instant::now();
        while batch.processing_status != "ended" {
            if started.elapsed() > self.batches.give_up_after {
                return Err(Error::Batch {
                    provider: self.id(),
                    batch: batch.id.clone(),
                    message: format!(
                        "not ended after {} s (status {}); it keeps running at Anthropic: \
                         resume the run later, or cancel it in the console",
                        self.batches.give_up_after.as_secs(),
                        batch.processing_status
                    ),
                });
            }
            std::thread::sleep(self.batches.poll_every);
            let poll = self.http_request(Request::get(
                &format!("{batches_url}/{}", batch.id),
                "batch-poll",
            ));
            batch = self.endpoint.send(&poll)?.json()?;
        }
        let results_url = batch.results_url.clone().ok_or_else(|| Error::Batch {
            provider: self.id(),
            batch: batch.id.clone(),
            message: "ended without a results_url; the API may have changed".to_owned(),
        })?;
        let results = self
            .endpoint
            .send(&self.http_request(Request::get(&results_url, "batch-results")))?;
        let mut by_id: BTreeMap<String, BatchResult> = BTreeMap::new();
        for line in results
            .text()?
            .lines()
            .filter(|line| !line.trim().is_empty())
        {
            let parsed: BatchLine = serde_json::from_str(line).map_err(|error| {
                self.failure(format!("a batch result line does not parse: {error}"))
            })?;
            by_id.insert(parsed.custom_id, parsed.result);
        }
        Ok(requests
            .iter()
            .enumerate()
            .map(|(index, request)| {
                let lost = |why: String| Error::Batch {
                    provider: self.id(),
                    batch: batch.id.clone(),
                    message: why,
                };
                match by_id.remove(&format!("r{index}")) {
                    Some(BatchResult::Succeeded { message }) => {
                        Ok(self.answer_of(request, message, true))
                    }
                    Some(BatchResult::Errored { error }) => Err(lost(format!(
                        "request {index} failed: {error}; run again to retry it"
                    ))),
                    Some(BatchResult::Canceled) => Err(lost(format!(
                        "request {index} was canceled; run again to retry it"
                    ))),
                    Some(BatchResult::Expired) => Err(lost(format!(
                        "request {index} expired before it ran; run again to retry it"
                    ))),
                    None => Err(lost(format!("no result for request {index}"))),
                }
            })
            .collect())
    }
}

impl LlmProvider for Anthropic {
    fn id(&self) -> String {
        format!("anthropic {}", self.base_url)
    }

    fn complete(&self, request: &LlmRequest) -> Result<LlmResponse> {
        let url = format!("{}/v1/messages", self.base_url);
        let http = self.http_request(Request::post_json(
            &url,
            &request.phase,
            &Self::body(request),
        ));
        let answer: MessageAnswer = self.endpoint.send(&http)?.json()?;
        Ok(self.answer_of(request, answer, false))
    }

    fn complete_all(&self, requests: &[LlmRequest]) -> Vec<Result<LlmResponse>> {
        if self.batches.enabled && requests.len() > 1 {
            return match self.batch(requests) {
                Ok(answers) => answers,
                Err(error) => requests.iter().map(|_| Err(error.clone())).collect(),
            };
        }
        crate::provider::in_parallel(requests, crate::DEFAULT_PARALLEL_CALLS, |request| {
            self.complete(request)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{JsonSchema, Message};

    #[test]
    fn bodies_carry_system_apart_and_force_the_answer_tool() {
        let request = LlmRequest {
            model: "claude-haiku-4-5".into(),
            messages: vec![Message::system("be brief"), Message::user("hi")],
            max_tokens: 50,
            temperature: 0.0,
            schema: Some(JsonSchema {
                name: "sentences".into(),
                schema: serde_json::json!({"type": "object"}),
            }),
            prompt: "p.v1".into(),
            phase: "test".into(),
        };
        let body = Anthropic::body(&request);
        assert_eq!(body["system"], "be brief");
        assert_eq!(body["messages"].as_array().map(Vec::len), Some(1));
        assert_eq!(body["messages"][0]["role"], "user");
        assert_eq!(body["tools"][0]["input_schema"]["type"], "object");
        assert_eq!(body["tool_choice"]["name"], "answer");
    }
}
