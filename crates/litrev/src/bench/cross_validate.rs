//! Settings of the screening ranker chosen the honest way: leave-one-dataset-out
//! cross-validation over every labelled screening set, so the figure printed for a dataset
//! comes from a setting chosen without it — what a user's unseen review gets.

use std::path::Path;
use std::sync::Mutex;

use litrev_screen::{FeatureConfig, FeatureSpace, SimulationConfig, SvmConfig};

use crate::bench::{LabelledRecords, read_labelled_csv, read_works_with_labels};
use crate::error::{Error, Result};

/// One setting of the ranker: its features and its SVM.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScreenSetting {
    /// What the features are made of.
    pub features: FeatureConfig,
    /// The SVM's options.
    pub svm: SvmConfig,
    /// Retrain after every label until this many labels (then every 1/40 of the labels).
    pub retrain_every_label_until: usize,
}

impl ScreenSetting {
    /// The setting litrev ships.
    pub fn shipped() -> ScreenSetting {
        let config = SimulationConfig::default();
        ScreenSetting {
            features: config.features,
            svm: config.svm,
            retrain_every_label_until: config.retrain_every_label_until,
        }
    }

    /// A short description: `ratio 20, C 0.11, links 0.3, pairs`.
    pub fn describe(&self) -> String {
        let retrain = if self.retrain_every_label_until == usize::MAX {
            "every label".to_owned()
        } else {
            format!("every label to {}", self.retrain_every_label_until)
        };
        format!(
            "ratio {}, C {}, links {}, embedding {}, {}, in {}+ texts, retrain {retrain}",
            self.svm.class_ratio,
            self.svm.c,
            self.features.link_weight,
            self.features.embedding_weight,
            if self.features.word_pairs {
                "pairs"
            } else {
                "words"
            },
            self.features.min_texts,
        )
    }
}

/// The settings cross-validation chooses among: the sentence embedding left out or weighing
/// 0.15 or 0.2 beside the words, and the included class weighing 5 or 10 (about ASReview's
/// 9.8) times the excluded.
///
/// Earlier grids, each measured leaving one dataset out over the 17 labelled sets, chose
/// neither of these: C 0.5, links off, words without pairs, features kept only when in two or
/// more texts, retraining every 1/40 of the labels after the first 100, a class ratio of 20,
/// and title words as features of their own. The embedding at 0.3 or more won some sets by
/// much (Bannach-Brown_2019 +0.17) and lost others as much (Chou_2004 −0.12, Kitchenham_2010
/// −0.08); 0.1 gained little. Subject keywords (MeSH headings, topics) read as whole terms in
/// a block of their own, weighing 0.2 or 0.4, gave a mean of 0.547 and 0.529 against 0.557;
/// left unread, 0.538: they stay words of the text. C 0.06 gave 0.550; C 0.2 gave 0.559 with
/// the same worst shortfall (0.002), chosen for every held-out set, but fell under ASReview on
/// Jeyaraman_2020 too (0.631 against 0.635) and further on Cohen_2006_BetaBlockers (0.692
/// against 0.717): a mean gain within the priors' spread, so C stays 0.11. A multinomial naive
/// Bayes model (ASReview's default, smoothing 3.822) fused with the SVM, each ranking
/// standardised over the unscreened records and summed, gave 0.475 (behind ASReview on 10
/// sets); with the included class's counts scaled to the excluded class's mass, as ASReview's
/// balancing does, 0.547 and further behind on Cohen_2006_BetaBlockers (0.696): not shipped.
/// Word stems as a block of their own (the first and last four letters of each word of six
/// letters or more, weighing 0.3 or 0.6 beside the words) gave 0.551 and 0.553, and dropped
/// Cohen_2006_BetaBlockers from 0.717 to 0.65: every record of a drug class's candidate set
/// names the class's drugs (`-olol`), so their shared stems do not tell included from excluded.
///
/// Where litrev stays under ASReview, and why (`litrev bench screen --csv … --embedding-weight
/// --class-ratio --title-abstract-only`, five priors): on Cohen_2006_BetaBlockers it is the MeSH
/// headings. Read as ASReview reads a record (title and abstract, no embedding, ratio 9.8) the
/// ranker gives 0.730 there against ASReview's 0.731, so the two models agree; with the
/// headings, 0.721. Yet leaving the headings out costs Cohen_2006_Estrogens 0.447 → 0.371,
/// CalciumChannelBlockers 0.558 → 0.455 and ADHD 0.746 → 0.717; reading them only for records
/// without an abstract gives BetaBlockers 0.728 and Estrogens 0.370; each heading as one term
/// gives 0.723 and 0.395. On Cohen_2006_NSAIDS it is the embedding: 0.716 without, 0.714 at
/// 0.1, 0.705 at 0.15 (ASReview 0.715), while the embedding gains the mean 0.017 over all sets.
/// A second SVM beside the shipped one, reading the title and abstract alone, its decision
/// value added to the first's (an ensemble of the two views), gave NSAIDS 0.720 and
/// BetaBlockers 0.721 but cost Estrogens 0.447 → 0.411, ADHD 0.746 → 0.712 and
/// CalciumChannelBlockers 0.558 → 0.552: not shipped. On BetaBlockers (first prior) the shipped
/// ranking and the title-and-abstract one find the included records as soon on average (ATD
/// 0.088 and 0.089; one trial read at 76 against 147), and 95 % hangs on the last cluster, four
/// migraine trials of propranolol, read at 453–483 against 439–455.
///
/// Choosing between the two views as labels come in, rather than summing them, was measured
/// too (2026-12-07, five priors): both trained on every label, records read in the order of
/// the view whose rankings had put the records read so far better (for each record read, the
/// share of unread records the view ranked above it, excluded minus included; the view that
/// chose a record scores 0 on it). Switching at the least advantage gave NSAIDS 0.714 and
/// BetaBlockers 0.721 but cost Estrogens 0.437, ADHD 0.730 and CalciumChannelBlockers 0.520;
/// with a margin of 0.02 or more the second view never took over. The signal is too weak to
/// pick a view per dataset: not shipped.
///
/// The subject keywords' words as a block of their own, beside the title's and abstract's
/// (each block a unit vector, the keywords' scaled; the shipped setting, five priors,
/// 2026-12-07): at 0.6, ADHD 0.746 → 0.817, Estrogens 0.447 → 0.491 and NSAIDS 0.705 → 0.715,
/// but BetaBlockers 0.717 → 0.659; at 0.3, BetaBlockers 0.661; at 0.15, BetaBlockers 0.724,
/// NSAIDS 0.708 and Estrogens 0.429. Every weight that helps the other drug classes costs
/// BetaBlockers more than ASReview's lead there: not shipped.
pub fn setting_grid() -> Vec<ScreenSetting> {
    let mut grid = Vec::new();
    for embedding_weight in [0.0, 0.15, 0.2] {
        for class_ratio in [5.0, 10.0] {
            grid.push(ScreenSetting {
                features: FeatureConfig {
                    embedding_weight,
                    ..FeatureConfig::default()
                },
                svm: SvmConfig {
                    class_ratio,
                    ..SvmConfig::default()
                },
                retrain_every_label_until: usize::MAX,
            });
        }
    }
    grid
}

/// A labelled dataset by name.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// The file's name without extensions.
    pub name: String,
    /// Its records and labels.
    pub records: LabelledRecords,
}

/// Every labelled screening set with text under `data`: SYNERGY's works files with their
/// labels, its title/abstract CSV, and the CSVs of `screening-csv/`.
///
/// # Errors
/// When a file cannot be read, or there is none.
pub fn labelled_datasets(data: &Path) -> Result<Vec<Dataset>> {
    let mut datasets = Vec::new();
    for works in data_files(&data.join("synergy/works")) {
        let name = super::file_stem(&works);
        let labels = super::synergy_labels(data, &name);
        if labels.is_file() {
            datasets.push(Dataset {
                records: read_works_with_labels(&works, &labels)?,
                name,
            });
        }
    }
    for folder in ["synergy/built_csv_from_asreview_makita", "screening-csv"] {
        for csv in data_files(&data.join(folder)) {
            if csv.to_string_lossy().contains(".csv") {
                datasets.push(Dataset {
                    name: super::file_stem(&csv),
                    records: read_labelled_csv(&csv)?,
                });
            }
        }
    }
    if datasets.is_empty() {
        return Err(Error::BadInput {
            path: data.to_owned(),
            message: "no labelled datasets (synergy/works + synergy/labels, or CSVs): set LITREV_TESTDATA to the shared data folder".to_owned(),
        });
    }
    Ok(datasets)
}

/// The files in a folder, sorted by path; none when it cannot be read.
pub fn data_files(folder: &Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

/// Gives every dataset's records their sentence embeddings with the installed model (cached
/// in `home`): what the shipped ranking reads beside the words when a model is installed.
///
/// # Errors
/// When no model is installed, or embedding fails.
pub fn embed_datasets(home: &crate::Home, datasets: &mut [Dataset]) -> Result<()> {
    let embedder = crate::embeddings::CachedEmbedder::open(
        home,
        crate::embeddings::require_embedder(home, crate::embeddings::EmbedderOptions::default())?,
    )?;
    for dataset in datasets {
        embed_records(&embedder, &mut dataset.records)?;
    }
    Ok(())
}

/// Gives `records` their sentence embeddings when a model is installed: the model's name, or
/// why there is none (the simulation then reads words and links alone).
///
/// # Errors
/// When an installed model cannot be loaded or run.
pub fn embed_if_installed(
    home: &crate::Home,
    records: &mut LabelledRecords,
) -> Result<std::result::Result<String, String>> {
    match crate::embeddings::require_embedder(home, crate::embeddings::EmbedderOptions::default()) {
        Ok(embedder) => {
            let embedder = crate::embeddings::CachedEmbedder::open(home, embedder)?;
            embed_records(&embedder, records)?;
            Ok(Ok(embedder.model_id().to_owned()))
        }
        Err(Error::BadInput { message, .. }) => Ok(Err(message)),
        Err(error) => Err(error),
    }
}

/// The embedding of each record's title and abstract, as the organise step embeds a work.
fn embed_records(
    embedder: &crate::embeddings::CachedEmbedder,
    records: &mut LabelledRecords,
) -> Result<()> {
    let texts: Vec<String> = records
        .titles
        .iter()
        .zip(&records.abstracts)
        .map(|(title, abstract_text)| {
            litrev_embed::work_text(Some(title.as_str()), Some(abstract_text.as_str()))
        })
        .collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    records.embeddings = embedder.embed(&texts)?;
    Ok(())
}

/// Writes each dataset as `scripts/asreview-simulate.sh` reads it: `NAME.csv`
/// (`record_id,title,abstract,label_included`, the row number as id) and `NAME.priors` (per
/// seed: the seed, the included and the excluded row litrev's simulation starts from), so
/// ASReview is measured from the same priors.
///
/// # Errors
/// When a file cannot be written or a dataset has a single class.
pub fn write_asreview_inputs(folder: &Path, datasets: &[Dataset], seeds: &[u64]) -> Result<()> {
    let failed = |path: &Path, error: &dyn std::fmt::Display| Error::Write {
        path: path.to_owned(),
        source: std::io::Error::other(error.to_string()),
    };
    std::fs::create_dir_all(folder).map_err(|error| failed(folder, &error))?;
    for dataset in datasets {
        let records = &dataset.records;
        let path = folder.join(format!("{}.csv", dataset.name));
        let mut writer = csv::Writer::from_path(&path).map_err(|error| failed(&path, &error))?;
        let mut write = |row: [&str; 4]| {
            writer
                .write_record(row)
                .map_err(|error| failed(&path, &error))
        };
        write(["record_id", "title", "abstract", "label_included"])?;
        for row in 0..records.labels.len() {
            write([
                row.to_string().as_str(),
                &records.titles[row],
                &records.abstracts[row],
                if records.labels[row] { "1" } else { "0" },
            ])?;
        }
        writer.flush().map_err(|error| failed(&path, &error))?;
        let mut priors = String::new();
        for &seed in seeds {
            let [included, excluded] = super::priors(&records.labels, seed)?;
            priors.push_str(&format!("{seed} {included} {excluded}\n"));
        }
        let path = folder.join(format!("{}.priors", dataset.name));
        std::fs::write(&path, priors).map_err(|error| failed(&path, &error))?;
    }
    Ok(())
}

/// Mean WSS@95 over the priors of every setting on every dataset, and the choice made for
/// each dataset without it.
#[derive(Debug, Clone)]
pub struct CrossValidation {
    /// The settings compared.
    pub settings: Vec<ScreenSetting>,
    /// `wss[setting][dataset]`: mean WSS@95 over the priors.
    pub wss: Vec<Vec<f64>>,
    /// For each dataset, the setting chosen on all the others.
    pub chosen: Vec<usize>,
    /// The setting chosen on all datasets: what should ship.
    pub chosen_on_all: usize,
}

impl CrossValidation {
    /// The cross-validated WSS@95 of a dataset: that of the setting chosen without it.
    pub fn held_out(&self, dataset: usize) -> f64 {
        self.wss[self.chosen[dataset]][dataset]
    }
}

/// Simulates every setting on every dataset with each prior seed, then, for each dataset,
/// chooses a setting on the others: the one whose worst shortfall from the best setting of any
/// of those datasets is smallest (a setting that holds on every dataset over one that wins the
/// mean), ties broken by the mean.
///
/// # Errors
/// When a dataset has a single class.
pub fn cross_validate(
    datasets: &[Dataset],
    settings: &[ScreenSetting],
    prior_seeds: &[u64],
) -> Result<CrossValidation> {
    // One job per dataset and feature setting: the space is fitted once for all its SVMs.
    let mut features: Vec<FeatureConfig> = Vec::new();
    for setting in settings {
        if !features.contains(&setting.features) {
            features.push(setting.features);
        }
    }
    let jobs: Vec<(usize, FeatureConfig)> = (0..datasets.len())
        .flat_map(|dataset| features.iter().map(move |config| (dataset, *config)))
        .collect();
    let wss = Mutex::new(vec![vec![0.0; datasets.len()]; settings.len()]);
    in_parallel(jobs.len(), |job| {
        let (dataset, config) = jobs[job];
        let records = &datasets[dataset].records;
        let space = FeatureSpace::fit_with_config(&records.texts, &records.links, &config)
            .with_embeddings(&records.embeddings, config.embedding_weight);
        for (index, setting) in settings.iter().enumerate() {
            if setting.features != config {
                continue;
            }
            let mut total = 0.0;
            for &prior_seed in prior_seeds {
                let simulation = litrev_screen::simulate_in(
                    &space,
                    &records.labels,
                    &SimulationConfig {
                        prior_seed,
                        svm: setting.svm,
                        features: setting.features,
                        retrain_every_label_until: setting.retrain_every_label_until,
                        ..SimulationConfig::default()
                    },
                )
                .map_err(|error| Error::BadInput {
                    path: datasets[dataset].name.clone().into(),
                    message: error.to_string(),
                })?;
                total += simulation.metrics.wss_95;
            }
            if let Ok(mut wss) = wss.lock() {
                wss[index][dataset] = total / prior_seeds.len().max(1) as f64;
            }
        }
        Ok(())
    })?;
    let wss = wss.into_inner().unwrap_or_default();
    let all: Vec<usize> = (0..datasets.len()).collect();
    let chosen = (0..datasets.len())
        .map(|held_out| {
            let others: Vec<usize> = all.iter().copied().filter(|d| *d != held_out).collect();
            choose(&wss, &others)
        })
        .collect();
    Ok(CrossValidation {
        settings: settings.to_vec(),
        chosen_on_all: choose(&wss, &all),
        wss,
        chosen,
    })
}

/// Runs jobs `0..jobs` on as many threads as the machine has cores, each thread taking the
/// next job left; the first failure stops the threads taking more and is returned.
pub(super) fn in_parallel(jobs: usize, run: impl Fn(usize) -> Result<()> + Sync) -> Result<()> {
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    let next = Mutex::new(0usize);
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let job = {
                        let Ok(mut next) = next.lock() else { return };
                        let job = *next;
                        *next += 1;
                        job
                    };
                    let failed = failure.lock().map_or(true, |failure| failure.is_some());
                    if job >= jobs || failed {
                        return;
                    }
                    if let Err(error) = run(job) {
                        if let Ok(mut failure) = failure.lock() {
                            failure.get_or_insert(error);
                        }
                        return;
                    }
                }
            });
        }
    });
    match failure.into_inner() {
        Ok(Some(error)) => Err(error),
        _ => Ok(()),
    }
}

/// The setting whose largest shortfall from the best setting on any of `datasets` is
/// smallest; ties (within 0.001) go to the higher mean, then the earlier setting.
pub(super) fn choose(wss: &[Vec<f64>], datasets: &[usize]) -> usize {
    let best: Vec<f64> = datasets
        .iter()
        .map(|&d| wss.iter().map(|row| row[d]).fold(f64::MIN, f64::max))
        .collect();
    let score = |setting: usize| {
        let row = &wss[setting];
        let worst = datasets
            .iter()
            .zip(&best)
            .map(|(&d, best)| best - row[d])
            .fold(0.0, f64::max);
        let mean = datasets.iter().map(|&d| row[d]).sum::<f64>() / datasets.len().max(1) as f64;
        (worst, mean)
    };
    let mut chosen = 0;
    let mut chosen_score = score(0);
    for setting in 1..wss.len() {
        let (worst, mean) = score(setting);
        let better = worst < chosen_score.0 - 0.001
            || (worst - chosen_score.0).abs() <= 0.001 && mean > chosen_score.1;
        if better {
            chosen = setting;
            chosen_score = (worst, mean);
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choice_prefers_a_setting_that_holds_everywhere() {
        // Setting 0 wins the mean on the strength of one dataset; setting 1 is never far off.
        let wss = vec![
            vec![0.9, 0.3, 0.3],
            vec![0.7, 0.5, 0.5],
            vec![0.2, 0.55, 0.55],
        ];
        assert_eq!(choose(&wss, &[0, 1, 2]), 1);
        // Without the first dataset, setting 2 is best on both others.
        assert_eq!(choose(&wss, &[1, 2]), 2);
    }
}
