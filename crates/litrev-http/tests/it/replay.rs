//! Recorded OpenAlex traffic replayed through faults: the client gets every recorded answer
//! intact, and a recorded 400 stays a non-retried `Status` error with OpenAlex's explanation.

use litrev_http::{Error, Request};
use litrev_testkit::http::{FaultPlan, Replay, Server};

use crate::support::{config, endpoint};

#[test]
fn recorded_openalex_snowball_survives_faults() {
    let Some(data) = litrev_testkit::testdata() else {
        return;
    };
    let recordings = data.join("openalex-recorded-openalexPro/interactions.jsonl.gz");
    let replay = Replay::from_files(&[recordings.as_path()]).unwrap();
    let server = Server::start(replay.handler(), FaultPlan::mixed(0.3, 5));
    let (client, endpoint) = endpoint(config(None), "openalex");
    for (filter, ids) in [
        ("openalex", "W3045921891|W3046863325"),
        ("cites", "W3046863325|W3045921891"),
        ("cited_by", "W3046863325|W3045921891"),
    ] {
        // Parameters in another order than recorded, the key as a secret: still a match.
        let url = format!(
            "{}/works?cursor=*&per-page=200&filter={filter}:{ids}&mailto=someone@example.org",
            server.url()
        );
        let request = Request::get(&url, filter).with_secret_param("api_key", "test-key");
        let page: serde_json::Value = endpoint.send(&request).unwrap().json().unwrap();
        let results = page["results"].as_array().unwrap();
        assert_eq!(
            page["meta"]["count"].as_u64(),
            Some(results.len() as u64),
            "{filter}"
        );
    }
    let error = endpoint
        .send(&Request::get(
            &format!("{}/works?filter=DOESNTEXIST:1", server.url()),
            "list",
        ))
        .unwrap_err();
    let Error::Status {
        status: 400,
        message,
        ..
    } = &error
    else {
        panic!("{error}");
    };
    assert!(message.contains("DOESNTEXIST"), "{message}");
    assert_eq!(replay.unmatched(), 0, "{:?}", replay.unmatched_requests());
    let summary = &client.summary()[0];
    assert_eq!(summary.retries, server.faults_injected());
}
