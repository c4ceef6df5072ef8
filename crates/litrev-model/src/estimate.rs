//! What a plan is expected to cost before it runs: requests per source and their price, with
//! the range the actual figures are expected in.

use serde::{Deserialize, Serialize};

/// The share above and below an estimate within which the actual figure is expected.
pub const ESTIMATE_TOLERANCE: f64 = 0.3;

/// One source's expected requests.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceEstimate {
    /// The API (`openalex`, `semantic-scholar`…), as its requests are recorded.
    pub source: String,
    /// Requests expected.
    pub requests: u64,
    /// US dollars expected, where the API prices calls.
    pub cost_usd: f64,
    /// Seconds expected waiting on the API's answers and its rate limit.
    #[serde(default)]
    pub api_seconds: f64,
}

/// A plan's expected cost.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Each live source asked.
    pub sources: Vec<SourceEstimate>,
    /// Requests over the sources.
    pub requests: u64,
    /// The fewest requests expected (the estimate less [`ESTIMATE_TOLERANCE`]).
    pub requests_low: u64,
    /// The most requests expected (the estimate plus [`ESTIMATE_TOLERANCE`]).
    pub requests_high: u64,
    /// US dollars over the sources.
    pub cost_usd: f64,
    /// Seconds waiting on the APIs; the steps' own computing comes on top.
    pub api_seconds: f64,
}

impl Estimate {
    /// The estimate made of these sources' figures.
    pub fn of(sources: Vec<SourceEstimate>) -> Estimate {
        let requests: u64 = sources.iter().map(|source| source.requests).sum();
        let spread = |factor: f64| (requests as f64 * factor).round() as u64;
        Estimate {
            requests,
            requests_low: spread(1.0 - ESTIMATE_TOLERANCE),
            requests_high: spread(1.0 + ESTIMATE_TOLERANCE),
            cost_usd: sources.iter().map(|source| source.cost_usd).sum(),
            api_seconds: sources.iter().map(|source| source.api_seconds).sum(),
            sources,
        }
    }
}
