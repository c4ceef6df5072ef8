//! BibTeX and BibLaTeX, as JabRef, Zotero (Better BibTeX), Mendeley and Google Scholar export
//! them, read with the `biblatex` crate (`@string` abbreviations, `crossref` inheritance, LaTeX
//! accents and commands). A file one bad entry (an unclosed brace, a repeated key) would refuse
//! as a whole is read again entry by entry, so the bad entry alone is skipped and reported.

use std::path::Path;

use std::collections::HashMap;

use biblatex::{Bibliography, ChunksExt, Entry, RawBibliography, RawChunk};
use litrev_model::{Author, Biblio, Work, WorkIds, WorkKind};

use super::{LabelledWork, Reading, add_ids, first_year, terms};
use crate::error::Issue;

/// Reads every entry of a BibTeX or BibLaTeX text. Entries with neither a title nor an id are
/// skipped and reported, as are entries the parser cannot read; `@string`, `@preamble` and
/// `@comment` blocks (JabRef's groups) are no records.
pub fn read_bibtex(text: &str, source: &Path) -> (Vec<LabelledWork>, Vec<Issue>) {
    let text = text.trim_start_matches('\u{feff}');
    let mut reading = Reading::new(source);
    let entries: Vec<(usize, Entry)> = match parse(text) {
        Ok(bibliography) => {
            let lines = entry_lines(text);
            bibliography
                .into_iter()
                .map(|entry| {
                    let line = lines.get(&entry.key.to_lowercase()).copied().unwrap_or(1);
                    (line, entry)
                })
                .collect()
        }
        Err(_) => entry_by_entry(text, &mut reading),
    };
    for (line, entry) in entries {
        reading.push(record(&entry), line);
    }
    reading.done()
}

/// The blocks of a text, one per `@` that opens a line: its first line (from 1) and its text.
fn blocks(text: &str) -> Vec<(usize, &str)> {
    let mut starts: Vec<(usize, usize)> = Vec::new();
    let mut offset = 0;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        if line.trim_start().starts_with('@') {
            starts.push((index + 1, offset));
        }
        offset += line.len();
    }
    starts
        .iter()
        .enumerate()
        .map(|(at, &(line, start))| {
            let end = starts.get(at + 1).map_or(text.len(), |&(_, next)| next);
            (line, &text[start..end])
        })
        .collect()
}

/// The kind of a block (`article`, `string`), lower case.
fn block_kind(block: &str) -> String {
    block
        .trim_start()
        .trim_start_matches('@')
        .chars()
        .take_while(char::is_ascii_alphabetic)
        .collect::<String>()
        .to_ascii_lowercase()
}

/// Each entry's key (lower case) and the line its block opens on, for the issues of a file
/// read whole.
fn entry_lines(text: &str) -> std::collections::HashMap<String, usize> {
    blocks(text)
        .into_iter()
        .filter_map(|(line, block)| {
            let (_, rest) = block.split_once(['{', '('])?;
            let key = rest.split(',').next()?.trim().to_lowercase();
            Some((key, line))
        })
        .collect()
}

/// The entries of a file the parser refuses whole: each block parsed on its own, after the
/// file's `@string` definitions; a block it still refuses is reported and skipped.
fn entry_by_entry(text: &str, reading: &mut Reading) -> Vec<(usize, Entry)> {
    let blocks = blocks(text);
    let strings: String = blocks
        .iter()
        .filter(|(_, block)| block_kind(block) == "string")
        .filter(|(_, block)| parse(block).is_ok())
        .map(|(_, block)| *block)
        .collect();
    let mut entries = Vec::new();
    for (line, block) in blocks {
        if matches!(
            block_kind(block).as_str(),
            "string" | "preamble" | "comment"
        ) {
            continue;
        }
        let parsed = parse_tolerant(&strings, block).or_else(|error| {
            // BibTeX allows `@article(key, …)`, which the parser does not.
            in_braces(block)
                .and_then(|block| parse_tolerant(&strings, &block).ok())
                .ok_or(error)
        });
        match parsed {
            Ok(bibliography) => entries.extend(bibliography.into_iter().map(|entry| (line, entry))),
            Err(error) => reading.report(
                line,
                format!(
                    "a BibTeX entry that cannot be read ({}) was skipped: check its braces and quotes",
                    error.kind
                ),
            ),
        }
    }
    entries
}

/// Parses a text whose `crossref` and `xdata` links may run in a circle (an entry naming
/// itself as its parent): such links are dropped first, where the parser would follow them
/// until its stack overflows.
fn parse(text: &str) -> Result<Bibliography, biblatex::ParseError> {
    let mut raw = RawBibliography::parse(text)?;
    let parents: HashMap<&str, Vec<&str>> = raw
        .entries
        .iter()
        .map(|entry| {
            let named = entry
                .v
                .fields
                .iter()
                .filter(|pair| is_link(pair.key.v))
                .flat_map(|pair| pair.value.v.iter())
                .flat_map(|chunk| match chunk.v {
                    RawChunk::Normal(text) | RawChunk::Abbreviation(text) => text.split(','),
                })
                .map(str::trim)
                .collect();
            (entry.v.key.v, named)
        })
        .collect();
    for entry in &mut raw.entries {
        if in_circle(entry.v.key.v, &parents) {
            entry.v.fields.retain(|pair| !is_link(pair.key.v));
        }
    }
    Bibliography::from_raw(raw)
}

/// Whether a field links an entry to another (`crossref`, `xdata`).
fn is_link(field: &str) -> bool {
    field.eq_ignore_ascii_case("crossref") || field.eq_ignore_ascii_case("xdata")
}

/// Whether following `key`'s links reaches an entry twice.
fn in_circle(key: &str, parents: &HashMap<&str, Vec<&str>>) -> bool {
    let mut seen = vec![key];
    let mut waiting: Vec<&str> = parents.get(key).cloned().unwrap_or_default();
    while let Some(next) = waiting.pop() {
        if seen.contains(&next) {
            return true;
        }
        seen.push(next);
        waiting.extend(parents.get(next).into_iter().flatten());
    }
    false
}

/// Most abbreviations an entry may use undefined (`journal = AIJ` with no `@string{AIJ = …}`)
/// before it is given up.
const UNDEFINED_ABBREVIATIONS: usize = 8;

/// One entry after the file's `@string` definitions; an abbreviation the file never defines
/// stands for its own name, as BibTeX warns and goes on.
fn parse_tolerant(strings: &str, block: &str) -> Result<Bibliography, biblatex::ParseError> {
    let mut defined = String::new();
    let mut tries = 0;
    loop {
        match parse(&format!("{strings}{defined}{block}")) {
            Err(biblatex::ParseError {
                kind: biblatex::ParseErrorKind::UnknownAbbreviation(name),
                ..
            }) if tries < UNDEFINED_ABBREVIATIONS => {
                defined.push_str(&format!("@string{{{name} = {{{name}}}}}\n"));
                tries += 1;
            }
            parsed => return parsed,
        }
    }
}

/// An entry written `@type( … )` as `@type{ … }`; `None` for one not delimited by parentheses.
fn in_braces(block: &str) -> Option<String> {
    let start = block.find('@')?;
    let kind_end = start
        + 1
        + block[start + 1..]
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(block.len() - start - 1);
    let open = kind_end + (block[kind_end..].len() - block[kind_end..].trim_start().len());
    if !block[open..].starts_with('(') {
        return None;
    }
    let close = block.rfind(')').filter(|&close| close > open)?;
    Some(format!(
        "{}{{{}}}{}",
        &block[..open],
        &block[open + 1..close],
        &block[close + 1..]
    ))
}

/// A field's text, LaTeX read, white space squeezed; `None` when missing or empty.
fn field(entry: &Entry, name: &str) -> Option<String> {
    let text = entry.get(name)?.format_verbatim();
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!text.is_empty()).then_some(text)
}

fn record(entry: &Entry) -> Option<LabelledWork> {
    let mut ids = WorkIds::default();
    let eprint = field(entry, "eprint").map(|eprint| {
        let archive = field(entry, "eprinttype")
            .or_else(|| field(entry, "archiveprefix"))
            .unwrap_or_default();
        if archive.eq_ignore_ascii_case("arxiv") && !eprint.to_ascii_lowercase().contains("arxiv") {
            format!("arXiv:{eprint}")
        } else {
            eprint
        }
    });
    let pmid = field(entry, "pmid").map(|pmid| format!("pmid:{pmid}"));
    let values = [field(entry, "doi"), pmid, field(entry, "pmcid"), eprint]
        .into_iter()
        .flatten()
        .chain(field(entry, "url"));
    add_ids(
        &mut ids,
        values.collect::<Vec<_>>().iter().map(String::as_str),
    );
    let title = field(entry, "title").map(|title| match field(entry, "subtitle") {
        Some(subtitle) => format!("{title}: {subtitle}"),
        None => title,
    });
    if title.is_none() && ids.primary().is_none() {
        return None;
    }
    let authors = entry
        .author()
        .unwrap_or_default()
        .iter()
        .map(|person| {
            person
                .to_string()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|name| !name.is_empty())
        .map(Author::named)
        .collect();
    let dated = field(entry, "date");
    let year = dated
        .as_deref()
        .and_then(first_year)
        .or_else(|| field(entry, "year").as_deref().and_then(first_year));
    let date = dated.filter(|date| {
        date.len() >= 7 && date.as_bytes().get(4) == Some(&b'-') && first_year(date).is_some()
    });
    let kind = kind_of(&entry.entry_type.to_string().to_ascii_lowercase(), &ids);
    let venue = field(entry, "journaltitle")
        .or_else(|| field(entry, "journal"))
        .or_else(|| field(entry, "booktitle"))
        .or_else(|| field(entry, "eventtitle"));
    let publisher = field(entry, "publisher")
        .or_else(|| field(entry, "institution"))
        .or_else(|| field(entry, "school"))
        .or_else(|| field(entry, "organization"));
    let (first_page, last_page) = field(entry, "pages")
        .map(|pages| Biblio::split_pages(&pages))
        .unwrap_or_default();
    let keywords = field(entry, "keywords")
        .map(|keywords| terms(&keywords, &[',', ';']))
        .unwrap_or_default();
    let language = field(entry, "langid")
        .or_else(|| field(entry, "language"))
        .and_then(|language| litrev_model::language_code(&language).map(str::to_owned));
    let work = Work {
        ids,
        title,
        authors,
        year,
        date,
        venue,
        publisher,
        kind,
        biblio: Biblio {
            volume: field(entry, "volume"),
            issue: field(entry, "number").or_else(|| field(entry, "issue")),
            first_page,
            last_page,
        },
        abstract_text: field(entry, "abstract"),
        language,
        keywords,
        ..Work::default()
    };
    Some(LabelledWork { work, label: None })
}

/// The kind of a BibTeX or BibLaTeX entry type; a `@misc` or `@unpublished` entry with an
/// arXiv id is a preprint.
fn kind_of(entry_type: &str, ids: &WorkIds) -> WorkKind {
    match entry_type {
        "article" | "periodical" | "suppperiodical" => WorkKind::Article,
        "inproceedings" | "conference" => WorkKind::ProceedingsArticle,
        "incollection" | "inbook" | "bookinbook" | "suppbook" | "suppcollection" => {
            WorkKind::BookChapter
        }
        "book" | "mvbook" | "collection" | "mvcollection" | "proceedings" | "mvproceedings"
        | "reference" | "mvreference" | "booklet" => WorkKind::Book,
        "phdthesis" | "mastersthesis" | "thesis" => WorkKind::Thesis,
        "techreport" | "report" => WorkKind::Report,
        "online" | "www" | "electronic" => WorkKind::Webpage,
        "dataset" | "data" => WorkKind::Dataset,
        "inreference" => WorkKind::EncyclopediaEntry,
        "unpublished" | "misc" | "preprint" if ids.arxiv.is_some() => WorkKind::Preprint,
        "preprint" => WorkKind::Preprint,
        _ => WorkKind::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::super::UNNAMED_RECORD;
    use super::*;

    fn read(text: &str) -> (Vec<LabelledWork>, Vec<Issue>) {
        read_bibtex(text, Path::new("test.bib"))
    }

    #[test]
    fn reads_fields_strings_and_latex() {
        let text = "% a comment\n@string{nejm = {New England Journal of Medicine}}\n\
            @article{oldenburg2017,\n  title = {Emicizumab {Prophylaxis} in Hemophilia {A} with Inhibitors},\n\
              author = {Oldenburg, Johannes and Mahlangu, Johnny N. and Kim, Benjamin and M{\\\"u}ller, Anna},\n\
              journal = nejm,\n  year = {2017},\n  volume = {377},\n  number = {9},\n  pages = {809--818},\n\
              doi = {10.1056/NEJMoa1703068},\n  keywords = {hemophilia; emicizumab},\n  abstract = {Background. Patients …},\n}\n\
            @misc{smith2020, title = {A preprint}, author = {Smith, Jane}, eprint = {2001.01234}, archivePrefix = {arXiv}, year = 2020}\n";
        let (records, issues) = read(text);
        assert!(issues.is_empty(), "{issues:?}");
        assert_eq!(records.len(), 2);
        let work = &records[0].work;
        assert_eq!(
            work.title.as_deref(),
            Some("Emicizumab Prophylaxis in Hemophilia A with Inhibitors")
        );
        assert_eq!(work.authors.len(), 4);
        assert_eq!(work.authors[1].name, "Johnny N. Mahlangu");
        assert_eq!(work.authors[3].name, "Anna Müller");
        assert_eq!(
            work.venue.as_deref(),
            Some("New England Journal of Medicine")
        );
        assert_eq!(work.year, Some(2017));
        assert_eq!(work.biblio.first_page.as_deref(), Some("809"));
        assert_eq!(work.biblio.last_page.as_deref(), Some("818"));
        assert_eq!(work.biblio.issue.as_deref(), Some("9"));
        assert_eq!(
            work.ids.doi.as_ref().map(ToString::to_string).as_deref(),
            Some("10.1056/nejmoa1703068")
        );
        assert_eq!(work.keywords, ["hemophilia", "emicizumab"]);
        assert_eq!(work.kind, WorkKind::Article);
        let preprint = &records[1].work;
        assert_eq!(preprint.kind, WorkKind::Preprint);
        assert_eq!(
            preprint
                .ids
                .arxiv
                .as_ref()
                .map(ToString::to_string)
                .as_deref(),
            Some("arXiv:2001.01234")
        );
    }

    /// One broken entry and a repeated key make the parser refuse the file whole; read entry by
    /// entry, the others are kept and the broken one is reported at its line.
    #[test]
    fn a_broken_entry_costs_only_itself() {
        let text = "@article{a, title = {First}, year = 2001}\n\
                    @article{b, title = {Broken, year = 2002}\n\
                    @article{a, title = {Same key}, year = 2003}\n\
                    @book{c, title = {Third}, year = 2004}\n";
        let (records, issues) = read(text);
        let titles: Vec<&str> = records
            .iter()
            .filter_map(|record| record.work.title.as_deref())
            .collect();
        assert_eq!(titles, ["First", "Same key", "Third"]);
        assert_eq!(issues.len(), 1, "{issues:?}");
        assert_eq!(issues[0].line, 2);
        assert!(issues[0].message.contains("cannot be read"));
        assert_eq!(records[2].work.kind, WorkKind::Book);
    }

    #[test]
    fn entries_in_parentheses_are_read() {
        let text = "@article(Biermann:75,\n\tauthor =\t{Alan W. Biermann},\n\tyear = {1975},\n\ttitle = \"Approaches to automatic programming\"\n)\n";
        let (records, issues) = read(text);
        assert!(issues.is_empty(), "{issues:?}");
        assert_eq!(
            records[0].work.title.as_deref(),
            Some("Approaches to automatic programming")
        );
        assert_eq!(in_braces("@book{a, title = {x}}"), None);
        let (records, _) = read(
            "@article{a, title = {T}, journal = AIJ, year = 1990}\n@article{a, title = {U}}\n",
        );
        assert_eq!(records[0].work.venue.as_deref(), Some("AIJ"));
    }

    /// Found by the fuzzer: an entry naming itself as its `crossref` overflowed the parser's
    /// stack. Links in a circle are dropped; the entries are read.
    #[test]
    fn crossrefs_in_a_circle_are_dropped() {
        let text = "@inproceedings{a, crossref = {b}, title = {Paper}, pages = {1--2}}\n\
                    @proceedings{b, crossref = {b}, title = {Proceedings}, year = {2006}}\n\
                    @inproceedings{c, crossref = {d}, title = {Other}}\n\
                    @proceedings{d, crossref = {c}, title = {Its book}}\n\
                    @inproceedings{e, crossref = {f}, title = {Inherits}}\n\
                    @proceedings{f, title = {Book}, year = {2010}}\n";
        let (records, issues) = read(text);
        assert!(issues.is_empty(), "{issues:?}");
        assert_eq!(records.len(), 6);
        assert_eq!(
            records[4].work.year,
            Some(2010),
            "a link not in a circle is followed"
        );
    }

    /// Braces nested deep, as hostile text has them, are read or refused, never overflow.
    #[test]
    fn deep_braces_do_not_overflow() {
        let depth = 10_000;
        let text = format!(
            "@article{{a, title = {{{}x{}}}}}\n@article{{b, title = {{Kept}}}}\n",
            "{".repeat(depth),
            "}".repeat(depth)
        );
        let (records, _) = read(&text);
        assert!(
            records
                .iter()
                .any(|record| record.work.title.as_deref() == Some("Kept"))
        );
    }

    #[test]
    fn an_entry_without_title_or_id_is_skipped_at_its_line() {
        let (records, issues) = read("@article{x, year = 2001}\n\n@article{y, title = {Kept}}\n");
        assert_eq!(records.len(), 1);
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].line, 1);
        assert_eq!(issues[0].message, UNNAMED_RECORD);
    }
}
