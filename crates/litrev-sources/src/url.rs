//! Building the URLs of the scholarly APIs: one way to join a base, a path and a query.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

/// Bytes escaped in an id used as a path segment: DOIs keep their slashes and prefixes keep
/// their colon (`DOI:10.1/x`), as the APIs' own examples write them.
const ID_SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'/')
    .remove(b':');

/// A base URL without its trailing slashes, so paths can be appended with one `/`.
pub(crate) fn base(base: &str) -> &str {
    base.trim_end_matches('/')
}

/// An id (a DOI, `DOI:…`, a paper id) escaped for use as a path segment.
pub(crate) fn id_segment(id: &str) -> String {
    utf8_percent_encode(id.trim(), ID_SEGMENT).to_string()
}

/// Query pairs as `application/x-www-form-urlencoded`, in the order given.
pub(crate) fn query<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_keep_their_slashes_and_queries_are_form_encoded() {
        assert_eq!(
            id_segment(" DOI:10.1093/mind/LIX.236.433 "),
            "DOI:10.1093/mind/LIX.236.433"
        );
        assert_eq!(id_segment("10.1/a b"), "10.1/a%20b");
        assert_eq!(query([("q", "a b"), ("f", "x:1|2")]), "q=a+b&f=x%3A1%7C2");
        assert_eq!(base("https://api.example.org//"), "https://api.example.org");
    }
}
