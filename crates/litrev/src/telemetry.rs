//! What each step cost: wall and CPU time, peak memory, API calls and LLM tokens and dollars.
//!
//! A [`Meter`] starts when a step starts and is read when the step commits; the reading is
//! stored with the step, so a resumed run still reports the steps an earlier process ran.
//! CPU time and peak memory come from `/proc/self` (Linux); elsewhere they are left out.

use std::time::Instant;

use litrev_llm::PhaseUsage;
use serde::{Deserialize, Serialize};

use crate::record::SourceCalls;

/// Clock ticks per second of `/proc/self/stat` (`USER_HZ`, 100 on every Linux architecture
/// litrev builds for).
const USER_HZ: f64 = 100.0;

/// What one step cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepTelemetry {
    /// The step's key (`organise`, `snowball.2`…).
    pub step: String,
    /// Wall-clock seconds from the step's start to its commit.
    pub wall_seconds: f64,
    /// CPU seconds of the process over the step, every thread counted (Linux only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_seconds: Option<f64>,
    /// The process's peak resident memory during the step, in bytes (Linux only). The process
    /// is shared by the runs a server drives at once, so there it bounds the step's own use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_rss_bytes: Option<u64>,
    /// Calls to each live API during the step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<SourceCalls>,
    /// Tokens and dollars of the language model's calls during the step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub llm: Vec<PhaseUsage>,
}

impl StepTelemetry {
    /// Network requests to APIs, retries included.
    pub fn requests(&self) -> u64 {
        self.calls.iter().map(|calls| calls.requests).sum()
    }

    /// Requests answered by the disk cache.
    pub fn cache_hits(&self) -> u64 {
        self.calls.iter().map(|calls| calls.cache_hits).sum()
    }

    /// Input and output tokens of the language model's calls.
    pub fn llm_tokens(&self) -> (u64, u64) {
        self.llm.iter().fold((0, 0), |(input, output), usage| {
            (input + usage.input_tokens, output + usage.output_tokens)
        })
    }

    /// Dollars spent on APIs and on the language model.
    pub fn cost_usd(&self) -> f64 {
        // A fold from +0: an empty float sum is -0, which prints as "-0.0000".
        self.calls
            .iter()
            .map(|calls| calls.cost_usd)
            .chain(self.llm.iter().map(|usage| usage.cost_usd))
            .fold(0.0, |sum, cost| sum + cost)
    }
}

/// The `telemetry` section of `run.json`: each step, and the sums over them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Telemetry {
    /// Each step that ran, in the order it committed (over every process that drove the run).
    pub steps: Vec<StepTelemetry>,
    /// Wall-clock seconds over the steps (time waiting at the gate not counted).
    pub wall_seconds: f64,
    /// CPU seconds over the steps that measured it.
    pub cpu_seconds: f64,
    /// The highest of the steps' peak memory, in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_rss_bytes: Option<u64>,
    /// API requests over the steps.
    pub requests: u64,
    /// Requests the disk cache answered.
    pub cache_hits: u64,
    /// Dollars over the steps, APIs and language model.
    pub cost_usd: f64,
}

impl Telemetry {
    /// The section for `steps`.
    pub fn of(steps: Vec<StepTelemetry>) -> Telemetry {
        Telemetry {
            wall_seconds: steps
                .iter()
                .map(|step| step.wall_seconds)
                .fold(0.0, |sum, seconds| sum + seconds),
            cpu_seconds: steps
                .iter()
                .filter_map(|step| step.cpu_seconds)
                .fold(0.0, |sum, seconds| sum + seconds),
            peak_rss_bytes: steps.iter().filter_map(|step| step.peak_rss_bytes).max(),
            requests: steps.iter().map(StepTelemetry::requests).sum(),
            cache_hits: steps.iter().map(StepTelemetry::cache_hits).sum(),
            cost_usd: steps
                .iter()
                .map(StepTelemetry::cost_usd)
                .fold(0.0, |sum, cost| sum + cost),
            steps,
        }
    }

    /// The per-step table people read: one line per step and a total line.
    pub fn table(&self) -> String {
        let mut lines = vec![format!(
            "{:<12} {:>9} {:>9} {:>9} {:>8} {:>8} {:>15} {:>9}",
            "step",
            "wall s",
            "cpu s",
            "peak MB",
            "requests",
            "cached",
            "LLM tokens in/out",
            "cost $"
        )];
        let row = |name: &str,
                   wall: f64,
                   cpu: Option<f64>,
                   peak: Option<u64>,
                   requests: u64,
                   cached: u64,
                   tokens: (u64, u64),
                   cost: f64| {
            format!(
                "{:<12} {:>9.2} {:>9} {:>9} {:>8} {:>8} {:>17} {:>9.4}",
                name,
                wall,
                cpu.map_or_else(|| "-".to_owned(), |cpu| format!("{cpu:.2}")),
                peak.map_or_else(
                    || "-".to_owned(),
                    |bytes| format!("{:.0}", bytes as f64 / 1e6)
                ),
                requests,
                cached,
                format!("{}/{}", tokens.0, tokens.1),
                cost
            )
        };
        for step in &self.steps {
            lines.push(row(
                &step.step,
                step.wall_seconds,
                step.cpu_seconds,
                step.peak_rss_bytes,
                step.requests(),
                step.cache_hits(),
                step.llm_tokens(),
                step.cost_usd(),
            ));
        }
        let tokens = self
            .steps
            .iter()
            .map(StepTelemetry::llm_tokens)
            .fold((0, 0), |(input, output), (more_in, more_out)| {
                (input + more_in, output + more_out)
            });
        lines.push(row(
            "total",
            self.wall_seconds,
            Some(self.cpu_seconds),
            self.peak_rss_bytes,
            self.requests,
            self.cache_hits,
            tokens,
            self.cost_usd,
        ));
        lines.join("\n")
    }
}

/// Measures one step from its start.
#[derive(Debug)]
pub(crate) struct Meter {
    started: Instant,
    cpu: Option<f64>,
    calls: Vec<litrev_http::SourceSummary>,
}

impl Meter {
    /// Starts measuring now; `calls` is the HTTP layer's cumulative summary at the start.
    pub(crate) fn start(calls: Vec<litrev_http::SourceSummary>) -> Meter {
        reset_peak_memory();
        Meter {
            started: Instant::now(),
            cpu: cpu_seconds(),
            calls,
        }
    }

    /// What the step cost up to now; `calls` is the HTTP layer's summary now, `llm` what the
    /// step's language-model calls cost.
    pub(crate) fn read(
        &self,
        step: &str,
        calls: &[litrev_http::SourceSummary],
        llm: Vec<PhaseUsage>,
    ) -> StepTelemetry {
        StepTelemetry {
            step: step.to_owned(),
            wall_seconds: self.started.elapsed().as_secs_f64(),
            cpu_seconds: self
                .cpu
                .zip(cpu_seconds())
                // Whole ticks: the difference of two tick counts, without float noise.
                .map(|(before, now)| ((now - before) * USER_HZ).round().max(0.0) / USER_HZ),
            peak_rss_bytes: peak_memory(),
            calls: SourceCalls::between(&self.calls, calls),
            llm: llm
                .into_iter()
                .filter(|usage| usage.calls + usage.cache_hits > 0)
                .collect(),
        }
    }
}

/// User plus system CPU seconds of the whole process so far, from `/proc/self/stat`.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name in field 2 may hold spaces; the fields after it are plain numbers.
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // Fields 14 and 15 of the file (utime, stime) are the 12th and 13th after the name.
    let user: f64 = fields.get(11)?.parse().ok()?;
    let system: f64 = fields.get(12)?.parse().ok()?;
    Some((user + system) / USER_HZ)
}

/// Resets the kernel's peak-resident-memory mark of this process, so the next reading is the
/// peak since now (Linux ≥ 4.0; a no-op where it cannot).
fn reset_peak_memory() {
    // Best effort: without the reset the reading is the process's peak so far, still an upper
    // bound of the step's.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The peak resident memory since the last reset, in bytes, from `/proc/self/status`.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kilobytes: u64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kilobytes * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_that_allocates_and_computes_shows_its_cpu_time_and_memory() {
        let meter = Meter::start(Vec::new());
        // Touch 64 MB so the resident peak must reach it, and spin for CPU time.
        let block = vec![1_u8; 64 << 20];
        let mut sum = 0_u64;
        let until = Instant::now() + std::time::Duration::from_millis(150);
        while Instant::now() < until {
            sum = sum.wrapping_add(block.iter().step_by(4096).map(|&b| u64::from(b)).sum());
        }
        let reading = meter.read("organise", &[], Vec::new());
        assert!(sum > 0);
        assert_eq!(reading.step, "organise");
        assert!(reading.wall_seconds >= 0.15, "{reading:?}");
        if cfg!(target_os = "linux") {
            let cpu = reading.cpu_seconds.unwrap_or_default();
            assert!(cpu >= 0.05, "{reading:?}");
            let peak = reading.peak_rss_bytes.unwrap_or_default();
            assert!(peak >= 64 << 20, "{reading:?}");
        }
    }

    #[test]
    fn the_section_sums_its_steps_and_the_table_has_a_line_each() {
        let step = |name: &str, wall: f64, requests: u64| StepTelemetry {
            step: name.to_owned(),
            wall_seconds: wall,
            cpu_seconds: Some(wall / 2.0),
            peak_rss_bytes: Some((wall * 1e8) as u64),
            calls: vec![SourceCalls {
                source: "openalex".to_owned(),
                requests,
                cache_hits: 1,
                cost_usd: 0.01,
                ..SourceCalls::default()
            }],
            llm: Vec::new(),
        };
        let telemetry = Telemetry::of(vec![step("discover", 2.0, 10), step("organise", 1.0, 0)]);
        assert_eq!(telemetry.wall_seconds, 3.0);
        assert_eq!(telemetry.cpu_seconds, 1.5);
        assert_eq!(telemetry.peak_rss_bytes, Some(200_000_000));
        assert_eq!(telemetry.requests, 10);
        assert_eq!(telemetry.cache_hits, 2);
        assert!((telemetry.cost_usd - 0.02).abs() < 1e-12);
        let table = telemetry.table();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4, "{table}");
        assert!(lines[1].starts_with("discover"), "{table}");
        assert!(lines[3].starts_with("total"), "{table}");
        assert!(lines[3].contains("3.00"), "{table}");
    }
}
