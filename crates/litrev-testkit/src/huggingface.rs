//! A local Hugging Face Hub stand-in for the paper search tests: it serves the recorded answer
//! of [`crate::hf_papers`] to every paper search with a query, cut to the `limit` asked for as
//! the Hub cuts its list; the same recorded papers (Daily Papers objects, as the Hub's
//! `/api/daily_papers` lists them) as the trending list, `p` pages of `limit`, when `sort` is
//! `trending` or `publishedAt`; and anything else (and a token that is not the Hub's) with the
//! Hub's error object.

use std::path::Path;

use crate::http::{FaultPlan, Reply, ServedRequest, Server};

/// Starts the stand-in over the answer folder (its `paper_result_kazakh.json`).
///
/// # Panics
/// When the answer cannot be read: the test data is broken.
pub fn hf_papers_server(answers: &Path, faults: FaultPlan) -> Server {
    let text = std::fs::read_to_string(answers.join("paper_result_kazakh.json"))
        .expect("the recorded paper search answer");
    let papers: Vec<serde_json::Value> =
        serde_json::from_str(&text).expect("the recorded answer is a list of papers");
    Server::start(move |request| answer_to(request, &papers), faults)
}

/// The Hub's error body: `{"error": …}`.
fn refused(status: u16, message: &str) -> Reply {
    Reply::json(status, &serde_json::json!({ "error": message }))
}

fn answer_to(request: &ServedRequest, papers: &[serde_json::Value]) -> Reply {
    let search = request.path == "/api/papers/search";
    if request.method != "GET" || !(search || request.path == "/api/daily_papers") {
        return refused(404, "Sorry, we can't find the page you are looking for.");
    }
    // The Hub refuses a token it does not know; its tokens open with `hf_`.
    if request
        .header("authorization")
        .is_some_and(|value| !value.starts_with("Bearer hf_"))
    {
        return refused(401, "Invalid credentials in Authorization header");
    }
    let param = |key: &str| request.param(key);
    let Some(limit) = param("limit").map_or(Some(usize::MAX), |limit| limit.parse().ok()) else {
        return refused(400, "Invalid limit");
    };
    let mut skip = 0;
    if search {
        if param("q").is_none_or(|q| q.trim().is_empty()) {
            return refused(400, "Missing query");
        }
    } else {
        let page = param("p").map_or(Some(0), |page| page.parse::<usize>().ok());
        let sorted = param("sort").is_none_or(|sort| matches!(sort, "trending" | "publishedAt"));
        let (Some(page), true) = (page, sorted) else {
            return refused(400, "Invalid p or sort");
        };
        skip = page.saturating_mul(limit);
    }
    let served: Vec<&serde_json::Value> = papers.iter().skip(skip).take(limit).collect();
    Reply::json(200, &serde_json::json!(served))
}
