//! Secrets (API keys in query parameters or headers) reach the server but never the cache
//! key, the cache file, the call records or any error message.

use litrev_http::{Error, HttpConfig, Request};
use litrev_testkit::http::{FaultPlan, Reply, Server};

use crate::support::{config, endpoint};

const KEY_ONE: &str = "sekrit-one-4711";
const KEY_TWO: &str = "sekrit-two-0815";

#[test]
fn secrets_are_sent_but_not_part_of_the_cache_key() {
    let server = Server::start(
        |request| {
            assert!(
                request
                    .param("api_key")
                    .is_some_and(|key| key.starts_with("sekrit"))
            );
            assert_eq!(request.header("x-api-key"), Some("header-sekrit"));
            Reply::json(200, &serde_json::json!({"path": request.path}))
        },
        FaultPlan::none(),
    );
    let cache = tempfile::tempdir().unwrap();
    let (client, endpoint) = endpoint(config(Some(cache.path())), "test");
    let url = format!("{}/works?filter=cites:W1", server.url());
    let request = |key: &str| {
        Request::get(&url, "cites")
            .with_secret_param("api_key", key)
            .with_secret_header("x-api-key", "header-sekrit")
    };
    assert!(!endpoint.send(&request(KEY_ONE)).unwrap().from_cache);
    assert!(
        endpoint.send(&request(KEY_TWO)).unwrap().from_cache,
        "another key, same entry"
    );
    assert_eq!(server.requests(), 1);
    assert!(server.request_log()[0].contains(&format!("api_key={KEY_ONE}")));
    for call in client.calls() {
        assert_eq!(call.url, url);
    }
    let file = std::fs::read(cache.path().join("http-cache.sqlite")).unwrap();
    let wal = std::fs::read(cache.path().join("http-cache.sqlite-wal")).unwrap_or_default();
    for bytes in [file, wal] {
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains("sekrit"), "a secret reached the cache file");
    }
}

#[test]
fn secrets_never_reach_errors_or_records() {
    // A server that echoes the key it was given, as some APIs do in their error bodies.
    let server = Server::start(
        |request| {
            let key = request.param("api_key").unwrap_or_default();
            let status = if request.path == "/denied" { 401 } else { 503 };
            Reply::text(
                status,
                &format!("invalid api_key {key} for {}", request.raw_target),
            )
        },
        FaultPlan::none(),
    );
    let (client, endpoint) = endpoint(
        HttpConfig {
            max_retries: 1,
            ..config(None)
        },
        "test",
    );
    let mut messages = Vec::new();
    for path in ["/denied", "/down"] {
        let request = Request::get(&format!("{}{path}", server.url()), "list")
            .with_secret_param("api_key", KEY_ONE);
        let error = endpoint.send(&request).unwrap_err();
        assert!(
            matches!(
                error,
                Error::Status { status: 401, .. } | Error::GaveUp { .. }
            ),
            "{error}"
        );
        messages.push(error.to_string());
        messages.push(format!("{error:?}"));
    }
    // An unreachable server: the transport error must not carry the URL with the key.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap()
    };
    let request = Request::get(&format!("http://{closed}/works"), "list")
        .with_secret_param("api_key", KEY_ONE);
    let error = endpoint.send(&request).unwrap_err();
    messages.push(error.to_string());
    for call in client.calls() {
        messages.push(call.url.clone());
        messages.extend(call.error.clone());
    }
    assert!(
        messages
            .iter()
            .any(|message| message.contains("invalid api_key [secret]")),
        "{messages:#?}"
    );
    for message in messages {
        assert!(!message.contains("sekrit"), "a secret leaked: {message}");
    }
}
