//! Workers: processes on any machine that take queued runs from a shared store and drive them.
//!
//! A worker claims a run with a lease ([`litrev_store::Store::claim`]) and renews it from a
//! heartbeat thread while it drives the run; every step it commits is fenced by the lease, so
//! when a worker dies (a crash, `kill -9`, a machine lost) the next worker takes the run over
//! once the lease runs out, resumes it from its last committed step, and no step is committed
//! twice. Runs stay deterministic, so a run taken over ends with the bytes an uninterrupted
//! run would have written.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use litrev_model::RunId;
use litrev_store::{Claim, Store};

use crate::error::{Error, Result};
use crate::event_log::StreamRecorder;
use crate::events::Event;
use crate::home::Home;
use crate::runner::{Outcome, Runner};

/// How a worker works.
#[derive(Debug, Clone)]
pub struct WorkerOptions {
    /// The worker's name in the store (default: host, process id and thread).
    pub name: String,
    /// How long a claim holds without a heartbeat; a run whose worker has been silent this
    /// long is taken over.
    pub lease: Duration,
    /// Runs driven at once, each on its own thread.
    pub concurrency: usize,
    /// Stop when no run waits and no other worker holds one (a run held by a worker that dies
    /// comes back when its lease runs out), rather than wait for more.
    pub once: bool,
    /// How often an idle worker looks for runs.
    pub poll: Duration,
}

impl WorkerOptions {
    /// The defaults: a 60-second lease, one run at a time, waiting for runs for ever.
    pub fn new() -> WorkerOptions {
        WorkerOptions {
            name: default_worker_name(),
            lease: Duration::from_secs(60),
            concurrency: 1,
            once: false,
            poll: Duration::from_secs(1),
        }
    }
}

impl Default for WorkerOptions {
    fn default() -> Self {
        WorkerOptions::new()
    }
}

/// What happened to one run a worker claimed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkedRun {
    /// The run.
    pub run: RunId,
    /// The worker thread that drove it.
    pub worker: String,
    /// The worker whose lease ran out, when this was a takeover.
    pub taken_over_from: Option<String>,
    /// `done`, `awaiting_approval`, `needs_clarification`, `failed: …` or `lost: …` (another
    /// worker took the run over).
    pub outcome: String,
}

/// `host:pid`, the default worker name.
pub fn default_worker_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|host| host.trim().to_owned())
        .filter(|host| !host.is_empty())
        .unwrap_or_else(|| "host".to_owned());
    format!("{host}:{}", std::process::id())
}

/// Runs `options.concurrency` worker threads against the store of `home` (or `db`) until no
/// run waits (`once`) or for ever; each run's events go to `events` with the run's id, and
/// each run worked to `finished` as it ends.
///
/// # Errors
/// When the store cannot be opened; a run that fails is reported in its [`WorkedRun`] and the
/// worker goes on.
pub fn work(
    home: &Home,
    db: Option<&Path>,
    options: &WorkerOptions,
    events: &(dyn Fn(&RunId, &Event) + Sync),
    finished: &(dyn Fn(&WorkedRun) + Sync),
) -> Result<Vec<WorkedRun>> {
    // Opening once first migrates the store and reports a bad URL before any thread starts.
    Runner::open(home.clone(), db)?;
    std::thread::scope(|scope| {
        let handles: Vec<_> = thread_names(options)
            .into_iter()
            .map(|name| {
                scope.spawn(move || work_thread(home, db, &name, options, events, finished))
            })
            .collect();
        let mut worked = Vec::new();
        for handle in handles {
            match handle.join() {
                Ok(runs) => worked.extend(runs?),
                Err(payload) => std::panic::resume_unwind(payload),
            }
        }
        Ok(worked)
    })
}

/// The name each of a worker's threads holds runs under.
fn thread_names(options: &WorkerOptions) -> Vec<String> {
    let threads = options.concurrency.max(1);
    if threads == 1 {
        return vec![options.name.clone()];
    }
    (0..threads)
        .map(|index| format!("{}#{index}", options.name))
        .collect()
}

/// Gives the runs a worker's threads are driving back to the queue, for a worker told to
/// stop: other workers take them at once, from their last committed step. The number given
/// back.
///
/// # Errors
/// When the store cannot be reached.
pub fn give_back(home: &Home, db: Option<&Path>, options: &WorkerOptions) -> Result<u64> {
    let store = Store::open_at(&home.store_location(db))?;
    let mut given = 0;
    for name in thread_names(options) {
        given += store.give_back(&name)?;
    }
    Ok(given)
}

fn work_thread(
    home: &Home,
    db: Option<&Path>,
    name: &str,
    options: &WorkerOptions,
    events: &(dyn Fn(&RunId, &Event) + Sync),
    finished: &(dyn Fn(&WorkedRun) + Sync),
) -> Result<Vec<WorkedRun>> {
    let mut worked = Vec::new();
    let mut runner = Runner::open(home.clone(), db)?;
    loop {
        let Some(claim) = runner.store().claim(name, options.lease)? else {
            // Runs other workers hold may yet come back (their worker dies): wait for them.
            if options.once && runner.store().held_elsewhere(name)? == 0 {
                return Ok(worked);
            }
            std::thread::sleep(options.poll);
            continue;
        };
        let holder = Holder {
            home,
            db,
            worker: name,
            lease: options.lease,
        };
        let outcome = drive_claimed(&mut runner, &holder, &claim, events);
        let run = WorkedRun {
            run: claim.run,
            worker: name.to_owned(),
            taken_over_from: claim.taken_over_from,
            outcome,
        };
        finished(&run);
        worked.push(run);
    }
}

/// Who holds a run while it is driven: the worker's name, its lease, and the store.
#[derive(Debug, Clone, Copy)]
pub struct Holder<'a> {
    /// Where the store is.
    pub home: &'a Home,
    /// The store `--db` names, if any.
    pub db: Option<&'a Path>,
    /// The worker's name in the store.
    pub worker: &'a str,
    /// How long a claim holds without a heartbeat.
    pub lease: Duration,
}

/// Drives a run the holder has claimed: fences the runner's commits with the lease, renews it
/// from a heartbeat thread, stores the run's stream (`on_stored` after each event), and lets
/// the run go once `drive` returns. `drive` is what is done with the run (driven as queued, or
/// resumed after a gate).
///
/// # Errors
/// What `drive` returned; [`litrev_store::Error::LeaseLost`] when another worker took the
/// run over meanwhile (this worker's last step is then not stored).
pub fn drive_held(
    runner: &mut Runner,
    holder: &Holder<'_>,
    run: &RunId,
    on_stored: &(dyn Fn() + Sync),
    events: &dyn Fn(&Event),
    drive: impl FnOnce(&mut Runner, &dyn Fn(&Event)) -> Result<Outcome>,
) -> Result<Outcome> {
    runner.hold(holder.worker);
    let stop = Arc::new(AtomicBool::new(false));
    let heartbeat = {
        let location = holder.home.store_location(holder.db);
        let (stop, run, name, lease) = (
            stop.clone(),
            run.clone(),
            holder.worker.to_owned(),
            holder.lease,
        );
        std::thread::spawn(move || heartbeat(&location, &run, &name, lease, &stop))
    };
    // The run's stream is stored wherever it is driven: `litrev serve` on any machine shows
    // the run's live log.
    let recorder = StreamRecorder::new(holder.home, holder.db, run, on_stored);
    let result = drive(runner, &|event| {
        recorder.event(event);
        events(event);
    });
    stop.store(true, Ordering::Relaxed);
    // The heartbeat only renews; how it ended changes nothing here.
    let _ = heartbeat.join();
    if !matches!(
        result,
        Err(Error::Store(litrev_store::Error::LeaseLost { .. }))
    ) {
        // Should this fail, the lease runs out by itself; the run is at a gate or finished.
        let _ = runner.store().release(run, holder.worker);
    }
    // The stream's last event comes last: a client that sees it finds the run let go.
    recorder.outcome(&result);
    result
}

/// Drives a run claimed from the queue (or taken over) as its options say; how it ended, in
/// a word or two.
fn drive_claimed(
    runner: &mut Runner,
    holder: &Holder<'_>,
    claim: &Claim,
    events: &(dyn Fn(&RunId, &Event) + Sync),
) -> String {
    let run = &claim.run;
    let result = drive_held(
        runner,
        holder,
        run,
        &|| {},
        &|event| events(run, event),
        |runner, events| {
            let approve = runner.options(run)?.approve;
            runner.drive(run, approve, events)
        },
    );
    match result {
        Ok(Outcome::Done(_)) => "done".to_owned(),
        Ok(
            Outcome::AwaitingApproval { .. }
            | Outcome::AwaitingDownloads { .. }
            | Outcome::AwaitingPages { .. },
        ) => "awaiting_approval".to_owned(),
        Ok(Outcome::NeedsClarification { .. }) => "needs_clarification".to_owned(),
        Err(Error::Store(error @ litrev_store::Error::LeaseLost { .. })) => {
            format!("lost: {error}")
        }
        Err(error) => format!("failed: {error}"),
    }
}

/// Renews the lease every third of its length until `stop`, on a connection of its own.
fn heartbeat(
    location: &litrev_store::Location,
    run: &RunId,
    name: &str,
    lease: Duration,
    stop: &AtomicBool,
) {
    let Ok(store) = Store::open_at(location) else {
        return;
    };
    let beat = (lease / 3).max(Duration::from_millis(50));
    let tick = Duration::from_millis(50).min(beat);
    let mut since = Duration::ZERO;
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(tick);
        since += tick;
        if since >= beat {
            since = Duration::ZERO;
            // A lost lease is noticed by the next commit, which fails and stores nothing.
            if !store.renew(run, name, lease).unwrap_or(true) {
                return;
            }
        }
    }
}

impl Runner {
    /// Claims one run for `worker` (see [`Store::claim_run`]); `false` when another worker
    /// holds it.
    ///
    /// # Errors
    /// When the store fails.
    pub fn claim_run(&self, run: &RunId, worker: &str, lease: Duration) -> Result<bool> {
        Ok(self.store().claim_run(run, worker, lease)?)
    }

    /// Every commit of a run's steps with the worker that made it, oldest first: a step
    /// listed twice was done twice.
    ///
    /// # Errors
    /// When the store fails.
    pub fn step_commits(&self, run: &RunId) -> Result<Vec<(String, String)>> {
        Ok(self.store().step_commits(run)?)
    }

    /// Names who gives the labels this runner adds (kept with each label; `undo` takes back
    /// only theirs).
    pub fn label_as(&mut self, who: &str) {
        self.store_mut().label_as(who);
    }

    /// Fences this runner's commits with `worker`'s lease on the runs it drives.
    pub(crate) fn hold(&mut self, worker: &str) {
        self.store_mut().hold(worker);
    }
}
