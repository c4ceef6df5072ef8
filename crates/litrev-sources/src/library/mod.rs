//! Imported libraries: the files reviewers bring, read into works and, where the file carries
//! them, screening labels. RIS (ASReview, Rayyan, Scopus, Web of Science, Ovid, EndNote,
//! Zotero…), BibTeX and BibLaTeX (JabRef, Zotero, Mendeley, Google Scholar), CSL-JSON (Zotero,
//! pandoc), MEDLINE text (PubMed's `.nbib`), PubMed XML, Web of Science's plain text and
//! tables (Scopus CSV, IEEE Xplore, SpringerLink, ASReview); [`LibraryFormat::detect`] tells
//! them apart by their content, whatever the file is called, and [`decode`] reads their bytes
//! whatever their encoding.

mod bibtex;
mod csl_json;
mod medline;
mod ris;
mod table;
mod wos;

use std::path::Path;

use litrev_model::{WorkId, WorkIds};

pub use bibtex::read_bibtex;
pub use csl_json::read_csl_json;
pub use medline::read_medline;
pub use ris::{LabelledWork, UNNAMED_RECORD, read_ris};
pub use table::read_table;
pub use wos::read_wos;

use crate::error::Issue;
use crate::markup::inline_to_text;

/// The formats of library files litrev reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LibraryFormat {
    /// RIS (`TY  - JOUR` … `ER  -`).
    Ris,
    /// BibTeX or BibLaTeX (`@article{key, …}`).
    Bibtex,
    /// CSL-JSON (`[{"type": …, "title": …}]`).
    CslJson,
    /// MEDLINE text (`PMID- …`), PubMed's `.nbib`.
    Medline,
    /// PubMed XML (`<PubmedArticleSet>`), efetch's and PubMed's own XML export.
    PubmedXml,
    /// Web of Science's plain text (`FN … Web of Science`, `PT J` … `ER`).
    WebOfScience,
    /// A table with a title column (Scopus CSV, IEEE Xplore, SpringerLink, ASReview…).
    Table,
}

impl LibraryFormat {
    /// Every format, in the order [`LibraryFormat::detect`] tries them.
    pub const ALL: [LibraryFormat; 7] = [
        LibraryFormat::CslJson,
        LibraryFormat::PubmedXml,
        LibraryFormat::Ris,
        LibraryFormat::Medline,
        LibraryFormat::WebOfScience,
        LibraryFormat::Table,
        LibraryFormat::Bibtex,
    ];

    /// The format's name, as messages give it.
    pub fn name(self) -> &'static str {
        match self {
            LibraryFormat::Ris => "RIS",
            LibraryFormat::Bibtex => "BibTeX",
            LibraryFormat::CslJson => "CSL-JSON",
            LibraryFormat::Medline => "MEDLINE",
            LibraryFormat::PubmedXml => "PubMed XML",
            LibraryFormat::WebOfScience => "Web of Science",
            LibraryFormat::Table => "table",
        }
    }

    /// The name a review gives an export of this format whose text opens with `head`: the
    /// database that wrote a table when its header tells (`Scopus CSV`, `IEEE Xplore CSV`,
    /// `SpringerLink CSV`, `Embase CSV`), else the format's [`LibraryFormat::name`].
    pub fn exporter(self, head: &str) -> &'static str {
        if self != LibraryFormat::Table {
            return self.name();
        }
        let header = head.lines().next().unwrap_or("");
        let has = |column: &str| header.contains(column);
        if has("Source title") && (has("EID") || has("Link")) {
            "Scopus CSV"
        } else if has("Document Title") && has("IEEE Terms") {
            "IEEE Xplore CSV"
        } else if has("Item Title") && has("Publication Title") {
            "SpringerLink CSV"
        } else if has("Emtree") {
            "Embase CSV"
        } else {
            self.name()
        }
    }

    /// The format a text is written in, from its content: JSON opens with a bracket, PubMed
    /// XML names its root, RIS, MEDLINE and Web of Science open with their tags (`TY  -`,
    /// `PMID-`, `FN`/`PT`), a table with a header naming a title column, BibTeX has a line
    /// opening on `@` and an entry type. `None` for anything else.
    pub fn detect(text: &str) -> Option<LibraryFormat> {
        let text = text.trim_start_matches('\u{feff}');
        let start = text.trim_start();
        if start.starts_with('[') || start.starts_with('{') {
            return Some(LibraryFormat::CslJson);
        }
        if start.starts_with('<') {
            let mut end = text.len().min(4096);
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            let head = &text[..end];
            return ["<PubmedArticleSet", "<PubmedArticle", "<MedlineCitationSet"]
                .iter()
                .any(|root| head.contains(root))
                .then_some(LibraryFormat::PubmedXml);
        }
        // Ovid numbers its records on lines of their own ("1.") before their tags.
        let first_tagged = text.lines().find(|line| {
            let line = line.trim();
            !line.is_empty()
                && !line.strip_suffix('.').is_some_and(|number| {
                    !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit())
                })
        });
        if first_tagged.is_some_and(|line| ris::opens_record(line.trim_end())) {
            return Some(LibraryFormat::Ris);
        }
        if first_tagged
            .and_then(|line| medline::tagged(line.trim_end()))
            .is_some_and(|(tag, _)| tag == "PMID")
        {
            return Some(LibraryFormat::Medline);
        }
        if first_tagged.is_some_and(wos::opens_export) {
            return Some(LibraryFormat::WebOfScience);
        }
        if first_tagged.is_some_and(table::has_title_column) {
            return Some(LibraryFormat::Table);
        }
        let bibtex_entry = text.lines().any(|line| {
            let rest = line.trim_start().strip_prefix('@').unwrap_or("");
            let kind_end = rest
                .find(|c: char| !c.is_ascii_alphabetic())
                .unwrap_or(rest.len());
            kind_end > 0 && rest[kind_end..].trim_start().starts_with(['{', '('])
        });
        bibtex_entry.then_some(LibraryFormat::Bibtex)
    }

    /// Reads a text of this format; titles and abstracts come out as plain text (Scopus
    /// writes `YBa<inf>2</inf>Cu<inf>3</inf>O`, RIS and tables carry entities).
    pub fn read(self, text: &str, source: &Path) -> (Vec<LabelledWork>, Vec<Issue>) {
        let (mut records, issues) = self.read_as_written(text, source);
        for record in &mut records {
            let work = &mut record.work;
            for field in [&mut work.title, &mut work.abstract_text] {
                if let Some(value) = field.as_mut()
                    && value.contains(['<', '&', '\\'])
                {
                    *value = inline_to_text(value);
                }
            }
        }
        (records, issues)
    }

    fn read_as_written(self, text: &str, source: &Path) -> (Vec<LabelledWork>, Vec<Issue>) {
        match self {
            LibraryFormat::Ris => read_ris(text, source),
            LibraryFormat::Bibtex => read_bibtex(text, source),
            LibraryFormat::CslJson => read_csl_json(text, source),
            LibraryFormat::Medline => read_medline(text, source),
            LibraryFormat::PubmedXml => read_pubmed_xml(text, source),
            LibraryFormat::WebOfScience => read_wos(text, source),
            LibraryFormat::Table => read_table(text, source),
        }
    }
}

/// The articles of a PubMed XML export, as works; a text the reader refuses gives one issue.
fn read_pubmed_xml(text: &str, source: &Path) -> (Vec<LabelledWork>, Vec<Issue>) {
    match crate::pubmed::parse_efetch(text) {
        Ok(page) => {
            let issues = (page.skipped > 0)
                .then(|| Issue {
                    path: source.to_owned(),
                    line: 1,
                    message: format!("{} articles without a PMID were skipped", page.skipped),
                })
                .into_iter()
                .collect();
            let records = page
                .works
                .into_iter()
                .map(|work| LabelledWork { work, label: None })
                .collect();
            (records, issues)
        }
        Err(error) => (
            Vec::new(),
            vec![Issue {
                path: source.to_owned(),
                line: 1,
                message: format!("this PubMed XML cannot be read ({error})"),
            }],
        ),
    }
}

/// A library file's text, whatever its encoding: a byte-order mark names it (UTF-8, UTF-16),
/// else UTF-8 when the bytes are valid UTF-8, UTF-16 when every other byte of the opening is
/// NUL, else Windows-1252 (JabRef's and EndNote's older files); line ends (`\r\n`, old
/// Macintosh `\r`) become `\n`. Returns the text and the encoding's name.
pub fn decode(bytes: &[u8]) -> (String, &'static str) {
    use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};
    let (text, encoding): (std::borrow::Cow<str>, &'static Encoding) =
        if let Some((encoding, bom)) = Encoding::for_bom(bytes) {
            let rest = bytes.get(bom..).unwrap_or_default();
            (encoding.decode_without_bom_handling(rest).0, encoding)
        } else if let Ok(text) = std::str::from_utf8(bytes) {
            (text.into(), UTF_8)
        } else {
            let head = &bytes[..bytes.len().min(2048)];
            let nul_at = |parity: usize| {
                head.iter()
                    .enumerate()
                    .filter(|(at, byte)| at % 2 == parity && **byte == 0)
                    .count()
            };
            let pairs = head.len() / 2;
            let encoding = if pairs > 0 && nul_at(0) * 10 >= pairs * 3 {
                UTF_16BE
            } else if pairs > 0 && nul_at(1) * 10 >= pairs * 3 {
                UTF_16LE
            } else {
                WINDOWS_1252
            };
            (encoding.decode_without_bom_handling(bytes).0, encoding)
        };
    let text = if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text.into_owned()
    };
    (text, encoding.name())
}

/// What a reader keeps of a file: its records, and the issues it reports.
struct Reading<'a> {
    source: &'a Path,
    records: Vec<LabelledWork>,
    issues: Vec<Issue>,
}

impl<'a> Reading<'a> {
    fn new(source: &'a Path) -> Reading<'a> {
        Reading {
            source,
            records: Vec::new(),
            issues: Vec::new(),
        }
    }

    /// Keeps a record, or reports at `line` one with neither a title nor an id.
    fn push(&mut self, record: Option<LabelledWork>, line: usize) {
        match record {
            Some(record) => self.records.push(record),
            None => self.report(line, UNNAMED_RECORD.to_owned()),
        }
    }

    /// Reports an issue at `line`.
    fn report(&mut self, line: usize, message: String) {
        self.issues.push(Issue {
            path: self.source.to_owned(),
            line,
            message,
        });
    }

    fn done(self) -> (Vec<LabelledWork>, Vec<Issue>) {
        (self.records, self.issues)
    }
}

/// The non-empty values of a tag among a record's fields (`(tag, value)` in file order), as
/// RIS and MEDLINE records hold them.
fn tag_values<'a>(fields: &'a [(String, String)], tag: &str) -> Vec<&'a str> {
    fields
        .iter()
        .filter(|(field, value)| field == tag && !value.is_empty())
        .map(|(_, value)| value.as_str())
        .collect()
}

/// The terms of a list (`cats; dogs`, `a, b`), split at any of `separators`, trimmed, the
/// empty ones dropped.
fn terms(list: &str, separators: &[char]) -> Vec<String> {
    list.split(separators)
        .map(str::trim)
        .filter(|term| !term.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Adds to `ids` each value that names a work (a DOI, a PMID, an arXiv id, a web address…);
/// values that name none are passed over.
fn add_ids<'a>(ids: &mut WorkIds, values: impl IntoIterator<Item = &'a str>) {
    for value in values {
        if let Ok(id) = value.parse::<WorkId>() {
            ids.add(id);
        }
    }
}

/// The first plausible year of publication (1000–2999) a date names: `2017 Aug 31`,
/// `2017-08-31`, `Summer 2017`, `2011///`.
pub(crate) fn first_year(date: &str) -> Option<i32> {
    let bytes = date.as_bytes();
    (0..bytes.len().saturating_sub(3)).find_map(|at| {
        let run = bytes.get(at..at + 4)?;
        let bounded = (at == 0 || !bytes[at - 1].is_ascii_digit())
            && bytes.get(at + 4).is_none_or(|next| !next.is_ascii_digit());
        if !bounded || !run.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(run)
            .ok()?
            .parse::<i32>()
            .ok()
            .filter(|year| (1000..=2999).contains(year))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_told_by_content() {
        let cases = [
            (
                "1.\nTY  - JOUR\nT1  - Ovid numbers its records\nER  - \n",
                Some(LibraryFormat::Ris),
            ),
            (
                "\u{feff}TY  - JOUR\nTI  - x\nER  - \n",
                Some(LibraryFormat::Ris),
            ),
            ("1. TY  - JOUR\n", Some(LibraryFormat::Ris)),
            ("PMID- 123\nTI  - x\n", Some(LibraryFormat::Medline)),
            (
                "% JabRef\n\n@Article{a,\n title={x}}\n",
                Some(LibraryFormat::Bibtex),
            ),
            (
                "@comment{x}\n@book (b, title = \"y\")",
                Some(LibraryFormat::Bibtex),
            ),
            ("  [{\"type\": \"book\"}]", Some(LibraryFormat::CslJson)),
            (
                "<?xml version=\"1.0\"?>\n<PubmedArticleSet>",
                Some(LibraryFormat::PubmedXml),
            ),
            ("<html><body>", None),
            ("title,abstract\nx,y\n", Some(LibraryFormat::Table)),
            ("abstract;doi\nx;y\n", None),
            (
                "FN Clarivate Analytics Web of Science\nVR 1.0\nPT J\n",
                Some(LibraryFormat::WebOfScience),
            ),
            ("write to me @ home", None),
            ("", None),
        ];
        for (text, format) in cases {
            assert_eq!(LibraryFormat::detect(text), format, "{text:?}");
        }
    }

    #[test]
    fn bytes_are_decoded_whatever_their_encoding_and_line_ends() {
        let ris = "TY  - JOUR\rTI  - Über\rER  - \r";
        let le: Vec<u8> = ris.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let (text, encoding) = decode(&le);
        assert_eq!(
            (text.as_str(), encoding),
            ("TY  - JOUR\nTI  - Über\nER  - \n", "UTF-16LE")
        );
        let (records, _) = read_ris(&text, Path::new("mac.ris"));
        assert_eq!(records[0].work.title.as_deref(), Some("Über"));
        let (text, encoding) = decode(b"TI  - caf\xe9\r\n");
        assert_eq!((text.as_str(), encoding), ("TI  - café\n", "windows-1252"));
        let (text, encoding) = decode("\u{feff}TI  - café".as_bytes());
        assert_eq!((text.as_str(), encoding), ("TI  - café", "UTF-8"));
    }

    #[test]
    fn years_are_found_whole() {
        assert_eq!(first_year("2017 Aug 31"), Some(2017));
        assert_eq!(first_year("Summer 2017"), Some(2017));
        assert_eq!(first_year("2011///"), Some(2011));
        assert_eq!(first_year("12345"), None);
        assert_eq!(first_year("vol 0999, 2003"), Some(2003));
        assert_eq!(first_year("[1994?]"), Some(1994));
        assert_eq!(first_year("October 1, 1988"), Some(1988));
        assert_eq!(first_year("19"), None);
        assert_eq!(first_year("é2019é"), Some(2019));
    }
}

#[cfg(test)]
mod real_exports {
    use std::io::Read;

    use flate2::read::GzDecoder;

    use super::*;

    /// Every text file of a gzipped tarball, by name.
    fn tar_texts(path: &Path) -> Vec<(String, String)> {
        let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut archive = tar::Archive::new(GzDecoder::new(file));
        let mut texts = Vec::new();
        for entry in archive.entries().expect("tar entries") {
            let mut entry = entry.expect("tar entry");
            let name = entry.path().expect("entry path").display().to_string();
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).expect("tar bytes");
            if let Ok(text) = String::from_utf8(bytes) {
                texts.push((name, text));
            }
        }
        texts
    }

    /// The entries a BibTeX text holds, counted apart from the reader: blocks opening on `@`
    /// that are no `@string`, `@preamble` or `@comment`.
    fn bibtex_entries(text: &str) -> usize {
        text.lines()
            .filter_map(|line| line.trim_start().strip_prefix('@'))
            .map(|rest| {
                rest.chars()
                    .take_while(char::is_ascii_alphabetic)
                    .collect::<String>()
                    .to_ascii_lowercase()
            })
            .filter(|kind| {
                !kind.is_empty() && !matches!(kind.as_str(), "string" | "preamble" | "comment")
            })
            .count()
    }

    /// Better BibTeX's fixtures (about 16,500 BibTeX and BibLaTeX entries of real libraries,
    /// and Zotero's CSL-JSON exports): every non-empty file is told by its content, and every
    /// entry is either read or reported, never lost silently; no more than one in fifty is
    /// unreadable (the rest of those reported have neither a title nor an id).
    #[test]
    fn real_bibtex_and_csl_json_exports_are_read_whole() {
        let Some(data) = litrev_testkit::testdata() else {
            return;
        };
        let folder = data.join("import-exports/zotero-better-bibtex");
        for (tarball, format) in [
            ("export_bibtex", LibraryFormat::Bibtex),
            ("export_biblatex", LibraryFormat::Bibtex),
            ("import_bib", LibraryFormat::Bibtex),
            ("export_csl_json", LibraryFormat::CslJson),
        ] {
            let (mut files, mut entries, mut unreadable) = (0, 0, 0);
            for (name, text) in tar_texts(&folder.join(format!("{tarball}.tar.gz"))) {
                if text.trim().is_empty() {
                    continue;
                }
                assert_eq!(LibraryFormat::detect(&text), Some(format), "{name}");
                files += 1;
                let (read, reported) = format.read(&text, Path::new(&name));
                let expected = match format {
                    LibraryFormat::Bibtex => bibtex_entries(&text),
                    _ => serde_json::from_str::<serde_json::Value>(&text)
                        .ok()
                        .and_then(|value| value.as_array().map(Vec::len))
                        .unwrap_or(0),
                };
                assert_eq!(read.len() + reported.len(), expected, "{name}");
                assert!(
                    read.iter()
                        .all(|record| record.work.title.is_some()
                            || record.work.ids.primary().is_some()),
                    "{name}"
                );
                entries += expected;
                unreadable += reported
                    .iter()
                    .filter(|issue| issue.message != UNNAMED_RECORD)
                    .count();
            }
            assert!(files > 20, "{tarball}: {files} files");
            assert!(
                unreadable * 50 <= entries,
                "{tarball}: {unreadable} of {entries} entries unreadable"
            );
        }
    }

    /// JabRef's encoding fixtures (UTF-8 with and without a header, UTF-16 big-endian with and
    /// without a byte-order mark and with old Macintosh line ends, Windows-1252 declared as
    /// such or as UTF-8): each decodes to the same entry as the UTF-8 file.
    #[test]
    fn real_files_in_other_encodings_are_decoded() {
        let Some(data) = litrev_testkit::testdata() else {
            return;
        };
        let files: Vec<(String, Vec<u8>)> = {
            let file = std::fs::File::open(
                data.join("import-exports/jabref/jabref-test-resources.tar.gz"),
            )
            .expect("jabref");
            let mut archive = tar::Archive::new(GzDecoder::new(file));
            let mut files = Vec::new();
            for entry in archive.entries().expect("entries") {
                let mut entry = entry.expect("entry");
                let name = entry.path().expect("path").display().to_string();
                if name.contains("/encoding-") {
                    let mut bytes = Vec::new();
                    entry.read_to_end(&mut bytes).expect("bytes");
                    files.push((name, bytes));
                }
            }
            files
        };
        assert_eq!(files.len(), 10);
        for (name, bytes) in &files {
            let (text, encoding) = decode(bytes);
            if name.contains("windows-1252") {
                // Their one entry has no title (an abstract or an author alone): the text is
                // what is checked.
                assert_eq!(encoding, "windows-1252", "{name}");
                assert!(
                    text.contains("25° C") || text.contains("Test\u{a0}I. Last"),
                    "{name}: {text}"
                );
                continue;
            }
            let (records, issues) = read_bibtex(&text, Path::new(name));
            assert_eq!(records.len(), 1, "{name} ({encoding}): {issues:?}");
            let title = if name.contains("us-ascii") {
                "testtitle"
            } else {
                "Ü ist ein Umlaut"
            };
            assert_eq!(
                records[0].work.title.as_deref(),
                Some(title),
                "{name} ({encoding})"
            );
        }
    }

    /// PubMed's own exports: MEDLINE text (metaknowledge's 175 records, JabRef's `.nbib`
    /// fixtures) and PubMed XML (ASReview's 10 articles), each record with its PMID.
    #[test]
    fn real_medline_and_pubmed_exports_are_read() {
        let Some(data) = litrev_testkit::testdata() else {
            return;
        };
        let folder = data.join("import-exports");
        let mut medline = String::new();
        GzDecoder::new(
            std::fs::File::open(folder.join("metaknowledge/medline_test.medline.gz"))
                .expect("medline_test"),
        )
        .read_to_string(&mut medline)
        .expect("medline text");
        assert_eq!(
            LibraryFormat::detect(&medline),
            Some(LibraryFormat::Medline)
        );
        let records_in_text = medline
            .lines()
            .filter(|line| line.starts_with("PMID-"))
            .count();
        let (records, issues) = read_medline(&medline, Path::new("medline_test.medline"));
        assert!(issues.is_empty(), "{issues:?}");
        assert_eq!(records.len(), records_in_text);
        assert_eq!(records.len(), 175);
        assert!(records.iter().all(|record| record.work.ids.pmid.is_some()));
        let titled = records
            .iter()
            .filter(|record| record.work.title.is_some())
            .count();
        let abstracts = records
            .iter()
            .filter(|record| record.work.abstract_text.is_some())
            .count();
        assert!(
            titled == 175 && abstracts > 100,
            "{titled} titled, {abstracts} abstracts"
        );

        let nbib: Vec<(String, String)> =
            tar_texts(&folder.join("jabref/jabref-test-resources.tar.gz"))
                .into_iter()
                .filter(|(name, _)| name.ends_with(".nbib"))
                .collect();
        assert!(!nbib.is_empty());
        for (name, text) in &nbib {
            assert_eq!(
                LibraryFormat::detect(text),
                Some(LibraryFormat::Medline),
                "{name}"
            );
            let (records, _) = read_medline(text, Path::new(name));
            assert_eq!(
                records.len(),
                text.lines()
                    .filter(|line| line.starts_with("PMID-"))
                    .count(),
                "{name}"
            );
        }

        let xml = std::fs::read_to_string(folder.join("asreview-demo-data/pubmed.xml"))
            .expect("pubmed.xml");
        assert_eq!(LibraryFormat::detect(&xml), Some(LibraryFormat::PubmedXml));
        let (records, issues) = LibraryFormat::PubmedXml.read(&xml, Path::new("pubmed.xml"));
        assert!(issues.is_empty(), "{issues:?}");
        assert_eq!(records.len(), 10);
        assert!(
            records
                .iter()
                .all(|record| record.work.ids.pmid.is_some() && record.work.title.is_some())
        );
    }
}

#[cfg(test)]
mod real_tables_and_wos {
    use std::io::Read;

    use flate2::read::GzDecoder;

    use super::*;

    fn read_text(path: &Path) -> String {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut text = String::new();
        if path.extension().is_some_and(|ext| ext == "gz") {
            GzDecoder::new(bytes.as_slice())
                .read_to_string(&mut text)
                .expect("gzipped text");
        } else {
            text = String::from_utf8_lossy(&bytes).into_owned();
        }
        text
    }

    /// Web of Science plain-text exports (metaknowledge's, as SOURCE.md counts them): each
    /// record read with its title, authors and the DOIs of its cited references; the
    /// corrupted copy loses records, not the reading.
    #[test]
    fn real_web_of_science_exports_are_read() {
        let Some(data) = litrev_testkit::testdata() else {
            return;
        };
        let folder = data.join("import-exports/metaknowledge");
        for (file, count) in [
            ("savedrecs.txt", 32),
            ("testFile.isi", 34),
            ("ManyAuthors.isi.gz", 500),
        ] {
            let text = read_text(&folder.join(file));
            assert_eq!(
                LibraryFormat::detect(&text),
                Some(LibraryFormat::WebOfScience),
                "{file}"
            );
            let (records, issues) = read_wos(&text, Path::new(file));
            assert_eq!(records.len(), count, "{file}: {issues:?}");
            assert_eq!(
                records.len(),
                text.lines().filter(|line| line.starts_with("ER")).count(),
                "{file}"
            );
            assert!(
                records
                    .iter()
                    .all(|record| record.work.title.is_some() && !record.work.authors.is_empty()),
                "{file}"
            );
        }
        let text = read_text(&folder.join("savedrecs.txt"));
        let (records, _) = read_wos(&text, Path::new("savedrecs.txt"));
        let cited: usize = records
            .iter()
            .map(|record| record.work.references.len())
            .sum();
        let named = text.matches("DOI ").count();
        assert!(cited >= named * 9 / 10 && cited > 100, "{cited} of {named}");
        let bad = read_text(&folder.join("badFile.isi"));
        let (records, _) = read_wos(&bad, Path::new("badFile.isi"));
        // The corrupted file ends without its `EF` line: every record it closes is still read.
        let closed = bad.lines().filter(|line| line.trim_end() == "ER").count();
        assert!(closed > 0 && !bad.lines().any(|line| line.trim_end() == "EF"));
        assert_eq!(records.len(), closed, "badFile.isi");
        assert!(
            records.iter().all(|record| record.work.title.is_some()),
            "badFile.isi"
        );
    }

    /// Tables as databases export them (litstudy's Scopus, IEEE Xplore and SpringerLink
    /// exports, metaknowledge's Scopus CSV, ASReview's Embase and generic tables): every row
    /// read, with its title, and every DOI of the DOI column.
    #[test]
    fn real_table_exports_are_read() {
        let Some(data) = litrev_testkit::testdata() else {
            return;
        };
        let folder = data.join("import-exports");
        // Rows, and rows with a DOI, as Python's csv module counts them.
        for (file, count, dois) in [
            ("litstudy/scopus.csv", 58, Some(44)),
            ("litstudy/ieee.csv", 10, Some(10)),
            ("litstudy/springer.csv", 18, Some(18)),
            ("litstudy/notebook_data/springer.csv.gz", 1000, Some(1000)),
            ("metaknowledge/scopus_testing.csv.scopus.gz", 220, Some(160)),
            ("asreview-demo-data/embase.csv", 6, None),
            ("asreview-demo-data/generic_semicolon.csv", 2, None),
            ("asreview-demo-data/generic_tab.tab", 2, None),
        ] {
            let text = read_text(&folder.join(file));
            assert_eq!(
                LibraryFormat::detect(&text),
                Some(LibraryFormat::Table),
                "{file}"
            );
            let (records, issues) = read_table(&text, Path::new(file));
            assert_eq!(records.len(), count, "{file}: {issues:?}");
            let titled = records
                .iter()
                .filter(|record| record.work.title.is_some())
                .count();
            assert_eq!(titled, count, "{file}");
            if let Some(dois) = dois {
                let read = records
                    .iter()
                    .filter(|record| record.work.ids.doi.is_some())
                    .count();
                assert_eq!(read, dois, "{file}");
            }
        }

        // A review names the database that wrote the table.
        for (file, exporter) in [
            ("litstudy/scopus.csv", "Scopus CSV"),
            ("metaknowledge/scopus_testing.csv.scopus.gz", "Scopus CSV"),
            ("litstudy/notebook_data/ieee_1.csv.gz", "IEEE Xplore CSV"),
            ("litstudy/springer.csv", "SpringerLink CSV"),
            ("asreview-demo-data/embase.csv", "Embase CSV"),
            ("asreview-demo-data/generic_tab.tab", "table"),
        ] {
            let text = read_text(&folder.join(file));
            assert_eq!(LibraryFormat::Table.exporter(&text), exporter, "{file}");
        }

        // Authors as each export lists them, and titles without Scopus's subscript tags.
        let read = |file: &str| {
            let text = read_text(&folder.join(file));
            LibraryFormat::Table.read(&text, Path::new(file)).0
        };
        let names = |record: &LabelledWork| -> Vec<String> {
            record.work.authors.iter().map(|a| a.name.clone()).collect()
        };
        let scopus = read("metaknowledge/scopus_testing.csv.scopus.gz");
        assert_eq!(names(&scopus[0]).len(), 11, "{:?}", names(&scopus[0]));
        assert_eq!(names(&scopus[0])[0], "Yagai T.");
        let ybco = scopus
            .iter()
            .filter_map(|record| record.work.title.as_deref())
            .find(|title| title.starts_with("A Novel Partial Melting Process"))
            .expect("the YBCO title");
        assert!(ybco.contains("YBa2Cu3O7") && !ybco.contains('<'), "{ybco}");
        let springer = read("litstudy/notebook_data/springer.csv.gz");
        assert_eq!(
            names(&springer[0]),
            [
                "Vivek K. Pallipuram",
                "Mohammad Bhuiyan",
                "Melissa C. Smith"
            ]
        );
    }
}
