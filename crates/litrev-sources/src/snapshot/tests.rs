//! Snapshot tests on the real SYNERGY Work files.

use litrev_model::{HitOrder, Query, WorkId, WorkKind};
use litrev_testkit::testdata;

use super::SnapshotSource;
use crate::source::Source;

fn query(text: &str) -> Query {
    Query {
        label: "q1".into(),
        purpose: "test".into(),
        text: text.into(),
        ..Query::default()
    }
}

/// Donners_2021's snapshot, indexed in a home of its own (kept while the snapshot is used);
/// none when the shared data is absent.
fn donners() -> Option<(SnapshotSource, tempfile::TempDir)> {
    let file = testdata()?.join("synergy/works/Donners_2021.jsonl.gz");
    let home = tempfile::tempdir().expect("temp dir");
    let (snapshot, _) =
        SnapshotSource::open(std::slice::from_ref(&file), home.path(), &|_| {}).expect("open");
    Some((snapshot, home))
}

/// Directed searches read deeper than their limit and keep what they ask for: Donners_2021
/// holds two book chapters among its 258 works.
#[test]
fn a_directed_search_finds_the_chapters_and_the_most_cited() {
    let Some((snapshot, _home)) = donners() else {
        return;
    };
    assert_eq!(
        snapshot.describe(),
        "a local OpenAlex snapshot (1 file, 258 works)"
    );
    let books = Query {
        kinds: vec![WorkKind::Book, WorkKind::BookChapter],
        ..query("emicizumab haemophilia")
    };
    let hits = snapshot.search(&books, 10).expect("search");
    assert!(!hits.is_empty());
    assert!(
        hits.iter()
            .all(|hit| hit.work.kind == WorkKind::BookChapter)
    );
    let seminal = Query {
        order: HitOrder::Citations,
        ..query("emicizumab haemophilia")
    };
    let hits = snapshot.search(&seminal, 10).expect("search");
    assert_eq!(hits.len(), 10);
    let cited: Vec<u32> = hits
        .iter()
        .map(|hit| hit.work.cited_by_count.unwrap_or(0))
        .collect();
    assert!(cited.windows(2).all(|pair| pair[0] >= pair[1]), "{cited:?}");
    let plain = snapshot
        .search(&query("emicizumab haemophilia"), 10)
        .expect("search");
    let most_cited_plain = plain
        .iter()
        .map(|hit| hit.work.cited_by_count.unwrap_or(0))
        .max()
        .unwrap_or(0);
    assert!(cited[0] >= most_cited_plain);
}

/// A count is what a search without a limit reads; a directed query is not counted.
#[test]
fn a_count_is_what_an_unlimited_search_reads() {
    let Some((snapshot, _home)) = donners() else {
        return;
    };
    let plain = query("emicizumab OR haemophilia");
    let all = snapshot.search(&plain, 10_000).expect("search").len();
    assert!(all > 100, "{all}");
    assert_eq!(snapshot.count(&plain).expect("count"), Some(all as u64));
    assert_eq!(
        snapshot.count(&query("xylophone zeppelin")).expect("count"),
        Some(0)
    );
    let directed = Query {
        kinds: vec![WorkKind::BookChapter],
        ..plain
    };
    assert_eq!(snapshot.count(&directed).expect("count"), None);
}

#[test]
fn indexes_searches_and_walks_a_real_snapshot() {
    let Some(data) = testdata() else { return };
    let file = data.join("synergy/works/Donners_2021.jsonl.gz");
    let home = tempfile::tempdir().expect("temp dir");
    let (snapshot, report) =
        SnapshotSource::open(std::slice::from_ref(&file), home.path(), &|_| {}).expect("open");
    assert!(report.built);
    assert_eq!(snapshot.len(), 258, "Donners_2021 has 258 works");
    assert!(report.issues.is_empty());

    let hits = snapshot
        .search(&query("emicizumab pharmacokinetics"), 10)
        .expect("search");
    assert_eq!(hits.len(), 10);
    assert!(
        hits[0]
            .work
            .title_or_empty()
            .to_lowercase()
            .contains("emicizumab"),
        "top hit: {}",
        hits[0].work.title_or_empty()
    );

    let doi: WorkId = "https://doi.org/10.1056/NEJMoa1703068"
        .parse()
        .expect("doi");
    let found = snapshot.lookup(std::slice::from_ref(&doi)).expect("lookup");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].id().to_string(), "W2734287351");

    // Reverse edges: every citing work really lists the cited one.
    let citing = snapshot
        .citing(&[found[0].id()], &crate::Held::new())
        .expect("citing");
    assert_eq!(
        citing.len(),
        86,
        "the HAVEN 1 trial is cited 86 times inside Donners_2021"
    );
    for work in &citing {
        assert!(work.references.contains(&found[0].id()));
    }

    let (_, reopened) =
        SnapshotSource::open(std::slice::from_ref(&file), home.path(), &|_| {}).expect("reopen");
    assert!(!reopened.built, "the second open reuses the index");
}

#[test]
fn every_synergy_record_parses_with_abstracts_rebuilt() {
    let Some(data) = testdata() else { return };
    let expected = [
        ("Chou_2004", 1630, 1441),
        ("Donners_2021", 258, 250),
        ("Jeyaraman_2020", 1175, 1173),
        ("Menon_2022", 975, 969),
        ("Nelson_2002", 366, 358),
        ("Sep_2021", 271, 270),
        ("van_der_Valk_2021", 725, 715),
    ];
    for (name, works, with_abstract) in expected {
        let file = data.join(format!("synergy/works/{name}.jsonl.gz"));
        let (parsed, issues) = SnapshotSource::read_works(&[file]).expect(name);
        assert!(issues.is_empty(), "{name}: {issues:?}");
        assert_eq!(parsed.len(), works, "{name} works");
        let abstracts = parsed
            .iter()
            .filter(|work| work.abstract_text.is_some())
            .count();
        assert_eq!(abstracts, with_abstract, "{name} abstracts");
    }
}

#[test]
fn reads_the_current_schema() {
    let Some(data) = testdata() else { return };
    let file = data.join("openalex-recorded-openalexPro/works_008_parallel_snapshots.jsonl.gz");
    let (works, issues) = SnapshotSource::read_works(&[file]).expect("current schema");
    assert_eq!(works.len(), 175);
    assert!(issues.is_empty(), "{issues:?}");
    assert!(works.iter().filter(|work| work.venue.is_some()).count() > 100);
    assert!(works.iter().any(|work| !work.keywords.is_empty()));
    // Current records name topics (`T…`), which the expert channel asks for authors of; a
    // record without topics falls back to its specific concepts (`C…`), never mixing the two.
    assert!(works.iter().any(|work| !work.topics.is_empty()));
    for work in &works {
        let topics = work
            .topics
            .iter()
            .filter(|topic| topic.id.starts_with('T'))
            .count();
        let concepts = work
            .topics
            .iter()
            .filter(|topic| topic.id.starts_with('C'))
            .count();
        assert_eq!(topics + concepts, work.topics.len());
        assert!(topics == 0 || concepts == 0, "{:?}", work.topics);
    }
}

/// Records of the 2023 schema give their specific concepts (level 2 and below) as topics, with
/// the `C…` ids the Authors API filters on, and each author's OpenAlex id.
#[test]
fn the_2023_schema_gives_specific_concepts_and_author_ids() {
    let Some(data) = testdata() else { return };
    let file = data.join("synergy/works/Donners_2021.jsonl.gz");
    let (works, _) = SnapshotSource::read_works(&[file]).expect("works");
    let topics: Vec<&litrev_model::Topic> = works.iter().flat_map(|work| &work.topics).collect();
    assert!(topics.len() > works.len(), "{} topics", topics.len());
    assert!(topics.iter().all(|topic| topic.id.starts_with('C')));
    assert!(
        !topics
            .iter()
            .any(|topic| topic.name == "Medicine" || topic.name == "Biology"),
        "level-0 concepts are disciplines, not topics"
    );
    let authors: Vec<&litrev_model::Author> = works.iter().flat_map(|work| &work.authors).collect();
    let with_id = authors
        .iter()
        .filter(|author| author.id.as_deref().is_some_and(|id| id.starts_with('A')))
        .count();
    assert!(
        with_id * 10 > authors.len() * 9,
        "{with_id} of {}",
        authors.len()
    );
}

#[test]
fn malformed_files_get_a_clear_error_and_bad_lines_are_skipped() {
    let folder = tempfile::tempdir().expect("temp dir");
    let garbage = folder.path().join("garbage.jsonl");
    std::fs::write(&garbage, "this is not json\n{\"also\": \"not a work\"}\n").expect("write");
    let error = SnapshotSource::read_works(std::slice::from_ref(&garbage))
        .expect_err("no works in garbage");
    assert!(
        error.to_string().contains("no OpenAlex Work records"),
        "{error}"
    );

    let mixed = folder.path().join("mixed.jsonl");
    std::fs::write(
        &mixed,
        "{\"id\":\"https://openalex.org/W1\",\"title\":\"A\"}\nnot json\n",
    )
    .expect("write");
    let (works, issues) = SnapshotSource::read_works(&[mixed]).expect("mixed file");
    assert_eq!(works.len(), 1);
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].line, 2);

    // Found by the fuzz target `snapshot_file`: one line that was not UTF-8 made the whole
    // file unreadable ("stream did not contain valid UTF-8"); it is a bad line like any other.
    let broken = folder.path().join("broken.jsonl");
    let mut bytes = b"{\"id\":\"https://openalex.org/W1\",\"title\":\"A\"}\n{\"title\":\"".to_vec();
    bytes.extend_from_slice(&[0xff, 0xc3]);
    bytes.extend_from_slice(b"\"}\r\n{\"id\":\"https://openalex.org/W2\"}\r\n");
    std::fs::write(&broken, bytes).expect("write");
    let (works, issues) = SnapshotSource::read_works(&[broken]).expect("a file with a bad line");
    assert_eq!(works.len(), 2);
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].line, 2);
    assert!(
        issues[0].message.contains("not UTF-8"),
        "{}",
        issues[0].message
    );

    let missing = SnapshotSource::read_works(&[folder.path().join("nope.jsonl")]);
    assert!(missing.is_err());
}

/// A real snapshot cut off part way (an interrupted download) is told as a damaged gzip with
/// what to do, not as the decoder's bare words; an empty file as a snapshot with no records,
/// before any step runs on it.
#[test]
fn a_cut_off_or_empty_snapshot_says_what_is_wrong_and_what_to_do() {
    let Some(data) = testdata() else { return };
    let whole = std::fs::read(data.join("synergy/works/Donners_2021.jsonl.gz")).expect("read");
    let folder = tempfile::tempdir().expect("temp dir");
    let cut = folder.path().join("cut.jsonl.gz");
    std::fs::write(&cut, &whole[..whole.len() / 2]).expect("write");
    let error = SnapshotSource::read_works(std::slice::from_ref(&cut)).expect_err("cut off");
    let message = error.to_string();
    assert!(
        matches!(error, crate::Error::DamagedGzip { records: Some(read), .. } if read > 0),
        "{message}"
    );
    assert!(
        message.contains("damaged gzip file")
            && message.contains("download or copy it again")
            && message.contains("gzip -t"),
        "{message}"
    );
    let home = tempfile::tempdir().expect("home");
    let opened = SnapshotSource::open(std::slice::from_ref(&cut), home.path(), &|_| {});
    assert!(
        matches!(opened, Err(crate::Error::DamagedGzip { .. })),
        "opening it as a snapshot fails the same way"
    );

    let empty = folder.path().join("empty.jsonl");
    std::fs::write(&empty, "\n\n").expect("write");
    let opened = SnapshotSource::open(std::slice::from_ref(&empty), home.path(), &|_| {});
    match opened {
        Err(error @ crate::Error::NoWorks { .. }) => {
            assert!(error.to_string().contains("it holds no records"), "{error}");
        }
        other => panic!(
            "an empty snapshot opened: {:?}",
            other.map(|(_, report)| report)
        ),
    }
}

/// A library export is a snapshot too, the reviewer's own records as a closed corpus: searched,
/// looked up and walked by the references they carry; records without an id are counted.
#[test]
fn a_library_export_is_a_snapshot_of_its_records() {
    let folder = tempfile::tempdir().expect("temp dir");
    let ris = folder.path().join("mine.ris");
    std::fs::write(
        &ris,
        "TY  - JOUR\nTI  - Petri nets in systems biology\nAB  - Petri nets model signalling pathways.\nDO  - 10.1000/petri\nPY  - 2019\nER  - \n\
         TY  - JOUR\nTI  - A record without any identifier\nER  - \n\
         TY  - JOUR\nTI  - Molecular dynamics at scale\nDO  - 10.1000/namd\nER  - \n",
    )
    .expect("write");
    let index = tempfile::tempdir().expect("index");
    let (snapshot, report) =
        SnapshotSource::open(std::slice::from_ref(&ris), index.path(), &|_| {}).expect("open");
    assert_eq!(report.works, 2);
    assert_eq!(report.issues.len(), 1, "{:?}", report.issues);
    assert!(
        report.issues[0]
            .message
            .starts_with("1 of its 3 RIS records have no DOI"),
        "{}",
        report.issues[0].message
    );
    let hits = snapshot.search(&query("petri nets"), 5).expect("search");
    assert_eq!(
        hits.first().map(|hit| hit.work.id().to_string()),
        Some("10.1000/petri".to_owned())
    );
    let found = snapshot
        .lookup(&["10.1000/namd".parse().expect("doi")])
        .expect("lookup");
    assert_eq!(
        found.first().and_then(|work| work.title.as_deref()),
        Some("Molecular dynamics at scale")
    );
    // A review's method names its corpus for what it is.
    assert_eq!(
        snapshot.describe(),
        "a library export (1 file: RIS, 2 works)"
    );

    // One CSL-JSON object over several lines opens on a brace, as Work lines do.
    let csl = folder.path().join("one.json");
    std::fs::write(
        &csl,
        "{\n  \"type\": \"article-journal\",\n  \"title\": \"One item\",\n  \"DOI\": \"10.1000/one\"\n}\n",
    )
    .expect("write");
    let (works, _) = SnapshotSource::read_works(&[csl]).expect("CSL-JSON");
    assert_eq!(works.len(), 1);

    // A real Web of Science export: its records with a DOI, their cited references' DOIs as
    // references to walk.
    let Some(data) = testdata() else { return };
    let savedrecs = data.join("import-exports/metaknowledge/savedrecs.txt");
    let text = std::fs::read_to_string(&savedrecs).expect("read");
    let with_doi = text.lines().filter(|line| line.starts_with("DI ")).count();
    let (works, issues) = SnapshotSource::read_works(&[savedrecs]).expect("WoS");
    assert_eq!(works.len(), 18);
    assert!(
        issues
            .iter()
            .any(|issue| issue.message.starts_with("14 of its 32"))
    );
    assert_eq!(
        works.iter().filter(|work| work.ids.doi.is_some()).count(),
        with_doi
    );
    assert!(
        works
            .iter()
            .map(|work| work.references.len())
            .sum::<usize>()
            > 100
    );
}
