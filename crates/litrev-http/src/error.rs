//! What can go wrong with a request, each variant with the context and the next step for the
//! user; no variant ever carries a secret.

use std::fmt;
use std::time::Duration;

/// A failed request. Every message names the source and says what to do next.
///
/// The trait impls are written by hand rather than derived with thiserror because thiserror
/// treats any field named `source` as the underlying error, and here `source` is the API's name.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// The server refused the request with a status that retrying cannot fix (400, 401, 403,
    /// 404, other 4xx and unexpected statuses); never retried, never counted by the breaker.
    Status {
        /// The source's name.
        source: &'static str,
        /// The request's URL, without secrets.
        url: String,
        /// The HTTP status.
        status: u16,
        /// What the server said (start of the body) and what to check.
        message: String,
    },
    /// The source's quota (daily budget, credits) is exhausted: retrying now cannot help.
    Quota {
        /// The source's name.
        source: &'static str,
        /// The source's own explanation: when the quota resets or which key to set.
        message: String,
    },
    /// The source failed too many requests in a row and is skipped until the cooldown ends.
    CircuitOpen {
        /// The source's name.
        source: &'static str,
        /// Time left before one request may try the source again.
        retry_in: Duration,
        /// Consecutive failed requests that opened the circuit.
        failures: u32,
        /// The error of the last failed request.
        last_error: String,
    },
    /// Every attempt failed with a retryable error (429, 5xx, timeout, reset, truncated body).
    GaveUp {
        /// The source's name.
        source: &'static str,
        /// The request's URL, without secrets.
        url: String,
        /// Attempts made, the first included.
        attempts: u32,
        /// The error of the last attempt.
        last_error: String,
    },
    /// The disk cache could not be opened, read or written.
    Cache {
        /// The cache file.
        path: String,
        /// What SQLite said.
        message: String,
    },
    /// The request or the client could not be built (bad URL, bad header, TLS setup).
    Build {
        /// The source's name, or "client" when building the client itself.
        source: &'static str,
        /// What was wrong.
        message: String,
    },
    /// The response arrived but its body is not what the caller expected (not UTF-8, not JSON).
    Decode {
        /// The source's name.
        source: &'static str,
        /// The request's URL, without secrets.
        url: String,
        /// What did not decode, and where.
        message: String,
    },
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// The name of the source the error concerns ("client" or "cache" when none does).
    pub fn source_name(&self) -> &'static str {
        match self {
            Self::Status { source, .. }
            | Self::Quota { source, .. }
            | Self::CircuitOpen { source, .. }
            | Self::GaveUp { source, .. }
            | Self::Build { source, .. }
            | Self::Decode { source, .. } => source,
            Self::Cache { .. } => "cache",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Status {
                source,
                url,
                status,
                message,
            } => write!(f, "{source}: HTTP {status} for {url}: {message}"),
            Self::Quota { source, message } => {
                write!(f, "{source}: quota exhausted: {message}")
            }
            Self::CircuitOpen {
                source,
                retry_in,
                failures,
                last_error,
            } => write!(
                f,
                "{source} is skipped for {} s after {failures} failed requests in a row \
                 (last error: {last_error}); the run goes on without it, resume later to fill the gap",
                retry_in.as_secs_f64().ceil()
            ),
            Self::GaveUp {
                source,
                url,
                attempts,
                last_error,
            } => write!(
                f,
                "{source}: gave up on {url} after {attempts} attempts (last error: {last_error}); \
                 the service may be down or overloaded: try again later"
            ),
            Self::Cache { path, message } => write!(
                f,
                "HTTP cache {path}: {message}; delete the file to start an empty cache, \
                 or run without a cache"
            ),
            Self::Build { source, message } => {
                write!(f, "{source}: cannot build the request: {message}")
            }
            Self::Decode {
                source,
                url,
                message,
            } => write!(
                f,
                "{source}: unexpected response from {url}: {message}; \
                 the API may have changed its format"
            ),
        }
    }
}

impl std::error::Error for Error {}
