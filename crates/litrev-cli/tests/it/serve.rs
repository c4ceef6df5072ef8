//! `litrev serve`: the REST + SSE flow of a review through the gate with an HTTP client alone,
//! fifty live SSE clients and a reconnect with `Last-Event-ID`, the token, and the files route.

use std::io::{BufRead, BufReader};
use std::process::Command;
use std::time::Duration;

use litrev_testkit::http::FaultPlan;
use litrev_testkit::openalex::OpenAlexWorks;

use crate::support::{Server, question, testdata, works_file};

const DATASET: &str = "Donners_2021";

pub(crate) fn client() -> reqwest::blocking::Client {
    litrev_http::blocking_client_builder()
        .timeout(Duration::from_secs(600))
        .build()
        .expect("client")
}

/// One Server-Sent Event.
#[derive(Debug, Clone, PartialEq)]
struct Sse {
    id: i64,
    kind: String,
    data: serde_json::Value,
}

/// Reads a run's events (after `last`, when given) until one of `until` or the stream's end,
/// or until `limit` events.
fn follow(url: &str, run: &str, last: Option<i64>, until: &[&str], limit: usize) -> Vec<Sse> {
    let mut request = client().get(format!("{url}/api/runs/{run}/events"));
    if let Some(last) = last {
        request = request.header("Last-Event-ID", last.to_string());
    }
    let response = request.send().expect("events");
    assert_eq!(response.status(), 200);
    let mut events = Vec::new();
    let (mut id, mut kind, mut data) = (None, String::new(), String::new());
    for line in BufReader::new(response).lines() {
        let line = line.expect("a line of the stream");
        if let Some(value) = line.strip_prefix("id: ") {
            id = value.parse().ok();
        } else if let Some(value) = line.strip_prefix("event: ") {
            kind = value.to_owned();
        } else if let Some(value) = line.strip_prefix("data: ") {
            data.push_str(value);
        } else if line.is_empty() && !data.is_empty() {
            let event = Sse {
                id: id.take().expect("every event has an id"),
                kind: std::mem::take(&mut kind),
                data: serde_json::from_str(&std::mem::take(&mut data)).expect("JSON data"),
            };
            let stop = until.contains(&event.kind.as_str());
            events.push(event);
            if stop || events.len() >= limit {
                break;
            }
        }
    }
    events
}

/// `GET` a JSON answer, panicking with the URL when it is not one.
fn get_json<T: serde::de::DeserializeOwned>(url: &str) -> T {
    client()
        .get(url)
        .send()
        .and_then(|response| response.json())
        .unwrap_or_else(|error| panic!("GET {url}: {error}"))
}

/// Checks a refusal: its status, and that its error message says `words`.
fn refused_with(response: reqwest::blocking::Response, status: u16, words: &str) {
    assert_eq!(response.status(), status);
    let error: serde_json::Value = response.json().expect("a JSON error");
    assert!(
        error["error"].as_str().unwrap_or_default().contains(words),
        "{error}"
    );
}

fn start_run(url: &str, body: &serde_json::Value) -> String {
    let response = client()
        .post(format!("{url}/api/runs"))
        .json(body)
        .send()
        .expect("POST /api/runs");
    assert_eq!(response.status(), 201);
    let created: serde_json::Value = response.json().expect("JSON");
    created["id"].as_str().expect("id").to_owned()
}

/// A question over two pools whose probe spreads over two disciplines (Sep's rodent studies
/// are filed under psychology, van der Valk's hair cortisol under medicine).
const TWO_FIELDS: &str = "Hair cortisol and the rodent object-in-context task";

/// A run asked to clarify stops as `needs_clarification` with the probe's question; a wrong
/// answer is refused, the right one is recorded in the plan and the run goes on to the end.
#[test]
fn a_run_that_raises_questions_waits_for_the_answers() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let server = Server::start(home.path(), &[]);
    let url = &server.url;
    let sources: Vec<String> = ["Sep_2021", "van_der_Valk_2021"]
        .iter()
        .map(|dataset| format!("snapshot:{}", works_file(&data, dataset).display()))
        .collect();
    let run = start_run(
        url,
        &serde_json::json!({
            "question": TWO_FIELDS, "sources": sources, "tier": "quick", "yes": true, "clarify": true,
        }),
    );
    let asked = follow(url, &run, None, &["clarify", "failed"], usize::MAX);
    let last = asked.last().expect("events");
    assert_eq!(last.kind, "clarify", "{asked:?}");
    assert_eq!(last.data["clarifications"][0]["about"], "disciplines");
    assert!(
        asked.iter().all(|event| !["plan", "discover"]
            .contains(&event.data["step"].as_str().unwrap_or_default())),
        "no plan and no discovery before the answers: {asked:?}"
    );
    let shown: serde_json::Value = get_json(&format!("{url}/api/runs/{run}"));
    assert_eq!(shown["status"], "needs_clarification", "{shown}");
    let question = &shown["clarifications"][0];
    assert_eq!(question["options"][0], "both", "{shown}");
    assert_eq!(question["default"], "both", "{shown}");
    let narrower = question["options"][1]
        .as_str()
        .expect("a second option")
        .to_owned();

    let answer = |answers: serde_json::Value| {
        client()
            .post(format!("{url}/api/runs/{run}/clarify"))
            .json(&serde_json::json!({ "answers": answers }))
            .send()
            .expect("POST clarify")
    };
    let refused = answer(serde_json::json!(["Astrology"]));
    refused_with(refused, 400, "is not an answer");
    assert_eq!(answer(serde_json::json!([narrower])).status(), 202);
    assert_eq!(
        answer(serde_json::json!([narrower])).status(),
        409,
        "answered once"
    );
    let rest = follow(url, &run, Some(last.id), &["done", "failed"], usize::MAX);
    assert_eq!(
        rest.last().map(|event| event.kind.as_str()),
        Some("done"),
        "{rest:?}"
    );
    let record: serde_json::Value = get_json(&format!("{url}/api/runs/{run}/files/run.json"));
    let shown: serde_json::Value = get_json(&format!("{url}/api/runs/{run}"));
    assert_eq!(
        shown["plan"]["brief"], record["plan"]["brief"],
        "the API shows the plan the run followed"
    );
    assert_eq!(
        shown["plan"]["synthesis"], record["plan"]["synthesis"],
        "and its synthesis"
    );
    assert_eq!(
        shown["plan"]["synthesis"][0]["heading"], "Theoretical foundations",
        "{}",
        shown["plan"]
    );
    assert!(
        shown["plan"]["queries"]
            .as_array()
            .is_some_and(|queries| !queries.is_empty())
    );
    // A run on snapshots is expected to ask no API, and asks none.
    let estimate = &shown["plan"]["estimate"];
    assert_eq!(estimate["requests"], 0, "{estimate}");
    assert_eq!(estimate["sources"], serde_json::json!([]), "{estimate}");
    let listed: serde_json::Value = get_json(&format!("{url}/api/runs"));
    let entry = listed
        .as_array()
        .and_then(|runs| runs.iter().find(|entry| entry["id"] == run.as_str()))
        .expect("the run is listed");
    assert!(
        entry["plan"].is_null(),
        "the list leaves plans out: {entry}"
    );
    let brief = &record["plan"]["brief"];
    assert_eq!(
        brief["disciplines"]["value"],
        serde_json::json!([narrower]),
        "{brief}"
    );
    assert_eq!(brief["disciplines"]["basis"], "stated", "{brief}");
    assert_eq!(
        brief["clarifications"][0]["answer"],
        narrower.as_str(),
        "{brief}"
    );
}

#[test]
fn a_review_goes_through_the_gate_over_rest_and_server_sent_events() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let server = Server::start(home.path(), &[]);
    let url = &server.url;
    let source = format!("snapshot:{}", works_file(&data, DATASET).display());

    // Bad options get the CLI's message.
    let refused = client()
        .post(format!("{url}/api/runs"))
        .json(&serde_json::json!({"question": "x", "tier": "huge"}))
        .send()
        .expect("POST");
    refused_with(refused, 400, "unknown tier");
    // A snapshot that is not there is refused before a run is stored, as on the command line.
    let refused = client()
        .post(format!("{url}/api/runs"))
        .json(
            &serde_json::json!({"question": "x", "sources": ["snapshot:/no/such/works.jsonl.gz"]}),
        )
        .send()
        .expect("POST");
    refused_with(refused, 400, "does not exist");

    let run = start_run(
        url,
        &serde_json::json!({
            "question": question(&data, DATASET),
            "sources": [source],
            "tier": "quick",
        }),
    );
    let to_gate = follow(url, &run, None, &["gate", "failed"], usize::MAX);
    assert_eq!(
        to_gate.last().map(|event| event.kind.as_str()),
        Some("gate"),
        "{to_gate:?}"
    );
    assert!(
        to_gate.windows(2).all(|pair| pair[0].id < pair[1].id),
        "ids increase"
    );
    assert!(to_gate.iter().any(|event| event.kind == "step"
        && event.data["step"] == "screen"
        && event.data["state"] == "finished"));
    let shown: serde_json::Value = get_json(&format!("{url}/api/runs/{run}"));
    assert_eq!(shown["status"], "waiting", "{shown}");

    // The gate's table: exclude two included works, include an excluded one.
    let rows: Vec<serde_json::Value> = get_json(&format!("{url}/api/runs/{run}/screening"));
    let included: Vec<&serde_json::Value> = rows
        .iter()
        .filter(|row| row["decision"] == "include" && row["doi"].is_string())
        .collect();
    let excluded = rows
        .iter()
        .find(|row| row["decision"] == "exclude")
        .expect("an excluded work");
    assert!(included.len() > 2, "{} included", included.len());
    let dropped = [&included[0], &included[1]];
    let labels = serde_json::json!([
        {"id": dropped[0]["id"], "label": "exclude"},
        {"id": dropped[1]["id"], "label": "exclude"},
        {"id": excluded["id"], "label": "include"},
    ]);
    let labelled = client()
        .post(format!("{url}/api/runs/{run}/labels"))
        .json(&labels)
        .send()
        .expect("labels");
    assert_eq!(labelled.status(), 200);
    let unknown = client()
        .post(format!("{url}/api/runs/{run}/labels"))
        .json(&serde_json::json!([{"id": "W1", "label": "include"}]))
        .send()
        .expect("labels");
    assert_eq!(
        unknown.status(),
        409,
        "a work outside the corpus is refused"
    );
    let rows: Vec<serde_json::Value> = get_json(&format!("{url}/api/runs/{run}/screening"));
    let decision_of = |id: &serde_json::Value| {
        rows.iter()
            .find(|row| row["id"] == *id)
            .map(|row| (row["decision"].clone(), row["reviewer"].clone()))
    };
    assert_eq!(
        decision_of(&dropped[0]["id"]),
        Some(("exclude".into(), "person".into()))
    );
    assert_eq!(
        decision_of(&excluded["id"]),
        Some(("include".into(), "person".into()))
    );
    // The ranking of the rest was retrained on the labels: the labelled works come last.
    let last_three: Vec<&serde_json::Value> = rows[rows.len() - 3..]
        .iter()
        .map(|row| &row["id"])
        .collect();
    for labelled in [&dropped[0]["id"], &dropped[1]["id"], &excluded["id"]] {
        assert!(
            last_three.contains(&labelled),
            "{labelled} is not among the last rows"
        );
    }
    assert!(
        rows.iter()
            .enumerate()
            .all(|(index, row)| row["rank"] == index + 1)
    );

    let approved = client()
        .post(format!("{url}/api/runs/{run}/approve"))
        .send()
        .expect("approve");
    assert_eq!(approved.status(), 202);
    let last = to_gate.last().map(|event| event.id);
    let to_end = follow(url, &run, last, &["done", "failed"], usize::MAX);
    assert_eq!(
        to_end.last().map(|event| event.kind.as_str()),
        Some("done"),
        "{to_end:?}"
    );
    assert!(to_end.first().map(|event| event.id) > last);

    let bib = client()
        .get(format!("{url}/api/runs/{run}/files/references.bib"))
        .send()
        .expect("references.bib");
    assert_eq!(bib.status(), 200);
    assert!(
        bib.headers()["content-type"]
            .to_str()
            .unwrap_or_default()
            .starts_with("application/x-bibtex")
    );
    let bib = bib.text().expect("text").to_lowercase();
    assert!(bib.contains("@article"), "{bib}");
    for work in dropped {
        let doi = work["doi"].as_str().unwrap_or_default().to_lowercase();
        let bare = doi.trim_start_matches("https://doi.org/");
        assert!(
            !bib.contains(bare),
            "{bare}, excluded at the gate, is in references.bib"
        );
    }
    for name in ["charts/years.svg", "review.md", "run.json"] {
        let status = client()
            .get(format!("{url}/api/runs/{run}/files/{name}"))
            .send()
            .expect("file")
            .status();
        assert_eq!(status, 200, "{name}");
    }
    for name in [
        "..%2F..%2Flitrev.sqlite",
        "%2Fetc%2Fpasswd",
        "nothing.md",
        "charts",
    ] {
        let status = client()
            .get(format!("{url}/api/runs/{run}/files/{name}"))
            .send()
            .expect("file")
            .status();
        assert_eq!(status, 404, "{name}");
    }

    edit_the_review(url, &run);

    let document: serde_json::Value = get_json(&format!("{url}/api/openapi.json"));
    assert_eq!(document["openapi"], "3.1.0");
    for (path, method) in [
        ("/api/runs", "post"),
        ("/api/runs/{id}/events", "get"),
        ("/api/runs/{id}/review", "get"),
        ("/api/runs/{id}/review", "put"),
        ("/api/runs/{id}/continue", "post"),
    ] {
        assert!(
            document["paths"][path][method]["operationId"].is_string(),
            "{method} {path} is documented"
        );
    }
}

/// The review edited in place: an invented citation is refused with the sentence and nothing
/// changes; an edit that keeps the grounding is saved, the files follow it, the old text is
/// kept.
fn edit_the_review(url: &str, run: &str) {
    let text: serde_json::Value = get_json(&format!("{url}/api/runs/{run}/review"));
    assert_eq!(text["revisions"], 0);
    let markdown = text["markdown"].as_str().expect("markdown").to_owned();
    let published = |name: &str| {
        client()
            .get(format!("{url}/api/runs/{run}/files/{name}"))
            .send()
            .and_then(|response| response.text())
            .expect("file")
    };
    assert_eq!(published("review.md"), markdown, "GET review is review.md");
    // The first paragraph after the first heading past the front matter.
    let heading = markdown.find("\n# ").expect("a heading");
    let paragraph = heading + markdown[heading + 1..].find("\n\n").expect("a paragraph") + 3;
    let with = |sentence: &str| {
        format!(
            "{}{sentence} {}",
            &markdown[..paragraph],
            &markdown[paragraph..]
        )
    };

    let refused = client()
        .put(format!("{url}/api/runs/{run}/review"))
        .header("content-type", "text/markdown")
        .body(with("Most trials agree [@nobody2031invented]."))
        .send()
        .expect("PUT review");
    assert_eq!(refused.status(), 422);
    let refused: serde_json::Value = refused.json().expect("JSON");
    let problems = refused["problems"].as_array().expect("problems");
    assert_eq!(problems.len(), 1, "{refused}");
    assert!(
        problems[0]["problem"]
            .as_str()
            .unwrap_or_default()
            .contains("@nobody2031invented"),
        "{refused}"
    );
    assert_eq!(
        problems[0]["text"],
        "Most trials agree [@nobody2031invented]."
    );
    assert_eq!(
        published("review.md"),
        markdown,
        "a refused edit changes nothing"
    );

    let saved = client()
        .put(format!("{url}/api/runs/{run}/review"))
        .json(&serde_json::json!({"markdown": with("We read every study twice.")}))
        .send()
        .expect("PUT review");
    assert_eq!(saved.status(), 200);
    let saved: serde_json::Value = saved.json().expect("JSON");
    assert!(saved["revision"].as_i64().is_some(), "{saved}");
    let now = published("review.md");
    assert!(
        now.contains("We read every study twice. "),
        "the edit is published"
    );
    assert_eq!(
        now.len(),
        markdown.len() + "We read every study twice. ".len()
    );
    assert!(published("review.html").contains("We read every study twice."));
    let text: serde_json::Value = get_json(&format!("{url}/api/runs/{run}/review"));
    assert_eq!(text["revisions"], 1);
    let shown: serde_json::Value = get_json(&format!("{url}/api/runs/{run}"));
    assert_eq!(shown["status"], "done", "{shown}");
}

/// What a run's snowballing fetched from its sources: requests (and answers from the cache)
/// and the bytes of their answers. Requests are batched (one asks for the references of up to
/// a page of works), so the bytes tell how much was fetched.
fn snowball_calls(url: &str, run: &str) -> (u64, u64) {
    let shown: serde_json::Value = get_json(&format!("{url}/api/runs/{run}"));
    let calls = shown["telemetry"]["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter(|step| {
            step["step"]
                .as_str()
                .unwrap_or_default()
                .starts_with("snowball.")
        })
        .flat_map(|step| step["calls"].as_array().cloned().unwrap_or_default());
    calls.fold((0, 0), |(requests, bytes), call| {
        (
            requests
                + call["requests"].as_u64().unwrap_or_default()
                + call["cache_hits"].as_u64().unwrap_or_default(),
            bytes + call["bytes"].as_u64().unwrap_or_default(),
        )
    })
}

fn done_event(url: &str, run: &str) -> serde_json::Value {
    let events = follow(url, run, None, &["done", "failed"], usize::MAX);
    let last = events.last().expect("events");
    assert_eq!(last.kind, "done", "{events:?}");
    last.data.clone()
}

#[test]
fn a_follow_up_builds_on_its_parent_without_fetching_it_again() {
    let Some(data) = testdata() else { return };
    let dataset = "Nelson_2002";
    let works = OpenAlexWorks::load(&[works_file(&data, dataset)]).expect("snapshot loads");
    let openalex = litrev_testkit::http::Server::start(
        move |request| {
            let (status, body) = works.answer(request);
            litrev_testkit::http::Reply::json(status, &body)
        },
        FaultPlan::none(),
    );
    let openalex_url = openalex.url();
    let env = [("LITREV_OPENALEX_URL", openalex_url.as_str())];
    let home = tempfile::tempdir().expect("home");
    let server = Server::start_with(home.path(), &[], &env);
    let url = &server.url;
    let first = question(&data, dataset);
    let options = |question: &str| serde_json::json!({"question": question, "sources": ["openalex"], "tier": "quick", "yes": true});
    let parent = start_run(url, &options(&first));
    let parent_done = done_event(url, &parent);

    let refused = client()
        .post(format!("{url}/api/runs/nothing-here/continue"))
        .json(&serde_json::json!({}))
        .send()
        .expect("POST continue");
    assert_eq!(refused.status(), 404);
    let follow_up = format!("{first} in children");
    let created = client()
        .post(format!("{url}/api/runs/{parent}/continue"))
        .json(&serde_json::json!({"question": follow_up}))
        .send()
        .expect("POST continue");
    assert_eq!(created.status(), 201);
    let created: serde_json::Value = created.json().expect("JSON");
    assert_eq!(created["parent"], parent.as_str());
    let child = created["id"].as_str().expect("id").to_owned();
    let child_done = done_event(url, &child);
    let shown: serde_json::Value = get_json(&format!("{url}/api/runs/{child}"));
    assert_eq!(shown["parent"], parent.as_str());
    assert_eq!(shown["question"], follow_up.as_str());
    assert!(
        child_done["considered"].as_u64() >= parent_done["considered"].as_u64(),
        "the follow-up keeps its parent's corpus: {child_done} vs {parent_done}"
    );
    let review = client()
        .get(format!("{url}/api/runs/{child}/files/review.md"))
        .send()
        .and_then(|response| response.text())
        .expect("review.md");
    assert!(
        review.contains("This review continues an earlier one"),
        "the method says so"
    );

    // The same question from nothing, in another home (no cache): it needs more calls.
    let fresh_home = tempfile::tempdir().expect("home");
    let fresh_server = Server::start_with(fresh_home.path(), &[], &env);
    let fresh = start_run(&fresh_server.url, &options(&follow_up));
    done_event(&fresh_server.url, &fresh);
    let (continued, from_nothing) = (
        snowball_calls(url, &child),
        snowball_calls(&fresh_server.url, &fresh),
    );
    eprintln!(
        "snowballing (requests, bytes): parent {:?}, follow-up {continued:?}, the follow-up's question from nothing {from_nothing:?}",
        snowball_calls(url, &parent)
    );
    assert!(
        continued.1 * 2 < from_nothing.1,
        "the follow-up fetched again what its parent holds: {continued:?}, from nothing {from_nothing:?}"
    );
}

#[test]
fn fifty_clients_see_one_sequence_and_a_reconnect_misses_nothing() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let server = Server::start(home.path(), &[]);
    let url = server.url.clone();
    let run = start_run(
        &url,
        &serde_json::json!({
            "question": question(&data, DATASET),
            "sources": [format!("snapshot:{}", works_file(&data, DATASET).display())],
            "tier": "quick",
            "yes": true,
        }),
    );
    // Fifty clients follow the run live, from its start to its end.
    let clients: Vec<std::thread::JoinHandle<Vec<Sse>>> = (0..50)
        .map(|_| {
            let url = url.clone();
            let run = run.clone();
            std::thread::spawn(move || follow(&url, &run, None, &["done", "failed"], usize::MAX))
        })
        .collect();
    let sequences: Vec<Vec<Sse>> = clients
        .into_iter()
        .map(|client| client.join().expect("a client"))
        .collect();
    let first = &sequences[0];
    assert_eq!(
        first.last().map(|event| event.kind.as_str()),
        Some("done"),
        "{first:?}"
    );
    for (number, sequence) in sequences.iter().enumerate() {
        assert_eq!(sequence, first, "client {number} saw another sequence");
    }
    // A client that drops after five events and reconnects with the last id it saw ends with
    // the same sequence.
    let head = follow(&url, &run, None, &[], 5);
    let tail = follow(
        &url,
        &run,
        head.last().map(|event| event.id),
        &["done"],
        usize::MAX,
    );
    let joined: Vec<Sse> = head.into_iter().chain(tail).collect();
    assert_eq!(&joined, first);
}

#[test]
fn a_public_address_needs_a_token_and_the_api_then_needs_it() {
    let home = tempfile::tempdir().expect("home");
    let refused = Command::new(env!("CARGO_BIN_EXE_litrev"))
        .args(["serve", "--addr", "0.0.0.0:0"])
        .env("LITREV_HOME", home.path())
        .env_remove("LITREV_TOKEN")
        .output()
        .expect("litrev serve");
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("--token"), "{stderr}");

    let server = Server::start(home.path(), &["--token", "s3cret"]);
    let url = &server.url;
    let anonymous = client().get(format!("{url}/api/runs")).send().expect("GET");
    assert_eq!(anonymous.status(), 401);
    let wrong = client()
        .get(format!("{url}/api/runs"))
        .bearer_auth("guess")
        .send()
        .expect("GET");
    assert_eq!(wrong.status(), 401);
    let bearer = client()
        .get(format!("{url}/api/runs"))
        .bearer_auth("s3cret")
        .send()
        .expect("GET");
    assert_eq!(bearer.status(), 200);
    // The page signs in once and keeps the token in an HttpOnly cookie; what it changes
    // carries the CSRF header.
    let signed_in = client()
        .post(format!("{url}/api/session"))
        .json(&serde_json::json!({"token": "s3cret"}))
        .send()
        .expect("sign in");
    assert_eq!(signed_in.status(), 204);
    let cookie = signed_in.headers()["set-cookie"]
        .to_str()
        .expect("cookie")
        .to_owned();
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    let pair = cookie.split(';').next().unwrap_or_default().to_owned();
    let listed = client()
        .get(format!("{url}/api/runs"))
        .header("cookie", &pair)
        .send()
        .expect("GET");
    assert_eq!(listed.status(), 200);
    let forged = client()
        .post(format!("{url}/api/runs"))
        .header("cookie", &pair)
        .json(&serde_json::json!({"question": "q"}))
        .send()
        .expect("POST");
    assert_eq!(forged.status(), 403, "no CSRF header");
    // The pages themselves hold no data and carry the Content-Security-Policy.
    let page = client().get(format!("{url}/")).send().expect("page");
    assert_eq!(page.status(), 200);
    let policy = page.headers()["content-security-policy"]
        .to_str()
        .unwrap_or_default()
        .to_owned();
    assert!(policy.contains("script-src 'self'"), "{policy}");
}

#[test]
fn bench_serve_prints_every_client_complete_and_the_latency() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let works = works_file(&data, DATASET);
    let output = crate::support::litrev(
        home.path(),
        &[
            "bench",
            "serve",
            "--clients",
            "8",
            "--runs",
            "2",
            "--works",
            &works.display().to_string(),
        ],
        &[],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        crate::support::describe(&output)
    );
    let rows: Vec<Vec<&str>> = stdout
        .lines()
        .filter(|line| line.trim_start().starts_with(char::is_numeric))
        .map(|line| line.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 2, "{stdout}");
    for row in &rows {
        let events = row[2];
        assert_eq!(
            row[3],
            format!("{events}-{events}"),
            "every client got every event: {stdout}"
        );
        assert_eq!(
            row[4], "0",
            "no client missed or reordered an event: {stdout}"
        );
    }
    assert_eq!((rows[0][0], rows[1][0], rows[1][1]), ("1", "8", "2"));
    assert!(
        stdout.contains("p99 latency, 8 clients on 2 runs / 1 client on 1 run:"),
        "{stdout}"
    );
}

#[test]
fn a_run_started_over_the_api_uses_the_language_model_it_names() {
    let Some(data) = testdata() else { return };
    let llm = litrev_testkit::llm::ScriptedLlm::start(crate::llm::script);
    let home = tempfile::tempdir().expect("home");
    let server = Server::start_with(home.path(), &[], &[("OPENAI_API_KEY", "")]);
    let url = &server.url;
    let source = format!("snapshot:{}", works_file(&data, DATASET).display());
    let refused = client()
        .post(format!("{url}/api/runs"))
        .json(&serde_json::json!({"question": "x", "budget": 1.0}))
        .send()
        .expect("POST");
    assert_eq!(refused.status(), 400, "a budget without a model is refused");
    let run = start_run(
        url,
        &serde_json::json!({
            "question": question(&data, DATASET),
            "sources": [source],
            "yes": true,
            "llm": {
                "provider": "openai",
                "url": llm.openai_url(),
                "model": "scripted",
                "price": {"input_per_million": 1.0, "output_per_million": 2.0},
            },
            "budget": 5.0,
        }),
    );
    let done = done_event(url, &run);
    assert!(done["words"].as_u64() > Some(0), "{done}");
    let record: serde_json::Value = get_json(&format!("{url}/api/runs/{run}/files/run.json"));
    assert_eq!(record["llm"]["model"], "scripted");
    assert_eq!(record["options"]["llm"]["budget_usd"], 5.0);
    assert!(llm.requests() > 0, "the model was asked");
    let shown: serde_json::Value = get_json(&format!("{url}/api/runs/{run}"));
    assert!(shown["cost"]["usd"].as_f64() > Some(0.0), "{shown}");
}

/// The web form's library file reaches the API as `seeds_library`, the text of an export: its
/// works are the run's seeds, shown in the plan; a text that is no export is refused with a
/// 400 that says which files are read.
#[test]
fn a_library_sent_as_text_gives_the_runs_seeds() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let server = Server::start(home.path(), &[]);
    let url = &server.url;
    let source = format!("snapshot:{}", works_file(&data, "Donners_2021").display());
    let library = "@article{haven1, title = {Emicizumab Prophylaxis in Hemophilia A with Inhibitors},\n\
                   doi = {10.1056/NEJMoa1703068}, year = 2017}\n\
                   @article{haven3, title = {Emicizumab Prophylaxis in Patients Who Have Hemophilia A without Inhibitors},\n\
                   doi = {10.1056/NEJMoa1803550}, year = 2018}\n";
    let refused = client()
        .post(format!("{url}/api/runs"))
        .json(&serde_json::json!({
            "question": "emicizumab", "sources": [source], "seeds_library": "a shopping list",
        }))
        .send()
        .expect("POST");
    refused_with(
        refused,
        400,
        "no library export litrev reads: send the text of",
    );
    let run = start_run(
        url,
        &serde_json::json!({
            "question": "Pharmacokinetics and efficacy of emicizumab", "sources": [source],
            "tier": "quick", "yes": true, "seeds_library": library,
        }),
    );
    let events = follow(url, &run, None, &["done", "failed"], usize::MAX);
    assert_eq!(
        events.last().map(|event| event.kind.as_str()),
        Some("done"),
        "{events:?}"
    );
    let shown: serde_json::Value = get_json(&format!("{url}/api/runs/{run}"));
    assert_eq!(
        shown["plan"]["seeds"],
        serde_json::json!(["10.1056/nejmoa1703068", "10.1056/nejmoa1803550"]),
        "{}",
        shown["plan"]
    );
}
