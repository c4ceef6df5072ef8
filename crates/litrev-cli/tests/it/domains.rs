//! A question joining two unrelated fields is split into domains, each searched side by side,
//! and the review shows both; each pool's included studies are found about as well as its own
//! question alone finds them.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use crate::support::{
    describe, included_studies, litrev, newest_run, review, snapshot_source, table, testdata,
};

/// The two review papers' titles joined: Donners_2021 (emicizumab, Medicine) and Sep_2021 (the
/// rodent object-in-context task, Psychology), without the words naming the review type.
const JOINED: &str = "Pharmacokinetics and associated efficacy of emicizumab in humans, and the rodent object-in-context task: important variables";

/// How many of a dataset's included studies a run included.
fn recall(data: &Path, dataset: &str, out: &Path) -> f64 {
    let included: BTreeSet<String> = table(&out.join("screening.csv"))
        .into_iter()
        .filter(|row| row["decision"] == "include")
        .map(|row| row["openalex_id"].clone())
        .collect();
    let wanted = included_studies(data, dataset);
    let found = wanted.iter().filter(|id| included.contains(*id)).count();
    found as f64 / wanted.len() as f64
}

#[test]
fn a_question_joining_two_fields_is_searched_as_two_domains_and_the_review_shows_both() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("joined");
    let out_text = out.display().to_string();
    let sources: Vec<String> = ["Donners_2021", "Sep_2021"]
        .iter()
        .map(|dataset| snapshot_source(&data, dataset))
        .collect();
    let asked = litrev(
        home.path(),
        &[
            "review",
            JOINED,
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
    assert_eq!(asked.status.code(), Some(3), "{}", describe(&asked));
    let stdout = String::from_utf8_lossy(&asked.stdout);
    assert!(stdout.contains("Search both, side by side"), "{stdout}");
    let run = newest_run(home.path());
    let resumed = litrev(home.path(), &["resume", &run], &[]);
    assert!(resumed.status.success(), "{}", describe(&resumed));

    // The plan: two domains, each with its own searches, run as the brief settled them.
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).expect("run.json"))
            .expect("JSON");
    let plan = &record["plan"];
    let domains: Vec<&str> = plan["brief"]["domains"]
        .as_array()
        .expect("domains in the brief")
        .iter()
        .map(|domain| domain["name"].as_str().expect("name"))
        .collect();
    assert_eq!(domains, ["Psychology", "Medicine"], "{}", plan["brief"]);
    for domain in &domains {
        let searches = plan["queries"]
            .as_array()
            .expect("queries")
            .iter()
            .filter(|query| query["domain"] == *domain)
            .count();
        assert_eq!(
            searches, 4,
            "{domain}: terms, phrases, seminal and recent works"
        );
    }

    // Each domain found works, and both are among the included works.
    let corpus = table(&out.join("corpus.csv"));
    for domain in &domains {
        let included = corpus
            .iter()
            .filter(|row| row["domain"] == *domain && row["decision"] == "include")
            .count();
        assert!(included >= 10, "{domain}: {included} included works");
    }

    // The review shows both: its introduction names them and its themes are headed by them.
    let markdown = std::fs::read_to_string(out.join("review.md")).expect("review.md");
    assert!(
        markdown.contains("The question joins two domains"),
        "{markdown}"
    );
    for domain in &domains {
        assert!(
            markdown.contains(&format!("\n# {domain}: ")),
            "no theme of {domain} in:\n{markdown}"
        );
    }

    // The synthesis plan maps the domains to the review's parts: run.json records it, and the
    // foundations and methods sections have a paragraph per domain.
    let synthesis: Vec<(&str, Vec<&str>)> = plan["synthesis"]
        .as_array()
        .expect("the synthesis plan in run.json")
        .iter()
        .map(|section| {
            let domains = section["domains"]
                .as_array()
                .expect("domains")
                .iter()
                .filter_map(Value::as_str)
                .collect();
            (section["part"].as_str().expect("part"), domains)
        })
        .collect();
    assert_eq!(
        synthesis,
        [
            ("foundations", domains.clone()),
            ("methods", domains.clone()),
            ("findings", domains.clone()),
            ("gaps", domains.clone()),
        ]
    );
    for heading in ["Theoretical foundations", "Methodological approaches"] {
        let start = markdown
            .find(&format!("\n# {heading}\n"))
            .unwrap_or_else(|| panic!("no {heading} section in:\n{markdown}"));
        let body = &markdown[start + heading.len() + 4..];
        let body = &body[..body.find("\n# ").unwrap_or(body.len())];
        for domain in &domains {
            assert!(
                body.contains(&format!("{domain}'s ")),
                "{heading} says nothing of {domain}:\n{body}"
            );
        }
        assert!(body.contains("[@"), "{heading} cites no work:\n{body}");
    }
    let foundations = markdown.find("\n# Theoretical foundations\n");
    let first_theme = markdown.find(&format!("\n# {}: ", domains[0]));
    assert!(
        foundations < first_theme,
        "the foundations come before the findings"
    );

    // Each pool's recall is at least 80 % of what its own question alone reaches.
    for dataset in ["Donners_2021", "Sep_2021"] {
        let alone = home.path().join(dataset);
        let own = review(home.path(), &data, dataset, &alone, &["--yes"]);
        assert!(own.status.success(), "{}", describe(&own));
        let (joined, own) = (recall(&data, dataset, &out), recall(&data, dataset, &alone));
        assert!(
            joined >= 0.8 * own,
            "{dataset}: recall {joined:.3} in the joined review, {own:.3} alone"
        );
    }
}

/// Two reviews' titles joined (Jeyaraman_2020, stem cells for knee osteoarthritis, and Sep_2021,
/// the rodent object-in-context task) whose probe the disciplines do not separate: the
/// question's own terms do. `litrev plan` writes two topics named by their terms, each with its
/// four searches, and the question of whether to search them apart.
#[test]
fn a_question_joining_two_topics_of_unseparated_fields_is_split_by_its_terms() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let plan_path = home.path().join("plan.toml");
    let plan_text = plan_path.display().to_string();
    let sources: Vec<String> = ["Jeyaraman_2020", "Sep_2021"]
        .iter()
        .map(|dataset| snapshot_source(&data, dataset))
        .collect();
    let question = "Does the Source of Mesenchymal Stem Cell Have an Effect in the Management of Osteoarthritis of the Knee? Meta-Analysis of Randomized Controlled Trials, and the rodent object-in-context task";
    let output = litrev(
        home.path(),
        &[
            "plan",
            question,
            "--source",
            &sources[0],
            "--source",
            &sources[1],
            "--yes",
            "--out",
            &plan_text,
        ],
        &[],
    );
    assert!(output.status.success(), "{}", describe(&output));
    let text = std::fs::read_to_string(&plan_path).expect("plan written");
    let plan: toml::Table = toml::from_str(&text).expect("the plan is TOML");
    let domains: Vec<(String, Vec<String>)> = plan["brief"]["domains"]
        .as_array()
        .expect("domains in the brief")
        .iter()
        .map(|domain| {
            let terms = domain["key_terms"]
                .as_array()
                .expect("terms")
                .iter()
                .filter_map(|term| term.as_str().map(str::to_owned))
                .collect();
            (domain["name"].as_str().expect("name").to_owned(), terms)
        })
        .collect();
    assert_eq!(domains.len(), 2, "{text}");
    let stem_cells = &domains[0];
    let rodents = &domains[1];
    assert!(
        stem_cells.1.iter().any(|term| term == "osteoarthritis")
            && !stem_cells.1.iter().any(|term| term == "rodent"),
        "{stem_cells:?}"
    );
    assert!(
        rodents.1.iter().any(|term| term == "rodent")
            && !rodents.1.iter().any(|term| term == "osteoarthritis"),
        "{rodents:?}"
    );
    for (name, _) in &domains {
        let searches = plan["queries"]
            .as_array()
            .expect("queries")
            .iter()
            .filter(|query| query.get("domain").and_then(toml::Value::as_str) == Some(name))
            .count();
        assert_eq!(searches, 4, "{name}: {text}");
    }
    let asked = plan["brief"]["clarifications"]
        .as_array()
        .expect("clarifications");
    assert_eq!(asked[0]["about"].as_str(), Some("topics"), "{text}");
    assert_eq!(
        asked[0]["options"].as_array().map(|options| options
            .iter()
            .filter_map(toml::Value::as_str)
            .collect::<Vec<_>>()),
        Some(vec!["side by side", "as one"])
    );
}
