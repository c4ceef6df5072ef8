//! Open-access copies a work's record points at, in the order they are tried: JATS from Europe
//! PMC for a PMCID (the best structure), then arXiv's PDF for an arXiv id, then the record's own
//! open-access link (OpenAlex `best_oa_location`, Unpaywall), read as HTML for a web page.

use litrev_model::{Work, WorkId, WorkKind};

use crate::{FulltextConfig, Library};

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

/// Whether a work is a page of the web (a web page, an online encyclopedia's entry known by
/// its address): its text is the page itself, HTML.
pub fn is_web_page(work: &Work) -> bool {
    work.kind == WorkKind::Webpage
        || (work.kind == WorkKind::EncyclopediaEntry
            && work.ids.doi.is_none()
            && work.ids.url.is_some())
}

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
        // A web page's text is the page itself.
        let accepted = if is_web_page(work) {
            litrev_sources::web::PAGE_TYPES
        } else {
            ANY_TYPES
        };
        found.push(Candidate {
            url: url.clone(),
            accepted,
        });
    }
    found
}

/// Scholarly publishers' and repositories' hosts: a download from any other host (a record's
/// open-access link may point anywhere) is shown to the person before it is made. A host
/// matches a name or any subdomain of it.
pub const KNOWN_HOSTS: &[&str] = &[
    "europepmc.org",
    "ebi.ac.uk",
    "ncbi.nlm.nih.gov",
    "nih.gov",
    "arxiv.org",
    "biorxiv.org",
    "medrxiv.org",
    "psyarxiv.com",
    "osf.io",
    "zenodo.org",
    "figshare.com",
    "core.ac.uk",
    "hal.science",
    "archives-ouvertes.fr",
    "ssrn.com",
    "semanticscholar.org",
    "doi.org",
    "scielo.org",
    "scielo.br",
    "plos.org",
    "biomedcentral.com",
    "springer.com",
    "springeropen.com",
    "nature.com",
    "sciencedirect.com",
    "elsevier.com",
    "cell.com",
    "thelancet.com",
    "wiley.com",
    "tandfonline.com",
    "sagepub.com",
    "mdpi.com",
    "frontiersin.org",
    "bmj.com",
    "oup.com",
    "cambridge.org",
    "elifesciences.org",
    "peerj.com",
    "hindawi.com",
    "jamanetwork.com",
    "nejm.org",
    "science.org",
    "pnas.org",
    "acm.org",
    "ieee.org",
    "aclanthology.org",
    "mlr.press",
    "neurips.cc",
    "openreview.net",
    "jmir.org",
    "karger.com",
    "thieme-connect.com",
    "thieme-connect.de",
    "lww.com",
    "ahajournals.org",
    "ashpublications.org",
    "aacrjournals.org",
    "asm.org",
    "atsjournals.org",
    "physiology.org",
    "jci.org",
    "jneurosci.org",
    "diabetesjournals.org",
    "researchsquare.com",
    "preprints.org",
    "degruyter.com",
    "iop.org",
    "aps.org",
    "acs.org",
    "rsc.org",
    "annualreviews.org",
    "jstor.org",
];

/// Whether `host` is a known publisher's or repository's (or a subdomain of one).
pub fn is_known_host(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    KNOWN_HOSTS.iter().any(|known| {
        host == *known
            || host
                .strip_suffix(known)
                .is_some_and(|rest| rest.ends_with('.'))
    })
}

/// The host a URL names (the whole text when it is no URL).
pub fn host_of(url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .and_then(|url| url.host_str().map(str::to_owned))
        .unwrap_or_else(|| url.to_owned())
}

/// A download the full-text step would make: a work and the copies it would try, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedDownload {
    /// The work.
    pub work: WorkId,
    /// The copies' URLs, best first.
    pub urls: Vec<String>,
}

impl PlannedDownload {
    /// The hosts the download may reach, each once, in order.
    pub fn hosts(&self) -> Vec<String> {
        let mut hosts: Vec<String> = Vec::new();
        for url in &self.urls {
            let host = host_of(url);
            if !hosts.contains(&host) {
                hosts.push(host);
            }
        }
        hosts
    }
}

/// The downloads [`crate::acquire`] would make for `works`, in order: each work not in the
/// person's folders that has an open-access copy none of which is `held` already (a copy
/// downloaded before, or a page read when it was named: [`crate::Copies::earlier`]), within
/// the budget.
pub fn plan_downloads<'a>(
    config: &FulltextConfig,
    library: &Library,
    works: impl IntoIterator<Item = &'a Work>,
    held: &dyn Fn(&str) -> bool,
) -> Vec<PlannedDownload> {
    works
        .into_iter()
        .filter(|work| library.find(work).is_none())
        .filter_map(|work| {
            let urls: Vec<String> = candidates(work, &config.bases)
                .into_iter()
                .map(|candidate| candidate.url)
                .collect();
            (!urls.is_empty() && !urls.iter().any(|url| held(url))).then(|| PlannedDownload {
                work: work.id(),
                urls,
            })
        })
        .take(config.max_downloads)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_hosts_match_their_subdomains_only() {
        assert!(is_known_host("www.ebi.ac.uk"));
        assert!(is_known_host("arxiv.org"));
        assert!(is_known_host("Journals.PLOS.org."));
        assert!(!is_known_host("notarxiv.org"));
        assert!(!is_known_host("arxiv.org.example.com"));
        assert!(!is_known_host("127.0.0.1"));
    }

    #[test]
    fn a_plan_lists_each_works_copies_within_the_budget() {
        let mut first = Work::stub("W1".parse().expect("an id"));
        first.ids.pmcid = Some("PMC1790863".parse().expect("a PMCID"));
        first.oa_url = Some("https://files.example.com/a.pdf".into());
        let mut second = Work::stub("W2".parse().expect("an id"));
        second.oa_url = Some("https://www.mdpi.com/b.pdf".into());
        let none = Work::stub("W3".parse().expect("an id"));
        let config = FulltextConfig {
            max_downloads: 2,
            ..FulltextConfig::default()
        };
        let library = Library::scan(&[], config.pdf).expect("no folders");
        let plan = plan_downloads(&config, &library, [&first, &none, &second], &|_| false);
        assert_eq!(plan.len(), 2);
        assert_eq!(plan[0].hosts(), ["www.ebi.ac.uk", "files.example.com"]);
        assert_eq!(plan[1].work, second.id());
        let tight = FulltextConfig {
            max_downloads: 1,
            ..config
        };
        assert_eq!(
            plan_downloads(&tight, &library, [&first, &second], &|_| false).len(),
            1
        );
        // A work whose copy is held already is not planned, and leaves the budget to the next.
        let held = |url: &str| url == "https://files.example.com/a.pdf";
        let plan = plan_downloads(&tight, &library, [&first, &second], &held);
        assert_eq!(plan.len(), 1);
        assert_eq!(plan[0].work, second.id());
    }
}
