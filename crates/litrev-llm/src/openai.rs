//! `OpenAiCompatible`: `POST {base}/chat/completions` as OpenAI, Ollama, vLLM and llama.cpp's
//! server speak it, with `response_format: json_schema` for schema-constrained answers.

use litrev_http::{Client, Endpoint, Request, SourcePolicy};
use serde::Deserialize;

use crate::request::estimate_tokens;
use crate::{Error, LlmProvider, LlmRequest, LlmResponse, Result, Role};

/// OpenAI's own base URL; local servers are usually `http://127.0.0.1:PORT/v1`.
pub const OPENAI_URL: &str = "https://api.openai.com/v1";

const API: &str = "OpenAI-compatible chat completions";

/// A chat-completions API at a base URL, with an optional bearer key.
#[derive(Debug, Clone)]
pub struct OpenAiCompatible {
    endpoint: Endpoint,
    base_url: String,
    api_key: Option<String>,
}

impl OpenAiCompatible {
    /// The API at `base_url` (up to and including `/v1`), sending `api_key` as a bearer token
    /// when given. Requests go through `client` under the `llm-openai` source policy.
    pub fn new(client: &Client, base_url: &str, api_key: Option<String>) -> OpenAiCompatible {
        let mut policy = SourcePolicy::new("llm-openai", 0);
        policy.quota = openai_quota;
        OpenAiCompatible {
            endpoint: client.endpoint(policy),
            base_url: base_url.trim_end_matches('/').to_owned(),
            api_key: api_key.filter(|key| !key.is_empty()),
        }
    }

    /// The request body for `request`.
    fn body(request: &LlmRequest) -> serde_json::Value {
        let messages: Vec<serde_json::Value> = request
            .messages
            .iter()
            .map(|message| {
                serde_json::json!({
                    "role": match message.role {
                        Role::System => "system",
                        Role::User => "user",
                        Role::Assistant => "assistant",
                    },
                    "content": message.content,
                })
            })
            .collect();
        let mut body = serde_json::json!({
            "model": request.model,
            "messages": messages,
        });
        // Reasoning models take `max_completion_tokens` and only their default temperature.
        let reasoning = ["o1", "o3", "o4", "gpt-5"]
            .iter()
            .any(|prefix| request.model.starts_with(prefix));
        if reasoning {
            body["max_completion_tokens"] = request.max_tokens.into();
        } else {
            body["max_tokens"] = request.max_tokens.into();
            body["temperature"] = f64::from(request.temperature).into();
        }
        if let Some(schema) = &request.schema {
            body["response_format"] = serde_json::json!({
                "type": "json_schema",
                "json_schema": {
                    "name": schema.name,
                    "schema": schema.schema,
                    "strict": true,
                },
            });
        }
        body
    }
}

#[derive(Deserialize)]
struct Completion {
    choices: Vec<Choice>,
    usage: Option<Usage>,
}

#[derive(Deserialize)]
struct Choice {
    message: ChoiceMessage,
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct ChoiceMessage {
    content: Option<String>,
    refusal: Option<String>,
}

#[derive(Deserialize)]
struct Usage {
    prompt_tokens: u64,
    completion_tokens: u64,
}

impl LlmProvider for OpenAiCompatible {
    fn id(&self) -> String {
        format!("openai-compatible {}", self.base_url)
    }

    fn complete(&self, request: &LlmRequest) -> Result<LlmResponse> {
        let url = format!("{}/chat/completions", self.base_url);
        let mut http = Request::post_json(&url, &request.phase, &Self::body(request))
            .with_cacheable(false)
            .with_cost(0.0);
        if let Some(key) = &self.api_key {
            http = http.with_secret_header("authorization", &format!("Bearer {key}"));
        }
        let response = self.endpoint.send(&http)?;
        let completion: Completion = response.json()?;
        let failure = |message: String| Error::Answer {
            provider: self.id(),
            api: API,
            message,
        };
        let choice = completion
            .choices
            .into_iter()
            .next()
            .ok_or_else(|| failure("no choices in the answer".to_owned()))?;
        let text = match (choice.message.content, choice.message.refusal) {
            (Some(text), _) => text,
            (None, Some(refusal)) => {
                return Err(failure(format!("the model refused: {refusal}")));
            }
            (None, None) => String::new(),
        };
        let (input_tokens, output_tokens, estimated_usage) = match completion.usage {
            Some(usage) => (usage.prompt_tokens, usage.completion_tokens, false),
            None => (
                request.estimated_input_tokens(),
                estimate_tokens(&text),
                true,
            ),
        };
        Ok(LlmResponse {
            text,
            input_tokens,
            output_tokens,
            estimated_usage,
            truncated: choice.finish_reason.as_deref() == Some("length"),
            batched: false,
            cached: false,
        })
    }
}

/// OpenAI answers an account without credit with 429 `insufficient_quota`: retrying cannot
/// help, so it stops at once.
fn openai_quota(status: u16, body: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(body);
    (status == 429 && text.contains("insufficient_quota")).then(|| {
        "the account has no credit left: add credit at platform.openai.com, or use another \
         key or a local server (--llm-url)"
            .to_owned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{JsonSchema, Message};

    fn request(model: &str) -> LlmRequest {
        LlmRequest {
            model: model.into(),
            messages: vec![Message::system("be brief"), Message::user("hi")],
            max_tokens: 50,
            temperature: 0.5,
            schema: Some(JsonSchema {
                name: "answer".into(),
                schema: serde_json::json!({"type": "object"}),
            }),
            prompt: "p.v1".into(),
            phase: "test".into(),
        }
    }

    #[test]
    fn bodies_follow_the_chat_completions_format() {
        let body = OpenAiCompatible::body(&request("gpt-4o-mini"));
        assert_eq!(body["messages"][0]["role"], "system");
        assert_eq!(body["messages"][1]["content"], "hi");
        assert_eq!(body["max_tokens"], 50);
        assert_eq!(body["temperature"], 0.5);
        assert_eq!(body["response_format"]["type"], "json_schema");
        assert_eq!(body["response_format"]["json_schema"]["name"], "answer");
        let reasoning = OpenAiCompatible::body(&request("gpt-5-mini"));
        assert_eq!(reasoning["max_completion_tokens"], 50);
        assert!(reasoning.get("temperature").is_none());
    }

    #[test]
    fn quota_is_told_apart_from_rate_limits() {
        assert!(openai_quota(429, br#"{"error":{"code":"insufficient_quota"}}"#).is_some());
        assert!(openai_quota(429, br#"{"error":{"code":"rate_limit_exceeded"}}"#).is_none());
    }
}
