//! Integration tests of the HTTP stack against the testkit's loopback server: retries on every
//! fault kind, `Retry-After`, non-retryable statuses, quotas, the circuit breaker, the disk
//! cache and secrets, with small timeouts so the suite takes seconds.

mod cache;
mod downloads;
mod failures;
mod replay;
mod retries;
mod secrets;
mod support;
