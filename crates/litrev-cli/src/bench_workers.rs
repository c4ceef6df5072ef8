//! `litrev bench workers`: K queued runs driven by N `litrev worker` processes on one store,
//! one of them killed with SIGKILL at a random point, against the same runs on one worker.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use litrev::model::{RunId, RunStatus, Tier};
use litrev::{Home, RunOptions, Runner, SourceSpec};

use crate::args::WorkersBenchArgs;

/// What one round of workers did.
struct Round {
    wall: Duration,
    finished: usize,
    takeovers: usize,
    /// Runs a live worker lost to another (its lease ran out while it worked).
    lost: usize,
    duplicate_steps: usize,
}

/// Runs the benchmark and prints its lines; exit code 2 when a run did not finish or a step
/// was committed twice.
pub fn workers(
    home: &Home,
    args: &WorkersBenchArgs,
    default_works: Vec<PathBuf>,
) -> anyhow::Result<u8> {
    let works = if args.works.is_empty() {
        default_works
    } else {
        args.works.clone()
    };
    if works.is_empty() {
        bail!(
            "no works file: pass --works FILE…, or set LITREV_TESTDATA to the shared data folder"
        );
    }
    if args.runs == 0 || args.workers < 2 {
        bail!("--runs counts at least one run and --workers at least two (one of them is killed)");
    }
    let scratch = std::env::temp_dir().join(format!("litrev-bench-workers-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)
        .with_context(|| format!("cannot create {}", scratch.display()))?;
    println!(
        "litrev bench workers: {} runs (quick tier, {} works files) on {}",
        args.runs,
        works.len(),
        home.store_location(Some(&args.db)).display()
    );
    let alone = round(home, args, &works, &scratch.join("one"), 1, None)?;
    println!(
        "1 worker: {} of {} runs finished in {:.1} s",
        alone.finished,
        args.runs,
        alone.wall.as_secs_f64()
    );
    // The kill falls somewhere in the first half of the time the team should need.
    let fraction = 0.1 + litrev::bench::SplitMix64::new(args.seed).next_f64() * 0.4;
    let kill_after = alone.wall.mul_f64(fraction / args.workers as f64);
    let team = round(
        home,
        args,
        &works,
        &scratch.join("team"),
        args.workers,
        Some(kill_after),
    )?;
    println!(
        "{} workers, one killed (SIGKILL) after {:.1} s and replaced: {} of {} runs finished, {} takeovers, {} runs lost by a live worker, {} duplicate steps, {:.1} s",
        args.workers,
        kill_after.as_secs_f64(),
        team.finished,
        args.runs,
        team.takeovers,
        team.lost,
        team.duplicate_steps,
        team.wall.as_secs_f64()
    );
    println!(
        "wall time: {:.2}x one worker's",
        team.wall.as_secs_f64() / alone.wall.as_secs_f64().max(1e-9)
    );
    let _ = std::fs::remove_dir_all(&scratch);
    let sound = alone.finished == args.runs
        && team.finished == args.runs
        && alone.duplicate_steps + team.duplicate_steps == 0;
    Ok(if sound { 0 } else { 2 })
}

/// Queues the runs, starts `workers` workers (killing the first after `kill_after`, then
/// starting one more), and waits for them all.
fn round(
    home: &Home,
    args: &WorkersBenchArgs,
    works: &[PathBuf],
    folder: &Path,
    workers: usize,
    kill_after: Option<Duration>,
) -> anyhow::Result<Round> {
    let mut runner = Runner::open(home.clone(), Some(&args.db))?;
    let mut runs = Vec::new();
    for index in 0..args.runs {
        let file = &works[index % works.len()];
        runs.push(runner.create(&RunOptions::approved(
            &question_of(file),
            vec![SourceSpec::Snapshot {
                paths: vec![file.clone()],
            }],
            Tier::Quick,
            folder.join(format!("run-{index}")),
        ))?);
    }
    let started = Instant::now();
    let mut children: Vec<Child> = (0..workers)
        .map(|index| spawn_worker(home, args, &format!("bench-{index}")))
        .collect::<anyhow::Result<_>>()?;
    if let Some(after) = kill_after {
        std::thread::sleep(after);
        let doomed = &mut children[0];
        doomed.kill().context("cannot kill the first worker")?;
        doomed.wait().context("cannot reap the first worker")?;
        children.push(spawn_worker(home, args, "bench-replacement")?);
    }
    let mut takeovers = 0;
    let mut lost = 0;
    for (index, child) in children.into_iter().enumerate() {
        let output = child.wait_with_output().context("a worker did not exit")?;
        if kill_after.is_some() && index == 0 {
            continue;
        }
        let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect();
        lost += lines
            .iter()
            .filter(|line| {
                line["outcome"]
                    .as_str()
                    .is_some_and(|outcome| outcome.starts_with("lost"))
            })
            .count();
        for line in lines
            .iter()
            .filter(|line| !line["taken_over_from"].is_null())
        {
            takeovers += 1;
            println!(
                "  takeover: run {} from {} by {}: {}",
                line["run"].as_str().unwrap_or_default(),
                line["taken_over_from"].as_str().unwrap_or_default(),
                line["worker"].as_str().unwrap_or_default(),
                line["outcome"].as_str().unwrap_or_default()
            );
        }
    }
    let wall = started.elapsed();
    let mut finished = 0;
    let mut duplicate_steps = 0;
    for run in &runs {
        if runner.run_summary(run)?.status == RunStatus::Done {
            finished += 1;
        }
        duplicate_steps += duplicates(&runner, run)?;
    }
    Ok(Round {
        wall,
        finished,
        takeovers,
        lost,
        duplicate_steps,
    })
}

/// Steps of a run committed more than once.
fn duplicates(runner: &Runner, run: &RunId) -> anyhow::Result<usize> {
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for (step, _) in runner.step_commits(run)? {
        *seen.entry(step).or_default() += 1;
    }
    Ok(seen.values().filter(|count| **count > 1).count())
}

fn spawn_worker(home: &Home, args: &WorkersBenchArgs, name: &str) -> anyhow::Result<Child> {
    let exe = std::env::current_exe().context("cannot find the litrev binary")?;
    Command::new(exe)
        .args(["worker", "--once", "--json", "--name", name, "--lease"])
        .arg(args.lease.to_string())
        .arg("--db")
        .arg(&args.db)
        .env("LITREV_HOME", home.root())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .context("cannot start a worker")
}

/// The review question of a SYNERGY works file: its review's title when `review_papers/` is
/// beside it, else the file's name.
fn question_of(file: &Path) -> String {
    let stem = litrev::bench::file_stem(file);
    litrev::bench::review_title(file, &stem).unwrap_or(stem)
}
