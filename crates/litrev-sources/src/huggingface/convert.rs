//! The Hub's paper search answer read into works: each paper a preprint known by its arXiv id.

use litrev_model::{ArxivId, Author, Work, WorkId, WorkIds, WorkKind};
use serde::Deserialize;

/// The works of one search answer.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PaperResults {
    /// The papers with an arXiv id and a title, in the Hub's order.
    pub works: Vec<Work>,
    /// Papers left out for want of an arXiv id or a title.
    pub skipped: usize,
}

/// The answer: a list of papers, or the Hub's error object.
#[derive(Deserialize)]
#[serde(untagged)]
enum Answer {
    Papers(Vec<Item>),
    Error { error: String },
}

/// One entry of the list: the paper, and the submission's own copy of its title and summary.
#[derive(Deserialize)]
struct Item {
    #[serde(default)]
    paper: Option<Paper>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    summary: Option<String>,
}

#[derive(Deserialize)]
struct Paper {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    summary: Option<String>,
    #[serde(default)]
    authors: Vec<PaperAuthor>,
    #[serde(rename = "publishedAt", default)]
    published_at: Option<String>,
    #[serde(default)]
    ai_keywords: Vec<String>,
}

#[derive(Deserialize)]
struct PaperAuthor {
    #[serde(default)]
    name: Option<String>,
}

/// Reads one answer of `/api/papers/search` (the list `/api/daily_papers` gives has the same
/// entries).
///
/// # Errors
/// When the body is not JSON of that shape, or is the Hub's `{"error": …}` (said as it is).
pub fn parse_papers(body: &str) -> Result<PaperResults, String> {
    let answer: Answer =
        serde_json::from_str(body).map_err(|error| format!("not a list of papers ({error})"))?;
    let items = match answer {
        Answer::Papers(items) => items,
        Answer::Error { error } => return Err(format!("the Hub answered with an error: {error}")),
    };
    let mut read = PaperResults::default();
    for item in items {
        match work_of(item) {
            Some(work) => read.works.push(work),
            None => read.skipped += 1,
        }
    }
    Ok(read)
}

/// Text as one line: arXiv abstracts come with their hard line breaks.
fn one_line(text: &str) -> Option<String> {
    let joined = crate::web::collapse(text);
    (!joined.is_empty()).then_some(joined)
}

/// One paper as a work; `None` without an arXiv id or a title.
fn work_of(item: Item) -> Option<Work> {
    let paper = item.paper?;
    let arxiv: ArxivId = paper.id.as_deref()?.parse().ok()?;
    let title = paper
        .title
        .as_deref()
        .or(item.title.as_deref())
        .and_then(one_line)?;
    let mut ids = WorkIds::default();
    ids.add(WorkId::Arxiv(arxiv.clone()));
    let date = paper.published_at.as_deref().and_then(crate::web::iso_date);
    let year = date.as_deref().and_then(crate::web::year_of);
    let mut keywords: Vec<String> = Vec::new();
    for keyword in paper
        .ai_keywords
        .iter()
        .filter_map(|keyword| one_line(keyword))
    {
        if !keywords.contains(&keyword) {
            keywords.push(keyword);
        }
    }
    Some(Work {
        ids,
        title: Some(title),
        authors: paper
            .authors
            .iter()
            .filter_map(|author| author.name.as_deref().and_then(one_line))
            .map(Author::named)
            .collect(),
        year,
        date,
        venue: Some("arXiv".to_owned()),
        kind: WorkKind::Preprint,
        abstract_text: paper
            .summary
            .as_deref()
            .or(item.summary.as_deref())
            .and_then(one_line),
        keywords,
        oa_url: Some(format!("https://arxiv.org/pdf/{}", arxiv.as_str())),
        ..Work::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_without_an_arxiv_id_or_a_title_are_counted_not_read() {
        let body = r#"[
            {"paper": {"id": "2404.04487", "title": "KazQAD:\n Kazakh QA", "summary": "We introduce\nKazQAD.",
              "authors": [{"name": "Rustem Yeshpanov"}, {"name": " "}], "publishedAt": "2024-04-06T03:40:36.000Z",
              "ai_keywords": ["open-domain QA", "open-domain QA"]}},
            {"paper": {"id": "not an id", "title": "Lost"}},
            {"paper": {"id": "2401.00001"}},
            {"title": "no paper"}
        ]"#;
        let read = parse_papers(body).expect("read");
        assert_eq!(read.skipped, 3);
        let work = &read.works[0];
        assert_eq!(work.id().to_string(), "arXiv:2404.04487");
        assert_eq!(work.title.as_deref(), Some("KazQAD: Kazakh QA"));
        assert_eq!(work.abstract_text.as_deref(), Some("We introduce KazQAD."));
        assert_eq!(work.authors.len(), 1);
        assert_eq!(
            (work.year, work.date.as_deref()),
            (Some(2024), Some("2024-04-06"))
        );
        assert_eq!(work.keywords, ["open-domain QA"]);
        assert_eq!(work.kind, WorkKind::Preprint);
    }

    #[test]
    fn the_hubs_error_and_other_bodies_are_errors_that_say_so() {
        let error = parse_papers(r#"{"error": "Invalid query"}"#).expect_err("an error");
        assert!(error.contains("Invalid query"), "{error}");
        assert!(parse_papers("<html>").is_err());
        assert!(parse_papers(r#"{"papers": []}"#).is_err());
        assert_eq!(parse_papers("[]").expect("empty").works.len(), 0);
    }
}
