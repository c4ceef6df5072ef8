//! Languages as sources name them (ISO 639-2 codes, English names) and as litrev keeps them
//! (ISO 639-1 codes), and their names for people.

/// ISO 639-1 code, ISO 639-2 bibliographic code, English name.
const LANGUAGES: &[(&str, &str, &str)] = &[
    ("en", "eng", "English"),
    ("fr", "fre", "French"),
    ("de", "ger", "German"),
    ("es", "spa", "Spanish"),
    ("it", "ita", "Italian"),
    ("pt", "por", "Portuguese"),
    ("ru", "rus", "Russian"),
    ("ja", "jpn", "Japanese"),
    ("zh", "chi", "Chinese"),
    ("nl", "dut", "Dutch"),
    ("pl", "pol", "Polish"),
    ("ko", "kor", "Korean"),
    ("sv", "swe", "Swedish"),
    ("da", "dan", "Danish"),
    ("no", "nor", "Norwegian"),
    ("fi", "fin", "Finnish"),
    ("tr", "tur", "Turkish"),
    ("he", "heb", "Hebrew"),
    ("el", "gre", "Greek"),
    ("cs", "cze", "Czech"),
    ("hu", "hun", "Hungarian"),
    ("ar", "ara", "Arabic"),
    ("fa", "per", "Persian"),
    ("uk", "ukr", "Ukrainian"),
    ("ro", "rum", "Romanian"),
    ("hr", "hrv", "Croatian"),
    ("sr", "srp", "Serbian"),
    ("sl", "slv", "Slovenian"),
    ("sk", "slo", "Slovak"),
    ("bg", "bul", "Bulgarian"),
    ("lt", "lit", "Lithuanian"),
    ("is", "ice", "Icelandic"),
    ("ca", "cat", "Catalan"),
    ("id", "ind", "Indonesian"),
    ("th", "tha", "Thai"),
    ("vi", "vie", "Vietnamese"),
];

/// The ISO 639-1 code of a language given by its ISO 639-1 or ISO 639-2 code or its English
/// name, in any case; `None` for one not in the table (or `und`).
pub fn language_code(language: &str) -> Option<&'static str> {
    let language = language.trim().to_ascii_lowercase();
    LANGUAGES
        .iter()
        .find(|(two, three, name)| {
            language == *two || language == *three || language.eq_ignore_ascii_case(name)
        })
        .map(|(two, _, _)| *two)
}

/// The English name of the language with ISO 639-1 code `code` (`en` → `English`); `None`
/// for a code not in the table.
pub fn language_name(code: &str) -> Option<&'static str> {
    language_code(code).and_then(|two| {
        LANGUAGES
            .iter()
            .find(|(other, _, _)| *other == two)
            .map(|(_, _, name)| *name)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_names_go_both_ways() {
        assert_eq!(language_code("eng"), Some("en"));
        assert_eq!(language_code("English"), Some("en"));
        assert_eq!(language_code(" DE "), Some("de"));
        assert_eq!(language_code("und"), None);
        assert_eq!(language_name("en"), Some("English"));
        assert_eq!(language_name("ger"), Some("German"));
        assert_eq!(language_name("xx"), None);
    }
}
