//! Hostile records: real OpenAlex Works with the text patterns that break naive code put into
//! their titles, abstracts, names and venues (multi-byte and combining characters, direction
//! marks, emoji, control characters, NUL, very long words, runs of dots and bullets, section
//! labels, markup), or those fields emptied. `litrev bench sweep` reviews them beside the
//! originals; the property tests draw on the same [`PIECES`].

use serde_json::{Map, Value};

use crate::openalex::abstract_text;
use crate::random::SplitMix64;

/// Pieces of text that have broken, or could break, code that slices or indexes text.
pub const PIECES: &[&str] = &[
    "",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\u{a0}",
    "\u{2003}",
    "\u{2028}",
    ".",
    "..",
    "...",
    "…",
    ". ",
    ".A",
    ".The",
    "!",
    "?",
    ":",
    ": ",
    ";",
    ",",
    "(",
    ")",
    "[",
    "]",
    "\"",
    "“",
    "”",
    "‘",
    "’",
    "•",
    "► ",
    "■",
    "▪",
    "●",
    "◆",
    "▶",
    "•\u{a0}",
    "©",
    "®",
    "é",
    "e\u{301}",
    "\u{301}",
    "İ",
    "ß",
    "ﬁ",
    "\u{212a}",
    "Σ",
    "ǅ",
    "\u{200f}",
    "\u{202e}",
    "\u{200b}",
    "\u{feff}",
    "👩‍🔬",
    "🇳🇱",
    "\0",
    "\u{1}",
    "\u{7f}",
    "\u{9c}",
    "\u{fffd}",
    "中文",
    "العربية",
    "עברית",
    "2.5",
    "0.03",
    "P = 0.03).",
    "mg.",
    "U.S.",
    "e.g.",
    "et al.",
    "i.v.",
    "A",
    "The",
    "a",
    "www.",
    "-",
    "–",
    "/",
    "&",
    "<i>",
    "</i>",
    "<sup>2</sup>",
    "&amp;",
    "&lt;",
    "\\textless",
    "@",
    "[@key]",
    "{",
    "}",
    "$",
    "#",
    "%",
    "~",
    "\\",
    "10.1000/xyz",
    "W123",
    "PMC1",
    "Key Practitioner Message: • ",
    "Copyright © 2010 John Wiley & Sons, Ltd.",
    "BACKGROUND:",
    "Methods and results",
    "Results The",
    "Key Points",
    "AIM",
];

/// A hostile piece, sometimes a very long word or a run of one piece.
pub fn piece(random: &mut SplitMix64) -> String {
    match random.below(10) {
        0 => "x".repeat(1 + random.below(2_000)),
        1 => PIECES[random.below(PIECES.len())].repeat(1 + random.below(20)),
        _ => PIECES[random.below(PIECES.len())].to_owned(),
    }
}

/// `text` with hostile pieces put between its words, at its start and at its end.
pub fn hostile_text(text: &str, random: &mut SplitMix64) -> String {
    let words: Vec<&str> = text.split(' ').collect();
    let mut out = String::with_capacity(text.len() + 64);
    for (index, word) in words.iter().enumerate() {
        if random.below(4) == 0 {
            out.push_str(&piece(random));
        }
        if index > 0 && random.below(3) != 0 {
            out.push(' ');
        }
        out.push_str(word);
    }
    out.push_str(&piece(random));
    out
}

/// Makes an OpenAlex Work record hostile, in place and deterministically from `random`: a
/// title, abstract, author names and venue with hostile pieces, emptied or wrapped in markup.
pub fn make_hostile(record: &mut Value, random: &mut SplitMix64) {
    let Some(fields) = record.as_object_mut() else {
        return;
    };
    let title = fields
        .get("title")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let title = match random.below(10) {
        0 => String::new(),
        1 => format!("<i>{title}</i> &amp; <sup>2</sup>"),
        _ => hostile_text(&title, random),
    };
    fields.insert("title".to_owned(), Value::String(title.clone()));
    fields.insert("display_name".to_owned(), Value::String(title));
    let abstract_text = abstract_text(&Value::Object(fields.clone()));
    let index = match random.below(10) {
        0 => Value::Null,
        1 => inverted_index(&format!("<jats:p>{abstract_text}</jats:p>")),
        _ => inverted_index(&hostile_text(&abstract_text, random)),
    };
    fields.insert("abstract_inverted_index".to_owned(), index);
    if let Some(Value::Array(authorships)) = fields.get_mut("authorships") {
        for authorship in authorships {
            if let Some(Value::String(name)) = authorship
                .get_mut("author")
                .and_then(|author| author.get_mut("display_name"))
            {
                *name = if random.below(8) == 0 {
                    piece(random)
                } else {
                    hostile_text(name, random)
                };
            }
        }
    }
    for venue in ["host_venue", "primary_location"] {
        if let Some(Value::String(name)) = fields
            .get_mut(venue)
            .and_then(|venue| venue.get_mut("display_name"))
        {
            *name = hostile_text(name, random);
        }
    }
}

/// An OpenAlex `abstract_inverted_index` of `text`: each word with the positions it holds.
pub fn inverted_index(text: &str) -> Value {
    let mut index: Map<String, Value> = Map::new();
    for (position, word) in text.split(' ').enumerate() {
        let positions = index
            .entry(word.to_owned())
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(positions) = positions {
            positions.push(Value::from(position));
        }
    }
    Value::Object(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_inverted_index_gives_back_its_text() {
        let text = "We  studied • 2.5 mg. of the drug the";
        let record = serde_json::json!({ "abstract_inverted_index": inverted_index(text) });
        assert_eq!(abstract_text(&record), text);
    }

    #[test]
    fn hostile_records_are_deterministic_and_changed() {
        let original = serde_json::json!({
            "id": "https://openalex.org/W1",
            "title": "Sleep and memory in rats",
            "abstract_inverted_index": inverted_index("We studied sleep. It helps."),
            "authorships": [{ "author": { "display_name": "Ada Lovelace" } }],
        });
        let make = |seed| {
            let mut record = original.clone();
            make_hostile(&mut record, &mut SplitMix64::new(seed));
            record
        };
        assert_eq!(make(7), make(7));
        let changed = (0..20).filter(|seed| make(*seed) != original).count();
        assert_eq!(changed, 20);
    }
}
