//! The fuzz targets: one per parser of outside data, each a function taking the mutated input
//! and calling the real parser, with the seed corpus it starts from.
//!
//! A target returns `Err` only when an invariant of [`crate::check`] fails; a parser refusing
//! its input (`Err`) is the expected answer to most mutations. Panics and hangs are caught by
//! the harness. An importer added later gets a target here and a line in `tests/fuzz.rs`.

mod apis;
mod files;
mod ids;
mod openalex;
mod style;
mod web;
mod zotero;

use std::path::Path;

use crate::check::Checked;
use crate::mutate::{Format, Input};
use crate::seeds::Seeds;

/// One parser under fuzzing.
#[derive(Debug, Clone, Copy)]
pub struct Target {
    /// The target's name (`ris`, `pubmed`…), used in test names and failure files.
    pub name: &'static str,
    /// The parsers it calls.
    pub parsers: &'static str,
    /// What its input looks like.
    pub format: Format,
    /// Whether the parser takes text or bytes.
    pub input: Input,
    /// Its seeds, read from the shared data folder.
    pub seeds: fn(&Path) -> Seeds,
    /// Calls the parsers on one input and checks what they return.
    pub run: fn(&[u8]) -> Checked,
    /// How many ordinary cases one case costs: a run gives this target `cases / cost` cases
    /// (PDFs are parsed page by page, a hundred times slower than a JSON line).
    pub cost: u64,
}

/// Every target, in the order the long run takes them.
pub const TARGETS: &[Target] = &[
    Target {
        name: "openalex_work_2023",
        parsers: "litrev_sources::openalex::parse_work (snapshot lines, 2023 schema: host_venue, concepts)",
        format: Format::Json,
        input: Input::Text,
        seeds: openalex::seeds_2023,
        run: openalex::work,
        cost: 1,
    },
    Target {
        name: "openalex_work_current",
        parsers: "litrev_sources::openalex::parse_work (current schema: primary_location, topics)",
        format: Format::Json,
        input: Input::Text,
        seeds: openalex::seeds_current,
        run: openalex::work,
        cost: 1,
    },
    Target {
        name: "snapshot_file",
        parsers: "SnapshotSource::read_works (a .jsonl file, plain or gzipped, line by line; else a library export)",
        format: Format::JsonLines,
        input: Input::Bytes,
        seeds: files::snapshot_seeds,
        run: files::snapshot,
        cost: 1,
    },
    Target {
        name: "openalex_api",
        parsers: "litrev_sources::openalex::{parse_page, parse_work, parse_error}",
        format: Format::Json,
        input: Input::Text,
        seeds: openalex::api_seeds,
        run: openalex::api,
        cost: 1,
    },
    Target {
        name: "semantic_scholar",
        parsers: "litrev_sources::semantic_scholar::parse_* (paper, search, bulk, batch, citations, references, recommendations, error)",
        format: Format::Json,
        input: Input::Text,
        seeds: apis::semantic_scholar_seeds,
        run: apis::semantic_scholar,
        cost: 1,
    },
    Target {
        name: "crossref",
        parsers: "litrev_sources::crossref::{parse_work, parse_works, parse_error, jats_to_text}",
        format: Format::Json,
        input: Input::Text,
        seeds: apis::crossref_seeds,
        run: apis::crossref,
        cost: 1,
    },
    Target {
        name: "pubmed",
        parsers: "litrev_sources::pubmed::parse_* (esearch, epost, efetch, elink, esummary, error)",
        format: Format::Xml,
        input: Input::Text,
        seeds: apis::pubmed_seeds,
        run: apis::pubmed,
        cost: 1,
    },
    Target {
        name: "jats",
        parsers: "litrev_sources::read_jats (PMC / Europe PMC / publisher full texts)",
        format: Format::Xml,
        input: Input::Text,
        seeds: apis::jats_seeds,
        run: apis::jats,
        cost: 1,
    },
    Target {
        name: "pdf",
        parsers: "litrev_fulltext::read_pdf, then litrev_extract::study_card on what it reads",
        format: Format::Pdf,
        input: Input::Bytes,
        seeds: files::pdf_seeds,
        run: files::pdf,
        cost: 8,
    },
    Target {
        name: "arxiv",
        parsers: "litrev_sources::arxiv::parse_feed (Atom, 2016 and 2026 layouts)",
        format: Format::Xml,
        input: Input::Text,
        seeds: apis::arxiv_seeds,
        run: apis::arxiv,
        cost: 1,
    },
    Target {
        name: "unpaywall",
        parsers: "litrev_sources::unpaywall::{parse_record, parse_error}",
        format: Format::Json,
        input: Input::Text,
        seeds: apis::unpaywall_seeds,
        run: apis::unpaywall,
        cost: 1,
    },
    Target {
        name: "ris",
        parsers: "litrev_sources::library::read_ris (every dialect: ASReview, Rayyan, Ovid, EndNote, WoS, Zotero…)",
        format: Format::Ris,
        input: Input::Text,
        seeds: files::ris_seeds,
        run: files::ris,
        cost: 1,
    },
    Target {
        name: "bibtex",
        parsers: "litrev_sources::library::read_bibtex (BibTeX and BibLaTeX: Zotero, JabRef, Mendeley…), after library::decode, and LibraryFormat::detect",
        format: Format::Ris,
        input: Input::Bytes,
        seeds: files::bibtex_seeds,
        run: files::bibtex,
        cost: 1,
    },
    Target {
        name: "csl_json",
        parsers: "litrev_sources::library::read_csl_json (Zotero's and pandoc's CSL-JSON), after library::decode, and LibraryFormat::detect",
        format: Format::Json,
        input: Input::Bytes,
        seeds: files::csl_json_seeds,
        run: files::csl_json,
        cost: 1,
    },
    Target {
        name: "medline",
        parsers: "litrev_sources::library::read_medline (PubMed's .nbib, MEDLINE text), after library::decode, and LibraryFormat::detect",
        format: Format::Ris,
        input: Input::Bytes,
        seeds: files::medline_seeds,
        run: files::medline,
        cost: 1,
    },
    Target {
        name: "wos",
        parsers: "litrev_sources::library::read_wos (Web of Science plain text, cited references), after library::decode, and LibraryFormat::detect",
        format: Format::Ris,
        input: Input::Bytes,
        seeds: files::wos_seeds,
        run: files::wos,
        cost: 1,
    },
    Target {
        name: "library_table",
        parsers: "litrev_sources::library::read_table (Scopus, IEEE Xplore, SpringerLink, Embase, ASReview tables), after library::decode, and LibraryFormat::detect",
        format: Format::Csv,
        input: Input::Bytes,
        seeds: files::table_seeds,
        run: files::table,
        cost: 1,
    },
    Target {
        name: "synergy_labels",
        parsers: "litrev::bench::read_labels (openalex_id,…,label_included CSV, plain or gzipped)",
        format: Format::Csv,
        input: Input::Bytes,
        seeds: files::label_seeds,
        run: files::labels,
        cost: 1,
    },
    Target {
        name: "labelled_csv",
        parsers: "litrev::bench::read_labelled_csv (title,abstract,label_included CSV)",
        format: Format::Csv,
        input: Input::Bytes,
        seeds: files::labelled_csv_seeds,
        run: files::labelled_csv,
        cost: 1,
    },
    Target {
        name: "csl_style",
        parsers: "litrev_publish::CitationStyle::from_csl, to_csl, and review_files in the loaded style",
        format: Format::Xml,
        input: Input::Text,
        seeds: style::seeds,
        run: style::run,
        cost: 1,
    },
    Target {
        name: "openalex_authors",
        parsers: "litrev_sources::openalex::{parse_author_page, expert_from_json} (the expert channel's /authors answers)",
        format: Format::Json,
        input: Input::Text,
        seeds: openalex::author_seeds,
        run: openalex::authors,
        cost: 1,
    },
    Target {
        name: "zotero",
        parsers: "litrev_sources::zotero::{parse_references, parse_write_answer, item_from_csl}",
        format: Format::Json,
        input: Input::Text,
        seeds: zotero::seeds,
        run: zotero::run,
        cost: 1,
    },
    Target {
        name: "web_page",
        parsers: "litrev_sources::web::read_page (HTML pages named with --url)",
        format: Format::Xml,
        input: Input::Bytes,
        seeds: web::seeds,
        run: web::run,
        cost: 4,
    },
    Target {
        name: "brave",
        parsers: "litrev_sources::brave::parse_web_results (Brave Search's web results)",
        format: Format::Json,
        input: Input::Text,
        seeds: apis::brave_seeds,
        run: apis::brave,
        cost: 1,
    },
    Target {
        name: "tavily",
        parsers: "litrev_sources::tavily::parse_search_results (Tavily's search results)",
        format: Format::Json,
        input: Input::Text,
        seeds: apis::tavily_seeds,
        run: apis::tavily,
        cost: 1,
    },
    Target {
        name: "openlibrary",
        parsers: "litrev_sources::openlibrary::{parse_search, parse_books} (Open Library's search and Books APIs)",
        format: Format::Json,
        input: Input::Text,
        seeds: apis::openlibrary_seeds,
        run: apis::openlibrary,
        cost: 1,
    },
    Target {
        name: "hf_papers",
        parsers: "litrev_sources::huggingface::parse_papers (Hugging Face's paper search)",
        format: Format::Json,
        input: Input::Text,
        seeds: apis::hf_papers_seeds,
        run: apis::hf_papers,
        cost: 1,
    },
    Target {
        name: "work_id",
        parsers: "litrev_model::WorkId and its newtypes' FromStr (every id read from outside data)",
        format: Format::Text,
        input: Input::Text,
        seeds: ids::seeds,
        run: ids::run,
        cost: 1,
    },
];

/// The target named `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|target| target.name == name)
}

/// The input as text (already valid UTF-8 for text targets).
fn text(input: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(input)
}
