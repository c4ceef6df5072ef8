//! Retryable failures: every injected fault kind is retried until the request succeeds,
//! `Retry-After` is waited for, and a mixed fault rate over many URLs still gets everything.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use litrev_http::{Client, HttpConfig, Request};
use litrev_testkit::http::{Fault, FaultPlan, Reply, Server};

use crate::support::{config, echo, endpoint};

/// Sends `n_urls` distinct requests through `fault` at rate 0.5 and checks that all succeed,
/// that each fault cost exactly one retry, and that the retried attempts say why.
fn check(fault: Fault, n_urls: usize, expected_error: &str) {
    let server = Server::start(echo, FaultPlan::only(0.5, 11, vec![fault.clone()]));
    let (client, endpoint) = endpoint(config(None), "test");
    for url_idx in 0..n_urls {
        let response = endpoint
            .send(&Request::get(
                &format!("{}/works/W{url_idx}", server.url()),
                "works-by-id",
            ))
            .unwrap_or_else(|error| panic!("{fault:?}: {error}"));
        let body: serde_json::Value = response.json().expect("the echo is JSON");
        assert_eq!(body["path"], format!("/works/W{url_idx}"));
    }
    let faults = server.faults_injected();
    assert!(faults > 0, "{fault:?}: the seed injected nothing");
    let summary = &client.summary()[0];
    assert_eq!(summary.retries, faults, "{fault:?}: one retry per fault");
    assert_eq!(summary.requests, server.requests());
    assert_eq!(summary.failures, 0);
    let failed: Vec<_> = client
        .calls()
        .into_iter()
        .filter(|call| call.error.is_some())
        .collect();
    assert_eq!(failed.len() as u64, faults);
    for call in failed {
        let error = call.error.expect("filtered on errors");
        assert!(error.contains(expected_error), "{fault:?}: {error}");
    }
}

#[test]
fn too_many_requests_is_retried() {
    check(Fault::TooManyRequests { retry_after: None }, 8, "HTTP 429");
}

#[test]
fn server_errors_are_retried() {
    check(Fault::ServerError(500), 8, "HTTP 500");
    check(Fault::ServerError(503), 8, "HTTP 503");
}

#[test]
fn slow_answers_time_out_and_are_retried() {
    check(Fault::Slow(Duration::from_secs(1)), 5, "timed out");
}

#[test]
fn resets_are_retried() {
    check(Fault::Reset, 8, "request failed");
}

#[test]
fn truncated_bodies_are_retried() {
    check(Fault::Truncated, 8, "truncated body");
}

#[test]
fn retry_after_is_honoured() {
    let arrivals = Arc::new(Mutex::new(Vec::new()));
    let seen = arrivals.clone();
    let server = Server::start(
        move |request| {
            let mut seen = seen.lock().unwrap();
            seen.push(Instant::now());
            if seen.len() == 1 {
                Reply::json(429, &serde_json::json!({"error": "slow down"}))
                    .with_header("Retry-After", "1")
            } else {
                echo(request)
            }
        },
        FaultPlan::none(),
    );
    let (client, endpoint) = endpoint(
        HttpConfig {
            backoff_max: Duration::from_secs(5),
            ..config(None)
        },
        "test",
    );
    let response = endpoint
        .send(&Request::get(&format!("{}/works", server.url()), "list"))
        .unwrap();
    assert_eq!(response.status, 200);
    let arrivals = arrivals.lock().unwrap();
    assert_eq!(arrivals.len(), 2);
    let gap = arrivals[1] - arrivals[0];
    assert!(
        gap >= Duration::from_secs(1),
        "second attempt after {gap:?}"
    );
    assert!(
        gap < Duration::from_millis(1500),
        "second attempt after {gap:?}"
    );
    let attempts: Vec<u32> = client.calls().iter().map(|call| call.attempt).collect();
    assert_eq!(attempts, vec![1, 2]);
}

#[test]
fn retry_after_is_capped_by_backoff_max() {
    let server = Server::start(
        echo,
        FaultPlan::only(
            1.0,
            1,
            vec![Fault::TooManyRequests {
                retry_after: Some(30),
            }],
        ),
    );
    let (_, endpoint) = endpoint(
        HttpConfig {
            max_retries: 2,
            ..config(None)
        },
        "test",
    );
    let started = Instant::now();
    let error = endpoint
        .send(&Request::get(&format!("{}/works", server.url()), "list"))
        .unwrap_err();
    assert!(
        matches!(error, litrev_http::Error::GaveUp { attempts: 3, .. }),
        "{error}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "waited {:?}",
        started.elapsed()
    );
    assert_eq!(server.requests(), 3);
}

#[test]
fn mixed_faults_over_many_urls_all_succeed() {
    let server = Server::start(echo, FaultPlan::mixed(0.2, 2026));
    let cache = tempfile::tempdir().unwrap();
    let (client, endpoint) = endpoint(config(Some(cache.path())), "test");
    let base = server.url();
    std::thread::scope(|scope| {
        for thread_idx in 0..4 {
            let endpoint = endpoint.clone();
            let base = base.clone();
            scope.spawn(move || {
                for url_idx in (thread_idx..50).step_by(4) {
                    let url = format!("{base}/works?filter=cites:W{url_idx}");
                    let response = endpoint.send(&Request::get(&url, "cites")).unwrap();
                    let body: serde_json::Value = response.json().unwrap();
                    assert_eq!(body["query"][0][1], format!("cites:W{url_idx}"));
                }
            });
        }
    });
    let faults = server.faults_injected();
    assert!(faults >= 5, "{faults} faults at 20 % of 50+ requests");
    let summary = &client.summary()[0];
    assert_eq!(summary.failures, 0);
    assert_eq!(summary.retries, faults);
    assert_eq!(summary.requests, 50 + faults);
    assert_eq!(summary.requests, server.requests());
    assert_eq!(summary.breaker_trips, 0);
}

#[test]
fn the_rate_limit_spaces_requests() {
    let server = Server::start(echo, FaultPlan::none());
    let client = Client::new(config(None)).unwrap();
    let endpoint = client.endpoint(litrev_http::SourcePolicy {
        burst: 1,
        ..litrev_http::SourcePolicy::new("slow", 20)
    });
    let started = Instant::now();
    for url_idx in 0..6 {
        endpoint
            .send(&Request::get(
                &format!("{}/works/W{url_idx}", server.url()),
                "works-by-id",
            ))
            .unwrap();
    }
    assert!(
        started.elapsed() >= Duration::from_millis(240),
        "6 requests at 20/s took {:?}",
        started.elapsed()
    );
}

#[test]
fn a_minimum_interval_spaces_requests_slower_than_one_a_second_allows() {
    let server = Server::start(echo, FaultPlan::none());
    let client = Client::new(config(None)).unwrap();
    let endpoint = client.endpoint(litrev_http::SourcePolicy::every(
        "arxiv-like",
        Duration::from_millis(150),
    ));
    let started = Instant::now();
    for url_idx in 0..3 {
        endpoint
            .send(&Request::get(
                &format!("{}/api/query?id_list={url_idx}", server.url()),
                "id-list",
            ))
            .unwrap();
    }
    assert!(
        started.elapsed() >= Duration::from_millis(300),
        "3 requests 150 ms apart took {:?}",
        started.elapsed()
    );
}
