//! The files reviewers and benchmarks bring: snapshot `.jsonl` files, RIS exports and the
//! labelled CSVs. The file readers take paths, so each case is written to a temporary file
//! first (a folder per thread, reused).

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use litrev_sources::SnapshotSource;
use litrev_sources::library::{LibraryFormat, decode, read_ris};
use litrev_sources::openalex::parse_work;

use super::text;
use crate::check::{self, Checked};
use crate::seeds::{self, Seed, Seeds};

thread_local! {
    static FOLDER: RefCell<Option<tempfile::TempDir>> = const { RefCell::new(None) };
}

/// Writes `bytes` to `name` in this thread's temporary folder and calls `read` on its path.
fn with_file(name: &str, bytes: &[u8], read: impl FnOnce(&Path) -> Checked) -> Checked {
    let path: PathBuf = FOLDER.with(|folder| {
        let mut folder = folder.borrow_mut();
        if folder.is_none() {
            *folder =
                Some(tempfile::tempdir().map_err(|error| format!("no temporary folder: {error}"))?);
        }
        Ok::<_, String>(
            folder
                .as_ref()
                .map(|dir| dir.path().join(name))
                .unwrap_or_default(),
        )
    })?;
    std::fs::write(&path, bytes).map_err(|error| format!("{}: {error}", path.display()))?;
    read(&path)
}

/// Consecutive lines of each SYNERGY works file and of openalexPro's snapshot file.
pub(super) fn snapshot_seeds(data: &Path) -> Seeds {
    let mut out = Vec::new();
    let mut add = |file: &Path, skip: usize| -> Result<(), String> {
        let lines = seeds::lines(file, skip + 4)?;
        let chunk = lines.get(skip..).unwrap_or_default().join("\n");
        out.push(Seed::new(
            format!("{}:{}-{}", seeds::relative(data, file), skip + 1, skip + 4),
            chunk,
        ));
        Ok(())
    };
    for file in seeds::files(&data.join("synergy/works"), &[".jsonl.gz"])? {
        add(&file, 0)?;
        add(&file, 40)?;
    }
    add(
        &data.join("openalex-recorded-openalexPro/works_008_parallel_snapshots.jsonl.gz"),
        0,
    )?;
    Ok(seeds::sized(out, seeds::keep))
}

/// `SnapshotSource::read_works` on one file. Besides the works' invariants: a line is either
/// a work or a reported issue, and a file with any readable work is read (ARCHITECTURE.md: a
/// malformed line is skipped and reported); a file with none may be read as a library export.
pub(super) fn snapshot(input: &[u8]) -> Checked {
    with_file("snapshot.jsonl", input, |path| {
        let read = SnapshotSource::read_works(&[path.to_owned()]);
        if let Ok((works, _)) = &read {
            check::api_works(works)?;
        }
        if input.starts_with(&[0x1f, 0x8b]) {
            return Ok(());
        }
        let mut lines = 0;
        let mut parsable = 0;
        for line in input.split(|byte| *byte == b'\n') {
            match std::str::from_utf8(line).map(str::trim) {
                Ok("") => {}
                Ok(line) => {
                    lines += 1;
                    parsable += usize::from(parse_work(line).is_ok());
                }
                // Not UTF-8: a malformed line like any other.
                Err(_) => lines += 1,
            }
        }
        match read {
            // No line is a work: read as a library export, or refused.
            Ok(_) if parsable == 0 => Ok(()),
            Ok((works, issues)) => {
                if works.len() != parsable || works.len() + issues.len() != lines {
                    return Err(format!(
                        "{lines} lines of which {parsable} works, read as {} works and {} issues",
                        works.len(),
                        issues.len()
                    ));
                }
                Ok(())
            }
            Err(error) if parsable > 0 => Err(format!(
                "a file with {parsable} readable works of {lines} lines was refused: {error}"
            )),
            Err(_) => Ok(()),
        }
    })
}

/// Every RIS export of the shared data: ASReview's dialect files, rispy's, litstudy's,
/// commonmeta's, JabRef's importer fixtures.
pub(super) fn ris_seeds(data: &Path) -> Seeds {
    let mut out = Vec::new();
    let asreview = data.join("import-exports/asreview-demo-data");
    for file in seeds::files(&asreview, &[".ris"])? {
        out.push(Seed::new(seeds::relative(data, &file), seeds::read(&file)?));
    }
    for name in [
        "web_of_science.txt",
        "pubmed_endnote.txt",
        "ris_issue_992.txt",
        "ris_issue_1099.txt",
    ] {
        let file = asreview.join(name);
        out.push(Seed::new(seeds::relative(data, &file), seeds::read(&file)?));
    }
    for folder in ["import-exports/rispy", "commonmeta-recorded/fixtures"] {
        for file in seeds::files(&data.join(folder), &[".ris"])? {
            out.push(Seed::new(seeds::relative(data, &file), seeds::read(&file)?));
        }
    }
    for file in [
        "import-exports/litstudy/example.ris",
        "import-exports/litstudy/notebook_data/exclude.ris.gz",
    ] {
        out.push(Seed::new(file, seeds::read(&data.join(file))?));
    }
    out.extend(seeds::tar_entries(
        &data.join("import-exports/jabref/jabref-test-resources.tar.gz"),
        ".ris",
    )?);
    Ok(seeds::sized(out, seeds::shrink_ris))
}

/// `read_ris` on one text: every record a work with its invariants, and with a title or an id.
pub(super) fn ris(input: &[u8]) -> Checked {
    let (records, _issues) = read_ris(&text(input), Path::new("fuzz.ris"));
    for record in &records {
        check::work(&record.work)?;
        if record.work.title.is_none() && record.work.ids.primary().is_none() {
            return Err(format!(
                "a record with neither title nor id: {:?}",
                record.work
            ));
        }
    }
    Ok(())
}

/// `read` on one text, and the reader of whatever format the text is detected as: every
/// record a work with its invariants, and with a title or an id.
fn library(input: &[u8], format: LibraryFormat) -> Checked {
    // The bytes as `--library` decodes a file (line ends made `\n`), then read as text.
    let (text, _encoding) = decode(input);
    let mut formats = vec![format];
    formats.extend(LibraryFormat::detect(&text).filter(|detected| *detected != format));
    for format in formats {
        let (records, _issues) = format.read(&text, Path::new("fuzz.library"));
        for record in &records {
            check::work(&record.work)?;
            if record.work.title.is_none() && record.work.ids.primary().is_none() {
                return Err(format!(
                    "a {} record with neither title nor id: {:?}",
                    format.name(),
                    record.work
                ));
            }
        }
    }
    Ok(())
}

/// Better BibTeX's BibTeX and BibLaTeX fixtures (exports of real Zotero libraries and the
/// `.bib` files users reported), and JabRef's.
pub(super) fn bibtex_seeds(data: &Path) -> Seeds {
    let folder = data.join("import-exports/zotero-better-bibtex");
    let mut out = Vec::new();
    for (tarball, ending) in [
        ("export_bibtex.tar.gz", ".bibtex"),
        ("export_biblatex.tar.gz", ".biblatex"),
        ("import_bib.tar.gz", ".bib"),
    ] {
        out.extend(seeds::tar_entries(&folder.join(tarball), ending)?);
    }
    out.extend(seeds::tar_entries(
        &data.join("import-exports/jabref/jabref-test-resources.tar.gz"),
        ".bib",
    )?);
    out.retain(|seed| !seed.bytes.iter().all(u8::is_ascii_whitespace));
    Ok(seeds::sized(out, seeds::shrink_lines))
}

/// `read_bibtex` on one text.
pub(super) fn bibtex(input: &[u8]) -> Checked {
    library(input, LibraryFormat::Bibtex)
}

/// Zotero's CSL-JSON exports (Better BibTeX's fixtures) and the CSL-JSON of commonmeta's.
pub(super) fn csl_json_seeds(data: &Path) -> Seeds {
    let mut out = seeds::tar_entries(
        &data.join("import-exports/zotero-better-bibtex/export_csl_json.tar.gz"),
        ".csl.json",
    )?;
    for file in seeds::files(&data.join("commonmeta-recorded/fixtures"), &[".json"])? {
        out.push(Seed::new(seeds::relative(data, &file), seeds::read(&file)?));
    }
    Ok(seeds::sized(out, seeds::shrink_json))
}

/// `read_csl_json` on one text.
pub(super) fn csl_json(input: &[u8]) -> Checked {
    library(input, LibraryFormat::CslJson)
}

/// MEDLINE text: metaknowledge's 175 records and JabRef's `.nbib` and MEDLINE fixtures.
pub(super) fn medline_seeds(data: &Path) -> Seeds {
    let file = data.join("import-exports/metaknowledge/medline_test.medline.gz");
    let mut out = vec![Seed::new(seeds::relative(data, &file), seeds::read(&file)?)];
    let jabref = data.join("import-exports/jabref/jabref-test-resources.tar.gz");
    out.extend(seeds::tar_entries(&jabref, ".nbib")?);
    out.extend(
        seeds::tar_entries(&jabref, ".txt")?
            .into_iter()
            .filter(|seed| seed.origin.contains("Medline")),
    );
    Ok(seeds::sized(out, seeds::shrink_lines))
}

/// `read_medline` on one text.
pub(super) fn medline(input: &[u8]) -> Checked {
    library(input, LibraryFormat::Medline)
}

/// Web of Science plain-text exports: metaknowledge's, the corrupted one among them, and
/// JabRef's ISI fixtures.
pub(super) fn wos_seeds(data: &Path) -> Seeds {
    let folder = data.join("import-exports/metaknowledge");
    let mut out = Vec::new();
    for name in [
        "savedrecs.txt",
        "testFile.isi",
        "badFile.isi",
        "OnePaper.isi",
        "TwoPaper.isi",
        "ManyAuthors.isi.gz",
    ] {
        let file = folder.join(name);
        out.push(Seed::new(seeds::relative(data, &file), seeds::read(&file)?));
    }
    out.extend(seeds::tar_entries(
        &data.join("import-exports/jabref/jabref-test-resources.tar.gz"),
        ".isi",
    )?);
    Ok(seeds::sized(out, seeds::shrink_lines))
}

/// `read_wos` on one text.
pub(super) fn wos(input: &[u8]) -> Checked {
    library(input, LibraryFormat::WebOfScience)
}

/// Database exports as tables: Scopus, IEEE Xplore, SpringerLink, Embase and ASReview's.
pub(super) fn table_seeds(data: &Path) -> Seeds {
    let folder = data.join("import-exports");
    let mut out = Vec::new();
    for name in [
        "litstudy/scopus.csv",
        "litstudy/ieee.csv",
        "litstudy/springer.csv",
        "metaknowledge/scopus_testing.csv.scopus.gz",
        "asreview-demo-data/embase.csv",
        "asreview-demo-data/generic_semicolon.csv",
        "asreview-demo-data/generic_tab.tab",
        "asreview-demo-data/generic_labels.csv",
    ] {
        let file = folder.join(name);
        out.push(Seed::new(seeds::relative(data, &file), seeds::read(&file)?));
    }
    Ok(seeds::sized(out, seeds::shrink_lines))
}

/// `read_table` on one text.
pub(super) fn table(input: &[u8]) -> Checked {
    library(input, LibraryFormat::Table)
}

/// The first rows of every SYNERGY labels file, and the v2 id lists.
pub(super) fn label_seeds(data: &Path) -> Seeds {
    let mut out = Vec::new();
    for folder in ["synergy/labels", "synergy/v2_ids"] {
        for file in seeds::files(&data.join(folder), &[".csv.gz"])? {
            out.push(Seed::new(
                seeds::relative(data, &file),
                seeds::shrink_lines(seeds::read(&file)?),
            ));
        }
    }
    Ok(seeds::sized(out, seeds::shrink_lines))
}

/// `read_labels` on one file: every id it returns reads back.
pub(super) fn labels(input: &[u8]) -> Checked {
    with_file("labels.csv", input, |path| {
        if let Ok(labels) = litrev::bench::read_labels(path) {
            labels.keys().try_for_each(check::id_round_trip)?;
        }
        Ok(())
    })
}

/// The first rows of every title/abstract screening CSV: SYNERGY's PTSD set, the nine
/// screening-csv sets, ASReview's generic CSVs.
pub(super) fn labelled_csv_seeds(data: &Path) -> Seeds {
    let mut out = Vec::new();
    let mut paths = seeds::files(&data.join("screening-csv"), &[".csv.gz"])?;
    paths.push(data.join("synergy/built_csv_from_asreview_makita/van_de_Schoot_2018.csv.gz"));
    paths.extend(seeds::files(
        &data.join("import-exports/asreview-demo-data"),
        &[".csv", ".tsv", ".tab"],
    )?);
    for file in paths {
        out.push(Seed::new(
            seeds::relative(data, &file),
            seeds::shrink_lines(seeds::read(&file)?),
        ));
    }
    Ok(seeds::sized(out, seeds::shrink_lines))
}

/// `read_labelled_csv` on one file: one text, label and id per row.
pub(super) fn labelled_csv(input: &[u8]) -> Checked {
    with_file("labelled.csv", input, |path| {
        if let Ok(records) = litrev::bench::read_labelled_csv(path)
            && (records.texts.len() != records.labels.len()
                || records.ids.len() != records.labels.len())
        {
            return Err(format!(
                "{} texts, {} labels, {} ids",
                records.texts.len(),
                records.labels.len(),
                records.ids.len()
            ));
        }
        Ok(())
    })
}

/// PDFs printed from the shared PMC articles (`scripts/make-test-pdfs.sh`; the two smallest
/// keep cases fast), and the hostile shapes the mutations make.
pub(super) fn pdf_seeds(_data: &Path) -> Seeds {
    let folder =
        litrev_testkit::test_pdfs().ok_or("no test PDFs: run scripts/make-test-pdfs.sh")?;
    let mut files = seeds::files(&folder, &[".pdf"])?;
    files.sort_by_key(|file| {
        std::fs::metadata(file)
            .map(|meta| meta.len())
            .unwrap_or(u64::MAX)
    });
    let mut out = Vec::new();
    for file in files.iter().take(2) {
        out.push(Seed::new(file.display().to_string(), seeds::read(file)?));
    }
    Ok(out)
}

/// The PDF reader on one file, under short limits: a text it returns reads back through its
/// locators, pages ascend, and the study card made from it is verbatim; a refusal says why.
pub(super) fn pdf(input: &[u8]) -> Checked {
    let limits = litrev_fulltext::PdfLimits {
        timeout: std::time::Duration::from_secs(2),
        ..litrev_fulltext::PdfLimits::default()
    };
    let text = match litrev_fulltext::read_pdf(input.to_vec(), limits) {
        Ok(text) => text,
        Err(error) if error.to_string().trim().is_empty() => {
            return Err("a refusal without a reason".into());
        }
        Err(_) => return Ok(()),
    };
    let mut last_page = 0;
    for section in &text.sections {
        let page = section.page.ok_or("a PDF section without its page")?;
        if page < last_page {
            return Err(format!("page {page} after page {last_page}"));
        }
        last_page = page;
    }
    for (section, paragraph, body) in text.paragraphs() {
        let whole = litrev_model::Locator {
            section,
            paragraph,
            start: 0,
            end: body.len(),
        };
        if body.trim().is_empty() || text.span(&whole) != Some(body) {
            return Err(format!(
                "paragraph {section}.{paragraph} does not read back"
            ));
        }
    }
    let work = litrev_model::WorkId::Pmid("1".parse().map_err(|_| "a pmid")?);
    let card = litrev_extract::study_card(&work, "sha", &text);
    litrev_extract::verify(&card, &text)
}
