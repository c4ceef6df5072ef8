//! What a run is asked to do.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use litrev_model::{Filters, Tier, WorkId};
use serde::{Deserialize, Serialize};

use crate::error::Error;

/// The options of one run, stored with it so `resume` needs nothing else.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunOptions {
    /// The research question.
    pub question: String,
    /// Where works come from.
    pub sources: Vec<SourceSpec>,
    /// Works to start from.
    pub seeds: Vec<WorkId>,
    /// Quality tier.
    pub tier: Tier,
    /// Output folder (made absolute when the run is created).
    pub out_dir: PathBuf,
    /// Approve the screening without stopping at the gate.
    pub approve: bool,
    /// Eligibility rules applied at screening.
    #[serde(default)]
    pub filters: Filters,
    /// Draft the thematic sections with a language model; `None` writes extractively.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm: Option<crate::LlmOptions>,
    /// The citation style of `review.html` and `review.docx` (APA for runs stored before it
    /// existed); a `.csl` file is read again when the run publishes.
    #[serde(default)]
    pub style: litrev_publish::StyleName,
    /// Folders of the person's own full texts (PDF, JATS; a Zotero storage folder), read for
    /// the included works after the gate.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fulltext_dirs: Vec<PathBuf>,
    /// Most included works whose full text is downloaded; `None` is the tier's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_fulltext: Option<usize>,
    /// A plan a person edited (`litrev review --plan`), run as written instead of the one
    /// litrev would generate; `None` plans from the question.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<litrev_model::Plan>,
    /// Probe the sources for the brief before searching, and stop with status
    /// `needs_clarification` when it raises questions, until [`crate::Runner::clarify`]
    /// answers them (the web app and MCP ask them); `false` takes every default.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub clarify: bool,
    /// Web pages the person names (`--url`): fetched through the download guard, read as
    /// grey literature and included by right.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pages: Vec<litrev_model::WebUrl>,
    /// The person's own libraries (`--library`: a `zotero.sqlite` or a RIS file), whose
    /// records join the corpus to be screened.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub libraries: Vec<crate::LibraryFile>,
    /// Sites searched through the web search provider (`--site`: `plato.stanford.edu`), one
    /// web search each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sites: Vec<String>,
}

impl RunOptions {
    /// A run of `question` on `sources` at `tier` into `out_dir`, approved in advance, every
    /// other option at its default: what the benchmarks run.
    pub fn approved(
        question: &str,
        sources: Vec<SourceSpec>,
        tier: Tier,
        out_dir: PathBuf,
    ) -> RunOptions {
        RunOptions {
            question: question.to_owned(),
            sources,
            seeds: Vec::new(),
            tier,
            out_dir,
            approve: true,
            filters: Filters::default(),
            llm: None,
            style: litrev_publish::StyleName::default(),
            fulltext_dirs: Vec::new(),
            max_fulltext: None,
            pages: Vec::new(),
            libraries: Vec::new(),
            sites: Vec::new(),
            plan: None,
            clarify: false,
        }
    }
}

/// One source, as named on the command line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum SourceSpec {
    /// Local OpenAlex Work files or folders.
    Snapshot {
        /// Files or folders.
        paths: Vec<PathBuf>,
    },
    /// The live OpenAlex API.
    OpenAlex,
    /// The live Semantic Scholar API.
    SemanticScholar,
    /// The live arXiv API.
    Arxiv,
    /// PubMed through the live E-utilities.
    PubMed,
    /// The live Crossref API.
    Crossref,
    /// Unpaywall, for open-access links only.
    Unpaywall,
    /// Brave Search's web search: grey literature, for the plan's web searches only.
    Brave,
    /// Hugging Face's paper search: machine-learning preprints, for the plan's searches.
    HuggingFace,
    /// Tavily's search API: grey literature, for the plan's web searches only.
    Tavily,
    /// Open Library: books, for the plan's book searches and lookups by ISBN.
    OpenLibrary,
}

impl FromStr for SourceSpec {
    type Err = Error;
    fn from_str(text: &str) -> Result<Self, Error> {
        let text = text.trim();
        if let Some(path) = text.strip_prefix("snapshot:") {
            if path.is_empty() {
                return Err(Error::BadSource(text.to_owned()));
            }
            return Ok(SourceSpec::Snapshot {
                paths: vec![PathBuf::from(path)],
            });
        }
        match text.to_ascii_lowercase().as_str() {
            "openalex" => Ok(SourceSpec::OpenAlex),
            "semantic-scholar" | "semanticscholar" | "s2" => Ok(SourceSpec::SemanticScholar),
            "arxiv" => Ok(SourceSpec::Arxiv),
            "pubmed" => Ok(SourceSpec::PubMed),
            "crossref" => Ok(SourceSpec::Crossref),
            "unpaywall" => Ok(SourceSpec::Unpaywall),
            "brave" => Ok(SourceSpec::Brave),
            "huggingface" | "hf" | "hf-papers" => Ok(SourceSpec::HuggingFace),
            "tavily" => Ok(SourceSpec::Tavily),
            "openlibrary" | "open-library" => Ok(SourceSpec::OpenLibrary),
            _ => Err(Error::BadSource(text.to_owned())),
        }
    }
}

impl fmt::Display for SourceSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceSpec::Snapshot { paths } => {
                let joined: Vec<String> = paths
                    .iter()
                    .map(|path| path.display().to_string())
                    .collect();
                write!(f, "snapshot:{}", joined.join(","))
            }
            SourceSpec::OpenAlex => f.write_str("openalex"),
            SourceSpec::SemanticScholar => f.write_str("semantic-scholar"),
            SourceSpec::Arxiv => f.write_str("arxiv"),
            SourceSpec::PubMed => f.write_str("pubmed"),
            SourceSpec::Crossref => f.write_str("crossref"),
            SourceSpec::Unpaywall => f.write_str("unpaywall"),
            SourceSpec::Brave => f.write_str("brave"),
            SourceSpec::HuggingFace => f.write_str("huggingface"),
            SourceSpec::Tavily => f.write_str("tavily"),
            SourceSpec::OpenLibrary => f.write_str("openlibrary"),
        }
    }
}

impl SourceSpec {
    /// Checks that a snapshot's files exist and its folders hold Work files, as the snapshot
    /// reader finds them, so that no run is stored that could only fail at its first search.
    ///
    /// # Errors
    /// Names the first path that is missing or a folder without Work files.
    pub fn check_paths(&self) -> Result<(), Error> {
        if let SourceSpec::Snapshot { paths } = self {
            litrev_sources::SnapshotSource::files_of(paths)?;
        }
        Ok(())
    }

    /// Whether it searches the web (the plan then adds web searches for it).
    pub fn is_web(&self) -> bool {
        matches!(self, SourceSpec::Brave | SourceSpec::Tavily)
    }

    /// Whether it lists trending papers (the plan then adds a trending search for it).
    pub fn lists_trending(&self) -> bool {
        matches!(self, SourceSpec::HuggingFace)
    }

    /// Parses a comma-separated list (`openalex,semantic-scholar`,
    /// `snapshot:a.ris,b.csv,openalex`): after a `snapshot:` item, each item that names no
    /// source is one more path of that snapshot (as [`SourceSpec`]'s `Display` writes them),
    /// or, when only the joined text names an existing file, the rest of a path with a comma.
    ///
    /// # Errors
    /// When an item before any `snapshot:` names no known source.
    pub fn parse_list(text: &str) -> Result<Vec<SourceSpec>, Error> {
        let mut specs: Vec<SourceSpec> = Vec::new();
        for item in text.split(',') {
            let named = item.trim();
            if named.is_empty() {
                continue;
            }
            let is_source = named.starts_with("snapshot:") || named.parse::<SourceSpec>().is_ok();
            if !is_source && let Some(SourceSpec::Snapshot { paths }) = specs.last_mut() {
                if let Some(last) = paths.last_mut() {
                    let joined = PathBuf::from(format!("{},{item}", last.display()));
                    if joined.exists() && !Path::new(named).exists() {
                        *last = joined;
                        continue;
                    }
                }
                paths.push(PathBuf::from(named));
                continue;
            }
            specs.push(named.parse()?);
        }
        Ok(specs)
    }

    /// Merges several `snapshot:` specs into one snapshot of all their paths, and drops
    /// repeated live sources.
    pub fn merge(specs: Vec<SourceSpec>) -> Vec<SourceSpec> {
        let mut paths = Vec::new();
        let mut others = Vec::new();
        for spec in specs {
            match spec {
                SourceSpec::Snapshot { paths: more } => paths.extend(more),
                other if others.contains(&other) => {}
                other => others.push(other),
            }
        }
        if !paths.is_empty() {
            others.insert(0, SourceSpec::Snapshot { paths });
        }
        others
    }
}

/// `reviews/emicizumab-haemophilia-prophylaxis`: the first content words of the question, the
/// folder a run writes to when none is given.
pub fn default_out_dir(question: &str) -> PathBuf {
    let words: Vec<String> = question
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| word.len() > 3)
        .take(5)
        .map(str::to_lowercase)
        .collect();
    let slug = if words.is_empty() {
        "review".to_owned()
    } else {
        words.join("-")
    };
    PathBuf::from("reviews").join(slug)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_output_folder_is_named_after_the_question() {
        assert_eq!(
            default_out_dir("Pharmacokinetics and efficacy of emicizumab: a review"),
            PathBuf::from("reviews/pharmacokinetics-efficacy-emicizumab-review")
        );
        assert_eq!(default_out_dir("?"), PathBuf::from("reviews/review"));
    }

    #[test]
    fn parses_and_merges_sources() {
        let snapshot: SourceSpec = "snapshot:a.jsonl.gz".parse().expect("snapshot");
        assert_eq!(snapshot.to_string(), "snapshot:a.jsonl.gz");
        assert_eq!(
            "openalex".parse::<SourceSpec>().expect("openalex"),
            SourceSpec::OpenAlex
        );
        assert!("snapshot:".parse::<SourceSpec>().is_err());
        assert!("scopus".parse::<SourceSpec>().is_err());
        assert_eq!(
            SourceSpec::parse_list("openalex,semantic-scholar,arxiv,pubmed").expect("list"),
            vec![
                SourceSpec::OpenAlex,
                SourceSpec::SemanticScholar,
                SourceSpec::Arxiv,
                SourceSpec::PubMed
            ]
        );
        let merged = SourceSpec::merge(vec![
            SourceSpec::OpenAlex,
            "snapshot:a".parse().expect("a"),
            "snapshot:b".parse().expect("b"),
        ]);
        assert_eq!(
            merged,
            vec![
                SourceSpec::Snapshot {
                    paths: vec!["a".into(), "b".into()]
                },
                SourceSpec::OpenAlex
            ]
        );
    }

    #[test]
    fn a_list_names_several_snapshot_paths_and_sources_after_them() {
        let paths = |spec: &SourceSpec| match spec {
            SourceSpec::Snapshot { paths } => paths.clone(),
            _ => Vec::new(),
        };
        let list = SourceSpec::parse_list("snapshot:a.ris, b.csv,snapshot:c.jsonl,openalex")
            .expect("list");
        assert_eq!(list.len(), 3, "{list:?}");
        assert_eq!(
            paths(&list[0]),
            vec![PathBuf::from("a.ris"), "b.csv".into()]
        );
        assert_eq!(paths(&list[1]), vec![PathBuf::from("c.jsonl")]);
        assert_eq!(list[2], SourceSpec::OpenAlex);
        // What `Display` writes reads back as the same spec.
        let merged = SourceSpec::merge(list);
        let written = merged[0].to_string();
        assert_eq!(written, "snapshot:a.ris,b.csv,c.jsonl");
        assert_eq!(
            SourceSpec::parse_list(&written).expect("written"),
            vec![merged[0].clone()]
        );
        // A file whose name holds a comma is one path.
        let folder = tempfile::tempdir().expect("folder");
        let named = folder.path().join("smith, 2020.ris");
        std::fs::write(&named, "TY  - JOUR\nER  - \n").expect("write");
        let text = format!("snapshot:{},openalex", named.display());
        assert_eq!(
            SourceSpec::parse_list(&text).expect("a comma in a name"),
            vec![
                SourceSpec::Snapshot { paths: vec![named] },
                SourceSpec::OpenAlex
            ]
        );
        // Before any snapshot, an unknown name is still an error.
        assert!(SourceSpec::parse_list("openalex,scopus").is_err());
    }
}
