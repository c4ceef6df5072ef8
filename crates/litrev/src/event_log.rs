//! Each run's stream of events as stored for the clients that follow it (the web app's live
//! log): appended by whoever drives the run, read from any id on, so a client that reconnects
//! gets exactly what it missed.

use std::path::Path;

use litrev_model::RunId;
use litrev_store::Store;
pub use litrev_store::StoredEvent;

use crate::error::Result;
use crate::home::Home;

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
