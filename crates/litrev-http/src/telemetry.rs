//! The call log: one `CallRecord` per network attempt or cache hit, and the per-source
//! `SourceSummary` a run records (requests, retries, cache hits, failures, bytes, cost).

use std::time::Duration;

use crate::Method;

/// One network attempt or cache hit, as the run record and progress reports see it.
#[derive(Clone, Debug, PartialEq)]
pub struct CallRecord {
    /// The source's name.
    pub source: &'static str,
    /// The request's telemetry label ("search", "works-by-id"…).
    pub endpoint: String,
    /// GET or POST.
    pub method: Method,
    /// The URL without secrets.
    pub url: String,
    /// The HTTP status, when a response arrived.
    pub status: Option<u16>,
    /// Body bytes received (or served from the cache).
    pub bytes: u64,
    /// Time from sending to the end of the body (or of the cache lookup).
    pub latency: Duration,
    /// Cost units of the attempt; 0 for a cache hit.
    pub cost: f64,
    /// Whether the disk cache answered.
    pub cache_hit: bool,
    /// 1 for the first try, 2 for the first retry…; 0 for a cache hit.
    pub attempt: u32,
    /// Why the attempt failed, without secrets; `None` on success.
    pub error: Option<String>,
}

/// Totals for one source over a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceSummary {
    /// The source's name.
    pub source: &'static str,
    /// Network attempts, retries included.
    pub requests: u64,
    /// Attempts after the first of their request.
    pub retries: u64,
    /// Requests answered by the disk cache.
    pub cache_hits: u64,
    /// Requests (not attempts) that ended in an error, circuit-open refusals included.
    pub failures: u64,
    /// Body bytes received from the network.
    pub bytes: u64,
    /// Cost units spent on the network.
    pub cost: f64,
    /// Times the circuit breaker opened.
    pub breaker_trips: u64,
}
