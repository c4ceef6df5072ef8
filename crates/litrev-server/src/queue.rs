//! The bounded pool that drives runs: N worker threads, each with its own runner on the
//! shared store, taking jobs in the order they came; a job waiting shows its position.
//! Every event a job's run emits is stored in the run's stream and announced to the SSE
//! streams.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use litrev::model::RunId;
use litrev::{Holder, Home, Runner, StreamRecorder, drive_held};

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

/// How long the server's claim on a run it drives holds without a heartbeat: should the
/// server die, a `litrev worker` on the same store takes the run over after this.
const LEASE: Duration = Duration::from_secs(60);

/// Drives one job's run under a lease, storing its events; a failure is the run's last
/// event, not the worker's end. A run another worker holds (a `litrev worker` on the same
/// store claimed it first) is left to that worker.
fn drive(
    home: &Home,
    db: Option<&std::path::Path>,
    job: &Job,
    stored: &tokio::sync::watch::Sender<u64>,
) {
    let announce = || stored.send_modify(|count| *count += 1);
    let worker = format!("serve:{}", litrev::default_worker_name());
    let holder = Holder {
        home,
        db,
        worker: &worker,
        lease: LEASE,
    };
    let run = job.run();
    let result = Runner::open(home.clone(), db).and_then(|mut runner| {
        if runner.claim_run(run, &worker, LEASE)? {
            // drive_held stores the run's stream, its end included.
            let _ = drive_held(
                &mut runner,
                &holder,
                run,
                &announce,
                &|_| {},
                |runner, events| match job {
                    Job::Start(run) => runner.drive_queued(run, events),
                    Job::Approve(run) => runner.resume(run, events),
                },
            );
        }
        Ok(())
    });
    if let Err(error) = result {
        StreamRecorder::new(home, db, run, &announce).outcome(&Err(error));
    }
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
