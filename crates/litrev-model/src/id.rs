//! Identifiers of works and their normalisation.
//!
//! Every external id is a newtype whose `FromStr` accepts the spellings seen in the wild
//! (URLs, prefixes, mixed case) and whose `Display` prints one canonical form, so two records
//! of the same work compare equal on any id they share.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Why a string is not a valid identifier.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum IdError {
    /// The text is not any known kind of work identifier.
    #[error(
        "`{0}` is not a work id: use an OpenAlex id (W123), a DOI (10.x/y), pmid:N, PMCN, arXiv:NNNN.NNNNN or isbn:N"
    )]
    Unrecognised(String),
    /// The text looks like the named kind of id but is malformed.
    #[error("`{text}` is not a valid {kind}")]
    Malformed {
        /// The kind of id that was expected.
        kind: &'static str,
        /// The offending text.
        text: String,
    },
}

macro_rules! string_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(try_from = "String", into = "String")]
        pub struct $name(String);

        impl $name {
            /// The canonical text of the id.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl TryFrom<String> for $name {
            type Error = IdError;
            fn try_from(text: String) -> Result<Self, IdError> {
                text.parse()
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> String {
                id.to_string()
            }
        }
    };
}

string_id!(
    /// An OpenAlex work id, canonically `W` followed by digits.
    OpenAlexId
);
string_id!(
    /// A DOI, canonically lower-case without any `https://doi.org/` or `doi:` prefix.
    Doi
);
string_id!(
    /// A PubMed id, canonically its digits.
    Pmid
);
string_id!(
    /// A PubMed Central id, canonically `PMC` followed by digits.
    Pmcid
);
string_id!(
    /// An arXiv id without its version suffix (`2101.00001`, `hep-th/9901001`).
    ArxivId
);
string_id!(
    /// A Semantic Scholar paper id (40 hex digits), lower-case.
    S2Id
);
string_id!(
    /// A web page's address, for works known by nothing else (grey literature a person
    /// names): canonically `url:` and the http(s) URL with its scheme and host lower-case and
    /// without a `#fragment`.
    WebUrl
);
string_id!(
    /// An International Standard Book Number, canonically `isbn:` and its 13 digits (an
    /// ISBN-10 is written as the ISBN-13 it is part of), so two editions' records compare
    /// equal however each source spells it.
    Isbn
);

fn strip_prefix_ci<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

fn strip_any_prefix<'a>(text: &'a str, prefixes: &[&str]) -> &'a str {
    prefixes
        .iter()
        .find_map(|prefix| strip_prefix_ci(text, prefix))
        .unwrap_or(text)
}

// The prefixes each kind of id is written with; a text starting with one is that kind.
const OPENALEX_PREFIXES: &[&str] = &[
    "https://openalex.org/",
    "http://openalex.org/",
    "https://api.openalex.org/works/",
    "https://api.openalex.org/",
    "openalex:",
];
const DOI_PREFIXES: &[&str] = &[
    "https://doi.org/",
    "http://doi.org/",
    "https://dx.doi.org/",
    "http://dx.doi.org/",
    "doi.org/",
    "doi:",
];
const PMID_PREFIXES: &[&str] = &[
    "https://pubmed.ncbi.nlm.nih.gov/",
    "http://pubmed.ncbi.nlm.nih.gov/",
    "https://www.ncbi.nlm.nih.gov/pubmed/",
    "pmid:",
];
const PMCID_PREFIXES: &[&str] = &[
    "https://www.ncbi.nlm.nih.gov/pmc/articles/",
    "http://www.ncbi.nlm.nih.gov/pmc/articles/",
    "https://pmc.ncbi.nlm.nih.gov/articles/",
    "pmcid:",
];
const ARXIV_PREFIXES: &[&str] = &[
    "https://arxiv.org/abs/",
    "http://arxiv.org/abs/",
    "https://arxiv.org/pdf/",
    "http://arxiv.org/pdf/",
    "http://export.arxiv.org/abs/",
    "arxiv:",
];
const S2_PREFIXES: &[&str] = &["https://www.semanticscholar.org/paper/", "s2:"];
const URL_PREFIXES: &[&str] = &["url:"];
const ISBN_PREFIXES: &[&str] = &["urn:isbn:", "isbn:"];

impl FromStr for OpenAlexId {
    type Err = IdError;
    fn from_str(text: &str) -> Result<Self, IdError> {
        let bare = strip_any_prefix(text.trim(), OPENALEX_PREFIXES);
        let digits = bare.strip_prefix(['W', 'w']).unwrap_or("");
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(IdError::Malformed {
                kind: "OpenAlex work id",
                text: text.to_owned(),
            });
        }
        Ok(Self(format!("W{digits}")))
    }
}

impl FromStr for Doi {
    type Err = IdError;
    fn from_str(text: &str) -> Result<Self, IdError> {
        let bare = strip_any_prefix(text.trim(), DOI_PREFIXES).trim();
        let valid = bare.starts_with("10.") && bare.contains('/') && !bare.ends_with('/');
        if !valid || bare.chars().any(char::is_whitespace) {
            return Err(IdError::Malformed {
                kind: "DOI",
                text: text.to_owned(),
            });
        }
        Ok(Self(bare.to_lowercase()))
    }
}

impl FromStr for Pmid {
    type Err = IdError;
    fn from_str(text: &str) -> Result<Self, IdError> {
        let bare = strip_any_prefix(text.trim(), PMID_PREFIXES).trim_end_matches('/');
        // PubMed ids count from 1: all zeros would print as `pmid:`, which reads back as nothing.
        let digits = bare.trim_start_matches('0');
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(IdError::Malformed {
                kind: "PubMed id",
                text: text.to_owned(),
            });
        }
        Ok(Self(digits.to_owned()))
    }
}

impl FromStr for Pmcid {
    type Err = IdError;
    fn from_str(text: &str) -> Result<Self, IdError> {
        let bare = strip_any_prefix(text.trim(), PMCID_PREFIXES).trim_end_matches('/');
        let digits = strip_prefix_ci(bare, "PMC").unwrap_or(bare);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(IdError::Malformed {
                kind: "PubMed Central id",
                text: text.to_owned(),
            });
        }
        Ok(Self(format!("PMC{digits}")))
    }
}

impl FromStr for ArxivId {
    type Err = IdError;
    fn from_str(text: &str) -> Result<Self, IdError> {
        let bare = strip_any_prefix(text.trim(), ARXIV_PREFIXES);
        let bare = bare.strip_suffix(".pdf").unwrap_or(bare);
        let without_version = match bare.rfind('v') {
            Some(at)
                if at > 0
                    && bare[at + 1..].bytes().all(|b| b.is_ascii_digit())
                    && at + 1 < bare.len() =>
            {
                &bare[..at]
            }
            _ => bare,
        };
        if !is_arxiv_body(without_version) {
            return Err(IdError::Malformed {
                kind: "arXiv id",
                text: text.to_owned(),
            });
        }
        Ok(Self(without_version.to_owned()))
    }
}

/// New-style `YYMM.NNNN(N)` or old-style `archive(.subject)/YYMMNNN`.
fn is_arxiv_body(body: &str) -> bool {
    if let Some((yymm, number)) = body.split_once('.')
        && yymm.len() == 4
        && yymm.bytes().all(|b| b.is_ascii_digit())
        && (4..=5).contains(&number.len())
        && number.bytes().all(|b| b.is_ascii_digit())
    {
        return true;
    }
    match body.split_once('/') {
        Some((archive, number)) => {
            !archive.is_empty()
                && archive
                    .bytes()
                    .all(|b| b.is_ascii_alphabetic() || b == b'-' || b == b'.')
                && number.len() == 7
                && number.bytes().all(|b| b.is_ascii_digit())
        }
        None => false,
    }
}

impl FromStr for S2Id {
    type Err = IdError;
    fn from_str(text: &str) -> Result<Self, IdError> {
        let bare = strip_any_prefix(text.trim(), S2_PREFIXES);
        let bare = bare.rsplit('/').next().unwrap_or(bare);
        if bare.len() != 40 || !bare.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(IdError::Malformed {
                kind: "Semantic Scholar paper id",
                text: text.to_owned(),
            });
        }
        Ok(Self(bare.to_ascii_lowercase()))
    }
}

impl FromStr for WebUrl {
    type Err = IdError;
    fn from_str(text: &str) -> Result<Self, IdError> {
        let malformed = || IdError::Malformed {
            kind: "web address (url:http://… or url:https://…)",
            text: text.to_owned(),
        };
        let bare = strip_any_prefix(text.trim(), URL_PREFIXES).trim();
        let bare = bare.split('#').next().unwrap_or(bare);
        let (scheme, rest) = bare.split_once("://").ok_or_else(malformed)?;
        let scheme = scheme.to_ascii_lowercase();
        if !matches!(scheme.as_str(), "http" | "https")
            || rest.is_empty()
            || bare.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            return Err(malformed());
        }
        let (host, path) = rest.split_at(rest.find(['/', '?']).unwrap_or(rest.len()));
        if host.is_empty() {
            return Err(malformed());
        }
        Ok(Self(format!(
            "{scheme}://{}{path}",
            host.to_ascii_lowercase()
        )))
    }
}

impl FromStr for Isbn {
    type Err = IdError;
    /// Reads `isbn:978-0-14-032872-1`, `urn:isbn:…` or the bare digits, with or without
    /// hyphens and spaces; an ISBN-10 (its last digit may be `X`) becomes its ISBN-13. The
    /// check digit must hold: a mistyped ISBN names another book.
    fn from_str(text: &str) -> Result<Self, IdError> {
        let malformed = || IdError::Malformed {
            kind: "ISBN (isbn: and 10 or 13 digits)",
            text: text.to_owned(),
        };
        let bare = strip_any_prefix(text.trim(), ISBN_PREFIXES);
        let digits: String = bare
            .chars()
            .filter(|c| !matches!(c, '-' | ' ' | '\u{2010}' | '\u{2011}'))
            .collect();
        // Only ASCII from here on, so that the byte slices below fall on characters.
        if !digits
            .chars()
            .all(|c| c.is_ascii_digit() || c == 'X' || c == 'x')
        {
            return Err(malformed());
        }
        let value = |c: char| c.to_digit(10);
        match digits.len() {
            10 => {
                let mut sum = 0;
                for (place, c) in digits.chars().enumerate() {
                    let digit = match (place, c) {
                        (9, 'X' | 'x') => 10,
                        _ => value(c).ok_or_else(malformed)?,
                    };
                    sum += digit * (10 - place as u32);
                }
                if sum % 11 != 0 {
                    return Err(malformed());
                }
                let stem = format!("978{}", &digits[..9]);
                let check = isbn13_check(&stem).ok_or_else(malformed)?;
                Ok(Self(format!("{stem}{check}")))
            }
            13 if digits.starts_with("978") || digits.starts_with("979") => {
                let check = isbn13_check(&digits[..12]).ok_or_else(malformed)?;
                if digits[12..].chars().next().and_then(value) != Some(check) {
                    return Err(malformed());
                }
                Ok(Self(digits))
            }
            _ => Err(malformed()),
        }
    }
}

/// The check digit of twelve ISBN-13 digits; `None` when one is no digit.
fn isbn13_check(stem: &str) -> Option<u32> {
    let mut sum = 0;
    for (place, c) in stem.chars().enumerate() {
        sum += c.to_digit(10)? * if place % 2 == 0 { 1 } else { 3 };
    }
    Some((10 - sum % 10) % 10)
}

impl fmt::Display for Isbn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "isbn:{}", self.0)
    }
}

impl WebUrl {
    /// The address itself, without the `url:` prefix.
    pub fn address(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for WebUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "url:{}", self.0)
    }
}

impl fmt::Display for OpenAlexId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl fmt::Display for Doi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl fmt::Display for Pmid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pmid:{}", self.0)
    }
}
impl fmt::Display for Pmcid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl fmt::Display for ArxivId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "arXiv:{}", self.0)
    }
}
impl fmt::Display for S2Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "s2:{}", self.0)
    }
}

impl Doi {
    /// The resolvable `https://doi.org/…` URL of the DOI.
    pub fn url(&self) -> String {
        format!("https://doi.org/{}", self.0)
    }

    /// The arXiv id a DOI arXiv registered for its e-print names (`10.48550/arxiv.2404.04487`
    /// names `2404.04487`); `None` for any other DOI.
    pub fn arxiv(&self) -> Option<ArxivId> {
        self.0.strip_prefix("10.48550/arxiv.")?.parse().ok()
    }
}

impl OpenAlexId {
    /// The `https://openalex.org/W…` URL of the work.
    pub fn url(&self) -> String {
        format!("https://openalex.org/{}", self.0)
    }
}

/// Any identifier of a work, normalised.
///
/// `FromStr` detects the kind from the text; `Display` prints a form `FromStr` reads back.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum WorkId {
    /// An OpenAlex work id.
    OpenAlex(OpenAlexId),
    /// A DOI.
    Doi(Doi),
    /// A PubMed id.
    Pmid(Pmid),
    /// A PubMed Central id.
    Pmcid(Pmcid),
    /// An arXiv id.
    Arxiv(ArxivId),
    /// A Semantic Scholar paper id.
    S2(S2Id),
    /// A web page's address.
    Url(WebUrl),
    /// A book's ISBN.
    Isbn(Isbn),
}

impl FromStr for WorkId {
    type Err = IdError;
    fn from_str(text: &str) -> Result<Self, IdError> {
        let trimmed = text.trim();
        // A text opening with a kind's prefix (or a DOI's `10.`) is that kind, whatever words
        // follow: arXiv's DOIs are `10.48550/arXiv.…`, and a DOI's suffix may hold `pubmed`,
        // `/pmc/` or `W1`, which the guesses below would take for another kind.
        let starts = |prefixes: &[&str]| {
            prefixes
                .iter()
                .any(|prefix| strip_prefix_ci(trimmed, prefix).is_some())
        };
        if trimmed.starts_with("10.") || starts(DOI_PREFIXES) {
            return trimmed.parse().map(WorkId::Doi);
        }
        type Parse = fn(&str) -> Result<WorkId, IdError>;
        let kinds: [(&[&str], Parse); 7] = [
            (OPENALEX_PREFIXES, |text| text.parse().map(WorkId::OpenAlex)),
            (PMID_PREFIXES, |text| text.parse().map(WorkId::Pmid)),
            (PMCID_PREFIXES, |text| text.parse().map(WorkId::Pmcid)),
            (ARXIV_PREFIXES, |text| text.parse().map(WorkId::Arxiv)),
            (S2_PREFIXES, |text| text.parse().map(WorkId::S2)),
            (URL_PREFIXES, |text| text.parse().map(WorkId::Url)),
            (ISBN_PREFIXES, |text| text.parse().map(WorkId::Isbn)),
        ];
        for (prefixes, parse) in kinds {
            if starts(prefixes) {
                return parse(trimmed);
            }
        }
        let lower = trimmed.to_ascii_lowercase();
        let looks_openalex = lower.contains("openalex.org/w")
            || lower.starts_with("openalex:")
            || (lower.starts_with('w')
                && lower.len() > 1
                && lower[1..].bytes().all(|b| b.is_ascii_digit()));
        if looks_openalex {
            return trimmed.parse().map(WorkId::OpenAlex);
        }
        if lower.contains("pubmed") || lower.starts_with("pmid:") {
            return trimmed.parse().map(WorkId::Pmid);
        }
        if lower.contains("/pmc/") || lower.contains("pmc.ncbi") || lower.starts_with("pmc") {
            return trimmed.parse().map(WorkId::Pmcid);
        }
        if lower.contains("arxiv") {
            return trimmed.parse().map(WorkId::Arxiv);
        }
        if lower.starts_with("s2:") || lower.contains("semanticscholar.org") {
            return trimmed.parse().map(WorkId::S2);
        }
        if lower.contains("10.") && (lower.starts_with("10.") || lower.contains("doi")) {
            return trimmed.parse().map(WorkId::Doi);
        }
        Err(IdError::Unrecognised(text.to_owned()))
    }
}

impl fmt::Display for WorkId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorkId::OpenAlex(id) => id.fmt(f),
            WorkId::Doi(id) => id.fmt(f),
            WorkId::Pmid(id) => id.fmt(f),
            WorkId::Pmcid(id) => id.fmt(f),
            WorkId::Arxiv(id) => id.fmt(f),
            WorkId::S2(id) => id.fmt(f),
            WorkId::Url(id) => id.fmt(f),
            WorkId::Isbn(id) => id.fmt(f),
        }
    }
}

impl TryFrom<String> for WorkId {
    type Error = IdError;
    fn try_from(text: String) -> Result<Self, IdError> {
        text.parse()
    }
}

impl From<WorkId> for String {
    fn from(id: WorkId) -> String {
        id.to_string()
    }
}

/// All the known identifiers of one work.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkIds {
    /// OpenAlex id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openalex: Option<OpenAlexId>,
    /// DOI.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doi: Option<Doi>,
    /// PubMed id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pmid: Option<Pmid>,
    /// PubMed Central id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pmcid: Option<Pmcid>,
    /// arXiv id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arxiv: Option<ArxivId>,
    /// Semantic Scholar id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub s2: Option<S2Id>,
    /// A web page's address (grey literature known by nothing else).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<WebUrl>,
    /// A book's ISBN (one of its editions').
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub isbn: Option<Isbn>,
}

impl WorkIds {
    /// The ids as a list of `WorkId`s, most authoritative first.
    pub fn all(&self) -> Vec<WorkId> {
        let mut ids = Vec::new();
        ids.extend(self.openalex.clone().map(WorkId::OpenAlex));
        ids.extend(self.doi.clone().map(WorkId::Doi));
        ids.extend(self.pmid.clone().map(WorkId::Pmid));
        ids.extend(self.pmcid.clone().map(WorkId::Pmcid));
        ids.extend(self.arxiv.clone().map(WorkId::Arxiv));
        ids.extend(self.s2.clone().map(WorkId::S2));
        ids.extend(self.isbn.clone().map(WorkId::Isbn));
        ids.extend(self.url.clone().map(WorkId::Url));
        ids
    }

    /// The id a work is stored under: the first of `all()`, if any.
    pub fn primary(&self) -> Option<WorkId> {
        self.all().into_iter().next()
    }

    /// Records one more id, keeping an id already known of the same kind.
    pub fn add(&mut self, id: WorkId) {
        match id {
            WorkId::OpenAlex(id) => {
                self.openalex.get_or_insert(id);
            }
            WorkId::Doi(id) => {
                // arXiv's DOI names the e-print, so a work known by it is also known by its
                // arXiv id: OpenAlex's record of a preprint and arXiv's (or Hugging Face's)
                // are then one work.
                if let Some(arxiv) = id.arxiv() {
                    self.arxiv.get_or_insert(arxiv);
                }
                self.doi.get_or_insert(id);
            }
            WorkId::Pmid(id) => {
                self.pmid.get_or_insert(id);
            }
            WorkId::Pmcid(id) => {
                self.pmcid.get_or_insert(id);
            }
            WorkId::Arxiv(id) => {
                self.arxiv.get_or_insert(id);
            }
            WorkId::S2(id) => {
                self.s2.get_or_insert(id);
            }
            WorkId::Url(id) => {
                self.url.get_or_insert(id);
            }
            WorkId::Isbn(id) => {
                self.isbn.get_or_insert(id);
            }
        }
    }

    /// Whether the two sets share any id.
    pub fn shares_any(&self, other: &WorkIds) -> bool {
        let theirs = other.all();
        self.all().iter().any(|id| theirs.contains(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: &str) {
        let id: WorkId = input.parse().unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(id.to_string(), expected, "normalising {input}");
        let again: WorkId = expected.parse().expect("canonical form parses");
        assert_eq!(again, id, "round trip of {expected}");
    }

    #[test]
    fn an_arxiv_doi_also_gives_the_works_arxiv_id() {
        let mut ids = WorkIds::default();
        ids.add(
            "https://doi.org/10.48550/arXiv.2404.04487"
                .parse()
                .expect("a DOI"),
        );
        assert_eq!(ids.arxiv.as_ref().map(ArxivId::as_str), Some("2404.04487"));
        assert_eq!(
            ids.doi.as_ref().map(Doi::as_str),
            Some("10.48550/arxiv.2404.04487")
        );
        let mut other = WorkIds::default();
        other.add(WorkId::Arxiv("2404.04487v2".parse().expect("an arXiv id")));
        assert!(
            ids.shares_any(&other),
            "the preprint and its arXiv DOI are one work"
        );
        // A journal's DOI says nothing of an arXiv id, nor a malformed arXiv DOI.
        let mut journal = WorkIds::default();
        journal.add("10.1000/xyz123".parse().expect("a DOI"));
        journal.add("10.48550/arxiv.not-an-id".parse().expect("a DOI"));
        assert_eq!(journal.arxiv, None);
    }

    #[test]
    fn normalises_web_addresses() {
        check(
            "url:HTTPS://Example.ORG/Reports/2024?id=3#top",
            "url:https://example.org/Reports/2024?id=3",
        );
        check(
            "url:http://127.0.0.1:8080/page",
            "url:http://127.0.0.1:8080/page",
        );
        for bad in [
            "url:ftp://example.org/x",
            "url:https://",
            "url:https://a b/c",
            "url:example.org",
        ] {
            assert!(bad.parse::<WorkId>().is_err(), "{bad}");
        }
        let plain: Result<WorkId, _> = "https://example.org/page".parse();
        assert!(plain.is_err(), "a bare address is not taken for a work id");
    }

    #[test]
    fn an_isbn_is_its_thirteen_digits_and_its_check_digit_must_hold() {
        // Fantastic Mr. Fox (Puffin, 1988): ISBN-10 0140328726, ISBN-13 9780140328721.
        check("isbn:0-14-032872-6", "isbn:9780140328721");
        check("ISBN:978-0-14-032872-1", "isbn:9780140328721");
        check("urn:isbn:9780140328721", "isbn:9780140328721");
        // An ISBN-10 whose check digit is X.
        check("isbn:080442957X", "isbn:9780804429573");
        for bad in [
            "isbn:0140328727",
            "isbn:9780140328722",
            "isbn:1234",
            "isbn:9770140328721",
            "isbn:97801403287２1",
            "isbn:",
        ] {
            assert!(bad.parse::<WorkId>().is_err(), "{bad}");
        }
        let mut ids = WorkIds::default();
        ids.add("isbn:0140328726".parse().expect("an ISBN"));
        ids.add(
            "url:https://openlibrary.org/works/OL45883W"
                .parse()
                .expect("a url"),
        );
        assert_eq!(
            ids.primary().map(|id| id.to_string()).as_deref(),
            Some("isbn:9780140328721"),
            "a book is known by its ISBN before its page"
        );
    }

    #[test]
    fn normalises_openalex_ids() {
        check("https://openalex.org/W2560438049", "W2560438049");
        check("w2560438049", "W2560438049");
        check("openalex:W42", "W42");
        check("https://api.openalex.org/works/W42", "W42");
    }

    #[test]
    fn normalises_dois() {
        check(
            "https://doi.org/10.1186/S13643-016-0384-4",
            "10.1186/s13643-016-0384-4",
        );
        check("doi:10.1000/XYZ", "10.1000/xyz");
        check("http://dx.doi.org/10.1000/abc", "10.1000/abc");
        check(" 10.1000/abc ", "10.1000/abc");
    }

    #[test]
    fn normalises_pubmed_ids() {
        check("https://pubmed.ncbi.nlm.nih.gov/27919275", "pmid:27919275");
        check("PMID:0027919275", "pmid:27919275");
        check(
            "https://www.ncbi.nlm.nih.gov/pmc/articles/5139140",
            "PMC5139140",
        );
        check("pmc5139140", "PMC5139140");
    }

    #[test]
    fn normalises_arxiv_ids_without_version() {
        check("arXiv:2101.00001v3", "arXiv:2101.00001");
        check(
            "https://arxiv.org/abs/hep-th/9901001v1",
            "arXiv:hep-th/9901001",
        );
        check("https://arxiv.org/pdf/1706.03762v7.pdf", "arXiv:1706.03762");
    }

    #[test]
    fn normalises_semantic_scholar_ids() {
        check(
            "s2:649DEF34F8BE52C8B66281AF98AE884C09AEF38B",
            "s2:649def34f8be52c8b66281af98ae884c09aef38b",
        );
    }

    #[test]
    fn rejects_what_is_not_an_id() {
        for bad in [
            "",
            "hello",
            "W",
            "Wabc",
            "doi:11.1/x",
            "pmid:abc",
            "arXiv:12.3",
        ] {
            assert!(bad.parse::<WorkId>().is_err(), "{bad} should not parse");
        }
    }

    #[test]
    fn a_prefix_decides_the_kind() {
        // Found by the fuzz target `work_id`: arXiv's own DOIs, and DOIs whose suffix holds
        // `pmc`, `pubmed` or a `W` number, were taken for arXiv, PubMed or OpenAlex ids and
        // refused, so the DOI a parser read was dropped and a stored DOI did not read back.
        check(
            "https://doi.org/10.48550/arXiv.2101.00001",
            "10.48550/arxiv.2101.00001",
        );
        check("10.1093/obo/9780199/pmc/60", "10.1093/obo/9780199/pmc/60");
        check("doi:10.1000/pubmed.12", "10.1000/pubmed.12");
        check("10.1000/openalex.org/w1", "10.1000/openalex.org/w1");
        // An old-style arXiv archive may be any word; its `arXiv:` form still reads back.
        check("arXiv:pubmed/1234567", "arXiv:pubmed/1234567");
        check(
            "https://www.semanticscholar.org/paper/PubMed-Arxiv-Tools/649def34f8be52c8b66281af98ae884c09aef38b",
            "s2:649def34f8be52c8b66281af98ae884c09aef38b",
        );
    }

    #[test]
    fn a_pubmed_id_of_zeros_is_no_id() {
        // Found by the fuzz target `ris` (`AN  - pmid:0`): it was kept as an empty id that
        // printed as `pmid:` and did not read back.
        for zeros in ["pmid:0", "0", "https://pubmed.ncbi.nlm.nih.gov/000/"] {
            assert!(zeros.parse::<Pmid>().is_err(), "{zeros}");
        }
        assert!("pmid:0".parse::<WorkId>().is_err());
        check("pmid:007", "pmid:7");
    }

    #[test]
    fn serde_uses_the_canonical_text() {
        let id: WorkId = "https://doi.org/10.1/ABC".parse().expect("doi");
        let json = serde_json::to_string(&id).expect("serialise");
        assert_eq!(json, "\"10.1/abc\"");
        let back: WorkId = serde_json::from_str(&json).expect("deserialise");
        assert_eq!(back, id);
    }
}
