//! The disk cache: fresh hits skip the network (and the rate limiter), stale entries are
//! fetched again, the size cap evicts the oldest, and uncacheable requests always go out.

use std::time::{Duration, Instant};

use litrev_http::{Client, HttpConfig, Request, SourcePolicy};
use litrev_testkit::http::{FaultPlan, Server};

use crate::support::{config, echo, endpoint};

#[test]
fn a_second_identical_call_comes_from_the_cache() {
    let server = Server::start(echo, FaultPlan::none());
    let cache = tempfile::tempdir().unwrap();
    let client = Client::new(config(Some(cache.path()))).unwrap();
    // One request per second: cache hits must not wait for the limiter.
    let endpoint = client.endpoint(SourcePolicy::new("test", 1));
    let request = Request::get(
        &format!("{}/works?search=snowballing", server.url()),
        "search",
    )
    .with_cost(10.0);
    let first = endpoint.send(&request).unwrap();
    assert!(!first.from_cache);
    let started = Instant::now();
    for _ in 0..5 {
        let again = endpoint.send(&request).unwrap();
        assert!(again.from_cache);
        assert_eq!(again.body, first.body);
        assert_eq!(again.content_type, first.content_type);
    }
    assert!(
        started.elapsed() < Duration::from_millis(500),
        "hits took {:?}",
        started.elapsed()
    );
    assert_eq!(server.requests(), 1);

    let calls = client.calls();
    assert_eq!(calls.len(), 6);
    assert!(!calls[0].cache_hit && calls[0].attempt == 1 && calls[0].cost == 10.0);
    assert!(
        calls[1..]
            .iter()
            .all(|call| call.cache_hit && call.attempt == 0 && call.cost == 0.0)
    );
    assert_eq!(calls[1].endpoint, "search");
    let summary = &client.summary()[0];
    assert_eq!(
        (summary.requests, summary.cache_hits, summary.cost),
        (1, 5, 10.0)
    );

    // A second client (another run) on the same folder reads the same cache.
    let other = Client::new(config(Some(cache.path()))).unwrap();
    assert!(
        other
            .endpoint(SourcePolicy::new("test", 1))
            .send(&request)
            .unwrap()
            .from_cache
    );
    assert_eq!(server.requests(), 1);
}

#[test]
fn stale_entries_are_fetched_again() {
    let server = Server::start(echo, FaultPlan::none());
    let cache = tempfile::tempdir().unwrap();
    let (_, endpoint) = endpoint(
        HttpConfig {
            cache_ttl: Duration::from_millis(150),
            ..config(Some(cache.path()))
        },
        "test",
    );
    let request = Request::get(&format!("{}/works/W1", server.url()), "works-by-id");
    assert!(!endpoint.send(&request).unwrap().from_cache);
    assert!(endpoint.send(&request).unwrap().from_cache);
    std::thread::sleep(Duration::from_millis(200));
    assert!(!endpoint.send(&request).unwrap().from_cache);
    assert_eq!(server.requests(), 2);
}

#[test]
fn the_size_cap_evicts_the_oldest_entries() {
    let server = Server::start(echo, FaultPlan::none());
    let cache = tempfile::tempdir().unwrap();
    let request =
        |work: usize| Request::get(&format!("{}/works/W{work}", server.url()), "works-by-id");
    let (_, probe) = endpoint(config(None), "probe");
    let body_bytes = probe.send(&request(1)).unwrap().body.len() as u64;
    let (_, endpoint) = endpoint(
        HttpConfig {
            cache_max_bytes: 3 * body_bytes + body_bytes / 2,
            ..config(Some(cache.path()))
        },
        "test",
    );
    for work in 1..=5 {
        endpoint.send(&request(work)).unwrap();
        // Distinct fetch times keep the eviction order unambiguous.
        std::thread::sleep(Duration::from_millis(5));
    }
    let before = server.requests();
    assert!(endpoint.send(&request(5)).unwrap().from_cache);
    assert!(endpoint.send(&request(3)).unwrap().from_cache);
    assert!(
        !endpoint.send(&request(1)).unwrap().from_cache,
        "the oldest was evicted"
    );
    assert_eq!(server.requests(), before + 1);
}

#[test]
fn uncacheable_requests_and_clients_without_cache_always_fetch() {
    let server = Server::start(echo, FaultPlan::none());
    let cache = tempfile::tempdir().unwrap();
    let (_, cached) = endpoint(config(Some(cache.path())), "test");
    let request = Request::get(&format!("{}/works", server.url()), "list").with_cacheable(false);
    for _ in 0..2 {
        assert!(!cached.send(&request).unwrap().from_cache);
    }
    let (_, uncached) = endpoint(config(None), "test");
    let request = request.with_cacheable(true);
    for _ in 0..2 {
        assert!(!uncached.send(&request).unwrap().from_cache);
    }
    assert_eq!(server.requests(), 4);
}

#[test]
fn post_bodies_are_part_of_the_key() {
    let server = Server::start(echo, FaultPlan::none());
    let cache = tempfile::tempdir().unwrap();
    let (_, endpoint) = endpoint(config(Some(cache.path())), "test");
    let url = format!("{}/paper/batch?fields=title", server.url());
    let one = Request::post_json(&url, "batch", &serde_json::json!({"ids": ["a"]}));
    let two = Request::post_json(&url, "batch", &serde_json::json!({"ids": ["b"]}));
    assert!(!endpoint.send(&one).unwrap().from_cache);
    assert!(!endpoint.send(&two).unwrap().from_cache);
    assert!(endpoint.send(&one).unwrap().from_cache);
    assert_eq!(server.requests(), 2);
}
