//! Failures that must not be retried (4xx, quota exhaustion, bad URLs) and the circuit breaker
//! that skips a source after repeated failed requests.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use litrev_http::{Error, HttpConfig, Request, SourcePolicy};
use litrev_testkit::http::{FaultPlan, Reply, Server};

use crate::support::{config, echo, endpoint, policy};

#[test]
fn client_errors_are_not_retried_and_spare_the_breaker() {
    for status in [400, 404] {
        let server = Server::start(
            move |_| Reply::json(status, &serde_json::json!({"error": "no such work"})),
            FaultPlan::none(),
        );
        let (client, endpoint) = endpoint(config(None), "test");
        let url = format!("{}/works/W1", server.url());
        for _ in 0..5 {
            let error = endpoint
                .send(&Request::get(&url, "works-by-id"))
                .unwrap_err();
            let Error::Status {
                source,
                url: error_url,
                status: got,
                message,
            } = &error
            else {
                panic!("{error}");
            };
            assert_eq!(
                (*source, error_url.as_str(), *got),
                ("test", url.as_str(), status)
            );
            assert!(message.contains("no such work"), "{message}");
        }
        assert_eq!(server.requests(), 5, "one request per send");
        let summary = &client.summary()[0];
        assert_eq!(
            (summary.retries, summary.failures, summary.breaker_trips),
            (0, 5, 0)
        );
    }
}

#[test]
fn quota_exhaustion_stops_at_once() {
    fn openalex_quota(status: u16, body: &[u8]) -> Option<String> {
        let said = String::from_utf8_lossy(body);
        (status == 429 && said.contains("budget")).then(|| {
            "OpenAlex daily budget exhausted: wait until it resets (midnight UTC) or set OPENALEX_API_KEY"
                .to_owned()
        })
    }
    let server = Server::start(
        |_| Reply::json(429, &serde_json::json!({"error": "daily budget exceeded"})),
        FaultPlan::none(),
    );
    let (client, _) = endpoint(config(None), "test");
    let endpoint = client.endpoint(SourcePolicy {
        quota: openalex_quota,
        ..policy("openalex")
    });
    let error = endpoint
        .send(&Request::get(&format!("{}/works", server.url()), "search"))
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Quota {
                source: "openalex",
                ..
            }
        ),
        "{error}"
    );
    assert!(
        error.to_string().contains("set OPENALEX_API_KEY"),
        "{error}"
    );
    assert_eq!(server.requests(), 1);
}

#[test]
fn the_breaker_opens_after_failed_requests_and_fails_fast() {
    let healthy = Arc::new(AtomicBool::new(false));
    let switch = healthy.clone();
    let server = Server::start(
        move |request| {
            if switch.load(Ordering::SeqCst) {
                echo(request)
            } else {
                Reply::json(503, &serde_json::json!({"error": "down for maintenance"}))
            }
        },
        FaultPlan::none(),
    );
    let client = litrev_http::Client::new(HttpConfig {
        max_retries: 1,
        ..config(None)
    })
    .unwrap();
    let flaky = SourcePolicy {
        breaker_failures: 2,
        breaker_cooldown: Duration::from_millis(400),
        ..policy("flaky")
    };
    let endpoint = client.endpoint(flaky);
    let other = client.endpoint(policy("other"));
    let url = format!("{}/works", server.url());
    for _ in 0..2 {
        let error = endpoint.send(&Request::get(&url, "list")).unwrap_err();
        assert!(
            matches!(error, Error::GaveUp { attempts: 2, .. }),
            "{error}"
        );
        assert!(
            error.to_string().contains("down for maintenance"),
            "{error}"
        );
    }
    assert_eq!(server.requests(), 4);

    let started = Instant::now();
    let error = endpoint.send(&Request::get(&url, "list")).unwrap_err();
    assert!(started.elapsed() < Duration::from_millis(50), "fails fast");
    let Error::CircuitOpen {
        source,
        retry_in,
        failures,
        last_error,
    } = &error
    else {
        panic!("{error}");
    };
    assert_eq!((*source, *failures), ("flaky", 2));
    assert!(*retry_in <= Duration::from_millis(400));
    assert!(last_error.contains("HTTP 503"), "{last_error}");
    let message = error.to_string();
    assert!(
        message.starts_with("flaky is skipped for 1 s after 2 failed requests in a row"),
        "{message}"
    );
    assert_eq!(server.requests(), 4, "no request while open");

    // Another endpoint of the same source shares the breaker; another source does not.
    let again = client.endpoint(SourcePolicy {
        breaker_failures: 100,
        ..flaky
    });
    assert!(matches!(
        again.send(&Request::get(&url, "list")),
        Err(Error::CircuitOpen { .. })
    ));
    assert!(matches!(
        other.send(&Request::get(&url, "list")),
        Err(Error::GaveUp { .. })
    ));

    // After the cooldown one request may try; a success closes the circuit.
    std::thread::sleep(Duration::from_millis(450));
    healthy.store(true, Ordering::SeqCst);
    assert!(endpoint.send(&Request::get(&url, "list")).is_ok());
    healthy.store(false, Ordering::SeqCst);
    assert!(matches!(
        endpoint.send(&Request::get(&url, "list")),
        Err(Error::GaveUp { .. })
    ));
    assert!(
        matches!(
            endpoint.send(&Request::get(&url, "list")),
            Err(Error::GaveUp { .. })
        ),
        "counting starts over"
    );

    let summary = client.summary();
    let flaky = summary
        .iter()
        .find(|summary| summary.source == "flaky")
        .unwrap();
    assert_eq!(flaky.breaker_trips, 2);
    assert_eq!(flaky.failures, 6);
}

#[test]
fn bad_urls_fail_without_a_request() {
    let (client, endpoint) = endpoint(config(None), "test");
    let error = endpoint
        .send(&Request::get("not a url", "list"))
        .unwrap_err();
    assert!(
        matches!(error, Error::Build { source: "test", .. }),
        "{error}"
    );
    assert!(client.calls().is_empty());
}

#[test]
fn bodies_that_are_not_json_say_so() {
    let server = Server::start(
        |_| Reply::text(200, "<html>maintenance</html>"),
        FaultPlan::none(),
    );
    let (_, endpoint) = endpoint(config(None), "test");
    let response = endpoint
        .send(&Request::get(&format!("{}/works", server.url()), "list"))
        .unwrap();
    assert_eq!(
        response.content_type.as_deref(),
        Some("text/plain; charset=utf-8")
    );
    let error = response.json::<serde_json::Value>().unwrap_err();
    assert!(matches!(error, Error::Decode { .. }), "{error}");
    assert!(error.to_string().contains("<html>maintenance"), "{error}");
}
