//! `litrev review --library FILE` with the exports of reference managers other than Zotero's
//! database: BibTeX and CSL-JSON, here the ones a first review wrote, joined to a second.

use serde_json::Value;

use crate::support::{describe, review_of, testdata, works_file};

/// A first review's `references.bib` and `references.json` are a second review's libraries:
/// three works they cite, left out of the second review's snapshot, join its corpus as the
/// library's records, and the review names both files as other sources; `--seeds-from` the
/// same file makes its works the plan's seeds.
#[test]
fn bibtex_and_csl_json_libraries_join_the_corpus() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let question = crate::support::question(&data, "Donners_2021");
    let snapshot = works_file(&data, "Donners_2021");
    let first = home.path().join("first");
    let output = review_of(home.path(), &question, &snapshot, &first, &["--yes"], &[]);
    assert!(output.status.success(), "{}", describe(&output));

    let references: Vec<Value> = serde_json::from_str(
        &std::fs::read_to_string(first.join("references.json")).expect("references.json"),
    )
    .expect("CSL-JSON");
    let dois: Vec<String> = references
        .iter()
        .filter_map(|item| item["DOI"].as_str())
        .map(str::to_lowercase)
        .take(3)
        .collect();
    assert_eq!(dois.len(), 3);
    // The second review's snapshot lacks them.
    let records: Vec<Value> = std::io::BufRead::lines(std::io::BufReader::new(
        flate2::read::GzDecoder::new(std::fs::File::open(&snapshot).expect("works")),
    ))
    .map(|line| serde_json::from_str::<Value>(&line.expect("line")).expect("record"))
    .collect();
    let doi_of = |record: &Value| {
        record["doi"]
            .as_str()
            .map(|doi| doi.trim_start_matches("https://doi.org/").to_lowercase())
    };
    let lines: Vec<String> = records
        .iter()
        .filter(|record| doi_of(record).is_none_or(|doi| !dois.contains(&doi)))
        .map(Value::to_string)
        .collect();
    assert_eq!(lines.len(), records.len() - 3);
    let reduced = home.path().join("without-three.jsonl");
    std::fs::write(&reduced, lines.join("\n")).expect("snapshot");

    // Under names that say nothing of their format: litrev reads their content.
    let bib = home.path().join("mine.txt");
    std::fs::copy(first.join("references.bib"), &bib).expect("copy");
    let json = home.path().join("mine.data");
    std::fs::copy(first.join("references.json"), &json).expect("copy");
    let second = home.path().join("second");
    let output = review_of(
        home.path(),
        &question,
        &reduced,
        &second,
        &[
            "--library",
            &bib.display().to_string(),
            "--library",
            &json.display().to_string(),
            "--yes",
        ],
        &[],
    );
    assert!(output.status.success(), "{}", describe(&output));
    let corpus = crate::support::table(&second.join("corpus.csv"));
    for doi in &dois {
        let row = corpus
            .iter()
            .find(|row| row["doi"].to_lowercase() == *doi)
            .unwrap_or_else(|| panic!("{doi} in the corpus"));
        assert_eq!(row["origin"], "library", "{row:?}");
        assert!(!row["decision"].is_empty(), "{row:?}");
    }
    let markdown = std::fs::read_to_string(second.join("review.md")).expect("review.md");
    assert!(
        markdown.contains("mine.txt") && markdown.contains("mine.data"),
        "{markdown}"
    );

    // The same export as the works to start from: the plan's seeds are its DOIs.
    let source = format!("snapshot:{}", reduced.display());
    let output = crate::support::litrev(
        home.path(),
        &[
            "plan",
            &question,
            "--source",
            &source,
            "--seeds-from",
            &bib.display().to_string(),
            "--out",
            "-",
        ],
        &[],
    );
    assert!(output.status.success(), "{}", describe(&output));
    let plan: toml::Value = toml::from_str(&String::from_utf8_lossy(&output.stdout)).expect("TOML");
    let seeds: Vec<&str> = plan["seeds"]
        .as_array()
        .expect("seeds")
        .iter()
        .filter_map(toml::Value::as_str)
        .collect();
    assert_eq!(seeds.len(), references.len(), "{seeds:?}");
    assert!(
        dois.iter().all(|doi| seeds.contains(&doi.as_str())),
        "{seeds:?}"
    );
}

/// A library export as the whole corpus (`--source snapshot:scopus.csv`), offline: a review
/// of a real Scopus export (litstudy's) cites only works of the export, and says how many of
/// its records carry no id and were left out.
#[test]
fn a_library_export_is_the_corpus_of_a_review() {
    let Some(data) = testdata() else { return };
    let export = data.join("import-exports/litstudy/scopus.csv");
    let text = std::fs::read_to_string(&export).expect("scopus.csv");
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let output = review_of(
        home.path(),
        "Petri nets and dynamic models of biological signalling pathways",
        &export,
        &out,
        &["--yes", "--tier", "quick"],
        &[],
    );
    assert!(output.status.success(), "{}", describe(&output));
    let said = String::from_utf8_lossy(&output.stderr).to_string()
        + &String::from_utf8_lossy(&output.stdout);
    assert!(
        said.contains("14 of its 58 table records have no DOI"),
        "{said}"
    );
    let references: Vec<Value> = serde_json::from_str(
        &std::fs::read_to_string(out.join("references.json")).expect("references.json"),
    )
    .expect("CSL-JSON");
    assert!(references.len() >= 10, "{}", references.len());
    let lower = text.to_lowercase();
    for item in &references {
        let doi = item["DOI"].as_str().expect("every reference has its DOI");
        assert!(
            lower.contains(&doi.to_lowercase()),
            "{doi} is not in the export"
        );
    }
}
