//! The loopback HTTP server tests run API clients against (with fault injection and replays of
//! recorded traffic): [`litrev_bench_server::http`], re-exported so tests keep one import path.

pub use litrev_bench_server::http::*;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_loads_shared_recordings() {
        let Some(data) = crate::testdata() else {
            return;
        };
        let path = data.join("semanticscholar-graph-api/interactions.jsonl.gz");
        let replay = Replay::from_files(&[path.as_path()]).unwrap();
        assert_eq!(replay.len(), 97);
        let request = ServedRequest {
            method: "GET".to_owned(),
            path: "/graph/v1/paper/search".to_owned(),
            query: vec![
                ("limit".to_owned(), "100".to_owned()),
                ("offset".to_owned(), "0".to_owned()),
                ("fields".to_owned(), "title".to_owned()),
                ("query".to_owned(), "n0 r3sult s3arch t3rm".to_owned()),
            ],
            raw_target: String::new(),
            headers: Vec::new(),
            body: Vec::new(),
        };
        let reply = replay.answer(&request);
        assert_eq!(reply.status, 200);
        assert_eq!(reply.body, b"{\"total\": 0, \"offset\": 0}\n");
        assert_eq!(replay.unmatched(), 0);
    }
}
