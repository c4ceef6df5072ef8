//! Tolerant JSON: the value a model meant, from answers wrapped in Markdown fences, preceded
//! by "Here is the JSON:" or followed by an explanation.
//!
//! Even with a schema, providers and small local models sometimes wrap or annotate their JSON.
//! The candidates are tried in order — the whole text, each fenced block, then every balanced
//! `{…}` or `[…]` from left to right — and the first that parses into the asked type wins.

use serde::de::DeserializeOwned;

use crate::error::snippet;
use crate::{Error, Result};

/// Most balanced candidates tried before giving up (a long prose answer has many braces).
const MAX_CANDIDATES: usize = 64;

/// Reads the JSON value in a model's answer into `T`.
///
/// # Errors
/// `NoJson` when no candidate is JSON at all; `Shape` when JSON was found but none of it is a
/// `T` (the message is serde's complaint about the first such candidate).
pub fn parse_json<T: DeserializeOwned>(text: &str) -> Result<T> {
    let mut shape_error: Option<String> = None;
    for candidate in candidates(text) {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(candidate) else {
            continue;
        };
        match serde_json::from_value::<T>(value) {
            Ok(parsed) => return Ok(parsed),
            Err(error) => {
                shape_error.get_or_insert_with(|| error.to_string());
            }
        }
    }
    Err(match shape_error {
        Some(message) => Error::Shape { message },
        None => Error::NoJson {
            snippet: snippet(text.trim(), 120),
        },
    })
}

/// The slices of `text` that may be the JSON, most likely first.
fn candidates(text: &str) -> Vec<&str> {
    let mut out = vec![text.trim()];
    out.extend(fenced_blocks(text));
    let bytes = text.as_bytes();
    let mut start = 0;
    while out.len() < MAX_CANDIDATES {
        let Some(offset) = bytes[start..]
            .iter()
            .position(|&byte| byte == b'{' || byte == b'[')
        else {
            break;
        };
        let open = start + offset;
        if let Some(close) = balanced_end(bytes, open) {
            out.push(&text[open..=close]);
        }
        start = open + 1;
    }
    out
}

/// The contents of every ``` fenced block (any info string, `json` or none).
fn fenced_blocks(text: &str) -> Vec<&str> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        // Skip the info string (`json`) up to the end of the line.
        let body_start = after.find('\n').map_or(after.len(), |newline| newline + 1);
        let body = &after[body_start..];
        let Some(close) = body.find("```") else {
            blocks.push(body.trim());
            break;
        };
        blocks.push(body[..close].trim());
        rest = &body[close + 3..];
    }
    blocks
}

/// The index of the bracket closing the one at `open`, skipping brackets inside strings.
fn balanced_end(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (index, &byte) in bytes.iter().enumerate().skip(open) {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(index);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Answer {
        sentences: Vec<String>,
    }

    fn answer(items: &[&str]) -> Answer {
        Answer {
            sentences: items.iter().map(|item| (*item).to_owned()).collect(),
        }
    }

    #[test]
    fn reads_plain_fenced_and_annotated_json() {
        let plain = r#"{"sentences": ["a"]}"#;
        assert_eq!(parse_json::<Answer>(plain).unwrap(), answer(&["a"]));
        let fenced = "Here you go:\n```json\n{\"sentences\": [\"b\"]}\n```\nHope it helps.";
        assert_eq!(parse_json::<Answer>(fenced).unwrap(), answer(&["b"]));
        let prose = "Sure! {\"sentences\": [\"c }\", \"d\"]} I kept it short {really}.";
        assert_eq!(parse_json::<Answer>(prose).unwrap(), answer(&["c }", "d"]));
        let unterminated_fence = "```\n{\"sentences\": []}";
        assert_eq!(
            parse_json::<Answer>(unterminated_fence).unwrap(),
            answer(&[])
        );
    }

    #[test]
    fn skips_json_of_the_wrong_shape_for_the_right_one() {
        let text = r#"Example: {"x": 1}. Answer: {"sentences": ["e"]}"#;
        assert_eq!(parse_json::<Answer>(text).unwrap(), answer(&["e"]));
    }

    #[test]
    fn says_whether_json_was_missing_or_misshapen() {
        let error = parse_json::<Answer>("I cannot answer that.").unwrap_err();
        assert!(matches!(error, Error::NoJson { .. }), "{error}");
        assert!(error.to_string().contains("I cannot answer"), "{error}");
        let error = parse_json::<Answer>(r#"{"sentences": "one"}"#).unwrap_err();
        assert!(matches!(error, Error::Shape { .. }), "{error}");
        let cut = r#"{"sentences": ["a", "b"#;
        assert!(matches!(
            parse_json::<Answer>(cut).unwrap_err(),
            Error::NoJson { .. }
        ));
    }
}
