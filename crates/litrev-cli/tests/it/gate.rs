//! The human gate: labels given in the terminal or imported from an edited screening.csv are
//! kept the moment they are given and are in force when the run resumes.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use crate::support::{describe, litrev, question, review_of, table, testdata, works_file};

const DATASET: &str = "Donners_2021";

/// Starts a review that stops at the gate; returns its run id.
fn paused_run(home: &Path, data: &Path, out: &Path) -> String {
    let question = question(data, DATASET);
    let paused = review_of(
        home,
        &question,
        &works_file(data, DATASET),
        out,
        &["--json"],
        &[],
    );
    assert_eq!(paused.status.code(), Some(3), "{}", describe(&paused));
    let summary: serde_json::Value = serde_json::from_slice(&paused.stdout).expect("JSON");
    assert_eq!(summary["status"], "awaiting_approval");
    summary["run"].as_str().expect("run").to_owned()
}

/// Starts `litrev screen RUN` with piped stdin and stdout, as a person at a terminal.
fn screen_session(home: &Path, run: &str, env: &[(&str, &str)]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_litrev"))
        .args(["screen", run])
        .env("LITREV_HOME", home)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("litrev screen starts")
}

/// The screening.csv row of a work: (decision, reason, reviewer).
fn screening_row(out: &Path, work: &str) -> (String, String, String) {
    let row = table(&out.join("screening.csv"))
        .into_iter()
        .find(|row| row["openalex_id"].ends_with(work))
        .unwrap_or_else(|| panic!("{work} in screening.csv"));
    (
        row["decision"].clone(),
        row["reason"].clone(),
        row["reviewer"].clone(),
    )
}

#[test]
fn a_label_given_interactively_survives_kill_9_and_resume() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let run = paused_run(home.path(), &data, &out);

    let mut session = screen_session(home.path(), &run, &[]);
    let mut stdin = session.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(session.stdout.take().expect("stdout"));
    // Skip the first record, exclude the second, then wait for the label to be saved.
    stdin.write_all(b"s\ne\n").expect("keys");
    stdin.flush().expect("flush");
    let mut labelled = None;
    let mut line = String::new();
    while stdout.read_line(&mut line).expect("read") > 0 {
        if let Some(rest) = line.split("saved: exclude ").nth(1) {
            labelled = Some(rest.trim().to_owned());
            break;
        }
        line.clear();
    }
    let labelled = labelled.expect("a label was saved");
    session.kill().expect("kill -9");
    session.wait().expect("reaped");

    let resumed = litrev(home.path(), &["resume", &run], &[]);
    assert!(resumed.status.success(), "{}", describe(&resumed));
    assert!(out.join("review.md").is_file());
    let (decision, reason, reviewer) = screening_row(&out, &labelled);
    assert_eq!(
        (decision.as_str(), reason.as_str(), reviewer.as_str()),
        ("exclude", "person_decision", "person")
    );

    let after = litrev(home.path(), &["screen", &run], &[]);
    assert_eq!(
        after.status.code(),
        Some(1),
        "past the gate: {}",
        describe(&after)
    );
    assert!(String::from_utf8_lossy(&after.stderr).contains("approved already"));
}

#[test]
fn undo_takes_back_the_last_label() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let run = paused_run(home.path(), &data, &out);
    // With the embedding model installed, the session's ranking reads the records' embeddings
    // beside their words, and keeps them in the home's cache.
    let model = litrev_testkit::embed_model().map(|dir| dir.display().to_string());
    let env: Vec<(&str, &str)> = model
        .iter()
        .map(|dir| ("LITREV_EMBED_MODEL", dir.as_str()))
        .collect();
    let mut session = screen_session(home.path(), &run, &env);
    session
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"i\nu\nq\n")
        .expect("keys");
    let output = session.wait_with_output().expect("session ends");
    assert!(output.status.success(), "{}", describe(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    let saved = text
        .split("saved: include ")
        .nth(1)
        .expect("saved")
        .lines()
        .next()
        .expect("id")
        .trim()
        .to_owned();
    assert!(text.contains(&format!("undone: include {saved}")), "{text}");
    assert!(text.contains("1 labels given"), "{text}");
    if model.is_some() {
        let cached: u64 = std::fs::read_dir(home.path().join("embeddings"))
            .expect("the session embedded the records")
            .filter_map(|entry| entry.ok()?.metadata().ok())
            .map(|metadata| metadata.len())
            .sum();
        // 384 floats a record, for the run's candidate records.
        assert!(cached >= 100 * 384 * 4, "{cached} bytes of embeddings");
    }

    let resumed = litrev(home.path(), &["resume", &run], &[]);
    assert!(resumed.status.success(), "{}", describe(&resumed));
    let (_, reason, reviewer) = screening_row(&out, &saved);
    assert_ne!(
        reason, "person_decision",
        "the undone label is not in force"
    );
    assert_ne!(reviewer, "person");
}

#[test]
fn an_edited_screening_csv_is_imported() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let run = paused_run(home.path(), &data, &out);

    // Flip the first included record to excluded, as a reviewer editing the file would.
    let mut reader = csv::Reader::from_path(out.join("screening.csv")).expect("screening.csv");
    let headers = reader.headers().expect("headers").clone();
    let label = headers
        .iter()
        .position(|header| header == "label_included")
        .expect("label");
    let id = headers
        .iter()
        .position(|header| header == "openalex_id")
        .expect("id");
    let doi = headers
        .iter()
        .position(|header| header == "doi")
        .expect("doi");
    let mut rows: Vec<csv::StringRecord> = reader
        .records()
        .map(|record| record.expect("row"))
        .collect();
    let flipped = rows
        .iter()
        .position(|row| &row[label] == "1")
        .expect("an included row");
    let flipped_id = rows[flipped][id].to_owned();
    let flipped_doi = rows[flipped][doi].to_owned();
    assert!(
        !flipped_doi.is_empty(),
        "the flipped work has a DOI to look for"
    );
    let mut fields: Vec<String> = rows[flipped].iter().map(str::to_owned).collect();
    fields[label] = "0".to_owned();
    rows[flipped] = csv::StringRecord::from(fields);
    let edited = home.path().join("edited.csv");
    let mut writer = csv::Writer::from_path(&edited).expect("edited.csv");
    writer.write_record(&headers).expect("headers");
    for row in &rows {
        writer.write_record(row).expect("row");
    }
    writer.flush().expect("flush");

    let imported = litrev(
        home.path(),
        &["screen", &run, "--import", &edited.display().to_string()],
        &[],
    );
    assert!(imported.status.success(), "{}", describe(&imported));
    assert!(String::from_utf8_lossy(&imported.stdout).starts_with("1 decisions changed by you"));

    let resumed = litrev(home.path(), &["resume", &run], &[]);
    assert!(resumed.status.success(), "{}", describe(&resumed));
    let work = flipped_id.rsplit('/').next().expect("id").to_owned();
    let (decision, reason, _) = screening_row(&out, &work);
    assert_eq!(
        (decision.as_str(), reason.as_str()),
        ("exclude", "person_decision")
    );
    let references: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("references.json")).expect("references"),
    )
    .expect("CSL-JSON");
    let cited_dois: Vec<String> = references
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|item| item["DOI"].as_str().map(str::to_lowercase))
        .collect();
    assert!(
        !cited_dois.contains(&flipped_doi.to_lowercase()),
        "the excluded work is not cited"
    );
}

#[test]
fn screening_ris_round_trips_and_an_edited_copy_is_imported() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let run = paused_run(home.path(), &data, &out);
    let ris = std::fs::read_to_string(out.join("screening.ris")).expect("screening.ris");
    let records = ris.matches("\nER  - ").count() + usize::from(ris.starts_with("ER  - "));
    let labelled =
        ris.matches("ASReview_relevant").count() + ris.matches("ASReview_irrelevant").count();
    assert!(
        records > 100 && labelled == records,
        "{records} records, {labelled} labelled"
    );

    // Importing the export unchanged changes nothing: every record is found and agrees.
    let unchanged = litrev(
        home.path(),
        &[
            "screen",
            &run,
            "--import",
            &out.join("screening.ris").display().to_string(),
        ],
        &[],
    );
    assert!(unchanged.status.success(), "{}", describe(&unchanged));
    let text = String::from_utf8_lossy(&unchanged.stdout).into_owned();
    assert_eq!(text.lines().next(), Some(format!("0 decisions changed by you, {records} unchanged, 0 rows not in this run; continue with `litrev resume {run}`").as_str()));

    // A reviewer marks the first relevant record irrelevant, as in ASReview.
    let edited = ris.replacen("ASReview_relevant", "ASReview_irrelevant", 1);
    let path = home.path().join("edited.ris");
    std::fs::write(&path, edited).expect("write");
    let imported = litrev(
        home.path(),
        &["screen", &run, "--import", &path.display().to_string()],
        &[],
    );
    assert!(imported.status.success(), "{}", describe(&imported));
    assert!(String::from_utf8_lossy(&imported.stdout).starts_with("1 decisions changed by you"));
}

#[test]
fn show_returns_a_claim_with_its_evidence() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let run = paused_run(home.path(), &data, &out);
    let early = litrev(home.path(), &["show", &run, "--claim", "1"], &[]);
    assert_eq!(early.status.code(), Some(1), "{}", describe(&early));
    assert!(String::from_utf8_lossy(&early.stderr).contains("no review yet"));

    let resumed = litrev(home.path(), &["resume", &run], &[]);
    assert!(resumed.status.success(), "{}", describe(&resumed));
    let evidence: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("evidence.json")).expect("evidence.json"),
    )
    .expect("evidence.json");
    let taken = evidence
        .as_array()
        .expect("array")
        .iter()
        .find(|claim| claim["basis"] == "span")
        .expect("a claim taken from a work");
    let number = taken["claim"].as_u64().expect("number").to_string();
    let shown = litrev(
        home.path(),
        &["show", &run, "--claim", &number, "--json"],
        &[],
    );
    assert!(shown.status.success(), "{}", describe(&shown));
    let shown: serde_json::Value = serde_json::from_slice(&shown.stdout).expect("JSON");
    assert_eq!(&shown, taken, "show and evidence.json agree");

    let human = litrev(home.path(), &["show", &run, "--claim", &number], &[]);
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(
        text.contains("taken from")
            && text.contains(taken["span"]["snippet"].as_str().expect("snippet"))
    );
    let beyond = litrev(home.path(), &["show", &run, "--claim", "100000"], &[]);
    assert_eq!(beyond.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&beyond.stderr).contains("numbered 1 to"));
}
