//! Each run's stream of events as stored for the clients that follow it (the web app's live
//! log): appended by whoever drives the run, read from any id on, so a client that reconnects
//! gets exactly what it missed.

use std::path::Path;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use litrev_model::RunId;
use litrev_store::Store;
pub use litrev_store::StoredEvent;

use crate::error::Result;
use crate::events::Event;
use crate::home::Home;
use crate::runner::Outcome;

/// Progress events of one step closer together than this are not stored (the last is kept
/// when the step finishes, so a bar still ends full).
const PROGRESS_INTERVAL: Duration = Duration::from_millis(200);

/// A handle on the event streams of one store (its own connection: it writes while a runner
/// drives the run on another).
pub struct EventLog {
    store: Store,
}

impl EventLog {
    /// Opens the event streams of the store at `db` (default: the one in `home`).
    ///
    /// # Errors
    /// When the store cannot be opened.
    pub fn open(home: &Home, db: Option<&Path>) -> Result<EventLog> {
        Ok(EventLog {
            store: Store::open_at(&home.store_location(db))?,
        })
    }

    /// Appends an event (`kind`, and its JSON `data`) to a run's stream; its id.
    ///
    /// # Errors
    /// When the write fails.
    pub fn append(&self, run: &RunId, kind: &str, data: &str) -> Result<i64> {
        Ok(self.store.append_event(run, kind, data)?)
    }

    /// A run's events after id `after` (0: from the start), oldest first, at most `limit`.
    ///
    /// # Errors
    /// When the query fails.
    pub fn after(&self, run: &RunId, after: i64, limit: usize) -> Result<Vec<StoredEvent>> {
        Ok(self.store.events_after(run, after, limit)?)
    }
}

/// Stores one run's engine events in its stream while a worker (the server's or `litrev
/// worker`) drives it, and how the drive ended, as clients follow runs.
pub struct StreamRecorder<'a> {
    log: Option<EventLog>,
    run: &'a RunId,
    last_progress: Mutex<Option<(String, Instant)>>,
    on_stored: &'a (dyn Fn() + Sync),
}

impl<'a> StreamRecorder<'a> {
    /// A recorder for `run` on the store of `home` (or `db`); `on_stored` is called after each
    /// event stored (the server wakes its streams with it). Should the store fail to open, the
    /// run still runs and its steps are stored; only its live log is lost.
    pub fn new(
        home: &Home,
        db: Option<&Path>,
        run: &'a RunId,
        on_stored: &'a (dyn Fn() + Sync),
    ) -> StreamRecorder<'a> {
        StreamRecorder {
            log: EventLog::open(home, db).ok(),
            run,
            last_progress: Mutex::new(None),
            on_stored,
        }
    }

    /// Stores an engine event, when clients follow its kind.
    pub fn event(&self, event: &Event) {
        if let Some((kind, data)) = stream_event(event, &self.last_progress) {
            self.record(kind, &data);
        }
    }

    /// Stores how driving the run ended: `done`, `gate`, `clarify` or `failed`.
    pub fn outcome(&self, outcome: &Result<Outcome>) {
        let (kind, data) = match outcome {
            Ok(Outcome::Done(summary)) => (
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
            }) => (
                "gate",
                serde_json::json!({ "included": included, "considered": considered }),
            ),
            Ok(Outcome::AwaitingDownloads {
                planned,
                unknown_hosts,
                ..
            }) => (
                "gate",
                serde_json::json!({
                    "gate": "downloads",
                    "planned_downloads": planned,
                    "unknown_hosts": unknown_hosts,
                }),
            ),
            Ok(Outcome::AwaitingPages {
                pages,
                unknown_hosts,
                ..
            }) => (
                "gate",
                serde_json::json!({
                    "gate": "pages",
                    "pages": pages,
                    "unknown_hosts": unknown_hosts,
                }),
            ),
            Ok(Outcome::NeedsClarification { clarifications, .. }) => (
                "clarify",
                serde_json::json!({
                    "clarifications": crate::clarifications_json(clarifications),
                }),
            ),
            Err(error) => (
                "failed",
                serde_json::json!({ "message": error.to_string() }),
            ),
        };
        self.record(kind, &data);
    }

    fn record(&self, kind: &str, data: &serde_json::Value) {
        if let Some(log) = &self.log
            && log.append(self.run, kind, &data.to_string()).is_ok()
        {
            (self.on_stored)();
        }
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
