//! The architecture's rules as a test: who may depend on whom, and that every source file
//! says what it is for. A violation fails `cargo test` (see docs/ARCHITECTURE.md, Invariants).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const MODEL: &str = "litrev-model";
const SERVICES: &[&str] = &[
    "litrev-text",
    "litrev-graph",
    "litrev-sources",
    "litrev-store",
    "litrev-embed",
    LLM,
];
/// The LLM layer: a service the engine and the phases may use, which sends its requests
/// through the one HTTP stack like the sources do.
const LLM: &str = "litrev-llm";
/// The one outbound HTTP stack: used by the sources and wired up by the engine, never by phases.
const HTTP: &str = "litrev-http";
/// Local stand-ins for the APIs (a loopback server, OpenAlex over snapshots): the engine's
/// benchmarks and the test kit use them; they know nothing of litrev's own types.
const LOCAL_APIS: &str = "litrev-bench-server";
/// The fuzz targets of every parser of outside data (dev-only).
const FUZZ: &str = "litrev-fuzz";
/// Full texts: finds and reads them (local files, and later open-access downloads through the
/// one HTTP stack), parsing JATS with the sources' reader.
const FULLTEXT: &str = "litrev-fulltext";
const PHASES: &[&str] = &[
    "litrev-plan",
    "litrev-discover",
    "litrev-snowball",
    "litrev-screen",
    "litrev-organise",
    "litrev-extract",
    "litrev-write",
    "litrev-audit",
    "litrev-publish",
];

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Each crate's normal (not dev) dependencies, read from its manifest.
fn dependencies() -> BTreeMap<String, Vec<String>> {
    let mut all = BTreeMap::new();
    for entry in std::fs::read_dir(workspace().join("crates")).expect("crates folder") {
        let folder = entry.expect("entry").path();
        let manifest = std::fs::read_to_string(folder.join("Cargo.toml")).expect("manifest");
        let value: toml::Table = manifest.parse().expect("manifest parses");
        let name = value["package"]["name"].as_str().expect("name").to_owned();
        let dependencies = value
            .get("dependencies")
            .and_then(|table| table.as_table())
            .map(|table| table.keys().cloned().collect())
            .unwrap_or_default();
        all.insert(name, dependencies);
    }
    all
}

#[test]
fn dependencies_point_one_way() {
    let all = dependencies();
    assert!(
        all.len() >= PHASES.len() + SERVICES.len() + 3,
        "crates found: {:?}",
        all.keys()
    );
    for (name, dependencies) in &all {
        let litrev_dependencies: Vec<&str> = dependencies
            .iter()
            .map(String::as_str)
            .filter(|dependency| dependency.starts_with("litrev"))
            .collect();
        let allowed: Vec<&str> = match name.as_str() {
            MODEL | HTTP | LOCAL_APIS => Vec::new(),
            "litrev-sources" | LLM => vec![MODEL, HTTP],
            FULLTEXT => vec![MODEL, HTTP, "litrev-sources"],
            service if SERVICES.contains(&service) => vec![MODEL],
            phase if PHASES.contains(&phase) => {
                let mut allowed = vec![MODEL];
                allowed.extend(
                    SERVICES
                        .iter()
                        .filter(|service| **service != "litrev-store"),
                );
                allowed
            }
            "litrev" => {
                let mut allowed = vec![MODEL, HTTP, LOCAL_APIS, FULLTEXT];
                allowed.extend(SERVICES);
                allowed.extend(PHASES);
                allowed
            }
            "litrev-cli" => vec!["litrev", "litrev-server", "litrev-mcp"],
            // The MCP tools: a frontend over the engine, like the CLI.
            "litrev-mcp" => vec!["litrev"],
            // The web app: a frontend over the engine, which also answers MCP at /mcp.
            "litrev-server" => vec!["litrev", "litrev-mcp"],
            "litrev-testkit" => vec![LOCAL_APIS],
            // Dev-only (publish = false, nothing depends on it): fuzzes the parsers of outside
            // data wherever they live, so it may use every crate that has one.
            FUZZ => vec![
                MODEL,
                FULLTEXT,
                "litrev-extract",
                "litrev-sources",
                "litrev-publish",
                "litrev",
                "litrev-testkit",
            ],
            other => panic!("{other} is not in the architecture test: add it with its rules"),
        };
        for dependency in litrev_dependencies {
            assert!(
                allowed.contains(&dependency),
                "{name} may not depend on {dependency} (see docs/ARCHITECTURE.md)"
            );
        }
    }
    for (name, dependencies) in &all {
        assert!(
            !dependencies.iter().any(|dependency| dependency == FUZZ),
            "{name} may not depend on {FUZZ}: it is dev-only"
        );
        if name != HTTP {
            assert!(
                !dependencies
                    .iter()
                    .any(|dependency| dependency == "reqwest"),
                "{name} may not use reqwest: send requests through litrev-http"
            );
        }
    }
    let model = &all[MODEL];
    for forbidden in ["tokio", "reqwest", "rusqlite", "tantivy"] {
        assert!(
            !model.iter().any(|dependency| dependency == forbidden),
            "the model may not use {forbidden}"
        );
    }
}

#[test]
fn every_source_file_says_what_it_is_for() {
    let mut missing = Vec::new();
    visit(&workspace().join("crates"), &mut |path| {
        let text = std::fs::read_to_string(path).expect("source file");
        if !text.trim_start().starts_with("//!") {
            missing.push(path.display().to_string());
        }
    });
    assert!(missing.is_empty(), "files without a //! line: {missing:?}");
}

fn visit(folder: &Path, on_file: &mut dyn FnMut(&Path)) {
    for entry in std::fs::read_dir(folder).expect("folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            visit(&path, on_file);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            on_file(&path);
        }
    }
}
