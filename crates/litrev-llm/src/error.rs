//! What can go wrong asking a model, each message saying what to do next; no variant ever
//! carries an API key.

/// A failed LLM call, or a call refused before it was made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The HTTP layer failed (refused status, quota, retries spent, bad URL); its message
    /// names the API and what to check.
    #[error(transparent)]
    Http(#[from] litrev_http::Error),
    /// The provider answered, but not in its documented format.
    #[error("{provider}: unexpected answer: {message}; check that the URL points at an {api} API")]
    Answer {
        /// The provider's id.
        provider: String,
        /// Which API format was expected ("OpenAI-compatible chat completions"…).
        api: &'static str,
        /// What was wrong with the answer.
        message: String,
    },
    /// The model's text holds no JSON value where one was asked for.
    #[error(
        "the model's answer holds no JSON object (it starts with {snippet:?}); a larger model, \
         a lower temperature or a larger max_tokens usually helps"
    )]
    NoJson {
        /// The start of the answer.
        snippet: String,
    },
    /// The JSON found does not have the asked shape.
    #[error("the model's JSON does not have the asked shape: {message}")]
    Shape {
        /// serde's complaint.
        message: String,
    },
    /// The call would overspend the budget; nothing was sent.
    #[error(
        "LLM budget reached: ${spent:.4} of ${budget:.4} spent, and the next {calls} call(s) \
         may cost up to ${needed:.4} ({model}); nothing more was sent. Raise --budget (e.g. \
         --budget {suggested:.2}) and run again: answers already received are cached and are \
         not paid for twice"
    )]
    OverBudget {
        /// The budget in US dollars.
        budget: f64,
        /// Spent so far (including calls still in flight, at their worst case).
        spent: f64,
        /// Worst-case cost of the refused calls.
        needed: f64,
        /// How many calls were refused.
        calls: usize,
        /// The model asked.
        model: String,
        /// A budget that would have allowed the refused calls.
        suggested: f64,
    },
    /// A budget is set but the model's price is unknown, so spending cannot be bounded.
    #[error(
        "no price is known for model `{model}`, so --budget cannot be enforced: pass \
         --llm-price INPUT,OUTPUT (US dollars per million tokens, e.g. --llm-price 0.15,0.60), \
         or drop --budget for a free local model"
    )]
    NoPrice {
        /// The model.
        model: String,
    },
    /// A prompt template could not be filled.
    #[error("prompt {prompt}: {message}; this is a bug in litrev, please report it")]
    Prompt {
        /// The prompt's id (`draft_section.v1`).
        prompt: String,
        /// What is missing or left over.
        message: String,
    },
    /// The response cache could not be read or written.
    #[error(
        "LLM response cache {path}: {message}; check that the folder is writable, or delete it to start an empty cache"
    )]
    Cache {
        /// The file or folder.
        path: String,
        /// What the file system said.
        message: String,
    },
    /// A Message Batch did not end in time or ended without this request's answer.
    #[error("{provider}: batch {batch}: {message}")]
    Batch {
        /// The provider's id.
        provider: String,
        /// The batch id.
        batch: String,
        /// What happened, and what to do.
        message: String,
    },
    /// An API key is needed and not set.
    #[error(
        "{provider} needs an API key: set {variable}, or point --llm-url at a local server that needs none"
    )]
    MissingKey {
        /// The provider.
        provider: &'static str,
        /// The environment variable to set.
        variable: &'static str,
    },
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The first `max_chars` characters of a text, for error messages.
pub(crate) fn snippet(text: &str, max_chars: usize) -> String {
    let mut out: String = text.chars().take(max_chars).collect();
    if text.chars().nth(max_chars).is_some() {
        out.push('…');
    }
    out
}
