//! A local Brave Search stand-in for the web search tests: it serves the recorded answer of
//! [`crate::brave_answers`] to every well-formed web search, as the API would answer, and
//! refuses what the API refuses (another path, no or a wrong subscription token, a `count`
//! over 20, an `offset` over 9, an empty query).

use std::path::Path;

use crate::http::{FaultPlan, Reply, ServedRequest, Server};

/// The subscription token the stand-in accepts.
pub const BRAVE_TEST_KEY: &str = "test-brave-key";

/// Starts the stand-in over the answer folder (its `web.json`).
///
/// # Panics
/// When `web.json` cannot be read: the test data is broken.
pub fn brave_server(answers: &Path, faults: FaultPlan) -> Server {
    let answer = std::fs::read(answers.join("web.json")).expect("the recorded Brave answer");
    Server::start(move |request| answer_to(request, &answer), faults)
}

/// Brave's error body (`ErrorResponse`, as its API documents it).
fn refused(status: u16, code: &str, detail: &str) -> Reply {
    Reply::json(
        status,
        &serde_json::json!({
            "type": "ErrorResponse",
            "error": {"id": "stand-in", "status": status, "code": code, "detail": detail, "meta": {}},
            "time": 0
        }),
    )
}

fn answer_to(request: &ServedRequest, answer: &[u8]) -> Reply {
    if request.method != "GET" || request.path != "/res/v1/web/search" {
        return refused(404, "RESOURCE_NOT_FOUND", "Resource not found");
    }
    let token = request
        .headers
        .iter()
        .find(|(name, _)| name == "x-subscription-token")
        .map(|(_, value)| value.as_str());
    if token != Some(BRAVE_TEST_KEY) {
        return refused(
            401,
            "SUBSCRIPTION_TOKEN_INVALID",
            "The provided subscription token is invalid.",
        );
    }
    let param = |key: &str| {
        request
            .query
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value.as_str())
    };
    let number = |key: &str, default: usize| param(key).map_or(Some(default), |v| v.parse().ok());
    let valid = param("q").is_some_and(|q| !q.trim().is_empty())
        && number("count", 20).is_some_and(|count| (1..=20).contains(&count))
        && number("offset", 0).is_some_and(|offset| offset <= 9);
    if !valid {
        return refused(422, "VALIDATION", "Unable to validate request parameter(s)");
    }
    Reply::new(200, "application/json", answer.to_vec())
}
