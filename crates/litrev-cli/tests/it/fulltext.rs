//! Full text end to end: a review over the eight PMC articles of the shared data (a snapshot
//! written from their JATS front matter), with their texts in a `--fulltext-dir` folder as JATS
//! or as the PDFs printed from them. Every included work gets a study card whose spans read
//! verbatim at their locators in the stored text; PRISMA counts the reports.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use litrev_fulltext::{PdfLimits, read_file};
use litrev_model::{FullText, Locator};

use crate::support::{describe, litrev, newest_run, review_of, sections, table};

const QUESTION: &str = "Epidemiology of cancer and infection in human and animal populations";

/// An OpenAlex-format snapshot of the articles in `jats_dir`, from their own front matter
/// (title, abstract, DOI, PMCID), so the works and the texts agree as they do in the wild.
fn snapshot_of(jats_dir: &Path, out: &Path) -> PathBuf {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(jats_dir)
        .expect("the JATS folder lists")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    paths.sort();
    let file = out.join("pmc.jsonl");
    let mut writer = std::fs::File::create(&file).expect("the snapshot is written");
    for (index, path) in paths.iter().enumerate() {
        let (_, text) = read_file(path, PdfLimits::default()).expect("the JATS reads");
        let id = |kind: &str| {
            text.ids
                .iter()
                .find(|(k, _)| k == kind)
                .map(|(_, value)| value.clone())
        };
        let mut inverted: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        let abstract_text = text.abstract_paragraphs.join(" ");
        for (position, word) in abstract_text.split_whitespace().enumerate() {
            inverted.entry(word.to_owned()).or_default().push(position);
        }
        let work = serde_json::json!({
            "id": format!("https://openalex.org/W9000000{index:02}"),
            "doi": id("doi").map(|doi| format!("https://doi.org/{doi}")),
            "title": text.title,
            "display_name": text.title,
            "type": "article",
            "ids": { "pmcid": id("pmc").map(|pmc| format!("https://www.ncbi.nlm.nih.gov/pmc/articles/PMC{pmc}")) },
            "authorships": [],
            "referenced_works": [],
            "cited_by_count": 1,
            "abstract_inverted_index": inverted,
        });
        writeln!(writer, "{work}").expect("a line is written");
    }
    file
}

/// Checks every span of `study_cards.json` against the text at its origin; returns how many.
fn check_spans(out: &Path, format: &str) -> usize {
    let cards: serde_json::Value = serde_json::from_slice(
        &std::fs::read(out.join("study_cards.json")).expect("study_cards.json"),
    )
    .expect("study_cards.json parses");
    let mut spans = 0;
    let works = cards["works"].as_array().expect("works");
    assert!(!works.is_empty());
    for work in works {
        assert_eq!(work["status"], format, "{work}");
        let origin = work["origin"].as_str().expect("an origin");
        let (bytes, text): (Vec<u8>, FullText) =
            read_file(Path::new(origin), PdfLimits::default()).expect("the origin reads");
        assert_eq!(
            work["sha256"].as_str(),
            Some(litrev_model::sha256_hex(&bytes).as_str()),
            "the run records which version of the text it read"
        );
        let fields = work["fields"].as_object().expect("a card");
        let not_reported = work["not_reported"]
            .as_array()
            .expect("not reported fields");
        assert_eq!(
            fields.len() + not_reported.len(),
            12,
            "every field is either filled or not reported"
        );
        for (field, field_spans) in fields {
            for span in field_spans.as_array().expect("spans") {
                let locator: Locator =
                    serde_json::from_value(span["locator"].clone()).expect("a locator");
                assert_eq!(
                    text.span(&locator),
                    span["text"].as_str(),
                    "{field} span is verbatim at its locator"
                );
                let pinpoint = span["pinpoint"].as_str().expect("a pinpoint");
                let expected = if format == "pdf" { "p. " } else { "sec. " };
                assert!(pinpoint.starts_with(expected), "{pinpoint}");
                spans += 1;
            }
        }
    }
    spans
}

/// The review quotes full-text sentences with their pinpoints (`[@key, p. 4]`), the future
/// directions among them; each quoted sentence in `evidence.json` reads as the text has it at
/// its locator; `litrev show --claim` says where in the full text a claim comes from.
fn check_quotes(home: &Path, out: &Path, format: &str) {
    let markdown = std::fs::read_to_string(out.join("review.md")).expect("review.md");
    let pinpoint = if format == "pdf" { ", p. " } else { ", sec. " };
    assert!(
        markdown.contains(pinpoint),
        "{format}: no full-text pinpoint in review.md"
    );
    let gaps = sections(&markdown)
        .into_iter()
        .find(|(heading, _)| heading == "Gaps and future directions")
        .map(|(_, body)| body)
        .expect("a gaps section");
    assert!(
        gaps.contains(pinpoint),
        "{format}: no future direction quotes a full-text limitation: {gaps}"
    );
    let claims: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("evidence.json")).expect("evidence.json"))
            .expect("evidence.json parses");
    let mut quoted = None;
    for claim in claims.as_array().expect("claims") {
        let span = &claim["span"];
        if span["field"] != "fulltext" {
            continue;
        }
        let pinpoint = span["pinpoint"].as_str().expect("a pinpoint");
        let role = span["role"].as_str().unwrap_or_default();
        assert!(
            [
                "background",
                "objective",
                "method",
                "result",
                "conclusion",
                "limitation",
                "future_work"
            ]
            .contains(&role),
            "a quoted full-text sentence has a role, and never other: {claim}"
        );
        assert!(
            claim["markdown"]
                .as_str()
                .is_some_and(|text| text.contains(pinpoint)),
            "{claim}"
        );
        quoted.get_or_insert_with(|| claim["claim"].as_u64().expect("a claim number"));
    }
    let claim = quoted.expect("a claim taken from a full text").to_string();
    let run = newest_run(home);
    let shown = litrev(home, &["show", &run, "--claim", &claim], &[]);
    assert!(shown.status.success(), "{}", describe(&shown));
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(text.contains("taken from the full text of"), "{text}");
}

/// The appendix has a characteristics table with a row per study card, and every future
/// direction drawn from the studies read in full quotes a limitation one of them states.
fn check_characteristics(out: &Path, cards: usize) {
    let markdown = std::fs::read_to_string(out.join("review.md")).expect("review.md");
    let appendix = sections(&markdown)
        .into_iter()
        .find(|(heading, _)| heading == "Appendix: characteristics of included studies")
        .map(|(_, body)| body)
        .expect("a characteristics appendix");
    let caption = "Table: Characteristics of included studies read in full";
    let table = appendix
        .split(caption)
        .nth(1)
        .expect("the characteristics table")
        .trim_start()
        .split("\n\n")
        .next()
        .unwrap_or_default();
    let rows = table.lines().filter(|line| line.starts_with("| @")).count();
    assert_eq!(rows, cards, "{table}");
    assert!(
        table.contains("| Study | Design | Population | Sample size |"),
        "{table}"
    );
    // Two of the articles name their design (a prospective cohort, a cross-sectional
    // survey): the matrix of themes by design has a column for each.
    let matrix = appendix
        .split("Table: Designs of the studies read in full, by theme")
        .nth(1)
        .expect("the matrix of themes by design");
    let header = matrix.trim_start().lines().next().unwrap_or_default();
    for design in ["cohort study", "cross-sectional study"] {
        assert!(header.contains(design), "{header}");
    }
    let study_cards: serde_json::Value = serde_json::from_slice(
        &std::fs::read(out.join("study_cards.json")).expect("study_cards.json"),
    )
    .expect("study_cards.json parses");
    let limitations: Vec<&str> = study_cards["works"]
        .as_array()
        .expect("works")
        .iter()
        .flat_map(|work| {
            work["fields"]["limitations"]
                .as_array()
                .into_iter()
                .flatten()
        })
        .filter_map(|span| span["text"].as_str())
        .collect();
    let claims: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("evidence.json")).expect("evidence.json"))
            .expect("evidence.json parses");
    let gaps: Vec<&serde_json::Value> = claims
        .as_array()
        .expect("claims")
        .iter()
        .filter(|claim| claim["section"] == "Gaps and future directions")
        .collect();
    let mut directions = 0;
    for (index, claim) in gaps.iter().enumerate() {
        let opener = claim["markdown"].as_str().unwrap_or_default();
        if claim["basis"] != "structure" || !opener.contains("read in full") {
            continue;
        }
        directions += 1;
        let quoted: Vec<&str> = gaps[index + 1..]
            .iter()
            .take_while(|claim| claim["basis"] == "span")
            .filter_map(|claim| claim["span"]["snippet"].as_str())
            .collect();
        assert!(
            quoted.iter().any(|snippet| limitations.contains(snippet)),
            "a direction without a stated limitation: {opener} {quoted:?}"
        );
    }
    if !limitations.is_empty() {
        assert!(directions > 0, "no direction from the stated limitations");
    }
}

#[test]
fn included_works_get_study_cards_from_jats_and_from_pdf() {
    let (Some(data), Some(pdfs)) = (litrev_testkit::testdata(), litrev_testkit::test_pdfs()) else {
        return;
    };
    let home = tempfile::tempdir().expect("temp dir");
    let jats_dir = data.join("pmc-jats-and-medline/pmc_oa_nxml");
    let snapshot = snapshot_of(&jats_dir, home.path());
    for (folder, format) in [(&jats_dir, "jats"), (&pdfs, "pdf")] {
        let out = home.path().join(format!("review-{format}"));
        let folder = folder.display().to_string();
        let output = review_of(
            home.path(),
            QUESTION,
            &snapshot,
            &out,
            &["--tier", "quick", "--yes", "--fulltext-dir", &folder],
            &[],
        );
        assert!(output.status.success(), "{}", describe(&output));
        let spans = check_spans(&out, format);
        assert!(spans >= 10, "{format}: only {spans} spans");
        let rows = table(&out.join("study_cards.csv"));
        assert!(rows.iter().all(|row| row["status"] == format), "{rows:?}");
        assert!(
            rows.iter()
                .any(|row| row["results"] != "not reported" && !row["results"].is_empty())
        );
        let prisma = std::fs::read_to_string(out.join("prisma.svg")).expect("prisma.svg");
        assert!(prisma.contains("Reports sought for retrieval"), "{prisma}");
        assert!(
            prisma.contains(&format!("read in full (n = {})", rows.len())),
            "{prisma}"
        );
        let record: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join("run.json")).expect("run.json"))
                .expect("run.json parses");
        assert_eq!(record["counts"]["fulltext"]["study_cards"], rows.len());
        check_quotes(home.path(), &out, format);
        check_characteristics(&out, rows.len());
    }
    // Without a folder, every included work is abstract only for want of a copy, and the run
    // still publishes.
    let out = home.path().join("review-none");
    let output = review_of(
        home.path(),
        QUESTION,
        &snapshot,
        &out,
        &["--tier", "quick", "--yes"],
        &[],
    );
    assert!(output.status.success(), "{}", describe(&output));
    let rows = table(&out.join("study_cards.csv"));
    assert!(!rows.is_empty());
    assert!(
        rows.iter()
            .all(|row| row["status"] == "abstract_only" && row["missing"] == "no_copy"),
        "{rows:?}"
    );
    // A folder that is not there stops the run with a message naming the flag, exit code 1.
    let out = home.path().join("review-missing");
    let output = review_of(
        home.path(),
        QUESTION,
        &snapshot,
        &out,
        &[
            "--tier",
            "quick",
            "--yes",
            "--fulltext-dir",
            "/no/such/folder",
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(1), "{}", describe(&output));
    assert!(
        describe(&output).contains("--fulltext-dir"),
        "{}",
        describe(&output)
    );
}

/// With `--llm`, the study cards are the model's: it sees numbered sentences and answers
/// numbers only (here a scripted model names the first sentence speaking of a cohort or a
/// cross-sectional survey as the design, and sentence 1 as a result); every span is still
/// verbatim at its locator, and `run.json` counts the calls under the `fulltext` phase.
#[test]
fn with_a_model_the_cards_hold_the_sentences_it_numbers() {
    let Some(data) = litrev_testkit::testdata() else {
        return;
    };
    let script = |call: &litrev_testkit::llm::ChatCall| -> String {
        if !call.system.contains("study card") {
            return crate::llm::script(call);
        }
        let design: Vec<usize> = call
            .user
            .lines()
            .filter(|line| line.contains("cohort") || line.contains("cross-sectional"))
            .filter_map(|line| line.strip_prefix('[')?.split(']').next()?.parse().ok())
            .take(1)
            .collect();
        let mut answer = serde_json::Map::new();
        for field in litrev_model::CardField::ALL {
            answer.insert(field.name().to_owned(), serde_json::json!([]));
        }
        answer.insert("design".into(), serde_json::json!(design));
        answer.insert("results".into(), serde_json::json!([1]));
        serde_json::Value::Object(answer).to_string()
    };
    let llm = litrev_testkit::llm::ScriptedLlm::start(script);
    let home = tempfile::tempdir().expect("temp dir");
    let jats_dir = data.join("pmc-jats-and-medline/pmc_oa_nxml");
    let snapshot = snapshot_of(&jats_dir, home.path());
    let out = home.path().join("review-llm");
    let folder = jats_dir.display().to_string();
    let llm_args = crate::support::scripted_llm_args(&llm);
    let mut args = vec![
        "--tier",
        "quick",
        "--yes",
        "--fulltext-dir",
        &folder,
        "--llm-price",
        "1,2",
    ];
    args.extend(llm_args.iter().map(String::as_str));
    let output = review_of(
        home.path(),
        QUESTION,
        &snapshot,
        &out,
        &args,
        &[("OPENAI_API_KEY", "")],
    );
    assert!(output.status.success(), "{}", describe(&output));
    let cards_asked = llm
        .calls()
        .iter()
        .filter(|call| call.system.contains("study card"))
        .count();
    let spans = check_spans(&out, "jats");
    let rows = table(&out.join("study_cards.csv"));
    assert_eq!(cards_asked, rows.len(), "one call per paper read");
    assert!(
        spans >= rows.len(),
        "every card has its first sentence as a result"
    );
    for row in &rows {
        for field in litrev_model::CardField::ALL {
            if !matches!(
                field,
                litrev_model::CardField::Design | litrev_model::CardField::Results
            ) {
                assert_eq!(row[field.name()], "not reported", "{row:?}");
            }
        }
    }
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("run.json")).expect("run.json"))
            .expect("run.json parses");
    let fulltext = &record["llm"]["fulltext"];
    assert_eq!(fulltext["prompt"], "study_card.v1", "{fulltext}");
    assert_eq!(fulltext["filled"], rows.len(), "{fulltext}");
    assert!(
        record["llm"]["phases"]
            .as_array()
            .expect("phases")
            .iter()
            .any(|phase| phase["phase"] == "fulltext"),
        "{}",
        record["llm"]
    );
}
