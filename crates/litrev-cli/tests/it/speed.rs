//! What each step cost and how fast a review runs: `run.json`'s telemetry, the table at the
//! end of a run, `litrev show RUN --telemetry`, `litrev bench pipeline`, and outputs that do not
//! depend on the number of threads.

use crate::support::{describe, litrev, newest_run, question, review_of, testdata, works_file};

const DATASET: &str = "Donners_2021";

/// Step keys of a telemetry section, in order.
fn steps_of(telemetry: &serde_json::Value) -> Vec<String> {
    telemetry["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .map(|step| step["step"].as_str().expect("step key").to_owned())
        .collect()
}

#[test]
fn every_step_of_a_run_resumed_past_the_gate_records_its_cost() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let paused = review_of(
        home.path(),
        &question(&data, DATASET),
        &works_file(&data, DATASET),
        &out,
        &["--tier", "quick"],
        &[],
    );
    assert_eq!(paused.status.code(), Some(3), "{}", describe(&paused));
    let run = newest_run(home.path());

    // Before the gate: the steps so far, from the store.
    let shown = litrev(home.path(), &["show", &run, "--telemetry", "--json"], &[]);
    assert!(shown.status.success(), "{}", describe(&shown));
    let before: serde_json::Value = serde_json::from_slice(&shown.stdout).expect("JSON");
    let before_steps = steps_of(&before);
    assert_eq!(before_steps[..2], ["plan", "discover"], "{before_steps:?}");
    assert_eq!(before_steps.last().map(String::as_str), Some("screen"));

    // Resumed in another process, the run's record still has every step.
    let resumed = litrev(home.path(), &["resume", &run], &[]);
    assert!(resumed.status.success(), "{}", describe(&resumed));
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    let header = stdout.lines().next().unwrap_or_default();
    assert!(
        header.starts_with("step") && header.contains("wall s") && header.contains("peak MB"),
        "the run ends with the per-step table: {stdout}"
    );
    assert!(
        stdout.lines().any(|line| line.starts_with("organise")),
        "{stdout}"
    );
    assert!(
        stdout.lines().any(|line| line.starts_with("total")),
        "{stdout}"
    );

    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("run.json")).expect("run.json"))
            .expect("run.json parses");
    let telemetry = &record["telemetry"];
    let steps = steps_of(telemetry);
    assert_eq!(steps[..before_steps.len()], before_steps[..], "{steps:?}");
    assert_eq!(
        steps[before_steps.len()..],
        ["gate", "fulltext", "organise", "write", "audit", "publish"],
        "the gate's work (loading the records, the screening tables) is measured: {steps:?}"
    );
    let mut wall = 0.0;
    for step in telemetry["steps"].as_array().expect("steps") {
        let seconds = step["wall_seconds"].as_f64().expect("wall time");
        assert!(seconds >= 0.0, "{step}");
        wall += seconds;
        if cfg!(target_os = "linux") {
            assert!(step["cpu_seconds"].as_f64().is_some(), "{step}");
            assert!(
                step["peak_rss_bytes"].as_u64().unwrap_or_default() > 1 << 20,
                "a step's peak memory is at least a megabyte: {step}"
            );
        }
    }
    let total = telemetry["wall_seconds"].as_f64().expect("total");
    assert!((total - wall).abs() < 1e-6, "{telemetry}");
    // An offline run asks no API.
    assert_eq!(telemetry["requests"], 0, "{telemetry}");

    // `show --telemetry` prints what run.json says, as a table or as JSON.
    let shown = litrev(home.path(), &["show", &run, "--telemetry", "--json"], &[]);
    assert!(shown.status.success(), "{}", describe(&shown));
    let stored: serde_json::Value = serde_json::from_slice(&shown.stdout).expect("JSON");
    assert_eq!(&stored, telemetry);
    let table = litrev(home.path(), &["show", &run, "--telemetry"], &[]);
    assert!(table.status.success(), "{}", describe(&table));
    let text = String::from_utf8_lossy(&table.stdout);
    for step in &steps {
        assert!(
            text.lines().any(|line| line.starts_with(step.as_str())),
            "{step} missing from\n{text}"
        );
    }
    let neither = litrev(home.path(), &["show", &run], &[]);
    assert_eq!(neither.status.code(), Some(2), "{}", describe(&neither));
}

#[test]
fn the_pipeline_bench_reviews_scale_one_as_a_plain_review_and_prints_growth() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let works = works_file(&data, DATASET);
    let question = question(&data, DATASET);
    let bench_out = home.path().join("bench");
    let output = litrev(
        home.path(),
        &[
            "bench",
            "pipeline",
            "--works",
            &works.display().to_string(),
            "--question",
            &question,
            "--tier",
            "quick",
            "--scale",
            "1,2",
            "--out",
            &bench_out.display().to_string(),
        ],
        &[],
    );
    assert!(output.status.success(), "{}", describe(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let records: Vec<usize> = stdout
        .lines()
        .filter(|line| line.starts_with("scale"))
        .filter_map(|line| line.split(": ").nth(1)?.split(' ').next()?.parse().ok())
        .collect();
    assert_eq!(records.len(), 2, "{stdout}");
    assert_eq!(
        records[1],
        2 * records[0],
        "scale 2 reviews two copies: {stdout}"
    );
    let header = stdout
        .lines()
        .find(|line| line.starts_with("step"))
        .unwrap_or_default();
    assert!(header.contains("exp 1→2"), "{stdout}");
    for step in ["discover", "screen", "organise", "write", "total"] {
        assert!(
            stdout.lines().any(|line| line.starts_with(step)),
            "{step} missing: {stdout}"
        );
    }

    let plain = home.path().join("plain");
    let reviewed = review_of(
        home.path(),
        &question,
        &works,
        &plain,
        &["--tier", "quick", "--yes"],
        &[],
    );
    assert!(reviewed.status.success(), "{}", describe(&reviewed));
    let scale_one = bench_out.join("scale-1/review");
    for file in [
        "review.md",
        "themes.json",
        "evidence.json",
        "references.bib",
        "screening.csv",
        "corpus.csv",
    ] {
        let bench_bytes = std::fs::read(scale_one.join(file)).expect("bench output");
        let plain_bytes = std::fs::read(plain.join(file)).expect("plain output");
        assert!(
            bench_bytes == plain_bytes,
            "{file} of the bench's scale 1 differs from a plain review's"
        );
    }
}

#[test]
fn the_outputs_are_the_same_on_one_thread_and_on_two() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let question = question(&data, DATASET);
    let works = works_file(&data, DATASET);
    let mut outputs = Vec::new();
    for threads in ["1", "2"] {
        let out = home.path().join(format!("threads-{threads}"));
        let reviewed = review_of(
            home.path(),
            &question,
            &works,
            &out,
            &["--tier", "standard", "--yes"],
            &[("RAYON_NUM_THREADS", threads)],
        );
        assert!(reviewed.status.success(), "{}", describe(&reviewed));
        outputs.push(out);
    }
    for file in [
        "review.md",
        "themes.json",
        "evidence.json",
        "references.bib",
        "screening.csv",
        "corpus.csv",
        "graph.graphml",
    ] {
        let one = std::fs::read(outputs[0].join(file)).expect("output on one thread");
        let two = std::fs::read(outputs[1].join(file)).expect("output on two threads");
        assert!(one == two, "{file} differs between one thread and two");
    }
}
