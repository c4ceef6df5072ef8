//! E-utilities XML as NCBI writes it, read with roxmltree into plain structs.
//!
//! Elements are found by name along the paths of the PubMed DTDs; the 2018–2019 and 2025
//! versions differ only in elements litrev does not read (or that are optional), and MEDLINE's
//! `MedlineCitationSet` holds the same `MedlineCitation` without `PubmedData`.

use roxmltree::{Document, Node, ParsingOptions};

/// Parses XML that may carry a `<!DOCTYPE …>` (every E-utility answer does).
pub(super) fn document(xml: &str) -> Result<Document<'_>, String> {
    let options = ParsingOptions {
        allow_dtd: true,
        ..ParsingOptions::default()
    };
    Document::parse_with_options(xml, options).map_err(|error| error.to_string())
}

/// The first child element named `name`.
pub(super) fn child<'a, 'input>(node: Node<'a, 'input>, name: &str) -> Option<Node<'a, 'input>> {
    node.children()
        .find(|child| child.is_element() && child.tag_name().name() == name)
}

/// The child elements named `name`.
pub(super) fn children<'a, 'input>(
    node: Node<'a, 'input>,
    name: &'a str,
) -> impl Iterator<Item = Node<'a, 'input>> + 'a {
    node.children()
        .filter(move |child| child.is_element() && child.tag_name().name() == name)
}

/// The element at a path of child names.
pub(super) fn at<'a, 'input>(node: Node<'a, 'input>, path: &[&str]) -> Option<Node<'a, 'input>> {
    path.iter().try_fold(node, |node, name| child(node, name))
}

/// All the text inside an element (inline markup such as `<i>` and `<sup>` flattened), white
/// space squeezed; `None` when empty.
pub(super) fn text(node: Node) -> Option<String> {
    let joined: String = node
        .descendants()
        .filter(Node::is_text)
        .filter_map(|text| text.text())
        .collect();
    let squeezed = joined.split_whitespace().collect::<Vec<_>>().join(" ");
    (!squeezed.is_empty()).then_some(squeezed)
}

/// The text at a path of child names.
pub(super) fn text_at(node: Node, path: &[&str]) -> Option<String> {
    at(node, path).and_then(text)
}

/// The non-empty `<ERROR>` messages of the root or directly inside it (esearch, efetch,
/// esummary, epost and elink all put them there).
pub(super) fn errors(root: Node) -> Vec<String> {
    if root.tag_name().name() == "ERROR" {
        return text(root).into_iter().collect();
    }
    children(root, "ERROR").filter_map(text).collect()
}

/// One PubMed record: `PubmedArticle`, a bare `MedlineCitation`, or a `PubmedBookArticle`.
#[derive(Debug, Default)]
pub(super) struct WireArticle {
    pub pmid: Option<String>,
    pub doi: Option<String>,
    pub pmcid: Option<String>,
    pub pmc_embargoed: bool,
    pub title: Option<String>,
    /// `(Label, text)` of each `AbstractText`.
    pub abstract_sections: Vec<(Option<String>, String)>,
    pub authors: Vec<WireAuthor>,
    pub venue: Option<String>,
    pub publisher: Option<String>,
    pub volume: Option<String>,
    pub issue: Option<String>,
    pub pages: Option<String>,
    pub start_page: Option<String>,
    pub end_page: Option<String>,
    pub pub_date: WireDate,
    pub languages: Vec<String>,
    pub publication_types: Vec<String>,
    /// `(descriptor, major topic)`.
    pub mesh: Vec<(String, bool)>,
    pub keywords: Vec<String>,
    pub references: Vec<WireIds>,
    pub is_book: bool,
    pub is_chapter: bool,
}

#[derive(Debug, Default)]
pub(super) struct WireAuthor {
    pub last_name: Option<String>,
    pub fore_name: Option<String>,
    pub initials: Option<String>,
    pub collective_name: Option<String>,
    pub orcid: Option<String>,
}

#[derive(Debug, Default)]
pub(super) struct WireDate {
    pub year: Option<String>,
    pub month: Option<String>,
    pub day: Option<String>,
    pub medline_date: Option<String>,
}

/// The ids of an `ArticleIdList`.
#[derive(Debug, Default)]
pub(super) struct WireIds {
    pub pmid: Option<String>,
    pub doi: Option<String>,
    pub pmcid: Option<String>,
}

fn read_ids(list: Option<Node>) -> WireIds {
    let mut ids = WireIds::default();
    for id in list
        .into_iter()
        .flat_map(|list| children(list, "ArticleId"))
    {
        let slot = match id.attribute("IdType") {
            Some("pubmed") => &mut ids.pmid,
            Some("doi") => &mut ids.doi,
            Some("pmc") => &mut ids.pmcid,
            _ => continue,
        };
        if slot.is_none() {
            *slot = text(id);
        }
    }
    ids
}

fn read_date(node: Option<Node>) -> WireDate {
    let Some(node) = node else {
        return WireDate::default();
    };
    WireDate {
        year: text_at(node, &["Year"]),
        month: text_at(node, &["Month"]),
        day: text_at(node, &["Day"]),
        medline_date: text_at(node, &["MedlineDate"]),
    }
}

fn read_authors(list: Option<Node>) -> Vec<WireAuthor> {
    list.into_iter()
        .flat_map(|list| children(list, "Author"))
        .map(|author| WireAuthor {
            last_name: text_at(author, &["LastName"]),
            fore_name: text_at(author, &["ForeName"]),
            initials: text_at(author, &["Initials"]),
            collective_name: text_at(author, &["CollectiveName"]),
            orcid: children(author, "Identifier")
                .find(|identifier| identifier.attribute("Source") == Some("ORCID"))
                .and_then(text),
        })
        .collect()
}

fn read_abstract(node: Option<Node>) -> Vec<(Option<String>, String)> {
    node.into_iter()
        .flat_map(|node| children(node, "AbstractText"))
        .filter_map(|section| {
            let body = text(section)?;
            let label = section
                .attribute("Label")
                .map(str::trim)
                .filter(|label| !label.is_empty() && !label.eq_ignore_ascii_case("UNLABELLED"))
                .map(str::to_owned);
            Some((label, body))
        })
        .collect()
}

/// Reads a `PubmedArticle` (or a bare `MedlineCitation`).
pub(super) fn read_article(node: Node) -> WireArticle {
    let citation = if node.tag_name().name() == "MedlineCitation" {
        node
    } else {
        child(node, "MedlineCitation").unwrap_or(node)
    };
    let pubmed_data = child(node, "PubmedData");
    let article = child(citation, "Article");
    let journal = article.and_then(|article| child(article, "Journal"));
    let issue = journal.and_then(|journal| child(journal, "JournalIssue"));
    let ids = read_ids(pubmed_data.and_then(|data| child(data, "ArticleIdList")));
    let elocation_doi = article.and_then(|article| {
        children(article, "ELocationID")
            .find(|id| {
                id.attribute("EIdType") == Some("doi") && id.attribute("ValidYN") != Some("N")
            })
            .and_then(text)
    });
    let other_pmc = children(citation, "OtherID")
        .filter_map(text)
        .find_map(|id| {
            id.split_whitespace()
                .next()
                .filter(|first| first.starts_with("PMC"))
                .map(str::to_owned)
        });
    let pmc_embargoed = pubmed_data
        .and_then(|data| child(data, "History"))
        .is_some_and(|history| {
            children(history, "PubMedPubDate")
                .any(|date| date.attribute("PubStatus") == Some("pmc-release"))
        })
        || children(citation, "OtherID")
            .filter_map(text)
            .any(|id| id.starts_with("PMC") && id.contains("Available on"));
    let pagination = article.and_then(|article| child(article, "Pagination"));
    let mut references = Vec::new();
    for reference in pubmed_data
        .into_iter()
        .flat_map(|data| data.descendants())
        .filter(|node| node.is_element() && node.tag_name().name() == "Reference")
    {
        references.push(read_ids(child(reference, "ArticleIdList")));
    }
    WireArticle {
        pmid: text_at(citation, &["PMID"]),
        doi: ids.doi.or(elocation_doi),
        pmcid: ids.pmcid.or(other_pmc),
        pmc_embargoed,
        title: article
            .and_then(|article| text_at(article, &["ArticleTitle"]))
            .or_else(|| article.and_then(|article| text_at(article, &["VernacularTitle"]))),
        abstract_sections: read_abstract(article.and_then(|article| child(article, "Abstract"))),
        authors: read_authors(article.and_then(|article| child(article, "AuthorList"))),
        venue: journal.and_then(|journal| text_at(journal, &["Title"])),
        publisher: None,
        volume: issue.and_then(|issue| text_at(issue, &["Volume"])),
        issue: issue.and_then(|issue| text_at(issue, &["Issue"])),
        pages: pagination.and_then(|pages| text_at(pages, &["MedlinePgn"])),
        start_page: pagination.and_then(|pages| text_at(pages, &["StartPage"])),
        end_page: pagination.and_then(|pages| text_at(pages, &["EndPage"])),
        pub_date: read_date(issue.and_then(|issue| child(issue, "PubDate"))),
        languages: article
            .into_iter()
            .flat_map(|article| children(article, "Language"))
            .filter_map(text)
            .collect(),
        publication_types: article
            .and_then(|article| child(article, "PublicationTypeList"))
            .into_iter()
            .flat_map(|list| children(list, "PublicationType"))
            .filter_map(text)
            .collect(),
        mesh: child(citation, "MeshHeadingList")
            .into_iter()
            .flat_map(|list| children(list, "MeshHeading"))
            .filter_map(|heading| {
                let descriptor = child(heading, "DescriptorName")?;
                let major = descriptor.attribute("MajorTopicYN") == Some("Y")
                    || children(heading, "QualifierName")
                        .any(|qualifier| qualifier.attribute("MajorTopicYN") == Some("Y"));
                Some((text(descriptor)?, major))
            })
            .collect(),
        keywords: children(citation, "KeywordList")
            .flat_map(|list| children(list, "Keyword"))
            .filter_map(text)
            .collect(),
        references,
        is_book: false,
        is_chapter: false,
    }
}

/// Reads a `PubmedBookArticle` (a book or a chapter of one, from NCBI Bookshelf).
pub(super) fn read_book_article(node: Node) -> WireArticle {
    let document = child(node, "BookDocument").unwrap_or(node);
    let book = child(document, "Book");
    let ids = read_ids(
        child(node, "PubmedBookData")
            .and_then(|data| child(data, "ArticleIdList"))
            .or_else(|| child(document, "ArticleIdList")),
    );
    let chapter_title = text_at(document, &["ArticleTitle"]);
    let book_title = book.and_then(|book| text_at(book, &["BookTitle"]));
    let authors = read_authors(child(document, "AuthorList"));
    WireArticle {
        pmid: text_at(document, &["PMID"]).or(ids.pmid),
        doi: ids.doi,
        pmcid: ids.pmcid,
        pmc_embargoed: false,
        is_chapter: chapter_title.is_some(),
        venue: chapter_title.as_ref().and(book_title.clone()),
        title: chapter_title.or(book_title),
        abstract_sections: read_abstract(child(document, "Abstract")),
        authors: if authors.is_empty() {
            read_authors(book.and_then(|book| child(book, "AuthorList")))
        } else {
            authors
        },
        publisher: book.and_then(|book| text_at(book, &["Publisher", "PublisherName"])),
        volume: book.and_then(|book| text_at(book, &["Volume"])),
        issue: None,
        pages: None,
        start_page: None,
        end_page: None,
        pub_date: read_date(book.and_then(|book| child(book, "PubDate"))),
        languages: children(document, "Language").filter_map(text).collect(),
        publication_types: child(document, "PublicationType")
            .and_then(text)
            .into_iter()
            .chain(
                child(document, "PublicationTypeList")
                    .into_iter()
                    .flat_map(|list| children(list, "PublicationType"))
                    .filter_map(text),
            )
            .collect(),
        mesh: Vec::new(),
        keywords: children(document, "KeywordList")
            .flat_map(|list| children(list, "Keyword"))
            .filter_map(text)
            .collect(),
        references: Vec::new(),
        is_book: true,
    }
}
