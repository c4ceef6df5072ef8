//! The caches a team shares (`[cache] store = "db"`): the live APIs' responses and the
//! language model's answers kept in the run's store, so whichever machine asked first pays.

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use litrev_http::{CachedResponse, ResponseStore};
use litrev_llm::AnswerStore;
use litrev_store::{CachedBody, Location, Store};

use crate::error::Result;

/// The caches in the run's store, shared by every machine that uses the store.
pub(crate) struct StoreCache {
    store: Mutex<Store>,
    location: Location,
    ttl: Duration,
}

impl std::fmt::Debug for StoreCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "StoreCache({})", self.location.display())
    }
}

impl StoreCache {
    /// A connection of its own on the store at `location`; HTTP responses older than `ttl`
    /// are fetched again.
    pub(crate) fn open(location: &Location, ttl: Duration) -> Result<StoreCache> {
        Ok(StoreCache {
            store: Mutex::new(Store::open_at(location)?),
            location: location.clone(),
            ttl,
        })
    }

    fn error(&self, error: &litrev_store::Error) -> litrev_http::Error {
        litrev_http::Error::Cache {
            path: self.location.display(),
            message: error.to_string(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Store> {
        // A panic mid-query leaves nothing half done: the store's transactions roll back.
        self.store.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl ResponseStore for StoreCache {
    fn get(&self, key: &str) -> litrev_http::Result<Option<CachedResponse>> {
        let oldest = chrono::Utc::now().timestamp_millis()
            - i64::try_from(self.ttl.as_millis()).unwrap_or(i64::MAX / 2);
        let hit = self
            .lock()
            .cached_response(key, oldest)
            .map_err(|error| self.error(&error))?;
        Ok(hit.map(|hit| CachedResponse {
            status: hit.status,
            content_type: hit.content_type,
            body: hit.body,
            headers: Vec::new(),
        }))
    }

    fn put(&self, key: &str, url: &str, response: &CachedResponse) -> litrev_http::Result<()> {
        let body = CachedBody {
            status: response.status,
            content_type: response.content_type.clone(),
            body: response.body.clone(),
        };
        self.lock()
            .cache_response(key, url, &body)
            .map_err(|error| self.error(&error))
    }
}

impl AnswerStore for StoreCache {
    fn read(&self, key: &str) -> Option<String> {
        self.lock().cached_answer(key).ok().flatten()
    }

    fn write(&self, key: &str, entry: &str) -> litrev_llm::Result<()> {
        self.lock()
            .cache_answer(key, entry)
            .map_err(|error| litrev_llm::Error::Cache {
                path: self.location.display(),
                message: error.to_string(),
            })
    }
}
