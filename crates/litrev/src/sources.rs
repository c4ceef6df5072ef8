//! Opening the sources a run names: snapshots from disk, live APIs through one HTTP client
//! (one rate limiter, breaker and cache per API, one call log for the whole process).

use std::sync::{Arc, OnceLock};

use litrev_http::{Client, SourceSummary};
use litrev_sources::{Federation, SnapshotSource, Source};
use litrev_store::Location;

use crate::config::{CacheStore, SourcesConfig};
use crate::error::{Error, Result};
use crate::events::Event;
use crate::home::Home;
use crate::options::SourceSpec;
use crate::shared_cache::StoreCache;

/// Builds sources on demand and keeps the HTTP client they share.
#[derive(Debug)]
pub(crate) struct SourceOpener {
    home: Home,
    /// The run's store: the response cache lives there with `[cache] store = "db"`.
    store: Location,
    http: OnceLock<Client>,
    /// Where the model's answers are cached, chosen once per runner (a run asks it at every
    /// step that may call the model).
    llm_cache: OnceLock<litrev_llm::ResponseCache>,
}

impl SourceOpener {
    pub(crate) fn new(home: Home, store: Location) -> SourceOpener {
        SourceOpener {
            home,
            store,
            http: OnceLock::new(),
            llm_cache: OnceLock::new(),
        }
    }

    /// The HTTP layer's settings, caching where the configuration says.
    fn http_config(&self, config: &SourcesConfig) -> Result<litrev_http::HttpConfig> {
        let mut http = config.http.to_config(self.home.http_cache());
        // A contact address in every request's User-Agent, as the APIs' polite pools (Open
        // Library, Crossref, OpenAlex) ask of their clients.
        if let Some(email) = config
            .email
            .as_deref()
            .map(str::trim)
            .filter(|e| !e.is_empty())
        {
            http.user_agent = format!("{} mailto:{email}", http.user_agent);
        }
        if config.cache.store == CacheStore::Db {
            http.shared_cache = Some(Arc::new(StoreCache::open(&self.store, http.cache_ttl)?));
        }
        Ok(http)
    }

    /// Where language-model answers are cached: `LITREV_HOME/llm-cache`, or the run's store
    /// with `[cache] store = "db"`.
    pub(crate) fn llm_cache(&self) -> Result<litrev_llm::ResponseCache> {
        if let Some(cache) = self.llm_cache.get() {
            return Ok(cache.clone());
        }
        let config = SourcesConfig::load(&self.home)?;
        let cache = match config.cache.store {
            CacheStore::Files => litrev_llm::ResponseCache::new(self.home.llm_cache()),
            CacheStore::Db => litrev_llm::ResponseCache::shared(Arc::new(StoreCache::open(
                &self.store,
                config.http.to_config(self.home.http_cache()).cache_ttl,
            )?)),
        };
        Ok(self.llm_cache.get_or_init(|| cache).clone())
    }

    /// Per-API totals of every call made so far (empty when no live source was used).
    pub(crate) fn http_summary(&self) -> Vec<SourceSummary> {
        self.http.get().map(Client::summary).unwrap_or_default()
    }

    /// Tells the user what the live sources have cost so far, one line per API.
    pub(crate) fn report_calls(&self, events: &dyn Fn(&Event)) {
        for row in self.http_summary() {
            events(&Event::Notice {
                message: format!(
                    "{}: {} requests ({} retries, {} from cache, {} failed{}), ${:.4} so far",
                    row.source,
                    row.requests,
                    row.retries,
                    row.cache_hits,
                    row.failures,
                    if row.breaker_trips > 0 {
                        format!(
                            ", skipped {} times after repeated failures",
                            row.breaker_trips
                        )
                    } else {
                        String::new()
                    },
                    row.cost
                ),
            });
        }
    }

    fn http(&self, config: &SourcesConfig) -> Result<&Client> {
        if let Some(client) = self.http.get() {
            return Ok(client);
        }
        let client = Client::new(self.http_config(config)?)
            .map_err(|error| Error::Http(error.to_string()))?;
        Ok(self.http.get_or_init(|| client))
    }

    /// The guarded downloader of open-access copies, as patient as the sources: its retries
    /// and backoff come from the same settings (`[http]`, `LITREV_HTTP_RETRIES`…); its time
    /// limit is its own, since a PDF takes longer than an API answer.
    pub(crate) fn downloader(&self) -> Result<litrev_http::Downloader> {
        let config = SourcesConfig::load(&self.home)?;
        let http = config.http.to_config(self.home.http_cache());
        let limits = litrev_http::DownloadLimits {
            max_retries: http.max_retries,
            backoff_base: http.backoff_base,
            backoff_max: http.backoff_max,
            allowed_hosts: config.fetch.allow_hosts.clone(),
            ..litrev_http::DownloadLimits::default()
        };
        let agent = format!("litrev/{} (full-text reader)", env!("CARGO_PKG_VERSION"));
        litrev_http::Downloader::new(limits, &agent)
            .map_err(|error| Error::FullTextDownload(error.to_string()))
    }

    /// The Zotero library the configuration names (`[zotero]`, `LITREV_ZOTERO_*`), reached
    /// through the runner's HTTP client.
    ///
    /// # Errors
    /// When no library is configured, the config file is broken, or HTTP cannot be set up.
    pub(crate) fn zotero(&self) -> Result<litrev_sources::zotero::ZoteroLibrary> {
        self.zotero_library(None)
    }

    /// The Zotero library `library` names (`users/ID` or `groups/ID`), or the configured one
    /// when none, with the configured key and base URL.
    ///
    /// # Errors
    /// As [`Sources::zotero`].
    pub(crate) fn zotero_library(
        &self,
        library: Option<&str>,
    ) -> Result<litrev_sources::zotero::ZoteroLibrary> {
        use litrev_sources::zotero::{self, ZoteroConfig, ZoteroLibrary};
        let config = SourcesConfig::load(&self.home)?;
        let Some(library) = library.map(str::to_owned).or(config.zotero.library.clone()) else {
            return Err(litrev_sources::Error::MissingSetting {
                source_name: "zotero",
                setting: "a library",
                how: "set LITREV_ZOTERO_LIBRARY to users/ID (your user ID is on https://www.zotero.org/settings/keys) or groups/ID, and LITREV_ZOTERO_KEY to a key with write access, or put them under [zotero] in config.toml",
            }
            .into());
        };
        let zotero_config = ZoteroConfig {
            base_url: config
                .zotero
                .base_url
                .clone()
                .unwrap_or_else(|| zotero::DEFAULT_BASE_URL.to_owned()),
            library,
            key: config.zotero.api_key.clone(),
        };
        Ok(ZoteroLibrary::new(
            self.http(&config)?.endpoint(zotero::policy()),
            zotero_config,
        )?)
    }

    /// The sources of `specs`, asked together.
    ///
    /// # Errors
    /// When a snapshot cannot be read, the config file is broken, or HTTP cannot be set up.
    pub(crate) fn open(&self, specs: &[SourceSpec], events: &dyn Fn(&Event)) -> Result<Federation> {
        let mut opened: Vec<Box<dyn Source>> = Vec::new();
        let live = specs
            .iter()
            .any(|spec| !matches!(spec, SourceSpec::Snapshot { .. }));
        let config = if live {
            SourcesConfig::load(&self.home)?
        } else {
            SourcesConfig::default()
        };
        for spec in specs {
            opened.push(match spec {
                SourceSpec::Snapshot { paths } => Box::new(self.snapshot(paths, events)?),
                SourceSpec::OpenAlex => {
                    use litrev_sources::openalex::{self, OpenAlexConfig, OpenAlexSource};
                    let defaults = OpenAlexConfig::default();
                    Box::new(OpenAlexSource::new(
                        self.http(&config)?.endpoint(openalex::policy()),
                        OpenAlexConfig {
                            base_url: config
                                .openalex
                                .base_url
                                .clone()
                                .unwrap_or(defaults.base_url),
                            api_key: config.openalex.api_key.clone(),
                            mailto: config.email.clone(),
                        },
                    ))
                }
                SourceSpec::SemanticScholar => {
                    use litrev_sources::semantic_scholar::{
                        self, SemanticScholarConfig, SemanticScholarSource,
                    };
                    let defaults = SemanticScholarConfig::default();
                    Box::new(SemanticScholarSource::new(
                        self.http(&config)?.endpoint(semantic_scholar::policy()),
                        SemanticScholarConfig {
                            base_url: config
                                .semantic_scholar
                                .base_url
                                .clone()
                                .unwrap_or(defaults.base_url),
                            api_key: config.semantic_scholar.api_key.clone(),
                        },
                    ))
                }
                SourceSpec::Arxiv => {
                    use litrev_sources::arxiv::{self, ArxivConfig, ArxivSource};
                    let defaults = ArxivConfig::default();
                    Box::new(ArxivSource::new(
                        self.http(&config)?.endpoint(arxiv::policy()),
                        ArxivConfig {
                            base_url: config.arxiv.base_url.clone().unwrap_or(defaults.base_url),
                        },
                    ))
                }
                SourceSpec::PubMed => {
                    use litrev_sources::pubmed::{self, PubMedConfig, PubMedSource};
                    let defaults = PubMedConfig::default();
                    let api_key = config.pubmed.api_key.clone();
                    Box::new(PubMedSource::new(
                        self.http(&config)?
                            .endpoint(pubmed::policy(api_key.is_some())),
                        PubMedConfig {
                            base_url: config.pubmed.base_url.clone().unwrap_or(defaults.base_url),
                            api_key,
                            email: config.email.clone().unwrap_or_default(),
                        },
                    ))
                }
                SourceSpec::Crossref => {
                    use litrev_sources::crossref::{self, CrossrefConfig, CrossrefSource};
                    let defaults = CrossrefConfig::default();
                    Box::new(CrossrefSource::new(
                        self.http(&config)?.endpoint(crossref::policy()),
                        CrossrefConfig {
                            base_url: config
                                .crossref
                                .base_url
                                .clone()
                                .unwrap_or(defaults.base_url),
                            mailto: config.email.clone().unwrap_or_default(),
                        },
                    ))
                }
                SourceSpec::Unpaywall => {
                    use litrev_sources::unpaywall::{self, UnpaywallConfig, UnpaywallSource};
                    let defaults = UnpaywallConfig::default();
                    Box::new(UnpaywallSource::new(
                        self.http(&config)?.endpoint(unpaywall::policy()),
                        UnpaywallConfig {
                            base_url: config
                                .unpaywall
                                .base_url
                                .clone()
                                .unwrap_or(defaults.base_url),
                            email: config.email.clone().unwrap_or_default(),
                        },
                    ))
                }
                SourceSpec::Brave => {
                    use litrev_sources::brave::{self, BraveConfig, BraveSource};
                    let defaults = BraveConfig::default();
                    Box::new(BraveSource::new(
                        self.http(&config)?.endpoint(brave::policy()),
                        BraveConfig {
                            base_url: config.brave.base_url.clone().unwrap_or(defaults.base_url),
                            api_key: config.brave.api_key.clone(),
                        },
                    )?)
                }
                SourceSpec::Tavily => {
                    use litrev_sources::tavily::{self, TavilyConfig, TavilySource};
                    let defaults = TavilyConfig::default();
                    Box::new(TavilySource::new(
                        self.http(&config)?.endpoint(tavily::policy()),
                        TavilyConfig {
                            base_url: config.tavily.base_url.clone().unwrap_or(defaults.base_url),
                            api_key: config.tavily.api_key.clone(),
                        },
                    )?)
                }
                SourceSpec::OpenLibrary => {
                    use litrev_sources::openlibrary::{self, OpenLibraryConfig, OpenLibrarySource};
                    let defaults = OpenLibraryConfig::default();
                    Box::new(OpenLibrarySource::new(
                        self.http(&config)?.endpoint(openlibrary::policy()),
                        OpenLibraryConfig {
                            base_url: config
                                .openlibrary
                                .base_url
                                .clone()
                                .unwrap_or(defaults.base_url),
                        },
                    ))
                }
                SourceSpec::HuggingFace => {
                    use litrev_sources::huggingface::{self, HuggingFaceConfig, HuggingFaceSource};
                    let defaults = HuggingFaceConfig::default();
                    Box::new(HuggingFaceSource::new(
                        self.http(&config)?.endpoint(huggingface::policy()),
                        HuggingFaceConfig {
                            base_url: config
                                .huggingface
                                .base_url
                                .clone()
                                .unwrap_or(defaults.base_url),
                            token: config.huggingface.api_key.clone(),
                        },
                    ))
                }
            });
        }
        if opened.is_empty() {
            return Err(Error::BadSource("no source given".to_owned()));
        }
        Ok(Federation::new(opened))
    }

    fn snapshot(
        &self,
        paths: &[std::path::PathBuf],
        events: &dyn Fn(&Event),
    ) -> Result<SnapshotSource> {
        events(&Event::StepStarted {
            step: "index".into(),
            detail: "reading the snapshot".into(),
        });
        let progress = |done: usize| {
            events(&Event::Progress {
                step: "index".into(),
                done: done as u64,
                total: None,
            });
        };
        let (snapshot, report) =
            SnapshotSource::open(paths, &self.home.snapshot_indexes(), &progress)?;
        for issue in report.issues.iter().take(5) {
            events(&Event::Notice {
                message: format!(
                    "skipped {}:{}: {}",
                    issue.path.display(),
                    issue.line,
                    issue.message
                ),
            });
        }
        if report.issues.len() > 5 {
            events(&Event::Notice {
                message: format!("… and {} more skipped lines", report.issues.len() - 5),
            });
        }
        events(&Event::StepFinished {
            step: "index".into(),
            summary: format!(
                "{} works {}",
                report.works,
                if report.built {
                    "indexed"
                } else {
                    "(index reused)"
                }
            ),
        });
        Ok(snapshot)
    }
}

/// Tells the user which sources failed during a call, and why.
pub(crate) fn report_failures(federation: &Federation, since: usize, events: &dyn Fn(&Event)) {
    for failure in federation.failures().into_iter().skip(since) {
        events(&Event::Notice {
            message: format!(
                "{} failed during {} and was left out: {}",
                failure.source, failure.call, failure.message
            ),
        });
    }
}
