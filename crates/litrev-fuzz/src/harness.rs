//! Running a target: each case generated from the run's seed, run on a worker thread under
//! `catch_unwind` and a time limit, and the first failure written to
//! `target/fuzz-failures/<target>-<case>.bin` with a message naming the target, the seed file
//! and the panic.
//!
//! A stack overflow or an abort cannot be caught inside the process, so [`supervise`] runs a
//! target in a child process (the `litrev-fuzz worker` binary) that reports each case number
//! before running it; when the child dies, the case it died on is generated again from the
//! seed and saved like any other failure.

use std::cell::RefCell;
use std::io::{BufRead, BufReader, Read, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use crate::mutate::{Input, mutate};
use crate::rng::Rng;
use crate::seeds::Seed;
use crate::targets::{Target, target};

/// Cases per target when `LITREV_FUZZ_CASES` is not set: what `cargo test` runs.
pub const DEFAULT_CASES: u64 = 2_000;

/// The seed of the test command's runs (`LITREV_FUZZ_SEED` overrides it), fixed so CI is
/// reproducible.
pub const DEFAULT_SEED: u64 = 0x6c69_7472_6576;

/// The worker thread's stack: the 2 MiB every spawned thread gets, which is what the live
/// sources' parsers run on (`Federation` asks each source on its own thread).
pub const STACK_SIZE: usize = 2 << 20;

/// How a run goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Cases per target (the seeds themselves first, then mutations).
    pub cases: u64,
    /// The run's seed: with the target's name and the case number, it fixes every input.
    pub seed: u64,
    /// A case running longer than this is a hang.
    pub timeout: Duration,
    /// Where failing inputs are written.
    pub failures: PathBuf,
}

impl Config {
    /// The test command's settings, overridden by `LITREV_FUZZ_CASES`, `LITREV_FUZZ_SEED`
    /// (decimal or `0x` hex), `LITREV_FUZZ_TIMEOUT` (seconds) and `LITREV_FUZZ_FAILURES`.
    pub fn from_env() -> Config {
        let var = |name: &str| {
            std::env::var(name)
                .ok()
                .filter(|value| !value.trim().is_empty())
        };
        Config {
            cases: var("LITREV_FUZZ_CASES")
                .and_then(|value| value.trim().parse().ok())
                .unwrap_or(DEFAULT_CASES),
            seed: var("LITREV_FUZZ_SEED")
                .and_then(|value| parse_seed(&value))
                .unwrap_or(DEFAULT_SEED),
            timeout: Duration::from_secs_f64(
                var("LITREV_FUZZ_TIMEOUT")
                    .and_then(|value| value.trim().parse().ok())
                    .unwrap_or(5.0),
            ),
            failures: var("LITREV_FUZZ_FAILURES")
                .map(PathBuf::from)
                .unwrap_or_else(default_failures),
        }
    }

    /// The settings as the environment variables [`Config::from_env`] reads.
    pub fn to_env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("LITREV_FUZZ_CASES", self.cases.to_string()),
            ("LITREV_FUZZ_SEED", self.seed.to_string()),
            (
                "LITREV_FUZZ_TIMEOUT",
                self.timeout.as_secs_f64().to_string(),
            ),
            ("LITREV_FUZZ_FAILURES", self.failures.display().to_string()),
        ]
    }
}

/// A seed written in decimal or `0x` hex.
pub fn parse_seed(text: &str) -> Option<u64> {
    let text = text.trim();
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

/// `target/fuzz-failures` of the workspace (or of `CARGO_TARGET_DIR`).
fn default_failures() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    target
        .canonicalize()
        .unwrap_or(target)
        .join("fuzz-failures")
}

/// A target with its seeds loaded.
#[derive(Debug, Clone)]
pub struct Corpus {
    /// The target.
    pub target: &'static Target,
    /// Its seeds, in a fixed order.
    pub seeds: Vec<Seed>,
}

impl Corpus {
    /// Loads the seeds of the target named `name` from the data folder.
    ///
    /// # Errors
    /// When no target has that name, or its seed files are missing or unreadable.
    pub fn load(name: &str, data: &Path) -> Result<Corpus, String> {
        let target = target(name).ok_or_else(|| format!("no fuzz target is called `{name}`"))?;
        let seeds = (target.seeds)(data)
            .map_err(|error| format!("the seeds of `{name}` cannot be read: {error}"))?;
        if seeds.is_empty() {
            return Err(format!("`{name}` has no seeds in {}", data.display()));
        }
        Ok(Corpus { target, seeds })
    }

    /// The input of case `case` and the index of the seed it came from: the seeds as they are
    /// first, then mutations of them.
    pub fn case(&self, run_seed: u64, case: u64) -> (usize, Vec<u8>) {
        let count = self.seeds.len();
        let (index, bytes) = match usize::try_from(case) {
            Ok(index) if index < count => (index, self.seeds[index].bytes.clone()),
            _ => {
                let mut rng = Rng::for_case(run_seed, self.target.name, case);
                let index = rng.below(count);
                let partner = rng.below(count);
                let bytes = mutate(
                    &mut rng,
                    &self.seeds[index].bytes,
                    &self.seeds[partner].bytes,
                    self.target.format,
                    self.target.input,
                );
                (index, bytes)
            }
        };
        let bytes = match self.target.input {
            Input::Text => String::from_utf8_lossy(&bytes).into_owned().into_bytes(),
            Input::Bytes => bytes,
        };
        (index, bytes)
    }
}

/// How one case ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The parser returned and every invariant held.
    Passed,
    /// An invariant failed.
    Violated(String),
    /// The parser panicked.
    Panicked(String),
    /// The parser ran past the time limit.
    Hung(Duration),
}

/// What a run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// Cases run.
    pub cases: u64,
    /// Seeds of the target.
    pub seeds: usize,
    /// Wall time of the run.
    pub elapsed: Duration,
}

thread_local! {
    /// The last panic of this thread, as the panic hook saw it (message, place, backtrace).
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs (once) a panic hook that keeps the panic of a fuzz worker for its report instead
/// of printing it; other threads' panics are printed as before.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let is_worker = std::thread::current()
                .name()
                .is_some_and(|name| name.starts_with("fuzz-"));
            if is_worker {
                let backtrace = std::backtrace::Backtrace::capture();
                let text = match backtrace.status() {
                    std::backtrace::BacktraceStatus::Captured => format!("{info}\n{backtrace}"),
                    _ => info.to_string(),
                };
                LAST_PANIC.with(|last| *last.borrow_mut() = Some(text));
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs a target's function once, on this thread, catching a panic.
pub fn run_once(target: &Target, input: &[u8]) -> Outcome {
    install_panic_hook();
    match catch_unwind(AssertUnwindSafe(|| (target.run)(input))) {
        Ok(Ok(())) => Outcome::Passed,
        Ok(Err(violation)) => Outcome::Violated(violation),
        Err(payload) => {
            let message = LAST_PANIC
                .with(|last| last.borrow_mut().take())
                .or_else(|| {
                    payload
                        .downcast_ref::<&str>()
                        .map(|text| (*text).to_owned())
                })
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_owned());
            Outcome::Panicked(message)
        }
    }
}

/// A failing case, saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The target.
    pub target: &'static str,
    /// The case number.
    pub case: u64,
    /// Where the input's seed came from, and whether it was mutated.
    pub seed_origin: String,
    /// What went wrong.
    pub outcome: Outcome,
    /// Where the input was written (`None` when it could not be).
    pub input: Option<PathBuf>,
    /// The run's seed.
    pub run_seed: u64,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match &self.outcome {
            Outcome::Passed => "passed".to_owned(),
            Outcome::Violated(message) => format!("broke an invariant: {}", shorten(message)),
            Outcome::Panicked(message) => format!("panicked: {message}"),
            Outcome::Hung(limit) => format!("ran longer than {limit:?} (a hang)"),
        };
        let parsers = target(self.target).map_or("", |target| target.parsers);
        writeln!(
            f,
            "fuzz target `{}` ({parsers}) failed on case {} (LITREV_FUZZ_SEED={}):",
            self.target, self.case, self.run_seed
        )?;
        writeln!(f, "  seed: {}", self.seed_origin)?;
        match &self.input {
            Some(path) => writeln!(
                f,
                "  input: {} (replay: cargo run -p litrev-fuzz -- replay {} {})",
                path.display(),
                self.target,
                path.display()
            )?,
            None => writeln!(f, "  input: could not be written")?,
        }
        write!(f, "  {what}")
    }
}

/// A message cut to its first 1,500 characters (a broken invariant may quote a whole input).
fn shorten(message: &str) -> String {
    match message.char_indices().nth(1_500) {
        Some((at, _)) => format!("{}… ({} more bytes)", &message[..at], message.len() - at),
        None => message.to_owned(),
    }
}

/// Writes a failing input to `<failures>/<target>-<case>.bin`.
fn save(config: &Config, target: &str, case: u64, input: &[u8]) -> Option<PathBuf> {
    std::fs::create_dir_all(&config.failures).ok()?;
    let path = config.failures.join(format!("{target}-{case}.bin"));
    std::fs::write(&path, input).ok()?;
    Some(path)
}

fn origin(corpus: &Corpus, index: usize, case: u64) -> String {
    let seed = &corpus.seeds[index];
    if (case as usize) < corpus.seeds.len() {
        format!("{} (as is)", seed.origin)
    } else {
        format!("{} (mutated)", seed.origin)
    }
}

/// Runs `config.cases` cases of a target in this process, calling `before_case` with each case
/// number before it runs; stops at the first failure.
///
/// # Errors
/// The first failing case, its input saved under `config.failures`.
pub fn fuzz(
    corpus: &Corpus,
    config: &Config,
    before_case: &mut dyn FnMut(u64),
) -> Result<Summary, Failure> {
    let started = Instant::now();
    let (jobs, job_receiver) = mpsc::channel::<Arc<Vec<u8>>>();
    let (results_sender, results) = mpsc::channel::<Outcome>();
    let target = corpus.target;
    let worker = std::thread::Builder::new()
        .name(format!("fuzz-{}", target.name))
        .stack_size(STACK_SIZE)
        .spawn(move || {
            for input in job_receiver {
                if results_sender.send(run_once(target, &input)).is_err() {
                    break;
                }
            }
        });
    let fail = |case: u64, index: usize, outcome: Outcome, input: &[u8]| Failure {
        target: target.name,
        case,
        seed_origin: origin(corpus, index, case),
        outcome,
        input: save(config, target.name, case, input),
        run_seed: config.seed,
    };
    if let Err(error) = worker {
        return Err(fail(
            0,
            0,
            Outcome::Panicked(format!("the worker thread did not start: {error}")),
            &[],
        ));
    }
    let cases = (config.cases / target.cost.max(1)).max(corpus.seeds.len() as u64);
    for case in 0..cases {
        let (index, input) = corpus.case(config.seed, case);
        let input = Arc::new(input);
        before_case(case);
        let outcome = match jobs.send(Arc::clone(&input)) {
            Ok(()) => match results.recv_timeout(config.timeout) {
                Ok(outcome) => outcome,
                Err(mpsc::RecvTimeoutError::Timeout) => Outcome::Hung(config.timeout),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    Outcome::Panicked("the worker thread died".to_owned())
                }
            },
            Err(_) => Outcome::Panicked("the worker thread died".to_owned()),
        };
        if outcome != Outcome::Passed {
            // A hung worker is left behind: the process ends soon after.
            return Err(fail(case, index, outcome, &input));
        }
    }
    Ok(Summary {
        cases,
        seeds: corpus.seeds.len(),
        elapsed: started.elapsed(),
    })
}

/// What a child process reports on its standard output, one line each.
pub mod protocol {
    /// Seeds loaded: `seeds <count>`.
    pub const SEEDS: &str = "seeds";
    /// Before each case: `case <number>`.
    pub const CASE: &str = "case";
    /// At the end: `done <cases> <seeds> <milliseconds>`.
    pub const DONE: &str = "done";
    /// The data folder is missing (outside CI): `skipped`.
    pub const SKIPPED: &str = "skipped";
    /// A failure: `failed`, then its message on the following lines.
    pub const FAILED: &str = "failed";
}

/// Runs the worker side of [`supervise`] in this process: loads the target's seeds from the
/// data folder, runs it, and writes the protocol lines to `out`. Returns the exit code.
pub fn worker(name: &str, out: &mut dyn Write) -> i32 {
    let config = Config::from_env();
    // Under CI a missing folder panics here, failing the test.
    let Some(data) = litrev_testkit::testdata() else {
        let _ = writeln!(out, "{}", protocol::SKIPPED);
        return 0;
    };
    let corpus = match Corpus::load(name, &data) {
        Ok(corpus) => corpus,
        Err(error) => {
            let _ = writeln!(out, "{}\n{error}", protocol::FAILED);
            return 1;
        }
    };
    let _ = writeln!(out, "{} {}", protocol::SEEDS, corpus.seeds.len());
    let result = fuzz(&corpus, &config, &mut |case| {
        let _ = writeln!(out, "{} {case}", protocol::CASE);
    });
    match result {
        Ok(summary) => {
            let _ = writeln!(
                out,
                "{} {} {} {}",
                protocol::DONE,
                summary.cases,
                summary.seeds,
                summary.elapsed.as_millis()
            );
            0
        }
        Err(failure) => {
            let _ = writeln!(out, "{}\n{failure}", protocol::FAILED);
            let _ = out.flush();
            // A hung worker thread would keep the process alive: leave at once.
            if matches!(failure.outcome, Outcome::Hung(_)) {
                std::process::exit(3);
            }
            1
        }
    }
}

/// Runs a target in a child process (`exe worker <name>`, `exe` being the `litrev-fuzz`
/// binary) so a stack overflow or abort is caught as well as a panic or a hang.
///
/// # Errors
/// The failure's report, with the failing input saved; or why the child could not run.
pub fn supervise(exe: &Path, name: &str, config: &Config) -> Result<Option<Summary>, String> {
    let started = Instant::now();
    let mut child = Command::new(exe)
        .args(["worker", name])
        .envs(config.to_env())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| format!("{} does not run: {error}", exe.display()))?;
    let mut stderr = child.stderr.take();
    let stderr_reader = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(stderr) = stderr.as_mut() {
            let _ = stderr.read_to_string(&mut text);
        }
        text
    });
    let mut last_case = None;
    let mut report = Vec::new();
    let mut done = None;
    let mut skipped = false;
    if let Some(stdout) = child.stdout.take() {
        let mut failed = false;
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if failed {
                report.push(line);
                continue;
            }
            let mut words = line.split_whitespace();
            match words.next() {
                Some(protocol::CASE) => last_case = words.next().and_then(|case| case.parse().ok()),
                Some(protocol::DONE) => {
                    let numbers: Vec<u64> = words.filter_map(|word| word.parse().ok()).collect();
                    if let [cases, seeds, millis] = numbers[..] {
                        done = Some(Summary {
                            cases,
                            seeds: seeds as usize,
                            elapsed: Duration::from_millis(millis),
                        });
                    }
                }
                Some(protocol::SKIPPED) => skipped = true,
                Some(protocol::FAILED) => failed = true,
                _ => {}
            }
        }
    }
    let status = child
        .wait()
        .map_err(|error| format!("waiting for the fuzz worker: {error}"))?;
    let stderr = stderr_reader.join().unwrap_or_default();
    if !report.is_empty() {
        return Err(report.join("\n"));
    }
    if status.success() && skipped {
        return Ok(None);
    }
    if status.success()
        && let Some(summary) = done
    {
        return Ok(Some(Summary {
            elapsed: started.elapsed(),
            ..summary
        }));
    }
    // The child died without a report: a stack overflow, an abort, running out of memory.
    let tail: Vec<&str> = stderr.lines().rev().take(12).collect();
    let tail: Vec<&str> = tail.into_iter().rev().collect();
    let Some(case) = last_case else {
        return Err(format!(
            "fuzz target `{name}`: the worker ended ({status}) before its first case:\n{}",
            tail.join("\n")
        ));
    };
    let saved = litrev_testkit::testdata()
        .ok_or_else(|| "the data folder went away".to_owned())
        .and_then(|data| Corpus::load(name, &data))
        .map(|corpus| {
            let (index, input) = corpus.case(config.seed, case);
            Failure {
                target: corpus.target.name,
                case,
                seed_origin: origin(&corpus, index, case),
                outcome: Outcome::Panicked(format!(
                    "the process died ({status}), e.g. of a stack overflow or an abort:\n{}",
                    tail.join("\n")
                )),
                input: save(config, corpus.target.name, case, &input),
                run_seed: config.seed,
            }
        });
    Err(match saved {
        Ok(failure) => failure.to_string(),
        Err(error) => format!(
            "fuzz target `{name}` died ({status}) on case {case}; its input could not be saved: {error}\n{}",
            tail.join("\n")
        ),
    })
}

/// The first line of an outcome (`panicked at file:line:column:` for a panic): two failures
/// with the same signature are taken to be the same bug.
fn signature(outcome: &Outcome) -> Option<String> {
    let first = |text: &str| text.lines().next().unwrap_or("").to_owned();
    match outcome {
        Outcome::Passed | Outcome::Hung(_) => None,
        Outcome::Violated(message) => Some(format!(
            "violated: {}",
            first(message).chars().take(40).collect::<String>()
        )),
        Outcome::Panicked(message) => Some(format!("panicked: {}", first(message))),
    }
}

/// The input made smaller while it fails the same way (same panic place, or same invariant),
/// by removing ever smaller chunks; for panics and broken invariants (not hangs or crashes).
pub fn minimize(target: &'static Target, input: &[u8], max_runs: usize) -> Vec<u8> {
    let expected = signature(&run_on_thread(target, input));
    if expected.is_none() {
        return input.to_vec();
    }
    let mut best = input.to_vec();
    let mut runs = 0;
    let mut chunk = best.len() / 2;
    while chunk >= 1 && runs < max_runs {
        let mut start = 0;
        while start < best.len() && runs < max_runs {
            let mut candidate = best.clone();
            candidate.drain(start..(start + chunk).min(best.len()));
            if target.input == Input::Text {
                candidate = String::from_utf8_lossy(&candidate)
                    .into_owned()
                    .into_bytes();
            }
            runs += 1;
            if candidate.len() < best.len()
                && signature(&run_on_thread(target, &candidate)) == expected
            {
                best = candidate;
            } else {
                start += chunk;
            }
        }
        chunk /= 2;
    }
    best
}

/// [`run_once`] on a fresh worker thread (with the worker's stack and name).
pub fn run_on_thread(target: &'static Target, input: &[u8]) -> Outcome {
    let input = input.to_vec();
    std::thread::Builder::new()
        .name(format!("fuzz-{}", target.name))
        .stack_size(STACK_SIZE)
        .spawn(move || run_once(target, &input))
        .ok()
        .and_then(|handle| handle.join().ok())
        .unwrap_or_else(|| Outcome::Panicked("the worker thread died".to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutate::Format;

    fn fails_on_bad(input: &[u8]) -> crate::check::Checked {
        let text = String::from_utf8_lossy(input);
        if text.contains("bad") {
            return Err("found bad".to_owned());
        }
        assert!(!text.contains("boom"), "exploded on boom");
        if text.contains("slow") {
            std::thread::sleep(Duration::from_secs(3));
        }
        Ok(())
    }

    fn no_seeds(_: &Path) -> crate::seeds::Seeds {
        Ok(Vec::new())
    }

    static FAKE: Target = Target {
        name: "fake",
        parsers: "a test double",
        format: Format::Text,
        input: Input::Text,
        seeds: no_seeds,
        run: fails_on_bad,
        cost: 1,
    };

    fn corpus(seeds: &[&str]) -> Corpus {
        Corpus {
            target: &FAKE,
            seeds: seeds.iter().map(|seed| Seed::new("test", *seed)).collect(),
        }
    }

    fn config(cases: u64) -> (Config, tempfile::TempDir) {
        let folder = tempfile::tempdir().expect("temp dir");
        let config = Config {
            cases,
            seed: 1,
            // Well under the 3 s the "slow" input sleeps, and well over what a panic with its
            // backtrace takes on a loaded machine (500 ms was not: a CI run saw a panicking
            // case reported as a hang).
            timeout: Duration::from_secs(2),
            failures: folder.path().to_owned(),
        };
        (config, folder)
    }

    #[test]
    fn panics_violations_and_hangs_are_saved_with_their_seed() {
        let (config, _folder) = config(10);
        let summary = fuzz(&corpus(&["fine", "also fine"]), &config, &mut |_| {}).expect("passes");
        assert_eq!((summary.cases, summary.seeds), (10, 2));

        for (seed, expected) in [
            ("a bad seed", "broke an invariant: found bad"),
            ("boom", "panicked: "),
            ("slow", "a hang"),
        ] {
            let failure = fuzz(&corpus(&["fine", seed]), &config, &mut |_| {}).expect_err(seed);
            assert_eq!(failure.case, 1, "{seed}");
            let report = failure.to_string();
            assert!(report.contains(expected), "{report}");
            assert!(report.contains("seed: test (as is)"), "{report}");
            let saved = failure.input.expect("saved");
            assert_eq!(std::fs::read(&saved).expect("saved input"), seed.as_bytes());
            assert!(saved.ends_with("fake-1.bin"), "{}", saved.display());
        }
        let failure = fuzz(&corpus(&["boom"]), &config, &mut |_| {}).expect_err("boom");
        assert!(
            failure.to_string().contains("exploded on boom"),
            "{failure}"
        );
    }

    #[test]
    fn cases_are_the_seeds_then_reproducible_mutations() {
        let corpus = corpus(&["one", "two"]);
        assert_eq!(corpus.case(5, 0), (0, b"one".to_vec()));
        assert_eq!(corpus.case(5, 1), (1, b"two".to_vec()));
        assert_eq!(corpus.case(5, 7), corpus.case(5, 7));
        let inputs: std::collections::BTreeSet<Vec<u8>> =
            (2..50).map(|case| corpus.case(5, case).1).collect();
        assert!(inputs.len() > 10, "{inputs:?}");
    }

    #[test]
    fn minimizing_keeps_the_failure() {
        let smaller = minimize(&FAKE, b"a long input with bad in its middle", 1_000);
        assert_eq!(smaller, b"bad");
        assert_eq!(minimize(&FAKE, b"passes", 1_000), b"passes");
    }

    #[test]
    fn seeds_are_read_in_decimal_or_hex() {
        assert_eq!(parse_seed("0x10"), Some(16));
        assert_eq!(parse_seed(" 42 "), Some(42));
        assert_eq!(parse_seed("x"), None);
    }
}
