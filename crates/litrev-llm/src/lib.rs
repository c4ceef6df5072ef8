//! The LLM layer: one trait for every model, and what a run needs around it.
//!
//! - [`LlmProvider`]: `complete` one [`LlmRequest`] (messages, model, `max_tokens`,
//!   temperature, an optional [`JsonSchema`]) into an [`LlmResponse`] (text, input and output
//!   tokens); `complete_all` for bulk calls.
//! - [`OpenAiCompatible`]: OpenAI, Ollama, vLLM, llama.cpp's server — any
//!   `POST {base}/chat/completions`. [`Anthropic`]: the Messages API, and the Message Batches
//!   API for bulk calls at half price.
//! - [`parse_json`]: the JSON a model meant, through Markdown fences and prose around it.
//! - [`Prompt`]: versioned prompt files compiled in ([`PLAN_QUERIES`], [`SNOWBALL_RELEVANCE`],
//!   [`SCREEN_JUDGE`], [`DRAFT_SECTION`], [`REPAIR_SENTENCE`]).
//! - [`Metered`]: a provider behind the [`ResponseCache`] (keyed by provider, model, prompt
//!   version and input hash), the [`Ledger`] of tokens and dollars per phase, and a budget that
//!   refuses a call before it could overspend.
//!
//! Requests travel through `litrev-http`, the one HTTP stack: retries honouring `Retry-After`,
//! a circuit breaker and a call log, with API keys kept out of logs and errors.
//!
//! ```no_run
//! use litrev_http::{Client, HttpConfig};
//! use litrev_llm::{LlmProvider, LlmRequest, Message, Metered, OpenAiCompatible, PriceTable};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let client = Client::new(HttpConfig::default())?;
//! let openai = OpenAiCompatible::new(&client, "http://127.0.0.1:8080/v1", None);
//! let llm = Metered::new(Box::new(openai), None, PriceTable::list_prices(), None);
//! let answer = llm.complete(&LlmRequest {
//!     model: "local".into(),
//!     messages: vec![Message::user("Say hello in JSON: {\"hello\": …}")],
//!     max_tokens: 50,
//!     temperature: 0.0,
//!     schema: None,
//!     prompt: "hello.v1".into(),
//!     phase: "demo".into(),
//! })?;
//! let value: serde_json::Value = answer.json()?;
//! assert!(value.is_object() && answer.output_tokens > 0);
//! # Ok(())
//! # }
//! ```
#![warn(missing_docs)]

mod anthropic;
mod cache;
mod error;
mod json;
mod ledger;
mod metered;
mod openai;
mod prompt;
mod provider;
mod request;

pub use anthropic::{ANTHROPIC_URL, ANTHROPIC_VERSION, Anthropic, BatchSettings};
pub use cache::{AnswerStore, ResponseCache, cache_key};
pub use error::{Error, Result};
pub use json::parse_json;
pub use ledger::{Ledger, PhaseUsage, Price, PriceTable};
pub use metered::Metered;
pub use openai::{OPENAI_URL, OpenAiCompatible};
pub use prompt::{
    DRAFT_SECTION, PLAN_BRIEF, PLAN_QUERIES, Prompt, REPAIR_SENTENCE, RequestSettings,
    SCREEN_JUDGE, SNOWBALL_RELEVANCE, STUDY_CARD, WorkSlots,
};
pub use provider::{DEFAULT_PARALLEL_CALLS, LlmProvider, in_parallel};
pub use request::{JsonSchema, LlmRequest, LlmResponse, Message, Role, estimate_tokens};
