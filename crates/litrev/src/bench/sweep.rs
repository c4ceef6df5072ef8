//! `litrev bench sweep`: whole reviews of every labelled dataset at every tier, on the records
//! as they are and on hostile copies of them, one line per run: ok, or the failure. What a
//! user meets on their second dataset is met here first.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use flate2::Compression;
use flate2::write::GzEncoder;
use litrev_bench_server::hostile::{inverted_index, make_hostile};
use litrev_bench_server::random::SplitMix64;
use litrev_model::Tier;
use serde_json::Value;

use crate::error::{Error, Result};
use crate::options::{RunOptions, SourceSpec};
use crate::runner::{Outcome, Runner};
use crate::{Home, bench};

/// What to sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepOptions {
    /// OpenAlex works files (`.jsonl.gz`), each a dataset.
    pub works: Vec<PathBuf>,
    /// Title/abstract/label CSVs, each a dataset (served as OpenAlex records).
    pub csv: Vec<PathBuf>,
    /// The tiers to run each dataset at.
    pub tiers: Vec<Tier>,
    /// Which copies of the records to review.
    pub variants: Vec<Variant>,
    /// The seed of the hostile mutations.
    pub seed: u64,
}

/// The records a sweep run reviews.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// The records as they are.
    Plain,
    /// The records with hostile titles, abstracts, names and venues, some emptied.
    Hostile,
}

impl Variant {
    /// Its name in the sweep's lines.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Plain => "plain",
            Variant::Hostile => "hostile",
        }
    }
}

/// One review of a sweep and how it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepRun {
    /// The dataset (the file's name without extensions).
    pub dataset: String,
    /// The tier.
    pub tier: Tier,
    /// Which records.
    pub variant: Variant,
    /// Wall time of the review, in seconds.
    pub seconds: f64,
    /// What came of it: works included and words written, or the error's text.
    pub outcome: std::result::Result<Reviewed, String>,
}

/// A review that ran to the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reviewed {
    /// Works considered.
    pub considered: usize,
    /// Works included (0 when nothing passed screening, which is an answer, not a failure).
    pub included: usize,
    /// Words written.
    pub words: usize,
}

/// Reviews every dataset at every tier and variant, calling `report` after each run.
///
/// A failed run is a line of the sweep, not an error: the sweep goes on.
///
/// # Errors
/// When a dataset cannot be read or its snapshot cannot be written.
pub fn sweep(
    home: &Home,
    options: &SweepOptions,
    report: &mut dyn FnMut(&SweepRun),
) -> Result<Vec<SweepRun>> {
    let scratch = tempfile::tempdir().map_err(|source| Error::Write {
        path: std::env::temp_dir(),
        source,
    })?;
    let datasets = options
        .works
        .iter()
        .map(|path| (path, false))
        .chain(options.csv.iter().map(|path| (path, true)));
    let mut runs = Vec::new();
    for (path, is_csv) in datasets {
        let dataset = bench::file_stem(path);
        let (records, question) = if is_csv {
            csv_records(path)?
        } else {
            (read_records(path)?, None)
        };
        let question = question
            .or_else(|| review_title(path, &dataset))
            .unwrap_or_else(|| dataset.replace('_', " "));
        for &variant in &options.variants {
            let mut records = records.clone();
            if variant == Variant::Hostile {
                let mut random = SplitMix64::new(options.seed);
                for record in &mut records {
                    make_hostile(record, &mut random);
                }
            }
            let folder = scratch.path().join(format!("{dataset}-{}", variant.name()));
            let snapshot = write_snapshot(&folder, &records)?;
            for &tier in &options.tiers {
                let run = review(home, &folder, &snapshot, &question, tier);
                let run = SweepRun {
                    dataset: dataset.clone(),
                    tier,
                    variant,
                    seconds: run.1,
                    outcome: run.0,
                };
                report(&run);
                runs.push(run);
            }
        }
    }
    Ok(runs)
}

/// One review into `folder`, with its own store there so the user's runs are left alone.
fn review(
    home: &Home,
    folder: &Path,
    snapshot: &Path,
    question: &str,
    tier: Tier,
) -> (std::result::Result<Reviewed, String>, f64) {
    let started = Instant::now();
    let out_dir = folder.join(format!("review-{}", tier.name()));
    let outcome =
        Runner::open(home.clone(), Some(&folder.join("sweep.sqlite"))).and_then(|mut runner| {
            runner.start(
                &RunOptions::approved(
                    question,
                    vec![SourceSpec::Snapshot {
                        paths: vec![snapshot.to_owned()],
                    }],
                    tier,
                    out_dir,
                ),
                &|_| {},
            )
        });
    let outcome = match outcome {
        Ok(Outcome::Done(summary)) => Ok(Reviewed {
            considered: summary.considered,
            included: summary.included,
            words: summary.words,
        }),
        Ok(
            Outcome::AwaitingApproval { .. }
            | Outcome::AwaitingDownloads { .. }
            | Outcome::AwaitingPages { .. }
            | Outcome::NeedsClarification { .. },
        ) => Err("stopped at a gate although approved".into()),
        Err(Error::NothingIncluded { .. }) => Ok(Reviewed {
            considered: 0,
            included: 0,
            words: 0,
        }),
        Err(error) => Err(error.to_string()),
    };
    (outcome, started.elapsed().as_secs_f64())
}

/// The OpenAlex records of a works file, one JSON value per line (malformed lines skipped, as
/// the snapshot reader does).
pub(crate) fn read_records(path: &Path) -> Result<Vec<Value>> {
    let text = bench::read_text(path)?;
    let records: Vec<Value> = text
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect();
    if records.is_empty() {
        return Err(Error::BadInput {
            path: path.to_owned(),
            message: "no OpenAlex Work records, one JSON object per line, were found".into(),
        });
    }
    Ok(records)
}

/// A title/abstract CSV's rows as OpenAlex records with ids of their own (`W9000000000` + row),
/// and, as the question when no review paper names one, the first included record's title.
fn csv_records(path: &Path) -> Result<(Vec<Value>, Option<String>)> {
    let labelled = bench::read_labelled_csv(path)?;
    let records = (0..labelled.texts.len())
        .map(|row| {
            let mut record = serde_json::json!({
                "id": format!("https://openalex.org/W{}", 9_000_000_000u64 + row as u64),
                "title": labelled.titles[row],
                "display_name": labelled.titles[row],
                "type": "journal-article",
                "abstract_inverted_index": inverted_index(&labelled.abstracts[row]),
            });
            if let Some(doi) = labelled.ids[row].strip_prefix("10.") {
                record["doi"] = Value::String(format!("https://doi.org/10.{doi}"));
            }
            record
        })
        .collect();
    let first_included = labelled
        .labels
        .iter()
        .position(|label| *label)
        .map(|row| labelled.titles[row].clone())
        .filter(|title| !title.trim().is_empty());
    Ok((records, first_included))
}

/// The title of the review a dataset was made for, from SYNERGY's `review_papers/` beside
/// the dataset's folder.
pub fn review_title(path: &Path, dataset: &str) -> Option<String> {
    let folder = path.parent()?.parent()?;
    bench::read_review_title(&folder.join(format!("review_papers/{dataset}.json"))).ok()
}

pub(crate) fn write_snapshot(folder: &Path, records: &[Value]) -> Result<PathBuf> {
    let path = folder.join("works.jsonl.gz");
    let failed = |source| Error::Write {
        path: path.clone(),
        source,
    };
    std::fs::create_dir_all(folder).map_err(failed)?;
    let file = std::fs::File::create(&path).map_err(failed)?;
    let mut encoder = GzEncoder::new(std::io::BufWriter::new(file), Compression::fast());
    for record in records {
        serde_json::to_writer(&mut encoder, record)
            .map_err(|error| failed(std::io::Error::other(error)))?;
        encoder.write_all(b"\n").map_err(failed)?;
    }
    encoder.finish().map_err(failed)?.flush().map_err(failed)?;
    Ok(path)
}
