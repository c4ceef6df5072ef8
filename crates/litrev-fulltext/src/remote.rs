//! Open-access copies a work's record points at, in the order they are tried: JATS from Europe
//! PMC for a PMCID (the best structure), then arXiv's PDF for an arXiv id, then the record's own
//! open-access link (OpenAlex `best_oa_location`, Unpaywall).

use litrev_model::Work;

/// Where the public services are (the defaults), or local stand-ins in tests.
#[derive(Debug, Clone)]
pub struct RemoteBases {
    /// Europe PMC's REST base (`{base}/{PMCID}/fullTextXML`).
    pub europe_pmc: String,
    /// arXiv's base (`{base}/pdf/{id}`).
    pub arxiv: String,
}

impl Default for RemoteBases {
    fn default() -> Self {
        RemoteBases {
            europe_pmc: "https://www.ebi.ac.uk/europepmc/webservices/rest".to_owned(),
            arxiv: "https://arxiv.org".to_owned(),
        }
    }
}

/// One copy to try.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// Its URL.
    pub url: String,
    /// The content types it may come as.
    pub accepted: &'static [&'static str],
}

const JATS_TYPES: &[&str] = &["application/xml", "text/xml"];
const PDF_TYPES: &[&str] = &["application/pdf", "application/x-pdf"];
const ANY_TYPES: &[&str] = &[
    "application/pdf",
    "application/x-pdf",
    "application/xml",
    "text/xml",
];

/// The copies of a work to try, best first, each once.
pub fn candidates(work: &Work, bases: &RemoteBases) -> Vec<Candidate> {
    let mut found = Vec::new();
    if let Some(pmcid) = &work.ids.pmcid {
        found.push(Candidate {
            url: format!(
                "{}/{}/fullTextXML",
                bases.europe_pmc.trim_end_matches('/'),
                pmcid.as_str()
            ),
            accepted: JATS_TYPES,
        });
    }
    if let Some(arxiv) = &work.ids.arxiv {
        found.push(Candidate {
            url: format!(
                "{}/pdf/{}",
                bases.arxiv.trim_end_matches('/'),
                arxiv.as_str()
            ),
            accepted: PDF_TYPES,
        });
    }
    if let Some(url) = &work.oa_url
        && !found.iter().any(|candidate| candidate.url == *url)
    {
        found.push(Candidate {
            url: url.clone(),
            accepted: ANY_TYPES,
        });
    }
    found
}
