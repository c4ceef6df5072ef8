//! Teams: runs queued on a shared store, driven by `litrev worker`s, one of them killed with
//! SIGKILL mid-run; every run finishes, no step is committed twice, and each run's files are
//! the bytes the same review gives on one machine with the SQLite default.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{
    Server, describe, files_of, litrev, question, review_of, testdata, works_file,
};

const DATASETS: [&str; 3] = ["Donners_2021", "Sep_2021", "Nelson_2002"];

/// The files whose bytes a run must reproduce wherever it ran.
const COMPARED: [&str; 3] = ["review.md", "references.bib", "corpus.csv"];

/// A `litrev worker` process, killed when dropped (a failing test leaves none behind).
struct Worker(Child);

impl Worker {
    fn start(home: &Path, db: &str, name: &str, once: bool) -> Worker {
        let mut command = Command::new(env!("CARGO_BIN_EXE_litrev"));
        command
            .args([
                "worker", "--db", db, "--lease", "2", "--name", name, "--json",
            ])
            .env("LITREV_HOME", home)
            .env_remove("LITREV_FAIL_AFTER")
            .env_remove("LITREV_PANIC_IN")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if once {
            command.arg("--once");
        }
        Worker(command.spawn().expect("litrev worker starts"))
    }

    /// Waits for the worker to exit by itself; its stdout's JSON lines.
    fn finish(mut self) -> Vec<serde_json::Value> {
        let child = std::mem::replace(
            &mut self.0,
            Command::new("true").spawn().expect("a placeholder process"),
        );
        let output = child.wait_with_output().expect("the worker exits");
        assert!(output.status.success(), "{}", describe(&output));
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(|line| serde_json::from_str(line).expect("a JSON line per run"))
            .collect()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Each run's status and last step, by id.
fn runs(home: &Path, db: &str) -> Vec<serde_json::Value> {
    let output = litrev(home, &["runs", "--db", db, "--json"], &[]);
    assert!(output.status.success(), "{}", describe(&output));
    serde_json::from_slice(&output.stdout).expect("runs as JSON")
}

/// Queues the three reviews on `db`, kills the first worker after a run committed a step,
/// lets two more finish, and checks every run against `reference` (the SQLite runs).
fn queue_kill_and_finish(
    home: &Path,
    data: &Path,
    db: &str,
    reference: &Path,
) -> Vec<(&'static str, String)> {
    let mut queued = Vec::new();
    for dataset in DATASETS {
        let out = home.join("worked").join(dataset);
        let output = review_of(
            home,
            &question(data, dataset),
            &works_file(data, dataset),
            &out,
            &["--tier", "quick", "--yes", "--queue", "--db", db],
            &[],
        );
        assert!(output.status.success(), "{}", describe(&output));
        let run = String::from_utf8_lossy(&output.stdout).trim().to_owned();
        assert!(!run.is_empty(), "--queue prints the run's id");
        queued.push((dataset, run));
    }
    assert!(
        runs(home, db).iter().all(|run| run["status"] == "queued"),
        "queued runs wait for a worker"
    );

    // The first worker dies (SIGKILL) once a run it drives has committed a step.
    let mut doomed = Worker::start(home, db, "doomed", false);
    let deadline = Instant::now() + Duration::from_secs(120);
    let killed_in = loop {
        let running = runs(home, db).into_iter().find(|run| {
            run["status"] == "running"
                && run["last_step"]
                    .as_str()
                    .is_some_and(|step| step != "publish")
        });
        if let Some(run) = running {
            doomed.0.kill().expect("SIGKILL");
            doomed.0.wait().expect("reaped");
            break run;
        }
        assert!(
            Instant::now() < deadline,
            "the first worker never committed a step"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let orphan = killed_in["id"].as_str().expect("id").to_owned();

    let second = Worker::start(home, db, "second", true);
    let third = Worker::start(home, db, "third", true);
    let mut worked = second.finish();
    worked.extend(third.finish());
    assert!(
        worked.iter().all(|run| run["outcome"] == "done"),
        "every run a live worker claimed it drove to the end, none lost to another: {worked:?}"
    );
    let mut driven: Vec<&str> = worked
        .iter()
        .filter_map(|run| run["run"].as_str())
        .collect();
    driven.sort_unstable();
    driven.dedup();
    assert_eq!(
        driven.len(),
        worked.len(),
        "no run claimed twice: {worked:?}"
    );
    assert!(
        worked
            .iter()
            .any(|run| run["run"] == orphan.as_str() && run["taken_over_from"] == "doomed"),
        "the killed worker's run {orphan} was taken over: {worked:?}"
    );
    for run in runs(home, db) {
        assert_eq!(run["status"], "done", "{run}");
    }

    for (dataset, run) in &queued {
        let exported = home.join("exported").join(dataset);
        let output = litrev(
            home,
            &[
                "export",
                run,
                "--out",
                &exported.display().to_string(),
                "--db",
                db,
            ],
            &[],
        );
        assert!(output.status.success(), "{}", describe(&output));
        let exported = files_of(&exported);
        let written = files_of(&home.join("worked").join(dataset));
        let expected = files_of(&reference.join(dataset));
        for name in COMPARED {
            assert!(
                exported[name] == expected[name],
                "{dataset} ({run}): exported {name} differs from the SQLite run's"
            );
            assert!(
                written[name] == expected[name],
                "{dataset} ({run}): the worker's {name} differs from the SQLite run's"
            );
        }
    }
    queued
}

/// The same reviews made with the SQLite default on one machine, one after another.
fn reference_runs(home: &Path, data: &Path) -> std::path::PathBuf {
    let reference = home.join("reference");
    for dataset in DATASETS {
        let output = review_of(
            home,
            &question(data, dataset),
            &works_file(data, dataset),
            &reference.join(dataset),
            &["--tier", "quick", "--yes"],
            &[],
        );
        assert!(output.status.success(), "{}", describe(&output));
    }
    reference
}

/// Steps committed more than once, over every run of a PostgreSQL store.
fn duplicate_commits(url: &str) -> Vec<(String, String, i64)> {
    let mut client = postgres::Client::connect(url, postgres::NoTls).expect("connect");
    client
        .query(
            "SELECT run_id, step, COUNT(*) FROM step_commits GROUP BY run_id, step HAVING COUNT(*) > 1",
            &[],
        )
        .expect("query")
        .iter()
        .map(|row| (row.get(0), row.get(1), row.get(2)))
        .collect()
}

#[test]
fn runs_queued_on_postgresql_survive_a_worker_killed_mid_run_byte_for_byte() {
    let Some(data) = testdata() else { return };
    let Some(url) = litrev_testkit::postgres::fresh_database("workers") else {
        return;
    };
    let home = tempfile::tempdir().expect("home");
    let reference = reference_runs(home.path(), &data);
    let queued = queue_kill_and_finish(home.path(), &data, &url, &reference);
    assert_eq!(
        duplicate_commits(&url),
        vec![],
        "no step is committed twice"
    );

    // Another machine (another home, no output folders) serves the runs from the store.
    let elsewhere = tempfile::tempdir().expect("another machine");
    let server = Server::start(elsewhere.path(), &["--db", &url]);
    for (dataset, run) in &queued {
        let served = crate::serve::client()
            .get(format!("{}/api/runs/{run}/files/review.md", server.url))
            .send()
            .and_then(|response| response.error_for_status())
            .and_then(|response| response.bytes())
            .expect("review.md served");
        let expected = files_of(&reference.join(dataset));
        assert!(
            served.as_ref() == expected["review.md"].as_slice(),
            "{dataset}: the served review.md is the SQLite run's"
        );
    }
}

#[test]
fn runs_queued_on_sqlite_survive_a_worker_killed_mid_run_byte_for_byte() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let reference = reference_runs(home.path(), &data);
    let db = home.path().join("team.sqlite").display().to_string();
    let queued = queue_kill_and_finish(home.path(), &data, &db, &reference);
    assert_eq!(queued.len(), DATASETS.len());
}

/// `[cache] store = "db"`: two machines (two homes, each with its own file cache) on one
/// PostgreSQL store; the second review of the same question asks the API nothing.
#[test]
fn a_team_pays_once_for_a_response_whichever_machine_asked() {
    let Some(data) = testdata() else { return };
    let Some(db) = litrev_testkit::postgres::fresh_database("shared_cache") else {
        return;
    };
    let dataset = "Nelson_2002";
    let works = litrev_testkit::openalex::OpenAlexWorks::load(&[works_file(&data, dataset)])
        .expect("snapshot loads");
    let openalex = litrev_testkit::http::Server::start(
        move |request| {
            let (status, body) = works.answer(request);
            litrev_testkit::http::Reply::json(status, &body)
        },
        litrev_testkit::http::FaultPlan::none(),
    );
    let openalex_url = openalex.url();
    let env = [
        ("LITREV_OPENALEX_URL", openalex_url.as_str()),
        ("LITREV_CACHE_STORE", "db"),
    ];
    let review_on = |home: &Path| {
        let out = home.join("review").display().to_string();
        let question = question(&data, dataset);
        let output = litrev(
            home,
            &[
                "review", &question, "--source", "openalex", "--tier", "quick", "--yes", "--out",
                &out, "--db", &db,
            ],
            &env,
        );
        assert!(output.status.success(), "{}", describe(&output));
    };
    let first = tempfile::tempdir().expect("first machine");
    review_on(first.path());
    let asked = openalex.requests();
    assert!(asked > 0, "the first machine asks the API");
    let second = tempfile::tempdir().expect("second machine");
    review_on(second.path());
    assert_eq!(
        openalex.requests(),
        asked,
        "the second machine finds every response in the shared store"
    );
    let files = |home: &Path| files_of(&home.join("review"));
    assert_eq!(
        files(first.path())["review.md"],
        files(second.path())["review.md"],
        "the same review from the same responses"
    );
}

/// `[cache] store = "db"` keeps the language model's answers in the store too: the same LLM
/// review from a second machine sends the model nothing.
#[test]
fn a_team_pays_once_for_the_models_answers() {
    let Some(data) = testdata() else { return };
    let Some(db) = litrev_testkit::postgres::fresh_database("shared_answers") else {
        return;
    };
    let llm = litrev_testkit::llm::ScriptedLlm::start(crate::llm::script);
    let review_on = |home: &Path| {
        let output = crate::llm::llm_review_with(
            home,
            &data,
            &home.join("review"),
            &llm,
            &["--db", &db],
            &[("LITREV_CACHE_STORE", "db")],
        );
        assert!(output.status.success(), "{}", describe(&output));
    };
    let first = tempfile::tempdir().expect("first machine");
    review_on(first.path());
    let asked = llm.requests();
    assert!(asked > 0, "the first machine asks the model");
    assert!(
        !first.path().join("llm-cache").exists(),
        "the answers are kept in the store, not in the home"
    );
    let second = tempfile::tempdir().expect("second machine");
    review_on(second.path());
    assert_eq!(
        llm.requests(),
        asked,
        "the second machine finds every answer in the shared store"
    );
}

/// A worker told to stop (SIGTERM) gives its run back to the queue, and the next worker
/// takes it at once rather than after the lease.
#[test]
fn a_worker_told_to_stop_gives_its_run_back() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let db = home.path().join("team.sqlite").display().to_string();
    let dataset = DATASETS[0];
    let output = review_of(
        home.path(),
        &question(&data, dataset),
        &works_file(&data, dataset),
        &home.path().join("review"),
        &["--tier", "quick", "--yes", "--queue", "--db", &db],
        &[],
    );
    assert!(output.status.success(), "{}", describe(&output));
    let stopping = Command::new(env!("CARGO_BIN_EXE_litrev"))
        .args(["worker", "--db", &db, "--name", "stopping"])
        .env("LITREV_HOME", home.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("litrev worker starts");
    let deadline = Instant::now() + Duration::from_secs(120);
    while !runs(home.path(), &db)
        .iter()
        .any(|run| run["status"] == "running" && !run["last_step"].is_null())
    {
        assert!(
            Instant::now() < deadline,
            "the worker never committed a step"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let terminated = Command::new("kill")
        .args(["-TERM", &stopping.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(terminated.success());
    let output = stopping.wait_with_output().expect("the worker exits");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let statuses: Vec<serde_json::Value> = runs(home.path(), &db);
    if output.status.code() == Some(130) {
        assert!(stderr.contains("given back to the queue"), "{stderr}");
        assert_eq!(statuses[0]["status"], "queued", "{statuses:?}");
    } else {
        // The run ended between the step seen and the signal: nothing was left to give back.
        assert_eq!(statuses[0]["status"], "done", "{stderr}");
        return;
    }
    // The stopped worker's lease (60 s) has not run out: only a run given back is claimed now.
    let started = Instant::now();
    let next = Worker::start(home.path(), &db, "next", true);
    let worked = next.finish();
    assert_eq!(worked.len(), 1, "{worked:?}");
    assert_eq!(worked[0]["outcome"], "done", "{worked:?}");
    assert!(
        worked[0]["taken_over_from"].is_null(),
        "given back, not taken over"
    );
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "no lease was waited for"
    );
}

/// Two people screen one run on a shared PostgreSQL store at the same moment, each importing
/// the half of the screening table they checked: both sets of labels are kept and in force
/// after the gate.
#[test]
fn two_screening_sessions_at_once_keep_every_label() {
    let Some(data) = testdata() else { return };
    let Some(db) = litrev_testkit::postgres::fresh_database("two_screeners") else {
        return;
    };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let dataset = DATASETS[0];
    let paused = review_of(
        home.path(),
        &question(&data, dataset),
        &works_file(&data, dataset),
        &out,
        &["--tier", "quick", "--json", "--db", &db],
        &[],
    );
    assert_eq!(paused.status.code(), Some(3), "{}", describe(&paused));
    let summary: serde_json::Value = serde_json::from_slice(&paused.stdout).expect("JSON");
    let run = summary["run"].as_str().expect("run").to_owned();

    // The two split the records (even and odd rows), each excluding the first included work
    // of their half, and import their halves at the same moment.
    let mut reader = csv::Reader::from_path(out.join("screening.csv")).expect("screening.csv");
    let headers = reader.headers().expect("headers").clone();
    let column = |name: &str| {
        headers
            .iter()
            .position(|header| header == name)
            .unwrap_or_else(|| panic!("{name} column"))
    };
    let (label, id) = (column("label_included"), column("openalex_id"));
    let rows: Vec<csv::StringRecord> = reader.records().map(|row| row.expect("row")).collect();
    let mut flipped = Vec::new();
    let mut sessions = Vec::new();
    for person in 0..2 {
        let half: Vec<&csv::StringRecord> = rows.iter().skip(person).step_by(2).collect();
        let row = half
            .iter()
            .position(|row| &row[label] == "1")
            .expect("an included work in each half");
        let edited = home.path().join(format!("person-{person}.csv"));
        let mut writer = csv::Writer::from_path(&edited).expect("edited half");
        writer.write_record(&headers).expect("headers");
        for (at, record) in half.iter().enumerate() {
            let mut fields: Vec<&str> = record.iter().collect();
            if at == row {
                fields[label] = "0";
            }
            writer.write_record(&fields).expect("row");
        }
        writer.flush().expect("flush");
        flipped.push(half[row][id].rsplit('/').next().expect("id").to_owned());
        sessions.push(
            Command::new(env!("CARGO_BIN_EXE_litrev"))
                .args([
                    "screen",
                    &run,
                    "--import",
                    &edited.display().to_string(),
                    "--db",
                    &db,
                ])
                .env("LITREV_HOME", home.path())
                .env("USER", format!("person-{person}"))
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("litrev screen starts"),
        );
    }
    for session in sessions {
        let output = session.wait_with_output().expect("the session ends");
        assert!(output.status.success(), "{}", describe(&output));
    }
    let resumed = litrev(home.path(), &["resume", &run, "--db", &db], &[]);
    assert!(resumed.status.success(), "{}", describe(&resumed));
    let table = crate::support::table(&out.join("screening.csv"));
    for work in &flipped {
        let row = table
            .iter()
            .find(|row| row["openalex_id"].ends_with(work.as_str()))
            .unwrap_or_else(|| panic!("{work} in screening.csv"));
        assert_eq!(
            (row["decision"].as_str(), row["reason"].as_str()),
            ("exclude", "person_decision"),
            "{work}: each person's label is in force"
        );
    }
}
