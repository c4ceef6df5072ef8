//! The bounded pool that drives runs: N worker threads, each with its own runner on the
//! shared store, taking jobs in the order they came; a job waiting shows its position.
//! Every event a job's run emits is stored in the run's stream and announced to the SSE
//! streams.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use litrev::model::RunId;
use litrev::{Event, EventLog, Home, Outcome, Runner};

/// Progress events of one step closer together than this are not stored (the last is kept
/// when the step finishes, so a bar still ends full).
const PROGRESS_INTERVAL: Duration = Duration::from_millis(200);

/// What a worker does with a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Job {
    /// Drive a new run as far as it goes.
    Start(RunId),
    /// Continue a run after its gate was approved.
    Approve(RunId),
}

impl Job {
    fn run(&self) -> &RunId {
        match self {
            Job::Start(run) | Job::Approve(run) => run,
        }
    }
}

/// The line of jobs and the runs being driven.
#[derive(Clone)]
pub(crate) struct Queue {
    shared: Arc<Shared>,
}

struct Shared {
    state: Mutex<Lines>,
    wake: Condvar,
}

#[derive(Default)]
struct Lines {
    waiting: VecDeque<Job>,
    running: Vec<RunId>,
}

impl Queue {
    /// Starts `workers` threads driving jobs against the store of `home` (or `db`).
    pub(crate) fn start(
        home: Home,
        db: Option<PathBuf>,
        workers: usize,
        stored: tokio::sync::watch::Sender<u64>,
    ) -> Queue {
        let shared = Arc::new(Shared {
            state: Mutex::new(Lines::default()),
            wake: Condvar::new(),
        });
        for _ in 0..workers {
            let shared = shared.clone();
            let home = home.clone();
            let db = db.clone();
            let stored = stored.clone();
            std::thread::spawn(move || worker(&shared, &home, db.as_deref(), &stored));
        }
        Queue { shared }
    }

    /// Puts a job in line.
    pub(crate) fn push(&self, job: Job) {
        let mut lines = self.lock();
        lines.waiting.push_back(job);
        self.shared.wake.notify_one();
    }

    /// The run's place in line (1: next), if it waits.
    pub(crate) fn position(&self, run: &RunId) -> Option<usize> {
        self.lock()
            .waiting
            .iter()
            .position(|job| job.run() == run)
            .map(|index| index + 1)
    }

    /// Whether a worker is driving the run now, or it waits in line.
    pub(crate) fn busy(&self, run: &RunId) -> bool {
        let lines = self.lock();
        lines.running.contains(run) || lines.waiting.iter().any(|job| job.run() == run)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Lines> {
        self.shared
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

fn worker(
    shared: &Shared,
    home: &Home,
    db: Option<&std::path::Path>,
    stored: &tokio::sync::watch::Sender<u64>,
) {
    loop {
        let job = {
            let mut lines = shared.state.lock().unwrap_or_else(PoisonError::into_inner);
            loop {
                if let Some(job) = lines.waiting.pop_front() {
                    lines.running.push(job.run().clone());
                    break job;
                }
                lines = shared
                    .wake
                    .wait(lines)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        };
        drive(home, db, &job, stored);
        let mut lines = shared.state.lock().unwrap_or_else(PoisonError::into_inner);
        lines.running.retain(|run| run != job.run());
    }
}

/// Drives one job's run, storing its events; a failure is the run's last event, not the
/// worker's end.
fn drive(
    home: &Home,
    db: Option<&std::path::Path>,
    job: &Job,
    stored: &tokio::sync::watch::Sender<u64>,
) {
    let run = job.run();
    // The store opened when the server started; should it fail now, the run still runs and
    // its steps are stored, only its live log is lost.
    let log = EventLog::open(home, db).ok();
    let record = |kind: &str, data: serde_json::Value| {
        if let Some(log) = &log
            && log.append(run, kind, &data.to_string()).is_ok()
        {
            stored.send_modify(|count| *count += 1);
        }
    };
    let last_progress: Mutex<Option<(String, Instant)>> = Mutex::new(None);
    let on_event = |event: &Event| {
        if let Some((kind, data)) = stream_event(event, &last_progress) {
            record(kind, data);
        }
    };
    let outcome = Runner::open(home.clone(), db).and_then(|mut runner| match job {
        Job::Start(run) => runner.drive_queued(run, &on_event),
        Job::Approve(run) => runner.resume(run, &on_event),
    });
    match outcome {
        Ok(Outcome::Done(summary)) => record(
            "done",
            serde_json::json!({
                "considered": summary.considered,
                "included": summary.included,
                "themes": summary.themes,
                "words": summary.words,
                "citations": summary.citations,
                "telemetry": summary.telemetry,
            }),
        ),
        Ok(Outcome::AwaitingApproval {
            included,
            considered,
            ..
        }) => record(
            "gate",
            serde_json::json!({ "included": included, "considered": considered }),
        ),
        Ok(Outcome::AwaitingDownloads {
            planned,
            unknown_hosts,
            ..
        }) => record(
            "gate",
            serde_json::json!({
                "gate": "downloads",
                "planned_downloads": planned,
                "unknown_hosts": unknown_hosts,
            }),
        ),
        Ok(Outcome::NeedsClarification { clarifications, .. }) => record(
            "clarify",
            serde_json::json!({
                "clarifications": litrev::clarifications_json(&clarifications),
            }),
        ),
        Err(error) => record(
            "failed",
            serde_json::json!({ "message": error.to_string() }),
        ),
    }
}

/// An engine event as a stream event (kind and JSON data); none for what clients do not
/// follow, or for progress too soon after the step's last.
fn stream_event(
    event: &Event,
    last_progress: &Mutex<Option<(String, Instant)>>,
) -> Option<(&'static str, serde_json::Value)> {
    Some(match event {
        Event::StepStarted { step, detail } => (
            "step",
            serde_json::json!({ "step": step, "state": "started", "detail": detail }),
        ),
        Event::StepFinished { step, summary } => (
            "step",
            serde_json::json!({ "step": step, "state": "finished", "summary": summary }),
        ),
        Event::StepSkipped { step } => (
            "step",
            serde_json::json!({ "step": step, "state": "skipped" }),
        ),
        Event::Progress { step, done, total } => {
            let mut last = last_progress.lock().unwrap_or_else(PoisonError::into_inner);
            let now = Instant::now();
            let finished = total.is_some_and(|total| *done >= total);
            let recent = last.as_ref().is_some_and(|(last_step, at)| {
                last_step == step && now.duration_since(*at) < PROGRESS_INTERVAL
            });
            if recent && !finished {
                return None;
            }
            *last = Some((step.clone(), now));
            (
                "progress",
                serde_json::json!({ "step": step, "done": done, "total": total }),
            )
        }
        Event::Notice { message } => ("notice", serde_json::json!({ "message": message })),
        _ => return None,
    })
}

/// Runs an agent starts over MCP wait in the same line as the page's.
impl litrev_mcp::Launcher for Queue {
    fn launch(&self, launch: litrev_mcp::Launch) {
        self.push(match launch {
            litrev_mcp::Launch::Start(run) => Job::Start(run),
            litrev_mcp::Launch::Approve(run) => Job::Approve(run),
        });
    }

    fn busy(&self, run: &RunId) -> bool {
        Queue::busy(self, run)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_is_stored_at_most_every_200_ms_per_step_but_its_end_always() {
        let last = Mutex::new(None);
        let progress = |done: u64| Event::Progress {
            step: "discover".to_owned(),
            done,
            total: Some(10),
        };
        assert!(stream_event(&progress(1), &last).is_some());
        assert!(stream_event(&progress(2), &last).is_none(), "too soon");
        assert!(stream_event(&progress(10), &last).is_some(), "the end");
        let other = Event::Progress {
            step: "screen".to_owned(),
            done: 1,
            total: None,
        };
        assert!(stream_event(&other, &last).is_some(), "another bar");
        let notice = Event::Notice {
            message: "hello".to_owned(),
        };
        let (kind, data) = stream_event(&notice, &last).unwrap_or(("", serde_json::Value::Null));
        assert_eq!(kind, "notice");
        assert_eq!(data["message"], "hello");
    }
}
