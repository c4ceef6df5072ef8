//! The one outbound HTTP stack every live source uses: per-source rate limits, retries that
//! honour `Retry-After`, a circuit breaker, a disk cache and a log of every call.
//!
//! A run makes one [`Client`] and asks it for one [`Endpoint`] per source (OpenAlex, Semantic
//! Scholar, arXiv…), each with its [`SourcePolicy`]. [`Endpoint::send`] then does, in order:
//!
//! 1. a cache lookup (cacheable requests only): a fresh hit is answered from disk without
//!    touching the rate limiter or the breaker;
//! 2. a circuit-breaker check: a source that failed `breaker_failures` requests in a row is
//!    skipped for `breaker_cooldown`, so a dead API does not stall a whole run;
//! 3. a retry loop: wait for the source's rate limiter, send, read the whole body, classify.
//!    Success is cached and returned; 429, 5xx gateway errors, timeouts, resets and truncated
//!    bodies are retried after `max(Retry-After, exponential backoff with full jitter)`;
//!    quota exhaustion and other 4xx fail at once.
//!
//! Every attempt and every cache hit appends a [`CallRecord`]; [`Client::summary`] folds them
//! into one [`SourceSummary`] per source for the run record.
//!
//! The loop is our own rather than `reqwest-retry` middleware because it must also cover
//! reading the body (a truncated body is only seen after the headers arrived), honour
//! `Retry-After` (reqwest-retry ignores it: a 429 with `Retry-After: 2` was retried after
//! 65 ms here), detect quota exhaustion per source (a daily budget will not come back after a
//! backoff), and consult the cache before any attempt.
//!
//! Secrets (API keys) travel in [`Request::secret_params`] and [`Request::secret_headers`]:
//! they are added at send time and never reach cache keys, call records or error messages.
//!
//! The API is synchronous, like the `Source` trait: parallelism across sources comes from
//! threads, each holding a clone of its endpoint.
//!
//! ```no_run
//! use litrev_http::{Client, HttpConfig, Request, SourcePolicy};
//!
//! # fn main() -> litrev_http::Result<()> {
//! let client = Client::new(HttpConfig::default())?;
//! let openalex = client.endpoint(SourcePolicy::new("openalex", 10));
//! let request = Request::get("https://api.openalex.org/works?search=snowballing", "search")
//!     .with_secret_param("api_key", "…")
//!     .with_cost(10.0);
//! let response = openalex.send(&request)?;
//! let page: serde_json::Value = response.json()?;
//! # let _ = page;
//! # Ok(())
//! # }
//! ```

mod breaker;
mod cache;
mod client;
mod config;
mod download;
mod error;
mod request;
mod telemetry;
mod tls;

pub use cache::{CachedResponse, ResponseStore};
pub use client::{Client, Endpoint};
pub use config::{HttpConfig, SourcePolicy};
pub use download::{DownloadError, DownloadLimits, Downloaded, Downloader, is_public};
pub use error::{Error, Result};
pub use request::{Method, Request, Response};
pub use telemetry::{CallRecord, SourceSummary};
pub use tls::blocking_client_builder;
