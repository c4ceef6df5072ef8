//! URLs of the arXiv API (`/api/query`) and its query syntax.

/// The API's base URL (the export mirror the API documentation asks clients to use).
pub const DEFAULT_BASE_URL: &str = "https://export.arxiv.org";

/// Most entries one call may ask for (`max_results`); arXiv asks for slices of this size.
pub const MAX_RESULTS: usize = 2000;

/// The order of a search's results.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SortBy {
    /// Best match first.
    #[default]
    Relevance,
    /// Most recently updated first.
    LastUpdatedDate,
    /// Most recently submitted first.
    SubmittedDate,
}

impl SortBy {
    fn name(self) -> &'static str {
        match self {
            SortBy::Relevance => "relevance",
            SortBy::LastUpdatedDate => "lastUpdatedDate",
            SortBy::SubmittedDate => "submittedDate",
        }
    }
}

/// `/api/query?search_query=…&start=…&max_results=…&sortBy=…&sortOrder=descending`.
///
/// `search_query` is in arXiv's syntax (`query_from_text` writes it from plain words);
/// `max_results` is clamped to `1..=MAX_RESULTS`.
pub fn search_url(
    base: &str,
    search_query: &str,
    start: usize,
    max_results: usize,
    sort: SortBy,
) -> String {
    let start = start.to_string();
    let max_results = max_results.clamp(1, MAX_RESULTS).to_string();
    format!(
        "{}/api/query?{}",
        crate::url::base(base),
        crate::url::query([
            ("search_query", search_query),
            ("start", start.as_str()),
            ("max_results", max_results.as_str()),
            ("sortBy", sort.name()),
            ("sortOrder", "descending"),
        ])
    )
}

/// `/api/query?id_list=…`: look-ups by id, comma-separated; an id with a version
/// (`2104.12255v1`) asks for that version.
pub fn id_list_url(base: &str, ids: &[String], start: usize, max_results: usize) -> String {
    let ids: Vec<&str> = ids.iter().map(|id| id.trim()).collect();
    let ids = ids.join(",");
    let start = start.to_string();
    let max_results = max_results.clamp(1, MAX_RESULTS).to_string();
    format!(
        "{}/api/query?{}",
        crate::url::base(base),
        crate::url::query([
            ("id_list", ids.as_str()),
            ("start", start.as_str()),
            ("max_results", max_results.as_str()),
        ])
    )
}

/// Words too common to narrow an arXiv search when every term must match.
const STOPWORDS: &[&str] = &[
    "a", "about", "an", "and", "are", "as", "at", "be", "been", "between", "by", "can", "do",
    "does", "for", "from", "has", "have", "how", "in", "into", "is", "it", "its", "of", "on", "or",
    "than", "that", "the", "their", "these", "this", "those", "to", "was", "were", "what", "when",
    "which", "who", "why", "with",
];

/// Turns a question or keywords into arXiv's query syntax: every word and `"quoted phrase"`
/// searched in all fields (`all:`), joined with `AND`.
///
/// Upper-case `AND`, `OR`, `NOT` (written `ANDNOT`) between terms are kept, as are terms
/// already naming a field (`ti:transformer`, `au:del_maestro`, `cat:cs.LG`); punctuation and
/// common English words outside phrases are dropped.
///
/// ```
/// use litrev_sources::arxiv::query_from_text;
/// assert_eq!(
///     query_from_text("Does \"deep learning\" help with protein folding?"),
///     r#"all:"deep learning" AND all:help AND all:protein AND all:folding"#
/// );
/// ```
pub fn query_from_text(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut pending_operator: Option<&str> = None;
    let mut rest = text;
    while !rest.is_empty() {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix('"') {
            let (phrase, next) = after.split_once('"').unwrap_or((after, ""));
            let words: Vec<&str> = phrase
                .split(|c: char| !is_word_char(c))
                .filter(|word| !word.is_empty())
                .collect();
            if !words.is_empty() {
                push_term(
                    &mut out,
                    format!("all:\"{}\"", words.join(" ")),
                    &mut pending_operator,
                );
            }
            rest = next;
            continue;
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '"')
            .unwrap_or(rest.len());
        let (token, next) = rest.split_at(end);
        rest = next;
        match token {
            "AND" => pending_operator = Some("AND"),
            "OR" => pending_operator = Some("OR"),
            "NOT" | "ANDNOT" => pending_operator = Some("ANDNOT"),
            _ => {
                if let Some(term) = fielded_term(token) {
                    push_term(&mut out, term, &mut pending_operator);
                    continue;
                }
                for word in token.split(|c: char| !is_word_char(c)) {
                    let word = word.trim_matches('-');
                    let lower = word.to_lowercase();
                    if word.chars().count() < 2 || STOPWORDS.contains(&lower.as_str()) {
                        continue;
                    }
                    push_term(&mut out, format!("all:{word}"), &mut pending_operator);
                }
            }
        }
    }
    out.join(" ")
}

/// Appends a term, joined to the previous one by the pending operator (`AND` by default).
fn push_term(out: &mut Vec<String>, term: String, operator: &mut Option<&str>) {
    if let Some(operator) = operator.take().filter(|_| !out.is_empty()) {
        out.push(operator.to_owned());
    } else if !out.is_empty() {
        out.push("AND".to_owned());
    }
    out.push(term);
}

/// A term already in arXiv's `field:value` form, kept as written.
fn fielded_term(token: &str) -> Option<String> {
    let (field, value) = token.split_once(':')?;
    let known = ["ti", "au", "abs", "co", "jr", "cat", "rn", "id", "all"];
    let value_ok = !value.is_empty()
        && value
            .chars()
            .all(|c| is_word_char(c) || matches!(c, '.' | '_'));
    (known.contains(&field) && value_ok).then(|| format!("{field}:{value}"))
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '-'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_query_and_id_list_urls() {
        assert_eq!(
            search_url(DEFAULT_BASE_URL, "all:testing", 10, 10, SortBy::Relevance),
            "https://export.arxiv.org/api/query?search_query=all%3Atesting&start=10&max_results=10&sortBy=relevance&sortOrder=descending"
        );
        assert_eq!(
            search_url(
                "http://127.0.0.1:8080/",
                r#"all:"deep learning""#,
                0,
                50_000,
                SortBy::SubmittedDate
            ),
            "http://127.0.0.1:8080/api/query?search_query=all%3A%22deep+learning%22&start=0&max_results=2000&sortBy=submittedDate&sortOrder=descending"
        );
        assert_eq!(
            id_list_url(
                DEFAULT_BASE_URL,
                &["2104.12255v1".to_owned(), "astro-ph/0601001".to_owned()],
                0,
                100
            ),
            "https://export.arxiv.org/api/query?id_list=2104.12255v1%2Castro-ph%2F0601001&start=0&max_results=100"
        );
    }

    #[test]
    fn writes_questions_in_arxiv_syntax() {
        assert_eq!(query_from_text("testing"), "all:testing");
        assert_eq!(
            query_from_text("What is the effect of sleep on memory consolidation?"),
            "all:effect AND all:sleep AND all:memory AND all:consolidation"
        );
        assert_eq!(
            query_from_text(r#""quantum criticality" OR checkerboard NOT pyrochlore"#),
            r#"all:"quantum criticality" OR all:checkerboard ANDNOT all:pyrochlore"#
        );
        assert_eq!(
            query_from_text("au:del_maestro AND ti:checkerboard COVID-19 (vaccines)"),
            "au:del_maestro AND ti:checkerboard AND all:COVID-19 AND all:vaccines"
        );
        assert_eq!(query_from_text("AND the of \"\" ?"), "");
        assert_eq!(
            query_from_text("\"unclosed phrase"),
            "all:\"unclosed phrase\""
        );
    }
}
