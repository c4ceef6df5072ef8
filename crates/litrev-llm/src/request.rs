//! What is asked of a model (`LlmRequest`: messages, limits, an optional JSON schema, and the
//! prompt and phase it belongs to) and what comes back (`LlmResponse`: text and token counts).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::Result;
use crate::json::parse_json;

/// Who says a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Instructions that frame the whole exchange.
    System,
    /// The caller.
    User,
    /// The model (earlier turns, or a prefilled answer).
    Assistant,
}

/// One message of a conversation.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Message {
    /// Who says it.
    pub role: Role,
    /// What is said.
    pub content: String,
}

impl Message {
    /// A system message.
    pub fn system(content: impl Into<String>) -> Message {
        Message {
            role: Role::System,
            content: content.into(),
        }
    }

    /// A user message.
    pub fn user(content: impl Into<String>) -> Message {
        Message {
            role: Role::User,
            content: content.into(),
        }
    }
}

/// A JSON schema the answer must follow (OpenAI `response_format: json_schema`, Anthropic
/// a forced tool whose input is the schema).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JsonSchema {
    /// A short name (`[a-zA-Z0-9_-]`, as OpenAI requires).
    pub name: String,
    /// The schema itself. Keep it within OpenAI's strict subset: every property required,
    /// `additionalProperties: false`.
    pub schema: serde_json::Value,
}

/// One call to a model.
///
/// `prompt` and `phase` do not reach the provider: the prompt's versioned id is part of the
/// response cache key (a new prompt version never reuses old answers) and the phase is the
/// ledger line the call's tokens and cost are counted under.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmRequest {
    /// The model (`gpt-4o-mini`, `claude-sonnet-4-5`, whatever a local server serves).
    pub model: String,
    /// The conversation; system messages first.
    pub messages: Vec<Message>,
    /// Most tokens the answer may have; also bounds the call's worst-case cost.
    pub max_tokens: u32,
    /// Sampling temperature (0 for the most repeatable answers).
    pub temperature: f32,
    /// The JSON schema of the answer, when it must be JSON.
    pub schema: Option<JsonSchema>,
    /// The versioned prompt the messages were rendered from (`draft_section.v1`).
    pub prompt: String,
    /// The ledger line (`write.draft`, `write.repair`).
    pub phase: String,
}

/// A model's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmResponse {
    /// The answer's text (for a schema request, the JSON as text).
    pub text: String,
    /// Tokens of the request, as the provider counted them.
    pub input_tokens: u64,
    /// Tokens of the answer, as the provider counted them.
    pub output_tokens: u64,
    /// Whether the provider gave no usage and the counts are estimates from the text length.
    #[serde(default)]
    pub estimated_usage: bool,
    /// Whether the answer stopped at `max_tokens` (its JSON is then likely cut off).
    #[serde(default)]
    pub truncated: bool,
    /// Whether it was answered through a batch API (priced at the batch discount).
    #[serde(default)]
    pub batched: bool,
    /// Whether it came from the response cache (nothing was sent or paid).
    #[serde(default)]
    pub cached: bool,
}

impl LlmResponse {
    /// The answer's JSON value read into `T`, tolerating Markdown fences and prose around it.
    ///
    /// # Errors
    /// `NoJson` when the text holds no JSON object or array, `Shape` when it is not a `T`.
    pub fn json<T: DeserializeOwned>(&self) -> Result<T> {
        parse_json(&self.text)
    }
}

/// A rough token count for a text: one token per three characters, rounded up.
///
/// English runs near four characters a token; three errs on the high side, which is what a
/// budget check wants.
pub fn estimate_tokens(text: &str) -> u64 {
    (text.chars().count() as u64).div_ceil(3)
}

impl LlmRequest {
    /// A pessimistic estimate of the request's input tokens: its messages and schema, plus a
    /// few tokens of framing per message.
    pub fn estimated_input_tokens(&self) -> u64 {
        let messages: u64 = self
            .messages
            .iter()
            .map(|message| estimate_tokens(&message.content) + 4)
            .sum();
        let schema = self
            .schema
            .as_ref()
            .map_or(0, |schema| estimate_tokens(&schema.schema.to_string()));
        messages + schema + 8
    }
}
