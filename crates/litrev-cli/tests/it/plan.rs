//! `litrev plan` writes an editable plan and runs nothing; `litrev review --plan` runs the
//! edited plan and records what was changed; `review --clarify` waits for its answers.

use crate::support::{describe, litrev, newest_run, snapshot_source, testdata};

const QUESTION: &str = "Pharmacokinetics and associated efficacy of emicizumab in humans";

#[test]
fn an_edited_plan_runs_as_written_and_the_run_records_the_edits() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let plan_path = home.path().join("plan.toml");
    let plan_text = plan_path.display().to_string();
    let output = litrev(
        home.path(),
        &["plan", QUESTION, "--tier", "quick", "--out", &plan_text],
        &[],
    );
    assert!(output.status.success(), "{}", describe(&output));
    assert!(
        !home.path().join("litrev.sqlite").exists(),
        "planning runs nothing and stores nothing"
    );
    let generated = std::fs::read_to_string(&plan_path).expect("plan written");
    assert!(generated.contains("[[queries]]"), "{generated}");
    // The estimate closes the file, for review's default source; reading the plan skips it.
    let estimate = &generated[generated.find("[estimate]").expect("an estimate")..];
    assert!(
        estimate.contains("[[estimate.sources]]\nsource = \"openalex\""),
        "{estimate}"
    );
    assert!(estimate.contains("requests_low = "), "{estimate}");

    // A person keeps only the first query and lowers the cap on works.
    let second = generated
        .find("[[queries]]\nlabel = \"q2\"")
        .expect("a second query");
    let limits = generated.find("[limits]").expect("limits");
    let edited = format!("{}{}", &generated[..second], &generated[limits..])
        .replace("max_works = 50", "max_works = 40");
    std::fs::write(&plan_path, edited).expect("edit");

    let out = home.path().join("review");
    let source = snapshot_source(&data, "Donners_2021");
    let out_text = out.display().to_string();
    let output = litrev(
        home.path(),
        &[
            "review", "--plan", &plan_text, "--source", &source, "--out", &out_text, "--yes",
        ],
        &[],
    );
    assert!(output.status.success(), "{}", describe(&output));
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("run.json")).expect("run.json"))
            .expect("run.json parses");
    assert_eq!(record["question"], QUESTION);
    assert_eq!(record["plan"]["queries"].as_array().map(Vec::len), Some(1));
    assert_eq!(record["plan"]["limits"]["max_works"], 40);
    let fields: Vec<&str> = record["plan_edits"]
        .as_array()
        .expect("plan_edits")
        .iter()
        .filter_map(|edit| edit["field"].as_str())
        .collect();
    assert_eq!(
        fields,
        ["limits.max_works", "queries"],
        "{}",
        record["plan_edits"]
    );

    // Another question than the plan's is refused, saying what to do.
    let output = litrev(
        home.path(),
        &[
            "review",
            "Something else",
            "--plan",
            &plan_text,
            "--source",
            &source,
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("leave the question out"), "{stderr}");

    // A file that is no plan says how to write one.
    std::fs::write(&plan_path, "question = \"x\"\n").expect("break");
    let output = litrev(
        home.path(),
        &["review", "--plan", &plan_text, "--source", &source],
        &[],
    );
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("litrev plan QUESTION"), "{stderr}");
}

/// With `--source`, a probe search gives the brief its disciplines (derived), and without a
/// terminal the clarifying questions take their defaults, which the plan records unanswered.
#[test]
fn a_probe_gives_the_brief_its_disciplines() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let plan_path = home.path().join("plan.toml");
    let plan_text = plan_path.display().to_string();
    let source = snapshot_source(&data, "Donners_2021");
    let output = litrev(
        home.path(),
        &[
            "plan", QUESTION, "--source", &source, "--yes", "--out", &plan_text,
        ],
        &[],
    );
    assert!(output.status.success(), "{}", describe(&output));
    let text = std::fs::read_to_string(&plan_path).expect("plan written");
    let plan: toml::Table = toml::from_str(&text).expect("the plan is TOML");
    let brief = &plan["brief"];
    let disciplines = &brief["disciplines"];
    assert_eq!(
        disciplines["basis"].as_str(),
        Some("derived"),
        "{disciplines}"
    );
    assert!(
        disciplines["value"]
            .as_array()
            .is_some_and(|names| names.iter().any(|name| name.as_str() == Some("Medicine"))),
        "{disciplines}"
    );
    assert!(brief.get("time_window").is_some(), "{text}");
    let answered = brief
        .get("clarifications")
        .and_then(toml::Value::as_array)
        .is_some_and(|asked| {
            asked
                .iter()
                .any(|question| question.get("answer").is_some())
        });
    assert!(!answered, "defaults are recorded as unanswered: {text}");
}

/// `review --clarify` on a question whose probe spreads over two disciplines stops before
/// searching (exit 3) and prints the question; a wrong answer is refused (exit 1) and changes
/// nothing; `resume --answer` records the answer in the plan and the run goes on to the end.
#[test]
fn a_review_asked_to_clarify_waits_for_its_answer_on_the_command_line() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("out");
    let out_text = out.display().to_string();
    let sources: Vec<String> = ["Sep_2021", "van_der_Valk_2021"]
        .iter()
        .map(|dataset| snapshot_source(&data, dataset))
        .collect();
    let output = litrev(
        home.path(),
        &[
            "review",
            "Hair cortisol and the rodent object-in-context task",
            "--source",
            &sources[0],
            "--source",
            &sources[1],
            "--clarify",
            "--yes",
            "--out",
            &out_text,
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(3), "{}", describe(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("[both / Psychology]"), "{stdout}");
    assert!(
        !out.join("review.md").exists(),
        "nothing written before the answers"
    );
    let run = newest_run(home.path());
    let refused = litrev(home.path(), &["resume", &run, "--answer", "Astrology"], &[]);
    assert_eq!(refused.status.code(), Some(1), "{}", describe(&refused));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("is not an answer"),
        "{}",
        describe(&refused)
    );
    let resumed = litrev(
        home.path(),
        &["resume", &run, "--answer", "psychology"],
        &[],
    );
    assert!(resumed.status.success(), "{}", describe(&resumed));
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).expect("run.json"))
            .expect("JSON");
    let brief = &record["plan"]["brief"];
    assert_eq!(
        brief["disciplines"]["value"],
        serde_json::json!(["Psychology"]),
        "{brief}"
    );
    assert_eq!(
        brief["clarifications"][0]["answer"], "Psychology",
        "{brief}"
    );
}

/// Years a question states become the plan's filter and keep earlier works out of the review:
/// the review of Donners_2021's pool asked about emicizumab "since 2017" includes no work
/// published before 2017, and screening says why the earlier ones went.
#[test]
fn a_year_the_question_states_keeps_earlier_works_out_of_the_review() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let source = snapshot_source(&data, "Donners_2021");
    let out_text = out.display().to_string();
    let output = litrev(
        home.path(),
        &[
            "review",
            "Emicizumab prophylaxis in haemophilia A since 2017",
            "--source",
            &source,
            "--tier",
            "quick",
            "--out",
            &out_text,
            "--yes",
        ],
        &[],
    );
    assert!(output.status.success(), "{}", describe(&output));
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("run.json")).expect("run.json"))
            .expect("run.json parses");
    assert_eq!(
        record["plan"]["filters"]["year_from"], 2017,
        "{}",
        record["plan"]
    );
    assert_eq!(record["plan"]["brief"]["time_window"]["basis"], "stated");
    let mut reader = csv::Reader::from_path(out.join("corpus.csv")).expect("corpus.csv");
    let headers = reader.headers().expect("headers").clone();
    let column = |name: &str| {
        headers
            .iter()
            .position(|header| header == name)
            .expect("a column")
    };
    let (year, decision, reason) = (column("year"), column("decision"), column("reason"));
    let (mut included, mut earlier) = (0, 0);
    for row in reader.records() {
        let row = row.expect("row");
        let published: Option<i32> = row[year].parse().ok();
        if &row[decision] == "include" {
            included += 1;
            assert!(
                published.is_some_and(|published| published >= 2017),
                "{row:?}"
            );
        } else if published.is_some_and(|published| published < 2017) {
            earlier += 1;
            assert!(!row[reason].is_empty(), "{row:?}");
        }
    }
    assert!(
        included > 0 && earlier > 0,
        "{included} included, {earlier} earlier"
    );
}
