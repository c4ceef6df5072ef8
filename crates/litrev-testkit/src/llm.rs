//! A scripted LLM: a loopback server speaking OpenAI's chat completions
//! (`POST /v1/chat/completions`) and Anthropic's Messages (`POST /v1/messages`), whose answer
//! to each call is whatever the test's script returns for it — recorded answers, never a paid
//! API.
//!
//! Usage is counted in words (prompt words in, answer words out), so token assertions are
//! exact; every call is kept for the test to inspect.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::http::{FaultPlan, Reply, ServedRequest, Server};

/// One call the scripted model received.
#[derive(Clone, Debug, PartialEq)]
pub struct ChatCall {
    /// `openai` or `anthropic`, by the path called.
    pub api: &'static str,
    /// The model asked for.
    pub model: String,
    /// The system messages, joined by blank lines.
    pub system: String,
    /// The user messages, joined by blank lines.
    pub user: String,
    /// The whole request body.
    pub body: serde_json::Value,
    /// The request's headers (names lower-cased), API keys included: check them, never log them.
    pub headers: Vec<(String, String)>,
}

impl ChatCall {
    /// The lower-cased title of the work the call asks about (its `Title: ` line; empty when
    /// there is none).
    pub fn title(&self) -> String {
        self.user
            .lines()
            .find_map(|line| line.strip_prefix("Title: "))
            .unwrap_or_default()
            .to_lowercase()
    }
}

/// The OpenAI base URL of the real local model that `bash scripts/llm-smoke.sh` starts
/// (llama.cpp's server with SmolLM2-135M), from `LITREV_LOCAL_LLM_URL`.
///
/// # Panics
/// When the variable is unset: the ignored tests that need the model were run by hand.
pub fn local_llm_url() -> String {
    std::env::var("LITREV_LOCAL_LLM_URL")
        .ok()
        .filter(|url| !url.trim().is_empty())
        .expect("LITREV_LOCAL_LLM_URL is not set: run these tests through scripts/llm-smoke.sh")
}

/// A running scripted model; stops when dropped.
pub struct ScriptedLlm {
    server: Server,
    calls: Arc<Mutex<Vec<ChatCall>>>,
}

impl ScriptedLlm {
    /// Starts the server; `script` gives the answer text to each call (for a schema request,
    /// the JSON as text: OpenAI returns it as the message content, Anthropic as the forced
    /// tool's input when it parses, else as text).
    pub fn start(script: impl Fn(&ChatCall) -> String + Send + Sync + 'static) -> ScriptedLlm {
        let calls: Arc<Mutex<Vec<ChatCall>>> = Arc::default();
        let log = calls.clone();
        let server = Server::start(
            move |request: &ServedRequest| {
                let Some(call) = chat_call(request) else {
                    return Reply::json(
                        404,
                        &serde_json::json!({"error": {"message": format!("the scripted LLM does not serve {} {}", request.method, request.path)}}),
                    );
                };
                let answer = script(&call);
                let reply = reply(&call, &answer);
                lock(&log).push(call);
                reply
            },
            FaultPlan::none(),
        );
        ScriptedLlm { server, calls }
    }

    /// The OpenAI-style base URL, `http://127.0.0.1:PORT/v1`.
    pub fn openai_url(&self) -> String {
        format!("{}/v1", self.server.url())
    }

    /// The Anthropic-style base URL, `http://127.0.0.1:PORT`.
    pub fn anthropic_url(&self) -> String {
        self.server.url()
    }

    /// HTTP requests received, unanswerable ones included.
    pub fn requests(&self) -> u64 {
        self.server.requests()
    }

    /// The calls answered so far, in arrival order.
    pub fn calls(&self) -> Vec<ChatCall> {
        lock(&self.calls).clone()
    }
}

impl ChatCall {
    /// The first header of that name (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// `(id, text)` of every `[S12] (role) text` evidence line of a writer's prompt: what a
/// scripted writer may cite.
pub fn evidence_lines(prompt: &str) -> Vec<(String, String)> {
    prompt
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix('[')?;
            let (id, rest) = rest.split_once(']')?;
            let (_, text) = rest.trim().split_once(") ")?;
            Some((id.to_owned(), text.to_owned()))
        })
        .collect()
}

/// A faithful paraphrase of an evidence sentence: "One study reported that" and its own words.
pub fn faithful_paraphrase(text: &str) -> String {
    let body = text.trim().trim_end_matches('.');
    let mut characters = body.chars();
    let lowered: String = characters
        .next()
        .map(|first| first.to_lowercase().chain(characters).collect())
        .unwrap_or_default();
    format!("One study reported that {lowered}.")
}

/// Words in a text: the scripted model's token count.
pub fn words(text: &str) -> u64 {
    text.split_whitespace().count() as u64
}

fn chat_call(request: &ServedRequest) -> Option<ChatCall> {
    let api = match (request.method.as_str(), request.path.as_str()) {
        ("POST", "/v1/chat/completions") => "openai",
        ("POST", "/v1/messages") => "anthropic",
        _ => return None,
    };
    let body: serde_json::Value = serde_json::from_slice(&request.body).ok()?;
    let mut system: Vec<String> = body["system"]
        .as_str()
        .map(str::to_owned)
        .into_iter()
        .collect();
    let mut user = Vec::new();
    for message in body["messages"].as_array()? {
        let content = message["content"].as_str().unwrap_or_default().to_owned();
        match message["role"].as_str() {
            Some("system") => system.push(content),
            _ => user.push(content),
        }
    }
    Some(ChatCall {
        api,
        model: body["model"].as_str().unwrap_or_default().to_owned(),
        system: system.join("\n\n"),
        user: user.join("\n\n"),
        body,
        headers: request.headers.clone(),
    })
}

fn reply(call: &ChatCall, answer: &str) -> Reply {
    let input = words(&call.system) + words(&call.user);
    let output = words(answer);
    if call.api == "openai" {
        return Reply::json(
            200,
            &serde_json::json!({
                "id": "chatcmpl-scripted",
                "object": "chat.completion",
                "model": call.model,
                "choices": [{
                    "index": 0,
                    "message": {"role": "assistant", "content": answer},
                    "finish_reason": "stop",
                }],
                "usage": {
                    "prompt_tokens": input,
                    "completion_tokens": output,
                    "total_tokens": input + output,
                },
            }),
        );
    }
    let tool_input = call
        .body
        .get("tools")
        .and_then(|_| serde_json::from_str::<serde_json::Value>(answer).ok());
    let content = match tool_input {
        Some(input) => {
            serde_json::json!([{"type": "tool_use", "id": "toolu_scripted", "name": "answer", "input": input}])
        }
        None => serde_json::json!([{"type": "text", "text": answer}]),
    };
    Reply::json(
        200,
        &serde_json::json!({
            "id": "msg_scripted",
            "type": "message",
            "role": "assistant",
            "model": call.model,
            "content": content,
            "stop_reason": "end_turn",
            "usage": {"input_tokens": input, "output_tokens": output},
        }),
    )
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
