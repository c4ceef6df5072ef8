//! `litrev bench …`: measurements printed as tables on stdout.

use anyhow::{Context, bail};
use litrev::Home;
use litrev::bench::{
    LabelledRecords, file_stem, read_labelled_csv, read_works_with_labels, simulate_screening,
};

use std::path::PathBuf;

use litrev::model::Tier;

use crate::args::{
    BenchCommand, EmbedBenchArgs, EstimateBenchArgs, PipelineBenchArgs, RolesBenchArgs,
    ScreenBenchArgs, ServeBenchArgs, SnowballBenchArgs, SnowballCvArgs, SweepBenchArgs,
    ThemesBenchArgs,
};

/// Runs a benchmark; the exit code is 0 when it ran.
pub fn run(home: &Home, command: BenchCommand) -> anyhow::Result<u8> {
    match command {
        BenchCommand::Screen(args) => screen(&args),
        BenchCommand::Serve(args) => serve(&args),
        BenchCommand::Themes(args) => themes(home, &args),
        BenchCommand::Roles(args) => roles(&args),
        BenchCommand::Snowball(args) => snowball(home, &args),
        BenchCommand::SnowballCv(args) => snowball_cross_validated(home, &args),
        BenchCommand::Embed(args) => embed(home, &args),
        BenchCommand::Sweep(args) => sweep(home, &args),
        BenchCommand::Estimate(args) => estimate(&args),
        BenchCommand::Pipeline(args) => pipeline(home, &args),
        BenchCommand::Workers(args) => {
            let synergy = shared_data().join("synergy/works");
            let default_works = ["Donners_2021", "Sep_2021", "Nelson_2002"]
                .iter()
                .map(|dataset| synergy.join(format!("{dataset}.jsonl.gz")))
                .filter(|file| file.is_file())
                .collect();
            crate::bench_workers::workers(home, &args, default_works)
        }
    }
}

fn serve(args: &ServeBenchArgs) -> anyhow::Result<u8> {
    let works = if args.works.is_empty() {
        let file = shared_data().join("synergy/works/Donners_2021.jsonl.gz");
        if !file.is_file() {
            bail!(
                "no {}: pass --works FILE…, or set LITREV_TESTDATA to the shared data folder",
                file.display()
            );
        }
        vec![file]
    } else {
        args.works.clone()
    };
    if args.clients == 0 || args.runs == 0 {
        bail!("--clients and --runs count at least one");
    }
    println!(
        "litrev bench serve: {} clients on one run, {} runs at once (quick tier, {})",
        args.clients,
        args.runs,
        works
            .iter()
            .map(|path| path.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let rounds = litrev_server::bench::bench_serve(&litrev_server::bench::BenchOptions {
        works,
        question: args.question.clone(),
        clients: args.clients,
        runs: args.runs,
    })?;
    print!("{}", litrev_server::bench::table(&rounds));
    let missed: usize = rounds.iter().map(|round| round.missed_or_reordered).sum();
    Ok(u8::from(missed > 0))
}

fn pipeline(home: &Home, args: &PipelineBenchArgs) -> anyhow::Result<u8> {
    let works = works_or_synergy(&args.works)?;
    let mut scales = args.scale.clone();
    scales.sort_unstable();
    scales.dedup();
    if scales.first() == Some(&0) {
        bail!("a scale is a number of copies, 1 or more: --scale 1,4,16");
    }
    let options = litrev::bench::PipelineOptions {
        works,
        question: args.question.clone(),
        tier: args.tier,
        scales,
        out: args.out.clone(),
    };
    let runs = litrev::bench::pipeline(home, &options, &mut |run| {
        let summary = &run.summary;
        println!(
            "scale {:>3}: {} records, {} considered, {} included, {} themes, {} words in {:.2} s",
            run.scale,
            run.records,
            summary.considered,
            summary.included,
            summary.themes,
            summary.words,
            run.telemetry().wall_seconds
        );
    })?;
    println!("{}", litrev::bench::growth_table(&runs));
    println!(
        "(exponent: ln(t₂/t₁)/ln(s₂/s₁), 1.00 = linear in the corpus; ~ = under {} s at the larger scale, too short to measure)",
        litrev::bench::MEASURABLE_SECONDS
    );
    Ok(0)
}

/// The works files given, or with none every works file under `synergy/works` in the shared
/// data.
fn works_or_synergy(given: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    if !given.is_empty() {
        return Ok(given.to_vec());
    }
    let folder = shared_data().join("synergy/works");
    let works = litrev::bench::data_files(&folder);
    if works.is_empty() {
        bail!(
            "no works files under {}: pass --works FILE…, or set LITREV_TESTDATA to the shared data folder",
            folder.display()
        );
    }
    Ok(works)
}

fn estimate(args: &EstimateBenchArgs) -> anyhow::Result<u8> {
    let works = works_or_synergy(&args.works)?;
    let tiers = if args.tier.is_empty() {
        vec![Tier::Quick, Tier::Standard]
    } else {
        args.tier.clone()
    };
    let options = litrev::bench::EstimateBenchOptions { works, tiers };
    println!(
        "{:<20} {:<13} {:>7} {:>7} {:>8} {:>8} {:>8} {:>8} {:>8} {:>5} {:>8} {:>8}",
        "dataset",
        "tier",
        "queries",
        "stages",
        "matches",
        "cited",
        "top",
        "distinct",
        "discover",
        "snow",
        "other",
        "seconds"
    );
    let runs = litrev::bench::measure_runs(&options, &mut |run| {
        let shown = |value: Option<String>| value.unwrap_or_else(|| "-".to_owned());
        println!(
            "{:<20} {:<13} {:>7} {:>7} {:>8} {:>8} {:>8} {:>8} {:>8} {:>5} {:>8} {:>8.1}",
            run.dataset,
            run.tier.name(),
            run.shape.queries,
            run.shape.max_stages,
            shown(run.shape.matches.map(|count| count.to_string())),
            shown(
                run.shape
                    .citations_per_work
                    .map(|mean| format!("{mean:.1}"))
            ),
            shown(
                run.shape
                    .citations_per_top_work
                    .map(|mean| format!("{mean:.1}"))
            ),
            shown(run.shape.distinct_share.map(|share| format!("{share:.2}"))),
            run.discover,
            run.snowball,
            run.other,
            run.seconds
        );
    })?;
    println!();
    println!(
        "{:<20} {:<13} {:>8} {:>9} {:>6} {:>10} {:>6}",
        "dataset", "tier", "actual", "estimated", "ratio", "unprobed", "ratio"
    );
    let estimated = litrev::bench::leave_one_dataset_out(&runs, true);
    let unprobed = litrev::bench::leave_one_dataset_out(&runs, false);
    for (run, bare) in estimated.iter().zip(&unprobed) {
        println!(
            "{:<20} {:<13} {:>8} {:>9} {:>6.2} {:>10} {:>6.2}",
            run.run.dataset,
            run.run.tier.name(),
            run.run.requests(),
            run.estimated,
            run.ratio(),
            bare.estimated,
            bare.ratio()
        );
    }
    let summary = |estimated: &[litrev::bench::EstimatedRun]| {
        let within = estimated
            .iter()
            .filter(|run| (run.ratio() - 1.0).abs() <= litrev::model::ESTIMATE_TOLERANCE)
            .count();
        let mean_error = estimated
            .iter()
            .map(|run| (run.ratio() - 1.0).abs())
            .sum::<f64>()
            / estimated.len().max(1) as f64;
        format!(
            "{within} of {} runs within ±30 % of the estimate; mean |actual/estimate − 1| {mean_error:.3}",
            estimated.len()
        )
    };
    println!("leave one dataset out: {}", summary(&estimated));
    println!(
        "leave one dataset out, without the probe's reading: {}",
        summary(&unprobed)
    );
    let every: Vec<&litrev::bench::MeasuredRun> = runs.iter().collect();
    let fitted = litrev::bench::fit_request_model(&every);
    let shipped = litrev::RequestModel::PROBED;
    println!(
        "fitted on every run: search_fill {:.2}, snowball_fill {:.2}, discovered_share {:.1} (shipped: {:.2}, {:.2}, {:.1})",
        fitted.search_fill,
        fitted.snowball_fill,
        fitted.discovered_share,
        shipped.search_fill,
        shipped.snowball_fill,
        shipped.discovered_share
    );
    let bare = litrev::bench::unprobed(&runs);
    let fitted = litrev::bench::fit_request_model(&bare.iter().collect::<Vec<_>>());
    let shipped = litrev::RequestModel::SHAPE_ONLY;
    println!(
        "without the probe, fitted on every run: search_fill {:.2}, snowball_fill {:.2} (shipped: {:.2}, {:.2})",
        fitted.search_fill, fitted.snowball_fill, shipped.search_fill, shipped.snowball_fill
    );
    Ok(0)
}

fn sweep(home: &Home, args: &SweepBenchArgs) -> anyhow::Result<u8> {
    use litrev::bench::Variant;
    let (works, csv) = if args.works.is_empty() && args.csv.is_empty() {
        let data = shared_data().join("synergy");
        let works = litrev::bench::data_files(&data.join("works"));
        let csv = litrev::bench::data_files(&data.join("built_csv_from_asreview_makita"));
        if works.is_empty() && csv.is_empty() {
            bail!(
                "no datasets under {}: pass --works FILE… or --csv FILE…, or set LITREV_TESTDATA to the shared data folder",
                data.display()
            );
        }
        (works, csv)
    } else {
        (args.works.clone(), args.csv.clone())
    };
    let variants = match args.only.as_deref() {
        Some("plain") => vec![Variant::Plain],
        Some(_) => vec![Variant::Hostile],
        None => vec![Variant::Plain, Variant::Hostile],
    };
    let tiers = if args.tier.is_empty() {
        Tier::ALL.to_vec()
    } else {
        args.tier.clone()
    };
    let options = litrev::bench::SweepOptions {
        works,
        csv,
        tiers,
        variants,
        seed: args.seed,
    };
    let runs = litrev::bench::sweep(home, &options, &mut |run| match &run.outcome {
        Ok(reviewed) => println!(
            "ok    {:<20} {:<13} {:<8} {:>6} considered {:>4} included {:>6} words {:>7.1} s",
            run.dataset,
            run.tier.name(),
            run.variant.name(),
            reviewed.considered,
            reviewed.included,
            reviewed.words,
            run.seconds
        ),
        Err(failure) => println!(
            "FAIL  {:<20} {:<13} {:<8} {failure} ({:.1} s)",
            run.dataset,
            run.tier.name(),
            run.variant.name(),
            run.seconds
        ),
    })?;
    let failed = runs.iter().filter(|run| run.outcome.is_err()).count();
    println!("{} runs, {failed} failed", runs.len());
    Ok(if failed == 0 { 0 } else { 2 })
}

fn embed(home: &Home, args: &EmbedBenchArgs) -> anyhow::Result<u8> {
    let options = litrev::bench::EmbedderOptions {
        max_tokens: args.max_tokens,
        batch_tokens: args.batch_tokens,
        workers: args.workers,
        ..Default::default()
    };
    let result = litrev::bench::embed_bench(home, &args.works, options)?;
    let measured = &result.throughput;
    println!(
        "{}: {} texts, {} tokens in {:.2} s with {} workers: {:.1} docs/s, {:.0} tokens/s",
        result.model,
        measured.docs,
        measured.tokens,
        measured.seconds,
        result.workers,
        measured.docs_per_s,
        measured.tokens_per_s
    );
    Ok(0)
}

fn snowball(home: &Home, args: &SnowballBenchArgs) -> anyhow::Result<u8> {
    let result = litrev::bench::snowball_bench(
        home,
        &litrev::bench::SnowballBenchOptions {
            works: args.works.clone(),
            labels: args.labels.clone(),
            review: args.review.clone(),
            seeds: args.seeds,
            tier: args.tier,
            max_stages: args.max_stages,
            config: snowball_config(args),
            llm: args.model.options(),
        },
    )?;
    let name = file_stem(&args.works);
    let seeds: Vec<String> = result.seeds.iter().map(ToString::to_string).collect();
    println!(
        "dataset {name}: {} works, {} included; seeds {} (the {} most cited included); question: {}",
        result.pool,
        result.included,
        seeds.join(" "),
        seeds.len(),
        result.question
    );
    let pool = (result.pool - result.seeds.len()).max(1) as f64;
    let included = result.included.max(1) as f64;
    let size =
        |size: Option<usize>| size.map_or_else(|| "never".to_owned(), |size| size.to_string());
    let share = |size: Option<usize>| {
        size.map_or_else(
            || "-".to_owned(),
            |size| format!("{:.2}", size as f64 / pool),
        )
    };
    let times = |size: Option<usize>| {
        size.map_or_else(
            || "-".to_owned(),
            |size| format!("{:.1}", size as f64 / included),
        )
    };
    println!(
        "{:<10} {:>7} {:>7} {:>6} {:>6} {:>7} {:>7} {:>7}",
        "", "recall", "corpus", "share", "xincl", "top100", "top200", "top300"
    );
    let engine = &result.engine;
    println!(
        "{:<10} {:>7.3} {:>7} {:>6} {:>6} {:>7.3} {:>7.3} {:>7.3}",
        "litrev",
        engine.recall,
        engine.corpus,
        share(Some(engine.corpus)),
        times(Some(engine.corpus)),
        engine.top[0],
        engine.top[1],
        engine.top[2]
    );
    let baseline = &result.baseline;
    println!(
        "{:<10} {:>7.3} {:>7} {:>6} {:>6} {:>7.3} {:>7.3} {:>7.3}",
        "keywords",
        engine.recall,
        size(baseline.size_for_engine_recall),
        share(baseline.size_for_engine_recall),
        times(baseline.size_for_engine_recall),
        baseline.top[0],
        baseline.top[1],
        baseline.top[2]
    );
    println!(
        "for 0.95 of the {} other included, keywords need {} works ({} of the pool), litrev's ranking {} ({}); litrev knew {} works and kept {} ({} for their links)",
        result.targets,
        size(baseline.size_for_95),
        share(baseline.size_for_95),
        size(engine.ranking_for_95),
        share(engine.ranking_for_95),
        engine.known,
        engine.corpus,
        engine.structural
    );
    if let Some(planning) = &result.planning {
        println!(
            "LLM ({}): {}; {} calls, {} from cache, ${:.4}",
            planning.prompt,
            planning.report,
            planning.usage.calls,
            planning.usage.cache_hits,
            planning.usage.cost_usd
        );
    }
    if let Some(llm) = &result.llm {
        println!(
            "LLM ({}): {} works in doubt judged, {} relevant, {} left to their score after a failed answer, {} for the budget; {} calls, {} from cache, ${:.4}",
            llm.prompt,
            llm.judged,
            llm.relevant,
            llm.failed,
            llm.over_budget,
            llm.usage.calls,
            llm.usage.cache_hits,
            llm.usage.cost_usd
        );
    }
    println!(
        "recall ceiling {:.3} ({} of the {} other included are linked through the pool's citations to a seed or to a work holding a topic term of the question)",
        result.reachable as f64 / result.targets.max(1) as f64,
        result.reachable,
        result.targets
    );
    println!(
        "{:<10} {:>8} {:>9} {:>8} {:>9} {:>6} {:>8} {:>8}",
        "step", "expanded", "new works", "relevant", "all relev", "delta", "requests", "minimum"
    );
    println!(
        "{:<10} {:>8} {:>9} {:>8} {:>9} {:>6} {:>8} {:>8}",
        "discover", "", "", "", "", "", result.discover_requests, result.discover_minimum
    );
    for (index, stage) in result.stages.iter().enumerate() {
        match &stage.report {
            Some(report) => println!(
                "{:<10} {:>8} {:>9} {:>8} {:>9} {:>6.3} {:>8} {:>8}",
                format!("stage {}", report.stage),
                report.expanded,
                report.new_works,
                report.new_relevant,
                report.relevant_total,
                stage.coverage_delta,
                stage.requests,
                stage.minimum
            ),
            None => println!(
                "{:<10} {:>8} {:>9} {:>8} {:>9} {:>6} {:>8} {:>8}",
                format!("stage {}", index + 1),
                0,
                0,
                0,
                "",
                "",
                stage.requests,
                stage.minimum
            ),
        }
    }
    println!(
        "stages {} ({}); requests {}, minimum {}, ratio {:.3}",
        result
            .stages
            .iter()
            .filter(|stage| stage.report.is_some())
            .count(),
        result.stop.map_or("no stop", |stop| stop_name(stop)),
        result.requests,
        result.minimum,
        result.ratio()
    );
    Ok(0)
}

/// Snowballing's settings when the command line overrides any of them.
/// `litrev bench snowball-cv`: per review, the corpus recall and the ranking's recall in its
/// top 100/200/300 (their mean) with the shipped weights and with the weights chosen on the
/// other reviews (corpus recall first, the ranking breaking ties), and the keyword baseline's
/// ranking; then each setting's mean over the reviews.
fn snowball_cross_validated(home: &Home, args: &SnowballCvArgs) -> anyhow::Result<u8> {
    use litrev::bench::{SnowballBench, describe_snowball_setting, ranking_recall};
    let data = args.data.clone().unwrap_or_else(shared_data);
    let datasets = litrev::bench::snowball_datasets(&data)?;
    let grid = litrev::bench::snowball_setting_grid(args.tier);
    let started = std::time::Instant::now();
    let report = |dataset: &litrev::bench::SnowballDataset,
                  setting: &litrev::bench::SnowballConfig,
                  run: &SnowballBench| {
        eprintln!(
            "{:<20} {:<34} recall {:.3} ranking {:.3}",
            dataset.name,
            describe_snowball_setting(setting),
            run.engine.recall,
            ranking_recall(run)
        );
    };
    let result =
        litrev::bench::cross_validate_snowball(home, &datasets, &grid, args.tier, &report)?;
    let shipped = litrev::bench::plan_config_for(args.tier);
    let shipped_index = grid.iter().position(|setting| *setting == shipped);
    println!(
        "leave-one-dataset-out over {} reviews, {} settings ({:.0} s): recall of the other included studies in the corpus, and in the ranking's top 100/200/300 (mean)",
        datasets.len(),
        grid.len(),
        started.elapsed().as_secs_f64()
    );
    println!(
        "{:<20} {:>8} {:>8} {:>8} {:>8} {:>8}  chosen on the others",
        "review", "recall", "ranking", "cv rec.", "cv rank.", "keywords"
    );
    let figures = |run: Option<&SnowballBench>| {
        run.map_or_else(
            || format!("{:>8} {:>8}", "-", "-"),
            |run| format!("{:>8.3} {:>8.3}", run.engine.recall, ranking_recall(run)),
        )
    };
    let mut sums = [0.0; 5];
    for (index, dataset) in datasets.iter().enumerate() {
        let held_out = result.held_out(index);
        let shipped_run = shipped_index.map(|setting| &result.runs[setting][index]);
        let keywords = litrev::bench::mean_top_recall(&held_out.baseline.top);
        for (sum, value) in sums.iter_mut().zip([
            shipped_run.map_or(0.0, |run| run.engine.recall),
            shipped_run.map_or(0.0, ranking_recall),
            held_out.engine.recall,
            ranking_recall(held_out),
            keywords,
        ]) {
            *sum += value;
        }
        println!(
            "{:<20} {} {} {:>8.3}  {}",
            dataset.name,
            figures(shipped_run),
            figures(Some(held_out)),
            keywords,
            describe_snowball_setting(&result.settings[result.chosen[index]])
        );
    }
    let count = datasets.len().max(1) as f64;
    let [recall, ranking, cv_recall, cv_ranking, keywords] = sums.map(|sum| sum / count);
    println!(
        "{:<20} {recall:>8.3} {ranking:>8.3} {cv_recall:>8.3} {cv_ranking:>8.3} {keywords:>8.3}",
        "mean"
    );
    println!(
        "{:>8} {:>8}  setting (mean over all reviews)",
        "recall", "ranking"
    );
    for (index, setting) in result.settings.iter().enumerate() {
        let runs = &result.runs[index];
        let mean = |value: fn(&SnowballBench) -> f64| {
            runs.iter().map(value).sum::<f64>() / runs.len().max(1) as f64
        };
        println!(
            "{:>8.3} {:>8.3}  {}{}",
            mean(|run| run.engine.recall),
            mean(ranking_recall),
            describe_snowball_setting(setting),
            if Some(index) == shipped_index {
                " (shipped)"
            } else {
                ""
            }
        );
    }
    let weights = &result.settings[result.chosen_on_all];
    println!(
        "chosen on all reviews (what should ship): {}",
        describe_snowball_setting(weights)
    );
    let thresholds =
        litrev::bench::cross_validate_threshold(home, &datasets, weights, args.tier, &report)?;
    println!(
        "\nthe relevance threshold with those weights: the highest keeping {:.0} % of what the lowest keeps on every other review",
        litrev::bench::RECALL_TARGET * 100.0
    );
    println!(
        "{:<20} {:>9} {:>8} {:>8} {:>9} {:>8} {:>8}",
        "review", "threshold", "recall", "corpus", "cv thr.", "recall", "corpus"
    );
    let shipped_threshold = shipped.relevance_threshold;
    let shipped_row = thresholds
        .settings
        .iter()
        .position(|setting| setting.relevance_threshold == shipped_threshold);
    for (index, dataset) in datasets.iter().enumerate() {
        let held_out = thresholds.held_out(index);
        let shipped_run = shipped_row.map(|row| &thresholds.runs[row][index]);
        println!(
            "{:<20} {:>9} {:>8} {:>8} {:>9} {:>8.3} {:>8}",
            dataset.name,
            shipped_threshold,
            shipped_run.map_or_else(|| "-".to_owned(), |run| format!("{:.3}", run.engine.recall)),
            shipped_run.map_or_else(|| "-".to_owned(), |run| run.engine.corpus.to_string()),
            thresholds.settings[thresholds.chosen[index]].relevance_threshold,
            held_out.engine.recall,
            held_out.engine.corpus
        );
    }
    println!(
        "chosen on all reviews (what should ship): threshold {}",
        thresholds.settings[thresholds.chosen_on_all].relevance_threshold
    );
    Ok(0)
}

fn snowball_config(args: &SnowballBenchArgs) -> Option<litrev::bench::SnowballConfig> {
    let any = args.relevance_threshold.is_some()
        || args.structural_links.is_some()
        || args.link_weight.is_some()
        || args.reach_weight.is_some()
        || args.feedback_works.is_some()
        || args.link_strength.is_some();
    if !any {
        return None;
    }
    let mut config = litrev::bench::plan_config_for(args.tier);
    if let Some(value) = args.relevance_threshold {
        config.relevance_threshold = value;
    }
    if let Some(value) = args.structural_links {
        config.structural_links = value;
    }
    if let Some(value) = args.link_weight {
        config.link_weight = value;
    }
    if let Some(value) = args.reach_weight {
        config.reach_weight = value;
    }
    if let Some(value) = args.feedback_works {
        config.feedback_works = value;
    }
    if let Some(value) = args.link_strength {
        config.link_strength = value;
    }
    Some(config)
}

fn stop_name(stop: litrev::model::StopReason) -> &'static str {
    use litrev::model::StopReason;
    match stop {
        StopReason::Saturated => "saturated: no new relevant work",
        StopReason::BelowCoverageThreshold => "coverage delta under the threshold twice",
        StopReason::StageLimit => "stage limit",
        StopReason::NothingToExpand => "nothing left to expand",
    }
}

/// Writes every structured abstract as a JSON line: its dataset, sentences and labelled roles,
/// and the roles the model left out of training gave them when its dataset was scored.
fn dump_roles(
    path: &std::path::Path,
    datasets: &[litrev::bench::RoleDataset],
    evaluations: &[litrev::bench::RoleEvaluation],
) -> anyhow::Result<()> {
    let mut lines = String::new();
    for dataset in datasets {
        let evaluation = evaluations
            .iter()
            .find(|evaluation| evaluation.name == dataset.name);
        for (index, labelled) in dataset.structured.iter().enumerate() {
            let mut line = serde_json::json!({
                "dataset": dataset.name,
                "sentences": labelled.sentences,
                "roles": labelled.roles.iter().map(|role| role.name()).collect::<Vec<_>>(),
            });
            if let Some(given) = evaluation.and_then(|evaluation| evaluation.predicted.get(index)) {
                line["predicted"] =
                    serde_json::json!(given.iter().map(|role| role.name()).collect::<Vec<_>>());
            }
            lines.push_str(&format!("{line}\n"));
        }
    }
    std::fs::write(path, lines)
        .with_context(|| format!("cannot write the abstracts to {}", path.display()))
}

fn roles(args: &RolesBenchArgs) -> anyhow::Result<u8> {
    let files = if args.works.is_empty() {
        let files = litrev::bench::default_role_files(&shared_data());
        if files.is_empty() {
            bail!(
                "no data files under {}: pass --works FILE…, or set LITREV_TESTDATA to the shared data folder",
                shared_data().display()
            );
        }
        files
    } else {
        args.works.clone()
    };
    let datasets = litrev::bench::read_role_datasets(&files)?;
    let mut config = litrev::bench::TrainConfig::default();
    config.sequence_weight = args.sequence_weight.unwrap_or(config.sequence_weight);
    config.epochs = args.epochs.unwrap_or(config.epochs);
    config.learning_rate = args.learning_rate.unwrap_or(config.learning_rate);
    if args.no_second_pass {
        config.stack_learning_rate = None;
    } else if let Some(rate) = args.second_pass_learning_rate {
        config.stack_learning_rate = Some(rate);
    }
    config.l2 = args.l2.unwrap_or(config.l2);
    config.min_count = args.min_count.unwrap_or(config.min_count);
    for dataset in &datasets {
        let sentences: usize = dataset.structured.iter().map(|a| a.sentences.len()).sum();
        println!(
            "{:<36} {:>6} abstracts, {:>5} structured ({sentences} sentences)",
            dataset.name,
            dataset.abstracts,
            dataset.structured.len()
        );
    }
    if args.train {
        let Some(out) = &args.out else {
            bail!("--train needs --out FILE");
        };
        if let Some(path) = &args.dump {
            dump_roles(path, &datasets, &[])?;
        }
        let model = litrev::bench::train_roles(&datasets, &config);
        std::fs::write(out, model.to_text())
            .with_context(|| format!("cannot write the role model to {}", out.display()))?;
        println!("wrote the role model to {}", out.display());
        return Ok(0);
    }
    let started = std::time::Instant::now();
    let evaluations = litrev::bench::cross_validate_roles(&datasets, &config, args.min_abstracts);
    if let Some(path) = &args.dump {
        dump_roles(path, &datasets, &evaluations)?;
    }
    println!(
        "\nleave-one-dataset-out ({config:?}), datasets with at least {} structured abstracts:",
        args.min_abstracts
    );
    for evaluation in &evaluations {
        println!(
            "\n{}: {} abstracts, {} sentences, weighted F1 {:.3} (strict {:.3}), accuracy {:.3}",
            evaluation.name,
            evaluation.abstracts,
            evaluation.sentences,
            evaluation.weighted_f1,
            evaluation.strict_weighted_f1,
            evaluation.accuracy
        );
        println!(
            "  {:<12} {:>9} {:>9} {:>9} {:>8}",
            "role", "precision", "recall", "F1", "support"
        );
        for score in &evaluation.roles {
            println!(
                "  {:<12} {:>9.3} {:>9.3} {:>9.3} {:>8}",
                score.role.name(),
                score.precision,
                score.recall,
                score.f1,
                score.support
            );
        }
    }
    if evaluations.is_empty() {
        bail!(
            "no dataset has {} structured abstracts: lower --min-abstracts",
            args.min_abstracts
        );
    }
    let mean = evaluations.iter().map(|e| e.weighted_f1).sum::<f64>() / evaluations.len() as f64;
    let lowest = evaluations
        .iter()
        .map(|e| e.weighted_f1)
        .fold(f64::INFINITY, f64::min);
    let strict_lowest = evaluations
        .iter()
        .map(|e| e.strict_weighted_f1)
        .fold(f64::INFINITY, f64::min);
    println!(
        "\nweighted F1 over {} datasets: mean {mean:.3}, lowest {lowest:.3} (strict: lowest \
         {strict_lowest:.3}; a conclusion read as future work or a limitation counted as a miss) \
         ({:.1} s)",
        evaluations.len(),
        started.elapsed().as_secs_f64()
    );
    if let Some(speed) = litrev::bench::reading_speed(&datasets) {
        let per_sentence =
            |time: std::time::Duration| time.as_secs_f64() * 1e6 / speed.sentences as f64;
        println!(
            "reading {} sentences with the shipped model: {:.1} µs a sentence, {:.2}× the first \
             pass alone ({:.1} µs)",
            speed.sentences,
            per_sentence(speed.both_passes),
            speed.both_passes.as_secs_f64() / speed.first_pass.as_secs_f64().max(1e-9),
            per_sentence(speed.first_pass)
        );
    }
    Ok(0)
}

fn themes(home: &Home, args: &ThemesBenchArgs) -> anyhow::Result<u8> {
    let input = litrev::bench::read_works_by_origin(&args.works)?;
    let result = litrev::bench::organise_by_origin(home, &input)?;
    let vectors = match (&result.organisation.embedding_model, &result.no_embeddings) {
        (Some(model), _) => format!("embeddings of {model} ({:.2} s)", result.embed_seconds),
        (None, Some(why)) => format!("TF-IDF vectors ({why})"),
        (None, None) => "TF-IDF vectors".to_owned(),
    };
    println!(
        "{} works from {} files: {} themes, {:.1} % outliers, NMI with the file of origin {:.3}, {:.2} s; clustered on {vectors}",
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
    if args.cv {
        return screen_cross_validated(args);
    }
    let mut setting = litrev::bench::ScreenSetting::shipped();
    if let Some(ratio) = args.class_ratio {
        setting.svm.class_ratio = ratio;
    }
    if let Some(weight) = args.embedding_weight {
        setting.features.embedding_weight = weight;
    }
    if let Some(c) = args.svm_c {
        setting.svm.c = c;
    }
    if let Err(error) = setting.svm.validate().and(setting.features.validate()) {
        let flag = match error.setting {
            "c" => "--svm-c",
            "class_ratio" => "--class-ratio",
            "embedding_weight" => "--embedding-weight",
            other => other,
        };
        bail!("{flag} {}: {}", error.value, error.requirement());
    }
    let (name, mut records): (String, LabelledRecords) =
        match (&args.works, &args.labels, &args.csv) {
            (Some(works), Some(labels), None) => {
                (file_stem(works), read_works_with_labels(works, labels)?)
            }
            (None, None, Some(csv)) => (file_stem(csv), read_labelled_csv(csv)?),
            _ => bail!("pass --works FILE --labels FILE, or --csv FILE"),
        };
    if args.title_abstract_only {
        records.read_title_and_abstract_only();
    }
    if setting.features.embedding_weight > 0.0 {
        match litrev::bench::embed_if_installed(&litrev::Home::from_env()?, &mut records)? {
            Ok(model) => eprintln!("the ranking reads {model} embeddings beside the words"),
            Err(why) => eprintln!("the ranking reads the words and links alone: {why}"),
        }
    }
    eprintln!("setting: {}", setting.describe());
    let seeds: Vec<u64> = (0..args.repeats.max(1)).collect();
    let runs = simulate_screening(&records, &seeds, &setting)?;
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

/// `litrev bench screen --cv`: per dataset, the shipped setting's WSS@95, the cross-validated
/// one (the setting chosen on the other datasets) and, given its results, ASReview's.
fn screen_cross_validated(args: &ScreenBenchArgs) -> anyhow::Result<u8> {
    let data = args.data.clone().unwrap_or_else(shared_data);
    let mut datasets = litrev::bench::labelled_datasets(&data)?;
    let home = litrev::Home::from_env()?;
    litrev::bench::embed_datasets(&home, &mut datasets)?;
    let seeds: Vec<u64> = (0..args.repeats.max(1)).collect();
    if let Some(folder) = &args.asreview_out {
        litrev::bench::write_asreview_inputs(folder, &datasets, &seeds)?;
    }
    let asreview = match &args.asreview {
        Some(path) => read_asreview(path)?,
        None => std::collections::BTreeMap::new(),
    };
    let started = std::time::Instant::now();
    let grid = litrev::bench::setting_grid();
    let result = litrev::bench::cross_validate(&datasets, &grid, &seeds)?;
    if let Some(path) = &args.wss_out {
        let mut lines = String::from("setting\tdataset\twss_95\n");
        for (setting, row) in result.settings.iter().zip(&result.wss) {
            for (dataset, wss) in datasets.iter().zip(row) {
                lines.push_str(&format!(
                    "{}\t{}\t{wss:.4}\n",
                    setting.describe(),
                    dataset.name
                ));
            }
        }
        std::fs::write(path, lines)
            .with_context(|| format!("cannot write the table to {}", path.display()))?;
    }
    let shipped = litrev::bench::ScreenSetting::shipped();
    let shipped_index = grid.iter().position(|setting| *setting == shipped);
    println!(
        "leave-one-dataset-out over {} datasets, {} settings, {} priors each ({:.0} s)",
        datasets.len(),
        grid.len(),
        seeds.len(),
        started.elapsed().as_secs_f64()
    );
    println!(
        "{:<34} {:>7} {:>5} {:>8} {:>8} {:>9}  chosen on the others",
        "dataset", "records", "incl", "shipped", "cv", "asreview"
    );
    let (mut cv_sum, mut asreview_sum, mut asreview_count, mut behind) = (0.0, 0.0, 0, 0);
    for (index, dataset) in datasets.iter().enumerate() {
        let held_out = result.held_out(index);
        cv_sum += held_out;
        let shipped_wss = shipped_index.map_or_else(
            || "-".to_owned(),
            |s| format!("{:.3}", result.wss[s][index]),
        );
        let theirs = asreview.get(&dataset.name).copied();
        if let Some(theirs) = theirs {
            asreview_sum += theirs;
            asreview_count += 1;
            if held_out < theirs {
                behind += 1;
            }
        }
        println!(
            "{:<34} {:>7} {:>5} {:>8} {:>8.3} {:>9}  {}",
            dataset.name,
            dataset.records.labels.len(),
            dataset
                .records
                .labels
                .iter()
                .filter(|label| **label)
                .count(),
            shipped_wss,
            held_out,
            theirs.map_or_else(|| "-".to_owned(), |wss| format!("{wss:.3}")),
            result.settings[result.chosen[index]].describe()
        );
    }
    println!(
        "mean cross-validated WSS@95 {:.3}{}",
        cv_sum / datasets.len().max(1) as f64,
        if asreview_count > 0 {
            format!(
                "; ASReview {:.3} on {asreview_count}; litrev behind on {behind}",
                asreview_sum / asreview_count as f64
            )
        } else {
            String::new()
        }
    );
    println!(
        "{:>8} {:>8}  setting (mean WSS@95 over all datasets, worst and best of them)",
        "mean", "worst"
    );
    for (index, setting) in result.settings.iter().enumerate() {
        let row = &result.wss[index];
        println!(
            "{:>8.3} {:>8.3}  {}{}",
            row.iter().sum::<f64>() / row.len().max(1) as f64,
            row.iter().copied().fold(f64::MAX, f64::min),
            setting.describe(),
            if Some(index) == shipped_index {
                " (shipped)"
            } else {
                ""
            }
        );
    }
    println!(
        "chosen on all datasets (what should ship): {}",
        result.settings[result.chosen_on_all].describe()
    );
    Ok(0)
}

/// The shared data folder: LITREV_TESTDATA, else ../shared/data.
fn shared_data() -> PathBuf {
    std::env::var_os("LITREV_TESTDATA")
        .map_or_else(|| PathBuf::from("../shared/data"), PathBuf::from)
}

/// Mean WSS@95 per dataset from the `asreview.tsv` of `scripts/asreview-simulate.sh`.
fn read_asreview(
    path: &std::path::Path,
) -> anyhow::Result<std::collections::BTreeMap<String, f64>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read ASReview's results {}", path.display()))?;
    let mut sums: std::collections::BTreeMap<String, (f64, usize)> = Default::default();
    for line in text.lines().skip(1) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (Some(name), Some(wss)) = (fields.first(), fields.get(2)) else {
            continue;
        };
        let wss: f64 = wss
            .parse()
            .with_context(|| format!("{}: `{wss}` is not a WSS@95", path.display()))?;
        let entry = sums.entry((*name).to_owned()).or_default();
        entry.0 += wss;
        entry.1 += 1;
    }
    Ok(sums
        .into_iter()
        .map(|(name, (sum, count))| (name, sum / count as f64))
        .collect())
}
