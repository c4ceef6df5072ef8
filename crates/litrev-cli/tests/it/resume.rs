//! A run killed at any step boundary and resumed gives the same outputs as one that never stopped.

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::{
    describe, files_of, litrev, newest_run, newest_run_in, question, review_of, testdata,
    works_file,
};

const DATASET: &str = "Donners_2021";

/// `run.json` without what differs between two runs by design: id, time and output folder.
fn comparable(files: &BTreeMap<String, Vec<u8>>) -> BTreeMap<String, Vec<u8>> {
    let mut files = files.clone();
    let record = files.remove("run.json").expect("run.json");
    let mut record: serde_json::Value = serde_json::from_slice(&record).expect("run.json parses");
    let object = record.as_object_mut().expect("object");
    object.remove("run_id");
    object.remove("created_at");
    // What each step cost in time and memory is measured, not reproduced.
    object.remove("telemetry");
    object["options"]
        .as_object_mut()
        .expect("options")
        .remove("out_dir");
    files.insert(
        "run.json".to_owned(),
        serde_json::to_vec_pretty(&record).expect("serialise"),
    );
    files
}

/// Reviews the dataset into `out` on the store `store` names (`LITREV_DB`; none: the home's
/// SQLite file), killed after `fail_after` when given.
fn run_to(
    home: &Path,
    data: &Path,
    out: &Path,
    fail_after: Option<&str>,
    store: &[(&str, &str)],
) -> std::process::Output {
    let question = question(data, DATASET);
    let mut env: Vec<(&str, &str)> = fail_after
        .map(|step| ("LITREV_FAIL_AFTER", step))
        .into_iter()
        .collect();
    env.extend_from_slice(store);
    review_of(
        home,
        &question,
        &works_file(data, DATASET),
        out,
        &["--yes"],
        &env,
    )
}

#[test]
fn a_run_killed_at_each_step_resumes_to_identical_outputs() {
    let Some(data) = testdata() else { return };
    killed_at_each_step_resumes_to_identical_outputs(&data, &[]);
}

/// The same on a PostgreSQL store: a step's transaction there is all or nothing too.
#[test]
fn a_run_killed_at_each_step_resumes_to_identical_outputs_on_postgresql() {
    let Some(data) = testdata() else { return };
    let Some(url) = litrev_testkit::postgres::fresh_database("resume") else {
        return;
    };
    killed_at_each_step_resumes_to_identical_outputs(&data, &[("LITREV_DB", &url)]);
}

fn killed_at_each_step_resumes_to_identical_outputs(data: &Path, store: &[(&str, &str)]) {
    let home = tempfile::tempdir().expect("home");
    let reference_out = home.path().join("uninterrupted");
    let output = run_to(home.path(), data, &reference_out, None, store);
    assert!(output.status.success(), "{}", describe(&output));
    let reference = comparable(&files_of(&reference_out));

    for step in [
        "plan",
        "discover",
        "snowball.1",
        "screen",
        "gate",
        "fulltext",
        "organise",
        "write",
        "audit",
    ] {
        let out = home.path().join(format!("killed-after-{step}"));
        let killed = run_to(home.path(), data, &out, Some(step), store);
        assert!(!killed.status.success(), "the run should die after {step}");
        assert!(
            !out.join("review.md").exists(),
            "nothing is published before the last step"
        );
        let run = newest_run_in(home.path(), store);
        let resumed = litrev(home.path(), &["resume", &run], store);
        assert!(
            resumed.status.success(),
            "resume after {step}: {}",
            describe(&resumed)
        );
        let stderr = String::from_utf8_lossy(&resumed.stderr);
        assert!(
            stderr.contains(&format!("{step:>12}  done earlier")),
            "{step} is not redone: {stderr}"
        );
        let again = comparable(&files_of(&out));
        assert_eq!(
            again.keys().collect::<Vec<_>>(),
            reference.keys().collect::<Vec<_>>(),
            "after {step}"
        );
        for (name, bytes) in &reference {
            assert!(
                again[name] == *bytes,
                "{name} differs after a kill at {step}"
            );
        }
    }
}

#[test]
fn the_gate_pauses_until_resume() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("gated");
    let question = question(&data, DATASET);
    // A style other than the default, which `resume` (given no style) must keep.
    let paused = review_of(
        home.path(),
        &question,
        &works_file(&data, DATASET),
        &out,
        &["--style", "ieee"],
        &[],
    );
    assert_eq!(paused.status.code(), Some(3), "{}", describe(&paused));
    assert!(String::from_utf8_lossy(&paused.stdout).contains("litrev resume"));
    assert!(
        out.join("screening.csv").is_file(),
        "the screening is there to check"
    );
    assert!(!out.join("review.md").exists());
    let listed = litrev(home.path(), &["runs"], &[]);
    assert!(String::from_utf8_lossy(&listed.stdout).contains("awaiting_approval"));

    let run = newest_run(home.path());
    let resumed = litrev(home.path(), &["resume", &run], &[]);
    assert!(resumed.status.success(), "{}", describe(&resumed));
    assert!(out.join("review.md").is_file());
    let listed = litrev(home.path(), &["runs"], &[]);
    assert!(String::from_utf8_lossy(&listed.stdout).contains(" done "));
    let html = std::fs::read_to_string(out.join("review.html")).expect("review.html");
    assert!(
        html.contains("<div class=\"references numeric\">") && html.contains(">[1]</a>"),
        "the resumed run's references are not in IEEE style"
    );
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("run.json")).expect("run.json"))
            .expect("run.json parses");
    assert_eq!(record["options"]["style"], "ieee");
}
