//! The E-utilities parsers on every recorded PubMed response in the shared data, and on the
//! MEDLINE XML files.

use std::io::Read;
use std::path::Path;

use flate2::read::GzDecoder;
use litrev_model::{WorkId, WorkKind};
use litrev_testkit::testdata;

use super::*;

fn read(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if path.extension().is_some_and(|ext| ext == "gz") {
        let mut text = String::new();
        GzDecoder::new(bytes.as_slice())
            .read_to_string(&mut text)
            .expect("gzip text");
        text
    } else {
        String::from_utf8(bytes).expect("utf-8")
    }
}

fn pmids(works: &[litrev_model::Work]) -> Vec<String> {
    works
        .iter()
        .filter_map(|work| work.ids.pmid.as_ref().map(|pmid| pmid.as_str().to_owned()))
        .collect()
}

/// Files of `entrez/` that are not answers of the PubMed literature utilities litrev calls.
const NOT_PUBMED_LITERATURE: &[(&str, &str)] = &[
    ("einfo1.xml", "einfo: the list of Entrez databases"),
    ("einfo2.xml", "einfo: PubMed's search fields and links"),
    ("einfo4.xml", "einfo: the list of Entrez databases"),
    ("espell.xml", "espell: a spelling suggestion"),
    ("journals.xml", "NLM Catalog serials, not articles"),
    ("efetch_schemas.xml", "an IPG protein report"),
    (
        "efetch_pmc.xml",
        "PMC JATS full text, a different format from PubmedArticleSet",
    ),
];

#[test]
fn parses_every_recorded_e_utilities_response() {
    let Some(data) = testdata() else { return };
    let folder = data.join("pubmed-eutils/entrez");
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .expect("folder")
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    assert_eq!(names.len(), 39, "SOURCE.md lists 39 files");

    let mut parsed = std::collections::BTreeMap::<&str, usize>::new();
    let mut skipped = 0;
    let mut fetched = Vec::new();
    let mut api_errors = Vec::new();
    for name in &names {
        let body = read(&folder.join(name));
        if NOT_PUBMED_LITERATURE.iter().any(|(file, _)| file == name) {
            skipped += 1;
            continue;
        }
        let utility = if name.starts_with("pubmed") {
            match parse_efetch(&body) {
                Ok(page) => {
                    assert_eq!(page.skipped, 0, "{name}");
                    fetched.extend(page.works);
                }
                Err(error) => {
                    assert_eq!(name, "pubmed3.html", "{error}");
                    assert!(matches!(error, Error::Format { .. }), "{error}");
                }
            }
            "efetch"
        } else if name.starts_with("esearch") {
            let result = parse_esearch(&body).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(result.pmids.len() as u64, result.ret_max, "{name}");
            match name.as_str() {
                "esearch1.xml" => assert_eq!((result.count, result.pmids.len()), (63, 20)),
                "esearch2.xml" => {
                    assert_eq!(result.count, 42_249);
                    assert_eq!(
                        result.history,
                        Some(History {
                            web_env: "MCID_6927d6e7fee3e90f880ec190".to_owned(),
                            query_key: "1".to_owned(),
                        })
                    );
                }
                "esearch8.xml" => {
                    assert_eq!(result.count, 0);
                    assert_eq!(result.errors, vec!["PhraseNotFound: abcXYZ".to_owned()]);
                    assert_eq!(
                        result.warnings,
                        vec!["OutputMessage: No items found.".to_owned()]
                    );
                }
                _ => {}
            }
            "esearch"
        } else if name.starts_with("esummary") {
            match parse_esummary(&body) {
                Ok(page) if name == "esummary1.xml" => {
                    assert_eq!(page.works.len(), 2);
                    let work = &page.works[0];
                    assert_eq!(pmids(&page.works), vec!["11850928", "11482001"]);
                    assert_eq!(
                        work.title.as_deref(),
                        Some("Zirconium granuloma following treatment of rhus dermatitis.")
                    );
                    assert_eq!(work.authors[0].name, "LoPresti, PJ");
                    assert_eq!(work.date.as_deref(), Some("1965-08"));
                    assert_eq!(work.venue.as_deref(), Some("Archives of dermatology"));
                    assert_eq!(work.biblio.last_page.as_deref(), Some("191"));
                    assert_eq!(work.language.as_deref(), Some("en"));
                }
                // Nucleotide, structure, taxonomy and compound summaries are not works.
                Ok(page) => assert!(page.works.is_empty() && page.skipped > 0, "{name}"),
                Err(error) => {
                    assert_eq!(name, "esummary8.xml");
                    assert!(error.is_bad_request(), "{error}");
                    api_errors.push(error);
                }
            }
            "esummary"
        } else if name.starts_with("elink") {
            let sets = parse_elink(&body).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(!sets.is_empty(), "{name}");
            match name.as_str() {
                "elink1.xml" => {
                    let set = &sets[0];
                    assert_eq!(
                        set.source().map(|pmid| pmid.to_string()).as_deref(),
                        Some("pmid:9298984")
                    );
                    assert_eq!(set.linked(Link::CitedIn).len(), 39);
                    assert_eq!(set.linked(Link::References).len(), 56);
                    assert!(
                        set.linked(Link::References)
                            .iter()
                            .all(|id| matches!(id, WorkId::Pmid(_)))
                    );
                }
                "elink3.xml" => {
                    assert_eq!(
                        sets[0].ids,
                        vec!["11812492".to_owned(), "11774222".to_owned()]
                    );
                    assert_eq!(sets[0].source(), None, "two sources merged in one set");
                    assert_eq!(sets[0].linked(Link::CitedIn).len(), 3);
                }
                "elink2.xml" => assert_eq!(sets[0].db_from, "nuccore"),
                // llinks, prlinks, acheck and ncheck answers carry no LinkSetDb.
                "elink5.xml" | "elink6.xml" | "elink7.xml" | "elink8.xml" => {
                    assert!(sets.iter().all(|set| set.links.is_empty()), "{name}");
                }
                _ => assert!(!sets[0].linked(Link::CitedIn).is_empty(), "{name}"),
            }
            "elink"
        } else if name.starts_with("epost") {
            match parse_epost(&body) {
                Ok(history) => {
                    assert_eq!(name, "epost1.xml");
                    assert_eq!(history.web_env, "MCID_692851c130aec64bed0a8c2a");
                }
                Err(error) => {
                    assert!(error.is_bad_request(), "{name}: {error}");
                    api_errors.push(error);
                }
            }
            "epost"
        } else {
            panic!("{name} is neither parsed nor listed as skipped");
        };
        *parsed.entry(utility).or_default() += 1;
    }

    let counts: Vec<(&str, usize)> = parsed.into_iter().collect();
    assert_eq!(
        counts,
        vec![
            ("efetch", 7),
            ("elink", 8),
            ("epost", 3),
            ("esearch", 7),
            ("esummary", 7)
        ],
        "32 parsed, {skipped} skipped"
    );
    assert_eq!(skipped, NOT_PUBMED_LITERATURE.len());
    assert_eq!(
        api_errors.len(),
        3,
        "esummary8, epost2 and epost3 are <ERROR> answers"
    );

    // The PMIDs SOURCE.md lists, and the second article of pubmed1 and pubmed2.
    assert_eq!(
        pmids(&fetched),
        vec![
            "12091962", "9997", "11748933", "11700088", "27797938", "28775130", "30108519",
            "29963580"
        ]
    );
    let gut = &fetched[4];
    assert_eq!(
        gut.ids.doi.as_ref().map(|doi| doi.as_str()),
        Some("10.1136/gutjnl-2016-312510")
    );
    assert_eq!(
        gut.ids.pmcid.as_ref().map(|id| id.as_str()),
        Some("PMC5442267")
    );
    assert_eq!(
        gut.title.as_deref(),
        Some(
            "Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer."
        )
    );
    assert!(gut.abstract_text.as_deref().is_some_and(|text| {
        text.starts_with("OBJECTIVE: Telomere shortening")
            && text.contains(" CONCLUSIONS: Prediagnostic")
    }));
    assert_eq!(gut.authors[0].name, "Ying Bao");
    assert_eq!(gut.venue.as_deref(), Some("Gut"));
    assert_eq!(
        (gut.biblio.volume.as_deref(), gut.biblio.issue.as_deref()),
        (Some("66"), Some("6"))
    );
    assert_eq!(
        (
            gut.biblio.first_page.as_deref(),
            gut.biblio.last_page.as_deref()
        ),
        (Some("1116"), Some("1122"))
    );
    assert_eq!(
        (gut.year, gut.date.as_deref()),
        (Some(2017), Some("2017-06"))
    );
    assert_eq!(gut.language.as_deref(), Some("en"));
    assert_eq!(gut.kind, WorkKind::Article);
    assert_eq!(
        &gut.keywords[..4],
        [
            "Adenocarcinoma",
            "Pancreatic Neoplasms",
            "Telomerase",
            "Telomere Shortening"
        ]
    );
    assert!(!gut.keywords.iter().any(|keyword| keyword == "Humans"));
    assert!(
        gut.keywords
            .iter()
            .any(|keyword| keyword == "PANCREATIC CANCER")
    );
    assert_eq!(
        fetched[0].kind,
        WorkKind::Review,
        "12091962 is typed Review"
    );
    assert_eq!(
        fetched[0].year,
        Some(1990),
        "a Season-only PubDate still has its year"
    );
    let imaging = &fetched[7];
    assert_eq!(imaging.references.len(), 49, "pubmed7's ReferenceList");
    assert!(
        imaging
            .references
            .iter()
            .all(|id| matches!(id, WorkId::Pmid(_)))
    );
    assert!(
        imaging
            .authors
            .iter()
            .any(|author| author.name == "Canadian Respiratory Research Network")
    );
}

#[test]
fn parses_the_medline_xml_files() {
    let Some(data) = testdata() else { return };
    let folder = data.join("pmc-jats-and-medline/medline");

    let baseline =
        parse_efetch(&read(&folder.join("medline16n0902.xml.gz"))).expect("MEDLINE 2016");
    assert_eq!(
        (baseline.works.len(), baseline.skipped),
        (604, 0),
        "604 MedlineCitations"
    );
    let with_abstract = baseline
        .works
        .iter()
        .filter(|work| work.abstract_text.is_some())
        .count();
    assert_eq!(with_abstract, 526);
    let first = &baseline.works[0];
    assert_eq!(
        first.ids.pmid.as_ref().map(|id| id.as_str()),
        Some("17942999")
    );
    assert!(
        first
            .abstract_text
            .as_deref()
            .is_some_and(|text| text.starts_with("PURPOSE: "))
    );
    assert_eq!(first.biblio.issue.as_deref(), Some("3-4"));
    let italian = baseline
        .works
        .iter()
        .filter(|work| work.language.as_deref() == Some("it"))
        .count();
    assert_eq!(italian, 18);
    assert!(
        baseline
            .works
            .iter()
            .all(|work| work.year.is_some() && work.title.is_some())
    );
    // `OtherID` PMCIDs with an embargo date give the id but no open-access link.
    let embargoed = baseline
        .works
        .iter()
        .find(|work| {
            work.ids
                .pmcid
                .as_ref()
                .is_some_and(|id| id.as_str() == "PMC4688250")
        })
        .expect("PMC4688250");
    assert_eq!(embargoed.oa_url, None);

    let current =
        parse_efetch(&read(&folder.join("test_current_medline.xml.gz"))).expect("2024 DTD");
    assert_eq!(
        pmids(&current.works),
        vec!["36400559", "2930949", "11446611", "28786991"]
    );
    assert_eq!(
        current.works[0].title.as_deref(),
        Some("Back Pain: Differential Diagnosis and Management.")
    );

    let single = parse_efetch(&read(&folder.join("pubmed-29768149.xml"))).expect("2019 DTD");
    assert_eq!(pmids(&single.works), vec!["29768149"]);

    let demo = parse_efetch(&read(
        &data.join("import-exports/asreview-demo-data/pubmed.xml"),
    ))
    .expect("ASReview demo export");
    assert_eq!((demo.works.len(), demo.skipped), (10, 0));
}
