//! `litrev bench …`: measurements printed as tables on stdout.

use anyhow::{Context, bail};
use litrev::bench::{
    LabelledRecords, read_labelled_csv, read_works_with_labels, simulate_screening,
};

use crate::args::{BenchCommand, ScreenBenchArgs, ThemesBenchArgs};

/// Runs a benchmark; the exit code is 0 when it ran.
pub fn run(command: BenchCommand) -> anyhow::Result<u8> {
    match command {
        BenchCommand::Screen(args) => screen(&args),
        BenchCommand::Themes(args) => themes(&args),
    }
}

fn themes(args: &ThemesBenchArgs) -> anyhow::Result<u8> {
    let input = litrev::bench::read_works_by_origin(&args.works)?;
    let result = litrev::bench::organise_by_origin(&input);
    println!(
        "{} works from {} files: {} themes, {:.1} % outliers, NMI with the file of origin {:.3}, {:.2} s",
        input.works.len(),
        args.works.len(),
        result.organisation.themes.len(),
        100.0 * result.outlier_share,
        result.nmi,
        result.seconds
    );
    for theme in &result.organisation.themes {
        println!("{:>4} works  {}", theme.works.len(), theme.label);
    }
    if let Some(path) = &args.themes_out {
        let mut lines = String::from("openalex_id,theme\n");
        for theme in &result.organisation.themes {
            for work in &theme.works {
                lines.push_str(&format!("{work},{}\n", theme.id));
            }
        }
        std::fs::write(path, lines)
            .with_context(|| format!("cannot write the themes to {}", path.display()))?;
    }
    Ok(0)
}

fn screen(args: &ScreenBenchArgs) -> anyhow::Result<u8> {
    let (name, records): (String, LabelledRecords) = match (&args.works, &args.labels, &args.csv) {
        (Some(works), Some(labels), None) => {
            (file_stem(works), read_works_with_labels(works, labels)?)
        }
        (None, None, Some(csv)) => (file_stem(csv), read_labelled_csv(csv)?),
        _ => bail!("pass --works FILE --labels FILE, or --csv FILE"),
    };
    let seeds: Vec<u64> = (0..args.repeats.max(1)).collect();
    let runs = simulate_screening(&records, &seeds)?;
    let included = records.labels.iter().filter(|label| **label).count();
    println!(
        "dataset {name}: {} records, {included} included",
        records.texts.len()
    );
    println!(
        "{:>6} {:>8} {:>8} {:>8} {:>8} {:>12} {:>13} {:>9} {:>9}",
        "prior",
        "WSS@95",
        "WSS@100",
        "RRF@10",
        "ATD",
        "screened@95",
        "screened@100",
        "trainings",
        "seconds"
    );
    for (seed, run) in seeds.iter().zip(&runs) {
        let metrics = &run.simulation.metrics;
        println!(
            "{:>6} {:>8.3} {:>8.3} {:>8.3} {:>8.3} {:>12} {:>13} {:>9} {:>9.3}",
            seed,
            metrics.wss_95,
            metrics.wss_100,
            metrics.rrf_10,
            metrics.atd,
            metrics.screened_95,
            metrics.screened_100,
            run.simulation.trainings,
            run.seconds
        );
    }
    let mean = |value: &dyn Fn(&litrev::bench::TimedSimulation) -> f64| {
        runs.iter().map(value).sum::<f64>() / runs.len() as f64
    };
    println!(
        "{:>6} {:>8.3} {:>8.3} {:>8.3} {:>8.3} {:>12.1} {:>13.1} {:>9} {:>9.3}",
        "mean",
        mean(&|run| run.simulation.metrics.wss_95),
        mean(&|run| run.simulation.metrics.wss_100),
        mean(&|run| run.simulation.metrics.rrf_10),
        mean(&|run| run.simulation.metrics.atd),
        mean(&|run| run.simulation.metrics.screened_95 as f64),
        mean(&|run| run.simulation.metrics.screened_100 as f64),
        "",
        mean(&|run| run.seconds)
    );
    if let (Some(path), Some(first)) = (&args.order_out, runs.first()) {
        let lines: Vec<&str> = first
            .simulation
            .order
            .iter()
            .map(|&index| records.ids[index].as_str())
            .collect();
        std::fs::write(path, format!("{}\n", lines.join("\n")))
            .with_context(|| format!("cannot write the order to {}", path.display()))?;
    }
    Ok(0)
}

fn file_stem(path: &std::path::Path) -> String {
    let name = path
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or("data");
    name.split('.').next().unwrap_or(name).to_owned()
}
