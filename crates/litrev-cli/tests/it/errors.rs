//! Bad input gets a clear error, the right exit code, and loses nothing stored.

use crate::support::{describe, litrev, newest_run, review_of, table, testdata, works_file};

#[test]
fn a_panic_in_a_step_is_a_resumable_failure_that_names_the_step() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("out");
    let snapshot = works_file(&data, "Donners_2021");
    let question = "Pharmacokinetics and associated efficacy of emicizumab in humans";
    let panicked = review_of(
        home.path(),
        question,
        &snapshot,
        &out,
        &["--yes"],
        &[("LITREV_PANIC_IN", "screen")],
    );
    assert_eq!(panicked.status.code(), Some(2), "{}", describe(&panicked));
    let stderr = String::from_utf8_lossy(&panicked.stderr);
    assert!(
        stderr.contains("step `screen` stopped on an internal error: injected panic")
            && stderr.contains("please report it at")
            && stderr.contains("litrev resume "),
        "{stderr}"
    );
    assert!(
        !stderr.contains("panicked at") && !stderr.contains("backtrace"),
        "no raw panic output: {stderr}"
    );
    let listed = litrev(home.path(), &["runs"], &[]);
    assert!(
        String::from_utf8_lossy(&listed.stdout).contains("failed"),
        "{}",
        describe(&listed)
    );
    // What the steps before it stored is kept: resuming redoes only the step that panicked.
    let run = newest_run(home.path());
    let resumed = litrev(home.path(), &["resume", &run], &[]);
    assert!(resumed.status.success(), "{}", describe(&resumed));
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(stderr.contains("discover  done earlier"), "{stderr}");
    assert!(out.join("review.md").is_file());
}

#[test]
fn a_missing_snapshot_says_what_to_pass() {
    let home = tempfile::tempdir().expect("home");
    let output = litrev(
        home.path(),
        &[
            "review",
            "Sleep and memory",
            "--source",
            "snapshot:/no/such/file.jsonl.gz",
            "--yes",
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("does not exist") && stderr.contains("OpenAlex"),
        "{stderr}"
    );
    // Refused before a run is stored: the list of runs holds no failed run for it.
    let listed = litrev(home.path(), &["runs"], &[]);
    assert!(listed.status.success(), "{}", describe(&listed));
    assert!(
        !String::from_utf8_lossy(&listed.stdout).contains("Sleep and memory"),
        "{}",
        describe(&listed)
    );
}

#[test]
fn a_malformed_snapshot_is_refused_clearly() {
    let home = tempfile::tempdir().expect("home");
    let garbage = home.path().join("garbage.jsonl");
    std::fs::write(&garbage, "not json at all\n").expect("write");
    let source = format!("snapshot:{}", garbage.display());
    let output = litrev(
        home.path(),
        &["review", "Sleep and memory", "--source", &source, "--yes"],
        &[],
    );
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no OpenAlex Work records"));
}

/// Folders that cannot serve the run, and a store that is no database, are refused before a
/// run is stored, with exit code 1 (bad input), not after the searches and screening.
#[test]
fn unusable_folders_and_stores_are_refused_before_the_run_starts() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let snapshot = works_file(&data, "Donners_2021");
    let file = home.path().join("a-file");
    std::fs::write(&file, "not a folder, nor a database").expect("write");
    let question = "Pharmacokinetics and associated efficacy of emicizumab in humans";
    let source = format!("snapshot:{}", snapshot.display());
    let refused = |extra: &[&str], expected: &str| {
        let args = [&["review", question, "--source", &source, "--yes"], extra].concat();
        let output = litrev(home.path(), &args, &[]);
        assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{stderr}");
        assert!(!stderr.contains("discover"), "no step ran: {stderr}");
    };
    let file_text = file.display().to_string();
    refused(&["--out", &file_text], "--out names a file, not a folder");
    refused(
        &["--fulltext-dir", "/no/such/folder"],
        "--fulltext-dir names no folder",
    );
    refused(&["--db", &file_text], "cannot open the store");
    let listed = litrev(home.path(), &["runs"], &[]);
    assert!(
        !String::from_utf8_lossy(&listed.stdout).contains("emicizumab"),
        "no run was stored: {}",
        describe(&listed)
    );
}

#[test]
fn a_style_that_cannot_be_used_says_what_to_pass() {
    let home = tempfile::tempdir().expect("home");
    let run = |style: &str| {
        litrev(
            home.path(),
            &["review", "Sleep and memory", "--style", style, "--yes"],
            &[],
        )
    };
    // An unknown name is refused by clap while parsing, with clap's exit code, as --tier is.
    let unknown = run("harvard");
    assert_eq!(unknown.status.code(), Some(2), "{}", describe(&unknown));
    assert!(
        String::from_utf8_lossy(&unknown.stderr).contains("apa, mla, ieee, chicago or gb7714"),
        "{}",
        describe(&unknown)
    );

    let missing = run("/no/such/style.csl");
    assert_eq!(missing.status.code(), Some(1), "{}", describe(&missing));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("check the path given to --style"),
        "{}",
        describe(&missing)
    );

    let not_csl = home.path().join("broken.csl");
    std::fs::write(&not_csl, "<html>not a style</html>").expect("write");
    let broken = run(&not_csl.display().to_string());
    assert_eq!(broken.status.code(), Some(1), "{}", describe(&broken));
    let stderr = String::from_utf8_lossy(&broken.stderr);
    assert!(
        stderr.contains("as a citation style") && stderr.contains("pass a CSL 1.0 style file"),
        "{stderr}"
    );
    // Refused before the run was created: nothing to resume.
    let listed = litrev(home.path(), &["runs"], &[]);
    assert!(!String::from_utf8_lossy(&listed.stdout).contains("Sleep and memory"));
}

#[test]
fn unknown_runs_and_seeds_say_what_to_do() {
    let home = tempfile::tempdir().expect("home");
    let output = litrev(home.path(), &["resume", "20990101-000000-dead"], &[]);
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    assert!(String::from_utf8_lossy(&output.stderr).contains("litrev runs"));

    let Some(data) = testdata() else { return };
    let source = format!("snapshot:{}", works_file(&data, "Donners_2021").display());
    let output = litrev(
        home.path(),
        &[
            "review",
            "Emicizumab",
            "--source",
            &source,
            "--seed",
            "W1",
            "--yes",
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    assert!(String::from_utf8_lossy(&output.stderr).contains("seed not found"));
}

#[test]
fn seeds_given_by_doi_are_included() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("seeded");
    let output = review_of(
        home.path(),
        "Emicizumab prophylaxis in haemophilia A",
        &works_file(&data, "Donners_2021"),
        &out,
        &["--seed", "https://doi.org/10.1056/NEJMoa1703068", "--yes"],
        &[],
    );
    assert!(output.status.success(), "{}", describe(&output));
    let rows = table(&out.join("corpus.csv"));
    let seeded = rows
        .iter()
        .find(|row| row["openalex_id"] == "https://openalex.org/W2734287351")
        .expect("the seed is in the corpus");
    assert_eq!(seeded["origin"], "seed");
    assert_eq!(seeded["decision"], "include");
}

#[test]
fn eligibility_rules_exclude_with_their_reasons() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("filtered");
    let output = review_of(
        home.path(),
        "Emicizumab prophylaxis in haemophilia A",
        &works_file(&data, "Donners_2021"),
        &out,
        &[
            "--years",
            "2017-2019",
            "--kind",
            "article",
            "--exclude-term",
            "pediatric",
            "--yes",
        ],
        &[],
    );
    assert!(output.status.success(), "{}", describe(&output));
    let mut reasons = std::collections::BTreeSet::new();
    for row in table(&out.join("corpus.csv")) {
        reasons.insert(row["reason"].clone());
        if row["decision"] == "include" {
            let published: i32 = row["year"].parse().expect("included works have a year");
            assert!(
                (2017..=2019).contains(&published),
                "{published} is outside the window"
            );
        }
    }
    for expected in ["outside_years", "wrong_type", "excluded_term"] {
        assert!(
            reasons.contains(expected),
            "no {expected} among {reasons:?}"
        );
    }
    let markdown = std::fs::read_to_string(out.join("review.md")).expect("review.md");
    assert!(markdown.contains("Eligible works had to be published between 2017 and 2019"));
}
