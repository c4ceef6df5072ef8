//! How the client behaves (`HttpConfig`, one per run) and how each source is treated
//! (`SourcePolicy`: its rate limit, circuit breaker and quota detector).

use std::path::PathBuf;
use std::time::Duration;

/// Settings shared by every source of a run: cache, timeouts, retries and identity.
#[derive(Clone, Debug)]
pub struct HttpConfig {
    /// Folder of the disk cache (`http-cache.sqlite` inside); `None` disables caching.
    pub cache_dir: Option<PathBuf>,
    /// A shared store for the responses instead of the folder (a team's database); it keeps
    /// its own freshness.
    pub shared_cache: Option<std::sync::Arc<dyn crate::ResponseStore>>,
    /// How long a cached response stays fresh; older entries are fetched again.
    pub cache_ttl: Duration,
    /// Size cap of the cache's bodies; the oldest entries are evicted beyond it.
    pub cache_max_bytes: u64,
    /// Limit for one attempt, from connecting to the last byte of the body.
    pub timeout: Duration,
    /// Retries after the first attempt before giving up (so `max_retries + 1` attempts).
    pub max_retries: u32,
    /// First backoff interval; each retry doubles it, with full jitter.
    pub backoff_base: Duration,
    /// Cap on any wait between attempts, `Retry-After` included.
    pub backoff_max: Duration,
    /// `User-Agent` header sent with every request (APIs' polite pools ask for one).
    pub user_agent: String,
}

impl Default for HttpConfig {
    /// No cache, 30 s timeout, 6 retries from 500 ms up to 60 s, a `litrev/<version>` agent.
    fn default() -> Self {
        Self {
            cache_dir: None,
            shared_cache: None,
            cache_ttl: Duration::from_secs(30 * 24 * 60 * 60),
            cache_max_bytes: 2 * 1024 * 1024 * 1024,
            timeout: Duration::from_secs(30),
            max_retries: 6,
            backoff_base: Duration::from_millis(500),
            backoff_max: Duration::from_secs(60),
            user_agent: format!(
                "litrev/{} (literature-review engine)",
                env!("CARGO_PKG_VERSION")
            ),
        }
    }
}

/// How one source (API) is treated: its rate limit, circuit breaker and quota detector.
///
/// Endpoints made with the same `source` name share one limiter and one breaker, whatever
/// their policies: the first policy registered for a name wins.
#[derive(Clone, Copy, Debug)]
pub struct SourcePolicy {
    /// Short stable name ("openalex", "semantic-scholar"…) used in records and messages.
    pub source: &'static str,
    /// Sustained request rate; 0 means no limit.
    pub requests_per_second: u32,
    /// Requests that may go out at once before the rate applies (at least 1).
    pub burst: u32,
    /// A minimum spacing between requests, for APIs slower than one request a second (arXiv
    /// asks for 3 s); when set it replaces `requests_per_second` and `burst`.
    pub min_interval: Option<Duration>,
    /// Consecutive failed requests (after their retries) that open the circuit.
    pub breaker_failures: u32,
    /// How long an open circuit skips the source before one request may try again.
    pub breaker_cooldown: Duration,
    /// Recognises quota exhaustion in a non-2xx response: `Some(message)` stops at once
    /// without retrying, and the message tells the user when the quota resets or what to set.
    /// Quota errors do not count toward the breaker (the source is not down).
    pub quota: fn(status: u16, body: &[u8]) -> Option<String>,
}

impl SourcePolicy {
    /// A policy with `requests_per_second` (burst the same), a breaker that opens after 3
    /// failed requests for 60 s, and no quota detector.
    pub fn new(source: &'static str, requests_per_second: u32) -> Self {
        Self {
            source,
            requests_per_second,
            burst: requests_per_second.max(1),
            min_interval: None,
            breaker_failures: 3,
            breaker_cooldown: Duration::from_secs(60),
            quota: no_quota,
        }
    }
}

impl SourcePolicy {
    /// A policy allowing one request per `interval`, otherwise as [`SourcePolicy::new`].
    pub fn every(source: &'static str, interval: Duration) -> Self {
        Self {
            min_interval: Some(interval),
            ..Self::new(source, 1)
        }
    }
}

/// The quota detector of a source without quotas: never exhausted.
fn no_quota(_status: u16, _body: &[u8]) -> Option<String> {
    None
}
