//! How a tool shows works: a JSON summary an agent can act on (every work with an id that
//! `get_work` resolves) and a short text rendering for the model to read.

use litrev::model::Work;
use serde_json::{Value, json};

/// Characters of an abstract a summary keeps.
const SNIPPET_CHARS: usize = 300;

/// A work as the tools list it.
pub(crate) fn work_summary(work: &Work) -> Value {
    json!({
        "id": work.ids.primary().map(|id| id.to_string()),
        "doi": work.ids.doi.as_ref().map(ToString::to_string),
        "title": work.title,
        "authors": work.authors.iter().map(|author| author.name.clone()).collect::<Vec<_>>(),
        "year": work.year,
        "venue": work.venue,
        "cited_by_count": work.cited_by_count,
        "abstract": work.abstract_text.as_deref().map(snippet),
        "open_access_url": work.oa_url,
    })
}

/// The opening of a text, cut at a word boundary after at most [`SNIPPET_CHARS`] characters.
pub(crate) fn snippet(text: &str) -> String {
    if text.chars().count() <= SNIPPET_CHARS {
        return text.to_owned();
    }
    let cut: String = text.chars().take(SNIPPET_CHARS).collect();
    let kept = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{}…", kept.trim_end())
}

/// One line per work: `1. Title (2020, Venue) — id, cited by N`.
pub(crate) fn work_lines(works: &[Work]) -> String {
    works
        .iter()
        .enumerate()
        .map(|(index, work)| {
            let mut line = format!(
                "{}. {}",
                index + 1,
                work.title.as_deref().unwrap_or("(untitled)")
            );
            let mut about = Vec::new();
            if let Some(year) = work.year {
                about.push(year.to_string());
            }
            if let Some(venue) = &work.venue {
                about.push(venue.clone());
            }
            if !about.is_empty() {
                line.push_str(&format!(" ({})", about.join(", ")));
            }
            if let Some(id) = work.ids.primary() {
                line.push_str(&format!(" — {id}"));
            }
            if let Some(count) = work.cited_by_count {
                line.push_str(&format!(", cited by {count}"));
            }
            line
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snippet_stops_at_a_word_on_a_char_boundary() {
        let text = "é".repeat(10) + " " + &"word ".repeat(100);
        let cut = snippet(&text);
        assert!(cut.ends_with('…'));
        assert!(cut.chars().count() <= SNIPPET_CHARS + 1);
        assert!(cut.trim_end_matches('…').ends_with("word"));
        assert_eq!(snippet("short"), "short");
    }
}
