//! The arXiv Atom feed as the API writes it, read with roxmltree into plain structs.
//!
//! Elements are matched by local name within the Atom, OpenSearch and arXiv namespaces, so the
//! 2016 layout (namespaces declared on each element) and the current one read alike.

use roxmltree::{Document, Node, ParsingOptions};

/// A feed: the paging counters and its entries.
#[derive(Debug, Default)]
pub(super) struct WireFeed {
    pub total_results: Option<u64>,
    pub start_index: Option<u64>,
    pub items_per_page: Option<u64>,
    pub entries: Vec<WireEntry>,
}

/// One `<entry>`.
#[derive(Debug, Default)]
pub(super) struct WireEntry {
    pub id: String,
    pub title: Option<String>,
    pub summary: Option<String>,
    pub published: Option<String>,
    pub authors: Vec<String>,
    pub doi: Option<String>,
    pub journal_ref: Option<String>,
    pub primary_category: Option<String>,
    pub categories: Vec<String>,
    pub links: Vec<WireLink>,
}

/// One `<link>` of an entry.
#[derive(Debug, Default)]
pub(super) struct WireLink {
    pub href: String,
    pub rel: Option<String>,
    pub title: Option<String>,
    pub media_type: Option<String>,
}

/// Reads the XML text of a feed.
pub(super) fn read_feed(xml: &str) -> Result<WireFeed, String> {
    let options = ParsingOptions {
        allow_dtd: true,
        ..ParsingOptions::default()
    };
    let document = Document::parse_with_options(xml, options).map_err(|error| error.to_string())?;
    let root = document.root_element();
    if root.tag_name().name() != "feed" {
        return Err(format!(
            "the root element is <{}>, not <feed>",
            root.tag_name().name()
        ));
    }
    let mut feed = WireFeed::default();
    for child in root.children().filter(Node::is_element) {
        match child.tag_name().name() {
            "totalResults" => feed.total_results = number(child),
            "startIndex" => feed.start_index = number(child),
            "itemsPerPage" => feed.items_per_page = number(child),
            "entry" => feed.entries.push(read_entry(child)),
            _ => {}
        }
    }
    Ok(feed)
}

fn read_entry(entry: Node) -> WireEntry {
    let mut out = WireEntry::default();
    for child in entry.children().filter(Node::is_element) {
        match child.tag_name().name() {
            "id" => out.id = text(child).unwrap_or_default(),
            "title" => out.title = text(child),
            "summary" => out.summary = text(child),
            "published" => out.published = text(child),
            "author" => {
                if let Some(name) = child
                    .children()
                    .find(|node| node.tag_name().name() == "name")
                    .and_then(text)
                {
                    out.authors.push(name);
                }
            }
            "doi" => out.doi = text(child),
            "journal_ref" => out.journal_ref = text(child),
            "primary_category" => {
                out.primary_category = child.attribute("term").map(str::to_owned);
            }
            "category" => {
                if let Some(term) = child.attribute("term") {
                    out.categories.push(term.to_owned());
                }
            }
            "link" => {
                if let Some(href) = child.attribute("href") {
                    out.links.push(WireLink {
                        href: href.to_owned(),
                        rel: child.attribute("rel").map(str::to_owned),
                        title: child.attribute("title").map(str::to_owned),
                        media_type: child.attribute("type").map(str::to_owned),
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// The element's text (all descendant text), white space squeezed; `None` when empty.
fn text(node: Node) -> Option<String> {
    let joined: String = node
        .descendants()
        .filter(Node::is_text)
        .filter_map(|text| text.text())
        .collect();
    let squeezed = joined.split_whitespace().collect::<Vec<_>>().join(" ");
    (!squeezed.is_empty()).then_some(squeezed)
}

fn number(node: Node) -> Option<u64> {
    text(node).and_then(|text| text.parse().ok())
}
