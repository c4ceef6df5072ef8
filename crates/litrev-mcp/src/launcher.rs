//! Who drives the runs an agent starts: a thread per run for `litrev mcp` on stdio, the
//! server's queue when `litrev serve` answers MCP at `/mcp`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use litrev::model::RunId;
use litrev::{Home, Runner};

/// What to do with a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Launch {
    /// Drive a created run as far as it goes (to the gate, or done).
    Start(RunId),
    /// Go on past the screening gate, the person's labels in force.
    Approve(RunId),
}

/// Drives runs in the background, so a tool call returns while the run goes on.
pub trait Launcher: Send + Sync {
    /// Puts the run in motion.
    fn launch(&self, launch: Launch);
    /// Whether the run is being driven or waits to be.
    fn busy(&self, run: &RunId) -> bool;
    /// Why the run failed, when this launcher drove it and it did.
    fn failure(&self, run: &RunId) -> Option<String> {
        let _ = run;
        None
    }
}

/// A thread per launched run, each with its own runner on the store.
#[derive(Clone)]
pub struct ThreadLauncher {
    home: Home,
    db: Option<PathBuf>,
    state: Arc<Mutex<BTreeMap<RunId, Driving>>>,
}

#[derive(Debug, Clone)]
enum Driving {
    Busy,
    Failed(String),
    Stopped,
}

impl ThreadLauncher {
    /// A launcher on the store of `home` (or `db`).
    pub fn new(home: Home, db: Option<PathBuf>) -> ThreadLauncher {
        ThreadLauncher {
            home,
            db,
            state: Arc::new(Mutex::new(BTreeMap::new())),
        }
    }

    fn set(&self, run: &RunId, driving: Driving) {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(run.clone(), driving);
    }

    fn get(&self, run: &RunId) -> Option<Driving> {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(run)
            .cloned()
    }
}

/// How long this process's claim on a run holds without a heartbeat.
const LEASE: std::time::Duration = std::time::Duration::from_secs(60);

impl Launcher for ThreadLauncher {
    fn launch(&self, launch: Launch) {
        let run = match &launch {
            Launch::Start(run) | Launch::Approve(run) => run.clone(),
        };
        self.set(&run, Driving::Busy);
        let this = self.clone();
        std::thread::spawn(move || {
            // Held under a lease like a worker's run: a `litrev worker` on the same store
            // never drives it at the same time, and takes it over should this process die.
            let worker = format!("mcp:{}", litrev::default_worker_name());
            let holder = litrev::Holder {
                home: &this.home,
                db: this.db.as_deref(),
                worker: &worker,
                lease: LEASE,
            };
            let outcome =
                Runner::open(this.home.clone(), this.db.as_deref()).and_then(|mut runner| {
                    if !runner.claim_run(&run, &worker, LEASE)? {
                        return Err(litrev::Error::InvalidRequest(format!(
                            "run {run} is driven by another worker; review_status follows it"
                        )));
                    }
                    litrev::drive_held(
                        &mut runner,
                        &holder,
                        &run,
                        &|| {},
                        &|_| {},
                        |runner, events| match &launch {
                            Launch::Start(run) => runner.drive_queued(run, events),
                            Launch::Approve(run) => runner.resume(run, events),
                        },
                    )
                });
            this.set(
                &run,
                match outcome {
                    Ok(_) => Driving::Stopped,
                    Err(error) => Driving::Failed(error.to_string()),
                },
            );
        });
    }

    fn busy(&self, run: &RunId) -> bool {
        matches!(self.get(run), Some(Driving::Busy))
    }

    fn failure(&self, run: &RunId) -> Option<String> {
        match self.get(run) {
            Some(Driving::Failed(message)) => Some(message),
            _ => None,
        }
    }
}
