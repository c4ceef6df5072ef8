//! A local Tavily stand-in for the web search tests: it answers every well-formed search with
//! the answer of [`crate::tavily_answers`], its results cut to the `include_domains` asked for
//! (a result's host that is one of them or under one), as the API would answer, and refuses
//! what the API refuses (another path or method, no or a wrong bearer key, a body that is no
//! JSON object, an empty `query`, `max_results` over 20, an unknown `search_depth` or `topic`).

use std::path::Path;

use serde_json::Value;

use crate::http::{FaultPlan, Reply, ServedRequest, Server};

/// The API key the stand-in accepts.
pub const TAVILY_TEST_KEY: &str = "tvly-test";

/// Starts the stand-in over the answer folder (its `search.json`).
///
/// # Panics
/// When `search.json` cannot be read: the test data is broken.
pub fn tavily_server(answers: &Path, faults: FaultPlan) -> Server {
    let answer = std::fs::read(answers.join("search.json")).expect("the Tavily answer");
    Server::start(move |request| answer_to(request, &answer), faults)
}

/// Tavily's error body.
fn refused(status: u16, message: &str) -> Reply {
    Reply::json(status, &serde_json::json!({"detail": {"error": message}}))
}

fn answer_to(request: &ServedRequest, answer: &[u8]) -> Reply {
    if request.method != "POST" || request.path != "/search" {
        return refused(404, "Not Found");
    }
    if request.header("authorization") != Some(&format!("Bearer {TAVILY_TEST_KEY}")) {
        return refused(401, "Unauthorized: missing or invalid API key.");
    }
    let Ok(Value::Object(body)) = serde_json::from_slice::<Value>(&request.body) else {
        return refused(400, "The request body is not a JSON object.");
    };
    let query_ok = body
        .get("query")
        .and_then(Value::as_str)
        .is_some_and(|query| !query.trim().is_empty());
    let results_ok = body
        .get("max_results")
        .is_none_or(|max| max.as_u64().is_some_and(|max| max <= 20));
    let one_of = |key: &str, allowed: &[&str]| {
        body.get(key)
            .is_none_or(|value| value.as_str().is_some_and(|value| allowed.contains(&value)))
    };
    if !(query_ok
        && results_ok
        && one_of("search_depth", &["basic", "advanced", "fast", "ultra-fast"])
        && one_of("topic", &["general", "news", "finance"]))
    {
        return refused(400, "Invalid request parameters.");
    }
    let Some(domains) = body.get("include_domains").and_then(Value::as_array) else {
        return Reply::new(200, "application/json", answer.to_vec());
    };
    let domains: Vec<&str> = domains.iter().filter_map(Value::as_str).collect();
    let mut answer: Value = serde_json::from_slice(answer).expect("the Tavily answer is JSON");
    if let Some(results) = answer.get_mut("results").and_then(Value::as_array_mut) {
        results.retain(|result| {
            let host = result["url"]
                .as_str()
                .and_then(|url| url.split_once("://"))
                .map(|(_, rest)| rest.split(['/', '?', '#']).next().unwrap_or_default())
                .unwrap_or_default();
            domains
                .iter()
                .any(|domain| host == *domain || host.ends_with(&format!(".{domain}")))
        });
    }
    Reply::json(200, &answer)
}
