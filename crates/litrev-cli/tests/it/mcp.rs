//! `litrev mcp`: the stdio server driven by the official SDK's client (rmcp): the tools and
//! their schemas, a call of every tool on a SYNERGY snapshot, a quick review from
//! `start_review` through the gate to `get_review` (its keys parsed back from
//! `export_bibliography`'s BibTeX by biblatex), verbatim evidence, the run's resources, and
//! bad arguments answered as tool errors while the server goes on.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

use rmcp::model::{CallToolRequestParams, CallToolResult, ResourceContents};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ServiceError, ServiceExt};
use serde_json::{Value, json};

use crate::support::{cited_keys, question, testdata, works_file};

const DATASET: &str = "Donners_2021";

const TOOLS: [&str; 13] = [
    "search_works",
    "get_work",
    "citation_search",
    "related_works",
    "start_review",
    "review_status",
    "label_works",
    "approve",
    "answer_clarifications",
    "get_review",
    "get_evidence",
    "export_bibliography",
    "export_to_zotero",
];

type Client = RunningService<RoleClient, ()>;

async fn connect(home: &Path, snapshot: &Path) -> Client {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_litrev"));
    command
        .arg("mcp")
        .arg("--source")
        .arg(format!("snapshot:{}", snapshot.display()))
        .env("LITREV_HOME", home)
        .env_remove("LITREV_FAIL_AFTER")
        .env_remove("LITREV_PANIC_IN");
    let transport = TokioChildProcess::new(command).expect("litrev mcp starts");
    ().serve(transport).await.expect("an MCP session")
}

async fn call(
    client: &Client,
    tool: &str,
    arguments: Value,
) -> Result<CallToolResult, ServiceError> {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object");
    };
    client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments))
        .await
}

/// A successful call's structured result.
async fn ok(client: &Client, tool: &str, arguments: Value) -> Value {
    let result = call(client, tool, arguments.clone())
        .await
        .unwrap_or_else(|error| panic!("{tool} {arguments}: {error}"));
    let text = result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|text| text.text.clone()))
        .collect::<Vec<_>>()
        .join("\n");
    assert_ne!(
        result.is_error,
        Some(true),
        "{tool} {arguments} failed: {text}"
    );
    assert!(!text.is_empty(), "{tool} answers with a text rendering too");
    result
        .structured_content
        .unwrap_or_else(|| panic!("{tool} answers with structured content"))
}

/// A call that must be a tool error; its message.
async fn refused(client: &Client, tool: &str, arguments: Value) -> String {
    match call(client, tool, arguments.clone()).await {
        Ok(result) => {
            assert_eq!(
                result.is_error,
                Some(true),
                "{tool} {arguments} should be refused"
            );
            result
                .content
                .iter()
                .filter_map(|block| block.as_text().map(|text| text.text.clone()))
                .collect::<Vec<_>>()
                .join("\n")
        }
        Err(ServiceError::McpError(error)) => error.message.to_string(),
        Err(other) => panic!("{tool}: the server broke off: {other}"),
    }
}

async fn wait_for(client: &Client, run: &str, wanted: &str) -> Value {
    let started = Instant::now();
    loop {
        let status = ok(client, "review_status", json!({ "run": run })).await;
        match status["status"].as_str() {
            Some(now) if now == wanted => return status,
            Some("failed" | "stopped") => panic!("the run stopped: {status}"),
            _ => {}
        }
        assert!(
            started.elapsed() < Duration::from_secs(600),
            "run {run} never became {wanted}: {status}"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

/// `start_review` with `clarify` stops as `needs_clarification` with the probe's question;
/// `answer_clarifications` refuses an answer that is not an option and, with no answer, takes
/// the default, which the plan records as unanswered.
#[test]
fn an_agent_answers_the_clarifying_questions() {
    let Some(data) = testdata() else { return };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let home = tempfile::tempdir().expect("home");
        let client = connect(home.path(), &works_file(&data, DATASET)).await;
        let sources: Vec<String> = ["Sep_2021", "van_der_Valk_2021"]
            .iter()
            .map(|dataset| format!("snapshot:{}", works_file(&data, dataset).display()))
            .collect();
        let started = ok(
            &client,
            "start_review",
            json!({
                "question": "Hair cortisol and the rodent object-in-context task",
                "sources": sources, "tier": "quick", "yes": true, "clarify": true,
            }),
        )
        .await;
        let run = started["run"].as_str().expect("a run id").to_owned();
        let asking = wait_for(&client, &run, "needs_clarification").await;
        let question = &asking["clarifications"][0];
        assert_eq!(question["about"], "disciplines", "{asking}");
        assert_eq!(question["default"], "both", "{asking}");
        let message = refused(
            &client,
            "answer_clarifications",
            json!({ "run": run, "answers": ["Astrology"] }),
        )
        .await;
        assert!(message.contains("is not an answer"), "{message}");
        let answered = ok(
            &client,
            "answer_clarifications",
            json!({ "run": run, "answers": [] }),
        )
        .await;
        assert_eq!(answered["answers"][0]["default_taken"], true, "{answered}");
        let done = wait_for(&client, &run, "done").await;
        assert_eq!(
            done["plan"]["brief"]["clarifications"][0]["about"], "disciplines",
            "review_status shows the plan the run followed: {done}"
        );
        assert_eq!(
            done["plan"]["estimate"]["requests"], 0,
            "and its estimate: a run on snapshots asks no API: {done}"
        );
        let out = done["out_dir"].as_str().expect("out_dir");
        let record: Value = serde_json::from_str(
            &std::fs::read_to_string(Path::new(out).join("run.json")).expect("run.json"),
        )
        .expect("JSON");
        let brief = &record["plan"]["brief"];
        assert!(
            brief["clarifications"][0].get("answer").is_none(),
            "{brief}"
        );
        assert_eq!(
            brief["disciplines"]["value"].as_array().map(Vec::len),
            Some(2),
            "both disciplines kept: {brief}"
        );
        client.cancel().await.expect("the session ends");
    });
}

#[test]
fn an_agent_explores_and_reviews_through_the_mcp_tools() {
    let Some(data) = testdata() else { return };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(explore_and_review(&data));
}

async fn explore_and_review(data: &Path) {
    let home = tempfile::tempdir().expect("home");
    let snapshot = works_file(data, DATASET);
    let question = question(data, DATASET);
    let client = connect(home.path(), &snapshot).await;

    let info = client.peer_info().expect("the server introduced itself");
    assert_eq!(
        info.server_info.as_ref().map(|server| server.name.as_str()),
        Some("litrev")
    );
    let tools = client.list_all_tools().await.expect("tools/list");
    let names: BTreeSet<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(
        names,
        TOOLS.into_iter().collect(),
        "the tools litrev offers"
    );
    for tool in &tools {
        let schema = Value::Object((*tool.input_schema).clone());
        assert_eq!(schema["type"], "object", "{}: {schema}", tool.name);
        assert!(schema["properties"].is_object(), "{}: {schema}", tool.name);
        assert!(
            tool.description
                .as_ref()
                .is_some_and(|text| text.len() > 20)
        );
    }
    let start = tools
        .iter()
        .find(|tool| tool.name == "start_review")
        .expect("start_review");
    let required = &start.input_schema["required"];
    assert_eq!(
        required,
        &json!(["question"]),
        "start_review needs only the question"
    );

    // Exploring.
    let found = ok(
        &client,
        "search_works",
        json!({ "query": question, "limit": 5 }),
    )
    .await;
    let works = found["works"].as_array().expect("works");
    assert_eq!(works.len(), 5, "{found}");
    assert!(found["found"].as_u64().expect("found") >= 5);
    assert_eq!(found["sources"][0]["source"], "snapshot");
    let first = works[0]["id"]
        .as_str()
        .expect("every work has an id")
        .to_owned();
    let years = ok(
        &client,
        "search_works",
        json!({ "query": question, "years": "2015-2018" }),
    )
    .await;
    for work in years["works"].as_array().expect("works") {
        let year = work["year"].as_i64().expect("a year");
        assert!((2015..=2018).contains(&year), "{work}");
    }

    let record = ok(&client, "get_work", json!({ "id": first })).await;
    assert_eq!(record["work"]["title"], works[0]["title"]);
    if let Some(doi) = works[0]["doi"].as_str() {
        let by_doi = ok(&client, "get_work", json!({ "id": doi })).await;
        assert_eq!(
            by_doi["work"]["title"], works[0]["title"],
            "a DOI finds the same work"
        );
    }

    let mut listed = 0;
    for work in works {
        let id = work["id"].as_str().expect("id");
        for direction in ["citing", "references"] {
            let answer = ok(
                &client,
                "citation_search",
                json!({ "id": id, "direction": direction, "limit": 10 }),
            )
            .await;
            let cited = answer["works"].as_array().expect("works");
            assert!(cited.len() <= 10);
            assert!(
                cited.iter().all(|other| other["id"] != id),
                "never the work itself"
            );
            listed += cited.len();
        }
    }
    assert!(
        listed > 0,
        "the snapshot's citations among the five works were found"
    );

    let related = ok(&client, "related_works", json!({ "id": first, "limit": 5 })).await;
    let related_works = related["works"].as_array().expect("works");
    assert!(!related_works.is_empty(), "{related}");
    assert!(
        related_works
            .iter()
            .all(|work| work["id"] != first.as_str())
    );
    assert!(
        related["method"]
            .as_str()
            .is_some_and(|method| method.contains("citation"))
    );

    // Bad arguments and unknown ids are tool errors; the server goes on.
    let message = refused(&client, "get_work", json!({ "id": "not an id" })).await;
    assert!(message.contains("not an id"), "{message}");
    let message = refused(&client, "get_work", json!({ "id": "W1" })).await;
    assert!(message.contains("no work `"), "{message}");
    let message = refused(
        &client,
        "review_status",
        json!({ "run": "20990101-000000-dead" }),
    )
    .await;
    assert!(message.contains("no run"), "{message}");
    let message = refused(
        &client,
        "start_review",
        json!({ "question": "q", "tier": "huge" }),
    )
    .await;
    assert!(message.contains("huge"), "{message}");
    let message = refused(
        &client,
        "citation_search",
        json!({ "id": first, "direction": "sideways" }),
    )
    .await;
    assert!(!message.is_empty());
    let message = refused(&client, "related_works", json!({})).await;
    assert!(message.contains("`id` or `ids`"), "{message}");

    // A review through the gate.
    let source = format!("snapshot:{}", snapshot.display());
    let started = ok(
        &client,
        "start_review",
        json!({ "question": question, "sources": [source], "tier": "quick" }),
    )
    .await;
    let run = started["run"].as_str().expect("a run id").to_owned();
    let message = refused(&client, "get_review", json!({ "run": run })).await;
    assert!(message.contains("not done"), "{message}");
    let waiting = wait_for(&client, &run, "waiting").await;
    let candidates = waiting["candidates"]
        .as_array()
        .expect("candidates at the gate");
    assert!(!candidates.is_empty());
    let excluded = candidates
        .iter()
        .find(|candidate| candidate["decision"] == "exclude")
        .unwrap_or(&candidates[0]);
    let excluded_id = excluded["id"].as_str().expect("id").to_owned();
    let labelled = ok(
        &client,
        "label_works",
        json!({ "run": run, "labels": [{ "id": excluded_id, "label": "include" }] }),
    )
    .await;
    assert_eq!(labelled["labelled"], 1);
    ok(&client, "approve", json!({ "run": run })).await;
    let done = wait_for(&client, &run, "done").await;
    assert!(done["counts"]["included"].as_u64().expect("included") > 0);
    let message = refused(&client, "approve", json!({ "run": run })).await;
    assert!(message.contains("not waiting"), "{message}");

    // The review, its bibliography and its evidence.
    let review = ok(
        &client,
        "get_review",
        json!({ "run": run, "format": "markdown" }),
    )
    .await;
    let markdown = review["text"].as_str().expect("markdown").to_owned();
    let keys: BTreeSet<String> = cited_keys(&markdown).into_iter().collect();
    assert!(keys.len() > 3, "the review cites works");
    let bibtex = ok(
        &client,
        "export_bibliography",
        json!({ "run": run, "format": "bibtex", "style": "ieee" }),
    )
    .await;
    let bibliography = biblatex::Bibliography::parse(bibtex["text"].as_str().expect("bibtex"))
        .expect("the BibTeX parses");
    let entries: BTreeSet<String> = bibliography.iter().map(|entry| entry.key.clone()).collect();
    assert_eq!(
        keys, entries,
        "every cited key is in the bibliography, and only those"
    );
    assert!(
        bibtex["csl"]
            .as_str()
            .is_some_and(|csl| csl.contains("<style")),
        "the style's CSL file"
    );
    for format in ["ris", "csl-json"] {
        let other = ok(
            &client,
            "export_bibliography",
            json!({ "run": run, "format": format }),
        )
        .await;
        assert!(other["text"].as_str().is_some_and(|text| !text.is_empty()));
    }
    let html = ok(
        &client,
        "get_review",
        json!({ "run": run, "format": "html" }),
    )
    .await;
    assert!(
        html["text"]
            .as_str()
            .is_some_and(|text| text.contains("<html"))
    );

    let resources = client.list_all_resources().await.expect("resources/list");
    let prefix = format!("litrev://runs/{run}/");
    let uris: BTreeSet<String> = resources
        .iter()
        .map(|resource| resource.uri.clone())
        .collect();
    for name in [
        "review.md",
        "references.bib",
        "evidence.json",
        "review.docx",
        "charts/years.svg",
    ] {
        assert!(
            uris.contains(&format!("{prefix}{name}")),
            "{name} is a resource: {uris:?}"
        );
    }
    let read = |name: &str| {
        let uri = format!("{prefix}{name}");
        let client = &client;
        async move {
            let result = client
                .read_resource(rmcp::model::ReadResourceRequestParams::new(uri))
                .await
                .expect("resources/read");
            result.contents.into_iter().next().expect("contents")
        }
    };
    let ResourceContents::TextResourceContents { text: read_md, .. } = read("review.md").await
    else {
        panic!("review.md is text");
    };
    assert_eq!(
        read_md, markdown,
        "the resource is the file get_review returns"
    );
    let ResourceContents::BlobResourceContents { .. } = read("review.docx").await else {
        panic!("review.docx is a blob");
    };
    let ResourceContents::TextResourceContents { text: evidence, .. } = read("evidence.json").await
    else {
        panic!("evidence.json is text");
    };
    let claims: Value = serde_json::from_str(&evidence).expect("evidence JSON");
    let taken = claims
        .as_array()
        .expect("claims")
        .iter()
        .find(|claim| claim["basis"] == "span")
        .expect("an extractive review takes sentences from works");
    let number = taken["claim"].as_u64().expect("claim number");
    let claim = ok(
        &client,
        "get_evidence",
        json!({ "run": run, "claim": number }),
    )
    .await;
    let span = &claim["span"];
    let sentence = span["snippet"].as_str().expect("the source sentence");
    let work = ok(&client, "get_work", json!({ "id": span["work"] })).await;
    let text = work["work"]["abstract_text"]
        .as_str()
        .expect("the work's abstract");
    let (start, end) = (
        span["start"].as_u64().expect("start") as usize,
        span["end"].as_u64().expect("end") as usize,
    );
    assert_eq!(
        &text[start..end],
        sentence,
        "the evidence is the work's sentence, verbatim"
    );
    let message = refused(
        &client,
        "get_evidence",
        json!({ "run": run, "claim": 100000 }),
    )
    .await;
    assert!(message.contains("no such claim"), "{message}");

    // Still answering after every refusal.
    assert_eq!(
        client.list_all_tools().await.expect("tools/list").len(),
        TOOLS.len()
    );
    client.cancel().await.expect("the session closes");
}

/// Whether python3 has the MCP SDK and the readers the independent client checks with; under
/// CI their absence is a failure (the test script installs them).
fn python_mcp_available() -> bool {
    litrev_testkit::python_modules_available(&["mcp", "bibtexparser", "jsonschema"])
}

/// Runs `scripts/mcp_client_check.py` with `args`; its one JSON line of what it saw.
fn python_client(home: &Path, args: &[&str]) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/mcp_client_check.py");
    let output = std::process::Command::new("python3")
        .arg(script)
        .args(args)
        .env("LITREV_HOME", home)
        .env_remove("LITREV_FAIL_AFTER")
        .env_remove("LITREV_PANIC_IN")
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "the Python MCP client failed: {}\n{}",
        String::from_utf8_lossy(&output.stderr),
        String::from_utf8_lossy(&output.stdout)
    );
    serde_json::from_slice(&output.stdout).expect("the client's JSON line")
}

#[test]
fn an_independent_client_reviews_over_stdio() {
    let Some(data) = testdata() else { return };
    if !python_mcp_available() {
        return;
    }
    let home = tempfile::tempdir().expect("home");
    let snapshot = works_file(&data, DATASET).display().to_string();
    let question = question(&data, DATASET);
    let seen = python_client(
        home.path(),
        &[
            "--litrev",
            env!("CARGO_BIN_EXE_litrev"),
            "--snapshot",
            &snapshot,
            "--question",
            &question,
        ],
    );
    assert_eq!(seen["tools"], TOOLS.len());
    assert!(seen["keys"].as_u64().expect("keys") > 3, "{seen}");
    assert!(seen["included"].as_u64().expect("included") > 0, "{seen}");
}

#[test]
fn an_independent_client_reviews_over_streamable_http_behind_the_token() {
    let Some(data) = testdata() else { return };
    if !python_mcp_available() {
        return;
    }
    let home = tempfile::tempdir().expect("home");
    let snapshot = works_file(&data, DATASET).display().to_string();
    let question = question(&data, DATASET);
    let source = format!("snapshot:{snapshot}");
    let server =
        crate::support::Server::start(home.path(), &["--token", "s3cret", "--source", &source]);
    let url = format!("{}/mcp", server.url);
    let refused = litrev_http::blocking_client_builder()
        .build()
        .expect("a client")
        .post(&url)
        .header("Accept", "application/json, text/event-stream")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        .send()
        .expect("a response");
    assert_eq!(refused.status(), 401, "/mcp needs the token as /api does");
    let seen = python_client(
        home.path(),
        &[
            "--url",
            &url,
            "--token",
            "s3cret",
            "--snapshot",
            &snapshot,
            "--question",
            &question,
        ],
    );
    assert_eq!(seen["tools"], TOOLS.len());
    assert!(seen["keys"].as_u64().expect("keys") > 3, "{seen}");
}

/// An agent saves a done review to the person's Zotero library (configured in the home's
/// `config.toml`): one item per reference, and nothing more when it asks again.
#[test]
fn an_agent_exports_a_done_review_to_zotero() {
    use std::sync::Arc;

    use litrev_testkit::http::{FaultPlan, Server};
    use litrev_testkit::zotero::{ZoteroFaults, ZoteroServer};

    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let done = crate::support::review(home.path(), &data, DATASET, &out, &["--yes"]);
    assert!(done.status.success(), "{}", crate::support::describe(&done));
    let run = crate::support::newest_run(home.path());
    let references: Vec<Value> =
        serde_json::from_slice(&std::fs::read(out.join("references.json")).expect("references"))
            .expect("CSL-JSON");
    let library = Arc::new(ZoteroServer::new(
        "groups/2211",
        "agent-key",
        ZoteroFaults::default(),
    ));
    let answering = Arc::clone(&library);
    let server = Server::start(move |request| answering.answer(request), FaultPlan::none());
    std::fs::write(
        home.path().join("config.toml"),
        format!(
            "[zotero]\nbase_url = \"{}\"\nlibrary = \"groups/2211\"\napi_key = \"agent-key\"\n",
            server.url()
        ),
    )
    .expect("config");
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let client = connect(home.path(), &works_file(&data, DATASET)).await;
        let first = ok(&client, "export_to_zotero", json!({ "run": run })).await;
        assert_eq!(
            first["created"].as_u64(),
            Some(references.len() as u64),
            "{first}"
        );
        assert_eq!(
            first["keys"].as_object().map(serde_json::Map::len),
            Some(references.len())
        );
        let again = ok(
            &client,
            "export_to_zotero",
            json!({ "run": run, "collection": first["collection_name"] }),
        )
        .await;
        assert_eq!(again["created"].as_u64(), Some(0), "{again}");
        assert_eq!(again["already"].as_u64(), Some(references.len() as u64));
        let message = refused(
            &client,
            "export_to_zotero",
            json!({ "run": "20990101-000000-0000" }),
        )
        .await;
        assert!(message.contains("20990101-000000-0000"), "{message}");
        client.cancel().await.expect("the session ends");
    });
    assert_eq!(library.items().len(), references.len());
}
