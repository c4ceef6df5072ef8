//! A review asked for as data: the options of `litrev review` as the server's `POST /api/runs`
//! and the MCP tool `start_review` take them, checked the way the CLI checks its flags.

use std::path::PathBuf;

use litrev_model::{Filters, Tier, WorkId, WorkKind};
use litrev_publish::StyleName;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{Error, Result};
use crate::llm::{LlmKind, LlmOptions};
use crate::options::{RunOptions, SourceSpec};

/// The options of a review, as JSON.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewRequest {
    /// The research question.
    pub question: String,
    /// As the CLI's `--source` values: `openalex`, `semantic-scholar`, `arxiv`, `pubmed`,
    /// `crossref`, `brave` (web searches for grey literature; needs `BRAVE_API_KEY`),
    /// `snapshot:FILE`, or comma-separated lists of them. Default: `openalex`.
    #[serde(default)]
    pub sources: Vec<String>,
    /// Seed works: OpenAlex ids, DOIs, PMIDs, PMCIDs or arXiv ids.
    #[serde(default)]
    pub seeds: Vec<String>,
    /// The text of a library export (BibTeX, RIS, CSL-JSON, MEDLINE, PubMed XML, Web of
    /// Science, a CSV table) whose works are seeds too, as the CLI's `--seeds-from` takes a
    /// file.
    #[serde(default)]
    pub seeds_library: Option<String>,
    /// `quick`, `standard` or `exhaustive`. Default: `quick`.
    #[serde(default)]
    pub tier: Option<String>,
    /// Earliest publication year.
    #[serde(default)]
    pub year_from: Option<i32>,
    /// Latest publication year.
    #[serde(default)]
    pub year_to: Option<i32>,
    /// Publication years as the CLI's `--years` takes them: `2000-2020`, `2000-` or `-2020`
    /// (instead of `year_from` and `year_to`).
    #[serde(default)]
    pub years: Option<String>,
    /// Languages to keep (ISO 639-1 codes such as `en`).
    #[serde(default)]
    pub language: Vec<String>,
    /// Kinds of work to keep (`article`, `review`, `preprint`, …).
    #[serde(default)]
    pub kind: Vec<String>,
    /// Words whose works are left out.
    #[serde(default)]
    pub exclude_terms: Vec<String>,
    /// The citation style: `apa`, `mla`, `ieee`, `chicago`, `gb7714`, or a `.csl` file.
    #[serde(default)]
    pub style: Option<String>,
    /// A language model: its provider (`"openai"`, `"anthropic"`), or an object with
    /// `provider`, `model`, `url`, `batch` and `price`.
    #[serde(default)]
    pub llm: Option<LlmRequest>,
    /// Eligibility criteria, as text, that the model applies at screening (needs `llm`).
    #[serde(default)]
    pub criteria: Option<String>,
    /// Most US dollars the run's model calls may cost (needs `llm`).
    #[serde(default)]
    pub budget: Option<f64>,
    /// Approve the screening in advance instead of stopping at the gate.
    #[serde(default)]
    pub yes: bool,
    /// Probe the sources first and, when the research brief raises clarifying questions (the
    /// question spans two disciplines; no years for a large field), stop with status
    /// `needs_clarification` until they are answered. Default: take every default answer.
    #[serde(default)]
    pub clarify: bool,
    /// Web pages to include as grey literature (http or https addresses), fetched through the
    /// download guard: no loopback, private or link-local address unless `LITREV_ALLOW_HOSTS`
    /// names the host.
    #[serde(default)]
    pub urls: Vec<String>,
    /// Sites searched through the web search provider for the topic terms (as `--site`: a
    /// host such as `who.int`, or `sep`, `philpapers`); needs `brave` among the sources or
    /// `research_mode: "general"`.
    #[serde(default)]
    pub sites: Vec<String>,
    /// Most included works whose full text is downloaded (the tier's when absent). Local
    /// full-text folders are a command-line option only: a remote client names no server paths.
    #[serde(default)]
    pub max_fulltext: Option<usize>,
    /// `academic` (default): scholarly sources, a review's structure. `general` adds the web
    /// channel: Brave Search's web searches for grey literature, which need a key
    /// ([`ResearchMode::notice`]).
    #[serde(default)]
    pub research_mode: ResearchMode,
}

/// Which literature a request covers (seed S4 of the design).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ResearchMode {
    /// Scholarly sources only.
    #[default]
    Academic,
    /// Scholarly sources and grey literature from the web.
    General,
}

impl ResearchMode {
    /// What the mode changes that the asker should know.
    pub fn notice(self) -> Option<&'static str> {
        match self {
            ResearchMode::Academic => None,
            ResearchMode::General => Some(
                "research_mode general: the web searches go to Brave Search, which needs a key (BRAVE_API_KEY, or api_key under [brave] in config.toml), unless tavily (TAVILY_API_KEY) is among the sources",
            ),
        }
    }

    /// The sources asked in this mode: `general` adds Brave Search when no web search
    /// provider is among them.
    pub fn sources(self, mut sources: Vec<SourceSpec>) -> Vec<SourceSpec> {
        if self == ResearchMode::General && !sources.iter().any(SourceSpec::is_web) {
            sources.push(SourceSpec::Brave);
        }
        sources
    }
}

/// `llm` of a [`ReviewRequest`], as the CLI's `--llm`, `--llm-model`, `--llm-url`, `--llm-batch`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum LlmRequest {
    /// Only the provider: `openai` (or any compatible server) or `anthropic`.
    Provider(String),
    /// The provider and its settings.
    Settings {
        /// `openai` (or any compatible server) or `anthropic`.
        provider: String,
        /// The model; default: the provider's small model.
        #[serde(default)]
        model: Option<String>,
        /// The API's base URL (a local server's, for instance).
        #[serde(default)]
        url: Option<String>,
        /// Send bulk calls as a batch (Anthropic's Message Batches).
        #[serde(default)]
        batch: bool,
        /// What the model costs, for a model without a list price.
        #[serde(default)]
        price: Option<PriceRequest>,
    },
}

/// A model's price in US dollars per million tokens.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PriceRequest {
    /// Per million input tokens.
    pub input_per_million: f64,
    /// Per million output tokens.
    pub output_per_million: f64,
    /// Share of the price paid for batched calls (default 1).
    #[serde(default)]
    pub batch_factor: Option<f64>,
}

impl ReviewRequest {
    /// The run's options, writing into `out_dir`, refusing what the CLI would refuse, with its
    /// messages.
    ///
    /// # Errors
    /// [`Error::InvalidRequest`] naming the option and what to send instead.
    pub fn options(self, out_dir: PathBuf) -> Result<RunOptions> {
        let bad = |message: String| Error::InvalidRequest(message);
        let llm = self.llm()?;
        let given = if self.sources.is_empty() {
            vec!["openalex".to_owned()]
        } else {
            self.sources
        };
        let mut sources = Vec::new();
        for value in &given {
            sources.extend(SourceSpec::parse_list(value).map_err(|error| bad(error.to_string()))?);
        }
        sources = self.research_mode.sources(sources);
        let sites = parse_sites(&self.sites, &sources)?;
        let mut seeds = parse_seeds(&self.seeds)?;
        if let Some(text) = &self.seeds_library {
            let from_library = crate::library::seeds_from_text(text, "seeds_library", &|_| {})
                .map_err(|error| Error::InvalidRequest(error.to_string()))?;
            for id in from_library {
                if !seeds.contains(&id) {
                    seeds.push(id);
                }
            }
        }
        let tier = parse_tier(self.tier.as_deref())?.unwrap_or(Tier::Quick);
        let kinds = self
            .kind
            .iter()
            .map(|kind| {
                kind.parse::<WorkKind>()
                    .map_err(|error| bad(error.to_string()))
            })
            .collect::<Result<Vec<_>>>()?;
        let style = match &self.style {
            Some(style) => style
                .parse::<StyleName>()
                .map_err(|error| bad(error.to_string()))?,
            None => StyleName::default(),
        };
        let (year_from, year_to) = match &self.years {
            Some(_) if self.year_from.is_some() || self.year_to.is_some() => {
                return Err(bad(
                    "give the years either as \"years\" or as \"year_from\" and \"year_to\", not both"
                        .into(),
                ));
            }
            Some(years) => {
                parse_years(years).map_err(|message| bad(format!("years: {message}")))?
            }
            None => (self.year_from, self.year_to),
        };
        if let (Some(from), Some(to)) = (year_from, year_to)
            && from > to
        {
            return Err(bad(format!("year_from {from} comes after year_to {to}")));
        }
        Ok(RunOptions {
            out_dir,
            question: self.question,
            sources: SourceSpec::merge(sources),
            seeds,
            tier,
            approve: self.yes,
            filters: Filters {
                year_from,
                year_to,
                languages: self.language,
                kinds,
                exclude_terms: self.exclude_terms,
            },
            llm,
            style,
            fulltext_dirs: Vec::new(),
            max_fulltext: self.max_fulltext,
            plan: None,
            clarify: self.clarify,
            pages: parse_pages(&self.urls)?,
            libraries: Vec::new(),
            sites,
        })
    }

    /// The model's settings, refusing criteria or a budget without a model, as the CLI does.
    fn llm(&self) -> Result<Option<LlmOptions>> {
        let bad = |message: String| Error::InvalidRequest(message);
        let Some(llm) = &self.llm else {
            if self.criteria.is_some() || self.budget.is_some() {
                return Err(bad(
                    "criteria and budget need a language model: add \"llm\": \"openai\" or \"anthropic\""
                        .into(),
                ));
            }
            return Ok(None);
        };
        let (provider, model, url, batch, price) = match llm {
            LlmRequest::Provider(provider) => (provider, None, None, false, None),
            LlmRequest::Settings {
                provider,
                model,
                url,
                batch,
                price,
            } => (provider, model.clone(), url.clone(), *batch, *price),
        };
        let provider: LlmKind = provider.parse().map_err(bad)?;
        if let Some(budget) = self.budget
            && !(budget.is_finite() && budget >= 0.0)
        {
            return Err(bad(format!(
                "budget `{budget}` is not an amount of US dollars: send e.g. 0.50"
            )));
        }
        if self
            .criteria
            .as_ref()
            .is_some_and(|criteria| criteria.trim().is_empty())
        {
            return Err(bad(
                "the criteria are empty: write the eligibility criteria, one per line".into(),
            ));
        }
        let price = price.map(|price| {
            let mut known =
                litrev_llm::Price::new(price.input_per_million, price.output_per_million);
            if let Some(factor) = price.batch_factor {
                known.batch_factor = factor;
            }
            known
        });
        Ok(Some(LlmOptions {
            model: model.unwrap_or_else(|| provider.default_model().to_owned()),
            url,
            budget_usd: self.budget,
            batch,
            price,
            criteria: self.criteria.clone(),
            ..LlmOptions::new(provider)
        }))
    }
}

/// Seeds as the CLI's `--seed` reads them (OpenAlex ids, DOIs, PMIDs, PMCIDs, arXiv ids).
///
/// # Errors
/// [`Error::InvalidRequest`] naming the seed that is no id.
pub fn parse_seeds(seeds: &[String]) -> Result<Vec<WorkId>> {
    seeds
        .iter()
        .map(|seed| {
            seed.parse::<WorkId>()
                .map_err(|error| Error::InvalidRequest(format!("seed `{seed}`: {error}")))
        })
        .collect()
}

/// Web pages as the CLI's `--url` reads them: http(s) addresses (a `url:` prefix optional).
///
/// # Errors
/// [`Error::InvalidRequest`] naming the address that is not an http(s) URL.
pub fn parse_pages(addresses: &[String]) -> Result<Vec<litrev_model::WebUrl>> {
    addresses
        .iter()
        .map(|address| {
            let text = address.trim();
            let prefixed = if text.starts_with("url:") {
                text.to_owned()
            } else {
                format!("url:{text}")
            };
            prefixed.parse().map_err(|_| {
                Error::InvalidRequest(format!(
                    "--url `{address}` is not a web address: give an http:// or https:// URL"
                ))
            })
        })
        .collect()
}

/// Sites as `--site` takes them: a host (`who.int`), or `sep` (the Stanford Encyclopedia of
/// Philosophy, `plato.stanford.edu`) or `philpapers` (`philpapers.org`); searching them needs a
/// web search provider among `sources`.
///
/// # Errors
/// [`Error::InvalidRequest`] for a text that is no host name, or sites without a web source.
pub fn parse_sites(sites: &[String], sources: &[SourceSpec]) -> Result<Vec<String>> {
    let hosts = sites
        .iter()
        .map(|site| {
            let text = site.trim().to_ascii_lowercase();
            let host = match text.as_str() {
                "sep" => "plato.stanford.edu".to_owned(),
                "philpapers" => "philpapers.org".to_owned(),
                _ => text
                    .trim_start_matches("https://")
                    .trim_start_matches("http://")
                    .trim_end_matches('/')
                    .to_owned(),
            };
            let is_host = host.contains('.')
                && !host.starts_with('.')
                && host
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'));
            if is_host {
                Ok(host)
            } else {
                Err(Error::InvalidRequest(format!(
                    "--site `{site}` is not a site: give a host name (who.int), sep or philpapers"
                )))
            }
        })
        .collect::<Result<Vec<_>>>()?;
    if !hosts.is_empty() && !sources.iter().any(SourceSpec::is_web) {
        return Err(Error::InvalidRequest(
            "--site searches sites through a web search provider: add --source brave (with BRAVE_API_KEY set) or --source tavily (with TAVILY_API_KEY set)"
                .to_owned(),
        ));
    }
    Ok(hosts)
}

/// A tier as the CLI's `--tier` reads it.
///
/// # Errors
/// [`Error::InvalidRequest`] naming the tiers there are.
pub fn parse_tier(tier: Option<&str>) -> Result<Option<Tier>> {
    tier.map(|tier| {
        tier.parse::<Tier>()
            .map_err(|error| Error::InvalidRequest(error.to_string()))
    })
    .transpose()
}

/// `2000-2020`, `2000-` or `-2020`.
///
/// # Errors
/// A message saying how to write the range.
pub fn parse_years(text: &str) -> Result<(Option<i32>, Option<i32>), String> {
    let (from, to) = text
        .split_once('-')
        .ok_or_else(|| format!("`{text}` is not a year range: write FROM-TO, FROM- or -TO"))?;
    let year = |part: &str| -> Result<Option<i32>, String> {
        let part = part.trim();
        if part.is_empty() {
            return Ok(None);
        }
        part.parse::<i32>()
            .map(Some)
            .map_err(|_| format!("`{part}` is not a year"))
    };
    let range = (year(from)?, year(to)?);
    match range {
        (Some(from), Some(to)) if from > to => Err(format!("{from} comes after {to}")),
        (None, None) => Err("give at least one year".to_owned()),
        _ => Ok(range),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: serde_json::Value) -> ReviewRequest {
        serde_json::from_value(json).expect("a review request")
    }

    #[test]
    fn sites_are_hosts_or_the_philosophy_presets_and_need_a_web_source() {
        let web = [SourceSpec::OpenAlex, SourceSpec::Brave];
        let sites = ["sep".to_owned(), "https://www.who.int/".to_owned()];
        assert_eq!(
            parse_sites(&sites, &web).expect("sites"),
            ["plato.stanford.edu", "www.who.int"]
        );
        let error = parse_sites(&sites, &[SourceSpec::OpenAlex]).expect_err("no web source");
        assert!(error.to_string().contains("--source brave"), "{error}");
        let error = parse_sites(&["not a site".to_owned()], &web).expect_err("no host");
        assert!(error.to_string().contains("host name"), "{error}");
    }

    /// A library export sent as text adds its works to the seeds named, once each; one that
    /// is no export is refused as an invalid request saying what it takes.
    #[test]
    fn a_library_export_gives_seeds() {
        let seeds = |library: &str| {
            request(serde_json::json!({
                "question": "emicizumab",
                "seeds": ["10.1056/NEJMoa1703068"],
                "seeds_library": library,
            }))
            .options(PathBuf::from("/tmp/out"))
            .map(|options| {
                options
                    .seeds
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
            })
        };
        let bib = "@article{a, title = {HAVEN 1}, doi = {10.1056/NEJMoa1703068}}\n\
                   @article{b, title = {HAVEN 3}, doi = {10.1056/NEJMoa1803550}}\n";
        assert_eq!(
            seeds(bib).expect("seeds"),
            ["10.1056/nejmoa1703068", "10.1056/nejmoa1803550"]
        );
        let error = seeds("just some words").expect_err("no export");
        assert!(
            error
                .to_string()
                .contains("no library export litrev reads: send the text of")
                && !error.to_string().contains("zotero.sqlite"),
            "{error}"
        );
    }

    #[test]
    fn the_general_mode_adds_the_web_search_provider() {
        let sources = |mode: &str| {
            request(serde_json::json!({
                "question": "heat pumps in cold climates",
                "sources": ["openalex"],
                "research_mode": mode,
            }))
            .options(PathBuf::from("/tmp/out"))
            .expect("valid options")
            .sources
        };
        assert_eq!(sources("academic"), [SourceSpec::OpenAlex]);
        assert_eq!(
            sources("general"),
            [SourceSpec::OpenAlex, SourceSpec::Brave]
        );
    }

    #[test]
    fn reads_the_options_the_cli_takes() {
        let options = request(serde_json::json!({
            "question": "exercise and depression",
            "sources": ["snapshot:/tmp/a.jsonl,snapshot:/tmp/b.jsonl"],
            "seeds": ["W2741809807", "10.1000/xyz"],
            "tier": "standard",
            "year_from": 2000,
            "year_to": 2020,
            "kind": ["article"],
            "llm": {"provider": "anthropic", "batch": true,
                    "price": {"input_per_million": 1.0, "output_per_million": 2.0}},
            "budget": 0.5,
            "yes": true,
        }))
        .options(PathBuf::from("/tmp/out"))
        .expect("valid options");
        assert_eq!(options.tier, Tier::Standard);
        assert_eq!(options.seeds.len(), 2);
        assert!(options.approve);
        assert_eq!(options.filters.year_from, Some(2000));
        let llm = options.llm.expect("a model");
        assert_eq!(llm.provider, LlmKind::Anthropic);
        assert!(llm.batch);
        assert_eq!(llm.budget_usd, Some(0.5));
        assert_eq!(llm.price.map(|price| price.output_per_million), Some(2.0));
    }

    #[test]
    fn refuses_what_the_cli_refuses_with_its_messages() {
        let refused = |json: serde_json::Value| match request(json).options(PathBuf::new()) {
            Err(Error::InvalidRequest(message)) => message,
            other => panic!("expected BadOptions, got {other:?}"),
        };
        assert!(refused(serde_json::json!({"question": "q", "tier": "huge"})).contains("huge"));
        assert!(
            refused(serde_json::json!({"question": "q", "seeds": ["nonsense"]}))
                .contains("seed `nonsense`")
        );
        assert!(
            refused(serde_json::json!({"question": "q", "budget": 1.0}))
                .contains("need a language model")
        );
        assert!(
            refused(serde_json::json!({"question": "q", "year_from": 2020, "year_to": 2000}))
                .contains("comes after")
        );
        assert!(refused(serde_json::json!({"question": "q", "llm": "gemini"})).contains("gemini"));
        assert!(refused(serde_json::json!({"question": "q", "years": "2020"})).contains("years"));
        assert!(
            refused(serde_json::json!({"question": "q", "years": "2000-", "year_to": 2001}))
                .contains("not both")
        );
        let options = request(serde_json::json!({"question": "q", "years": "2001-2005"}))
            .options(PathBuf::new())
            .expect("years read as the CLI reads them");
        assert_eq!(
            (options.filters.year_from, options.filters.year_to),
            (Some(2001), Some(2005))
        );
    }

    #[test]
    fn reads_year_ranges() {
        assert_eq!(parse_years("2000-2020"), Ok((Some(2000), Some(2020))));
        assert_eq!(parse_years("2000-"), Ok((Some(2000), None)));
        assert_eq!(parse_years("-2020"), Ok((None, Some(2020))));
        assert!(parse_years("2020-2000").is_err());
        assert!(parse_years("2020").is_err());
        assert!(parse_years("-").is_err());
    }
}
