//! One result of a web search provider (Brave, Tavily) read into a work: a `webpage` known by
//! its address, or an entry of the Stanford Encyclopedia of Philosophy cited as one.

use litrev_model::{WebUrl, Work, WorkIds, WorkKind};

use crate::markup::inline_to_text;

/// The Stanford Encyclopedia of Philosophy, as its entries are cited.
pub const SEP_NAME: &str = "The Stanford Encyclopedia of Philosophy";

/// What the encyclopedia's pages add to an entry's title.
const SEP_TITLE_SUFFIX: &str = "(Stanford Encyclopedia of Philosophy)";

/// The fields every provider gives of a result, as it gives them (markup and entities are
/// read here).
#[derive(Debug, Clone, Default)]
pub(crate) struct WebResult<'a> {
    /// The page's address.
    pub url: Option<&'a str>,
    /// The page's title.
    pub title: Option<&'a str>,
    /// The provider's snippets of the page, in order: they become the work's abstract.
    pub snippets: Vec<&'a str>,
    /// When the page was published or last changed (`2024-12-27T15:49:55` or a prefix).
    pub date: Option<&'a str>,
    /// The site's name, or its host.
    pub site: Option<&'a str>,
    /// The page's language, as a two-letter code.
    pub language: Option<&'a str>,
}

/// Whether an address is an entry of the Stanford Encyclopedia of Philosophy
/// (`https://plato.stanford.edu/entries/consciousness/`, or an archived edition's).
fn is_sep_entry(url: &WebUrl) -> bool {
    let address = url.address();
    let rest = address.split_once("://").map_or(address, |(_, rest)| rest);
    rest.strip_prefix("plato.stanford.edu/")
        .is_some_and(|path| path.starts_with("entries/") || path.starts_with("archives/"))
}

impl WebResult<'_> {
    /// The result as a work; none without a web address or a title.
    pub(crate) fn work(&self) -> Option<Work> {
        let url: WebUrl = self.url?.parse().ok()?;
        let title = self
            .title
            .map(inline_to_text)
            .filter(|title| !title.is_empty())?;
        let snippets: Vec<String> = self
            .snippets
            .iter()
            .map(|snippet| inline_to_text(snippet))
            .filter(|snippet| !snippet.is_empty())
            .collect();
        let date = self.date.and_then(super::iso_date);
        let year = date.as_deref().and_then(super::year_of);
        let venue = self
            .site
            .map(inline_to_text)
            .filter(|name| !name.is_empty())
            .or_else(|| super::host_of(url.address()).map(str::to_owned));
        // An entry of the Stanford Encyclopedia of Philosophy is cited as such, by its own title.
        let (kind, title, venue) = if is_sep_entry(&url) {
            let title = title
                .strip_suffix(SEP_TITLE_SUFFIX)
                .map_or(title.clone(), |entry| entry.trim().to_owned());
            (
                WorkKind::EncyclopediaEntry,
                title,
                Some(SEP_NAME.to_owned()),
            )
        } else {
            (WorkKind::Webpage, title, venue)
        };
        Some(Work {
            ids: WorkIds {
                url: Some(url.clone()),
                ..WorkIds::default()
            },
            title: Some(title),
            year,
            date,
            venue,
            kind,
            abstract_text: Some(snippets.join(" ")).filter(|text| !text.is_empty()),
            language: self
                .language
                .filter(|lang| lang.len() == 2 && lang.chars().all(|c| c.is_ascii_alphabetic()))
                .map(str::to_ascii_lowercase),
            oa_url: Some(url.address().to_owned()),
            ..Work::default()
        })
    }
}
