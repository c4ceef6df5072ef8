//! `Client` (one per run: the connection pool, the cache, the call log) and `Endpoint` (one
//! per source: its rate limiter and circuit breaker), with the send loop that ties them up.

use std::collections::BTreeMap;
use std::fmt;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use governor::clock::Clock;
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use reqwest::header::{CONTENT_TYPE, HeaderName, HeaderValue, RETRY_AFTER};
use retry_policies::policies::ExponentialBackoff;
use retry_policies::{Jitter, RetryDecision, RetryPolicy};

use crate::breaker::Breaker;
use crate::cache::{CachedResponse, DiskCache, ResponseStore, cache_key};
use crate::request::snippet;
use crate::{
    CallRecord, Error, HttpConfig, Method, Request, Response, Result, SourcePolicy, SourceSummary,
};

/// The HTTP client of a run: connection pool, disk cache, call log and the sources' state.
///
/// Cheap to clone (an `Arc` inside), `Send + Sync`; make one per process or run and hand out
/// endpoints from it.
#[derive(Clone)]
pub struct Client {
    shared: Arc<Shared>,
}

/// One source's handle on the client: sends requests under the source's rate limit and
/// circuit breaker, sharing the client's cache and call log.
///
/// Cheap to clone and `Send + Sync`, so a source's worker threads can each hold one.
#[derive(Clone)]
pub struct Endpoint {
    shared: Arc<Shared>,
    state: Arc<SourceState>,
}

struct Shared {
    http: reqwest::blocking::Client,
    config: HttpConfig,
    cache: Option<Arc<dyn ResponseStore>>,
    calls: Mutex<Vec<CallRecord>>,
    /// One state per source name, so two endpoints of a source share limiter and breaker.
    sources: Mutex<BTreeMap<&'static str, Arc<SourceState>>>,
}

struct SourceState {
    policy: SourcePolicy,
    /// `None` when the policy asks for no limit (0 requests per second).
    limiter: Option<DefaultDirectRateLimiter>,
    breaker: Mutex<Breaker>,
    summary: Mutex<SourceSummary>,
}

/// What one attempt came to.
enum Verdict {
    Success(CachedResponse),
    Retry {
        error: String,
        retry_after: Option<Duration>,
    },
    Quota(String),
    Refused {
        status: u16,
        message: String,
    },
    Fatal(Error),
}

/// One attempt's outcome with what the call log needs.
struct Attempt {
    status: Option<u16>,
    bytes: u64,
    verdict: Verdict,
}

impl Client {
    /// Builds the HTTP client and opens the disk cache when `config.cache_dir` is set.
    ///
    /// # Errors
    /// `Build` when TLS or the client cannot be set up; `Cache` when the cache file cannot
    /// be opened or created.
    pub fn new(config: HttpConfig) -> Result<Self> {
        let http = crate::blocking_client_builder()
            .user_agent(config.user_agent.as_str())
            .timeout(config.timeout)
            .connect_timeout(config.timeout)
            .redirect(reqwest::redirect::Policy::limited(10))
            .build()
            .map_err(|error| Error::Build {
                source: "client",
                message: describe(&error),
            })?;
        let cache: Option<Arc<dyn ResponseStore>> = match (&config.shared_cache, &config.cache_dir)
        {
            (Some(shared), _) => Some(shared.clone()),
            (None, Some(dir)) => Some(Arc::new(DiskCache::open(
                dir,
                config.cache_ttl,
                config.cache_max_bytes,
            )?)),
            (None, None) => None,
        };
        Ok(Self {
            shared: Arc::new(Shared {
                http,
                config,
                cache,
                calls: Mutex::new(Vec::new()),
                sources: Mutex::new(BTreeMap::new()),
            }),
        })
    }

    /// The endpoint of `policy.source`; calling it again with the same name returns a handle
    /// on the same limiter and breaker (the first policy registered for the name wins).
    pub fn endpoint(&self, policy: SourcePolicy) -> Endpoint {
        let state = lock(&self.shared.sources)
            .entry(policy.source)
            .or_insert_with(|| Arc::new(SourceState::new(policy)))
            .clone();
        Endpoint {
            shared: self.shared.clone(),
            state,
        }
    }

    /// Every network attempt and cache hit so far, in the order they finished.
    pub fn calls(&self) -> Vec<CallRecord> {
        lock(&self.shared.calls).clone()
    }

    /// Totals per source, ordered by source name.
    pub fn summary(&self) -> Vec<SourceSummary> {
        lock(&self.shared.sources)
            .values()
            .map(|state| lock(&state.summary).clone())
            .collect()
    }
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("config", &self.shared.config)
            .finish_non_exhaustive()
    }
}

impl Endpoint {
    /// The source's name.
    pub fn source(&self) -> &'static str {
        self.state.policy.source
    }

    /// Sends a request: cache, breaker, then attempts under the rate limit until success, a
    /// non-retryable answer, or the retry budget is spent (see the crate docs).
    ///
    /// # Errors
    /// `Status` for a non-retryable status (404 included: the source decides what it means),
    /// `Quota` when the source's quota detector fires, `CircuitOpen` while the source is
    /// skipped, `GaveUp` after `max_retries` retries, `Build` for a bad URL or header,
    /// `Cache` when the cache cannot be read or written.
    pub fn send(&self, request: &Request) -> Result<Response> {
        let key = match (&self.shared.cache, request.cacheable) {
            (Some(_), true) => Some(cache_key(request)),
            _ => None,
        };
        if let (Some(cache), Some(key)) = (&self.shared.cache, &key) {
            let started = Instant::now();
            match cache.get(key) {
                Ok(Some(hit)) => return Ok(self.cache_hit(request, hit, started.elapsed())),
                Ok(None) => {}
                Err(error) => return Err(self.failed(error)),
            }
        }
        let refusal = lock(&self.state.breaker).check(Instant::now());
        if let Err(refusal) = refusal {
            return Err(self.failed(Error::CircuitOpen {
                source: self.source(),
                retry_in: refusal.retry_in,
                failures: refusal.failures,
                last_error: refusal.last_error,
            }));
        }
        let url = self.full_url(request).map_err(|error| self.failed(error))?;
        let backoff = self.backoff();
        let first_started = SystemTime::now();
        let mut attempt_number = 0;
        loop {
            attempt_number += 1;
            self.wait_for_permit();
            let started = Instant::now();
            let attempt = self.attempt(request, &url);
            self.record_attempt(request, &attempt, attempt_number, started.elapsed());
            match attempt.verdict {
                Verdict::Success(fetched) => {
                    lock(&self.state.breaker).record_success();
                    if let (Some(cache), Some(key)) = (&self.shared.cache, &key) {
                        cache
                            .put(key, &request.url, &fetched)
                            .map_err(|error| self.failed(error))?;
                    }
                    return Ok(Response {
                        status: fetched.status,
                        body: fetched.body,
                        content_type: fetched.content_type,
                        from_cache: false,
                        source: self.source(),
                        url: request.url.clone(),
                        headers: fetched.headers,
                    });
                }
                Verdict::Retry { error, retry_after } => {
                    let RetryDecision::Retry { execute_after } =
                        backoff.should_retry(first_started, attempt_number - 1)
                    else {
                        return Err(self.gave_up(request, attempt_number, error));
                    };
                    let backoff_wait = execute_after
                        .duration_since(SystemTime::now())
                        .unwrap_or_default();
                    let wait = backoff_wait
                        .max(retry_after.unwrap_or_default())
                        .min(self.shared.config.backoff_max);
                    std::thread::sleep(wait);
                }
                Verdict::Quota(message) => {
                    return Err(self.failed(Error::Quota {
                        source: self.source(),
                        message: redact(&message, request),
                    }));
                }
                Verdict::Refused { status, message } => {
                    return Err(self.failed(Error::Status {
                        source: self.source(),
                        url: request.url.clone(),
                        status,
                        message,
                    }));
                }
                Verdict::Fatal(error) => return Err(self.failed(error)),
            }
        }
    }

    /// One network attempt: send, read the whole body, classify.
    fn attempt(&self, request: &Request, url: &reqwest::Url) -> Attempt {
        let unanswered = |verdict| Attempt {
            status: None,
            bytes: 0,
            verdict,
        };
        let builder = match self.build(request, url) {
            Ok(builder) => builder,
            Err(error) => return unanswered(Verdict::Fatal(error)),
        };
        let response = match builder.send() {
            Ok(response) => response,
            Err(error) if error.is_builder() => {
                return unanswered(Verdict::Fatal(Error::Build {
                    source: self.source(),
                    message: redact(&describe(&error), request),
                }));
            }
            Err(error) => {
                return unanswered(Verdict::Retry {
                    error: redact(&describe(&error), request),
                    retry_after: None,
                });
            }
        };
        let status = response.status().as_u16();
        let header = |name| {
            response
                .headers()
                .get(name)
                .and_then(|value: &HeaderValue| value.to_str().ok())
                .map(str::to_owned)
        };
        let content_type = header(CONTENT_TYPE);
        let headers: Vec<(String, String)> = response
            .headers()
            .iter()
            .filter_map(|(name, value)| {
                Some((
                    name.as_str().to_ascii_lowercase(),
                    value.to_str().ok()?.to_owned(),
                ))
            })
            .collect();
        let retry_after =
            header(RETRY_AFTER).and_then(|value| parse_retry_after(&value, SystemTime::now()));
        let expected_bytes = response.content_length();
        let body = match response.bytes() {
            Ok(body) => body.to_vec(),
            Err(error) => {
                return Attempt {
                    status: Some(status),
                    bytes: 0,
                    verdict: Verdict::Retry {
                        error: redact(&format!("truncated body: {}", describe(&error)), request),
                        retry_after,
                    },
                };
            }
        };
        let bytes = body.len() as u64;
        let verdict = if expected_bytes.is_some_and(|expected| bytes < expected) {
            Verdict::Retry {
                error: format!(
                    "truncated body: {bytes} of {} bytes",
                    expected_bytes.unwrap_or_default()
                ),
                retry_after,
            }
        } else {
            self.classify(request, status, content_type, body, retry_after)
        };
        let verdict = match verdict {
            Verdict::Success(fetched) => Verdict::Success(CachedResponse { headers, ..fetched }),
            other => other,
        };
        Attempt {
            status: Some(status),
            bytes,
            verdict,
        }
    }

    fn classify(
        &self,
        request: &Request,
        status: u16,
        content_type: Option<String>,
        body: Vec<u8>,
        retry_after: Option<Duration>,
    ) -> Verdict {
        if (200..300).contains(&status) {
            return Verdict::Success(CachedResponse {
                status,
                content_type,
                body,
                headers: Vec::new(),
            });
        }
        if let Some(message) = (self.state.policy.quota)(status, &body) {
            return Verdict::Quota(message);
        }
        let said = redact(&snippet(&body, 300), request);
        if matches!(status, 408 | 429 | 500 | 502 | 503 | 504) {
            return Verdict::Retry {
                error: format!("HTTP {status}: {said}"),
                retry_after,
            };
        }
        Verdict::Refused {
            status,
            message: format!("{said} ({})", status_advice(status)),
        }
    }

    fn build(
        &self,
        request: &Request,
        url: &reqwest::Url,
    ) -> Result<reqwest::blocking::RequestBuilder> {
        let method = match request.method {
            Method::Get => reqwest::Method::GET,
            Method::Post => reqwest::Method::POST,
        };
        let mut builder = self.shared.http.request(method, url.clone());
        for (name, value) in &request.headers {
            builder = builder.header(name.as_str(), value.as_str());
        }
        for (name, value) in &request.secret_headers {
            let name = HeaderName::from_bytes(name.as_bytes()).map_err(|_| Error::Build {
                source: self.source(),
                message: format!("invalid secret header name {name:?}"),
            })?;
            let mut value = HeaderValue::from_str(value).map_err(|_| Error::Build {
                source: self.source(),
                message: format!("the value of secret header {name} is not a valid header value"),
            })?;
            value.set_sensitive(true);
            builder = builder.header(name, value);
        }
        if let Some(body) = &request.body {
            builder = builder.body(body.clone());
        }
        Ok(builder)
    }

    /// The URL to send: the request's URL with the secret parameters appended.
    fn full_url(&self, request: &Request) -> Result<reqwest::Url> {
        let mut url = reqwest::Url::parse(&request.url).map_err(|error| Error::Build {
            source: self.source(),
            message: format!("invalid URL {:?}: {error}", request.url),
        })?;
        if !request.secret_params.is_empty() {
            let mut query = url.query_pairs_mut();
            for (name, value) in &request.secret_params {
                query.append_pair(name, value);
            }
        }
        Ok(url)
    }

    fn backoff(&self) -> ExponentialBackoff {
        let config = &self.shared.config;
        ExponentialBackoff::builder()
            .retry_bounds(
                config.backoff_base.min(config.backoff_max),
                config.backoff_max,
            )
            .jitter(Jitter::Full)
            .base(2)
            .build_with_max_retries(config.max_retries)
    }

    /// Blocks until the source's rate limiter grants a permit.
    fn wait_for_permit(&self) {
        let Some(limiter) = &self.state.limiter else {
            return;
        };
        while let Err(not_until) = limiter.check() {
            std::thread::sleep(not_until.wait_time_from(limiter.clock().now()));
        }
    }

    fn cache_hit(&self, request: &Request, hit: CachedResponse, latency: Duration) -> Response {
        let bytes = hit.body.len() as u64;
        lock(&self.shared.calls).push(CallRecord {
            source: self.source(),
            endpoint: request.endpoint.clone(),
            method: request.method,
            url: request.url.clone(),
            status: Some(hit.status),
            bytes,
            latency,
            cost: 0.0,
            cache_hit: true,
            attempt: 0,
            error: None,
        });
        lock(&self.state.summary).cache_hits += 1;
        Response {
            status: hit.status,
            body: hit.body,
            content_type: hit.content_type,
            from_cache: true,
            source: self.source(),
            url: request.url.clone(),
            headers: Vec::new(),
        }
    }

    fn record_attempt(&self, request: &Request, attempt: &Attempt, number: u32, latency: Duration) {
        let error = match &attempt.verdict {
            Verdict::Success(_) => None,
            Verdict::Retry { error, .. } => Some(error.clone()),
            Verdict::Quota(message) => {
                Some(format!("quota exhausted: {}", redact(message, request)))
            }
            Verdict::Refused { status, message } => Some(format!("HTTP {status}: {message}")),
            Verdict::Fatal(error) => Some(error.to_string()),
        };
        lock(&self.shared.calls).push(CallRecord {
            source: self.source(),
            endpoint: request.endpoint.clone(),
            method: request.method,
            url: request.url.clone(),
            status: attempt.status,
            bytes: attempt.bytes,
            latency,
            cost: request.cost,
            cache_hit: false,
            attempt: number,
            error,
        });
        let mut summary = lock(&self.state.summary);
        summary.requests += 1;
        if number > 1 {
            summary.retries += 1;
        }
        summary.bytes += attempt.bytes;
        summary.cost += request.cost;
    }

    /// Counts a failed request and passes its error through.
    fn failed(&self, error: Error) -> Error {
        lock(&self.state.summary).failures += 1;
        error
    }

    /// The retry budget is spent: one breaker failure, maybe a trip.
    fn gave_up(&self, request: &Request, attempts: u32, last_error: String) -> Error {
        let policy = &self.state.policy;
        let tripped = lock(&self.state.breaker).record_failure(
            Instant::now(),
            policy.breaker_failures,
            policy.breaker_cooldown,
            &last_error,
        );
        if tripped {
            lock(&self.state.summary).breaker_trips += 1;
        }
        self.failed(Error::GaveUp {
            source: self.source(),
            url: request.url.clone(),
            attempts,
            last_error,
        })
    }
}

impl fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Endpoint")
            .field("policy", &self.state.policy)
            .finish_non_exhaustive()
    }
}

impl SourceState {
    fn new(policy: SourcePolicy) -> Self {
        let spaced = policy
            .min_interval
            .and_then(Quota::with_period)
            .map(|quota| RateLimiter::direct(quota.allow_burst(NonZeroU32::MIN)));
        let limiter = spaced.or_else(|| {
            NonZeroU32::new(policy.requests_per_second).map(|rate| {
                let burst = NonZeroU32::new(policy.burst).unwrap_or(NonZeroU32::MIN);
                RateLimiter::direct(Quota::per_second(rate).allow_burst(burst))
            })
        });
        Self {
            policy,
            limiter,
            breaker: Mutex::new(Breaker::default()),
            summary: Mutex::new(SourceSummary {
                source: policy.source,
                ..SourceSummary::default()
            }),
        }
    }
}

/// Locks a mutex whose data stays consistent even if a holder panicked (counters, logs).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A reqwest error as a sentence, without its URL (which would carry the secret parameters),
/// with its chain of causes ("operation timed out", "connection reset by peer").
fn describe(error: &reqwest::Error) -> String {
    let kind = if error.is_timeout() {
        "timed out"
    } else if error.is_connect() {
        "cannot connect"
    } else if error.is_body() || error.is_decode() {
        "reading the body failed"
    } else if error.is_redirect() {
        "too many redirects"
    } else {
        "request failed"
    };
    let mut message = kind.to_owned();
    let mut cause: Option<&dyn std::error::Error> = std::error::Error::source(error);
    while let Some(inner) = cause {
        message.push_str(": ");
        message.push_str(&inner.to_string());
        cause = inner.source();
    }
    message
}

/// Removes every secret value (raw and percent-encoded) from a message.
fn redact(message: &str, request: &Request) -> String {
    let mut redacted = message.to_owned();
    for (_, secret) in request.secret_params.iter().chain(&request.secret_headers) {
        if secret.is_empty() {
            continue;
        }
        for form in [secret.clone(), percent_encode(secret)] {
            redacted = redacted.replace(&form, "[secret]");
        }
    }
    redacted
}

/// Percent-encoding as a query string writes it (spaces as `+`).
fn percent_encode(text: &str) -> String {
    let mut encoded = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'*' => {
                encoded.push(char::from(byte));
            }
            b' ' => encoded.push('+'),
            _ => encoded.push_str(&format!("%{byte:02X}")),
        }
    }
    encoded
}

/// `Retry-After` as seconds or as an HTTP date (a date in the past means now).
fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(date.duration_since(now).unwrap_or_default())
}

/// What a non-retryable status usually means, and what to check.
fn status_advice(status: u16) -> &'static str {
    match status {
        400 | 422 => {
            "the source rejected the request as malformed: its query syntax or parameters may have changed"
        }
        401 | 403 => "access refused: check the API key or its permissions",
        404 | 410 => "not found in this source",
        413 | 414 => "the request is too large: use smaller batches",
        300..=399 => "unexpected redirect: the API may have moved",
        _ => "unexpected status: retrying will not help",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_clone_send_and_sync() {
        fn check<T: Clone + Send + Sync>() {}
        check::<Client>();
        check::<Endpoint>();
    }

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(parse_retry_after(" 7 ", now), Some(Duration::from_secs(7)));
        let later = httpdate::fmt_http_date(now + Duration::from_secs(30));
        assert_eq!(
            parse_retry_after(&later, now),
            Some(Duration::from_secs(30))
        );
        let earlier = httpdate::fmt_http_date(now - Duration::from_secs(30));
        assert_eq!(parse_retry_after(&earlier, now), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon", now), None);
    }

    #[test]
    fn secrets_are_redacted_raw_and_encoded() {
        let request = Request::get("https://api.example.org/works", "search")
            .with_secret_param("api_key", "k3y/with space")
            .with_secret_header("x-api-key", "h3ader");
        let message = "bad key k3y/with space (k3y%2Fwith+space), header h3ader";
        assert_eq!(
            redact(message, &request),
            "bad key [secret] ([secret]), header [secret]"
        );
    }
}
