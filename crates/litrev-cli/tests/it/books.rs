//! `--source openlibrary`: the plan's book searches go to Open Library too (a stand-in serving
//! real recorded answers), its books join the pool found by the book channel, known by their
//! ISBN, and PRISMA counts them with the book searches.

use litrev_testkit::http::FaultPlan;
use litrev_testkit::openlibrary::openlibrary_server;
use serde_json::Value;

use crate::support::{describe, litrev, question, snapshot_source, table, testdata};

#[test]
fn book_searches_reach_open_library_and_its_books_join_the_pool_by_isbn() {
    let Some(data) = testdata() else { return };
    let Some(answers) = litrev_testkit::openlibrary_answers() else {
        return;
    };
    let server = openlibrary_server(&answers, FaultPlan::none());
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let out_text = out.display().to_string();
    let plan_path = format!("{out_text}.toml");
    let sources = format!("openlibrary,{}", snapshot_source(&data, "Donners_2021"));
    let url = server.url();
    let env = [("LITREV_OPENLIBRARY_URL", url.as_str())];

    let planned = litrev(
        home.path(),
        &[
            "plan",
            &question(&data, "Donners_2021"),
            "--source",
            &sources,
            "--tier",
            "standard",
            "--out",
            &plan_path,
        ],
        &env,
    );
    assert!(planned.status.success(), "{}", describe(&planned));
    assert_eq!(server.requests(), 0, "the probe asks no book search");
    let plan_text = std::fs::read_to_string(&plan_path).expect("plan.toml");
    let mut plan: toml::Value = toml::from_str(&plan_text).expect("the plan is TOML");
    let open_library = plan["estimate"]["sources"]
        .as_array()
        .expect("sources estimated")
        .iter()
        .find(|source| source["source"].as_str() == Some("openlibrary"))
        .expect("Open Library estimated")
        .clone();
    // The recorded works are J. K. Rowling's: the book search is edited to find them, as a
    // user edits a plan.
    let queries = plan["queries"].as_array_mut().expect("queries");
    let books: Vec<&mut toml::Value> = queries
        .iter_mut()
        .filter(|query| query.get("channel").and_then(toml::Value::as_str) == Some("book"))
        .collect();
    assert_eq!(books.len(), 1, "{plan_text}");
    assert_eq!(
        open_library["requests"].as_integer(),
        Some(1),
        "one page per book search, nothing for the keyword searches: {plan_text}"
    );
    for book in books {
        book["text"] = toml::Value::String("harry potter".to_owned());
    }
    std::fs::write(&plan_path, toml::to_string(&plan).expect("TOML")).expect("edited");

    let output = litrev(
        home.path(),
        &[
            "review", "--plan", &plan_path, "--source", &sources, "--out", &out_text, "--yes",
        ],
        &env,
    );
    assert!(output.status.success(), "{}", describe(&output));
    let log = server.request_log();
    let searches: Vec<&String> = log
        .iter()
        .filter(|line| line.contains("/search.json"))
        .collect();
    assert_eq!(searches.len(), 1, "{log:#?}");
    assert!(searches[0].contains("q=harry+OR+potter&"), "{log:#?}");

    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).expect("run.json"))
            .expect("run.json parses");
    let book_hits: u64 = record["counts"]["discover"]["queries"]
        .as_array()
        .expect("queries")
        .iter()
        .filter(|query| query["channel"] == "book")
        .map(|query| query["hits"].as_u64().expect("hits"))
        .sum();
    assert!(book_hits > 0, "{record:#}");
    let prisma = std::fs::read_to_string(out.join("prisma.svg")).expect("prisma.svg");
    assert!(
        prisma.contains(&format!("book searches (n = {book_hits})")),
        "{prisma}"
    );

    // The books are in the corpus once each, found by the book channel, known by their ISBN
    // where Open Library gives one, and screened like any record.
    let corpus = table(&out.join("corpus.csv"));
    let books: Vec<_> = corpus
        .iter()
        .filter(|row| row["url"].starts_with("https://openlibrary.org/works/"))
        .collect();
    assert!(!books.is_empty(), "{corpus:?}");
    assert!(
        books
            .iter()
            .all(|row| row["channels"].contains("book") && !row["decision"].is_empty()),
        "{books:?}"
    );
    let chamber: Vec<_> = books
        .iter()
        .filter(|row| row["title"] == "Harry Potter and the Chamber of Secrets")
        .collect();
    assert_eq!(
        chamber.len(),
        1,
        "two works of one title and ISBN are one: {books:?}"
    );
    assert_eq!(chamber[0]["isbn"], "9780439064873", "{:?}", chamber[0]);
    assert_eq!(chamber[0]["first_author"], "J. K. Rowling");
}
