//! `litrev review --llm openai` against a scripted OpenAI-compatible server on loopback: every
//! citation resolves, an invented claim is caught and repaired, the ledger lands in run.json,
//! cached answers are not asked again, and a budget too small stops the run before any call;
//! with `--criteria`, the model judges the eligibility of the works at screening.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;

use litrev_testkit::llm::{ChatCall, ScriptedLlm, evidence_lines, faithful_paraphrase, words};

use crate::support::{
    cited_keys, describe, is_briefing, is_planning, is_snowballing, litrev, newest_run, question,
    review_of, scripted_llm_args, testdata, works_file,
};

const DATASET: &str = "Donners_2021";

/// The claim the script adds to every theme, citing its first span: 1234 is in no abstract
/// sentence the script is shown, nor are "eliminated" and "worldwide".
const INVENTED: &str =
    "This treatment eliminated every adverse outcome in 1234 patients worldwide.";

/// The searches the script proposes to the planner: two new, one the question's own words
/// (left out).
const VARIANTS: &str = r#"{"searches": [
    {"terms": ["ACE910", "bispecific antibody"], "aim": "the drug's code name and class"},
    {"terms": ["factor VIII mimetic", "inhibitors"], "aim": "how it works"},
    {"terms": ["emicizumab", "efficacy"], "aim": "the question again"}
]}"#;

/// The brief the script gives: disciplines (which nothing else settles without a probe), and
/// methods and population (which the question states: they stay the question's).
const BRIEF: &str = r#"{"disciplines": ["Medicine", "Pharmacology"], "methods": ["clinical trials"],
    "population": ["people with haemophilia A"], "domains": []}"#;

/// The plan's brief: [`BRIEF`]; its variants: [`VARIANTS`]. Snowballing's works in doubt: relevant when the title
/// names emicizumab. Drafts: a faithful sentence per span (the first with an inline
/// placeholder) and the invented claim; repairs: a cautious sentence from the span the claim
/// cited.
pub(crate) fn script(call: &ChatCall) -> String {
    if is_briefing(call) {
        return BRIEF.to_owned();
    }
    if is_planning(call) {
        return VARIANTS.to_owned();
    }
    if is_snowballing(call) {
        let decision = if call.title().contains("emicizumab") {
            "relevant"
        } else {
            "not_relevant"
        };
        return serde_json::json!({"decision": decision, "rationale": "Named in the title."})
            .to_string();
    }
    let evidence = evidence_lines(&call.user);
    let sentence = |part: &str, text: &str, spans: &[&str]| serde_json::json!({"part": part, "text": text, "spans": spans});
    let sentences: Vec<serde_json::Value> = if call.system.contains("one thematic section") {
        let mut drafted: Vec<serde_json::Value> = evidence
            .iter()
            .enumerate()
            .map(|(index, (id, text))| {
                if index == 0 {
                    let inline = format!(
                        "{} [[{id}]].",
                        faithful_paraphrase(text).trim_end_matches('.')
                    );
                    sentence("findings", &inline, &[])
                } else {
                    sentence("findings", &faithful_paraphrase(text), &[id])
                }
            })
            .collect();
        if let Some((first, _)) = evidence.first() {
            drafted.push(sentence("findings", INVENTED, &[first]));
        }
        drafted
    } else {
        let cited = call
            .user
            .lines()
            .find_map(|line| line.strip_prefix("It cited: "))
            .unwrap_or_default()
            .to_owned();
        let text = evidence
            .iter()
            .find(|(id, _)| *id == cited)
            .map(|(_, text)| text.clone())
            .unwrap_or_default();
        vec![sentence(
            "findings",
            &faithful_paraphrase(&text)
                .replace("One study reported that", "One study suggested that"),
            &[&cited],
        )]
    };
    serde_json::json!({ "sentences": sentences }).to_string()
}

fn llm_review(home: &Path, data: &Path, out: &Path, llm: &ScriptedLlm, extra: &[&str]) -> Output {
    llm_review_with(home, data, out, llm, extra, &[])
}

/// [`llm_review`] with more environment variables.
pub(crate) fn llm_review_with(
    home: &Path,
    data: &Path,
    out: &Path,
    llm: &ScriptedLlm,
    extra: &[&str],
    env: &[(&str, &str)],
) -> Output {
    let llm_args = scripted_llm_args(llm);
    let mut args = vec!["--yes", "--json", "--llm-price", "1,2"];
    args.extend(llm_args.iter().map(String::as_str));
    args.extend_from_slice(extra);
    review_of(
        home,
        &question(data, DATASET),
        &works_file(data, DATASET),
        out,
        &args,
        &[&[("OPENAI_API_KEY", "")], env].concat(),
    )
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("file")).expect("JSON")
}

#[test]
fn an_llm_review_cites_only_stored_works_and_repairs_an_invented_claim() {
    let Some(data) = testdata() else { return };
    let llm = ScriptedLlm::start(script);
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let output = llm_review(home.path(), &data, &out, &llm, &["--budget", "5"]);
    assert!(output.status.success(), "{}", describe(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("LLM scripted at openai-compatible"),
        "{stderr}"
    );

    // Every citation resolves: the cited keys are exactly the references.
    let markdown = std::fs::read_to_string(out.join("review.md")).expect("review.md");
    let cited: BTreeSet<String> = cited_keys(&markdown).into_iter().collect();
    let references: BTreeSet<String> = json(&out.join("references.json"))
        .as_array()
        .expect("CSL-JSON array")
        .iter()
        .map(|item| item["id"].as_str().expect("id").to_owned())
        .collect();
    assert_eq!(cited, references);
    assert!(
        !markdown.contains("[["),
        "a placeholder was left unresolved"
    );
    assert!(
        !markdown.contains("eliminated every adverse outcome"),
        "the invented claim was published"
    );
    assert!(
        markdown.contains("One study suggested that"),
        "no repaired sentence"
    );

    // The paraphrases map to their spans, each span's work cited by its sentence.
    let claims = json(&out.join("evidence.json"));
    let paraphrases: Vec<&serde_json::Value> = claims
        .as_array()
        .expect("claims")
        .iter()
        .filter(|claim| claim["basis"] == "paraphrase")
        .collect();
    assert!(paraphrases.len() >= 10, "{} paraphrases", paraphrases.len());
    for claim in &paraphrases {
        let text = claim["markdown"].as_str().expect("markdown");
        let spans = claim["spans"].as_array().expect("spans");
        assert!(!spans.is_empty());
        for span in spans {
            let key = span["key"].as_str().expect("key");
            assert!(text.contains(&format!("@{key}")), "{claim}");
            assert!(
                span["snippet"]
                    .as_str()
                    .is_some_and(|snippet| !snippet.is_empty())
            );
        }
    }

    // `litrev show` gives a paraphrase's spans.
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).expect("summary");
    let run = summary["run"].as_str().expect("run id");
    let number = paraphrases[0]["claim"].as_u64().expect("claim").to_string();
    let shown = litrev(home.path(), &["show", run, "--claim", &number], &[]);
    assert!(shown.status.success(), "{}", describe(&shown));
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(
        shown.contains("paraphrased by the language model from:"),
        "{shown}"
    );

    // run.json: the ledger counts what the server was asked and answered.
    let record = json(&out.join("run.json"));
    let llm_record = &record["llm"];
    assert_eq!(llm_record["model"], "scripted");
    assert_eq!(llm_record["prompts"][0], "plan_queries.v1");
    assert_eq!(llm_record["prompts"][1], "snowball_relevance.v1");
    assert_eq!(llm_record["prompts"][2], "draft_section.v1");
    check_planning(&record);
    let themes = record["counts"]["organise"]["themes"]
        .as_array()
        .expect("themes")
        .len() as u64;
    let writing = &llm_record["writing"];
    assert_eq!(writing["sections"], themes);
    assert_eq!(writing["repaired"], themes, "{writing}");
    assert_eq!(writing["dropped"], 0, "{writing}");
    let calls = llm.calls();
    let (snowballing, writing_calls): (Vec<&ChatCall>, Vec<&ChatCall>) = calls
        .iter()
        .filter(|call| !is_planning(call))
        .partition(|call| is_snowballing(call));
    assert_eq!(writing_calls.len() as u64, 2 * themes);
    check_snowballing(llm_record, &snowballing);
    let total = &llm_record["total"];
    assert_eq!(total["calls"], calls.len() as u64);
    let input: u64 = calls
        .iter()
        .map(|call| words(&call.system) + words(&call.user))
        .sum();
    let output_tokens: u64 = calls.iter().map(|call| words(&script(call))).sum();
    assert_eq!(total["input_tokens"], input);
    assert_eq!(total["output_tokens"], output_tokens);
    let cost = total["cost_usd"].as_f64().expect("cost");
    let expected = (input as f64 + 2.0 * output_tokens as f64) / 1_000_000.0;
    assert!((cost - expected).abs() < 1e-9, "{cost} vs {expected}");
    assert_eq!(record["options"]["llm"]["budget_usd"], 5.0);
    check_estimate(&record);

    // The same review again: every answer comes from the cache, the text is the same.
    let again = home.path().join("again");
    let output = llm_review(home.path(), &data, &again, &llm, &[]);
    assert!(output.status.success(), "{}", describe(&output));
    assert_eq!(
        llm.requests(),
        calls.len() as u64,
        "cached answers were asked again"
    );
    assert_eq!(
        std::fs::read(again.join("review.md")).expect("review.md"),
        markdown.into_bytes()
    );
}

/// `run.json`'s estimate of the model's calls bounds what each phase asked: at most as many
/// calls in every phase, and in all; the output tokens too.
fn check_estimate(record: &serde_json::Value) {
    let estimate = &record["llm_estimate"];
    assert_eq!(estimate["model"], "scripted", "{estimate}");
    let estimated = |phase: &str| {
        estimate["phases"]
            .as_array()
            .expect("phases")
            .iter()
            .find(|row| row["phase"] == phase)
            .unwrap_or_else(|| panic!("no estimate of {phase}: {estimate}"))
    };
    for actual in record["llm"]["phases"].as_array().expect("phases") {
        let phase = actual["phase"].as_str().expect("a phase");
        let bound = estimated(phase);
        assert!(
            actual["calls"].as_u64() <= bound["calls"].as_u64(),
            "{phase}: {actual} over {bound}"
        );
    }
    assert!(record["llm"]["total"]["calls"].as_u64() <= estimate["calls"].as_u64());
    assert!(record["llm"]["total"]["output_tokens"].as_u64() <= estimate["output_tokens"].as_u64());
    // At the run's price ($1 and $2 per million tokens in and out).
    let tokens = |key: &str| estimate[key].as_f64().expect("tokens");
    let expected = (tokens("input_tokens") + 2.0 * tokens("output_tokens")) / 1_000_000.0;
    let cost = estimate["cost_usd"].as_f64().expect("a cost");
    assert!((cost - expected).abs() < 1e-9, "{cost} vs {expected}");
}

/// The plan of `run.json` against [`BRIEF`] and [`VARIANTS`]: the disciplines filled, the two
/// new searches added after the question's own, in the plan's syntax, searched at discovery;
/// the repeat left out; two calls (the brief first), counted under `plan`.
fn check_planning(record: &serde_json::Value) {
    let planning = &record["llm"]["planning"];
    assert_eq!(planning["prompt"], "plan_queries.v1");
    assert_eq!(planning["proposed"], 3, "{planning}");
    assert_eq!(planning["skipped"], 1, "{planning}");
    // Two calls: the brief, then the variants.
    assert_eq!(planning["usage"]["calls"], 2);
    assert_eq!(
        planning["brief"]["filled"],
        serde_json::json!(["disciplines"])
    );
    let brief = &record["plan"]["brief"];
    assert_eq!(
        brief["disciplines"],
        serde_json::json!({"value": ["Medicine", "Pharmacology"], "basis": "derived"})
    );
    assert_eq!(brief["methods"]["basis"], "stated", "{brief}");
    assert_eq!(record["llm"]["phases"][0]["phase"], "plan");
    let queries = record["plan"]["queries"].as_array().expect("queries");
    let added: Vec<&str> = planning["added"]
        .as_array()
        .expect("added")
        .iter()
        .map(|label| label.as_str().expect("label"))
        .collect();
    let variants: Vec<(&str, &str)> = queries
        .iter()
        .filter(|query| added.contains(&query["label"].as_str().expect("label")))
        .map(|query| {
            (
                query["text"].as_str().expect("text"),
                query["purpose"].as_str().expect("purpose"),
            )
        })
        .collect();
    assert_eq!(
        variants,
        [
            (
                "ace910 \"bispecific antibody\"~3",
                "a language model's variant: the drug's code name and class"
            ),
            (
                "\"factor viii mimetic\"~3 inhibitors",
                "a language model's variant: how it works"
            ),
        ]
    );
    let last = &queries[queries.len() - 1]["label"];
    assert_eq!(added.last().copied(), last.as_str(), "variants come last");
    let searched = record["counts"]["discover"]["queries"]
        .as_array()
        .expect("discovery's queries");
    for label in &added {
        let hits = searched
            .iter()
            .find(|query| query["label"] == *label)
            .unwrap_or_else(|| panic!("{label} was not searched: {searched:?}"));
        assert!(hits["hits"].as_u64().is_some_and(|hits| hits > 0), "{hits}");
    }
}

/// The snowball phase of `run.json`'s `llm` section against the calls the model received: a
/// verdict per work asked about, the relevant ones those whose title names emicizumab.
fn check_snowballing(llm_record: &serde_json::Value, calls: &[&ChatCall]) {
    let record = &llm_record["snowballing"];
    assert!(!calls.is_empty(), "no work was left in doubt: {llm_record}");
    assert_eq!(record["prompt"], "snowball_relevance.v1");
    assert_eq!(record["judged"], calls.len() as u64, "{record}");
    let relevant = calls
        .iter()
        .filter(|call| call.title().contains("emicizumab"))
        .count();
    assert_eq!(record["relevant"], relevant as u64, "{record}");
    assert_eq!(record["failed"], 0);
    assert_eq!(record["usage"]["calls"], calls.len() as u64);
    assert_eq!(llm_record["phases"][1]["phase"], "snowball");
    for call in calls {
        assert_eq!(
            call.body["response_format"]["type"], "json_schema",
            "the verdict is asked for as schema JSON"
        );
    }
}

#[test]
fn a_budget_too_small_stops_the_run_before_any_call() {
    let Some(data) = testdata() else { return };
    let llm = ScriptedLlm::start(script);
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let output = llm_review(home.path(), &data, &out, &llm, &["--budget", "0.0001"]);
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("left to it for the budget"),
        "snowballing did not say its works in doubt went unjudged:\n{}",
        describe(&output)
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("LLM budget reached") && stderr.contains("Raise --budget"),
        "{stderr}"
    );
    assert_eq!(llm.requests(), 0);
    assert!(!out.join("review.md").exists());
}

/// The judge's answers: include what is about emicizumab, exclude the rest for the wrong
/// intervention; every third answer wrapped in a Markdown fence, as chat models often do.
/// Other calls (the writer's) get the writing script.
fn judging_script(call: &ChatCall) -> String {
    if !call.system.contains("You screen records") {
        return script(call);
    }
    let title = call.title();
    let verdict = if title.contains("emicizumab") {
        serde_json::json!({"decision": "include", "reason": "relevant", "rationale": "Studies emicizumab in people with haemophilia A."})
    } else {
        serde_json::json!({"decision": "exclude", "reason": "wrong_intervention", "rationale": "Not a study of emicizumab."})
    };
    if title.len().is_multiple_of(3) {
        format!("Here is my verdict:\n```json\n{verdict}\n```")
    } else {
        verdict.to_string()
    }
}

/// Writes eligibility criteria to `home/criteria.txt`; returns its path as an argument.
fn criteria_file(home: &Path, text: &str) -> String {
    let path = home.join("criteria.txt");
    std::fs::write(&path, text).expect("criteria file");
    path.display().to_string()
}

#[test]
fn eligibility_criteria_are_applied_by_the_model_at_screening() {
    let Some(data) = testdata() else { return };
    let llm = ScriptedLlm::start(judging_script);
    let home = tempfile::tempdir().expect("home");
    let criteria_arg = criteria_file(
        home.path(),
        "Population: people with haemophilia A.\nIntervention: emicizumab.\nDesign: primary studies.\n",
    );
    let out = home.path().join("review");
    let output = llm_review(
        home.path(),
        &data,
        &out,
        &llm,
        &["--criteria", &criteria_arg, "--budget", "5"],
    );
    assert!(output.status.success(), "{}", describe(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("LLM screening: "), "{stderr}");

    let judged: Vec<ChatCall> = llm
        .calls()
        .into_iter()
        .filter(|call| call.system.contains("You screen records"))
        .collect();
    assert!(judged.len() >= 10, "{} works judged", judged.len());
    for call in &judged {
        assert!(
            call.user.contains("Intervention: emicizumab."),
            "criteria not sent"
        );
        assert_eq!(
            call.body["response_format"]["type"], "json_schema",
            "the verdict is asked for as schema JSON"
        );
    }

    // screening.csv: the judge's decisions with its reason codes and rationales.
    let rows = crate::support::table(&out.join("screening.csv"));
    let by_llm: Vec<_> = rows.iter().filter(|row| row["reviewer"] == "llm").collect();
    assert_eq!(by_llm.len(), judged.len(), "one decision per judged work");
    let mut included = 0;
    for row in &by_llm {
        let about = row["title"].to_lowercase().contains("emicizumab");
        match row["reason"].as_str() {
            "relevant" => {
                assert!(about, "{row:?}");
                assert_eq!(row["label_included"], "1");
                included += 1;
            }
            "wrong_intervention" => {
                assert!(!about, "{row:?}");
                assert_eq!(row["label_included"], "0");
            }
            "over_tier_limit" => assert!(about, "{row:?}"),
            other => panic!("unexpected reason {other}: {row:?}"),
        }
        assert!(row["rationale"].starts_with("criteria: "), "{row:?}");
    }
    assert!(included > 0);

    // run.json: the judge's calls are counted under `screen` and within the budget.
    let record = json(&out.join("run.json"));
    let llm_record = &record["llm"];
    assert_eq!(llm_record["prompts"][2], "screen_judge.v1");
    assert_eq!(llm_record["phases"][2]["phase"], "screen");
    assert_eq!(llm_record["phases"][2]["calls"], judged.len() as u64);
    assert_eq!(llm_record["screening"]["judged"], judged.len() as u64);
    assert_eq!(
        llm_record["total"]["calls"],
        llm.calls().len() as u64,
        "the total counts planning, snowballing, the judge and the writer"
    );
    check_estimate(&record);

    // The method says what the model judged.
    let review = std::fs::read_to_string(out.join("review.md")).expect("review.md");
    let method = review
        .split("# Method")
        .nth(1)
        .and_then(|rest| rest.split("\n# ").next())
        .expect("a method section");
    assert!(
        method.contains("A language model applied the review's eligibility criteria to the ")
            && method.contains(" included and borderline works"),
        "{method}"
    );
    assert!(
        method.contains("studied an intervention or exposure the criteria exclude")
            && !method.contains("excluded by a person"),
        "the judge's exclusions are named by their reason: {method}"
    );
    let snowball_judged = llm_record["snowballing"]["judged"].as_u64().unwrap_or(0);
    assert_eq!(
        method.contains("whose score left"),
        snowball_judged > 0,
        "{snowball_judged} snowball verdicts: {method}"
    );
}

#[test]
fn the_budget_stops_the_judge_before_any_call() {
    let Some(data) = testdata() else { return };
    let llm = ScriptedLlm::start(judging_script);
    let home = tempfile::tempdir().expect("home");
    let criteria_arg = criteria_file(home.path(), "Intervention: emicizumab.\n");
    let out = home.path().join("review");
    let output = llm_review(
        home.path(),
        &data,
        &out,
        &llm,
        &["--criteria", &criteria_arg, "--budget", "0.0001"],
    );
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("LLM budget reached"), "{stderr}");
    assert_eq!(llm.requests(), 0, "a call was sent over the budget");
    assert!(!out.join("screening.csv").exists());

    // An empty criteria file is refused before anything runs.
    let criteria_arg = criteria_file(home.path(), "  \n");
    let output = llm_review(
        home.path(),
        &data,
        &out,
        &llm,
        &["--criteria", &criteria_arg],
    );
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("is empty"),
        "{}",
        describe(&output)
    );
}

#[test]
fn snowball_verdicts_are_kept_with_their_stage_through_a_kill() {
    let Some(data) = testdata() else { return };
    let llm = ScriptedLlm::start(script);
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let killed = llm_review_with(
        home.path(),
        &data,
        &out,
        &llm,
        &[],
        &[("LITREV_FAIL_AFTER", "snowball.1")],
    );
    assert!(!killed.status.success(), "{}", describe(&killed));
    let asked_before = llm
        .calls()
        .iter()
        .filter(|call| is_snowballing(call))
        .count();
    assert!(asked_before > 0, "stage 1 left no work in doubt");

    // Without the answer cache only the verdicts stored with the stage keep the model from
    // being asked about the same works again.
    std::fs::remove_dir_all(home.path().join("llm-cache")).expect("remove the LLM cache");
    let run = newest_run(home.path());
    let resumed = litrev(home.path(), &["resume", &run], &[("OPENAI_API_KEY", "")]);
    assert!(resumed.status.success(), "{}", describe(&resumed));
    let asked: Vec<String> = llm
        .calls()
        .iter()
        .filter(|call| is_snowballing(call))
        .map(|call| call.user.clone())
        .collect();
    let distinct: BTreeSet<&String> = asked.iter().collect();
    assert_eq!(distinct.len(), asked.len(), "a work was asked about twice");
    let record = json(&out.join("run.json"));
    assert_eq!(
        record["llm"]["snowballing"]["judged"],
        asked.len() as u64,
        "the verdicts of the stage before the kill are counted once"
    );
    let planned = llm.calls().iter().filter(|call| is_planning(call)).count();
    assert_eq!(
        planned, 2,
        "the brief and variants stored with the plan were asked for again"
    );
    assert_eq!(record["llm"]["planning"]["usage"]["calls"], 2);
}
