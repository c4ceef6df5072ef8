//! Shared helpers: a fast test configuration, a policy without limits worth waiting for, and
//! an echo handler whose body names the request.

use std::path::Path;
use std::time::Duration;

use litrev_http::{Client, Endpoint, HttpConfig, SourcePolicy};
use litrev_testkit::http::{Reply, ServedRequest};

/// Timeouts and backoffs small enough for a suite of seconds.
pub fn config(cache_dir: Option<&Path>) -> HttpConfig {
    HttpConfig {
        cache_dir: cache_dir.map(Path::to_path_buf),
        timeout: Duration::from_millis(300),
        max_retries: 6,
        backoff_base: Duration::from_millis(10),
        backoff_max: Duration::from_millis(200),
        ..HttpConfig::default()
    }
}

/// A generous rate limit (so the limiter is exercised without slowing tests).
pub fn policy(source: &'static str) -> SourcePolicy {
    SourcePolicy {
        burst: 1000,
        ..SourcePolicy::new(source, 1000)
    }
}

pub fn endpoint(config: HttpConfig, source: &'static str) -> (Client, Endpoint) {
    let client = Client::new(config).expect("the client builds");
    let endpoint = client.endpoint(policy(source));
    (client, endpoint)
}

/// Answers 200 with a JSON body naming the path and query (long enough to truncate).
pub fn echo(request: &ServedRequest) -> Reply {
    Reply::json(
        200,
        &serde_json::json!({
            "path": request.path,
            "query": request.query,
            "padding": "0123456789".repeat(10),
        }),
    )
}
