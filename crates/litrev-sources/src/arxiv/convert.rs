//! arXiv Atom entries → `Work`s.

use litrev_model::{ArxivId, Author, Work, WorkId, WorkIds, WorkKind};

use super::Error;
use super::wire::{WireEntry, read_feed};

/// One page of an arXiv feed.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedPage {
    /// Entries matching the query in all (`opensearch:totalResults`).
    pub total_results: u64,
    /// Offset of this page (`opensearch:startIndex`).
    pub start_index: u64,
    /// Entries asked for per page (`opensearch:itemsPerPage`).
    pub items_per_page: u64,
    /// The page's entries as works.
    pub works: Vec<Work>,
    /// Entries dropped because their id is not an arXiv id.
    pub skipped: usize,
}

/// Reads an arXiv Atom feed (an `id_list` look-up or a search page).
///
/// # Errors
/// `Error::Api` for an error feed, `Error::Format` for a body that is not an Atom feed.
pub fn parse_feed(xml: &str) -> Result<FeedPage, Error> {
    let feed = read_feed(xml).map_err(Error::Format)?;
    if let Some(error) = feed
        .entries
        .iter()
        .find(|entry| entry.id.contains("/api/errors"))
    {
        return Err(Error::Api {
            id: error.id.clone(),
            message: error
                .summary
                .clone()
                .or_else(|| error.title.clone())
                .unwrap_or_default(),
        });
    }
    let total = feed.entries.len();
    let works: Vec<Work> = feed.entries.iter().filter_map(work_from_entry).collect();
    Ok(FeedPage {
        total_results: feed.total_results.unwrap_or(0),
        start_index: feed.start_index.unwrap_or(0),
        items_per_page: feed.items_per_page.unwrap_or(0),
        skipped: total - works.len(),
        works,
    })
}

/// Converts one entry; `None` when its id is not an arXiv abstract URL.
fn work_from_entry(entry: &WireEntry) -> Option<Work> {
    let arxiv: ArxivId = entry.id.parse().ok()?;
    let mut ids = WorkIds::default();
    ids.add(WorkId::Arxiv(arxiv));
    // `arxiv:doi` may list several DOIs separated by spaces; the first valid one is the work's.
    let doi = entry
        .doi
        .as_deref()
        .and_then(|text| text.split_whitespace().find_map(|doi| doi.parse().ok()));
    let published = doi.is_some() || entry.journal_ref.is_some();
    if let Some(doi) = doi {
        ids.add(WorkId::Doi(doi));
    }
    let date = entry.published.as_deref().and_then(crate::web::iso_date);
    let year = date.as_deref().and_then(crate::web::year_of);
    let mut keywords: Vec<String> = Vec::new();
    for category in entry.primary_category.iter().chain(entry.categories.iter()) {
        if !keywords.contains(category) {
            keywords.push(category.clone());
        }
    }
    let pdf = entry.links.iter().find(|link| {
        link.title.as_deref() == Some("pdf")
            || link.media_type.as_deref() == Some("application/pdf")
    });
    let abstract_page = entry
        .links
        .iter()
        .find(|link| link.rel.as_deref() == Some("alternate"));
    Some(Work {
        topics: Vec::new(),
        ids,
        title: entry.title.clone(),
        authors: entry
            .authors
            .iter()
            .map(|name| Author::named(name.clone()))
            .collect(),
        year,
        date,
        venue: Some(
            entry
                .journal_ref
                .clone()
                .unwrap_or_else(|| "arXiv".to_owned()),
        ),
        publisher: None,
        kind: if published {
            WorkKind::Article
        } else {
            WorkKind::Preprint
        },
        biblio: Default::default(),
        abstract_text: entry.summary.clone(),
        language: None,
        cited_by_count: None,
        keywords,
        fields: Vec::new(),
        references: Vec::new(),
        oa_url: pdf.or(abstract_page).map(|link| link.href.clone()),
        is_retracted: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEED: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <opensearch:totalResults>2</opensearch:totalResults>
  <opensearch:startIndex>0</opensearch:startIndex>
  <opensearch:itemsPerPage>10</opensearch:itemsPerPage>
  <entry>
    <id>http://arxiv.org/abs/2101.00001v3</id>
    <published>2021-01-01T10:00:00Z</published>
    <title>A  Title
      Over Lines</title>
    <summary>  An abstract
over lines.</summary>
    <author><name>Jane Smith</name></author>
    <author><name>Li Wei</name></author>
    <link href="http://arxiv.org/abs/2101.00001v3" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/2101.00001v3" rel="related" type="application/pdf"/>
    <arxiv:primary_category term="cs.LG"/>
    <category term="cs.LG"/><category term="stat.ML"/>
  </entry>
  <entry>
    <id>http://arxiv.org/abs/hep-th/9901001v1</id>
    <published>1999-01-01T00:00:00Z</published>
    <title>Old</title>
    <arxiv:doi>10.1103/PhysRevB.85.115117</arxiv:doi>
    <arxiv:journal_ref>Phys. Rev. B 85, 115117 (2012)</arxiv:journal_ref>
  </entry>
</feed>"#;

    #[test]
    fn reads_entries_into_works() {
        let page = parse_feed(FEED).expect("feed");
        assert_eq!(
            (page.total_results, page.start_index, page.items_per_page),
            (2, 0, 10)
        );
        let first = &page.works[0];
        assert_eq!(
            first.ids.arxiv.as_ref().map(|id| id.as_str()),
            Some("2101.00001")
        );
        assert_eq!(first.title.as_deref(), Some("A Title Over Lines"));
        assert_eq!(
            first.abstract_text.as_deref(),
            Some("An abstract over lines.")
        );
        assert_eq!(
            (first.year, first.date.as_deref()),
            (Some(2021), Some("2021-01-01"))
        );
        assert_eq!(first.kind, WorkKind::Preprint);
        assert_eq!(
            first.keywords,
            vec!["cs.LG".to_owned(), "stat.ML".to_owned()]
        );
        assert_eq!(
            first.oa_url.as_deref(),
            Some("http://arxiv.org/pdf/2101.00001v3")
        );
        assert_eq!(first.authors.len(), 2);
        let second = &page.works[1];
        assert_eq!(
            second.ids.arxiv.as_ref().map(|id| id.as_str()),
            Some("hep-th/9901001")
        );
        assert_eq!(
            second.ids.doi.as_ref().map(|id| id.as_str()),
            Some("10.1103/physrevb.85.115117")
        );
        assert_eq!(second.kind, WorkKind::Article);
        assert_eq!(
            second.venue.as_deref(),
            Some("Phys. Rev. B 85, 115117 (2012)")
        );
    }

    #[test]
    fn refuses_what_is_not_a_feed() {
        assert!(matches!(
            parse_feed("<html><body>busy</body></html>"),
            Err(Error::Format(_))
        ));
        assert!(matches!(parse_feed("not xml"), Err(Error::Format(_))));
        assert!(matches!(parse_feed(""), Err(Error::Format(_))));
    }
}
