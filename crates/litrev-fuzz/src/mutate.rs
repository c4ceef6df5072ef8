//! The mutation engine: turns a seed (a real response, line or file from the shared data) into
//! a hostile variant of it, deterministically from a [`Rng`].
//!
//! Byte-level mutations (bit flips, interesting bytes, truncation, deleted and duplicated
//! ranges, splices of two seeds) work on any input; hostile snippets (multi-byte UTF-8,
//! combining marks, RTL marks, emoji, NUL and control characters, very long words, runs of
//! dots, bullets, `<`, `&`, nested tags) are inserted at character boundaries; invalid UTF-8 is
//! only produced for targets that take bytes. Format-aware mutations keep the input mostly
//! well-formed so the parser gets past its first line: JSON values replaced by null, numbers,
//! strings, arrays, objects or deeply nested arrays, keys dropped or renamed, nodes moved;
//! XML tags dropped, duplicated, nested thousands deep, entities, CDATA, comments and
//! DOCTYPEs with entity definitions; RIS and CSV lines duplicated, dropped, reordered or
//! forged; JSON lines gzipped.

use serde_json::Value;

use crate::rng::Rng;

/// What a target's input looks like, so mutations can keep it plausible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One JSON document.
    Json,
    /// JSON objects one per line (a snapshot file), possibly gzipped.
    JsonLines,
    /// An XML document.
    Xml,
    /// A RIS export.
    Ris,
    /// A CSV table.
    Csv,
    /// Short plain text (identifiers).
    Text,
    /// A PDF file.
    Pdf,
}

/// Whether a target reads text (so its input is always valid UTF-8) or raw bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// The parser takes `&str`: mutated bytes are made valid UTF-8 (lossily) before the call.
    Text,
    /// The parser takes bytes or a file: invalid UTF-8 reaches it as is.
    Bytes,
}

/// No case grows beyond this many bytes.
pub const MAX_LEN: usize = 4 << 20;

/// Snippets that break naive text handling.
const HOSTILE: &[&str] = &[
    "é",
    "e\u{301}",
    "\u{301}",
    "\u{301}\u{301}\u{301}\u{301}",
    "\u{200f}",
    "\u{202e}",
    "\u{200b}",
    "\u{feff}",
    "\u{2028}",
    "\u{85}",
    "😀",
    "👨\u{200d}👩\u{200d}👧",
    "🇳🇱",
    "𝔸",
    "\u{10ffff}",
    "\u{fffd}",
    "İ",
    "ß",
    "ﬁ",
    "Σ",
    "日本語",
    "\u{0}",
    "\u{1}",
    "\u{7}",
    "\u{8}",
    "\u{b}",
    "\u{c}",
    "\u{1b}[31m",
    "\u{7f}",
    "\t",
    "\r",
    "\r\n",
    "\n",
    "\n\n",
    " ",
    "…",
    "...",
    "•",
    "· ·",
    "–",
    "—",
    "-",
    "\\",
    "\"",
    "'",
    "<",
    ">",
    "&",
    "&amp;",
    "&lt;",
    "&amp;lt;",
    "&#0;",
    "&#x0;",
    "&#xD800;",
    "&#1114112;",
    "&#x10FFFF;",
    "&unknown;",
    "&#;",
    "\\textless",
    "\\textbackslashtextless",
    "<i>",
    "</i>",
    "<sub>",
    "<title>",
    "</title>",
    "<jats:title>",
    "<SUBTITLE>",
    "<p>",
    "<span class=\"x\">",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    ";",
    "|",
    "=>",
    "0",
    "-1",
    "99999999999999999999",
    "1e400",
    "-0",
    "NaN",
    "null",
    "true",
    "%",
    "%00",
    "?",
    "/",
    "//",
];

/// Tokens of identifiers and markers the parsers look for.
const TOKENS: &[&str] = &[
    "W",
    "W2741809807",
    "https://openalex.org/W",
    "openalex:",
    "10.",
    "10.1000/x",
    "10.48550/arXiv.2101.00001",
    "https://doi.org/",
    "doi:",
    "pmid:",
    "pubmed",
    "https://pubmed.ncbi.nlm.nih.gov/",
    "PMC",
    "pmc",
    "/pmc/",
    "arXiv:",
    "arxiv",
    "hep-th/9901001",
    "2101.00001v2",
    "v",
    ".pdf",
    "s2:",
    "semanticscholar.org",
    "0000",
    "ASReview_relevant",
    "ASReview_irrelevant",
    "RAYYAN-INCLUSION: {\"A\"=>\"Included\"",
    "\"Excluded\"",
    "\"Maybe\"",
    "TY  - ",
    "ER  - ",
    "1. ",
    "label_included",
    "openalex_id",
    "title",
    "abstract",
    "doi",
    "Abstract",
    "abstract:",
];

/// Characters a long run is made of.
const RUNS: &[&str] = &[
    "a", ".", "•", "<", "&", " ", "\u{301}", "<title>", "<i>", "&amp;", "[", "{\"a\":", "-", "é",
    "😀", "\n", "\u{0}", "W1 ",
];

/// Bytes worth writing over others.
const INTERESTING_BYTES: &[u8] = &[
    0, 1, 0x7f, 0x80, 0xbf, 0xc0, 0xff, b'"', b'\\', b'<', b'>', b'&', b';', b'\n', b'\r', b' ',
    b'-', b'{', b'}', b'[', b']', b',', b':', b'/', b'.', b'0', b'9',
];

/// Byte sequences that are not UTF-8: lone continuation bytes, overlong forms, surrogates,
/// truncated sequences, values above U+10FFFF.
const INVALID_UTF8: &[&[u8]] = &[
    &[0x80],
    &[0xbf],
    &[0xc3],
    &[0xc0, 0xaf],
    &[0xe0, 0x80, 0xaf],
    &[0xed, 0xa0, 0x80],
    &[0xf0, 0x9f, 0x98],
    &[0xf4, 0x90, 0x80, 0x80],
    &[0xfe],
    &[0xff, 0xfe],
];

/// Replacement values for a JSON node.
const JSON_NUMBERS: &[f64] = &[0.0, -1.0, 0.5, -0.0, 1e300, -1e300, 1e-300, 4294967296.0];

/// One hostile variant of `seed`; `partner` is another seed of the same target for splices.
pub fn mutate(rng: &mut Rng, seed: &[u8], partner: &[u8], format: Format, input: Input) -> Vec<u8> {
    let mut data = seed.to_vec();
    let rounds = match rng.below(10) {
        0..=4 => 1,
        5..=7 => 2,
        8 => 4,
        _ => 8,
    };
    for _ in 0..rounds {
        let aware = format != Format::Text && rng.below(100) < 55;
        data = if aware {
            match format {
                Format::Json => {
                    json_mutation(rng, &data).unwrap_or_else(|| generic(rng, data, partner, input))
                }
                Format::JsonLines => json_lines_mutation(rng, data, partner, input),
                Format::Xml => xml_mutation(rng, &data),
                Format::Ris => ris_mutation(rng, &data),
                Format::Csv => csv_mutation(rng, &data),
                Format::Pdf => pdf_mutation(rng, data),
                Format::Text => generic(rng, data, partner, input),
            }
        } else {
            generic(rng, data, partner, input)
        };
        data.truncate(MAX_LEN);
    }
    data
}

/// What breaks PDF readers: a file cut short (anywhere, or just before its cross-reference
/// table), an encryption dictionary where there is none, objects nested thousands deep,
/// stream lengths that lie, no text at all (an image-only page), zero bytes.
fn pdf_mutation(rng: &mut Rng, mut data: Vec<u8>) -> Vec<u8> {
    match rng.below(7) {
        0 => {
            let cut = rng.below(data.len().max(1));
            data.truncate(cut);
        }
        1 => {
            if let Some(at) = find(&data, b"xref", 0) {
                data.truncate(at);
            }
        }
        2 => {
            if let Some(at) = find(&data, b"trailer", 0) {
                let insert =
                    b"trailer\n<< /Encrypt << /Filter /Standard /V 2 /R 3 /O (x) /U (y) /P -4 >> ";
                data.splice(at..at + 7, insert.iter().copied().take(insert.len() - 1));
            }
        }
        3 => {
            let depth = 1 + rng.below(20_000);
            let mut nested = b"%PDF-1.7\n1 0 obj\n".to_vec();
            nested.extend(std::iter::repeat_n(b'[', depth));
            nested.extend(std::iter::repeat_n(b']', depth));
            nested.extend(b"\nendobj\ntrailer << /Root 1 0 R >>\n%%EOF");
            data = nested;
        }
        4 => {
            if let Some(at) = find(&data, b"/Length ", 0) {
                let digits = format!("/Length {}", u64::MAX - rng.below(1000) as u64);
                let end = data[at + 8..]
                    .iter()
                    .position(|byte| !byte.is_ascii_digit())
                    .map_or(data.len(), |offset| at + 8 + offset);
                data.splice(at..end, digits.into_bytes());
            }
        }
        5 => {
            data = b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF".to_vec();
        }
        _ => data.clear(),
    }
    data
}

/// Byte- and text-level mutations that apply to any input.
fn generic(rng: &mut Rng, mut data: Vec<u8>, partner: &[u8], input: Input) -> Vec<u8> {
    match rng.below(13) {
        0 if !data.is_empty() => {
            let at = rng.below(data.len());
            data[at] ^= 1 << rng.below(8);
        }
        1 if !data.is_empty() => {
            let at = rng.below(data.len());
            data[at] = *rng.pick(INTERESTING_BYTES);
        }
        2 => {
            let keep = rng.below(data.len() + 1);
            data.truncate(keep);
        }
        3 if !data.is_empty() => {
            let (start, end) = range(rng, &data);
            data.drain(start..end);
        }
        4 if !data.is_empty() => {
            let (start, end) = range(rng, &data);
            let copy = data[start..end].to_vec();
            let at = boundary(&data, rng.below(data.len() + 1));
            splice_in(&mut data, at, &copy);
        }
        5 | 6 => {
            let snippet = if rng.one_in(3) {
                *rng.pick(TOKENS)
            } else {
                *rng.pick(HOSTILE)
            };
            let at = boundary(&data, rng.below(data.len() + 1));
            splice_in(&mut data, at, snippet.as_bytes());
        }
        7 if !data.is_empty() => {
            let (start, end) = range(rng, &data);
            let (start, end) = (boundary(&data, start), boundary(&data, end));
            let snippet = rng.pick(HOSTILE).as_bytes().to_vec();
            data.splice(start..end.max(start), snippet);
        }
        8 => {
            let run = long_run(rng);
            let at = boundary(&data, rng.below(data.len() + 1));
            splice_in(&mut data, at, run.as_bytes());
        }
        9 if !partner.is_empty() => {
            let cut = rng.below(data.len() + 1);
            let from = rng.below(partner.len());
            data.truncate(cut);
            data.extend_from_slice(&partner[from..]);
        }
        10 if input == Input::Bytes => {
            let at = rng.below(data.len() + 1);
            splice_in(&mut data, at, INVALID_UTF8[rng.below(INVALID_UTF8.len())]);
        }
        11 => {
            // A word repeated, as long words and runs are the usual quadratic traps.
            let word = rng.pick(TOKENS).repeat(rng.skewed_len(2_000));
            let at = boundary(&data, rng.below(data.len() + 1));
            splice_in(&mut data, at, word.as_bytes());
        }
        _ => {
            let at = boundary(&data, rng.below(data.len() + 1));
            splice_in(&mut data, at, rng.pick(HOSTILE).as_bytes());
        }
    }
    data
}

/// A run of one hostile piece: usually short, sometimes thousands, now and then a million
/// characters (enough to make a quadratic scan take minutes).
fn long_run(rng: &mut Rng) -> String {
    let piece = *rng.pick(RUNS);
    let count = if rng.one_in(40) {
        1_000_000 / piece.len().max(1)
    } else {
        rng.skewed_len(20_000)
    };
    piece.repeat(count)
}

/// A random range of `data`, short more often than long.
fn range(rng: &mut Rng, data: &[u8]) -> (usize, usize) {
    let start = rng.below(data.len());
    let len = if rng.one_in(4) {
        rng.below(data.len() - start + 1)
    } else {
        rng.skewed_len(64).min(data.len() - start)
    };
    (start, start + len)
}

/// `at` moved forward to the start of a UTF-8 character (never inside a multi-byte one).
fn boundary(data: &[u8], mut at: usize) -> usize {
    while at < data.len() && data[at] & 0xc0 == 0x80 {
        at += 1;
    }
    at
}

fn splice_in(data: &mut Vec<u8>, at: usize, piece: &[u8]) {
    data.splice(at..at, piece.iter().copied());
}

// JSON

/// A parsed JSON document mutated node-wise; `None` when the input is no JSON any more.
fn json_mutation(rng: &mut Rng, data: &[u8]) -> Option<Vec<u8>> {
    let mut value: Value = serde_json::from_slice(data).ok()?;
    if rng.one_in(4) {
        replace_key_everywhere(rng, &mut value);
        return serde_json::to_vec(&value).ok();
    }
    let count = count_nodes(&value);
    let target = rng.below(count);
    let donor_index = rng.below(count);
    let donor = nth_node(&mut value, donor_index).map(|node| node.clone());
    let mut deep = None;
    if let Some(node) = nth_node(&mut value, target) {
        deep = mutate_node(rng, node, donor);
    }
    let text = if rng.one_in(3) {
        serde_json::to_string_pretty(&value).ok()?
    } else {
        serde_json::to_string(&value).ok()?
    };
    // Deep nesting is written as text: building it as a `Value` would recurse as deep.
    let text = match deep {
        Some(depth) => text.replacen(
            &format!("\"{DEEP_MARK}\""),
            &format!("{}1{}", "[".repeat(depth), "]".repeat(depth)),
            1,
        ),
        None => text,
    };
    Some(text.into_bytes())
}

/// One key's value replaced wherever the key occurs (every author's `given`, every work's
/// `title`): hits the fields a parser reads in a loop, which a single node rarely does.
fn replace_key_everywhere(rng: &mut Rng, value: &mut Value) {
    let mut keys = Vec::new();
    let mut stack = vec![&*value];
    while let Some(node) = stack.pop() {
        match node {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => {
                keys.extend(map.keys().cloned());
                stack.extend(map.values());
            }
            _ => {}
        }
    }
    if keys.is_empty() {
        return;
    }
    let key = keys.swap_remove(rng.below(keys.len()));
    let replacement = match rng.below(8) {
        0 => Value::Null,
        1 => Value::String(String::new()),
        2 => Value::String(
            rng.pick(&[" ", "\n", "\t", "\r\n", "\u{a0}", "\u{3000}"])
                .to_string(),
        ),
        3 => Value::String(rng.pick(HOSTILE).to_string()),
        4 => Value::String(rng.pick(TOKENS).to_string()),
        5 => Value::from(*rng.pick(&[0_i64, -1, i64::MAX])),
        6 => Value::Array(Vec::new()),
        _ => Value::Object(serde_json::Map::new()),
    };
    let mut stack = vec![value];
    while let Some(node) = stack.pop() {
        match node {
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(map) => {
                if let Some(found) = map.get_mut(&key) {
                    *found = replacement.clone();
                }
                stack.extend(
                    map.iter_mut()
                        .filter(|(name, _)| **name != key)
                        .map(|(_, child)| child),
                );
            }
            _ => {}
        }
    }
}

const DEEP_MARK: &str = "\u{1}litrev-fuzz-deep\u{1}";

fn count_nodes(value: &Value) -> usize {
    let mut count = 0;
    let mut stack = vec![value];
    while let Some(node) = stack.pop() {
        count += 1;
        match node {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    count
}

/// The `n`th node in a depth-first walk (the root is 0).
fn nth_node(value: &mut Value, n: usize) -> Option<&mut Value> {
    let mut stack = vec![value];
    let mut seen = 0;
    while let Some(node) = stack.pop() {
        if seen == n {
            return Some(node);
        }
        seen += 1;
        match node {
            Value::Array(items) => stack.extend(items.iter_mut().rev()),
            Value::Object(map) => stack.extend(map.values_mut().rev()),
            _ => {}
        }
    }
    None
}

/// Mutates one node; returns the depth of a deeply nested array to write in place of the
/// marker string, when that is what was chosen.
fn mutate_node(rng: &mut Rng, node: &mut Value, donor: Option<Value>) -> Option<usize> {
    match rng.below(14) {
        0 => *node = Value::Null,
        1 => *node = Value::Bool(rng.one_in(2)),
        2 => {
            *node = match rng.below(4) {
                0 => Value::from(u64::MAX),
                1 => Value::from(i64::MIN),
                _ => serde_json::Number::from_f64(*rng.pick(JSON_NUMBERS))
                    .map_or(Value::Null, Value::Number),
            }
        }
        3 => *node = Value::String(rng.pick(HOSTILE).to_string()),
        4 => *node = Value::String(long_run(rng)),
        5 => *node = Value::String(rng.pick(TOKENS).to_string()),
        6 => *node = Value::Array(Vec::new()),
        7 => *node = Value::Object(serde_json::Map::new()),
        8 => {
            let inner = std::mem::take(node);
            *node = Value::Array(vec![inner]);
        }
        9 => {
            *node = Value::String(DEEP_MARK.to_owned());
            let depth = *rng.pick(&[64, 126, 127, 128, 129, 200, 5_000, 100_000]);
            return Some(depth);
        }
        10 => match node {
            Value::Object(map) if !map.is_empty() => {
                let key = map.keys().nth(rng.below(map.len())).cloned();
                if let Some(key) = key {
                    let removed = map.remove(&key);
                    if rng.one_in(2)
                        && let Some(removed) = removed
                    {
                        // Renamed rather than dropped.
                        let name = format!("{key}{}", rng.pick(HOSTILE));
                        map.insert(name, removed);
                    }
                }
            }
            Value::Array(items) if !items.is_empty() => {
                let at = rng.below(items.len());
                if rng.one_in(2) {
                    items.remove(at);
                } else {
                    let copy = items[at].clone();
                    let times = rng.skewed_len(1_000);
                    items.extend(std::iter::repeat_n(copy, times));
                }
            }
            _ => *node = Value::Null,
        },
        11 => match node {
            Value::String(text) => {
                let mut bytes = std::mem::take(text).into_bytes();
                let at = boundary(&bytes, rng.below(bytes.len() + 1));
                let piece = if rng.one_in(2) {
                    *rng.pick(HOSTILE)
                } else {
                    *rng.pick(TOKENS)
                };
                splice_in(&mut bytes, at, piece.as_bytes());
                *text = String::from_utf8_lossy(&bytes).into_owned();
            }
            Value::Number(_) => *node = Value::String(node.to_string()),
            _ => *node = Value::String(node.to_string()),
        },
        _ => {
            // Another node of the document here: the type confusions real APIs produce.
            if let Some(donor) = donor {
                *node = donor;
            }
        }
    }
    None
}

fn json_lines_mutation(rng: &mut Rng, data: Vec<u8>, partner: &[u8], input: Input) -> Vec<u8> {
    if data.starts_with(&[0x1f, 0x8b]) {
        return generic(rng, data, partner, input);
    }
    let mut lines: Vec<Vec<u8>> = data
        .split(|byte| *byte == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    match rng.below(8) {
        0 => return gzip(&data, rng.one_in(4)),
        1..=3 => {
            let at = rng.below(lines.len());
            if let Some(mutated) = json_mutation(rng, &lines[at]) {
                lines[at] = mutated;
            } else {
                lines[at] = generic(rng, std::mem::take(&mut lines[at]), partner, input);
            }
        }
        4 => {
            let at = rng.below(lines.len());
            let copy = lines[at].clone();
            lines.insert(rng.below(lines.len() + 1), copy);
        }
        5 => {
            let at = rng.below(lines.len());
            lines.remove(at);
        }
        6 => {
            let garbage: &[u8] = match rng.below(6) {
                0 => b"",
                1 => b"{}",
                2 => b"[]",
                3 => b"null",
                4 => b"\r",
                _ => b"{\"id\":\"https://openalex.org/W1\"}",
            };
            lines.insert(rng.below(lines.len() + 1), garbage.to_vec());
        }
        _ => {
            let at = rng.below(lines.len());
            if input == Input::Bytes && !lines[at].is_empty() {
                let byte = rng.below(lines[at].len());
                let piece = INVALID_UTF8[rng.below(INVALID_UTF8.len())];
                splice_in(&mut lines[at], byte, piece);
            } else {
                lines[at].extend_from_slice(b"\r");
            }
        }
    }
    lines.join(&b'\n')
}

/// `data` gzipped, or a gzip stream cut short.
fn gzip(data: &[u8], truncate: bool) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let written = encoder.write_all(data).and_then(|()| encoder.finish());
    match written {
        Ok(mut bytes) => {
            if truncate {
                bytes.truncate(bytes.len() * 2 / 3);
            }
            bytes
        }
        Err(_) => data.to_vec(),
    }
}

// XML

const XML_SNIPPETS: &[&str] = &[
    "&amp;",
    "&lt;",
    "&#0;",
    "&#x0;",
    "&#xD800;",
    "&#1114112;",
    "&#65;",
    "&#x1F600;",
    "&unknown;",
    "&",
    "&#",
    "&#x;",
    "<![CDATA[<b>cdata</b> & ]]>",
    "<![CDATA[",
    "]]>",
    "<!-- comment -->",
    "<!--",
    "<?pi data?>",
    "<b>",
    "</b>",
    "<i>x</i>",
    "<x/>",
    "</",
    "<",
    ">",
    "\"",
    " attr=\"v\"",
    "xmlns=\"urn:x\"",
    "<ns:a xmlns:ns=\"urn:y\">",
];

const DOCTYPES: &[&str] = &[
    "<!DOCTYPE x [<!ENTITY e \"entity text\">]>",
    "<!DOCTYPE x [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\"><!ENTITY f \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\"><!ENTITY g \"&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;\">]>",
    "<!DOCTYPE x [<!ENTITY r \"&r;\">]>",
    "<!DOCTYPE x SYSTEM \"file:///etc/passwd\">",
    "<!DOCTYPE x [<!ENTITY ext SYSTEM \"file:///etc/passwd\">]>",
    "<!DOCTYPE x [<!ENTITY t \"<b>tag</b>\">]>",
];

/// Byte offsets of every `<` that opens an element or closing tag.
fn tag_starts(data: &[u8]) -> Vec<usize> {
    data.iter()
        .enumerate()
        .filter(|(at, byte)| {
            **byte == b'<'
                && data
                    .get(at + 1)
                    .is_some_and(|next| next.is_ascii_alphabetic() || *next == b'/')
        })
        .map(|(at, _)| at)
        .collect()
}

fn find(data: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if needle.is_empty() || from > data.len() {
        return None;
    }
    data[from..]
        .windows(needle.len())
        .position(|window| window == needle)
        .map(|at| at + from)
}

fn xml_mutation(rng: &mut Rng, data: &[u8]) -> Vec<u8> {
    let mut data = data.to_vec();
    let tags = tag_starts(&data);
    if tags.is_empty() || rng.one_in(10) {
        let doctype = *rng.pick(DOCTYPES);
        let at = find(&data, b"?>", 0).map_or(0, |end| end + 2);
        splice_in(&mut data, at, doctype.as_bytes());
        if doctype.contains("ENTITY") {
            // Use the entities where text goes.
            let name = doctype
                .split("<!ENTITY ")
                .last()
                .and_then(|rest| rest.split(' ').next())
                .unwrap_or("e");
            if let Some(&tag) = tags.get(rng.below(tags.len().max(1))) {
                let at = find(&data, b">", tag + doctype.len()).map_or(data.len(), |end| end + 1);
                splice_in(&mut data, at, format!("&{name};").as_bytes());
            }
        }
        return data;
    }
    let start = *rng.pick(&tags);
    let end = find(&data, b">", start).map_or(data.len(), |end| end + 1);
    let tag = data[start..end].to_vec();
    let name: Vec<u8> = tag
        .iter()
        .skip(1)
        .take_while(|byte| !byte.is_ascii_whitespace() && !matches!(byte, b'>' | b'/'))
        .copied()
        .collect();
    let is_open = !tag.starts_with(b"</") && !tag.ends_with(b"/>");
    // The element: up to the first closing tag of the same name.
    let mut closing = b"</".to_vec();
    closing.extend_from_slice(&name);
    closing.push(b'>');
    let element_end = is_open
        .then(|| find(&data, &closing, end))
        .flatten()
        .map(|at| at + closing.len());
    match rng.below(10) {
        0 => {
            data.drain(start..end);
        }
        1 => {
            let at = boundary(&data, rng.below(data.len() + 1));
            splice_in(&mut data, at, &tag);
        }
        2 | 3 => {
            let snippet = if rng.one_in(2) {
                *rng.pick(XML_SNIPPETS)
            } else {
                *rng.pick(HOSTILE)
            };
            splice_in(&mut data, end, snippet.as_bytes());
        }
        4 => match element_end {
            // The element twice (or many times): lists where one was expected.
            Some(element_end) => {
                let element = data[start..element_end].to_vec();
                let times = rng.skewed_len(500);
                let copies = element.repeat(times);
                splice_in(&mut data, element_end, &copies);
            }
            None => splice_in(&mut data, end, &tag),
        },
        5 => {
            // The element somewhere else.
            let piece =
                element_end.map_or(tag.clone(), |element_end| data[start..element_end].to_vec());
            let at = tags[rng.below(tags.len())];
            splice_in(&mut data, at, &piece);
        }
        6 if is_open => {
            // Nested deep: recursion in the parser or in the code walking its tree.
            let depth = *rng.pick(&[100, 1_000, 5_000, 50_000]);
            let mut open = b"<".to_vec();
            open.extend_from_slice(&name);
            open.push(b'>');
            let mut nested = open.repeat(depth);
            nested.extend(closing.repeat(depth));
            splice_in(&mut data, end, &nested);
        }
        7 if rng.one_in(2) => {
            // The text of every element of this name replaced.
            let text = if rng.one_in(2) {
                rng.pick(HOSTILE).to_string()
            } else {
                rng.pick(XML_SNIPPETS).to_string()
            };
            let mut open = b"<".to_vec();
            open.extend_from_slice(&name);
            let mut out = Vec::with_capacity(data.len());
            let mut at = 0;
            while let Some(found) = find(&data, &open, at) {
                let Some(end) = find(&data, b">", found) else {
                    break;
                };
                let next = find(&data, b"<", end).unwrap_or(data.len());
                let exact = matches!(
                    data.get(found + open.len()),
                    Some(b'>' | b' ' | b'\n' | b'\t')
                );
                out.extend_from_slice(&data[at..=end]);
                if exact && data[end - 1] != b'/' {
                    out.extend_from_slice(text.as_bytes());
                } else {
                    out.extend_from_slice(&data[end + 1..next]);
                }
                at = next;
            }
            out.extend_from_slice(&data[at..]);
            data = out;
        }
        7 => {
            // Text content replaced.
            if let Some(next) = find(&data, b"<", end) {
                let text = if rng.one_in(3) {
                    long_run(rng)
                } else {
                    rng.pick(XML_SNIPPETS).to_string()
                };
                data.splice(end..next, text.into_bytes());
            }
        }
        8 => {
            if let Some(element_end) = element_end {
                // Its closing tag dropped: unbalanced.
                data.drain(element_end - closing.len()..element_end);
            } else {
                data.truncate(end);
            }
        }
        _ => {
            // An attribute added or its quotes broken.
            let at = start + 1 + name.len();
            let attribute = *rng.pick(&[
                " a=\"&#0;\"",
                " a='x\"",
                " a=\"",
                " xmlns=\"\"",
                " xmlns:x=\"urn:x\"",
                " a=\"1\" a=\"2\"",
            ]);
            let at = at.min(data.len());
            splice_in(&mut data, at, attribute.as_bytes());
        }
    }
    data
}

// RIS

const RIS_LINES: &[&str] = &[
    "TY  - JOUR",
    "TY  - ",
    "ER  - ",
    "ER  -",
    "1. TY  - JOUR",
    "12345678901234567890. TI  - x",
    "TI  - ",
    "TI  - \u{301}\u{200f}",
    "T1  - A title",
    "AU  - ",
    "AU  - Smith, Jane",
    "PY  - 99999999999999999999",
    "PY  - ////",
    "PY  - 0000",
    "DA  - 2011/13/45",
    "DO  - 10./",
    "DO  - 10.1000/x",
    "DO  - https://doi.org/10.48550/arXiv.2101.00001",
    "UR  - https://pubmed.ncbi.nlm.nih.gov/0/",
    "AN  - pmid:0",
    "ID  - W0",
    "KW  - ",
    "N1  - RAYYAN-INCLUSION: {\"A\"=>\"Included\"",
    "N1  - RAYYAN-INCLUSION:",
    "N1  - ASReview_relevant",
    "SP  - 10-",
    "  - value without tag",
    "-",
    "TY-",
    "é - x",
    "\u{feff}TY  - JOUR",
];

fn ris_mutation(rng: &mut Rng, data: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(data).into_owned();
    let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    let at = rng.below(lines.len());
    match rng.below(8) {
        0 => {
            let copy = lines[at].clone();
            lines.insert(rng.below(lines.len() + 1), copy);
        }
        1 => {
            lines.remove(at);
        }
        2 => {
            let other = rng.below(lines.len());
            lines.swap(at, other);
        }
        3 | 4 => lines.insert(at, rng.pick(RIS_LINES).to_string()),
        5 => {
            // A value replaced, tag kept.
            let line = &mut lines[at];
            let cut = line.char_indices().nth(6).map_or(line.len(), |(at, _)| at);
            line.truncate(cut);
            let piece = if rng.one_in(3) {
                "x"
            } else {
                HOSTILE[rng.below(HOSTILE.len())]
            };
            line.push_str(piece);
            if rng.one_in(4) {
                line.push_str(&long_run(rng));
            }
        }
        6 => {
            // Windows or old Mac line ends.
            return if rng.one_in(2) {
                lines.join("\r\n").into_bytes()
            } else {
                lines.join("\r").into_bytes()
            };
        }
        _ => {
            // Continuation lines: many untagged lines after a value.
            let times = rng.skewed_len(5_000);
            for _ in 0..times {
                lines.insert(at, rng.pick(HOSTILE).to_string());
            }
        }
    }
    lines.join("\n").into_bytes()
}

// CSV

const CSV_FIELDS: &[&str] = &[
    "\"",
    "\"\"",
    "\"a,b\"",
    "\"line\nbreak\"",
    "\"unterminated",
    "1",
    "0",
    "",
    " 1 ",
    "https://openalex.org/W0",
    "W",
    "10.1000/x",
    "pmid:0",
    "label_included",
    "\u{feff}",
    ";",
    "\t",
];

fn csv_mutation(rng: &mut Rng, data: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(data).into_owned();
    let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    let at = rng.below(lines.len());
    match rng.below(8) {
        0 => {
            let copy = lines[at].clone();
            lines.insert(rng.below(lines.len() + 1), copy);
        }
        1 => {
            lines.remove(at);
        }
        2 => {
            // A field replaced.
            let mut fields: Vec<String> = lines[at].split(',').map(str::to_owned).collect();
            let field = rng.below(fields.len());
            fields[field] = rng.pick(CSV_FIELDS).to_string();
            lines[at] = fields.join(",");
        }
        3 => {
            // Fields added or the row cut short.
            if rng.one_in(2) {
                let extra = rng.skewed_len(2_000);
                lines[at].push_str(&",x".repeat(extra));
            } else {
                let cut = lines[at].find(',').unwrap_or(0);
                lines[at].truncate(cut);
            }
        }
        4 => {
            // Header duplicated or renamed.
            let header = lines[0].clone();
            lines[0] = match rng.below(3) {
                0 => format!("{header},{header}"),
                1 => header.to_uppercase(),
                _ => format!("\u{feff}{header}"),
            };
        }
        5 => {
            // A different delimiter.
            lines[at] = lines[at].replace(',', if rng.one_in(2) { ";" } else { "\t" });
        }
        6 => {
            let field = rng.pick(CSV_FIELDS);
            let mut bytes = std::mem::take(&mut lines[at]).into_bytes();
            let position = boundary(&bytes, rng.below(bytes.len() + 1));
            splice_in(&mut bytes, position, field.as_bytes());
            lines[at] = String::from_utf8_lossy(&bytes).into_owned();
        }
        _ => {
            return lines.join("\r\n").into_bytes();
        }
    }
    lines.join("\n").into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_inputs_stay_utf8_at_insertion_points() {
        let seed = "{\"title\":\"Café – naïve 😀\",\"ids\":[1,2,{\"a\":null}]}".as_bytes();
        for case in 0..2_000 {
            let mut rng = Rng::for_case(1, "test", case);
            let out = mutate(&mut rng, seed, seed, Format::Json, Input::Text);
            assert!(out.len() <= MAX_LEN);
        }
    }

    #[test]
    fn json_mutations_keep_json_mostly() {
        let seed = br#"{"a":[1,2,3],"b":{"c":"text"},"d":null}"#;
        let mut parsed = 0;
        for case in 0..500 {
            let mut rng = Rng::for_case(2, "json", case);
            if let Some(out) = json_mutation(&mut rng, seed) {
                parsed += usize::from(serde_json::from_slice::<Value>(&out).is_ok());
            }
        }
        // Deep nesting beyond serde_json's limit is the only way out of JSON here.
        assert!(parsed > 400, "{parsed}");
    }

    #[test]
    fn the_same_case_gives_the_same_bytes() {
        let seed = b"<a><b>text</b><c x=\"1\"/></a>";
        for case in 0..200 {
            let first = mutate(
                &mut Rng::for_case(3, "xml", case),
                seed,
                seed,
                Format::Xml,
                Input::Text,
            );
            let second = mutate(
                &mut Rng::for_case(3, "xml", case),
                seed,
                seed,
                Format::Xml,
                Input::Text,
            );
            assert_eq!(first, second);
        }
    }
}
