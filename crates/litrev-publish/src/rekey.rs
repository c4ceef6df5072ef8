//! A review's files under other citation keys: the Zotero item keys after an export to Zotero
//! (`litrev export RUN --zotero --cite-keys zotero`), so the Markdown cites `[@ABCD2345]` and
//! Zotero's own tools (Better BibTeX, the Word and pandoc plugins) resolve every citation.

use std::collections::BTreeMap;

/// Characters pandoc allows inside a citation key besides letters and digits.
const KEY_PUNCTUATION: &str = "_:.#$%&-+?<>~/";

/// `markdown` with every citation `@key` that `keys` maps replaced by its new key; an `@` after
/// a letter or digit (an e-mail address) is not a citation and is left alone.
pub fn rekey_markdown(markdown: &str, keys: &BTreeMap<String, String>) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut rest = markdown;
    let mut previous: Option<char> = None;
    while let Some(at) = rest.find('@') {
        let before = &rest[..at];
        out.push_str(before);
        previous = before.chars().next_back().or(previous);
        let after = &rest[at + 1..];
        let run = after
            .char_indices()
            .find(|(_, c)| !(c.is_alphanumeric() || KEY_PUNCTUATION.contains(*c)))
            .map_or(after.len(), |(end, _)| end);
        // Trailing punctuation ends a sentence, not a key.
        let key = after[..run].trim_end_matches(|c: char| KEY_PUNCTUATION.contains(c));
        let cites = previous.is_none_or(|c| !c.is_alphanumeric());
        match keys.get(key).filter(|_| cites) {
            Some(new) => {
                out.push('@');
                out.push_str(new);
                rest = &after[key.len()..];
            }
            None => {
                out.push('@');
                rest = after;
            }
        }
        previous = Some('@');
    }
    out.push_str(rest);
    out
}

/// BibTeX with each entry's key (`@article{key,`) that `keys` maps replaced.
pub fn rekey_bibtex(bibtex: &str, keys: &BTreeMap<String, String>) -> String {
    bibtex
        .split_inclusive('\n')
        .map(|line| {
            let Some((head, tail)) = line.split_once('{') else {
                return line.to_owned();
            };
            let Some((key, rest)) = tail.split_once(',') else {
                return line.to_owned();
            };
            match keys.get(key.trim()) {
                Some(new) if head.trim_start().starts_with('@') => format!("{head}{{{new},{rest}"),
                _ => line.to_owned(),
            }
        })
        .collect()
}

/// CSL-JSON (an array of items) with each item's `id` that `keys` maps replaced, written as
/// `references.json` is; `None` when the text is not a JSON array.
pub fn rekey_csl_json(json: &str, keys: &BTreeMap<String, String>) -> Option<String> {
    let mut items: Vec<serde_json::Value> = serde_json::from_str(json).ok()?;
    for item in &mut items {
        let new = item["id"].as_str().and_then(|id| keys.get(id)).cloned();
        if let Some(new) = new {
            item["id"] = serde_json::Value::from(new);
        }
    }
    serde_json::to_string_pretty(&items).ok()
}

/// RIS with each record's `ID  - key` that `keys` maps replaced.
pub fn rekey_ris(ris: &str, keys: &BTreeMap<String, String>) -> String {
    ris.split_inclusive('\n')
        .map(|line| match line.strip_prefix("ID  - ") {
            Some(key) => match keys.get(key.trim_end()) {
                Some(new) => format!("ID  - {new}{}", &key[key.trim_end().len()..]),
                None => line.to_owned(),
            },
            None => line.to_owned(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> BTreeMap<String, String> {
        [("shima2016factor", "ABCD2345"), ("young2019", "WXYZ6789")]
            .into_iter()
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
            .collect()
    }

    #[test]
    fn citations_bibtex_csl_and_ris_take_the_new_keys() {
        let markdown = "As @shima2016factor showed [@young2019; @shima2016factor, p. 4]. Mail me@shima2016factor or @other2020.";
        assert_eq!(
            rekey_markdown(markdown, &keys()),
            "As @ABCD2345 showed [@WXYZ6789; @ABCD2345, p. 4]. Mail me@shima2016factor or @other2020."
        );
        assert_eq!(rekey_markdown("[@young2019].", &keys()), "[@WXYZ6789].");
        assert_eq!(rekey_markdown("é@young2019 @", &keys()), "é@young2019 @");
        let bib = "@article{shima2016factor,\n  title = {A},\n}\n@book{kept2001,\n}\n";
        assert_eq!(
            rekey_bibtex(bib, &keys()),
            "@article{ABCD2345,\n  title = {A},\n}\n@book{kept2001,\n}\n"
        );
        let json =
            rekey_csl_json(r#"[{"id": "young2019", "type": "book"}]"#, &keys()).expect("json");
        assert!(json.contains("\"WXYZ6789\""), "{json}");
        assert!(rekey_csl_json("{}", &keys()).is_none());
        assert_eq!(
            rekey_ris("TY  - JOUR\nID  - young2019\r\nER  - \n", &keys()),
            "TY  - JOUR\nID  - WXYZ6789\r\nER  - \n"
        );
    }
}
