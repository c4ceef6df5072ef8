//! The bounded fuzz run of the test command: every target for `LITREV_FUZZ_CASES` cases
//! (default 2,000) from the fixed seed `LITREV_FUZZ_SEED`, each in a child process of the
//! `litrev-fuzz` binary so crashes are reported with their input like panics and hangs.

use std::path::Path;

use litrev_fuzz::harness::{Config, supervise};
use litrev_fuzz::targets::TARGETS;

fn fuzz(name: &str) {
    // Says loudly when the data is missing (and fails under CI), in this process's output.
    if litrev_testkit::testdata().is_none() {
        return;
    }
    let exe = Path::new(env!("CARGO_BIN_EXE_litrev-fuzz"));
    if let Err(report) = supervise(exe, name, &Config::from_env()) {
        panic!("{report}");
    }
}

macro_rules! targets {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                fuzz(stringify!($name));
            }
        )*

        const TESTED: &[&str] = &[$(stringify!($name)),*];
    };
}

targets!(
    openalex_work_2023,
    openalex_work_current,
    snapshot_file,
    openalex_api,
    semantic_scholar,
    crossref,
    pubmed,
    jats,
    pdf,
    arxiv,
    unpaywall,
    ris,
    bibtex,
    csl_json,
    medline,
    wos,
    library_table,
    synergy_labels,
    labelled_csv,
    csl_style,
    openalex_authors,
    zotero,
    web_page,
    brave,
    tavily,
    openlibrary,
    hf_papers,
    work_id,
);

#[test]
fn every_target_is_tested() {
    let mut targets: Vec<&str> = TARGETS.iter().map(|target| target.name).collect();
    let mut tested = TESTED.to_vec();
    targets.sort_unstable();
    tested.sort_unstable();
    assert_eq!(targets, tested, "add the new target to targets!(…) above");
}
