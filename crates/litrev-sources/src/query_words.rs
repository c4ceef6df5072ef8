//! The words of a plan query, for APIs whose search syntax is not the local index's.
//!
//! Plan queries are written for the snapshot index (bare words meaning "any", `"a b"~3`
//! proximity phrases, `OR`). APIs without proximity search get the distinct words, which each
//! client joins the way its API ranks best (`OR` where bare words would all be required), or
//! the boolean syntax of the APIs that read one ([`to_search_syntax`]).

/// The distinct words of a plan query in order, without operators, quotes or proximity marks.
pub(crate) fn words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for token in text.split_whitespace() {
        if matches!(token, "OR" | "AND" | "NOT") {
            continue;
        }
        let word = token
            .split('~')
            .next()
            .unwrap_or_default()
            .trim_matches(|c: char| !c.is_alphanumeric() && c != '-');
        if !word.is_empty() && !words.iter().any(|known| known == word) {
            words.push(word.to_owned());
        }
    }
    words
}

/// The distinct words of a plan query joined by spaces, as many whole words as fit in
/// `max_words` and `max_chars`: the query of an API that ranks by all of them.
pub(crate) fn words_within(text: &str, max_words: usize, max_chars: usize) -> String {
    let mut out = String::new();
    for word in words(text).into_iter().take(max_words) {
        if out.len() + word.len() + 1 > max_chars {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&word);
    }
    out
}

/// Turns a plan query (a local index's syntax: bare words meaning "any", `"a b"~3` proximity
/// phrases, `OR`) into the boolean search OpenAlex and Open Library's Solr read, where bare
/// words mean "all": words become an OR-list, proximity phrases become `(a AND b)`.
pub fn to_search_syntax(text: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        if let Some(after_quote) = rest.strip_prefix('"') {
            let (phrase, after) = after_quote.split_once('"').unwrap_or((after_quote, ""));
            let after = after.trim_start_matches(|c: char| c == '~' || c.is_ascii_digit());
            let words: Vec<&str> = phrase.split_whitespace().collect();
            match words.len() {
                0 => {}
                1 => parts.push(words[0].to_owned()),
                _ => parts.push(format!("({})", words.join(" AND "))),
            }
            rest = after.trim_start();
            continue;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        if !matches!(word, "OR" | "AND") {
            let cleaned: String = word
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == '-')
                .collect();
            if !cleaned.is_empty() {
                parts.push(cleaned);
            }
        }
        rest = rest[end..].trim_start();
    }
    parts.join(" OR ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_queries_become_openalex_boolean_searches() {
        assert_eq!(
            to_search_syntax("insulin pumps children"),
            "insulin OR pumps OR children"
        );
        assert_eq!(
            to_search_syntax("\"insulin pumps\"~3 OR \"pumps children\"~3"),
            "(insulin AND pumps) OR (pumps AND children)"
        );
        assert_eq!(to_search_syntax("  "), "");
    }

    #[test]
    fn operators_quotes_and_proximity_go_and_repeats_collapse() {
        assert_eq!(
            words("\"insulin pumps\"~3 OR \"pumps children\"~3"),
            ["insulin", "pumps", "children"]
        );
        assert_eq!(
            words("insulin pumps, children?"),
            ["insulin", "pumps", "children"]
        );
        assert!(words("  OR ").is_empty());
    }
}
