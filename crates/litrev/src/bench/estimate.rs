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

/// The request model that fits `runs`: for each share of discovered hits tried, each fill the
/// ratio of the requests the runs made to those their shapes could have made at fill 1 (the
/// discover step's further pages, the snowball's lists); of those, the one whose estimates
/// miss the runs least on average (the first of equals).
pub fn fit(runs: &[&MeasuredRun]) -> RequestModel {
    let mut best: Option<(f64, RequestModel)> = None;
    for share in DISCOVERED_SHARES {
        let model = fit_fills(runs, share);
        let miss = runs
            .iter()
            .map(|run| {
                let estimated = model.requests(&run.shape).max(1) as f64;
                (run.requests() as f64 / estimated - 1.0).abs()
            })
            .sum::<f64>();
        if best.is_none_or(|(least, _)| miss < least - 1e-12) {
            best = Some((miss, model));
        }
    }
    best.map_or(RequestModel::SHAPE_ONLY, |(_, model)| model)
}

/// The fills that fit `runs` at one share of discovered hits.
fn fit_fills(runs: &[&MeasuredRun], discovered_share: f64) -> RequestModel {
    let unit = RequestModel {
        search_fill: 1.0,
        snowball_fill: 1.0,
        discovered_share,
    };
    let zero = RequestModel {
        search_fill: 0.0,
        snowball_fill: 0.0,
        discovered_share,
    };
    let ratio = |actual: f64, possible: f64| {
        if possible > 0.0 {
            actual.max(0.0) / possible
        } else {
            1.0
        }
    };
    let sum = |part: &dyn Fn(&MeasuredRun) -> f64| runs.iter().map(|run| part(run)).sum::<f64>();
    RequestModel {
        search_fill: ratio(
            sum(&|run| run.discover as f64 - zero.discover(&run.shape)),
            sum(&|run| unit.discover(&run.shape) - zero.discover(&run.shape)),
        ),
        snowball_fill: ratio(
            sum(&|run| (run.snowball + run.other) as f64),
            sum(&|run| unit.snowball(&run.shape)),
        ),
        discovered_share,
    }
}
