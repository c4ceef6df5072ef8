//! A scholarly work and the facts litrev keeps about it.

use serde::{Deserialize, Serialize};

use crate::id::{WorkId, WorkIds};

/// A scholarly work (article, chapter, preprint, book…), as far as its source described it.
///
/// A work known only by an id (a reference pointing outside the source) is a *stub*: it has
/// ids but no title, and is kept so citation edges stay complete.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Work {
    /// Every known id of the work.
    pub ids: WorkIds,
    /// The title, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Authors in byline order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub authors: Vec<Author>,
    /// Publication year.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    /// Publication date as given by the source (`YYYY-MM-DD` or a prefix of it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Journal, proceedings, repository or book the work appeared in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub venue: Option<String>,
    /// Publisher of the venue.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publisher: Option<String>,
    /// What kind of work this is.
    #[serde(default)]
    pub kind: WorkKind,
    /// Volume, issue and pages.
    #[serde(default, skip_serializing_if = "Biblio::is_empty")]
    pub biblio: Biblio,
    /// The abstract as plain text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abstract_text: Option<String>,
    /// ISO 639-1 language code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Citations received, as counted by the source (not just within the corpus).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cited_by_count: Option<u32>,
    /// Subject keywords (concepts, topics, MeSH headings) from the source, most relevant first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<String>,
    /// The disciplines the source files the work under (OpenAlex: its topics' fields, or its
    /// level-0 concepts in records from before topics), most relevant first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<String>,
    /// The source's subjects of the work with their ids (OpenAlex topics, or the specific
    /// concepts of records from before topics), most relevant first: what the expert channel
    /// asks a source for the authors of.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub topics: Vec<Topic>,
    /// Works this work cites.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<WorkId>,
    /// An open-access landing page or PDF.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oa_url: Option<String>,
    /// Whether the source flags the work as retracted.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_retracted: bool,
}

/// One author of a work.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Author {
    /// The name as displayed by the source (`Jane Q. Smith`).
    pub name: String,
    /// ORCID iD, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orcid: Option<String>,
    /// The source's id of the author (OpenAlex `A5023888391`), if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

impl Author {
    /// An author known by name alone: no ORCID, no source id.
    pub fn named(name: impl Into<String>) -> Author {
        Author {
            name: name.into(),
            orcid: None,
            id: None,
        }
    }
}

/// A subject a source files works under, with the source's id for it (OpenAlex `T10102`, or
/// a concept `C71924100`).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Topic {
    /// The source's id, without its URL prefix.
    pub id: String,
    /// Its name (`Scientometrics and bibliometrics research`).
    pub name: String,
}

/// Volume, issue and page range.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Biblio {
    /// Volume.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume: Option<String>,
    /// Issue.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issue: Option<String>,
    /// First page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_page: Option<String>,
    /// Last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_page: Option<String>,
}

impl Biblio {
    /// A page range's first and last page (`433-460`, `809--818`, `12–19`); a single page or
    /// an article number (`e33693`) is a first page alone.
    pub fn split_pages(pages: &str) -> (Option<String>, Option<String>) {
        let pages = pages.replace("--", "-");
        let mut parts = pages.splitn(2, ['-', '–', '—']);
        let mut next = || {
            let part = parts
                .next()?
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            (!part.is_empty()).then_some(part)
        };
        (next(), next())
    }

    /// Whether no field is known.
    pub fn is_empty(&self) -> bool {
        self.volume.is_none()
            && self.issue.is_none()
            && self.first_page.is_none()
            && self.last_page.is_none()
    }
}

/// The kind of a work, in the vocabulary shared by Crossref, OpenAlex and CSL.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum WorkKind {
    /// A journal article.
    Article,
    /// A paper in conference proceedings.
    ProceedingsArticle,
    /// A chapter of a book.
    BookChapter,
    /// A whole book or monograph.
    Book,
    /// A preprint.
    Preprint,
    /// A thesis or dissertation.
    Thesis,
    /// A report or working paper.
    Report,
    /// A review article.
    Review,
    /// A dataset.
    Dataset,
    /// A letter, editorial or erratum.
    Editorial,
    /// A web page (grey literature).
    Webpage,
    /// An entry of an encyclopedia (the Stanford Encyclopedia of Philosophy's).
    EncyclopediaEntry,
    /// Anything else or unknown.
    #[default]
    Other,
}

impl WorkKind {
    /// Every kind.
    pub const ALL: [WorkKind; 13] = [
        WorkKind::Article,
        WorkKind::ProceedingsArticle,
        WorkKind::BookChapter,
        WorkKind::Book,
        WorkKind::Preprint,
        WorkKind::Thesis,
        WorkKind::Report,
        WorkKind::Review,
        WorkKind::Dataset,
        WorkKind::Editorial,
        WorkKind::Webpage,
        WorkKind::EncyclopediaEntry,
        WorkKind::Other,
    ];

    /// The kebab-case name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            WorkKind::Article => "article",
            WorkKind::ProceedingsArticle => "proceedings-article",
            WorkKind::BookChapter => "book-chapter",
            WorkKind::Book => "book",
            WorkKind::Preprint => "preprint",
            WorkKind::Thesis => "thesis",
            WorkKind::Report => "report",
            WorkKind::Review => "review",
            WorkKind::Dataset => "dataset",
            WorkKind::Editorial => "editorial",
            WorkKind::Webpage => "webpage",
            WorkKind::EncyclopediaEntry => "encyclopedia-entry",
            WorkKind::Other => "other",
        }
    }

    /// Maps a Crossref or OpenAlex type name (`journal-article`, `article`, `posted-content`…).
    pub fn from_source_type(name: &str) -> WorkKind {
        match name {
            "journal-article" | "article" => WorkKind::Article,
            "proceedings-article" | "proceedings" => WorkKind::ProceedingsArticle,
            "book-chapter" | "book-section" | "book-part" => WorkKind::BookChapter,
            "book" | "monograph" | "edited-book" | "reference-book" => WorkKind::Book,
            "posted-content" | "preprint" => WorkKind::Preprint,
            "dissertation" | "thesis" => WorkKind::Thesis,
            "report" | "report-series" => WorkKind::Report,
            "review" => WorkKind::Review,
            "dataset" => WorkKind::Dataset,
            "editorial" | "letter" | "erratum" | "paratext" => WorkKind::Editorial,
            "webpage" | "web-page" | "post" | "post-weblog" => WorkKind::Webpage,
            "encyclopedia-entry" | "entry-encyclopedia" | "reference-entry" => {
                WorkKind::EncyclopediaEntry
            }
            _ => WorkKind::Other,
        }
    }
}

impl Work {
    /// A stub: a work known only by its id.
    pub fn stub(id: WorkId) -> Work {
        let mut ids = WorkIds::default();
        ids.add(id);
        Work {
            ids,
            ..Work::default()
        }
    }

    /// The id the work is stored under.
    ///
    /// # Panics
    /// Never for works built by litrev's sources, which refuse records without any id.
    pub fn id(&self) -> WorkId {
        self.ids
            .primary()
            .expect("sources only build works that carry at least one id")
    }

    /// Whether only the id of the work is known.
    pub fn is_stub(&self) -> bool {
        self.title.is_none()
    }

    /// The title, or an empty string for stubs.
    pub fn title_or_empty(&self) -> &str {
        self.title.as_deref().unwrap_or("")
    }

    /// Title and abstract joined: what a person reads of a work, and the text its relevance to
    /// a question is judged on.
    pub fn title_and_abstract(&self) -> String {
        match (&self.title, &self.abstract_text) {
            (Some(title), Some(abstract_text)) => format!("{title}. {abstract_text}"),
            (Some(title), None) => title.clone(),
            (None, Some(abstract_text)) => abstract_text.clone(),
            (None, None) => String::new(),
        }
    }

    /// Title, abstract and subject keywords joined: the text the active-learning screening model
    /// learns from. The keywords (MeSH headings, topics) are words an indexer chose for the
    /// work; with them the model finds the included studies of the SYNERGY benchmarks sooner
    /// than on title and abstract alone.
    pub fn indexed_text(&self) -> String {
        let mut text = self.title_and_abstract();
        for keyword in &self.keywords {
            if text.trim_end().ends_with(['.', '?', '!']) {
                text.push(' ');
            } else if !text.is_empty() {
                text.push_str(". ");
            }
            text.push_str(keyword);
        }
        text
    }

    /// The family name of the first author, if any.
    pub fn first_author_family(&self) -> Option<&str> {
        self.authors.first().map(|author| family_name(&author.name))
    }

    /// How many descriptive fields are filled: the richer record wins a merge.
    pub fn richness(&self) -> usize {
        [
            self.title.is_some(),
            !self.authors.is_empty(),
            self.year.is_some(),
            self.date.is_some(),
            self.venue.is_some(),
            self.abstract_text.is_some(),
            !self.references.is_empty(),
            !self.biblio.is_empty(),
            self.cited_by_count.is_some(),
            !self.keywords.is_empty(),
        ]
        .into_iter()
        .filter(|filled| *filled)
        .count()
    }
}

/// The family name of a displayed personal name (`Jane Q. Smith` → `Smith`,
/// `Smith, Jane` → `Smith`, `Ludwig van Beethoven` → `van Beethoven`, `Sauvé B` → `Sauvé`).
pub fn family_name(name: &str) -> &str {
    let name = name.trim();
    if let Some((family, _given)) = name.split_once(',') {
        return family.trim();
    }
    if let Some((family, _initial)) = family_then_initial(name) {
        return family;
    }
    let words: Vec<(usize, &str)> = name
        .split_whitespace()
        .map(|word| (word.as_ptr() as usize - name.as_ptr() as usize, word))
        .collect();
    let Some(&(last_at, _)) = words.last() else {
        return name;
    };
    let mut start = last_at;
    for &(at, word) in words.iter().rev().skip(1) {
        let is_particle = matches!(
            word,
            "van"
                | "von"
                | "de"
                | "der"
                | "den"
                | "da"
                | "di"
                | "del"
                | "la"
                | "le"
                | "du"
                | "dos"
                | "ter"
        );
        if !is_particle {
            break;
        }
        start = at;
    }
    &name[start..]
}

/// A name displayed family first with its initials after it (`Sauvé B`, `van den Broek P`,
/// Scopus's `Greenlee R.T.` and `Higgins J.P.T.`), as some records give them, split into the
/// two; a family name is never one letter. Several initials need their stops: `Jane LEE` is
/// no `LEE`'s family.
fn family_then_initial(name: &str) -> Option<(&str, &str)> {
    let (family, initials) = name.rsplit_once(' ')?;
    let letter = initials.strip_suffix('.').unwrap_or(initials);
    let mut letters = letter.chars();
    let one_initial = letters.next().is_some_and(char::is_uppercase) && letters.next().is_none();
    let stopped_initials = initials.ends_with('.')
        && initials
            .split(['.', '-'])
            .filter(|part| !part.is_empty())
            .all(|part| {
                let mut letters = part.chars();
                letters.next().is_some_and(char::is_uppercase) && letters.next().is_none()
            });
    let is_initials = one_initial || stopped_initials && initials.len() <= 12;
    (is_initials && !family.trim().is_empty()).then(|| (family.trim(), initials))
}

/// The given names of a displayed personal name: what `family_name` leaves.
pub fn given_names(name: &str) -> &str {
    let name = name.trim();
    if let Some((_family, given)) = name.split_once(',') {
        return given.trim();
    }
    if let Some((_family, initial)) = family_then_initial(name) {
        return initial;
    }
    let family = family_name(name);
    name[..name.len() - family.len()].trim()
}

impl std::str::FromStr for WorkKind {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        WorkKind::ALL
            .into_iter()
            .find(|kind| kind.name() == text.trim())
            .ok_or_else(|| {
                let names: Vec<&str> = WorkKind::ALL.iter().map(|kind| kind.name()).collect();
                format!(
                    "unknown kind of work `{text}`: use one of {}",
                    names.join(", ")
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_through_their_names() {
        for kind in WorkKind::ALL {
            assert_eq!(kind.name().parse::<WorkKind>(), Ok(kind));
        }
        assert!("poem".parse::<WorkKind>().is_err());
    }

    #[test]
    fn indexed_text_adds_the_subject_keywords_to_what_a_person_reads() {
        let mut work = Work::stub("W1".parse().expect("id"));
        work.title = Some("Baclofen for spasticity".to_owned());
        work.abstract_text = Some("A trial.".to_owned());
        assert_eq!(work.indexed_text(), work.title_and_abstract());
        work.keywords = vec!["Muscle Spasticity".to_owned(), "Baclofen".to_owned()];
        assert_eq!(
            work.indexed_text(),
            "Baclofen for spasticity. A trial. Muscle Spasticity. Baclofen"
        );
        work.title = None;
        work.abstract_text = None;
        assert_eq!(work.indexed_text(), "Muscle Spasticity. Baclofen");
    }

    #[test]
    fn splits_personal_names() {
        let check = |name: &str, family: &str, given: &str| {
            assert_eq!(family_name(name), family, "family of {name}");
            assert_eq!(given_names(name), given, "given of {name}");
        };
        check("Jane Q. Smith", "Smith", "Jane Q.");
        check("Smith, Jane", "Smith", "Jane");
        check("Rens van de Schoot", "van de Schoot", "Rens");
        check("Plato", "Plato", "");
        // From SYNERGY records (van_der_Valk_2021, Chou_2004): family name, then an initial.
        check("Sauvé B", "Sauvé", "B");
        check("van den Broek P", "van den Broek", "P");
        check("Friera Acebal G.", "Friera Acebal", "G.");
        // From Scopus exports before 2019 (metaknowledge's scopus_testing.csv).
        check("Greenlee R.T.", "Greenlee", "R.T.");
        check("Higgins J.P.T.", "Higgins", "J.P.T.");
        check("Pu M.-H.", "Pu", "M.-H.");
        check("De Koning J.", "De Koning", "J.");
        check("Jane LEE", "LEE", "Jane");
    }

    #[test]
    fn maps_source_types() {
        assert_eq!(
            WorkKind::from_source_type("journal-article"),
            WorkKind::Article
        );
        assert_eq!(
            WorkKind::from_source_type("posted-content"),
            WorkKind::Preprint
        );
        assert_eq!(
            WorkKind::from_source_type("book-chapter"),
            WorkKind::BookChapter
        );
        assert_eq!(WorkKind::from_source_type("grant"), WorkKind::Other);
    }
}
