//! The URL of Unpaywall's DOI route.

use litrev_model::Doi;

/// The API's base URL.
pub const DEFAULT_BASE_URL: &str = "https://api.unpaywall.org";

/// `/v2/{doi}?email=…`: the DOI's record (Unpaywall requires the caller's e-mail address).
pub fn record_url(base: &str, doi: &Doi, email: &str) -> String {
    let query = crate::url::query([("email", email)]);
    format!(
        "{}/v2/{}?{query}",
        crate::url::base(base),
        crate::url::id_segment(doi.as_str())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_the_doi_url() {
        let doi: Doi = "https://doi.org/10.1038/NATURE12373".parse().expect("doi");
        assert_eq!(
            record_url(DEFAULT_BASE_URL, &doi, "dev@example.org"),
            "https://api.unpaywall.org/v2/10.1038/nature12373?email=dev%40example.org"
        );
        let odd: Doi = "10.1002/(SICI)1097-4636(199906)45:4<325::AID-JBM7>3.0.CO;2-J"
            .parse()
            .expect("doi");
        assert_eq!(
            record_url("http://localhost:4/", &odd, "m"),
            "http://localhost:4/v2/10.1002/%28sici%291097-4636%28199906%2945:4%3C325::aid-jbm7%3E3.0.co%3B2-j?email=m"
        );
    }
}
