//! Plain text out of the markup sources leave in titles and abstracts: entities (`&lt;`,
//! `&#38;`), inline tags, escaped or not (`<i>`, `&lt;sub&gt;`, `<SUBTITLE>`), and LaTeX
//! spellings of comparison signs (`\textless`).
//!
//! OpenAlex records carry all three (the SYNERGY snapshots hold about 400 `&lt;`, 60 escaped
//! `<i>` pairs and 80 `\textbackslashtextless`), and a review quoting an abstract must not
//! print `P &lt; 0.05`.

/// The XML and common HTML entities and numeric character references decoded; an `&` that
/// starts none is kept.
pub(crate) fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        // An entity is short: looking further for its `;` made a text of many `&` quadratic.
        let entity = after
            .bytes()
            .take(11)
            .position(|byte| byte == b';')
            .map(|end| &after[..end]);
        let decoded = entity.and_then(|entity| match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "nbsp" => Some(' '),
            "ndash" => Some('–'),
            "mdash" => Some('—'),
            _ => entity
                .strip_prefix("#x")
                .or_else(|| entity.strip_prefix("#X"))
                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                .or_else(|| entity.strip_prefix('#').and_then(|dec| dec.parse().ok()))
                .and_then(char::from_u32),
        });
        match (entity, decoded) {
            (Some(entity), Some(c)) => {
                out.push(c);
                rest = &after[entity.len() + 1..];
            }
            _ => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Inline tags dropped where a text mixes them into words; others (`p < 0.05`, `<or = 65`) stay
/// as written.
const INLINE_TAGS: &[&str] = &[
    "i", "b", "u", "em", "strong", "sub", "sup", "inf", "sc", "scp", "span", "small", "italic",
    "bold", "p", "br", "subtitle", "title",
];

/// A title or abstract as plain text: entities decoded (twice escaped too), LaTeX comparison
/// signs written as signs, the inline tags of [`INLINE_TAGS`] dropped (a subtitle set off by
/// `: `), white space squeezed.
pub(crate) fn inline_to_text(text: &str) -> String {
    // Some records are escaped twice (`&amp;lt;40kg`).
    let mut text = decode_entities(text);
    for _ in 0..2 {
        let again = decode_entities(&text);
        if again == text {
            break;
        }
        text = again;
    }
    for (latex, sign) in [
        ("\\textbackslashtextless", "<"),
        ("\\textbackslashtextgreater", ">"),
        ("\\textless", "<"),
        ("\\textgreater", ">"),
    ] {
        if text.contains(latex) {
            text = text.replace(latex, sign);
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        // A tag ends at the first `>`; a `<` before it means this `<` opened no tag. Looking no
        // further than the next `<` keeps a text full of `<` linear.
        let tag = after
            .find(['<', '>'])
            .filter(|close| after.as_bytes()[*close] == b'>')
            .map(|close| (close, &after[..close]))
            .and_then(|(close, inner)| {
                let closing = inner.starts_with('/');
                let body = inner.trim_start_matches('/').trim_end_matches('/').trim();
                let (name, attributes) = body.split_once(' ').unwrap_or((body, ""));
                let name = name.to_ascii_lowercase();
                // `<span class="x">` has attributes; `<b and c>` has words.
                let is_tag = INLINE_TAGS.contains(&name.as_str())
                    && (attributes.is_empty() || attributes.contains('='));
                is_tag.then_some((close, name, closing))
            });
        match tag {
            Some((close, name, closing)) => {
                match name.as_str() {
                    "subtitle" if !closing => {
                        out.truncate(out.trim_end().len());
                        out.push_str(": ");
                    }
                    "p" | "br" | "title" | "subtitle" => out.push(' '),
                    _ => {}
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push('<');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entities_are_decoded_and_stray_ampersands_kept() {
        assert_eq!(decode_entities("a &amp; b &lt; c"), "a & b < c");
        assert_eq!(decode_entities("DHEA&#38;M &#x3b1;"), "DHEA&M α");
        assert_eq!(decode_entities("AT&T; R&D"), "AT&T; R&D");
    }

    #[test]
    fn runs_of_ampersands_and_brackets_stay_linear() {
        // Found by the fuzz target `crossref`: a body of 650,000 `&` ran for minutes, each `&`
        // searching the rest of the text for the `;` that would end an entity.
        let started = std::time::Instant::now();
        let ampersands = "&".repeat(500_000);
        assert_eq!(decode_entities(&ampersands), ampersands);
        assert_eq!(inline_to_text(&ampersands), ampersands);
        let brackets = format!("{}>", "<i ".repeat(200_000));
        // Every `<i ` is text but the last, which `>` closes as a tag.
        assert_eq!(inline_to_text(&brackets), "<i ".repeat(199_999).trim_end());
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        // Entities still end at a `;` within ten characters.
        assert_eq!(
            decode_entities("&#x1F600; &#1234567890;"),
            "😀 &#1234567890;"
        );
    }

    #[test]
    fn inline_markup_becomes_plain_text() {
        // The spellings found in the SYNERGY OpenAlex records.
        assert_eq!(
            inline_to_text("improved ( P &lt; 0.05) and (P \\textbackslashtextless 0.001)"),
            "improved ( P < 0.05) and (P < 0.001)"
        );
        assert_eq!(
            inline_to_text("aged ≥12 years and &amp;lt;40kg"),
            "aged ≥12 years and <40kg"
        );
        assert_eq!(
            inline_to_text("&lt;i&gt;E. coli&lt;/i&gt; in CO<sub>2</sub>"),
            "E. coli in CO2"
        );
        assert_eq!(
            inline_to_text(
                "Gabapentin for Painful Neuropathy&lt;SUBTITLE&gt;A Randomized Controlled Trial&lt;/SUBTITLE&gt;"
            ),
            "Gabapentin for Painful Neuropathy: A Randomized Controlled Trial"
        );
        assert_eq!(
            inline_to_text("&lt;p&gt;First.&lt;/p&gt;&lt;p&gt;Second.&lt;/p&gt;"),
            "First. Second."
        );
        // Comparisons that look like tags are not tags.
        assert_eq!(
            inline_to_text("aged &lt;or = 65 and BMI &gt; 30; a<b and c>d"),
            "aged <or = 65 and BMI > 30; a<b and c>d"
        );
    }
}
