//! Snowballing's ranking weights and relevance threshold chosen the honest way: every setting
//! of a grid runs the snowballing benchmark on every SYNERGY review with a works file, a labels
//! file and a review paper, and the figure printed for a review comes from the setting chosen
//! on the others (leave-one-dataset-out), as for the screening ranker
//! ([`super::cross_validate`]).
//!
//! A run is scored by its recall of the other included studies in its gathered corpus first,
//! and then by their recall in the top 100, 200 and 300 works of its ranking: a study missing
//! from the corpus is one screening never sees, so no ranking gain buys it back. The relevance
//! threshold, which trades the corpus's size against its recall, is chosen after the weights:
//! the highest (the smallest corpus) that keeps 95 % of what the lowest keeps on every other
//! review.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use litrev_model::Tier;
use litrev_snowball::SnowballConfig;

use super::cross_validate::{choose, data_files, in_parallel};
use super::snowball::{SnowballBench, SnowballBenchOptions, plan_config_for, snowball_bench};
use crate::Home;
use crate::error::{Error, Result};

/// A review the snowballing benchmark can run: its pool, its labels and its paper.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnowballDataset {
    /// The works file's name without extensions.
    pub name: String,
    /// The pool (`synergy/works/NAME.jsonl.gz`).
    pub works: PathBuf,
    /// Its labels (`synergy/labels/NAME.csv.gz`).
    pub labels: PathBuf,
    /// The review paper's record (`synergy/review_papers/NAME.json`), whose title is the
    /// question.
    pub review: PathBuf,
}

/// Every SYNERGY review under `data` with a works file, labels and a review paper.
///
/// # Errors
/// When there is none: the shared data folder is not where `data` points.
pub fn snowball_datasets(data: &Path) -> Result<Vec<SnowballDataset>> {
    let datasets: Vec<SnowballDataset> = data_files(&data.join("synergy/works"))
        .into_iter()
        .filter_map(|works| {
            let name = super::file_stem(&works);
            let labels = super::synergy_labels(data, &name);
            let review = data.join(format!("synergy/review_papers/{name}.json"));
            (labels.is_file() && review.is_file()).then_some(SnowballDataset {
                name,
                works,
                labels,
                review,
            })
        })
        .collect();
    if datasets.is_empty() {
        return Err(Error::BadInput {
            path: data.to_owned(),
            message: "no SYNERGY review with works, labels and a review paper: set LITREV_TESTDATA to the shared data folder".to_owned(),
        });
    }
    Ok(datasets)
}

/// The weights cross-validation chooses among: citation links weighing 0.15, 0.3 or 0.6 of
/// the text's similarity, reach 0.1, 0.2, 0.4, 0.8 or 1.6, and 15, 30 or 60 feedback works, each
/// with the tier's limits and the default threshold.
pub fn snowball_setting_grid(tier: Tier) -> Vec<SnowballConfig> {
    let base = plan_config_for(tier);
    let mut grid = Vec::new();
    for link_weight in [0.15, 0.3, 0.6] {
        for reach_weight in [0.1, 0.2, 0.4, 0.8, 1.6] {
            for feedback_works in [15, 30, 60] {
                grid.push(SnowballConfig {
                    link_weight,
                    reach_weight,
                    feedback_works,
                    ..base.clone()
                });
            }
        }
    }
    grid
}

/// `links 0.3, reach 0.2, feedback 30`.
pub fn describe_snowball_setting(config: &SnowballConfig) -> String {
    format!(
        "links {}, reach {}, feedback {}",
        config.link_weight, config.reach_weight, config.feedback_works
    )
}

/// A run's score: its corpus's recall, then (in the hundredths, below one study in the
/// largest review's 72) its ranking's mean recall in the top 100, 200 and 300
/// ([`ranking_recall`]), so that the choice keeps every study it can and ranks best among the
/// settings that do.
pub fn snowball_score(run: &SnowballBench) -> f64 {
    run.engine.recall + ranking_recall(run) / 100.0
}

/// A run's ranking's mean recall in its top 100, 200 and 300.
pub fn ranking_recall(run: &SnowballBench) -> f64 {
    mean_top_recall(&run.engine.top)
}

/// The mean of a ranking's recall in its top 100, 200 and 300 (the engine's or the keyword
/// baseline's).
pub fn mean_top_recall(top: &[f64; 3]) -> f64 {
    top.iter().sum::<f64>() / top.len() as f64
}

/// Every setting's run on every dataset, and the choices made leaving each dataset out.
#[derive(Debug, Clone)]
pub struct SnowballCrossValidation {
    /// The settings compared.
    pub settings: Vec<SnowballConfig>,
    /// `runs[setting][dataset]`.
    pub runs: Vec<Vec<SnowballBench>>,
    /// `scores[setting][dataset]`: what the choice read, [`snowball_score`] for the weights
    /// and the corpus recall for the threshold.
    pub scores: Vec<Vec<f64>>,
    /// For each dataset, the setting chosen on all the others.
    pub chosen: Vec<usize>,
    /// The setting chosen on every dataset: what should ship.
    pub chosen_on_all: usize,
}

impl SnowballCrossValidation {
    /// The held-out run of a dataset: the chosen setting's, chosen without it.
    pub fn held_out(&self, dataset: usize) -> &SnowballBench {
        &self.runs[self.chosen[dataset]][dataset]
    }
}

/// Runs every setting on every dataset (two seeds, `tier`'s plan), a run per core at a time,
/// then chooses a setting per held-out dataset as the screening ranker's are chosen: the
/// smallest worst shortfall on the others, ties to the higher mean.
///
/// # Errors
/// When a dataset cannot be read or a run fails.
pub fn cross_validate_snowball(
    home: &Home,
    datasets: &[SnowballDataset],
    settings: &[SnowballConfig],
    tier: Tier,
    report: &(dyn Fn(&SnowballDataset, &SnowballConfig, &SnowballBench) + Sync),
) -> Result<SnowballCrossValidation> {
    let runs = run_grid(home, datasets, settings, tier, report)?;
    let scores: Vec<Vec<f64>> = runs
        .iter()
        .map(|row| row.iter().map(snowball_score).collect())
        .collect();
    let (chosen, chosen_on_all) = leave_each_out(datasets.len(), |others| choose(&scores, others));
    Ok(SnowballCrossValidation {
        settings: settings.to_vec(),
        chosen_on_all,
        runs,
        scores,
        chosen,
    })
}

/// The relevance thresholds cross-validation chooses among, as shares of the core's median
/// score.
pub const THRESHOLD_GRID: [f32; 6] = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3];

/// The share of the included studies a threshold must keep, of all that the lowest threshold
/// keeps: the recall systematic reviewers aim at (WSS@95's), not a figure fitted here.
pub const RECALL_TARGET: f64 = 0.95;

/// `weights` run with each threshold of [`THRESHOLD_GRID`] on every dataset, and the threshold
/// chosen for each held-out dataset on the others: the highest (the smallest corpus) that
/// keeps [`RECALL_TARGET`] of what the lowest keeps on every one of them.
///
/// # Errors
/// When a dataset cannot be read or a run fails.
pub fn cross_validate_threshold(
    home: &Home,
    datasets: &[SnowballDataset],
    weights: &SnowballConfig,
    tier: Tier,
    report: &(dyn Fn(&SnowballDataset, &SnowballConfig, &SnowballBench) + Sync),
) -> Result<SnowballCrossValidation> {
    let settings: Vec<SnowballConfig> = THRESHOLD_GRID
        .iter()
        .map(|&relevance_threshold| SnowballConfig {
            relevance_threshold,
            ..weights.clone()
        })
        .collect();
    let runs = run_grid(home, datasets, &settings, tier, report)?;
    let recalls: Vec<Vec<f64>> = runs
        .iter()
        .map(|row| row.iter().map(|run| run.engine.recall).collect())
        .collect();
    let (chosen, chosen_on_all) =
        leave_each_out(datasets.len(), |others| highest_keeping(&recalls, others));
    Ok(SnowballCrossValidation {
        settings,
        chosen_on_all,
        runs,
        scores: recalls,
        chosen,
    })
}

/// Of settings ordered by a threshold rising, the last whose recall on each of `datasets` is
/// at least [`RECALL_TARGET`] of the best any setting reaches there; the first when none is.
fn highest_keeping(recalls: &[Vec<f64>], datasets: &[usize]) -> usize {
    let best: Vec<f64> = datasets
        .iter()
        .map(|&d| recalls.iter().map(|row| row[d]).fold(0.0, f64::max))
        .collect();
    (0..recalls.len())
        .rev()
        .find(|&setting| {
            datasets
                .iter()
                .zip(&best)
                .all(|(&d, best)| recalls[setting][d] >= RECALL_TARGET * best - 1e-9)
        })
        .unwrap_or(0)
}

/// For each dataset, what `choose` picks on all the others; and what it picks on all.
fn leave_each_out(datasets: usize, choose: impl Fn(&[usize]) -> usize) -> (Vec<usize>, usize) {
    let all: Vec<usize> = (0..datasets).collect();
    let chosen = (0..datasets)
        .map(|held_out| {
            let others: Vec<usize> = all.iter().copied().filter(|d| *d != held_out).collect();
            choose(&others)
        })
        .collect();
    (chosen, choose(&all))
}

/// Every setting's run on every dataset, `runs[setting][dataset]`.
fn run_grid(
    home: &Home,
    datasets: &[SnowballDataset],
    settings: &[SnowballConfig],
    tier: Tier,
    report: &(dyn Fn(&SnowballDataset, &SnowballConfig, &SnowballBench) + Sync),
) -> Result<Vec<Vec<SnowballBench>>> {
    let jobs: Vec<(usize, usize)> = (0..settings.len())
        .flat_map(|setting| (0..datasets.len()).map(move |dataset| (setting, dataset)))
        .collect();
    let results: Mutex<Vec<Option<SnowballBench>>> = Mutex::new(vec![None; jobs.len()]);
    in_parallel(jobs.len(), |job| {
        let (setting, dataset) = jobs[job];
        let data = &datasets[dataset];
        let options = SnowballBenchOptions {
            works: data.works.clone(),
            labels: data.labels.clone(),
            review: data.review.clone(),
            seeds: 2,
            tier,
            max_stages: None,
            config: Some(settings[setting].clone()),
            llm: None,
        };
        let run = snowball_bench(home, &options)?;
        report(data, &settings[setting], &run);
        if let Ok(mut results) = results.lock() {
            results[job] = Some(run);
        }
        Ok(())
    })?;
    let mut results = results.into_inner().unwrap_or_default().into_iter();
    let mut runs: Vec<Vec<SnowballBench>> = Vec::with_capacity(settings.len());
    for _ in settings {
        let mut row = Vec::with_capacity(datasets.len());
        for data in datasets {
            row.push(results.next().flatten().ok_or_else(|| Error::BadInput {
                path: data.works.clone(),
                message: "a snowballing run gave no result".to_owned(),
            })?);
        }
        runs.push(row);
    }
    Ok(runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_holds_the_shipped_weights_once() {
        let grid = snowball_setting_grid(Tier::Exhaustive);
        let shipped = plan_config_for(Tier::Exhaustive);
        assert_eq!(grid.iter().filter(|config| **config == shipped).count(), 1);
        assert_eq!(grid.len(), 45);
        assert_eq!(
            describe_snowball_setting(&shipped),
            "links 0.15, reach 0.8, feedback 60"
        );
    }

    #[test]
    fn the_threshold_is_the_highest_that_keeps_the_recall_target_everywhere() {
        // Thresholds rising down the rows; two datasets.
        let recalls = vec![
            vec![1.0, 0.9],
            vec![1.0, 0.9],
            vec![0.96, 0.86],
            vec![0.9, 0.9],
        ];
        // 0.96 ≥ 0.95 and 0.86 ≥ 0.855: the third; the fourth loses the first dataset.
        assert_eq!(highest_keeping(&recalls, &[0, 1]), 2);
        assert_eq!(highest_keeping(&recalls, &[1]), 3);
        let (chosen, on_all) = leave_each_out(2, |others| highest_keeping(&recalls, others));
        assert_eq!(chosen, [3, 2]);
        assert_eq!(on_all, 2);
    }

    #[test]
    fn each_review_gets_the_setting_that_scored_best_on_the_other() {
        let Some(data) = litrev_testkit::testdata() else {
            return;
        };
        let datasets: Vec<SnowballDataset> = snowball_datasets(&data)
            .expect("the SYNERGY reviews")
            .into_iter()
            .filter(|dataset| ["Donners_2021", "Sep_2021"].contains(&dataset.name.as_str()))
            .collect();
        assert_eq!(
            datasets.len(),
            2,
            "Donners_2021 and Sep_2021 are in the shared data"
        );
        let shipped = plan_config_for(Tier::Quick);
        // Citation links weighing nothing against the shipped weights.
        let settings = vec![
            shipped.clone(),
            SnowballConfig {
                link_weight: 0.0,
                reach_weight: 0.0,
                ..shipped
            },
        ];
        let home = tempfile::tempdir().expect("a temporary folder");
        let reported = Mutex::new(0);
        let result = cross_validate_snowball(
            &Home::at(home.path().to_owned()),
            &datasets,
            &settings,
            Tier::Quick,
            &|_, _, _| {
                if let Ok(mut reported) = reported.lock() {
                    *reported += 1;
                }
            },
        )
        .expect("every run");
        assert_eq!(reported.into_inner().ok(), Some(4), "one report per run");
        assert_eq!(result.runs.len(), 2);
        for (runs, scores) in result.runs.iter().zip(&result.scores) {
            assert_eq!(runs.len(), 2);
            for (run, score) in runs.iter().zip(scores) {
                assert!((0.0..=1.01).contains(score));
                assert!((snowball_score(run) - score).abs() < 1e-12);
                assert!(
                    (run.engine.recall - score).abs() <= 0.01,
                    "recall comes first"
                );
                assert!(run.engine.recall > 0.5, "the seeds' neighbourhood is found");
            }
        }
        // With two reviews, each is given the setting that scored higher on the other (the
        // earlier on a tie).
        for held_out in 0..2 {
            let other = 1 - held_out;
            let better = usize::from(result.scores[1][other] > result.scores[0][other]);
            assert_eq!(result.chosen[held_out], better);
            assert!(std::ptr::eq(
                result.held_out(held_out),
                &result.runs[better][held_out]
            ));
        }
    }
}
