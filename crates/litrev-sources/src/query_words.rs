//! The words of a plan query, for APIs whose search syntax is not the local index's.
//!
//! Plan queries are written for the snapshot index (bare words meaning "any", `"a b"~3`
//! proximity phrases, `OR`). APIs without proximity search get the distinct words, which each
//! client joins the way its API ranks best (`OR` where bare words would all be required).

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

#[cfg(test)]
mod tests {
    use super::*;

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
