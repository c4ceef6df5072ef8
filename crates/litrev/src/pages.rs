//! Web pages the person names (`--url`, seed S3's second gate): pages from hosts that are not
//! scholarly sources pause the run once for approval (`pages.csv`; `--yes` approves in
//! advance, resuming approves), then each page is fetched through the download guard (no
//! loopback, private, link-local or metadata address unless `LITREV_ALLOW_HOSTS` names the
//! host; http(s) only; size, time and redirect caps; HTML only; the site's robots.txt
//! respected, a missing or unreadable one allowing all) and read as a `webpage` work,
//! which joins the corpus with origin `page` and is included as grey literature; the page as
//! fetched is kept as its full text, which the full-text step reads from the store.

use std::collections::{BTreeMap, BTreeSet};

use litrev_fulltext::is_known_host;
use litrev_http::DownloadError;
use litrev_model::{RunId, WebUrl, Work};
use litrev_sources::web::{ROBOTS_AGENT, robots_allow, robots_url};
use litrev_store::StoredText;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::events::Event;
use crate::options::RunOptions;
use crate::runner::{Outcome, Runner};

/// The event recording that the pages gate was shown, so it pauses a run once.
const PAGES_SHOWN: &str = "pages_planned";

/// What became of one named page, stored with the discover step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct PageRecord {
    /// The address as named.
    pub(crate) address: String,
    /// The work it was read as.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) work: Option<litrev_model::WorkId>,
    /// Why it could not be read (it is then left out); none when it joined the corpus.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) failure: Option<String>,
}

/// The named pages read, and what became of each.
pub(crate) struct Pages {
    /// The works read from them.
    pub(crate) works: Vec<Work>,
    /// One record per named page, in the order named.
    pub(crate) records: Vec<PageRecord>,
    /// Their HTML as fetched and their readable text, kept as full texts.
    pub(crate) texts: Vec<StoredText>,
    /// The addresses they were fetched from (after redirects), with the sha256 of what came:
    /// the full-text step finds each page's text under its address rather than fetch it again.
    pub(crate) downloads: Vec<(String, String)>,
}

/// The host (and port) of a page's address.
fn host(address: &WebUrl) -> String {
    litrev_sources::web::host_of(address.address())
        .unwrap_or(address.address())
        .to_owned()
}

impl Runner {
    /// The pages gate: a run naming pages on hosts that are not known publishers or
    /// repositories pauses once, writing them to `pages.csv`, unless approved in advance.
    pub(crate) fn pages_gate(
        &mut self,
        run: &RunId,
        options: &RunOptions,
    ) -> Result<Option<Outcome>> {
        let unknown_hosts: BTreeSet<String> = options
            .pages
            .iter()
            .map(host)
            .filter(|host| !is_known_host(host.split(':').next().unwrap_or(host)))
            .collect();
        if options.approve
            || unknown_hosts.is_empty()
            || self.store().has_event(run, PAGES_SHOWN)?
        {
            return Ok(None);
        }
        let pages_csv = options.out_dir.join("pages.csv");
        let mut writer = csv::Writer::from_writer(Vec::new());
        let rows = std::iter::once(["url".to_owned(), "host".to_owned(), "known_host".to_owned()])
            .chain(options.pages.iter().map(|page| {
                let host = host(page);
                let known = (!unknown_hosts.contains(&host)).to_string();
                [page.address().to_owned(), host, known]
            }));
        for row in rows {
            writer
                .write_record(&row)
                .map_err(|error| Error::BadOptions(error.to_string()))?;
        }
        let bytes = writer
            .into_inner()
            .map_err(|error| Error::BadOptions(error.to_string()))?;
        std::fs::create_dir_all(&options.out_dir)
            .and_then(|()| std::fs::write(&pages_csv, bytes))
            .map_err(|source| Error::Write {
                path: pages_csv.clone(),
                source,
            })?;
        let unknown_hosts: Vec<String> = unknown_hosts.into_iter().collect();
        let shown = serde_json::json!({
            "pages": options.pages.len(),
            "unknown_hosts": unknown_hosts,
            "pages_csv": pages_csv,
        });
        self.store()
            .append_event(run, PAGES_SHOWN, &shown.to_string())?;
        Ok(Some(Outcome::AwaitingPages {
            run: run.clone(),
            pages: options.pages.len(),
            unknown_hosts,
            pages_csv,
        }))
    }

    /// Fetches and reads every named page. A page the guard refuses stops the run (nothing is
    /// searched yet): the person named an address no download may reach. A page that fails
    /// or has no readable text is left out, said in a notice and recorded.
    ///
    /// # Errors
    /// [`Error::PageRefused`] for an address the guard refuses; when the downloader cannot be
    /// set up.
    pub(crate) fn read_pages(&self, pages: &[WebUrl], events: &dyn Fn(&Event)) -> Result<Pages> {
        let mut read = Pages {
            works: Vec::new(),
            records: Vec::new(),
            texts: Vec::new(),
            downloads: Vec::new(),
        };
        if pages.is_empty() {
            return Ok(read);
        }
        let downloader = self.sources().downloader()?;
        // Each site's robots.txt, fetched once: a page it keeps litrev out of is left out.
        let mut robots: BTreeMap<String, Option<Vec<u8>>> = BTreeMap::new();
        for page in pages {
            let allowed = match robots_url(page.address()) {
                Some(url) => {
                    let txt = robots.entry(url.clone()).or_insert_with(|| {
                        // No robots.txt (or none readable as text) allows everything.
                        downloader
                            .get(&url, &["text/plain"])
                            .ok()
                            .map(|fetched| fetched.bytes)
                    });
                    txt.as_deref()
                        .is_none_or(|txt| robots_allow(txt, page.address()))
                }
                None => true,
            };
            let fetched = if !allowed {
                Err(format!(
                    "the site's robots.txt does not let {ROBOTS_AGENT} fetch it"
                ))
            } else {
                match downloader.get(page.address(), litrev_sources::web::PAGE_TYPES) {
                    Err(DownloadError::Refused(why)) => {
                        return Err(Error::PageRefused {
                            url: page.address().to_owned(),
                            why,
                        });
                    }
                    Err(DownloadError::Failed(why)) => Err(why),
                    Ok(fetched) => litrev_sources::web::read_page_within(
                        page,
                        &fetched.url,
                        &fetched.bytes,
                        litrev_sources::web::PAGE_TIME_LIMIT,
                    )
                    .map(|read| (read, fetched))
                    .map_err(|error| error.to_string()),
                }
            };
            let (work, failure) = match fetched {
                Ok((page, fetched)) => {
                    let id = page.work.id();
                    let sha256 = litrev_model::sha256_hex(&fetched.bytes);
                    read.works.push(page.work);
                    read.downloads.push((fetched.url, sha256.clone()));
                    read.texts.push(StoredText {
                        sha256,
                        format: page.text.format,
                        bytes: fetched.bytes,
                        text: page.text,
                    });
                    (Some(id), None)
                }
                Err(why) => {
                    events(&Event::Notice {
                        message: format!("the page {} was left out: {why}", page.address()),
                    });
                    (None, Some(why))
                }
            };
            read.records.push(PageRecord {
                address: page.address().to_owned(),
                work,
                failure,
            });
        }
        Ok(read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pages_host_keeps_its_port() {
        let page: WebUrl = "url:http://127.0.0.1:8080/report?x=1".parse().expect("url");
        assert_eq!(host(&page), "127.0.0.1:8080");
        let page: WebUrl = "url:https://www.who.int".parse().expect("url");
        assert_eq!(host(&page), "www.who.int");
    }
}
