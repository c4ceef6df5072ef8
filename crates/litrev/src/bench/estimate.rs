//! `litrev bench estimate`: how close the plan's estimate comes to what a run asks for. Each
//! dataset's review runs against a local OpenAlex serving its works file, through the live
//! client, and its requests per step are put beside the estimate of the plan it ran; the
//! request model's constants are chosen leaving each dataset out in turn, so each estimate is
//! of a review whose requests the constants never saw.

use std::path::{Path, PathBuf};

use litrev_bench_server::http::{FaultPlan, Reply, Server};
use litrev_bench_server::openalex::OpenAlexWorks;
use litrev_model::Tier;

use crate::error::{Error, Result};
use crate::estimate::{RequestModel, SearchShape};
use crate::options::{RunOptions, SourceSpec};
use crate::record::RunRecordFile;
use crate::runner::{Outcome, Runner};
use crate::{Home, bench};

/// What to measure.
#[derive(Debug, Clone, PartialEq)]
pub struct EstimateBenchOptions {
    /// OpenAlex works files (`.jsonl.gz`), each a dataset served by a local OpenAlex.
    pub works: Vec<PathBuf>,
    /// The tiers each dataset is reviewed at.
    pub tiers: Vec<Tier>,
}

/// One review: the shape of its plan and what it asked OpenAlex for.
#[derive(Debug, Clone, PartialEq)]
pub struct MeasuredRun {
    /// The dataset (the file's name without extensions).
    pub dataset: String,
    /// The tier.
    pub tier: Tier,
    /// What the estimate is computed from.
    pub shape: SearchShape,
    /// Requests of the discover step.
    pub discover: u64,
    /// Requests of the snowball stages.
    pub snowball: u64,
    /// Requests of every other step.
    pub other: u64,
    /// Wall seconds of the run's steps.
    pub seconds: f64,
}

impl MeasuredRun {
    /// Every request of the run.
    pub fn requests(&self) -> u64 {
        self.discover + self.snowball + self.other
    }
}

/// One run's estimate, by constants fitted without its dataset.
#[derive(Debug, Clone, PartialEq)]
pub struct EstimatedRun {
    /// The run.
    pub run: MeasuredRun,
    /// The requests the estimate expected.
    pub estimated: u64,
}

impl EstimatedRun {
    /// Actual over estimated requests.
    pub fn ratio(&self) -> f64 {
        self.run.requests() as f64 / self.estimated.max(1) as f64
    }
}

/// Reviews every dataset at every tier against a local OpenAlex, calling `report` after each.
///
/// # Errors
/// When a works file cannot be read or a review fails.
pub fn measure_runs(
    options: &EstimateBenchOptions,
    report: &mut dyn FnMut(&MeasuredRun),
) -> Result<Vec<MeasuredRun>> {
    let mut runs = Vec::new();
    for path in &options.works {
        let dataset = bench::file_stem(path);
        let question =
            super::sweep::review_title(path, &dataset).unwrap_or_else(|| dataset.replace('_', " "));
        let served =
            OpenAlexWorks::load(std::slice::from_ref(path)).map_err(|source| Error::Write {
                path: path.clone(),
                source,
            })?;
        let server = Server::start(
            move |request| {
                let (status, body) = served.answer(request);
                Reply::json(status, &body)
            },
            FaultPlan::none(),
        );
        for &tier in &options.tiers {
            let run = review(&server.url(), &dataset, &question, tier)?;
            report(&run);
            runs.push(run);
        }
    }
    Ok(runs)
}

/// One review in a home of its own, whose config points OpenAlex at `url`.
fn review(url: &str, dataset: &str, question: &str, tier: Tier) -> Result<MeasuredRun> {
    let scratch = tempfile::tempdir().map_err(|source| Error::Write {
        path: std::env::temp_dir(),
        source,
    })?;
    let write = |path: PathBuf, text: String| {
        std::fs::write(&path, text).map_err(|source| Error::Write { path, source })
    };
    write(
        scratch.path().join("config.toml"),
        format!("[openalex]\nbase_url = \"{url}\"\n"),
    )?;
    let home = Home::at(scratch.path().to_owned());
    let out_dir = scratch.path().join("review");
    let options = RunOptions {
        max_fulltext: Some(0),
        ..RunOptions::approved(question, vec![SourceSpec::OpenAlex], tier, out_dir.clone())
    };
    let mut plan = crate::generated_plan(&options);
    let mut runner = Runner::open(home, None)?;
    // As `litrev plan` does: the probe's reading is what the estimate is made from.
    runner.probe(&mut plan, &options.sources, &|_| {})?;
    match runner.start(&options, &|_| {}) {
        Ok(Outcome::Done(_)) | Err(Error::NothingIncluded { .. }) => {}
        Ok(_) => {
            return Err(Error::BadOptions(format!(
                "{dataset} at the {} tier stopped at a gate although approved",
                tier.name()
            )));
        }
        Err(error) => return Err(error),
    }
    let record = read_record(&out_dir.join("run.json"))?;
    let Some(telemetry) = record.telemetry else {
        return Err(Error::BadOptions(format!(
            "{dataset}'s run.json has no telemetry to count requests from"
        )));
    };
    let (mut discover, mut snowball, mut other) = (0, 0, 0);
    for step in &telemetry.steps {
        let asked: u64 = step.calls.iter().map(crate::SourceCalls::asked).sum();
        match step.step.as_str() {
            "discover" => discover += asked,
            name if name.starts_with("snowball") => snowball += asked,
            _ => other += asked,
        }
    }
    Ok(MeasuredRun {
        dataset: dataset.to_owned(),
        tier,
        shape: SearchShape::of(&plan, &options.sources),
        discover,
        snowball,
        other,
        seconds: telemetry.wall_seconds,
    })
}

fn read_record(path: &Path) -> Result<RunRecordFile> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Write {
        path: path.to_owned(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|error| Error::BadInput {
        path: path.to_owned(),
        message: format!("not a run record: {error}"),
    })
}

/// Each run estimated by the request model fitted on the other datasets' runs, as they are
/// (`probed`) or with their plans' probe readings left out.
pub fn leave_one_dataset_out(runs: &[MeasuredRun], probed: bool) -> Vec<EstimatedRun> {
    let runs = if probed {
        runs.to_vec()
    } else {
        unprobed(runs)
    };
    runs.iter()
        .map(|run| {
            let others: Vec<&MeasuredRun> = runs
                .iter()
                .filter(|other| other.dataset != run.dataset)
                .collect();
            let model = fit(&others);
            EstimatedRun {
                run: run.clone(),
                estimated: model.requests(&run.shape),
            }
        })
        .collect()
}

/// `runs` as plans without a probe would have shaped them.
pub fn unprobed(runs: &[MeasuredRun]) -> Vec<MeasuredRun> {
    runs.iter()
        .map(|run| MeasuredRun {
            shape: run.shape.without_probe(),
            ..run.clone()
        })
        .collect()
}

/// The shares of discovered hits tried when fitting: tenths from 0.1 to 1.
const DISCOVERED_SHARES: [f64; 10] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];

/// The fills tried when fitting, in hundredths: searches read 0 to 1.2 of their further pages,
/// the snowball asks 0.3 to 2 requests per list.
const SEARCH_FILLS: std::ops::RangeInclusive<u32> = 0..=120;
const SNOWBALL_FILLS: std::ops::RangeInclusive<u32> = 30..=200;

/// The request model that fits `runs`: of every share of discovered hits and every pair of
/// fills tried, the one whose worst miss of a run (|actual/estimate − 1|) is least, ties
/// broken by the mean miss (the first of equals). The worst run decides, not the mean, as a
/// setting that holds on every review is preferred over one that wins on average: an estimate
/// is read before a single review, and the ±30 % it aims for is for each review.
pub fn fit(runs: &[&MeasuredRun]) -> RequestModel {
    let mut best: Option<((f64, f64), RequestModel)> = None;
    for discovered_share in DISCOVERED_SHARES {
        let zero = RequestModel {
            search_fill: 0.0,
            snowball_fill: 0.0,
            discovered_share,
        };
        let unit = RequestModel {
            search_fill: 1.0,
            snowball_fill: 1.0,
            discovered_share,
        };
        // The estimate is linear in the fills: its fixed requests, the further search pages
        // and the snowball's lists, each counted once per share.
        let parts: Vec<(f64, f64, f64, f64)> = runs
            .iter()
            .map(|run| {
                let fixed = zero.discover(&run.shape);
                (
                    run.requests() as f64,
                    fixed,
                    unit.discover(&run.shape) - fixed,
                    unit.snowball(&run.shape),
                )
            })
            .collect();
        for search in SEARCH_FILLS {
            let search_fill = f64::from(search) / 100.0;
            for snowball in SNOWBALL_FILLS {
                let snowball_fill = f64::from(snowball) / 100.0;
                let (worst, total) = parts.iter().fold(
                    (0.0f64, 0.0f64),
                    |(worst, total), &(actual, fixed, pages, lists)| {
                        let estimated = (fixed + search_fill * pages + snowball_fill * lists)
                            .round()
                            .max(1.0);
                        let miss = (actual / estimated - 1.0).abs();
                        (worst.max(miss), total + miss)
                    },
                );
                let better = best.is_none_or(|((least_worst, least_total), _)| {
                    worst < least_worst - 1e-12
                        || (worst < least_worst + 1e-12 && total < least_total - 1e-12)
                });
                if better {
                    best = Some((
                        (worst, total),
                        RequestModel {
                            search_fill,
                            snowball_fill,
                            discovered_share,
                        },
                    ));
                }
            }
        }
    }
    best.map_or(RequestModel::SHAPE_ONLY, |(_, model)| model)
}
