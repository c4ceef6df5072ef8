//! BibTeX export of cited works through the `biblatex` crate.

use std::collections::BTreeMap;

use biblatex::{Chunk, Chunks, Entry, EntryType, Spanned};
use litrev_model::{Work, WorkId, WorkKind, family_name, given_names};

/// Writes the works as a BibTeX file, one entry per work in the given order.
///
/// Each entry is keyed by `keys[&work.id()]`; a work without a key is left out. Text keeps its
/// non-ASCII characters as UTF-8 and escapes LaTeX's special characters; words with inner
/// capitals (`NLP`, `mRNA`, `COVID-19`) are braced so styles do not lower-case them. The
/// abstract is not exported.
pub fn bibtex(works: &[&Work], keys: &BTreeMap<WorkId, String>) -> String {
    let mut bib = String::new();
    for work in works {
        let Some(key) = work.ids.primary().and_then(|id| keys.get(&id)) else {
            continue;
        };
        if !bib.is_empty() {
            bib.push('\n');
        }
        bib.push_str(&write_entry(&build_entry(work, key)));
        bib.push('\n');
    }
    bib
}

/// Where a kind's venue goes.
#[derive(Clone, Copy)]
enum VenueField {
    /// The named field holds the venue, and `publisher` the publisher.
    Container(&'static str),
    /// Theses and reports name their school or institution in the named field, taken from the
    /// publisher first.
    Issuer(&'static str),
    /// A book's venue is at best its series, which sources do not tell apart from noise.
    Omitted,
}

fn build_entry(work: &Work, key: &str) -> Entry {
    let (entry_type, venue_field) = entry_type(work.kind);
    let mut entry = Entry::new(key.to_owned(), entry_type);
    set_chunks(&mut entry, "author", author_chunks(work));
    if let Some(title) = work.title.as_deref() {
        set_chunks(&mut entry, "title", title_chunks(title));
    }
    let venue = work.venue.as_deref();
    let publisher = work.publisher.as_deref();
    match venue_field {
        VenueField::Container(field) => {
            set_text(&mut entry, field, venue);
            set_text(&mut entry, "publisher", publisher);
        }
        VenueField::Issuer(field) => set_text(&mut entry, field, publisher.or(venue)),
        VenueField::Omitted => set_text(&mut entry, "publisher", publisher),
    }
    let year = work
        .year
        .or_else(|| work.date.as_deref().and_then(date_year));
    set_text(
        &mut entry,
        "year",
        year.map(|year| year.to_string()).as_deref(),
    );
    set_text(&mut entry, "volume", work.biblio.volume.as_deref());
    set_text(&mut entry, "number", work.biblio.issue.as_deref());
    set_text(&mut entry, "pages", pages(work).as_deref());
    if let Some(doi) = &work.ids.doi {
        set_text(&mut entry, "doi", Some(&verbatim_safe(doi.as_str())));
    }
    if let Some(isbn) = &work.ids.isbn {
        set_text(&mut entry, "isbn", Some(isbn.as_str()));
    }
    // arXiv's own fields, which biblatex, natbib's styles and pandoc read as the e-print.
    if let Some(arxiv) = &work.ids.arxiv {
        set_text(&mut entry, "eprint", Some(&verbatim_safe(arxiv.as_str())));
        set_text(&mut entry, "archiveprefix", Some("arXiv"));
    }
    if let Some(url) = work.oa_url.as_deref() {
        set_text(&mut entry, "url", Some(&verbatim_safe(url)));
    }
    entry
}

/// The BibTeX entry type of a kind, and where its venue goes.
fn entry_type(kind: WorkKind) -> (EntryType, VenueField) {
    match kind {
        WorkKind::Article | WorkKind::Review | WorkKind::Editorial => {
            (EntryType::Article, VenueField::Container("journal"))
        }
        WorkKind::ProceedingsArticle => {
            (EntryType::InProceedings, VenueField::Container("booktitle"))
        }
        WorkKind::BookChapter | WorkKind::EncyclopediaEntry => {
            (EntryType::InCollection, VenueField::Container("booktitle"))
        }
        WorkKind::Book => (EntryType::Book, VenueField::Omitted),
        WorkKind::Thesis => (EntryType::PhdThesis, VenueField::Issuer("school")),
        WorkKind::Report => (EntryType::TechReport, VenueField::Issuer("institution")),
        // BibTeX has no preprint or dataset type; `@misc` is what its styles and pandoc expect.
        _ => (EntryType::Misc, VenueField::Container("howpublished")),
    }
}

/// Authors as `Family, Given and Family, Given`, skipping blank names.
fn author_chunks(work: &Work) -> Chunks {
    let mut chunks = Chunks::new();
    let names = work
        .authors
        .iter()
        .map(|author| normalise_space(&author.name));
    for name in names.filter(|name| !name.is_empty()) {
        if !chunks.is_empty() {
            chunks.push(normal(" and "));
        }
        // BibTeX would split a name containing the word `and` into two people; such a name is
        // an organisation's, so it is braced whole and printed as written.
        let names_organisation = name.split(' ').any(|word| word.eq_ignore_ascii_case("and"));
        if names_organisation {
            chunks.push(Spanned::detached(Chunk::Verbatim(name)));
            continue;
        }
        chunks.push(normal(family_name(&name)));
        let given = given_names(&name);
        if !given.is_empty() {
            chunks.push(normal(", "));
            chunks.push(normal(given));
        }
    }
    chunks
}

/// The title, with words that have a capital after their first letter braced as verbatim.
fn title_chunks(title: &str) -> Chunks {
    let mut chunks = Chunks::new();
    let mut pending = String::new();
    for (word_idx, word) in title.split_whitespace().enumerate() {
        if word_idx > 0 {
            pending.push(' ');
        }
        let has_inner_capital = word.chars().skip(1).any(char::is_uppercase);
        if !has_inner_capital {
            pending.push_str(word);
            continue;
        }
        if !pending.is_empty() {
            chunks.push(normal(&std::mem::take(&mut pending)));
        }
        chunks.push(Spanned::detached(Chunk::Verbatim(word.to_owned())));
    }
    if !pending.is_empty() {
        chunks.push(normal(&pending));
    }
    chunks
}

/// `first--last`, or the first page alone.
fn pages(work: &Work) -> Option<String> {
    let first = work.biblio.first_page.as_deref()?.trim();
    let last = work.biblio.last_page.as_deref().map(str::trim);
    match last {
        Some(last) if !last.is_empty() && last != first => Some(format!("{first}--{last}")),
        _ => Some(first.to_owned()),
    }
}

/// The year at the start of a `YYYY-MM-DD` date.
fn date_year(date: &str) -> Option<i32> {
    date.split('-').next()?.trim().parse().ok()
}

/// Percent-encodes what the writer would backslash-escape in a verbatim field (`doi`, `url`),
/// where LaTeX reads a backslash literally, and whitespace, which would end a URL.
fn verbatim_safe(text: &str) -> String {
    let mut safe = String::with_capacity(text.len());
    for c in text.trim().chars() {
        match c {
            '{' => safe.push_str("%7B"),
            '}' => safe.push_str("%7D"),
            '\\' => safe.push_str("%5C"),
            c if c.is_whitespace() => safe.push_str("%20"),
            c => safe.push(c),
        }
    }
    safe
}

fn set_text(entry: &mut Entry, field: &str, text: Option<&str>) {
    if let Some(text) = text {
        set_chunks(entry, field, vec![normal(&normalise_space(text))]);
    }
}

fn set_chunks(entry: &mut Entry, field: &str, chunks: Chunks) {
    let is_blank = chunks.iter().all(|chunk| chunk.v.get().trim().is_empty());
    if !is_blank {
        entry.set(field, chunks);
    }
}

fn normal(text: &str) -> Spanned<Chunk> {
    Spanned::detached(Chunk::Normal(text.to_owned()))
}

/// Collapses runs of whitespace, newlines included, so each field stays on one line.
fn normalise_space(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The entry as BibTeX text, with the writer's quirks repaired and its fields indented.
///
/// The writer puts each field on its own line, and `normalise_space` keeps values on one.
fn write_entry(entry: &Entry) -> String {
    let text = entry
        .to_bibtex_string()
        .expect("only a `date` field can fail to serialise, and entries never get one");
    let mut lines = text.lines();
    let mut indented = String::with_capacity(text.len() + 64);
    if let Some(header) = lines.next() {
        indented.push_str(header);
    }
    for line in lines {
        indented.push('\n');
        if line != "}" {
            indented.push_str("  ");
        }
        indented.push_str(&repair_escapes(line));
    }
    indented
}

/// Rewrites the escapes `biblatex` 0.12 writes that LaTeX, BibTeX or pandoc read differently.
///
/// The writer puts a backslash before `~`, `^`, `\`, `{` and `}`, but `\~` and `\^` are accent
/// commands (even `biblatex`'s own parser reads `\~5` as `5̃`) and `\\` is a line break: these
/// become `\textasciitilde{}`, `\textasciicircum{}` and `\textbackslash{}`. BibTeX counts `\{`
/// and `\}` as braces, so when a field's escaped braces do not pair up they would end the entry
/// early; they then become `\textbraceleft{}` and `\textbraceright{}`, which pandoc 2.17 drops
/// but which keep the entry parseable. Paired escaped braces are kept, as pandoc reads them right.
///
/// Every backslash in the writer's output starts such a pair: keys and field names have none,
/// and `verbatim_safe` keeps them out of the verbatim fields.
fn repair_escapes(field_line: &str) -> String {
    let keep_braces = escaped_braces_pair_up(field_line);
    let mut repaired = String::with_capacity(field_line.len());
    let mut chars = field_line.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            repaired.push(c);
            continue;
        }
        match chars.next() {
            Some('~') => repaired.push_str("\\textasciitilde{}"),
            Some('^') => repaired.push_str("\\textasciicircum{}"),
            Some('\\') => repaired.push_str("\\textbackslash{}"),
            Some('{') if !keep_braces => repaired.push_str("\\textbraceleft{}"),
            Some('}') if !keep_braces => repaired.push_str("\\textbraceright{}"),
            Some(escaped) => {
                repaired.push('\\');
                repaired.push(escaped);
            }
            None => repaired.push('\\'),
        }
    }
    repaired
}

/// Whether every escaped `\{` in the line is closed by a later escaped `\}`.
fn escaped_braces_pair_up(field_line: &str) -> bool {
    let mut depth = 0_usize;
    let mut chars = field_line.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            continue;
        }
        match chars.next() {
            Some('{') => depth += 1,
            Some('}') => match depth.checked_sub(1) {
                Some(outer) => depth = outer,
                None => return false,
            },
            _ => {}
        }
    }
    depth == 0
}

#[cfg(test)]
mod tests {
    use biblatex::{Bibliography, ChunksExt};
    use litrev_model::{Author, Biblio};

    use super::*;

    fn work(id: &str, kind: WorkKind, authors: &[&str], title: &str) -> Work {
        let mut work = Work::stub(id.parse().expect("test id"));
        work.kind = kind;
        work.title = Some(title.to_owned());
        work.authors = authors.iter().map(|name| Author::named(*name)).collect();
        work
    }

    fn keyed(works: &[(&Work, &str)]) -> BTreeMap<WorkId, String> {
        works
            .iter()
            .map(|(work, key)| (work.id(), (*key).to_owned()))
            .collect()
    }

    /// Exports one work under the key `key`, compares the text with `expected`, and checks that
    /// `biblatex` parses it back to that one entry.
    fn check(work: &Work, expected: &str) -> Entry {
        let bib = bibtex(&[work], &keyed(&[(work, "key")]));
        assert_eq!(bib, expected);
        let parsed = Bibliography::parse(&bib).expect("exported BibTeX parses");
        assert_eq!(parsed.keys().collect::<Vec<_>>(), ["key"]);
        parsed.get("key").expect("the one entry").clone()
    }

    fn field(entry: &Entry, name: &str) -> String {
        entry
            .get(name)
            .map(|chunks| chunks.format_verbatim())
            .unwrap_or_default()
    }

    fn families(entry: &Entry) -> Vec<String> {
        let people = entry.author().unwrap_or_default();
        people
            .iter()
            .map(|person| {
                format!("{} {}", person.prefix, person.name)
                    .trim()
                    .to_owned()
            })
            .collect()
    }

    #[test]
    fn writes_a_journal_article_with_every_field() {
        let mut article = work(
            "10.1000/ABC_1",
            WorkKind::Article,
            &["Jörg Müller", "Rens van de Schoot", "Smith, Jane Q."],
            "Effects of X & Y on 50% of\nPTSD_cases",
        );
        article.year = Some(2020);
        article.venue = Some("Journal of Ünits".into());
        article.publisher = Some("Springer".into());
        article.biblio = Biblio {
            volume: Some("12".into()),
            issue: Some("3".into()),
            first_page: Some("100".into()),
            last_page: Some("120".into()),
        };
        article.oa_url = Some("https://example.org/a_b~c?x=1&y=%20".into());
        article.abstract_text = Some("Not exported.".into());
        let entry = check(
            &article,
            "@article{key,\n  \
               author = {Müller, Jörg and van de Schoot, Rens and Smith, Jane Q.},\n  \
               doi = {10.1000/abc_1},\n  \
               journal = {Journal of Ünits},\n  \
               number = {3},\n  \
               pages = {100--120},\n  \
               publisher = {Springer},\n  \
               title = {Effects of X \\& Y on 50\\% of {PTSD\\_cases}},\n  \
               url = {https://example.org/a_b~c?x=1&y=%20},\n  \
               volume = {12},\n  \
               year = {2020},\n\
             }\n",
        );
        assert_eq!(families(&entry), ["Müller", "van de Schoot", "Smith"]);
        assert_eq!(
            field(&entry, "title"),
            "Effects of X & Y on 50% of PTSD_cases"
        );
        assert_eq!(field(&entry, "url"), "https://example.org/a_b~c?x=1&y=%20");
        assert_eq!(field(&entry, "doi"), "10.1000/abc_1");
        assert_eq!(field(&entry, "pages"), "100–120");
    }

    #[test]
    fn a_book_carries_its_isbn() {
        let mut book = work(
            "isbn:0-14-032872-6",
            WorkKind::Book,
            &["Roald Dahl"],
            "Fantastic Mr. Fox",
        );
        book.publisher = Some("Puffin".into());
        let bib = bibtex(&[&book], &keyed(&[(&book, "dahl")]));
        let parsed = Bibliography::parse(&bib).expect("exported BibTeX parses");
        let entry = parsed.get("dahl").expect("the entry");
        assert_eq!(entry.entry_type.to_string(), "book", "{bib}");
        assert_eq!(field(entry, "isbn"), "9780140328721", "{bib}");
    }

    #[test]
    fn escapes_what_latex_would_misread() {
        let title = r"Costs in $ and # of {braces} ~5 x^2 a\b";
        let entry = check(
            &work("W1", WorkKind::Other, &[], title),
            "@misc{key,\n  \
               title = {Costs in \\$ and \\# of \\{braces\\} \
               \\textasciitilde{}5 x\\textasciicircum{}2 a\\textbackslash{}b},\n\
             }\n",
        );
        assert_eq!(field(&entry, "title"), title);

        let title = "Lone } and { braces";
        let entry = check(
            &work("W1", WorkKind::Other, &[], title),
            "@misc{key,\n  \
               title = {Lone \\textbraceright{} and \\textbraceleft{} braces},\n\
             }\n",
        );
        assert_eq!(field(&entry, "title"), title);
    }

    #[test]
    fn writes_proceedings_preprints_and_anonymous_works() {
        let mut paper = work(
            "W2",
            WorkKind::ProceedingsArticle,
            &["Ann Lee"],
            "BERT for screening",
        );
        paper.venue = Some("Proceedings of ACL".into());
        paper.date = Some("2019-06-02".into());
        check(
            &paper,
            "@inproceedings{key,\n  \
               author = {Lee, Ann},\n  \
               booktitle = {Proceedings of ACL},\n  \
               title = {{BERT} for screening},\n  \
               year = {2019},\n\
             }\n",
        );

        let mut preprint = work(
            "arXiv:2101.00001v2",
            WorkKind::Preprint,
            &["Plato"],
            "On mRNA vaccines",
        );
        preprint.year = Some(2021);
        preprint.venue = Some("arXiv".into());
        let entry = check(
            &preprint,
            "@misc{key,\n  \
               archiveprefix = {arXiv},\n  \
               author = {Plato},\n  \
               eprint = {2101.00001},\n  \
               howpublished = {arXiv},\n  \
               title = {On {mRNA} vaccines},\n  \
               year = {2021},\n\
             }\n",
        );
        assert_eq!(families(&entry), ["Plato"]);

        let mut report = work(
            "W3",
            WorkKind::Report,
            &["Centers for Disease Control and Prevention"],
            "Annual report",
        );
        report.venue = Some("CDC".into());
        let entry = check(
            &report,
            "@techreport{key,\n  \
               author = {{Centers for Disease Control and Prevention}},\n  \
               institution = {CDC},\n  \
               title = {Annual report},\n\
             }\n",
        );
        assert_eq!(
            families(&entry),
            ["Centers for Disease Control and Prevention"]
        );

        let anonymous = work("W4", WorkKind::Book, &[], "A book");
        check(&anonymous, "@book{key,\n  title = {A book},\n}\n");
    }

    #[test]
    fn keeps_order_and_skips_works_without_a_key() {
        let first = work("W10", WorkKind::Article, &["Jörg Müller"], "Über alles");
        let second = work("W11", WorkKind::Thesis, &["Ann Lee"], "A thesis");
        let unkeyed = work("W12", WorkKind::Article, &["Bo Li"], "Left out");
        let keys = keyed(&[(&first, "muller2020uber"), (&second, "lee2020thesis")]);
        let bib = bibtex(&[&second, &unkeyed, &first], &keys);
        let parsed = Bibliography::parse(&bib).expect("exported BibTeX parses");
        assert_eq!(
            parsed.keys().collect::<Vec<_>>(),
            ["lee2020thesis", "muller2020uber"]
        );
        let muller = parsed.get("muller2020uber").expect("entry");
        assert_eq!(families(muller), ["Müller"]);
        assert_eq!(field(muller, "title"), "Über alles");
        assert!(bibtex(&[], &keys).is_empty());
    }
}
