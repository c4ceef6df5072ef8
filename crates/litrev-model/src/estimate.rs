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

/// What a run's language model may be asked, at most, in one phase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmPhaseEstimate {
    /// The phase, as the run's ledger names it (`plan`, `snowball`, `screen`…).
    pub phase: String,
    /// Calls at most.
    pub calls: u64,
    /// Input tokens over those calls, for records and texts of typical length.
    pub input_tokens: u64,
    /// Output tokens at most: every answer as long as the phase lets it be.
    pub output_tokens: u64,
}

/// What a run's language model may be asked, at most, within the plan's limits, and what
/// that costs at the model's price.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmEstimate {
    /// The model.
    pub model: String,
    /// Phase by phase, in run order.
    pub phases: Vec<LlmPhaseEstimate>,
    /// Calls over the phases.
    pub calls: u64,
    /// Input tokens over the phases.
    pub input_tokens: u64,
    /// Output tokens over the phases.
    pub output_tokens: u64,
    /// US dollars at the model's price; none for a model without a known price.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
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
    /// What the run's language model may be asked, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm: Option<LlmEstimate>,
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
            // A float sum starts from -0.0: adding 0.0 keeps a plan without live sources from
            // printing `cost_usd = -0.0`.
            cost_usd: sources.iter().map(|source| source.cost_usd).sum::<f64>() + 0.0,
            api_seconds: sources.iter().map(|source| source.api_seconds).sum::<f64>() + 0.0,
            sources,
            llm: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_estimate_of_no_source_costs_a_plain_zero() {
        let estimate = Estimate::of(Vec::new());
        assert_eq!(estimate.cost_usd.to_string(), "0");
        assert_eq!(estimate.api_seconds.to_string(), "0");
    }
}
