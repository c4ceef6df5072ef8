//! `litrev export RUN --zotero`: a done review's references written to a Zotero library (a
//! local stand-in following the Web API v3, `litrev_testkit::zotero`) and read back by
//! pyzotero, an independent client.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use litrev_testkit::http::{FaultPlan, Server};
use litrev_testkit::zotero::{ZoteroFaults, ZoteroServer};
use serde_json::Value;

use crate::support::{cited_keys, describe, litrev, newest_run, review, testdata};

const LIBRARY: &str = "users/475425";
const KEY: &str = "k3yWithWriteAccess";

/// The Python of the venv the test script puts pyzotero in, if it can import it; else says so
/// (and fails under CI).
fn pyzotero_python() -> Option<PathBuf> {
    let python = std::env::var_os("LITREV_PYZOTERO_PYTHON").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/pyzotero-venv/bin/python"),
        PathBuf::from,
    );
    litrev_testkit::python_modules_available_in(&python, &["pyzotero"]).then_some(python)
}

fn export(home: &Path, run: &str, url: &str, key: &str) -> std::process::Output {
    litrev(
        home,
        &[
            "export",
            run,
            "--zotero",
            "--collection",
            "Emicizumab review",
            "--json",
        ],
        &[
            ("LITREV_ZOTERO_URL", url),
            ("LITREV_ZOTERO_LIBRARY", LIBRARY),
            ("LITREV_ZOTERO_KEY", key),
            ("LITREV_HTTP_BACKOFF_MS", "10"),
        ],
    )
}

/// One item per reference, each marked, typed and filed in the collection; a second export
/// creates nothing; a 429 and a change by someone else in between cost nothing; pyzotero reads
/// back title, authors, year, DOI and type of every reference; a key that may not write gets
/// a message saying what to do.
#[test]
fn a_review_exported_to_zotero_makes_one_item_per_reference_once() {
    let Some(data) = testdata() else { return };
    let Some(python) = pyzotero_python() else {
        return;
    };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let output = review(home.path(), &data, "Donners_2021", &out, &["--yes"]);
    assert!(output.status.success(), "{}", describe(&output));
    let run = newest_run(home.path());
    let references: Vec<Value> = serde_json::from_slice(
        &std::fs::read(out.join("references.json")).expect("references.json"),
    )
    .expect("CSL-JSON");
    assert!(references.len() > 10);

    let library = Arc::new(ZoteroServer::new(
        LIBRARY,
        KEY,
        ZoteroFaults {
            rate_limit_first_write: true,
            concurrent_change: true,
        },
    ));
    let answering = Arc::clone(&library);
    let server = Server::start(move |request| answering.answer(request), FaultPlan::none());

    let first = export(home.path(), &run, &server.url(), KEY);
    assert!(first.status.success(), "{}", describe(&first));
    let written: Value = serde_json::from_slice(&first.stdout).expect("JSON");
    assert_eq!(
        written["created"].as_u64(),
        Some(references.len() as u64),
        "{written}"
    );
    assert_eq!(written["already"].as_u64(), Some(0), "{written}");
    assert_eq!(library.items().len(), references.len());
    let log = server.request_log();
    let writes = log.iter().filter(|line| line.starts_with("POST ")).count();
    // The collection, the 429 sent again, then the items in batches of 50, one refused for
    // the library's change and sent again.
    assert_eq!(writes, 2 + references.len().div_ceil(50) + 1, "{log:#?}");

    let again = export(home.path(), &run, &server.url(), KEY);
    assert!(again.status.success(), "{}", describe(&again));
    let written: Value = serde_json::from_slice(&again.stdout).expect("JSON");
    assert_eq!(written["created"].as_u64(), Some(0), "{written}");
    assert_eq!(written["already"].as_u64(), Some(references.len() as u64));
    assert_eq!(
        library.items().len(),
        references.len(),
        "nothing created twice"
    );

    // The review cited with Zotero's item keys: every citation is an item of the library.
    let zotero_out = home.path().join("with-zotero-keys");
    let out_text = zotero_out.display().to_string();
    let url = server.url();
    let rekeyed = litrev(
        home.path(),
        &[
            "export",
            &run,
            "--out",
            &out_text,
            "--zotero",
            "--collection",
            "Emicizumab review",
            "--cite-keys",
            "zotero",
        ],
        &[
            ("LITREV_ZOTERO_URL", url.as_str()),
            ("LITREV_ZOTERO_LIBRARY", LIBRARY),
            ("LITREV_ZOTERO_KEY", KEY),
        ],
    );
    assert!(rekeyed.status.success(), "{}", describe(&rekeyed));
    let item_keys: std::collections::BTreeSet<String> = library
        .items()
        .iter()
        .filter_map(|item| item["key"].as_str().map(str::to_owned))
        .collect();
    let markdown = std::fs::read_to_string(zotero_out.join("review.md")).expect("review.md");
    let cited: std::collections::BTreeSet<String> = cited_keys(&markdown).into_iter().collect();
    assert_eq!(
        cited.len(),
        references.len(),
        "every reference cited under its own key"
    );
    assert!(cited.is_subset(&item_keys), "{cited:?}");
    let rekeyed_json: Vec<Value> = serde_json::from_slice(
        &std::fs::read(zotero_out.join("references.json")).expect("references.json"),
    )
    .expect("CSL-JSON");
    let ids: std::collections::BTreeSet<String> = rekeyed_json
        .iter()
        .filter_map(|item| item["id"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(ids, cited);
    let bib = std::fs::read_to_string(zotero_out.join("references.bib")).expect("bib");
    let bibliography = biblatex::Bibliography::parse(&bib).expect("the BibTeX parses");
    let bib_keys: std::collections::BTreeSet<String> =
        bibliography.iter().map(|entry| entry.key.clone()).collect();
    assert_eq!(bib_keys, cited);
    assert_eq!(
        library.items().len(),
        references.len(),
        "the third export created nothing"
    );

    let read = std::process::Command::new(&python)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/zotero_read_back.py"))
        .args([&server.url(), "user", "475425", KEY, "Emicizumab review"])
        .output()
        .expect("python runs");
    assert!(
        read.status.success(),
        "pyzotero: {}",
        String::from_utf8_lossy(&read.stderr)
    );
    let read: Value = serde_json::from_slice(&read.stdout).expect("pyzotero's JSON");
    let items = read["items"].as_array().expect("items");
    assert_eq!(items.len(), references.len());
    for reference in &references {
        let key = reference["id"].as_str().expect("id");
        let item = items
            .iter()
            .find(|item| {
                item["extra"]
                    .as_str()
                    .is_some_and(|extra| extra.contains(&format!("Citation Key: {key}")))
            })
            .unwrap_or_else(|| panic!("no item for {key}"));
        assert_eq!(item["title"], reference["title"], "{key}");
        let families: Vec<&str> = reference["author"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|name| name["family"].as_str().or(name["literal"].as_str()))
            .collect();
        let read_families: Vec<&str> = item["creators"]
            .as_array()
            .expect("creators")
            .iter()
            .filter_map(|creator| creator["lastName"].as_str().or(creator["name"].as_str()))
            .collect();
        assert_eq!(read_families, families, "{key}");
        let year = reference["issued"]["date-parts"][0][0].as_i64();
        assert_eq!(
            item["date"]
                .as_str()
                .and_then(|date| date.get(..4)?.parse::<i64>().ok()),
            year,
            "{key}"
        );
        let doi = reference["DOI"].as_str();
        let read_doi = item["DOI"].as_str().or_else(|| {
            item["extra"]
                .as_str()?
                .lines()
                .find_map(|line| line.strip_prefix("DOI: "))
        });
        assert_eq!(read_doi, doi, "{key}");
        let expected_type = match reference["type"].as_str() {
            Some("article-journal") => "journalArticle",
            Some("book") => "book",
            Some("chapter") => "bookSection",
            Some("paper-conference") => "conferencePaper",
            Some("report") => "report",
            other => panic!("{key}: a CSL type the test does not map: {other:?}"),
        };
        assert_eq!(item["itemType"], expected_type, "{key}");
        assert!(
            item["tags"]
                .as_array()
                .is_some_and(|tags| tags.contains(&Value::from("litrev")))
        );
    }

    let refused = export(home.path(), &run, &server.url(), "a-read-only-key");
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("LITREV_ZOTERO_KEY") && stderr.contains("write access"),
        "{stderr}"
    );
    let unset = litrev(home.path(), &["export", &run, "--zotero"], &[]);
    assert!(!unset.status.success());
    assert!(String::from_utf8_lossy(&unset.stderr).contains("LITREV_ZOTERO_LIBRARY"));
}

/// The studies a researcher keeps in a Zotero collection become their labels at the gate:
/// the SYNERGY review's included records, put in a collection (half of them without their DOI,
/// so they are matched by title), are all included after the import, and the run goes on.
#[test]
fn a_zotero_collection_includes_the_works_it_holds_at_the_gate() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let gate = review(home.path(), &data, "Donners_2021", &out, &[]);
    assert_eq!(gate.status.code(), Some(3), "{}", describe(&gate));
    let run = newest_run(home.path());

    // The review's own included studies, by their records in the works file.
    let included = crate::support::included_studies(&data, "Donners_2021");
    let works = std::io::BufReader::new(flate2::read::GzDecoder::new(
        std::fs::File::open(crate::support::works_file(&data, "Donners_2021")).expect("works"),
    ));
    let records: Vec<Value> = std::io::BufRead::lines(works)
        .map(|line| serde_json::from_str(&line.expect("line")).expect("record"))
        .filter(|record: &Value| included.iter().any(|id| record["id"] == id.as_str()))
        .collect();
    assert_eq!(records.len(), included.len());
    let items: Vec<Value> = records
        .iter()
        .enumerate()
        .map(|(at, record)| {
            let mut item =
                serde_json::json!({"itemType": "journalArticle", "title": record["title"]});
            if at % 2 == 0
                && let Some(doi) = record["doi"].as_str()
            {
                item["DOI"] = Value::from(doi.trim_start_matches("https://doi.org/"));
            }
            item
        })
        .collect();
    let library = Arc::new(ZoteroServer::new(LIBRARY, KEY, ZoteroFaults::default()));
    library.seed("Known studies", items);
    library.seed(
        "Something else",
        vec![serde_json::json!({"itemType": "book", "title": "Unrelated"})],
    );
    let answering = Arc::clone(&library);
    let server = Server::start(move |request| answering.answer(request), FaultPlan::none());
    let url = server.url();
    let env = [
        ("LITREV_ZOTERO_URL", url.as_str()),
        ("LITREV_ZOTERO_LIBRARY", LIBRARY),
        ("LITREV_ZOTERO_KEY", KEY),
    ];

    let missing = litrev(
        home.path(),
        &["screen", &run, "--import-zotero", "--collection", "Nope"],
        &env,
    );
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no collection named `Nope`"));

    let import = litrev(
        home.path(),
        &[
            "screen",
            &run,
            "--import-zotero",
            "--collection",
            "Known studies",
        ],
        &env,
    );
    assert!(import.status.success(), "{}", describe(&import));
    let said = String::from_utf8_lossy(&import.stdout);
    let count = |after: &str| -> usize {
        let end = said
            .find(after)
            .unwrap_or_else(|| panic!("{after} in {said}"));
        said[..end]
            .rsplit([' ', ':'])
            .find(|word| !word.is_empty())
            .and_then(|n| n.parse().ok())
            .expect("a count")
    };
    let (changed, unchanged, unknown) = (
        count(" works included by you"),
        count(" included already"),
        count(" references not in this run"),
    );
    assert_eq!(changed + unchanged + unknown, included.len(), "{said}");
    assert!(changed > 0, "the import changed nothing: {said}");

    let resumed = litrev(home.path(), &["resume", &run], &[]);
    assert!(resumed.status.success(), "{}", describe(&resumed));
    let rows = crate::support::table(&out.join("screening.csv"));
    let held: Vec<&std::collections::BTreeMap<String, String>> = rows
        .iter()
        .filter(|row| included.iter().any(|id| row.get("openalex_id") == Some(id)))
        .collect();
    assert_eq!(
        held.len(),
        changed + unchanged,
        "every matched study is in the table"
    );
    for row in held {
        assert_eq!(
            row.get("decision").map(String::as_str),
            Some("include"),
            "{row:?}"
        );
    }
}

/// A copy of a real Zotero 6 database (papis-zotero's test library) holding, besides its own
/// five articles, `studies` as journal articles (title, and DOI when given) in a collection
/// named `collection`: what a researcher's own library looks like to `--zotero-sqlite`.
fn local_library_with(
    folder: &Path,
    collection: &str,
    studies: &[(String, Option<String>)],
) -> Option<PathBuf> {
    let real = litrev_testkit::zotero_library()?;
    let database = folder.join("zotero.sqlite");
    std::fs::copy(real.join("zotero.sqlite"), &database).expect("copy the library");
    let zotero = rusqlite::Connection::open(&database).expect("open the copy");
    zotero
        .execute(
            "INSERT INTO collections (collectionName, libraryID, key) VALUES (?1, 1, 'LITREVC1')",
            [collection],
        )
        .expect("collection");
    let collection_id = zotero.last_insert_rowid();
    for (at, (title, doi)) in studies.iter().enumerate() {
        let mut fields = vec![("title", title.as_str())];
        if let Some(doi) = doi {
            fields.push(("DOI", doi.as_str()));
        }
        let item = add_item(&zotero, &format!("LR{at:06}"), "journalArticle", &fields);
        zotero
            .execute(
                "INSERT INTO collectionItems (collectionID, itemID, orderIndex) VALUES (?1, ?2, ?3)",
                [collection_id, item, at as i64],
            )
            .expect("collection item");
    }
    Some(database)
}

/// The studies a researcher keeps in a collection of their local Zotero library become their
/// labels at the gate: the library's own `zotero.sqlite`, read through a copy, with the SYNERGY
/// review's included studies (half without their DOI, so matched by title) in a collection.
#[test]
fn a_local_zotero_library_includes_the_works_its_collection_holds_at_the_gate() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let out = home.path().join("review");
    let included = crate::support::included_studies(&data, "Donners_2021");
    let works = std::io::BufReader::new(flate2::read::GzDecoder::new(
        std::fs::File::open(crate::support::works_file(&data, "Donners_2021")).expect("works"),
    ));
    let studies: Vec<(String, Option<String>)> = std::io::BufRead::lines(works)
        .map(|line| serde_json::from_str::<Value>(&line.expect("line")).expect("record"))
        .filter(|record| included.iter().any(|id| record["id"] == id.as_str()))
        .enumerate()
        .map(|(at, record)| {
            let doi = record["doi"]
                .as_str()
                .filter(|_| at % 2 == 0)
                .map(|doi| doi.trim_start_matches("https://doi.org/").to_owned());
            (record["title"].as_str().unwrap_or_default().to_owned(), doi)
        })
        .collect();
    let Some(database) = local_library_with(home.path(), "Known studies", &studies) else {
        return;
    };
    let gate = review(home.path(), &data, "Donners_2021", &out, &[]);
    assert_eq!(gate.status.code(), Some(3), "{}", describe(&gate));
    let run = newest_run(home.path());
    let database_text = database.display().to_string();

    let not_zotero = home.path().join("notes.sqlite");
    std::fs::write(&not_zotero, "plain text").expect("write");
    let refused = litrev(
        home.path(),
        &[
            "screen",
            &run,
            "--import-zotero",
            "--zotero-sqlite",
            &not_zotero.display().to_string(),
        ],
        &[],
    );
    assert_eq!(refused.status.code(), Some(1), "{}", describe(&refused));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("Zotero database"),
        "{}",
        describe(&refused)
    );

    // The whole library: the review's studies and the five articles of mathematics it had.
    let whole = litrev(
        home.path(),
        &[
            "screen",
            &run,
            "--import-zotero",
            "--zotero-sqlite",
            &database_text,
        ],
        &[],
    );
    assert!(whole.status.success(), "{}", describe(&whole));
    let said = String::from_utf8_lossy(&whole.stdout);
    // "Zotero: C works included by you, U included already, N references not in this run; …"
    let counts: Vec<usize> = said
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|number| number.parse().ok())
        .collect();
    let [changed, unchanged, unknown, ..] = counts[..] else {
        panic!("three counts in {said}");
    };
    assert_eq!(changed + unchanged, studies.len(), "{said}");
    assert!(changed > 0, "the import changed nothing: {said}");
    assert_eq!(unknown, 5, "the library's own five articles: {said}");

    // Its collection again: nothing new to include, and the others are not asked about.
    let collection = litrev(
        home.path(),
        &[
            "screen",
            &run,
            "--import-zotero",
            "--zotero-sqlite",
            &database_text,
            "--collection",
            "Known studies",
        ],
        &[],
    );
    assert!(collection.status.success(), "{}", describe(&collection));
    let said = String::from_utf8_lossy(&collection.stdout);
    assert!(
        said.contains(&format!(
            "0 works included by you, {} included already, 0 references not in this run",
            studies.len()
        )),
        "{said}"
    );

    let resumed = litrev(home.path(), &["resume", &run], &[]);
    assert!(resumed.status.success(), "{}", describe(&resumed));
    let rows = crate::support::table(&out.join("screening.csv"));
    for id in &included {
        let row = rows
            .iter()
            .find(|row| row.get("openalex_id") == Some(id))
            .unwrap_or_else(|| panic!("{id} in screening.csv"));
        assert_eq!(
            row.get("decision").map(String::as_str),
            Some("include"),
            "{row:?}"
        );
    }
}

/// Adds a regular item of `item_type` with `fields` (Zotero field name, value) to a Zotero
/// database; its id.
fn add_item(
    zotero: &rusqlite::Connection,
    key: &str,
    item_type: &str,
    fields: &[(&str, &str)],
) -> i64 {
    zotero
        .execute(
            "INSERT INTO items (itemTypeID, libraryID, key) VALUES \
             ((SELECT itemTypeID FROM itemTypes WHERE typeName = ?1), 1, ?2)",
            [item_type, key],
        )
        .expect("item");
    let item = zotero.last_insert_rowid();
    for (name, value) in fields {
        zotero
            .execute("INSERT INTO itemDataValues (value) VALUES (?1)", [value])
            .expect("value");
        let value = zotero.last_insert_rowid();
        zotero
            .execute(
                "INSERT INTO itemData (itemID, fieldID, valueID) VALUES \
                 (?1, (SELECT fieldID FROM fields WHERE fieldName = ?2), ?3)",
                rusqlite::params![item, name, value],
            )
            .expect("item data");
    }
    item
}

/// A researcher's own Zotero library joins the review: three of the SYNERGY review's included
/// studies that the searched snapshot lacks are in the library (title, DOI, abstract, journal,
/// date), each with a stored PDF. They join the corpus as the library's records and are
/// screened with the search hits; the stored PDF of each one included is read as its full
/// text because Zotero files it under that study, whatever the file itself says.
#[test]
fn a_zotero_library_joins_the_corpus_and_its_stored_files_are_read() {
    let Some(data) = testdata() else { return };
    let Some(real) = litrev_testkit::zotero_library() else {
        return;
    };
    let home = tempfile::tempdir().expect("home");
    let (kept, snapshot) = three_included_studies_apart(&data, home.path());

    // The library: papis-zotero's real database and storage, and the three studies.
    let folder = home.path().join("Zotero");
    std::fs::create_dir_all(folder.join("storage")).expect("storage");
    std::fs::copy(real.join("zotero.sqlite"), folder.join("zotero.sqlite")).expect("copy");
    for entry in std::fs::read_dir(real.join("storage")).expect("storage") {
        let from = entry.expect("entry").path();
        let to = folder.join("storage").join(from.file_name().expect("name"));
        std::fs::create_dir_all(&to).expect("folder");
        for file in std::fs::read_dir(&from).expect("files") {
            let file = file.expect("file").path();
            std::fs::copy(&file, to.join(file.file_name().expect("name"))).expect("copy");
        }
    }
    let stored = std::fs::read_dir(real.join("storage/WN7WJBGS"))
        .expect("a stored file")
        .map(|entry| entry.expect("entry").path())
        .find(|path| path.extension().is_some_and(|ext| ext == "pdf"))
        .expect("a PDF");
    let zotero = rusqlite::Connection::open(folder.join("zotero.sqlite")).expect("open");
    let mut dois = Vec::new();
    for (at, record) in kept.iter().enumerate() {
        let doi = record["doi"]
            .as_str()
            .expect("doi")
            .trim_start_matches("https://doi.org/")
            .to_owned();
        let abstract_text = litrev_testkit::openalex::abstract_text(record);
        let year = record["publication_year"].to_string();
        let journal = record["primary_location"]["source"]["display_name"]
            .as_str()
            .unwrap_or("A journal")
            .to_owned();
        let item = add_item(
            &zotero,
            &format!("LRITEM{at:02}"),
            "journalArticle",
            &[
                ("title", record["title"].as_str().expect("title")),
                ("DOI", &doi),
                ("abstractNote", &abstract_text),
                ("publicationTitle", &journal),
                ("date", &format!("{year}-00-00 {year}")),
            ],
        );
        let key = format!("LRPDF{at:03}");
        std::fs::create_dir_all(folder.join("storage").join(&key)).expect("storage");
        std::fs::copy(&stored, folder.join("storage").join(&key).join("study.pdf"))
            .expect("copy the PDF");
        let attachment = add_item(&zotero, &key, "attachment", &[]);
        zotero
            .execute(
                "INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) \
                 VALUES (?1, ?2, 1, 'application/pdf', 'storage:study.pdf')",
                [attachment, item],
            )
            .expect("attachment");
        dois.push(doi.to_lowercase());
    }
    drop(zotero);

    let out = home.path().join("review");
    let question = crate::support::question(&data, "Donners_2021");
    let output = litrev(
        home.path(),
        &[
            "review",
            &question,
            "--source",
            &format!("snapshot:{}", snapshot.display()),
            "--library",
            &folder.join("zotero.sqlite").display().to_string(),
            "--out",
            &out.display().to_string(),
            "--yes",
        ],
        &[],
    );
    assert!(output.status.success(), "{}", describe(&output));

    // The library's eight records are in the corpus as such, screened.
    let corpus = crate::support::table(&out.join("corpus.csv"));
    let from_library: Vec<_> = corpus
        .iter()
        .filter(|row| row["origin"] == "library")
        .collect();
    assert_eq!(from_library.len(), 8, "{from_library:#?}");
    let mut included = Vec::new();
    for doi in &dois {
        let row = from_library
            .iter()
            .find(|row| row["doi"].to_lowercase() == *doi)
            .unwrap_or_else(|| panic!("{doi} in the corpus"));
        assert!(!row["decision"].is_empty(), "{row:?}");
        if row["decision"] == "include" {
            included.push(row["title"].clone());
        }
    }
    assert!(!included.is_empty(), "{from_library:#?}");
    // Each included study's text is its stored PDF.
    let cards: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("study_cards.json")).expect("study_cards.json"),
    )
    .expect("JSON");
    for title in &included {
        let card = cards["works"]
            .as_array()
            .expect("works")
            .iter()
            .find(|work| work["title"] == title.as_str())
            .expect("a card");
        assert_eq!(card["status"], "pdf", "{card:#}");
        assert!(
            card["origin"].as_str().is_some_and(
                |origin| origin.contains("/storage/LRPDF") && origin.ends_with("/study.pdf")
            ),
            "{card:#}"
        );
    }
    // PRISMA and the appendix count the library as another source.
    let prisma = std::fs::read_to_string(out.join("prisma.svg")).expect("prisma.svg");
    assert!(prisma.contains("the user's library (n = 8)"), "{prisma}");
    let markdown = std::fs::read_to_string(out.join("review.md")).expect("review.md");
    assert!(
        markdown.contains("Other sources: the user's library zotero.sqlite gave eight records, screened with the search hits."),
        "{markdown}"
    );
}

/// Donners_2021's first three included studies with a DOI and an abstract (in the works
/// file's order), and a snapshot in `folder` of the rest of its records, which lacks them.
fn three_included_studies_apart(data: &Path, folder: &Path) -> (Vec<Value>, PathBuf) {
    let included = crate::support::included_studies(data, "Donners_2021");
    let records: Vec<Value> =
        std::io::BufRead::lines(std::io::BufReader::new(flate2::read::GzDecoder::new(
            std::fs::File::open(crate::support::works_file(data, "Donners_2021")).expect("works"),
        )))
        .map(|line| serde_json::from_str::<Value>(&line.expect("line")).expect("record"))
        .collect();
    let kept: Vec<Value> = records
        .iter()
        .filter(|record| included.iter().any(|id| record["id"] == id.as_str()))
        .filter(|record| {
            record["doi"].is_string() && !litrev_testkit::openalex::abstract_text(record).is_empty()
        })
        .take(3)
        .cloned()
        .collect();
    assert_eq!(kept.len(), 3);
    let snapshot = folder.join("donners-without-three.jsonl");
    let lines: Vec<String> = records
        .iter()
        .filter(|record| !kept.iter().any(|kept| kept["id"] == record["id"]))
        .map(Value::to_string)
        .collect();
    std::fs::write(&snapshot, lines.join("\n")).expect("snapshot");
    (kept, snapshot)
}

/// `--library zotero:` reads a library through the Web API (the stand-in): the three included
/// studies a researcher keeps in a collection, missing from the snapshot searched, join the
/// corpus as the library's records with their authors, year, journal and abstract, and are
/// screened; another collection's items stay out, and a collection the library lacks is named.
#[test]
fn a_zotero_web_library_collection_joins_the_corpus() {
    let Some(data) = testdata() else { return };
    let home = tempfile::tempdir().expect("home");
    let (kept, snapshot) = three_included_studies_apart(&data, home.path());

    // The studies as Zotero's Web API holds them: creators, a date, the journal, the abstract.
    let items: Vec<Value> = kept
        .iter()
        .map(|record| {
            let creators: Vec<Value> = record["authorships"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|authorship| authorship["author"]["display_name"].as_str())
                .map(|name| {
                    let (first, last) = name.rsplit_once(' ').unwrap_or(("", name));
                    serde_json::json!({"creatorType": "author", "firstName": first, "lastName": last})
                })
                .collect();
            serde_json::json!({
                "itemType": "journalArticle",
                "title": record["title"],
                "creators": creators,
                "DOI": record["doi"].as_str().expect("doi").trim_start_matches("https://doi.org/"),
                "date": record["publication_date"],
                "publicationTitle": record["primary_location"]["source"]["display_name"],
                "abstractNote": litrev_testkit::openalex::abstract_text(record),
            })
        })
        .collect();
    let library = Arc::new(ZoteroServer::new(LIBRARY, KEY, ZoteroFaults::default()));
    library.seed("Emicizumab", items);
    library.seed(
        "Something else",
        vec![serde_json::json!({"itemType": "book", "title": "Unrelated", "DOI": "10.1000/unrelated"})],
    );
    let answering = Arc::clone(&library);
    let server = Server::start(move |request| answering.answer(request), FaultPlan::none());
    let url = server.url();
    let env = [
        ("LITREV_ZOTERO_URL", url.as_str()),
        ("LITREV_ZOTERO_KEY", KEY),
    ];
    let out = home.path().join("review");
    let question = crate::support::question(&data, "Donners_2021");
    let source = format!("snapshot:{}", snapshot.display());
    let library_arg = format!("zotero:{LIBRARY}");
    let run = |collection: &str| {
        litrev(
            home.path(),
            &[
                "review",
                &question,
                "--source",
                &source,
                "--library",
                &library_arg,
                "--library-collection",
                collection,
                "--out",
                &out.display().to_string(),
                "--yes",
            ],
            &env,
        )
    };
    let missing = run("Nope");
    assert!(!missing.status.success(), "{}", describe(&missing));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("no collection named `Nope`"),
        "{}",
        describe(&missing)
    );

    let output = run("Emicizumab");
    assert!(output.status.success(), "{}", describe(&output));
    let corpus = crate::support::table(&out.join("corpus.csv"));
    let from_library: Vec<_> = corpus
        .iter()
        .filter(|row| row["origin"] == "library")
        .collect();
    assert_eq!(from_library.len(), 3, "{from_library:#?}");
    for record in &kept {
        let doi = record["doi"]
            .as_str()
            .expect("doi")
            .trim_start_matches("https://doi.org/")
            .to_lowercase();
        let row = from_library
            .iter()
            .find(|row| row["doi"].to_lowercase() == doi)
            .unwrap_or_else(|| panic!("{doi} in the corpus"));
        assert!(!row["decision"].is_empty(), "{row:?}");
        assert_eq!(
            row["year"],
            record["publication_year"].to_string(),
            "{row:?}"
        );
        assert!(!row["first_author"].is_empty(), "{row:?}");
    }
    assert!(!corpus.iter().any(|row| row["title"] == "Unrelated"));
    let prisma = std::fs::read_to_string(out.join("prisma.svg")).expect("prisma.svg");
    assert!(prisma.contains("the user's library (n = 3)"), "{prisma}");
}
