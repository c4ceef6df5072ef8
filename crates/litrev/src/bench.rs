//! Benchmarks on labelled data: loading SYNERGY works and labels, the screening simulation, the
//! theme agreement and the snowballing benchmark ([`snowball_bench`]).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;
use litrev_model::WorkId;
use litrev_screen::{FeatureSpace, Simulation, SimulationConfig};
use litrev_sources::SnapshotSource;

use crate::error::{Error, Result};

mod cross_validate;
mod estimate;
mod pipeline;
mod roles;
mod snowball;
mod snowball_cv;
mod sweep;

pub use crate::embeddings::EmbedderOptions;
pub use cross_validate::{
    CrossValidation, Dataset, ScreenSetting, cross_validate, data_files, embed_datasets,
    embed_if_installed, labelled_datasets, setting_grid, write_asreview_inputs,
};
pub use estimate::{
    EstimateBenchOptions, EstimatedRun, MeasuredRun, fit as fit_request_model,
    leave_one_dataset_out, measure_runs, unprobed,
};
pub use litrev_bench_server::random::SplitMix64;
pub use litrev_snowball::SnowballConfig;
pub use litrev_text::TrainConfig;
pub use pipeline::{
    MEASURABLE_SECONDS, PipelineOptions, ScaledRun, copied, growth_exponent, growth_table, pipeline,
};
pub use roles::{
    ReadingSpeed, RoleDataset, RoleEvaluation, RoleScore, cross_validate_roles, default_role_files,
    evaluate_roles, read_role_datasets, reading_speed, train_roles,
};
pub use snowball::{
    BaselineNumbers, EngineNumbers, SnowballBench, SnowballBenchOptions, StageNumbers,
    plan_config_for, read_review_title, recall_at, size_for_recall, snowball_bench,
};
pub use snowball_cv::{
    RECALL_TARGET, SnowballCrossValidation, SnowballDataset, THRESHOLD_GRID,
    cross_validate_snowball, cross_validate_threshold, describe_snowball_setting, mean_top_recall,
    ranking_recall, snowball_datasets, snowball_score, snowball_setting_grid,
};
pub use sweep::{SweepOptions, SweepRun, Variant, review_title, sweep};

/// Labelled records: what a reviewer reads, and the decision the human reviewers made.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LabelledRecords {
    /// What the ranker reads of each record: title, abstract and subject keywords
    /// ([`Work::indexed_text`](litrev_model::Work::indexed_text)).
    pub texts: Vec<String>,
    /// Title and abstract alone of each record
    /// ([`Work::title_and_abstract`](litrev_model::Work::title_and_abstract)): what ASReview
    /// reads of it.
    pub plain_texts: Vec<String>,
    /// The works each record cites (empty when the data has no citations).
    pub links: Vec<Vec<String>>,
    /// Whether each record was included.
    pub labels: Vec<bool>,
    /// An identifier per record (OpenAlex id, else DOI, else the row number).
    pub ids: Vec<String>,
    /// Each record's title alone (empty when it has none).
    pub titles: Vec<String>,
    /// Each record's abstract alone (empty when it has none).
    pub abstracts: Vec<String>,
    /// Each record's sentence embedding, when the bench computed them (else empty).
    pub embeddings: Vec<Vec<f32>>,
}

impl LabelledRecords {
    /// Leaves the ranker the title and abstract alone, as ASReview reads a record: no subject
    /// keywords and no cited works.
    pub fn read_title_and_abstract_only(&mut self) {
        self.texts.clone_from(&self.plain_texts);
        self.links.clear();
    }
}

/// Reads an OpenAlex works file and a SYNERGY labels file (`openalex_id,…,label_included`),
/// keeping the works that have a label.
///
/// # Errors
/// When a file cannot be read or parsed, or no work has a label.
pub fn read_works_with_labels(works: &Path, labels: &Path) -> Result<LabelledRecords> {
    let (records, _issues) = SnapshotSource::read_works(&[works.to_owned()])?;
    let label_of = read_labels(labels)?;
    let mut out = LabelledRecords::default();
    for work in records {
        if let Some(&label) = label_of.get(&work.id()) {
            out.texts.push(work.indexed_text());
            out.plain_texts.push(work.title_and_abstract());
            out.links.push(litrev_screen::record_links(&work));
            out.labels.push(label);
            out.ids.push(work.id().to_string());
            out.titles.push(work.title.clone().unwrap_or_default());
            out.abstracts
                .push(work.abstract_text.clone().unwrap_or_default());
        }
    }
    if out.texts.is_empty() {
        return Err(Error::BadInput {
            path: labels.to_owned(),
            message: "no work of the works file has a label here".to_owned(),
        });
    }
    Ok(out)
}

/// Reads a SYNERGY labels file (`openalex_id,…,label_included`): whether each work was
/// included.
///
/// # Errors
/// When the file cannot be read or lacks the columns.
pub fn read_labels(labels: &Path) -> Result<BTreeMap<WorkId, bool>> {
    let mut reader = csv_reader(labels)?;
    let headers = reader
        .headers()
        .map_err(|error| csv_error(labels, &error))?
        .clone();
    let column = |name: &str| headers.iter().position(|header| header == name);
    let (Some(id_column), Some(label_column)) = (column("openalex_id"), column("label_included"))
    else {
        return Err(Error::BadInput {
            path: labels.to_owned(),
            message: "expected the columns openalex_id and label_included".to_owned(),
        });
    };
    let mut label_of: BTreeMap<WorkId, bool> = BTreeMap::new();
    for row in reader.records() {
        let row = row.map_err(|error| csv_error(labels, &error))?;
        if let (Some(id), Some(label)) = (row.get(id_column), row.get(label_column))
            && let Ok(id) = id.parse::<WorkId>()
        {
            label_of.insert(id, label.trim() == "1");
        }
    }
    Ok(label_of)
}

/// Reads a CSV of `title,abstract,label_included` (and optionally `doi` and `keywords`),
/// gzipped or not.
///
/// # Errors
/// When the file cannot be read or lacks the columns.
pub fn read_labelled_csv(path: &Path) -> Result<LabelledRecords> {
    let mut reader = csv_reader(path)?;
    let headers = reader
        .headers()
        .map_err(|error| csv_error(path, &error))?
        .clone();
    let column = |names: &[&str]| {
        headers
            .iter()
            .position(|header| names.iter().any(|name| header.eq_ignore_ascii_case(name)))
    };
    let (Some(title), Some(label)) = (
        column(&["title", "primary_title"]),
        column(&["label_included", "included", "label"]),
    ) else {
        return Err(Error::BadInput {
            path: path.to_owned(),
            message: "expected the columns title and label_included".to_owned(),
        });
    };
    let abstract_column = column(&["abstract", "abstract_note"]);
    let doi = column(&["doi"]);
    let keywords = column(&["keywords", "mesh_terms", "author_keywords"]);
    let mut out = LabelledRecords::default();
    for (row_number, row) in reader.records().enumerate() {
        let row = row.map_err(|error| csv_error(path, &error))?;
        let field =
            |index: Option<usize>| index.and_then(|index| row.get(index)).unwrap_or("").trim();
        // The record as a Work, so the ranker reads a CSV row as it reads a work: title,
        // abstract and subject keywords (`;`-separated, as MEDLINE exports give MeSH).
        let work = litrev_model::Work {
            title: Some(field(Some(title)).to_owned()).filter(|text| !text.is_empty()),
            abstract_text: Some(field(abstract_column).to_owned()).filter(|text| !text.is_empty()),
            keywords: field(keywords)
                .split(';')
                .map(str::trim)
                .filter(|keyword| !keyword.is_empty())
                .map(str::to_owned)
                .collect(),
            ..litrev_model::Work::default()
        };
        out.texts.push(work.indexed_text());
        out.plain_texts.push(work.title_and_abstract());
        out.labels.push(field(Some(label)) == "1");
        out.titles.push(field(Some(title)).to_owned());
        out.abstracts.push(field(abstract_column).to_owned());
        let id = field(doi);
        out.ids.push(if id.is_empty() {
            format!("row:{}", row_number + 1)
        } else {
            id.parse::<WorkId>()
                .map_or_else(|_| id.to_owned(), |id| id.to_string())
        });
    }
    Ok(out)
}

/// One simulation and how long it took.
#[derive(Debug, Clone)]
pub struct TimedSimulation {
    /// The simulation.
    pub simulation: Simulation,
    /// Wall time of the simulation (features, training, ranking), in seconds.
    pub seconds: f64,
}

/// The two prior records (one included, one excluded) the simulation with `prior_seed` starts
/// from.
///
/// # Errors
/// When the labels have a single class.
pub fn priors(labels: &[bool], prior_seed: u64) -> Result<[usize; 2]> {
    litrev_screen::priors(labels, prior_seed).map_err(|error| Error::BadInput {
        path: PathBuf::new(),
        message: error.to_string(),
    })
}

/// Simulates screening `records` once per prior seed, the ranker set as `setting` says
/// ([`ScreenSetting::shipped`] for what users get).
///
/// # Errors
/// When the labels have a single class.
pub fn simulate_screening(
    records: &LabelledRecords,
    prior_seeds: &[u64],
    setting: &ScreenSetting,
) -> Result<Vec<TimedSimulation>> {
    prior_seeds
        .iter()
        .map(|&prior_seed| {
            let started = std::time::Instant::now();
            let config = SimulationConfig {
                prior_seed,
                svm: setting.svm,
                features: setting.features,
                retrain_every_label_until: setting.retrain_every_label_until,
                ..SimulationConfig::default()
            };
            let space =
                FeatureSpace::fit_with_config(&records.texts, &records.links, &config.features)
                    .with_embeddings(&records.embeddings, config.features.embedding_weight);
            let simulation =
                litrev_screen::simulate_in(&space, &records.labels, &config).map_err(|error| {
                    Error::BadInput {
                        path: PathBuf::new(),
                        message: error.to_string(),
                    }
                })?;
            Ok(TimedSimulation {
                simulation,
                seconds: started.elapsed().as_secs_f64(),
            })
        })
        .collect()
}

fn csv_reader(path: &Path) -> Result<csv::Reader<Box<dyn Read>>> {
    Ok(csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(open_maybe_gzip(path)?))
}

/// A file's bytes, gunzipped when it is gzip.
fn open_maybe_gzip(path: &Path) -> Result<Box<dyn Read>> {
    let file = File::open(path).map_err(|source| Error::Write {
        path: path.to_owned(),
        source,
    })?;
    let mut magic = [0u8; 2];
    let is_gzip = File::open(path)
        .and_then(|mut probe| probe.read_exact(&mut magic))
        .is_ok()
        && magic == [0x1f, 0x8b];
    Ok(if is_gzip {
        Box::new(MultiGzDecoder::new(BufReader::new(file)))
    } else {
        Box::new(BufReader::new(file))
    })
}

/// A text file, gunzipped when it is gzip.
pub(crate) fn read_text(path: &Path) -> Result<String> {
    let mut text = String::new();
    open_maybe_gzip(path)?
        .read_to_string(&mut text)
        .map_err(|error| Error::BadInput {
            path: path.to_owned(),
            message: format!("cannot read it as text: {error}"),
        })?;
    Ok(text)
}

/// SYNERGY's labels file of the dataset `name` under the shared data folder `data`.
pub(crate) fn synergy_labels(data: &Path, name: &str) -> PathBuf {
    data.join(format!("synergy/labels/{name}.csv.gz"))
}

/// A dataset's name: the file's name without its extensions (`Donners_2021.jsonl.gz` →
/// `Donners_2021`).
pub fn file_stem(path: &Path) -> String {
    let name = path
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or("data");
    name.split('.').next().unwrap_or(name).to_owned()
}

fn csv_error(path: &Path, error: &csv::Error) -> Error {
    Error::BadInput {
        path: path.to_owned(),
        message: error.to_string(),
    }
}

/// Works from several snapshot files, each remembering the file it came from.
#[derive(Debug, Clone, Default)]
pub struct WorksByOrigin {
    /// The works, merged by id (a work in two files keeps the first).
    pub works: BTreeMap<WorkId, litrev_model::Work>,
    /// The index of the file each work came from.
    pub origin: BTreeMap<WorkId, usize>,
}

/// Reads several OpenAlex works files.
///
/// # Errors
/// When a file cannot be read.
pub fn read_works_by_origin(files: &[PathBuf]) -> Result<WorksByOrigin> {
    let mut out = WorksByOrigin::default();
    for (index, file) in files.iter().enumerate() {
        let (works, _issues) = SnapshotSource::read_works(std::slice::from_ref(file))?;
        for work in works {
            let id = work.id();
            if !out.works.contains_key(&id) {
                out.origin.insert(id.clone(), index);
                out.works.insert(id, work);
            }
        }
    }
    Ok(out)
}

/// What clustering a union of snapshots into themes gave.
#[derive(Debug, Clone)]
pub struct ThemesBench {
    /// The themes and key works.
    pub organisation: litrev_model::Organisation,
    /// Share of works in no theme.
    pub outlier_share: f64,
    /// Normalised mutual information between the themes and the files of origin.
    pub nmi: f64,
    /// Wall time of the organise phase, in seconds.
    pub seconds: f64,
    /// Wall time of embedding the works (cached vectors are not recomputed), in seconds.
    pub embed_seconds: f64,
    /// Why themes came from TF-IDF vectors instead of embeddings, when they did.
    pub no_embeddings: Option<String>,
}

/// Organises the union of the works with the pipeline's own organise phase (embeddings from
/// the model installed for `home`, as in a review), then measures the agreement of its themes
/// with the files the works came from.
///
/// # Errors
/// When an installed model cannot be loaded or run.
pub fn organise_by_origin(home: &crate::Home, input: &WorksByOrigin) -> Result<ThemesBench> {
    let all: Vec<&litrev_model::Work> = input.works.values().collect();
    let ids: std::collections::BTreeSet<&WorkId> = input.works.keys().collect();
    let citations = litrev_graph::edges_within(&all, &ids);
    let started = std::time::Instant::now();
    let (semantic, no_embeddings) = match crate::embeddings::embed_if_installed(home, &input.works)?
    {
        Ok(semantic) => (Some(semantic), None),
        Err(why) => (None, Some(why)),
    };
    let embed_seconds = started.elapsed().as_secs_f64();
    let started = std::time::Instant::now();
    let embed_phrases = |texts: &[&str]| {
        let (_, embedder) = semantic.as_ref()?;
        embedder.embed(texts).ok()
    };
    let organisation = litrev_organise::organise(
        &litrev_organise::OrganiseConfig::default(),
        &input.works,
        &citations,
        semantic.as_ref().map(|(embeddings, _)| embeddings),
        semantic
            .as_ref()
            .map(|_| &embed_phrases as litrev_organise::EmbedPhrases<'_>),
    );
    let seconds = started.elapsed().as_secs_f64();
    let theme_of = organisation.theme_index();
    let pairs: Vec<(usize, usize)> = input
        .origin
        .iter()
        .filter_map(|(id, origin)| theme_of.get(id).map(|theme| (*theme, *origin)))
        .collect();
    let outliers = input.works.len() - pairs.len();
    Ok(ThemesBench {
        nmi: normalised_mutual_information(&pairs),
        outlier_share: outliers as f64 / input.works.len().max(1) as f64,
        organisation,
        seconds,
        embed_seconds,
        no_embeddings,
    })
}

/// Normalised mutual information between two labelings, as `litrev-graph` computes it for
/// the organise phase's two views.
pub use litrev_graph::normalised_mutual_information;

/// How fast the embedding model went over the titles and abstracts of some snapshot files.
#[derive(Debug, Clone)]
pub struct EmbedBench {
    /// The model, as `litrev-embed` names it (weights and truncation).
    pub model: String,
    /// Batches in flight at once.
    pub workers: usize,
    /// The measurement.
    pub throughput: litrev_embed::Throughput,
}

/// Embeds the title and abstract of every work in `files` once, without the cache, with the
/// model a review would use.
///
/// # Errors
/// When a file cannot be read, no model is installed, or embedding fails.
pub fn embed_bench(
    home: &crate::Home,
    files: &[PathBuf],
    options: crate::embeddings::EmbedderOptions,
) -> Result<EmbedBench> {
    let (works, _issues) = SnapshotSource::read_works(files)?;
    let embedder = crate::embeddings::require_embedder(home, options)?;
    let texts: Vec<String> = works
        .iter()
        .map(|work| litrev_embed::work_text(work.title.as_deref(), work.abstract_text.as_deref()))
        .collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let throughput = litrev_embed::throughput(&embedder, &refs)?;
    Ok(EmbedBench {
        model: embedder.model_id().to_owned(),
        workers: embedder.workers(),
        throughput,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Read as ASReview reads a works file, the ranker gets the title and abstract alone: no
    /// subject keywords and no cited works.
    #[test]
    fn title_and_abstract_only_drops_the_keywords_and_the_links_of_a_works_file() {
        let Some(data) = litrev_testkit::testdata() else {
            return;
        };
        let mut records = read_works_with_labels(
            &data.join("synergy/works/Donners_2021.jsonl.gz"),
            &data.join("synergy/labels/Donners_2021.csv.gz"),
        )
        .expect("Donners_2021 with its labels");
        assert!(records.links.iter().any(|links| !links.is_empty()));
        assert!(records.texts != records.plain_texts, "keywords are read");
        let labels = records.labels.clone();
        records.read_title_and_abstract_only();
        assert!(records.links.is_empty());
        assert_eq!(records.texts, records.plain_texts);
        assert_eq!(records.labels, labels);
    }
}
