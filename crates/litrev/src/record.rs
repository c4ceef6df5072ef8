//! `run.json`: the reproducibility record of a run.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The layout version of `run.json`; bumped on any incompatible change.
pub const RECORD_FORMAT: u32 = 1;

/// The contents of `run.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRecordFile {
    /// Layout version of this file.
    pub format: u32,
    /// The tool and its version.
    pub tool: String,
    /// litrev's version.
    pub tool_version: String,
    /// Run id.
    pub run_id: String,
    /// When the run was created (UTC).
    pub created_at: String,
    /// The question.
    pub question: String,
    /// The options as given.
    pub options: Value,
    /// The plan.
    pub plan: Value,
    /// What the person changed from the generated plan (`litrev review --plan`), field by
    /// field; absent when the run followed the plan litrev generated.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plan_edits: Vec<crate::PlanEdit>,
    /// Input files with their content hashes.
    pub inputs: Vec<OutputFile>,
    /// Counts per phase.
    pub counts: Value,
    /// Output files with their content hashes (`run.json` itself excluded).
    pub outputs: Vec<OutputFile>,
    /// What each live API was asked and what it cost, summed over the run's steps (absent for
    /// runs on local snapshots only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<SourceCalls>,
    /// The plan's estimate of those calls beside what they came to (absent for runs on local
    /// snapshots only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate: Option<EstimateCheck>,
    /// The language model that drafted the themes: tokens and dollars per phase, and what
    /// its sentences came to (absent for extractive runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm: Option<crate::LlmRecord>,
    /// What the plan's limits let the model be asked at most ([`crate::estimate_llm`]), beside
    /// `llm`'s actual figures (absent for runs without a model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm_estimate: Option<litrev_model::LlmEstimate>,
    /// What each step cost: time, memory, calls, tokens and dollars.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub telemetry: Option<crate::Telemetry>,
}

/// The calls one API answered during a step or a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SourceCalls {
    /// The API (`openalex`, `semantic-scholar`…).
    pub source: String,
    /// Network requests, retries included.
    pub requests: u64,
    /// Retries among them.
    pub retries: u64,
    /// Requests answered by the disk cache.
    pub cache_hits: u64,
    /// Requests that failed for good.
    pub failures: u64,
    /// Bytes received.
    pub bytes: u64,
    /// US dollars, where the API prices calls.
    pub cost_usd: f64,
}

impl SourceCalls {
    /// What happened between two cumulative summaries of the HTTP layer, per API; APIs not
    /// called in between are left out.
    pub fn between(
        before: &[litrev_http::SourceSummary],
        after: &[litrev_http::SourceSummary],
    ) -> Vec<SourceCalls> {
        after
            .iter()
            .map(|now| {
                let then = before.iter().find(|row| row.source == now.source);
                let earlier = |field: fn(&litrev_http::SourceSummary) -> u64| then.map_or(0, field);
                SourceCalls {
                    source: now.source.to_owned(),
                    requests: now.requests - earlier(|row| row.requests),
                    retries: now.retries - earlier(|row| row.retries),
                    cache_hits: now.cache_hits - earlier(|row| row.cache_hits),
                    failures: now.failures - earlier(|row| row.failures),
                    bytes: now.bytes - earlier(|row| row.bytes),
                    cost_usd: now.cost - then.map_or(0.0, |row| row.cost),
                }
            })
            .filter(|calls| calls.requests + calls.cache_hits + calls.failures > 0)
            .collect()
    }

    /// Requests the step asked this API for, each once however often it was retried, whether
    /// the network or the disk cache answered.
    pub fn asked(&self) -> u64 {
        self.requests - self.retries.min(self.requests) + self.cache_hits
    }

    /// Sums step records per API, in order of first appearance.
    pub fn total<'a>(steps: impl IntoIterator<Item = &'a [SourceCalls]>) -> Vec<SourceCalls> {
        let mut totals: Vec<SourceCalls> = Vec::new();
        for step in steps {
            for calls in step {
                let slot = match totals.iter().position(|row| row.source == calls.source) {
                    Some(slot) => slot,
                    None => {
                        totals.push(SourceCalls {
                            source: calls.source.clone(),
                            ..SourceCalls::default()
                        });
                        totals.len() - 1
                    }
                };
                let total = &mut totals[slot];
                total.requests += calls.requests;
                total.retries += calls.retries;
                total.cache_hits += calls.cache_hits;
                total.failures += calls.failures;
                total.bytes += calls.bytes;
                total.cost_usd += calls.cost_usd;
            }
        }
        totals
    }
}

/// A file and its SHA-256.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputFile {
    /// Path or name.
    pub path: String,
    /// SHA-256, hex.
    pub sha256: String,
    /// Size in bytes.
    pub bytes: u64,
}

/// What one API was asked during a run, as its estimate counts requests.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceActual {
    /// The API.
    pub source: String,
    /// Requests asked, each once however often it was retried, the disk cache's answers
    /// included.
    pub requests: u64,
    /// US dollars.
    pub cost_usd: f64,
}

/// A plan's estimate beside the run's actual figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EstimateCheck {
    /// What the plan expected ([`crate::estimate()`]).
    pub estimated: litrev_model::Estimate,
    /// What each estimated API was asked (each request once however often it was retried, the
    /// disk cache's answers included) and what it cost.
    pub actual: Vec<SourceActual>,
    /// Requests over those APIs.
    pub actual_requests: u64,
    /// Actual over estimated requests.
    pub ratio: f64,
    /// Whether the actual requests are within the estimate's range.
    pub within_range: bool,
}

impl EstimateCheck {
    /// The check of `estimated` against a run's `calls`; none when the plan expected no
    /// request (a run on snapshots only).
    pub fn of(estimated: litrev_model::Estimate, calls: &[SourceCalls]) -> Option<EstimateCheck> {
        if estimated.sources.is_empty() {
            return None;
        }
        let actual: Vec<SourceActual> = estimated
            .sources
            .iter()
            .map(|expected| {
                let row = calls.iter().find(|row| row.source == expected.source);
                SourceActual {
                    source: expected.source.clone(),
                    requests: row.map_or(0, SourceCalls::asked),
                    cost_usd: row.map_or(0.0, |row| row.cost_usd),
                }
            })
            .collect();
        let actual_requests: u64 = actual.iter().map(|row| row.requests).sum();
        Some(EstimateCheck {
            ratio: actual_requests as f64 / estimated.requests.max(1) as f64,
            within_range: (estimated.requests_low..=estimated.requests_high)
                .contains(&actual_requests),
            actual_requests,
            actual,
            estimated,
        })
    }
}
