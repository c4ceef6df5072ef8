//! E-utilities answers → litrev types: search results, `Work`s, link sets.

use litrev_model::{Author, Biblio, Pmcid, Pmid, Work, WorkId, WorkIds, WorkKind};
use roxmltree::{Document, Node};

use super::Error;
use super::request::Link;
use super::wire::{
    WireArticle, WireDate, child, children, document, errors, read_article, read_book_article,
    text, text_at,
};

/// Where an esearch (or epost) result waits on NCBI's history server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct History {
    /// The history session (`WebEnv`).
    pub web_env: String,
    /// The result's key within the session (`QueryKey`).
    pub query_key: String,
}

/// An esearch answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// Matching records in all.
    pub count: u64,
    /// Ids returned in this answer (`RetMax`).
    pub ret_max: u64,
    /// Offset of the first returned id (`RetStart`).
    pub ret_start: u64,
    /// The returned ids, in the order asked for.
    pub pmids: Vec<Pmid>,
    /// Where the full result waits, when `usehistory=y` was asked.
    pub history: Option<History>,
    /// How PubMed read the term (`QueryTranslation`).
    pub query_translation: Option<String>,
    /// Non-fatal problems with the term (`ErrorList`: `PhraseNotFound: abcXYZ`).
    pub errors: Vec<String>,
    /// Warnings (`WarningList`: `OutputMessage: No items found.`).
    pub warnings: Vec<String>,
}

/// The records of an efetch answer.
#[derive(Debug, Clone, PartialEq)]
pub struct FetchPage {
    /// The records as works, in the answer's order.
    pub works: Vec<Work>,
    /// Records dropped because they carried no PMID.
    pub skipped: usize,
}

/// The DocSums of an esummary answer that describe PubMed records.
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryPage {
    /// The PubMed summaries as works.
    pub works: Vec<Work>,
    /// DocSums dropped because they are not PubMed records (other databases' summaries).
    pub skipped: usize,
}

/// One `LinkSet` of an elink answer: the source records and their links by link name.
///
/// With one `id=` per record (as `elink_url` asks), each set has exactly one source id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkSet {
    /// The source database (`pubmed`).
    pub db_from: String,
    /// The source records' ids.
    pub ids: Vec<String>,
    /// The links found, one entry per link name.
    pub links: Vec<LinkSetDb>,
}

/// The links of one kind from a link set's source records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkSetDb {
    /// The target database (`pubmed`, `pmc`).
    pub db_to: String,
    /// The link's name (`pubmed_pubmed_citedin`).
    pub link_name: String,
    /// The linked records' ids in the target database.
    pub ids: Vec<String>,
}

impl LinkSet {
    /// The source record, when the set has exactly one PubMed id.
    pub fn source(&self) -> Option<Pmid> {
        match self.ids.as_slice() {
            [id] if self.db_from == "pubmed" => id.parse().ok(),
            _ => None,
        }
    }

    /// The records linked by `link`, as PMIDs (PubMed links) or PMCIDs (`Link::Pmc`).
    pub fn linked(&self, link: Link) -> Vec<WorkId> {
        self.links
            .iter()
            .filter(|set| set.link_name == link.name())
            .flat_map(|set| set.ids.iter())
            .filter_map(|id| match link {
                Link::Pmc => id.parse::<Pmcid>().ok().map(WorkId::Pmcid),
                Link::CitedIn | Link::References => id.parse::<Pmid>().ok().map(WorkId::Pmid),
            })
            .collect()
    }
}

/// Reads an esearch answer.
///
/// # Errors
/// `Error::Api` for an `<ERROR>` or JSON error body, `Error::Format` for other bodies.
pub fn parse_esearch(xml: &str) -> Result<SearchResult, Error> {
    let document = checked(xml, &["eSearchResult"], "esearch")?;
    let root = document.root_element();
    let number = |name: &str| {
        text_at(root, &[name])
            .and_then(|text| text.parse::<u64>().ok())
            .ok_or_else(|| Error::Format {
                expected: "esearch",
                detail: format!("no <{name}> number"),
            })
    };
    let listed = |name: &str| -> Vec<String> {
        child(root, name)
            .into_iter()
            .flat_map(|list| list.children().filter(Node::is_element))
            .filter_map(|item| Some(format!("{}: {}", item.tag_name().name(), text(item)?)))
            .collect()
    };
    let history = match (text_at(root, &["WebEnv"]), text_at(root, &["QueryKey"])) {
        (Some(web_env), Some(query_key)) => Some(History { web_env, query_key }),
        _ => None,
    };
    Ok(SearchResult {
        count: number("Count")?,
        ret_max: number("RetMax").unwrap_or(0),
        ret_start: number("RetStart").unwrap_or(0),
        pmids: child(root, "IdList")
            .into_iter()
            .flat_map(|list| children(list, "Id"))
            .filter_map(text)
            .filter_map(|id| id.parse().ok())
            .collect(),
        history,
        query_translation: text_at(root, &["QueryTranslation"]),
        errors: listed("ErrorList"),
        warnings: listed("WarningList"),
    })
}

/// Reads an epost answer: where the posted ids wait on the history server.
///
/// # Errors
/// `Error::Api` for an `<ERROR>` body, `Error::Format` for other bodies.
pub fn parse_epost(xml: &str) -> Result<History, Error> {
    let document = checked(xml, &["ePostResult"], "epost")?;
    let root = document.root_element();
    match (text_at(root, &["WebEnv"]), text_at(root, &["QueryKey"])) {
        (Some(web_env), Some(query_key)) => Ok(History { web_env, query_key }),
        _ => Err(Error::Format {
            expected: "epost",
            detail: "no WebEnv and QueryKey".to_owned(),
        }),
    }
}

/// Reads an efetch answer (`PubmedArticleSet`, or MEDLINE's `MedlineCitationSet`) into works.
///
/// # Errors
/// `Error::Api` for an `<ERROR>` or JSON error body, `Error::Format` for other bodies (HTML,
/// another database's records).
pub fn parse_efetch(xml: &str) -> Result<FetchPage, Error> {
    let document = checked(xml, &["PubmedArticleSet", "MedlineCitationSet"], "efetch")?;
    let mut page = FetchPage {
        works: Vec::new(),
        skipped: 0,
    };
    for node in document.root_element().children().filter(Node::is_element) {
        let wire = match node.tag_name().name() {
            "PubmedArticle" | "MedlineCitation" => read_article(node),
            "PubmedBookArticle" => read_book_article(node),
            _ => continue,
        };
        match work_from_article(wire) {
            Some(work) => page.works.push(work),
            None => page.skipped += 1,
        }
    }
    Ok(page)
}

/// Reads an elink answer into its link sets, in the answer's order.
///
/// Answers to the `llinks`, `prlinks` and `acheck` commands carry no `LinkSetDb`: their sets
/// come back with no links.
///
/// # Errors
/// `Error::Api` for an `<ERROR>` or JSON error body, `Error::Format` for other bodies.
pub fn parse_elink(xml: &str) -> Result<Vec<LinkSet>, Error> {
    let document = checked(xml, &["eLinkResult"], "elink")?;
    Ok(children(document.root_element(), "LinkSet")
        .map(|set| LinkSet {
            db_from: text_at(set, &["DbFrom"]).unwrap_or_default(),
            ids: child(set, "IdList")
                .into_iter()
                .flat_map(|list| children(list, "Id"))
                .filter_map(text)
                .collect(),
            links: children(set, "LinkSetDb")
                .map(|db| LinkSetDb {
                    db_to: text_at(db, &["DbTo"]).unwrap_or_default(),
                    link_name: text_at(db, &["LinkName"]).unwrap_or_default(),
                    ids: children(db, "Link")
                        .filter_map(|link| text_at(link, &["Id"]))
                        .collect(),
                })
                .collect(),
        })
        .collect())
}

/// Reads an esummary answer (version 1 `DocSum`s) into works, keeping only PubMed summaries.
///
/// # Errors
/// `Error::Api` for an `<ERROR>` or JSON error body, `Error::Format` for other bodies.
pub fn parse_esummary(xml: &str) -> Result<SummaryPage, Error> {
    let document = checked(xml, &["eSummaryResult"], "esummary")?;
    let mut page = SummaryPage {
        works: Vec::new(),
        skipped: 0,
    };
    for summary in children(document.root_element(), "DocSum") {
        match work_from_summary(summary) {
            Some(work) => page.works.push(work),
            None => page.skipped += 1,
        }
    }
    Ok(page)
}

/// The error a failed answer carries (`<ERROR>` text, `{"error": …}`, else the body's text),
/// with the HTTP status.
pub fn parse_error(status: u16, body: &str) -> Error {
    let message = json_error(body)
        .or_else(|| {
            document(body)
                .ok()
                .map(|document| errors(document.root_element()).join("; "))
                .filter(|message| !message.is_empty())
        })
        .unwrap_or_else(|| short(body));
    Error::Api {
        status: Some(status),
        message,
    }
}

/// Parses the XML, refusing error bodies and unexpected roots.
fn checked<'input>(
    xml: &'input str,
    roots: &[&str],
    expected: &'static str,
) -> Result<Document<'input>, Error> {
    if let Some(message) = json_error(xml) {
        return Err(Error::Api {
            status: None,
            message,
        });
    }
    let document = document(xml).map_err(|detail| Error::Format {
        expected,
        detail: format!("{detail}: {}", short(xml)),
    })?;
    let root = document.root_element();
    let messages = errors(root);
    if !messages.is_empty() {
        return Err(Error::Api {
            status: None,
            message: messages.join("; "),
        });
    }
    if !roots.contains(&root.tag_name().name()) {
        return Err(Error::Format {
            expected,
            detail: format!(
                "the root element is <{}>, not <{}>",
                root.tag_name().name(),
                roots.join("> or <")
            ),
        });
    }
    Ok(document)
}

/// The message of NCBI's JSON error body (`{"error": "API rate limit exceeded", …}`).
fn json_error(body: &str) -> Option<String> {
    if !body.trim_start().starts_with('{') {
        return None;
    }
    let value: serde_json::Value = serde_json::from_str(body).ok()?;
    value
        .get("error")
        .or_else(|| value.get("ERROR"))
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned)
}

fn work_from_article(wire: WireArticle) -> Option<Work> {
    let pmid: Pmid = wire.pmid.as_deref()?.parse().ok()?;
    let mut ids = WorkIds::default();
    ids.add(WorkId::Pmid(pmid));
    if let Some(doi) = wire.doi.as_deref().and_then(|doi| doi.parse().ok()) {
        ids.add(WorkId::Doi(doi));
    }
    let pmcid = wire
        .pmcid
        .as_deref()
        .and_then(|id| id.parse::<Pmcid>().ok());
    let oa_url = pmcid
        .as_ref()
        .filter(|_| !wire.pmc_embargoed)
        .map(|pmcid| format!("https://pmc.ncbi.nlm.nih.gov/articles/{pmcid}/"));
    if let Some(pmcid) = pmcid {
        ids.add(WorkId::Pmcid(pmcid));
    }
    let (first_page, last_page) = match (&wire.start_page, &wire.pages) {
        (Some(start), _) => (Some(start.clone()), wire.end_page.clone()),
        (None, Some(pages)) => split_pages(pages),
        (None, None) => (None, None),
    };
    let (year, date) = date_of(&wire.pub_date);
    let abstract_text = wire
        .abstract_sections
        .iter()
        .map(|(label, body)| match label {
            Some(label) => format!("{label}: {body}"),
            None => body.clone(),
        })
        .collect::<Vec<_>>()
        .join(" ");
    let kind = if wire.is_book {
        if wire.is_chapter {
            WorkKind::BookChapter
        } else {
            WorkKind::Book
        }
    } else {
        kind_of(&wire.publication_types)
    };
    Some(Work {
        topics: Vec::new(),
        ids,
        title: wire.title,
        authors: wire.authors.into_iter().filter_map(author).collect(),
        year,
        date,
        venue: wire.venue,
        publisher: wire.publisher,
        kind,
        biblio: Biblio {
            volume: wire.volume,
            issue: wire.issue,
            first_page,
            last_page,
        },
        abstract_text: (!abstract_text.is_empty()).then_some(abstract_text),
        language: wire.languages.iter().find_map(|code| language(code)),
        cited_by_count: None,
        keywords: keywords(&wire.mesh, &wire.keywords),
        fields: Vec::new(),
        references: wire
            .references
            .iter()
            .filter_map(|ids| {
                let pmid = ids
                    .pmid
                    .as_deref()
                    .and_then(|id| id.parse().ok())
                    .map(WorkId::Pmid);
                let doi = ids
                    .doi
                    .as_deref()
                    .and_then(|id| id.parse().ok())
                    .map(WorkId::Doi);
                let pmcid = ids
                    .pmcid
                    .as_deref()
                    .and_then(|id| id.parse().ok())
                    .map(WorkId::Pmcid);
                pmid.or(doi).or(pmcid)
            })
            .collect(),
        oa_url,
        is_retracted: wire
            .publication_types
            .iter()
            .any(|kind| kind == "Retracted Publication"),
    })
}

fn author(wire: super::wire::WireAuthor) -> Option<Author> {
    let name = match (wire.collective_name, wire.last_name) {
        (_, Some(last)) => match wire.fore_name.or(wire.initials) {
            Some(given) => format!("{given} {last}"),
            None => last,
        },
        (Some(collective), None) => collective,
        (None, None) => return None,
    };
    Some(Author {
        id: None,
        name,
        orcid: wire.orcid.as_deref().and_then(orcid),
    })
}

/// An ORCID iD as `https://orcid.org/0000-0000-0000-0000`, from any of PubMed's spellings.
fn orcid(text: &str) -> Option<String> {
    let bare = text
        .trim()
        .trim_start_matches("https://orcid.org/")
        .trim_start_matches("http://orcid.org/")
        .trim_start_matches("orcid.org/");
    let digits: String = bare.chars().filter(|c| *c != '-').collect();
    let valid = digits.len() == 16
        && digits
            .chars()
            .enumerate()
            .all(|(at, c)| c.is_ascii_digit() || (at == 15 && (c == 'X' || c == 'x')));
    valid.then(|| {
        format!(
            "https://orcid.org/{}-{}-{}-{}",
            &digits[..4],
            &digits[4..8],
            &digits[8..12],
            digits[12..].to_uppercase()
        )
    })
}

/// Year and `YYYY[-MM[-DD]]` of a `PubDate` (`Year`/`Month`/`Day`, or `MedlineDate` such as
/// `2008 Jul-Aug`).
fn date_of(date: &WireDate) -> (Option<i32>, Option<String>) {
    if let Some(year) = date
        .year
        .as_deref()
        .and_then(|year| year.parse::<i32>().ok())
    {
        let month = date.month.as_deref().and_then(month_number);
        let day = date
            .day
            .as_deref()
            .and_then(|day| day.parse::<u32>().ok())
            .filter(|day| (1..=31).contains(day));
        let text = match (month, day) {
            (Some(month), Some(day)) => format!("{year:04}-{month:02}-{day:02}"),
            (Some(month), None) => format!("{year:04}-{month:02}"),
            _ => format!("{year:04}"),
        };
        return (Some(year), Some(text));
    }
    let year = date.medline_date.as_deref().and_then(|text| {
        text.split(|c: char| !c.is_ascii_digit())
            .find(|part| part.len() == 4)
            .and_then(|year| year.parse::<i32>().ok())
    });
    (year, year.map(|year| format!("{year:04}")))
}

fn month_number(text: &str) -> Option<u32> {
    if let Ok(number) = text.parse::<u32>() {
        return (1..=12).contains(&number).then_some(number);
    }
    let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let lower = text.to_ascii_lowercase();
    months
        .iter()
        .position(|month| lower.starts_with(month))
        .and_then(|at| u32::try_from(at + 1).ok())
}

/// `1116-1122` → (1116, 1122); MEDLINE's shortened `188-91` → (188, 191); a note after `;` or
/// `,` is dropped.
fn split_pages(pages: &str) -> (Option<String>, Option<String>) {
    let range = pages.split([';', ',']).next().unwrap_or("").trim();
    let (first, last) = match range.split_once('-') {
        Some((first, last)) => (first.trim(), last.trim()),
        None => (range, ""),
    };
    let first_digits = first.len() - first.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let last = if !last.is_empty()
        && last.bytes().all(|b| b.is_ascii_digit())
        && last.len() < first_digits
    {
        format!("{}{last}", &first[..first.len() - last.len()])
    } else {
        last.to_owned()
    };
    let some = |text: String| (!text.is_empty()).then_some(text);
    (some(first.to_owned()), some(last))
}

/// The most specific kind the publication types name.
pub(crate) fn kind_of(types: &[String]) -> WorkKind {
    let has = |names: &[&str]| types.iter().any(|kind| names.contains(&kind.as_str()));
    if has(&["Preprint"]) {
        WorkKind::Preprint
    } else if has(&[
        "Review",
        "Systematic Review",
        "Meta-Analysis",
        "Scoping Review",
    ]) {
        WorkKind::Review
    } else if has(&[
        "Editorial",
        "Letter",
        "Comment",
        "News",
        "Newspaper Article",
        "Published Erratum",
        "Retraction of Publication",
        "Expression of Concern",
        "Interview",
        "Biography",
        "Portrait",
    ]) {
        WorkKind::Editorial
    } else if has(&[
        "Congress",
        "Clinical Conference",
        "Consensus Development Conference",
    ]) {
        WorkKind::ProceedingsArticle
    } else if has(&["Dataset"]) {
        WorkKind::Dataset
    } else if has(&["Technical Report", "Government Publication"]) {
        WorkKind::Report
    } else if has(&["Dissertation", "Academic Dissertation"]) {
        WorkKind::Thesis
    } else if types.is_empty() {
        WorkKind::Other
    } else {
        // "Journal Article" and its designs (trials, case reports, observational studies…).
        WorkKind::Article
    }
}

/// MeSH check tags: they describe the study population, not the subject.
const CHECK_TAGS: &[&str] = &[
    "Humans",
    "Animals",
    "Male",
    "Female",
    "Adult",
    "Aged",
    "Aged, 80 and over",
    "Middle Aged",
    "Young Adult",
    "Adolescent",
    "Child",
    "Child, Preschool",
    "Infant",
    "Infant, Newborn",
    "Pregnancy",
    "Mice",
    "Rats",
];

/// Major MeSH headings, then the other headings (check tags left out), then author keywords.
fn keywords(mesh: &[(String, bool)], author_keywords: &[String]) -> Vec<String> {
    let major = mesh.iter().filter(|(_, major)| *major);
    let minor = mesh
        .iter()
        .filter(|(name, major)| !*major && !CHECK_TAGS.contains(&name.as_str()));
    let mut out: Vec<String> = Vec::new();
    for name in major
        .chain(minor)
        .map(|(name, _)| name)
        .chain(author_keywords)
    {
        if !out.iter().any(|known| known.eq_ignore_ascii_case(name)) {
            out.push(name.clone());
        }
    }
    out
}

/// ISO 639-1 code of PubMed's ISO 639-2 language code (or English name, in esummary).
fn language(code: &str) -> Option<String> {
    litrev_model::language_code(code).map(str::to_owned)
}

/// A PubMed `DocSum`; `None` for summaries of other databases (no `Source` journal, no
/// `PubDate`).
fn work_from_summary(summary: Node) -> Option<Work> {
    let items: Vec<Node> = children(summary, "Item").collect();
    let item = |name: &str| {
        items
            .iter()
            .find(|item| item.attribute("Name") == Some(name))
            .copied()
    };
    let item_text = |name: &str| item(name).and_then(text);
    let list = |name: &str| -> Vec<(String, String)> {
        item(name)
            .into_iter()
            .flat_map(|list| children(list, "Item"))
            .filter_map(|entry| Some((entry.attribute("Name")?.to_owned(), text(entry)?)))
            .collect()
    };
    let source = item_text("Source")?;
    let pub_date = item_text("PubDate")?;
    let pmid: Pmid = text_at(summary, &["Id"])?.parse().ok()?;
    let mut ids = WorkIds::default();
    ids.add(WorkId::Pmid(pmid));
    let article_ids = list("ArticleIds");
    let doi = article_ids
        .iter()
        .find(|(name, _)| name == "doi")
        .map(|(_, value)| value.clone())
        .or_else(|| item_text("DOI"));
    if let Some(doi) = doi.and_then(|doi| doi.parse().ok()) {
        ids.add(WorkId::Doi(doi));
    }
    if let Some(pmcid) = article_ids
        .iter()
        .find(|(name, _)| name == "pmc")
        .and_then(|(_, value)| value.parse().ok())
    {
        ids.add(WorkId::Pmcid(pmcid));
    }
    let mut date_parts = pub_date.split_whitespace();
    let wire_date = WireDate {
        year: date_parts.next().map(str::to_owned),
        month: date_parts.next().map(str::to_owned),
        day: date_parts.next().map(str::to_owned),
        medline_date: Some(pub_date.clone()),
    };
    let (year, date) = date_of(&wire_date);
    let (first_page, last_page) = item_text("Pages")
        .map(|pages| split_pages(&pages))
        .unwrap_or_default();
    let types: Vec<String> = list("PubTypeList")
        .into_iter()
        .map(|(_, kind)| kind)
        .collect();
    Some(Work {
        topics: Vec::new(),
        ids,
        title: item_text("Title"),
        authors: list("AuthorList")
            .into_iter()
            .filter(|(name, _)| name == "Author")
            .map(|(_, name)| Author::named(summary_author(&name)))
            .collect(),
        year,
        date,
        venue: item_text("FullJournalName").or(Some(source)),
        publisher: None,
        kind: kind_of(&types),
        biblio: Biblio {
            volume: item_text("Volume"),
            issue: item_text("Issue"),
            first_page,
            last_page,
        },
        abstract_text: None,
        language: list("LangList").iter().find_map(|(_, lang)| language(lang)),
        cited_by_count: None,
        keywords: Vec::new(),
        fields: Vec::new(),
        references: Vec::new(),
        oa_url: None,
        is_retracted: types.iter().any(|kind| kind == "Retracted Publication"),
    })
}

/// esummary's `LoPresti PJ` (family name, then initials) as `LoPresti, PJ`, a form
/// `family_name` reads; suffixes stay after the initials (`Hambrick, GW Jr`).
fn summary_author(name: &str) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    let is_initials = |word: &&str| word.len() <= 4 && word.chars().all(|c| c.is_ascii_uppercase());
    match words.iter().rposition(is_initials) {
        Some(at) if at > 0 => format!("{}, {}", words[..at].join(" "), words[at..].join(" ")),
        _ => name.to_owned(),
    }
}

fn short(text: &str) -> String {
    let text = text.trim();
    match text.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_medline_page_ranges() {
        let pages = |text: &str| split_pages(text);
        assert_eq!(pages("188-91"), (Some("188".into()), Some("191".into())));
        assert_eq!(
            pages("1116-1122"),
            (Some("1116".into()), Some("1122".into()))
        );
        assert_eq!(pages("e33693"), (Some("e33693".into()), None));
        assert_eq!(
            pages("1116-22; discussion 1123"),
            (Some("1116".into()), Some("1122".into()))
        );
        assert_eq!(pages("S1-8"), (Some("S1".into()), Some("8".into())));
    }

    #[test]
    fn reads_dates_names_and_codes() {
        let date = |year: &str, month: &str, medline: &str| {
            date_of(&WireDate {
                year: (!year.is_empty()).then(|| year.to_owned()),
                month: (!month.is_empty()).then(|| month.to_owned()),
                day: None,
                medline_date: (!medline.is_empty()).then(|| medline.to_owned()),
            })
        };
        assert_eq!(date("2017", "06", ""), (Some(2017), Some("2017-06".into())));
        assert_eq!(
            date("2001", "Jun", ""),
            (Some(2001), Some("2001-06".into()))
        );
        assert_eq!(date("1990", "", ""), (Some(1990), Some("1990".into())));
        assert_eq!(
            date("", "", "2008 Jul-Aug"),
            (Some(2008), Some("2008".into()))
        );
        assert_eq!(
            orcid("0000-0002-1825-009x").as_deref(),
            Some("https://orcid.org/0000-0002-1825-009X")
        );
        assert_eq!(
            orcid("http://orcid.org/0000000218250097").as_deref(),
            Some("https://orcid.org/0000-0002-1825-0097")
        );
        assert_eq!(orcid("not an orcid"), None);
        assert_eq!(language("eng").as_deref(), Some("en"));
        assert_eq!(language("English").as_deref(), Some("en"));
        assert_eq!(language("und"), None);
        assert_eq!(summary_author("LoPresti PJ"), "LoPresti, PJ");
        assert_eq!(summary_author("Hambrick GW Jr"), "Hambrick, GW Jr");
        assert_eq!(summary_author("van der Berg J"), "van der Berg, J");
        assert_eq!(
            kind_of(&["Journal Article".into(), "Review".into()]),
            WorkKind::Review
        );
        assert_eq!(
            kind_of(&["Letter".into(), "Comment".into()]),
            WorkKind::Editorial
        );
        assert_eq!(kind_of(&["Preprint".into()]), WorkKind::Preprint);
        assert_eq!(
            kind_of(&["Randomized Controlled Trial".into()]),
            WorkKind::Article
        );
    }

    #[test]
    fn reads_book_articles_and_errors() {
        let xml = r#"<?xml version="1.0"?><PubmedArticleSet><PubmedBookArticle><BookDocument>
            <PMID Version="1">20301295</PMID><ArticleIdList><ArticleId IdType="bookaccession">NBK1116</ArticleId></ArticleIdList>
            <Book><Publisher><PublisherName>University of Washington, Seattle</PublisherName></Publisher>
            <BookTitle book="gene">GeneReviews</BookTitle><PubDate><Year>1993</Year></PubDate></Book>
            <ArticleTitle>Alpha-Thalassemia</ArticleTitle>
            <AuthorList Type="authors"><Author><LastName>Tamary</LastName><ForeName>Hannah</ForeName></Author></AuthorList>
            <Language>eng</Language><Abstract><AbstractText Label="CLINICAL CHARACTERISTICS">Two forms.</AbstractText></Abstract>
            </BookDocument></PubmedBookArticle></PubmedArticleSet>"#;
        let page = parse_efetch(xml).expect("book");
        let work = &page.works[0];
        assert_eq!(work.kind, WorkKind::BookChapter);
        assert_eq!(work.title.as_deref(), Some("Alpha-Thalassemia"));
        assert_eq!(work.venue.as_deref(), Some("GeneReviews"));
        assert_eq!(
            work.publisher.as_deref(),
            Some("University of Washington, Seattle")
        );
        assert_eq!(
            work.abstract_text.as_deref(),
            Some("CLINICAL CHARACTERISTICS: Two forms.")
        );
        assert_eq!(work.authors[0].name, "Hannah Tamary");
        assert_eq!(work.year, Some(1993));

        let rate = parse_efetch(
            r#"{"error":"API rate limit exceeded","api-key":"1.2.3.4","count":"11","limit":"10"}"#,
        );
        assert!(
            matches!(&rate, Err(error) if error.is_rate_limited()),
            "{rate:?}"
        );
        let fetch_error = parse_efetch(
            "<eFetchResult><ERROR>Cannot retrieve history data.</ERROR></eFetchResult>",
        );
        assert!(matches!(fetch_error, Err(Error::Api { status: None, .. })));
        assert_eq!(
            parse_error(429, r#"{"error":"API rate limit exceeded"}"#),
            Error::Api {
                status: Some(429),
                message: "API rate limit exceeded".to_owned()
            }
        );
        assert!(matches!(
            parse_efetch("<html><body>x</body></html>"),
            Err(Error::Format { .. })
        ));
    }
}
