//! `litrev bench pipeline`: whole offline reviews of some works files with the corpus scaled by
//! copies of the records under new ids, and each step's wall time at each scale and its growth
//! exponent between scales: what grows faster than the corpus shows here.
//!
//! Copy `k` of a record is the record with every OpenAlex id `Wn` of a record in the files (its
//! own, and its references and related works among the records) made `W(n + k·10¹⁰)`, its DOI
//! suffixed with `/litrev-copy-k`, and its PubMed, PMC and MAG ids left out, so no two copies
//! share an id. References to works outside the files stay as they are: every copy cites the
//! same wider literature, as a field k times larger would, so the citation graph stays one
//! graph rather than k disjoint ones (on which a quadratic graph algorithm would look linear).
//! Text and link structure stay those of the real records. Scale 1 reviews the files as given,
//! so its outputs are those of a plain `litrev review` of them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use litrev_model::Tier;
use serde_json::Value;

use crate::Home;
use crate::error::{Error, Result};
use crate::options::{RunOptions, SourceSpec};
use crate::runner::{Outcome, Runner, Summary};
use crate::telemetry::Telemetry;

/// OpenAlex ids of copy `k` are the original's plus `k` times this: above every id OpenAlex
/// has given (about 4.4·10⁹ in 2026).
const COPY_ID_OFFSET: u64 = 10_000_000_000;

/// Steps whose wall time at the larger scale is under this many seconds get no exponent: the
/// ratio of two such times is timer noise, not growth.
pub const MEASURABLE_SECONDS: f64 = 0.05;

/// What to measure.
#[derive(Debug, Clone, PartialEq)]
pub struct PipelineOptions {
    /// OpenAlex works files (`.jsonl` or `.jsonl.gz`), reviewed together.
    pub works: Vec<PathBuf>,
    /// The question.
    pub question: String,
    /// The tier.
    pub tier: Tier,
    /// Copies of the records to review, in increasing order (1: the files as given).
    pub scales: Vec<usize>,
    /// Where each scale's review is written (`scale-N/`); a temporary folder when absent.
    pub out: Option<PathBuf>,
}

/// One scale's review.
#[derive(Debug, Clone, PartialEq)]
pub struct ScaledRun {
    /// Copies of the records.
    pub scale: usize,
    /// Records in the scaled files.
    pub records: usize,
    /// What the review produced.
    pub summary: Summary,
}

impl ScaledRun {
    /// What each step cost.
    pub fn telemetry(&self) -> &Telemetry {
        &self.summary.telemetry
    }
}

/// Reviews the files at each scale, calling `report` after each review.
///
/// # Errors
/// When a file cannot be read, a scaled copy cannot be written, or a review fails.
pub fn pipeline(
    home: &Home,
    options: &PipelineOptions,
    report: &mut dyn FnMut(&ScaledRun),
) -> Result<Vec<ScaledRun>> {
    let scratch = tempfile::tempdir().map_err(|source| Error::Write {
        path: std::env::temp_dir(),
        source,
    })?;
    let out = options
        .out
        .clone()
        .unwrap_or_else(|| scratch.path().to_owned());
    let originals: Vec<Vec<Value>> = options
        .works
        .iter()
        .map(|path| super::sweep::read_records(path))
        .collect::<Result<_>>()?;
    let pool: BTreeSet<u64> = originals
        .iter()
        .flatten()
        .filter_map(|record| record.get("id")?.as_str().and_then(id_number))
        .collect();
    let mut runs = Vec::new();
    for &scale in &options.scales {
        let folder = out.join(format!("scale-{scale}"));
        let (paths, records) = if scale <= 1 {
            let records = originals.iter().map(Vec::len).sum();
            (options.works.clone(), records)
        } else {
            let mut paths = Vec::new();
            let mut records = 0;
            for (position, original) in originals.iter().enumerate() {
                let copies: Vec<Value> = (0..scale as u64)
                    .flat_map(|copy| {
                        let pool = &pool;
                        original
                            .iter()
                            .map(move |record| copied(record, copy, pool))
                    })
                    .collect();
                records += copies.len();
                let file_folder = folder.join(format!("works-{position}"));
                paths.push(super::sweep::write_snapshot(&file_folder, &copies)?);
            }
            (paths, records)
        };
        let summary = review(home, &folder, paths, &options.question, options.tier)?;
        let run = ScaledRun {
            scale,
            records,
            summary,
        };
        report(&run);
        runs.push(run);
    }
    Ok(runs)
}

/// One review with its own store in `folder`, approved at the gate.
fn review(
    home: &Home,
    folder: &Path,
    paths: Vec<PathBuf>,
    question: &str,
    tier: Tier,
) -> Result<Summary> {
    std::fs::create_dir_all(folder).map_err(|source| Error::Write {
        path: folder.to_owned(),
        source,
    })?;
    let mut runner = Runner::open(home.clone(), Some(&folder.join("bench.sqlite")))?;
    let outcome = runner.start(
        &RunOptions::approved(
            question,
            paths
                .into_iter()
                .map(|path| SourceSpec::Snapshot { paths: vec![path] })
                .collect(),
            tier,
            folder.join("review"),
        ),
        &|_| {},
    )?;
    match outcome {
        Outcome::Done(summary) => Ok(summary),
        Outcome::AwaitingApproval { .. }
        | Outcome::AwaitingDownloads { .. }
        | Outcome::AwaitingPages { .. }
        | Outcome::NeedsClarification { .. } => Err(Error::BadOptions(
            "the review stopped at the gate although it was approved".to_owned(),
        )),
    }
}

/// Copy `copy` of an OpenAlex Work record (copy 0 is the record itself), whose ids among
/// `pool` (the numbers of the records' `Wn` ids) are shifted to the copy's.
pub fn copied(record: &Value, copy: u64, pool: &BTreeSet<u64>) -> Value {
    if copy == 0 {
        return record.clone();
    }
    let mut record = record.clone();
    let Some(object) = record.as_object_mut() else {
        return record;
    };
    for key in ["id", "referenced_works", "related_works"] {
        if let Some(value) = object.get_mut(key) {
            shift_ids(value, copy, pool);
        }
    }
    let doi = object
        .get("doi")
        .and_then(Value::as_str)
        .map(|doi| Value::String(format!("{doi}/litrev-copy-{copy}")));
    match &doi {
        Some(doi) => object.insert("doi".to_owned(), doi.clone()),
        None => object.remove("doi"),
    };
    let openalex = object.get("id").cloned();
    if let Some(ids) = object.get_mut("ids").and_then(Value::as_object_mut) {
        ids.retain(|key, _| key == "openalex" || key == "doi");
        if let Some(openalex) = openalex {
            ids.insert("openalex".to_owned(), openalex);
        }
        match doi {
            Some(doi) => ids.insert("doi".to_owned(), doi),
            None => ids.remove("doi"),
        };
    }
    record
}

/// Shifts every OpenAlex work id of `pool` in `value` (a string or an array of them) to copy
/// `copy`.
fn shift_ids(value: &mut Value, copy: u64, pool: &BTreeSet<u64>) {
    match value {
        Value::String(text) => {
            if let Some(shifted) = shifted_id(text, copy, pool) {
                *text = shifted;
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| shift_ids(item, copy, pool)),
        _ => {}
    }
}

/// The number of an OpenAlex work id (`https://openalex.org/W123`, `W123`).
fn id_number(text: &str) -> Option<u64> {
    let start = text.rfind(['W', 'w'])?;
    text[start + 1..].parse().ok()
}

/// `…/W123` as copy `copy`'s id, keeping the prefix; none when the text is no work id of
/// `pool`.
fn shifted_id(text: &str, copy: u64, pool: &BTreeSet<u64>) -> Option<String> {
    let number = id_number(text).filter(|number| pool.contains(number))?;
    let start = text.rfind(['W', 'w'])?;
    let shifted = number.checked_add(copy.checked_mul(COPY_ID_OFFSET)?)?;
    Some(format!("{}W{shifted}", &text[..start]))
}

/// Each step's wall time at each scale and its growth exponent between consecutive scales
/// (1.0: linear in the corpus); steps that do not run at every scale are listed with what
/// they have.
pub fn growth_table(runs: &[ScaledRun]) -> String {
    // Steps in run order; one that only a larger scale ran (a fifth snowball stage) goes after
    // the step it followed there.
    let mut steps: Vec<String> = Vec::new();
    for run in runs {
        let mut after: Option<usize> = None;
        for step in &run.telemetry().steps {
            let position = match steps.iter().position(|known| *known == step.step) {
                Some(position) => position,
                None => {
                    let position = after.map_or(steps.len(), |after| after + 1);
                    steps.insert(position, step.step.clone());
                    position
                }
            };
            after = Some(position);
        }
    }
    let mut header = format!("{:<12}", "step");
    for run in runs {
        header.push_str(&format!(" {:>10}", format!("×{} s", run.scale)));
    }
    for pair in runs.windows(2) {
        header.push_str(&format!(
            " {:>10}",
            format!("exp {}→{}", pair[0].scale, pair[1].scale)
        ));
    }
    let mut lines = vec![header];
    let rows = steps
        .iter()
        .map(|step| (step.as_str(), wall_times(runs, step)))
        .chain(std::iter::once((
            "total",
            runs.iter()
                .map(|run| Some(run.telemetry().wall_seconds))
                .collect(),
        )));
    for (step, times) in rows {
        let mut line = format!("{step:<12}");
        for time in &times {
            line.push_str(&match time {
                Some(seconds) => format!(" {seconds:>10.2}"),
                None => format!(" {:>10}", "-"),
            });
        }
        for (pair, scales) in times.windows(2).zip(runs.windows(2)) {
            let exponent = growth_exponent((scales[0].scale, pair[0]), (scales[1].scale, pair[1]));
            line.push_str(&match exponent {
                Some(exponent) => format!(" {exponent:>10.2}"),
                None => format!(" {:>10}", "~"),
            });
        }
        lines.push(line);
    }
    lines.join("\n")
}

/// The step's wall time in each run (none where it did not run).
fn wall_times(runs: &[ScaledRun], step: &str) -> Vec<Option<f64>> {
    runs.iter()
        .map(|run| {
            run.telemetry()
                .steps
                .iter()
                .find(|measured| measured.step == step)
                .map(|measured| measured.wall_seconds)
        })
        .collect()
}

/// How a time grows with the scale between two runs: `ln(t₂/t₁) / ln(s₂/s₁)`; none when a time
/// is missing or the larger one is too short to measure ([`MEASURABLE_SECONDS`]).
pub fn growth_exponent(
    (first_scale, first): (usize, Option<f64>),
    (second_scale, second): (usize, Option<f64>),
) -> Option<f64> {
    let (first, second) = (first?, second?);
    if second < MEASURABLE_SECONDS || first <= 0.0 || second_scale <= first_scale {
        return None;
    }
    Some((second / first).ln() / (second_scale as f64 / first_scale as f64).ln())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_shifts_the_ids_of_the_records_and_drops_the_ids_another_copy_would_share() {
        let record = serde_json::json!({
            "id": "https://openalex.org/W1979978981",
            "doi": "https://doi.org/10.1037/0097-7403.9.3.248",
            "ids": {
                "openalex": "https://openalex.org/W1979978981",
                "doi": "https://doi.org/10.1037/0097-7403.9.3.248",
                "mag": "1979978981",
                "pmid": "https://pubmed.ncbi.nlm.nih.gov/6886630"
            },
            "title": "Contextual control of the extinction of conditioned fear",
            "referenced_works": ["https://openalex.org/W160989634", "W563602350"],
            "related_works": ["https://openalex.org/W1993095306"],
        });
        // W563602350 is a record of the files; W160989634 is cited from outside them.
        let pool: BTreeSet<u64> = [1_979_978_981, 563_602_350, 1_993_095_306].into();
        assert_eq!(copied(&record, 0, &pool), record);
        let copy = copied(&record, 3, &pool);
        assert_eq!(copy["id"], "https://openalex.org/W31979978981");
        assert_eq!(copy["ids"]["openalex"], copy["id"]);
        assert_eq!(
            copy["doi"],
            "https://doi.org/10.1037/0097-7403.9.3.248/litrev-copy-3"
        );
        assert_eq!(copy["ids"]["doi"], copy["doi"]);
        assert!(copy["ids"].get("pmid").is_none() && copy["ids"].get("mag").is_none());
        assert_eq!(
            copy["referenced_works"],
            serde_json::json!(["https://openalex.org/W160989634", "W30563602350"]),
            "every copy cites the same wider literature"
        );
        assert_eq!(
            copy["related_works"],
            serde_json::json!(["https://openalex.org/W31993095306"])
        );
        assert_eq!(copy["title"], record["title"]);
        // What the snapshot reader makes of the copy: a work of its own, citing its copies.
        let work: litrev_model::WorkId = "W31979978981".parse().expect("the copy's id parses");
        assert_eq!(work.to_string(), "W31979978981");
    }

    #[test]
    fn the_exponent_is_the_slope_of_log_time_over_log_scale() {
        let linear = growth_exponent((4, Some(1.0)), (16, Some(4.0))).unwrap_or_default();
        assert!((linear - 1.0).abs() < 1e-12);
        let quadratic = growth_exponent((4, Some(1.0)), (16, Some(16.0))).unwrap_or_default();
        assert!((quadratic - 2.0).abs() < 1e-12);
        assert_eq!(growth_exponent((4, Some(0.001)), (16, Some(0.002))), None);
        assert_eq!(growth_exponent((4, None), (16, Some(2.0))), None);
    }
}
