//! The `litrev` binary: parse the command line, run, map the outcome to an exit code.

mod args;
mod bench;
mod bench_workers;
mod progress;
mod screen;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;
use litrev::{ErrorCode, Home, Outcome, RunOptions, Runner, SourceSpec};

use crate::args::{
    Cli, Command, McpArgs, PlanArgs, ResumeArgs, ReviewArgs, RunsArgs, ScreenArgs, SearchArgs,
    ServeArgs, ShowArgs,
};
use crate::progress::Progress;

/// Exit codes: 0 done, 1 bad usage or input, 2 run failed (resumable), 3 stopped at the gate.
const EXIT_USAGE: u8 = 1;
const EXIT_FAILED: u8 = 2;
const EXIT_GATE: u8 = 3;

fn main() -> ExitCode {
    let cli = Cli::parse();
    litrev::install_panic_hook();
    // A step's panic is already an error naming the step; this catches one anywhere else
    // (a benchmark, the screening session) so the user still gets a message, not a backtrace.
    let outcome = std::panic::catch_unwind(|| run(cli)).unwrap_or_else(|payload| {
        let message = litrev::panic_message(payload.as_ref());
        Err(anyhow::anyhow!(
            "litrev stopped on an internal error: {message}. This is a bug in litrev: please report it at {}/issues with this message and the command you ran (RUST_BACKTRACE=1 adds where it happened); what was already stored is kept",
            env!("CARGO_PKG_REPOSITORY")
        ))
    });
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("error: {}", error_text(&error));
            let code = match error
                .downcast_ref::<litrev::Error>()
                .map(litrev::Error::code)
            {
                Some(ErrorCode::Usage) => EXIT_USAGE,
                Some(ErrorCode::RunFailed) | None => EXIT_FAILED,
            };
            ExitCode::from(code)
        }
    }
}

/// An error and its causes on one line, each cause once: many of litrev's errors already
/// write their cause into their own message (`cannot read `x`: incomplete deflate stream`),
/// and anyhow's chain would repeat it.
fn error_text(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
        let part = cause.to_string();
        if text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

/// The per-source table of `litrev search` (or the report as JSON, with the merged works).
fn print_search(report: &litrev::SearchReport, json: bool) -> anyhow::Result<()> {
    if json {
        let works: Vec<serde_json::Value> = report
            .works
            .iter()
            .map(|work| {
                serde_json::json!({
                    "id": work.id().to_string(),
                    "ids": work.ids.all().iter().map(ToString::to_string).collect::<Vec<_>>(),
                    "title": work.title,
                    "year": work.year,
                })
            })
            .collect();
        let mut value = serde_json::to_value(report)?;
        if let Some(object) = value.as_object_mut() {
            object.insert("works".into(), serde_json::Value::Array(works));
        }
        println!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(());
    }
    println!(
        "{:<18} {:>6} {:>16} {:>9} {:>8} {:>11} {:>11}",
        "source", "hits", "new after dedup", "requests", "retries", "cache hits", "cost (USD)"
    );
    for row in &report.sources {
        println!(
            "{:<18} {:>6} {:>16} {:>9} {:>8} {:>11} {:>11.4}",
            row.source,
            row.hits,
            row.new_after_dedup,
            row.requests,
            row.retries,
            row.cache_hits,
            row.cost_usd
        );
    }
    let total =
        |field: fn(&litrev::SourceRow) -> u64| -> u64 { report.sources.iter().map(field).sum() };
    println!(
        "{:<18} {:>6} {:>16} {:>9} {:>8} {:>11} {:>11.4}",
        "total",
        report.records,
        report.works.len(),
        total(|row| row.requests),
        total(|row| row.retries),
        total(|row| row.cache_hits),
        report.sources.iter().map(|row| row.cost_usd).sum::<f64>()
    );
    println!(
        "{} distinct works from {} records (merged: {} by shared id, {} by title and first author, {} by near-identical title)",
        report.works.len(),
        report.records,
        report.merges.by_id,
        report.merges.by_fingerprint,
        report.merges.by_fuzzy_title
    );
    for row in &report.sources {
        if let Some(failure) = &row.failure {
            println!("{} failed and was left out: {failure}", row.source);
        }
    }
    Ok(())
}

/// Asks the brief's clarifying questions on the terminal (an empty answer takes the default),
/// or, when not interactive, says which defaults were taken.
fn clarify(brief: &mut litrev::model::Brief, interactive: bool) -> anyhow::Result<()> {
    for index in 0..brief.clarifications.len() {
        let clarification = brief.clarifications[index].clone();
        let default = clarification.options.first().cloned().unwrap_or_default();
        if !interactive {
            eprintln!("{} Taking the default: {default}.", clarification.question);
            continue;
        }
        loop {
            eprint!(
                "{} [{}] ",
                clarification.question,
                clarification.options.join(" / ")
            );
            let mut line = String::new();
            std::io::stdin().read_line(&mut line)?;
            let given = if line.trim().is_empty() {
                default.as_str()
            } else {
                line.trim()
            };
            if litrev::answer_clarification(brief, index, given) {
                break;
            }
            eprintln!(
                "Please answer one of: {}.",
                clarification.options.join(", ")
            );
        }
    }
    Ok(())
}

/// Every `--source` value, each a comma-separated list. A snapshot path that does not exist
/// (or a folder without Work files) is refused here, before a run is stored that could only
/// fail.
fn parse_sources(values: &[String]) -> Result<Vec<SourceSpec>, litrev::Error> {
    let mut sources = Vec::new();
    for value in values {
        sources.extend(SourceSpec::parse_list(value)?);
    }
    for source in &sources {
        source.check_paths()?;
    }
    Ok(SourceSpec::merge(sources))
}

fn run(cli: Cli) -> anyhow::Result<u8> {
    let home = Home::from_env()?;
    match cli.command {
        Command::Plan(args) => run_plan(home, args),
        Command::Review(review) => run_review(home, review),
        Command::Worker(worker) => run_worker(&home, &worker),
        Command::Export(export) => run_export(home, &export),
        Command::Search(search) => run_search(home, search),
        Command::Resume(resume) => run_resume(home, resume),
        Command::Bench(bench) => bench::run(&home, bench),
        Command::Show(show) => run_show(home, show),
        Command::Serve(serve) => run_serve(home, serve),
        Command::Mcp(mcp) => run_mcp(home, mcp),
        Command::Screen(screen) => run_screen(home, screen),
        Command::Runs(list) => run_runs(home, list),
    }
}

/// `litrev plan`: the plan (and its estimate) a review of the question would follow, after a
/// probe of the named sources; runs nothing.
fn run_plan(home: Home, args: PlanArgs) -> anyhow::Result<u8> {
    let sources = parse_sources(&args.source)?;
    // The plan's web searches are planned only when a web source is named.
    let options = RunOptions {
        seeds: args.scope.seeds()?,
        approve: false,
        filters: args.scope.filters(),
        sites: litrev::parse_sites(&args.site, &sources)?,
        ..RunOptions::approved(
            &args.question,
            sources.clone(),
            args.scope.tier,
            std::path::PathBuf::new(),
        )
    };
    let mut plan = litrev::generated_plan(&options);
    if !sources.is_empty() {
        let runner = Runner::open(home, args.db.as_deref())?;
        let progress = Progress::new(std::io::stderr().is_terminal());
        let probed = runner.probe(&mut plan, &sources, &|event| progress.show(event));
        progress.finish();
        eprintln!(
            "probe: {} works; disciplines {}",
            probed?,
            plan.brief.disciplines.value.join(", ")
        );
        let interactive = std::io::stdin().is_terminal() && !args.yes;
        clarify(&mut plan.brief, interactive)?;
        litrev::apply_brief(&mut plan);
    }
    let estimate_sources = if sources.is_empty() {
        vec![litrev::SourceSpec::OpenAlex]
    } else {
        sources
    };
    let mut estimate = litrev::estimate(&plan, &estimate_sources);
    if let Some(llm) = args.model.options() {
        estimate.llm = Some(litrev::estimate_llm(&plan, &llm, plan.limits.max_fulltext));
    }
    // Asked for, the estimate is the command's output; otherwise it is said on stderr.
    match (args.estimate, args.json) {
        (true, true) => println!("{}", serde_json::to_string_pretty(&estimate)?),
        (true, false) => print!("{}", estimate_lines(&estimate)),
        (false, _) => eprint!("{}", estimate_lines(&estimate)),
    }
    let Some(out) = args.out else {
        return Ok(0);
    };
    let text = litrev::plan_to_toml(&plan, &estimate)?;
    if out.as_os_str() == "-" {
        print!("{text}");
    } else {
        anyhow::Context::with_context(std::fs::write(&out, text), || {
            format!("cannot write the plan to {}", out.display())
        })?;
        eprintln!(
            "wrote the plan to {}: edit it, then `litrev review --plan {} --source …`",
            out.display(),
            out.display()
        );
    }
    Ok(0)
}

/// `litrev review`: a new run from the question or an edited plan, driven here or queued.
fn run_review(home: Home, review: ReviewArgs) -> anyhow::Result<u8> {
    let mut runner = Runner::open(home, review.db.as_deref())?;
    let sources = parse_sources(&review.source)?;
    let edited = review.plan.as_deref().map(litrev::read_plan).transpose()?;
    let question = match (&review.question, &edited) {
        (Some(question), Some(plan)) if question.trim() != plan.question.trim() => {
            return Err(litrev::Error::BadInput {
                path: review.plan.clone().unwrap_or_default(),
                message: format!(
                    "the question differs from the plan's (\"{}\"): leave the question out to run the plan, or edit the plan's question",
                    plan.question
                ),
            }
            .into());
        }
        (Some(question), _) => question.clone(),
        (None, Some(plan)) => plan.question.clone(),
        (None, None) => anyhow::bail!("give the research question, or --plan FILE"),
    };
    let (seeds, tier, filters) = match &edited {
        Some(plan) => (plan.seeds.clone(), plan.tier, plan.filters.clone()),
        None => (
            review.scope.seeds()?,
            review.scope.tier,
            review.scope.filters(),
        ),
    };
    let mut addresses = review.url.clone();
    if let Some(file) = &review.urls {
        let text = std::fs::read_to_string(file).map_err(|error| {
            anyhow::anyhow!("cannot read the URL file {}: {error}", file.display())
        })?;
        addresses.extend(
            text.lines()
                .map(str::trim)
                .filter(|line| !line.is_empty() && !line.starts_with('#'))
                .map(str::to_owned),
        );
    }
    let options = RunOptions {
        pages: litrev::parse_pages(&addresses)?,
        libraries: review
            .library
            .iter()
            .map(|path| litrev::LibraryFile {
                path: path.clone(),
                collection: review.library_collection.clone(),
            })
            .collect(),
        sites: litrev::parse_sites(&review.site, &sources)?,
        llm: review.llm_options()?,
        style: review.style,
        out_dir: review
            .out
            .clone()
            .unwrap_or_else(|| litrev::default_out_dir(&question)),
        question,
        sources,
        seeds,
        tier,
        approve: review.yes,
        filters,
        fulltext_dirs: review.fulltext_dir,
        max_fulltext: review.max_fulltext,
        plan: edited,
        clarify: review.clarify,
    };
    if review.queue {
        let run = runner.create(&options)?;
        if review.json {
            let value = serde_json::json!({ "status": "queued", "run": run.to_string() });
            println!("{}", serde_json::to_string_pretty(&value)?);
        } else {
            println!("{run}");
            eprintln!("queued run {run}: a `litrev worker` on this store drives it");
        }
        return Ok(0);
    }
    check_local_folders(&options)?;
    let progress = Progress::new(std::io::stderr().is_terminal());
    let outcome = runner.start(&options, &|event| progress.show(event));
    progress.finish();
    report(outcome?, review.json)
}

/// The folders a review run here reads or writes, checked before it starts: a `--out` that is
/// a file, or a `--fulltext-dir` that is missing, would otherwise stop the run only after its
/// searches and screening (a queued run is checked where a worker drives it).
fn check_local_folders(options: &RunOptions) -> Result<(), litrev::Error> {
    if options.out_dir.exists() && !options.out_dir.is_dir() {
        return Err(litrev::Error::BadInput {
            path: options.out_dir.clone(),
            message: "--out names a file, not a folder: pass a folder (it is made when missing)"
                .to_owned(),
        });
    }
    for folder in &options.fulltext_dirs {
        if !folder.is_dir() {
            return Err(litrev::Error::BadInput {
                path: folder.clone(),
                message: "--fulltext-dir names no folder: pass the folder that holds your PDFs or JATS files".to_owned(),
            });
        }
    }
    Ok(())
}

/// `litrev search`: the question's searches alone, per source.
fn run_search(home: Home, search: SearchArgs) -> anyhow::Result<u8> {
    let runner = Runner::open(home, search.db.as_deref())?;
    let sources = parse_sources(&search.source)?;
    let progress = Progress::new(std::io::stderr().is_terminal());
    let report = runner.search(&search.question, &sources, search.tier, &|event| {
        progress.show(event);
    });
    progress.finish();
    print_search(&report?, search.json)?;
    Ok(0)
}

/// `litrev resume`: a stopped run continued, with the answers to its questions if any.
fn run_resume(home: Home, resume: ResumeArgs) -> anyhow::Result<u8> {
    let mut runner = Runner::open(home, resume.db.as_deref())?;
    if !resume.answers.is_empty() {
        runner.clarify(&resume.run, &resume.answers)?;
    }
    let progress = Progress::new(std::io::stderr().is_terminal());
    let outcome = runner.resume(&resume.run, &|event| progress.show(event));
    progress.finish();
    report(outcome?, resume.json)
}

/// `litrev show`: what a run's steps cost, or one claim of its review with its evidence.
fn run_show(home: Home, show: ShowArgs) -> anyhow::Result<u8> {
    let runner = Runner::open(home, show.db.as_deref())?;
    let Some(claim) = show.claim else {
        let telemetry = runner.telemetry(&show.run)?;
        if show.json {
            println!("{}", serde_json::to_string_pretty(&telemetry)?);
        } else {
            println!("{}", telemetry.table());
        }
        return Ok(0);
    };
    let claim = runner.claim(&show.run, claim)?;
    if show.json {
        println!("{}", serde_json::to_string_pretty(&claim)?);
    } else {
        println!(
            "claim {} ({}): {}",
            claim.claim, claim.section, claim.markdown
        );
        if let Some(span) = &claim.span {
            match (&span.pinpoint, &span.locator, &span.sha256) {
                (Some(pinpoint), Some(locator), Some(sha256)) => println!(
                    "taken from the full text of {} [@{}, {pinpoint}] (section {}, paragraph {}, bytes {}–{} of text {sha256}):",
                    span.work,
                    span.key,
                    locator.section + 1,
                    locator.paragraph + 1,
                    locator.start,
                    locator.end
                ),
                _ => println!(
                    "taken from {} [@{}], {} sentence {} (bytes {}–{}):",
                    span.work,
                    span.key,
                    span.field,
                    span.sentence + 1,
                    span.start,
                    span.end
                ),
            }
        }
        match &claim.span {
            Some(span) => {
                println!("  “{}”", span.snippet);
                if let Some(url) = &span.url {
                    println!("  {url}");
                }
            }
            None if !claim.spans.is_empty() => {
                println!("paraphrased by the language model from:");
                for span in &claim.spans {
                    println!(
                        "  {} [@{}], {} sentence {}: “{}”",
                        span.work,
                        span.key,
                        span.field,
                        span.sentence + 1,
                        span.snippet
                    );
                }
            }
            None => {
                println!("built from the run's own counts and lists (no source sentence)")
            }
        }
    }
    Ok(0)
}

/// `litrev serve`: the web app and its API.
fn run_serve(home: Home, serve: ServeArgs) -> anyhow::Result<u8> {
    let options = litrev_server::ServeOptions {
        addr: serve.addr,
        token: serve.token.filter(|token| !token.is_empty()),
        workers: serve.workers,
        db: serve.db,
        sources: parse_sources(&serve.source)?,
    };
    let served = litrev_server::serve(home, options, |bound| {
        println!("litrev is serving on http://{bound}/ (Ctrl-C to stop)");
        // The line is how scripts and tests learn the port: out at once.
        let _ = std::io::Write::flush(&mut std::io::stdout());
    });
    match served {
        Ok(()) => Ok(0),
        Err(error @ litrev_server::Error::TokenRequired(_)) => {
            eprintln!("error: {error}");
            Ok(EXIT_USAGE)
        }
        Err(error) => Err(error.into()),
    }
}

/// `litrev mcp`: the engine as MCP tools on stdio.
fn run_mcp(home: Home, mcp: McpArgs) -> anyhow::Result<u8> {
    let sources = parse_sources(&mcp.source)?;
    eprintln!("litrev mcp: serving MCP on stdio (the client closes it to stop)");
    litrev_mcp::serve_stdio(home, mcp.db, sources)?;
    Ok(0)
}

/// `litrev screen`: a person labels a run's records at the gate.
fn run_screen(home: Home, screen: ScreenArgs) -> anyhow::Result<u8> {
    let mut runner = Runner::open(home, screen.db.as_deref())?;
    // Labels keep who gave them: two people screening one run each undo their own.
    let who = std::env::var("USER")
        .or_else(|_| std::env::var("LOGNAME"))
        .unwrap_or_else(|_| "cli".to_owned());
    runner.label_as(&who);
    screen::run(&mut runner, &screen)
}

/// `litrev runs`: every run in the store, newest first.
fn run_runs(home: Home, list: RunsArgs) -> anyhow::Result<u8> {
    let runner = Runner::open(home, list.db.as_deref())?;
    let runs = runner.runs()?;
    if list.json {
        let rows: Vec<serde_json::Value> = runs
            .iter()
            .map(|run| {
                serde_json::json!({
                    "id": run.id.to_string(),
                    "question": run.question,
                    "status": run.status.name(),
                    "created_at": run.created_at,
                    "last_step": run.last_step,
                    "out_dir": run.out_dir,
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else if runs.is_empty() {
        println!("no runs yet: start one with `litrev review \"your question\"`");
    } else {
        for run in runs {
            println!(
                "{}  {:<17}  {:<10}  {}",
                run.id,
                run.status.name(),
                run.last_step.as_deref().unwrap_or("-"),
                run.question
            );
        }
    }
    Ok(0)
}

/// `litrev export`: the run's files into a folder, its references into Zotero, or both.
fn run_export(home: Home, export: &args::ExportArgs) -> anyhow::Result<u8> {
    if export.cite_keys == args::CiteKeys::Zotero && !export.zotero {
        anyhow::bail!(
            "--cite-keys zotero needs --zotero: the keys are those of the items the export creates or finds"
        );
    }
    let runner = Runner::open(home, export.db.as_deref())?;
    if let Some(out) = &export.out {
        let files = runner.export(&export.run, out)?;
        eprintln!(
            "wrote {files} files of run {} to {}",
            export.run,
            out.display()
        );
    }
    if export.zotero {
        let written = runner.export_to_zotero(&export.run, export.collection.as_deref())?;
        if let (args::CiteKeys::Zotero, Some(out)) = (export.cite_keys, &export.out) {
            let files = litrev::cite_with_keys(out, &written.keys)?;
            eprintln!(
                "cited with Zotero's item keys: {} ({} keys)",
                files.join(", "),
                written.keys.len()
            );
        }
        if export.json {
            println!(
                "{}",
                serde_json::json!({
                    "collection": written.collection,
                    "collection_name": written.collection_name,
                    "created": written.created,
                    "already": written.already,
                    "skipped": written.skipped,
                })
            );
        }
        eprintln!(
            "Zotero: {} items created, {} already in the collection \"{}\" ({}){}",
            written.created,
            written.already,
            written.collection_name,
            written.collection,
            if written.skipped > 0 {
                format!(", {} references without a title left out", written.skipped)
            } else {
                String::new()
            }
        );
    }
    Ok(0)
}

/// `litrev worker`: drives queued runs, printing a line per step on stderr and per run worked.
fn run_worker(home: &Home, args: &args::WorkerArgs) -> anyhow::Result<u8> {
    if !(args.lease.is_finite() && args.lease > 0.0) {
        anyhow::bail!("--lease takes a positive number of seconds (default 60)");
    }
    let mut options = litrev::WorkerOptions::new();
    if let Some(name) = &args.name {
        options.name.clone_from(name);
    }
    options.lease = std::time::Duration::from_secs_f64(args.lease);
    options.concurrency = args.concurrency.max(1);
    options.once = args.once;
    eprintln!(
        "worker {} on {}: {} at a time, lease {:.1} s",
        options.name,
        home.store_location(args.db.as_deref()).display(),
        options.concurrency,
        args.lease
    );
    // Told to stop, the worker gives its runs back to the queue before it goes: another
    // worker takes them over at once instead of after the lease.
    let mut signals = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
    ])
    .map_err(|error| anyhow::anyhow!("cannot listen for SIGINT and SIGTERM: {error}"))?;
    {
        let (home, db, options) = (home.clone(), args.db.clone(), options.clone());
        std::thread::spawn(move || {
            if signals.forever().next().is_some() {
                match litrev::give_back(&home, db.as_deref(), &options) {
                    Ok(given) => eprintln!("stopping: {given} run(s) given back to the queue"),
                    Err(error) => eprintln!(
                        "stopping: the runs could not be given back ({error}); other workers take them when the lease runs out"
                    ),
                }
                std::process::exit(130);
            }
        });
    }
    let json = args.json;
    // Each run is printed as it ends: a worker without --once runs until it is stopped.
    let print = move |run: &litrev::WorkedRun| {
        if json {
            let value = serde_json::json!({
                "run": run.run.to_string(),
                "worker": run.worker,
                "taken_over_from": run.taken_over_from,
                "outcome": run.outcome,
            });
            println!("{value}");
        } else {
            let takeover = run
                .taken_over_from
                .as_deref()
                .map(|from| format!(" (taken over from {from})"))
                .unwrap_or_default();
            println!("{}  {}{takeover}", run.run, run.outcome);
        }
    };
    let worked = litrev::work(
        home,
        args.db.as_deref(),
        &options,
        &|run, event| match event {
            litrev::Event::StepFinished { step, summary } => eprintln!("{run} {step}: {summary}"),
            litrev::Event::Notice { message } => eprintln!("{run} {message}"),
            _ => {}
        },
        &print,
    )?;
    let failed = worked
        .iter()
        .filter(|run| run.outcome.starts_with("failed"))
        .count();
    Ok(if failed > 0 { 1 } else { 0 })
}

fn report(outcome: Outcome, json: bool) -> anyhow::Result<u8> {
    match outcome {
        Outcome::NeedsClarification {
            run,
            clarifications,
        } => {
            if json {
                let value = serde_json::json!({
                    "status": "needs_clarification",
                    "run": run.to_string(),
                    "clarifications": clarifications,
                });
                println!("{}", serde_json::to_string_pretty(&value)?);
            } else {
                for clarification in &clarifications {
                    println!(
                        "{} [{}]",
                        clarification.question,
                        clarification.options.join(" / ")
                    );
                }
                println!(
                    "run {run} waits for these answers: `litrev resume {run} --answer A …` (one per question; `litrev resume {run}` takes the defaults, the first of each)"
                );
            }
            Ok(EXIT_GATE)
        }
        Outcome::Done(summary) => {
            if json {
                let value = serde_json::json!({
                    "status": "done",
                    "run": summary.run.to_string(),
                    "considered": summary.considered,
                    "included": summary.included,
                    "themes": summary.themes,
                    "words": summary.words,
                    "citations": summary.citations,
                    "views": summary.views,
                    "out_dir": summary.out_dir,
                    "telemetry": summary.telemetry,
                });
                println!("{}", serde_json::to_string_pretty(&value)?);
            } else {
                println!("{}", summary.telemetry.table());
                println!(
                    "{} works considered, {} included, {} themes, {} words, {} citations → {} (run {})",
                    summary.considered,
                    summary.included,
                    summary.themes,
                    summary.words,
                    summary.citations,
                    summary.out_dir.display(),
                    summary.run
                );
                if let Some(views) = &summary.views {
                    println!(
                        "themes against citation communities: {} themes, {} communities (Leiden, resolution {}) over {} linked works, NMI {:.3}",
                        views.text_themes,
                        views.communities,
                        views.resolution,
                        views.linked_works,
                        views.nmi
                    );
                }
            }
            Ok(0)
        }
        Outcome::AwaitingApproval {
            run,
            screening_csv,
            included,
            considered,
        } => {
            if json {
                let value = serde_json::json!({
                    "status": "awaiting_approval",
                    "run": run.to_string(),
                    "included": included,
                    "considered": considered,
                    "screening_csv": screening_csv,
                });
                println!("{}", serde_json::to_string_pretty(&value)?);
            } else {
                println!(
                    "screening included {included} of {considered} works; check {} and then run `litrev resume {run}` to approve and continue (or pass --yes next time)",
                    screening_csv.display()
                );
            }
            Ok(EXIT_GATE)
        }
        Outcome::AwaitingDownloads {
            run,
            planned,
            unknown_hosts,
            downloads_csv,
        } => {
            if json {
                let value = serde_json::json!({
                    "status": "awaiting_approval",
                    "gate": "downloads",
                    "run": run.to_string(),
                    "planned_downloads": planned,
                    "unknown_hosts": unknown_hosts,
                    "downloads_csv": downloads_csv,
                });
                println!("{}", serde_json::to_string_pretty(&value)?);
            } else {
                let hosts = if unknown_hosts.is_empty() {
                    String::new()
                } else {
                    format!(
                        ", some from hosts that are not known publishers or repositories ({})",
                        unknown_hosts.join(", ")
                    )
                };
                println!(
                    "the full-text step would download the open-access copies of {planned} works{hosts}; check {} and then run `litrev resume {run}` to approve and continue (or pass --yes next time; --max-fulltext N downloads fewer)",
                    downloads_csv.display()
                );
            }
            Ok(EXIT_GATE)
        }
        Outcome::AwaitingPages {
            run,
            pages,
            unknown_hosts,
            pages_csv,
        } => {
            if json {
                let value = serde_json::json!({
                    "status": "awaiting_approval",
                    "gate": "pages",
                    "run": run.to_string(),
                    "pages": pages,
                    "unknown_hosts": unknown_hosts,
                    "pages_csv": pages_csv,
                });
                println!("{}", serde_json::to_string_pretty(&value)?);
            } else {
                println!(
                    "the run would fetch {pages} web page(s), some from hosts that are not known publishers or repositories ({}); check {} and then run `litrev resume {run}` to approve and continue (or pass --yes next time)",
                    unknown_hosts.join(", "),
                    pages_csv.display()
                );
            }
            Ok(EXIT_GATE)
        }
    }
}

/// An estimate as lines for a person: one per source, then the total.
fn estimate_lines(estimate: &litrev::model::Estimate) -> String {
    let mut lines = String::new();
    if estimate.sources.is_empty() {
        lines.push_str("estimate: no live source is asked (local snapshots cost no request)\n");
    }
    for source in &estimate.sources {
        lines.push_str(&format!(
            "estimate: {} {} requests, ${:.4}\n",
            source.source, source.requests, source.cost_usd
        ));
    }
    if !estimate.sources.is_empty() {
        lines.push_str(&format!(
            "estimate: {} requests in all (expected between {} and {}), ${:.4}, about {:.0} s waiting on the APIs\n",
            estimate.requests, estimate.requests_low, estimate.requests_high, estimate.cost_usd, estimate.api_seconds
        ));
    }
    if let Some(llm) = &estimate.llm {
        for phase in &llm.phases {
            lines.push_str(&format!(
                "estimate: {} at most {} calls, {} tokens in, {} out\n",
                phase.phase, phase.calls, phase.input_tokens, phase.output_tokens
            ));
        }
        let cost = llm.cost_usd.map_or_else(
            || "no known price (give --llm-price IN,OUT)".to_owned(),
            |cost| format!("at most ${cost:.2}"),
        );
        lines.push_str(&format!(
            "estimate: the model {} at most {} calls, {} tokens in, {} out: {cost}\n",
            llm.model, llm.calls, llm.input_tokens, llm.output_tokens
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::error_text;

    #[test]
    fn a_cause_already_in_its_error_is_not_repeated() {
        let io = std::io::Error::other("incomplete deflate stream");
        let error =
            anyhow::Error::new(io).context("cannot read `a.jsonl.gz`: incomplete deflate stream");
        assert_eq!(
            error_text(&error),
            "cannot read `a.jsonl.gz`: incomplete deflate stream"
        );
        let error =
            anyhow::Error::new(std::io::Error::other("disk full")).context("cannot write `b`");
        assert_eq!(error_text(&error), "cannot write `b`: disk full");
    }
}
