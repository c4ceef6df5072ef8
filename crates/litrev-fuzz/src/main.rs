//! The `litrev-fuzz` binary: runs the fuzz targets (each in a child process of itself), or one
//! target as that child (`worker`), or replays and minimises a saved failing input.
//!
//! ```text
//! litrev-fuzz [--cases N] [--seed S] [--jobs J] [TARGET…]   run targets (all by default)
//! litrev-fuzz list                                          targets and their parsers
//! litrev-fuzz replay TARGET FILE                            run one saved input
//! litrev-fuzz minimize TARGET FILE                          shrink it to FILE.min
//! litrev-fuzz worker TARGET                                 (internal) one target, settings from the environment
//! ```
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a command-line tool reports on its standard streams"
)]

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

use litrev_fuzz::harness::{self, Config, Outcome};
use litrev_fuzz::targets::{TARGETS, target};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("worker") => {
            let Some(name) = args.get(1) else {
                return usage("worker needs a target");
            };
            let stdout = std::io::stdout();
            let code = harness::worker(name, &mut stdout.lock());
            ExitCode::from(u8::try_from(code).unwrap_or(1))
        }
        Some("list") => {
            for target in TARGETS {
                println!("{:<22} {}", target.name, target.parsers);
            }
            ExitCode::SUCCESS
        }
        Some(command @ ("replay" | "minimize")) => {
            let (Some(name), Some(file)) = (args.get(1), args.get(2)) else {
                return usage("replay and minimize need a target and a file");
            };
            replay(command == "minimize", name, Path::new(file))
        }
        Some("-h" | "--help") => usage(""),
        _ => run(&args),
    }
}

fn usage(problem: &str) -> ExitCode {
    if !problem.is_empty() {
        eprintln!("litrev-fuzz: {problem}");
    }
    eprintln!(
        "usage: litrev-fuzz [--cases N] [--seed S] [--jobs J] [TARGET…] | list | replay TARGET FILE | minimize TARGET FILE"
    );
    ExitCode::from(2)
}

fn replay(minimize: bool, name: &str, file: &Path) -> ExitCode {
    let Some(target) = target(name) else {
        return usage(&format!("no target `{name}` (see `litrev-fuzz list`)"));
    };
    let input = match std::fs::read(file) {
        Ok(input) => input,
        Err(error) => return usage(&format!("{}: {error}", file.display())),
    };
    let outcome = harness::run_on_thread(target, &input);
    println!(
        "{name} on {} ({} bytes): {outcome:?}",
        file.display(),
        input.len()
    );
    if minimize && outcome != Outcome::Passed {
        let smaller = harness::minimize(target, &input, 20_000);
        let out = PathBuf::from(format!("{}.min", file.display()));
        if let Err(error) = std::fs::write(&out, &smaller) {
            return usage(&format!("{}: {error}", out.display()));
        }
        println!(
            "minimised to {} bytes: {}\n{:?}",
            smaller.len(),
            out.display(),
            String::from_utf8_lossy(&smaller)
        );
    }
    if outcome == Outcome::Passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn run(args: &[String]) -> ExitCode {
    let mut config = Config::from_env();
    let mut jobs = 1;
    let mut names = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let mut value = |flag: &str| words.next().cloned().ok_or(format!("{flag} needs a value"));
        let parsed = match word.as_str() {
            "--cases" => value("--cases")
                .and_then(|v| v.parse().map_err(|_| format!("bad --cases {v}")))
                .map(|cases| config.cases = cases),
            "--seed" => value("--seed")
                .and_then(|v| harness::parse_seed(&v).ok_or(format!("bad --seed {v}")))
                .map(|seed| config.seed = seed),
            "--jobs" => value("--jobs")
                .and_then(|v| v.parse().map_err(|_| format!("bad --jobs {v}")))
                .map(|count: usize| jobs = count.max(1)),
            name if target(name).is_some() => {
                names.push(name.to_owned());
                Ok(())
            }
            other => Err(format!("unknown argument or target `{other}`")),
        };
        if let Err(problem) = parsed {
            return usage(&problem);
        }
    }
    if names.is_empty() {
        names = TARGETS
            .iter()
            .map(|target| target.name.to_owned())
            .collect();
    }
    let Ok(exe) = std::env::current_exe() else {
        return usage("cannot find this program's own path");
    };
    println!(
        "fuzzing {} target(s), {} cases each, seed {} (replay with --seed {}), failures in {}",
        names.len(),
        config.cases,
        config.seed,
        config.seed,
        config.failures.display()
    );
    let queue = Mutex::new(names.into_iter());
    let failed = Mutex::new(0_usize);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                loop {
                    let next = queue.lock().ok().and_then(|mut queue| queue.next());
                    let Some(name) = next else { break };
                    match harness::supervise(&exe, &name, &config) {
                        Ok(Some(summary)) => println!(
                            "ok     {name:<22} {} cases from {} seeds in {:.1?}",
                            summary.cases, summary.seeds, summary.elapsed
                        ),
                        Ok(None) => println!("skip   {name:<22} (test data missing)"),
                        Err(report) => {
                            println!("FAILED {name}\n{report}");
                            if let Ok(mut failed) = failed.lock() {
                                *failed += 1;
                            }
                        }
                    }
                }
            });
        }
    });
    let failed = failed.into_inner().unwrap_or(1);
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        println!("{failed} target(s) failed");
        ExitCode::FAILURE
    }
}
