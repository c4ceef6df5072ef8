//! `litrev bench roles`: the sentence-role model measured leave-one-dataset-out on the
//! structured abstracts of every file it is given, and trained on all of them for shipping.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use litrev_sources::SnapshotSource;
use litrev_sources::library::LibraryFormat;
use litrev_text::{LabelledAbstract, Role, RoleModel, TrainConfig, labelled_abstract, train};

use crate::error::{Error, Result};

/// The structured abstracts of one file.
#[derive(Debug, Clone)]
pub struct RoleDataset {
    /// The file's name without extensions.
    pub name: String,
    /// How many abstracts the file has.
    pub abstracts: usize,
    /// Its structured abstracts, labels stripped, each sentence with its label's role.
    pub structured: Vec<LabelledAbstract>,
}

/// The files `litrev bench roles` reads by default under the shared data folder: SYNERGY's
/// works files and title/abstract CSV, the screening CSVs, the MEDLINE XML files, and the
/// library exports (RIS, Web of Science, MEDLINE text) of `import-exports`.
pub fn default_role_files(data: &Path) -> Vec<PathBuf> {
    let tables = [
        "synergy/works",
        "synergy/built_csv_from_asreview_makita",
        "screening-csv",
        "pmc-jats-and-medline/medline",
    ]
    .iter()
    .flat_map(|folder| super::data_files(&data.join(folder)))
    .filter(|path| {
        let name = path.to_string_lossy();
        name.contains(".jsonl") || name.contains(".csv") || name.contains(".xml")
    });
    let exports = files_under(&data.join("import-exports"))
        .into_iter()
        .filter(|path| {
            let name = path.to_string_lossy();
            [".ris", ".isi", ".medline", ".nbib"]
                .iter()
                .any(|extension| name.contains(extension))
        })
        // The importers' fixtures hold damaged files on purpose: only exports a reader
        // recognises are read.
        .filter(|path| {
            litrev_sources::read_bytes(path).is_ok_and(|bytes| {
                LibraryFormat::detect(&litrev_sources::library::decode(&bytes).0).is_some()
            })
        });
    tables.chain(exports).collect()
}

/// Every file under `folder`, its subfolders' too, in path order.
fn files_under(folder: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![folder.to_owned()];
    while let Some(folder) = folders.pop() {
        for path in std::fs::read_dir(&folder)
            .into_iter()
            .flatten()
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        {
            if path.is_dir() {
                folders.push(path);
            } else if path.is_file() {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Reads the abstracts of works files (`.jsonl[.gz]`), title/abstract CSVs (`.csv[.gz]`) and
/// PubMed or MEDLINE XML (`.xml[.gz]`), and keeps the structured ones of each file.
///
/// # Errors
/// When a file cannot be read or parsed, or its kind is none of these.
///
/// An abstract already read from an earlier file (the same export written by two tools) is
/// kept in the first file only, so no abstract is both trained on and scored.
pub fn read_role_datasets(files: &[PathBuf]) -> Result<Vec<RoleDataset>> {
    let mut seen: BTreeSet<Vec<String>> = BTreeSet::new();
    files
        .iter()
        .map(|path| {
            let abstracts = abstracts_of(path)?;
            Ok(RoleDataset {
                name: super::file_stem(path),
                abstracts: abstracts.len(),
                structured: abstracts
                    .iter()
                    .filter_map(|text| labelled_abstract(text))
                    .filter(|labelled| seen.insert(labelled.sentences.clone()))
                    .collect(),
            })
        })
        .collect()
}

fn abstracts_of(path: &Path) -> Result<Vec<String>> {
    let name = path.to_string_lossy();
    let works = if name.contains(".jsonl") {
        SnapshotSource::read_works(&[path.to_owned()])?.0
    } else if name.contains(".csv") {
        return Ok(super::read_labelled_csv(path)?
            .abstracts
            .into_iter()
            .filter(|text| !text.is_empty())
            .collect());
    } else if name.contains(".xml") {
        litrev_sources::pubmed::parse_efetch(&super::read_text(path)?)
            .map_err(|error| Error::BadInput {
                path: path.to_owned(),
                message: format!("not PubMed or MEDLINE XML: {error}"),
            })?
            .works
    } else {
        // A library export (RIS, MEDLINE, Web of Science, Scopus CSV, BibTeX…), told by its
        // content as `litrev review --library` tells it.
        let (text, _) = litrev_sources::library::decode(&litrev_sources::read_bytes(path)?);
        let format = LibraryFormat::detect(&text).ok_or_else(|| Error::BadInput {
            path: path.to_owned(),
            message: "expected a works file (.jsonl), a CSV (.csv), PubMed XML (.xml) or a \
                          library export (RIS, MEDLINE, Web of Science, BibTeX, CSL-JSON)"
                .to_owned(),
        })?;
        format
            .read(&text, path)
            .0
            .into_iter()
            .map(|record| record.work)
            .collect()
    };
    Ok(works
        .into_iter()
        .filter_map(|work| work.abstract_text)
        .collect())
}

/// Precision, recall and F1 of one role.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoleScore {
    /// The role.
    pub role: Role,
    /// Sentences labelled with it.
    pub support: usize,
    /// Of the sentences given it, the share labelled with it.
    pub precision: f64,
    /// Of the sentences labelled with it, the share given it.
    pub recall: f64,
    /// Their harmonic mean.
    pub f1: f64,
}

/// How well a model gives one dataset's sentences the roles their labels say.
#[derive(Debug, Clone, PartialEq)]
pub struct RoleEvaluation {
    /// The dataset.
    pub name: String,
    /// Structured abstracts scored.
    pub abstracts: usize,
    /// Their sentences.
    pub sentences: usize,
    /// Per role present in the labels or the predictions.
    pub roles: Vec<RoleScore>,
    /// F1 averaged over roles weighted by their support.
    pub weighted_f1: f64,
    /// The share of sentences given their label's role.
    pub accuracy: f64,
    /// The weighted F1 with a conclusion read as future work or a limitation counted as a
    /// miss.
    pub strict_weighted_f1: f64,
    /// The roles given each abstract's sentences, in the order of the abstracts scored.
    pub predicted: Vec<Vec<Role>>,
}

/// Scores a model's roles (as litrev uses them: model and cue words) against the labels.
///
/// The labels are coarser than the roles: no structured abstract heads a section "Future
/// work", and few "Limitations"; authors state both in their Conclusions. So a sentence
/// labelled conclusion that litrev reads as future work or a limitation is scored as the
/// conclusion it is part of ([`fold_to_label`]); `strict_weighted_f1` scores it as a miss.
pub fn evaluate_roles(
    model: &RoleModel,
    name: &str,
    abstracts: &[LabelledAbstract],
) -> RoleEvaluation {
    let mut pairs: Vec<(Role, Role)> = Vec::new();
    let mut predicted = Vec::with_capacity(abstracts.len());
    for labelled in abstracts {
        let sentences: Vec<&str> = labelled.sentences.iter().map(String::as_str).collect();
        let given = model.roles(&sentences);
        pairs.extend(labelled.roles.iter().copied().zip(given.iter().copied()));
        predicted.push(given);
    }
    let strict = score_pairs(&pairs);
    let folded: Vec<(Role, Role)> = pairs
        .iter()
        .map(|&(truth, given)| (truth, fold_to_label(truth, given)))
        .collect();
    let scored = score_pairs(&folded);
    RoleEvaluation {
        name: name.to_owned(),
        abstracts: abstracts.len(),
        sentences: pairs.len(),
        roles: scored.roles,
        weighted_f1: scored.weighted_f1,
        accuracy: scored.accuracy,
        strict_weighted_f1: strict.weighted_f1,
        predicted,
    }
}

/// The role a label of `truth` would have given a sentence litrev reads as `given`: a
/// limitation or a call for further work stated in a Conclusions section is that section's.
pub fn fold_to_label(truth: Role, given: Role) -> Role {
    match (truth, given) {
        (Role::Conclusion, Role::FutureWork | Role::Limitation) => Role::Conclusion,
        _ => given,
    }
}

/// Per-role precision, recall and F1, their support-weighted mean and the accuracy of
/// (label, given) pairs.
struct PairScores {
    roles: Vec<RoleScore>,
    weighted_f1: f64,
    accuracy: f64,
}

fn score_pairs(pairs: &[(Role, Role)]) -> PairScores {
    let total = pairs.len();
    let ratio = |part: usize, whole: usize| {
        if whole == 0 {
            0.0
        } else {
            part as f64 / whole as f64
        }
    };
    let mut roles = Vec::new();
    for role in Role::ALL {
        let support = pairs.iter().filter(|(truth, _)| *truth == role).count();
        let predicted = pairs.iter().filter(|(_, given)| *given == role).count();
        if support == 0 && predicted == 0 {
            continue;
        }
        let correct = pairs
            .iter()
            .filter(|(truth, given)| *truth == role && *given == role)
            .count();
        let (precision, recall) = (ratio(correct, predicted), ratio(correct, support));
        let f1 = if precision + recall > 0.0 {
            2.0 * precision * recall / (precision + recall)
        } else {
            0.0
        };
        roles.push(RoleScore {
            role,
            support,
            precision,
            recall,
            f1,
        });
    }
    let weighted = roles
        .iter()
        .map(|score| score.f1 * score.support as f64)
        .sum::<f64>();
    let correct = pairs.iter().filter(|(truth, given)| truth == given).count();
    PairScores {
        roles,
        weighted_f1: if total == 0 {
            0.0
        } else {
            weighted / total as f64
        },
        accuracy: ratio(correct, total),
    }
}

/// Leave-one-dataset-out: for each dataset with at least `min_abstracts` structured
/// abstracts, a model trained on every other dataset (less any abstract the held-out one also
/// has, word for word) scored on it.
pub fn cross_validate_roles(
    datasets: &[RoleDataset],
    config: &TrainConfig,
    min_abstracts: usize,
) -> Vec<RoleEvaluation> {
    datasets
        .iter()
        .enumerate()
        .filter(|(_, held_out)| held_out.structured.len() >= min_abstracts)
        .map(|(index, held_out)| {
            let seen: BTreeSet<&Vec<String>> = held_out
                .structured
                .iter()
                .map(|labelled| &labelled.sentences)
                .collect();
            let training: Vec<LabelledAbstract> = datasets
                .iter()
                .enumerate()
                .filter(|(other, _)| *other != index)
                .flat_map(|(_, dataset)| &dataset.structured)
                .filter(|labelled| !seen.contains(&labelled.sentences))
                .cloned()
                .collect();
            let model = train(&training, config);
            evaluate_roles(&model, &held_out.name, &held_out.structured)
        })
        .collect()
}

/// How fast the shipped model reads abstracts, as `litrev bench roles` prints it: every
/// structured abstract's sentences read by the first pass alone (the baseline) and by both
/// passes, one after the other in this process.
#[derive(Debug, Clone, Copy)]
pub struct ReadingSpeed {
    /// Sentences read in each run.
    pub sentences: usize,
    /// The first pass alone.
    pub first_pass: std::time::Duration,
    /// Both passes, as litrev reads.
    pub both_passes: std::time::Duration,
}

/// Times the shipped model on the datasets' structured abstracts; `None` when it has no
/// second pass or there is nothing to read.
pub fn reading_speed(datasets: &[RoleDataset]) -> Option<ReadingSpeed> {
    let model = RoleModel::shipped()?;
    let first = model.without_second_pass()?;
    let abstracts: Vec<Vec<&str>> = datasets
        .iter()
        .flat_map(|dataset| &dataset.structured)
        .map(|labelled| labelled.sentences.iter().map(String::as_str).collect())
        .collect();
    let sentences: usize = abstracts.iter().map(Vec::len).sum();
    if sentences == 0 {
        return None;
    }
    let time = |model: &RoleModel| {
        let started = std::time::Instant::now();
        let read: usize = abstracts
            .iter()
            .map(|sentences| model.roles(sentences).len())
            .sum();
        debug_assert_eq!(read, sentences);
        started.elapsed()
    };
    let first_pass = time(&first);
    let both_passes = time(model);
    Some(ReadingSpeed {
        sentences,
        first_pass,
        both_passes,
    })
}

/// The model trained on every dataset's structured abstracts, each abstract once.
pub fn train_roles(datasets: &[RoleDataset], config: &TrainConfig) -> RoleModel {
    let mut seen = BTreeSet::new();
    let training: Vec<LabelledAbstract> = datasets
        .iter()
        .flat_map(|dataset| &dataset.structured)
        .filter(|labelled| seen.insert(labelled.sentences.clone()))
        .cloned()
        .collect();
    train(&training, config)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped model scored on one abstract of these labelled sentences.
    fn scored(labelled: &[(&str, Role)]) -> RoleEvaluation {
        let model = RoleModel::shipped().expect("shipped model");
        let abstracts = vec![LabelledAbstract {
            sentences: labelled
                .iter()
                .map(|(sentence, _)| (*sentence).to_owned())
                .collect(),
            roles: labelled.iter().map(|(_, role)| *role).collect(),
        }];
        evaluate_roles(model, "toy", &abstracts)
    }

    #[test]
    fn evaluation_counts_precision_recall_and_weighted_f1() {
        let evaluation = scored(&[
            ("Further research is needed.", Role::FutureWork),
            ("Copyright 2020 Elsevier.", Role::Result),
        ]);
        assert_eq!(evaluation.sentences, 2);
        assert!((evaluation.accuracy - 0.5).abs() < 1e-9);
        let future = evaluation
            .roles
            .iter()
            .find(|score| score.role == Role::FutureWork)
            .expect("future work scored");
        assert_eq!(
            (future.support, future.precision, future.recall),
            (1, 1.0, 1.0)
        );
        let other = evaluation
            .roles
            .iter()
            .find(|score| score.role == Role::Other)
            .expect("other scored: it was predicted");
        assert_eq!((other.support, other.precision), (0, 0.0));
        assert!(
            (evaluation.weighted_f1 - 0.5).abs() < 1e-9,
            "{evaluation:?}"
        );
    }

    #[test]
    fn a_call_for_further_work_in_a_conclusions_section_scores_as_its_conclusion() {
        let evaluation = scored(&[
            ("Further research is needed.", Role::Conclusion),
            ("Further research is needed.", Role::Result),
        ]);
        assert_eq!(
            evaluation.predicted,
            vec![vec![Role::FutureWork, Role::FutureWork]],
            "the model keeps its finer role"
        );
        assert!((evaluation.accuracy - 0.5).abs() < 1e-9, "{evaluation:?}");
        assert!(evaluation.strict_weighted_f1 < 1e-9, "{evaluation:?}");
        assert_eq!(
            fold_to_label(Role::Conclusion, Role::Limitation),
            Role::Conclusion
        );
        assert_eq!(
            fold_to_label(Role::Result, Role::FutureWork),
            Role::FutureWork
        );
        assert_eq!(fold_to_label(Role::Conclusion, Role::Other), Role::Other);
    }
}
