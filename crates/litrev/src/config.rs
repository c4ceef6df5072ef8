//! Keys, contact address and base URLs of the live sources.
//!
//! Read from `LITREV_HOME/config.toml` (or the file in `LITREV_CONFIG`), then overridden by the
//! environment: `OPENALEX_API_KEY`, `S2_API_KEY`, `NCBI_API_KEY`, `LITREV_EMAIL` (the contact
//! address the polite pools of OpenAlex, Crossref, NCBI and Unpaywall ask for), and one base-URL
//! override per API (`LITREV_OPENALEX_URL`, `LITREV_S2_URL`, `LITREV_ARXIV_URL`,
//! `LITREV_PUBMED_URL`, `LITREV_CROSSREF_URL`, `LITREV_UNPAYWALL_URL`, `LITREV_BRAVE_URL`,
//! `LITREV_HUGGINGFACE_URL`), Brave Search's key for web searches (`[brave] api_key`,
//! `BRAVE_API_KEY`), a Hugging Face token (`[huggingface] api_key`, `HF_TOKEN`; optional, for a
//! larger rate limit), and the Zotero library
//! reviews are exported to (`[zotero]`: `LITREV_ZOTERO_URL`, `LITREV_ZOTERO_LIBRARY`,
//! `LITREV_ZOTERO_KEY`), and the hosts downloads of pages and full texts may reach on a private
//! network (`[fetch] allow_hosts`, `LITREV_ALLOW_HOSTS`: `host[:port]`, comma-separated).
//!
//! Timeouts, retries and the cache's freshness are under `[http]` (or `LITREV_HTTP_TIMEOUT_MS`,
//! `LITREV_HTTP_RETRIES`, `LITREV_HTTP_BACKOFF_MS`, `LITREV_HTTP_BACKOFF_MAX_MS`,
//! `LITREV_HTTP_CACHE_DAYS`); where responses are cached under `[cache] store = "files"` (the
//! default, a file under `LITREV_HOME`) or `"db"` (the run's store, so a team's workers share
//! it; `LITREV_CACHE_STORE`).
//!
//! ```toml
//! email = "me@example.org"
//! [openalex]
//! api_key = "…"
//! [semantic_scholar]
//! api_key = "…"
//! [pubmed]
//! api_key = "…"
//! ```

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::{Error, Result};
use crate::home::Home;

/// How to reach one API.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiConfig {
    /// A base URL replacing the public one (a mirror, a proxy, a test server).
    #[serde(default)]
    pub base_url: Option<String>,
    /// The API key, when the API takes one.
    #[serde(default)]
    pub api_key: Option<String>,
}

/// How patient the HTTP layer is; every field falls back to the layer's defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HttpSettings {
    /// Limit for one attempt, in milliseconds (`LITREV_HTTP_TIMEOUT_MS`).
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// Retries after the first attempt (`LITREV_HTTP_RETRIES`).
    #[serde(default)]
    pub max_retries: Option<u32>,
    /// First backoff interval in milliseconds, doubled each retry (`LITREV_HTTP_BACKOFF_MS`).
    #[serde(default)]
    pub backoff_ms: Option<u64>,
    /// Longest wait between attempts in milliseconds, `Retry-After` included
    /// (`LITREV_HTTP_BACKOFF_MAX_MS`).
    #[serde(default)]
    pub backoff_max_ms: Option<u64>,
    /// Days a cached response stays fresh (`LITREV_HTTP_CACHE_DAYS`).
    #[serde(default)]
    pub cache_days: Option<u64>,
}

impl HttpSettings {
    /// The HTTP layer's configuration, caching under `cache_dir`.
    pub fn to_config(&self, cache_dir: PathBuf) -> litrev_http::HttpConfig {
        let defaults = litrev_http::HttpConfig::default();
        let millis = std::time::Duration::from_millis;
        litrev_http::HttpConfig {
            cache_dir: Some(cache_dir),
            cache_ttl: self.cache_days.map_or(defaults.cache_ttl, |days| {
                std::time::Duration::from_secs(days * 86_400)
            }),
            timeout: self.timeout_ms.map_or(defaults.timeout, millis),
            max_retries: self.max_retries.unwrap_or(defaults.max_retries),
            backoff_base: self.backoff_ms.map_or(defaults.backoff_base, millis),
            backoff_max: self.backoff_max_ms.map_or(defaults.backoff_max, millis),
            ..defaults
        }
    }
}

/// The `[zotero]` table: the library `litrev export --zotero` writes to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZoteroSettings {
    /// A base URL replacing `https://api.zotero.org` (`LITREV_ZOTERO_URL`).
    #[serde(default)]
    pub base_url: Option<String>,
    /// `users/ID` or `groups/ID` (`LITREV_ZOTERO_LIBRARY`).
    #[serde(default)]
    pub library: Option<String>,
    /// A key with write access to the library (`LITREV_ZOTERO_KEY`).
    #[serde(default)]
    pub api_key: Option<String>,
}

/// Where the responses of the live APIs are cached.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheStore {
    /// A SQLite file under `LITREV_HOME` (`http-cache/`), this machine's own.
    #[default]
    Files,
    /// The store the run is in (`--db`): a team's workers pay once for a response.
    Db,
}

/// The `[cache]` table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheSettings {
    /// Where responses are kept.
    #[serde(default)]
    pub store: CacheStore,
}

/// Everything the live sources need to identify themselves.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourcesConfig {
    /// Contact e-mail for polite pools.
    #[serde(default)]
    pub email: Option<String>,
    /// OpenAlex.
    #[serde(default)]
    pub openalex: ApiConfig,
    /// Semantic Scholar.
    #[serde(default)]
    pub semantic_scholar: ApiConfig,
    /// arXiv.
    #[serde(default)]
    pub arxiv: ApiConfig,
    /// PubMed (NCBI E-utilities).
    #[serde(default)]
    pub pubmed: ApiConfig,
    /// Crossref.
    #[serde(default)]
    pub crossref: ApiConfig,
    /// Unpaywall.
    #[serde(default)]
    pub unpaywall: ApiConfig,
    /// Brave Search (web search).
    #[serde(default)]
    pub brave: ApiConfig,
    /// Hugging Face's paper search.
    #[serde(default)]
    pub huggingface: ApiConfig,
    /// Tavily (web search).
    #[serde(default)]
    pub tavily: ApiConfig,
    /// Open Library (books).
    #[serde(default)]
    pub openlibrary: ApiConfig,
    /// The Zotero library reviews are exported to.
    #[serde(default)]
    pub zotero: ZoteroSettings,
    /// Timeouts, retries and the cache.
    #[serde(default)]
    pub http: HttpSettings,
    /// Where responses are cached.
    #[serde(default)]
    pub cache: CacheSettings,
    /// What downloads of pages and full texts may reach beyond the public internet.
    #[serde(default)]
    pub fetch: FetchSettings,
}

/// The `[fetch]` table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FetchSettings {
    /// Hosts (`name` or `name:port`) a download may reach though their address is loopback,
    /// private or link-local: an intranet's servers (`LITREV_ALLOW_HOSTS`, comma-separated).
    #[serde(default)]
    pub allow_hosts: Vec<String>,
}

impl SourcesConfig {
    /// The config file (if any) overridden by the environment.
    ///
    /// # Errors
    /// When the config file exists but cannot be read or parsed.
    pub fn load(home: &Home) -> Result<SourcesConfig> {
        let path = std::env::var_os("LITREV_CONFIG")
            .map(PathBuf::from)
            .unwrap_or_else(|| home.root().join("config.toml"));
        let mut config = if path.is_file() {
            SourcesConfig::read(&path)?
        } else {
            SourcesConfig::default()
        };
        config.apply_env(|name| std::env::var(name).ok().filter(|value| !value.is_empty()));
        Ok(config)
    }

    fn read(path: &Path) -> Result<SourcesConfig> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Config {
            path: path.to_owned(),
            message: source.to_string(),
        })?;
        toml::from_str(&text).map_err(|source| Error::Config {
            path: path.to_owned(),
            message: source.to_string(),
        })
    }

    /// Environment variables win over the file.
    fn apply_env(&mut self, var: impl Fn(&str) -> Option<String>) {
        let set = |slot: &mut Option<String>, name: &str| {
            if let Some(value) = var(name) {
                *slot = Some(value);
            }
        };
        set(&mut self.email, "LITREV_EMAIL");
        set(&mut self.openalex.api_key, "OPENALEX_API_KEY");
        set(&mut self.semantic_scholar.api_key, "S2_API_KEY");
        set(&mut self.pubmed.api_key, "NCBI_API_KEY");
        set(&mut self.openalex.base_url, "LITREV_OPENALEX_URL");
        set(&mut self.semantic_scholar.base_url, "LITREV_S2_URL");
        set(&mut self.arxiv.base_url, "LITREV_ARXIV_URL");
        set(&mut self.pubmed.base_url, "LITREV_PUBMED_URL");
        set(&mut self.crossref.base_url, "LITREV_CROSSREF_URL");
        set(&mut self.unpaywall.base_url, "LITREV_UNPAYWALL_URL");
        set(&mut self.brave.api_key, "BRAVE_API_KEY");
        set(&mut self.brave.base_url, "LITREV_BRAVE_URL");
        set(&mut self.huggingface.api_key, "HF_TOKEN");
        set(&mut self.huggingface.base_url, "LITREV_HUGGINGFACE_URL");
        set(&mut self.tavily.api_key, "TAVILY_API_KEY");
        set(&mut self.tavily.base_url, "LITREV_TAVILY_URL");
        set(&mut self.openlibrary.base_url, "LITREV_OPENLIBRARY_URL");
        set(&mut self.zotero.base_url, "LITREV_ZOTERO_URL");
        set(&mut self.zotero.library, "LITREV_ZOTERO_LIBRARY");
        set(&mut self.zotero.api_key, "LITREV_ZOTERO_KEY");
        if let Some(hosts) = var("LITREV_ALLOW_HOSTS") {
            self.fetch.allow_hosts = hosts
                .split(',')
                .map(str::trim)
                .filter(|host| !host.is_empty())
                .map(str::to_owned)
                .collect();
        }
        let number = |name: &str| var(name).and_then(|value| value.trim().parse::<u64>().ok());
        let http = &mut self.http;
        http.timeout_ms = number("LITREV_HTTP_TIMEOUT_MS").or(http.timeout_ms);
        http.max_retries = number("LITREV_HTTP_RETRIES")
            .and_then(|value| u32::try_from(value).ok())
            .or(http.max_retries);
        http.backoff_ms = number("LITREV_HTTP_BACKOFF_MS").or(http.backoff_ms);
        http.backoff_max_ms = number("LITREV_HTTP_BACKOFF_MAX_MS").or(http.backoff_max_ms);
        http.cache_days = number("LITREV_HTTP_CACHE_DAYS").or(http.cache_days);
        match var("LITREV_CACHE_STORE").as_deref().map(str::trim) {
            Some("db") => self.cache.store = CacheStore::Db,
            Some("files") => self.cache.store = CacheStore::Files,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_environment_overrides_the_file() {
        let mut config: SourcesConfig = toml::from_str(
            "email = \"file@example.org\"\n[openalex]\napi_key = \"from-file\"\n[pubmed]\nbase_url = \"http://mirror\"\n",
        )
        .expect("config parses");
        assert_eq!(config.cache.store, CacheStore::Files);
        config.apply_env(|name| match name {
            "LITREV_CACHE_STORE" => Some("db".into()),
            "OPENALEX_API_KEY" => Some("from-env".into()),
            "LITREV_S2_URL" => Some("http://127.0.0.1:9".into()),
            _ => None,
        });
        assert_eq!(config.email.as_deref(), Some("file@example.org"));
        assert_eq!(config.cache.store, CacheStore::Db);
        assert_eq!(config.openalex.api_key.as_deref(), Some("from-env"));
        assert_eq!(config.pubmed.base_url.as_deref(), Some("http://mirror"));
        assert_eq!(
            config.semantic_scholar.base_url.as_deref(),
            Some("http://127.0.0.1:9")
        );
    }

    #[test]
    fn the_cache_can_live_in_the_store() {
        let config: SourcesConfig = toml::from_str("[cache]\nstore = \"db\"\n").expect("parses");
        assert_eq!(config.cache.store, CacheStore::Db);
        assert!(toml::from_str::<SourcesConfig>("[cache]\nstore = \"redis\"\n").is_err());
    }

    #[test]
    fn a_misspelt_key_is_an_error() {
        assert!(toml::from_str::<SourcesConfig>("[openalex]\napikey = \"x\"\n").is_err());
    }
}
