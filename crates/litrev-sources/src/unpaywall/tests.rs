//! The Unpaywall parser on example bodies.
//!
//! The shared data holds no recorded Unpaywall response, so these bodies were written by hand
//! in the shape of Unpaywall's documented v2 DOI object (fields and types of its data format;
//! values illustrative, shortened to what matters).

use super::*;

/// An open record: a green copy in a repository is the best location.
const OPEN: &str = r#"{
  "doi": "10.1038/nature12373",
  "doi_url": "https://doi.org/10.1038/nature12373",
  "title": "Nanometre-scale thermometry in a living cell",
  "genre": "journal-article",
  "is_paratext": false,
  "published_date": "2013-07-31",
  "year": 2013,
  "journal_name": "Nature",
  "journal_issns": "0028-0836,1476-4687",
  "journal_issn_l": "0028-0836",
  "journal_is_oa": false,
  "journal_is_in_doaj": false,
  "publisher": "Springer Science and Business Media LLC",
  "is_oa": true,
  "oa_status": "green",
  "has_repository_copy": true,
  "best_oa_location": {
    "url": "https://europepmc.org/articles/pmc4221854?pdf=render",
    "url_for_pdf": "https://europepmc.org/articles/pmc4221854?pdf=render",
    "url_for_landing_page": "https://europepmc.org/articles/pmc4221854",
    "evidence": "oa repository (via OAI-PMH doi match)",
    "license": null,
    "version": "acceptedVersion",
    "host_type": "repository",
    "is_best": true,
    "pmh_id": "oai:europepmc.org:4221854",
    "endpoint_id": "b5e840539009389b1a6",
    "repository_institution": "PubMed Central - Europe PMC",
    "oa_date": "2014-11-04",
    "updated": "2023-02-10T03:35:40.154117"
  },
  "first_oa_location": null,
  "oa_locations": [],
  "oa_locations_embargoed": [],
  "updated": "2023-06-20T13:36:13.226581",
  "data_standard": 2,
  "z_authors": [{"given": "G.", "family": "Kucsko", "sequence": "first"}]
}"#;

/// A closed record: no location at all.
const CLOSED: &str = r#"{"doi": "10.1016/S0140-6736(20)30183-5", "is_oa": false,
  "oa_status": "closed", "best_oa_location": null, "oa_locations": [], "year": 2020,
  "genre": "journal-article", "data_standard": 2}"#;

/// A gold record whose best location gives only a landing page (`url`), no PDF.
const GOLD_LANDING: &str = r#"{"doi": "10.7717/peerj.4375", "is_oa": true, "oa_status": "gold",
  "best_oa_location": {"url": "https://doi.org/10.7717/peerj.4375", "url_for_pdf": null,
  "url_for_landing_page": null, "license": "cc-by", "version": "publishedVersion",
  "host_type": "publisher"}}"#;

#[test]
fn reads_the_best_location_of_documented_records() {
    let open = parse_record(OPEN).expect("open record");
    assert_eq!(open.doi.as_str(), "10.1038/nature12373");
    assert!(open.is_oa);
    assert_eq!(open.oa_status.as_deref(), Some("green"));
    assert_eq!(
        open.pdf_url.as_deref(),
        Some("https://europepmc.org/articles/pmc4221854?pdf=render")
    );
    assert_eq!(
        open.landing_url.as_deref(),
        Some("https://europepmc.org/articles/pmc4221854")
    );
    assert_eq!(open.host_type.as_deref(), Some("repository"));
    assert_eq!(open.version.as_deref(), Some("acceptedVersion"));
    assert_eq!(open.license, None);
    assert_eq!(open.best_url(), open.pdf_url.as_deref());

    let closed = parse_record(CLOSED).expect("closed record");
    assert_eq!(closed.doi.as_str(), "10.1016/s0140-6736(20)30183-5");
    assert!(!closed.is_oa);
    assert_eq!(closed.oa_status.as_deref(), Some("closed"));
    assert_eq!(closed.best_url(), None);

    let gold = parse_record(GOLD_LANDING).expect("gold record");
    assert_eq!(gold.pdf_url, None);
    assert_eq!(gold.best_url(), Some("https://doi.org/10.7717/peerj.4375"));
    assert_eq!(gold.license.as_deref(), Some("cc-by"));
}

#[test]
fn tells_error_bodies_apart() {
    // Unpaywall's 404 and 422 bodies carry the status themselves.
    let unknown = r#"{"HTTP_status_code": 404, "error": true, "message": "'10.1234/nope' isn't in Unpaywall. See https://support.unpaywall.org/a/solutions/articles/44000757089"}"#;
    let error = parse_record(unknown).expect_err("unknown DOI");
    assert!(error.is_not_found(), "{error}");
    let no_email = r#"{"HTTP_status_code": 422, "error": true, "message": "Please use an email address in your API call."}"#;
    assert!(parse_record(no_email).is_err_and(|error| error.is_bad_request()));
    assert_eq!(
        parse_error(404, unknown),
        Error::Api {
            status: Some(404),
            message: "'10.1234/nope' isn't in Unpaywall. See https://support.unpaywall.org/a/solutions/articles/44000757089".to_owned()
        }
    );
    assert!(
        parse_error(503, "<html>Service Unavailable</html>")
            .to_string()
            .contains("(503)")
    );
    assert!(matches!(parse_record("not json"), Err(Error::Format(_))));
    assert!(matches!(
        parse_record(r#"{"doi": "not a doi"}"#),
        Err(Error::Format(_))
    ));
    assert!(matches!(parse_record("[]"), Err(Error::Format(_))));
}
