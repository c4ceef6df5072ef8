//! The disk cache: successful responses in one SQLite file (`http-cache.sqlite`), keyed by a
//! hash of the request without its secrets, fresh for a TTL, capped in total size.
//!
//! One connection behind a mutex serves the threads of a process; WAL mode, immediate write
//! transactions and a busy timeout make several processes sharing the file safe.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use sha2::{Digest, Sha256};

use crate::{Error, Request, Result};

/// The cache file's name inside `HttpConfig::cache_dir`.
pub(crate) const FILE_NAME: &str = "http-cache.sqlite";

/// How long a writer waits for another process's transaction before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// A response as the cache stores it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedResponse {
    /// HTTP status.
    pub status: u16,
    /// `Content-Type`, when the server sent one.
    pub content_type: Option<String>,
    /// The body.
    pub body: Vec<u8>,
    /// The response's headers, names in lower case, as the server sent them; not stored, so
    /// a cached response has none.
    pub headers: Vec<(String, String)>,
}

/// Where successful responses are kept: the client's own SQLite file ([`HttpConfig::cache_dir`]),
/// or a store several machines share (a team's database), so a response is paid for once
/// whichever worker asked.
///
/// [`HttpConfig::cache_dir`]: crate::HttpConfig::cache_dir
pub trait ResponseStore: Send + Sync + std::fmt::Debug {
    /// The stored response for `key`, if it is still fresh.
    ///
    /// # Errors
    /// [`Error::Cache`] when the store cannot be read.
    fn get(&self, key: &str) -> Result<Option<CachedResponse>>;

    /// Keeps a response under `key` (`url` for people reading the store).
    ///
    /// # Errors
    /// [`Error::Cache`] when the store cannot be written.
    fn put(&self, key: &str, url: &str, response: &CachedResponse) -> Result<()>;
}

impl ResponseStore for DiskCache {
    fn get(&self, key: &str) -> Result<Option<CachedResponse>> {
        DiskCache::get(self, key)
    }

    fn put(&self, key: &str, url: &str, response: &CachedResponse) -> Result<()> {
        DiskCache::put(self, key, url, response)
    }
}

/// The SQLite cache of one client.
#[derive(Debug)]
pub(crate) struct DiskCache {
    path: PathBuf,
    connection: Mutex<Connection>,
    ttl: Duration,
    max_bytes: u64,
}

impl DiskCache {
    /// Opens (or creates) `<dir>/http-cache.sqlite`.
    pub(crate) fn open(dir: &Path, ttl: Duration, max_bytes: u64) -> Result<Self> {
        let path = dir.join(FILE_NAME);
        let fail = |message: String| Error::Cache {
            path: path.display().to_string(),
            message,
        };
        std::fs::create_dir_all(dir)
            .map_err(|error| fail(format!("cannot create the folder: {error}")))?;
        let connection = Connection::open(&path).map_err(|error| fail(error.to_string()))?;
        connection
            .busy_timeout(BUSY_TIMEOUT)
            .map_err(|error| fail(error.to_string()))?;
        connection
            .query_row("PRAGMA journal_mode = WAL", [], |row| {
                row.get::<_, String>(0)
            })
            .map_err(|error| fail(error.to_string()))?;
        connection
            .execute_batch(
                "PRAGMA synchronous = NORMAL;
                 CREATE TABLE IF NOT EXISTS responses (
                     key TEXT PRIMARY KEY,
                     url TEXT NOT NULL,
                     status INTEGER NOT NULL,
                     content_type TEXT,
                     body BLOB NOT NULL,
                     fetched_at INTEGER NOT NULL,
                     bytes INTEGER NOT NULL
                 );
                 CREATE INDEX IF NOT EXISTS responses_by_age ON responses (fetched_at, bytes);",
            )
            .map_err(|error| fail(error.to_string()))?;
        Ok(Self {
            path,
            connection: Mutex::new(connection),
            ttl,
            max_bytes,
        })
    }

    /// The stored response for `key` if it is younger than the TTL.
    pub(crate) fn get(&self, key: &str) -> Result<Option<CachedResponse>> {
        let oldest_fresh = now_millis().saturating_sub(millis(self.ttl));
        self.lock()
            .query_row(
                "SELECT status, content_type, body FROM responses WHERE key = ?1 AND fetched_at > ?2",
                params![key, oldest_fresh],
                |row| {
                    Ok(CachedResponse {
                        status: row.get(0)?,
                        content_type: row.get(1)?,
                        body: row.get(2)?,
                        headers: Vec::new(),
                    })
                },
            )
            .optional()
            .map_err(|error| self.error(&error))
    }

    /// Stores a response, then evicts the oldest entries while the total exceeds the cap.
    /// A body larger than the whole cap is not stored.
    pub(crate) fn put(&self, key: &str, url: &str, response: &CachedResponse) -> Result<()> {
        let bytes = response.body.len() as u64;
        if bytes > self.max_bytes {
            return Ok(());
        }
        let mut connection = self.lock();
        let transaction = connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|error| self.error(&error))?;
        transaction
            .execute(
                "INSERT OR REPLACE INTO responses (key, url, status, content_type, body, fetched_at, bytes)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    key,
                    url,
                    response.status,
                    response.content_type,
                    response.body,
                    now_millis(),
                    bytes as i64
                ],
            )
            .map_err(|error| self.error(&error))?;
        let total: i64 = transaction
            .query_row("SELECT COALESCE(SUM(bytes), 0) FROM responses", [], |row| {
                row.get(0)
            })
            .map_err(|error| self.error(&error))?;
        let mut excess = total.saturating_sub(i64::try_from(self.max_bytes).unwrap_or(i64::MAX));
        if excess > 0 {
            let mut oldest = Vec::new();
            {
                let mut statement = transaction
                    .prepare("SELECT key, bytes FROM responses ORDER BY fetched_at, rowid")
                    .map_err(|error| self.error(&error))?;
                let mut rows = statement.query([]).map_err(|error| self.error(&error))?;
                while excess > 0 {
                    let Some(row) = rows.next().map_err(|error| self.error(&error))? else {
                        break;
                    };
                    let old_key: String = row.get(0).map_err(|error| self.error(&error))?;
                    let old_bytes: i64 = row.get(1).map_err(|error| self.error(&error))?;
                    excess -= old_bytes;
                    oldest.push(old_key);
                }
            }
            for old_key in oldest {
                transaction
                    .execute("DELETE FROM responses WHERE key = ?1", params![old_key])
                    .map_err(|error| self.error(&error))?;
            }
        }
        transaction.commit().map_err(|error| self.error(&error))
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves no half-done state behind: SQLite rolls back
        // an unfinished transaction when its guard drops, so the connection stays usable.
        self.connection
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn error(&self, error: &rusqlite::Error) -> Error {
        Error::Cache {
            path: self.path.display().to_string(),
            message: error.to_string(),
        }
    }
}

/// The cache key of a request: SHA-256 of its method, URL, non-secret headers and body.
///
/// Headers are included because content negotiation (`Accept: application/x-bibtex` on
/// doi.org) gives different bodies for the same URL; secrets are never part of the key, so
/// changing an API key keeps the cache.
pub(crate) fn cache_key(request: &Request) -> String {
    let mut headers: Vec<(String, &str)> = request
        .headers
        .iter()
        .map(|(name, value)| (name.to_ascii_lowercase(), value.as_str()))
        .collect();
    headers.sort();
    let mut hasher = Sha256::new();
    hasher.update(request.method.as_str().as_bytes());
    hasher.update(b"\n");
    hasher.update(request.url.as_bytes());
    hasher.update(b"\n");
    for (name, value) in headers {
        hasher.update(name.as_bytes());
        hasher.update(b": ");
        hasher.update(value.as_bytes());
        hasher.update(b"\n");
    }
    hasher.update(b"\n");
    if let Some(body) = &request.body {
        hasher.update(body);
    }
    hasher
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

fn now_millis() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| {
            i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX)
        })
}

fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(body: &[u8]) -> CachedResponse {
        CachedResponse {
            status: 200,
            content_type: Some("application/json".to_owned()),
            body: body.to_vec(),
            headers: Vec::new(),
        }
    }

    #[test]
    fn keys_ignore_secrets_and_header_order_but_not_headers() {
        let plain = Request::get("https://api.example.org/works?q=a", "search");
        let with_key = plain
            .clone()
            .with_secret_param("api_key", "one")
            .with_secret_header("x-api-key", "two");
        assert_eq!(cache_key(&plain), cache_key(&with_key));
        let one = plain
            .clone()
            .with_header("Accept", "a")
            .with_header("X-B", "b");
        let two = plain
            .clone()
            .with_header("x-b", "b")
            .with_header("accept", "a");
        assert_eq!(cache_key(&one), cache_key(&two));
        assert_ne!(cache_key(&plain), cache_key(&one));
        let post = Request::post_json(
            "https://api.example.org/works?q=a",
            "batch",
            &serde_json::json!([1]),
        );
        let other = Request::post_json(
            "https://api.example.org/works?q=a",
            "batch",
            &serde_json::json!([2]),
        );
        assert_ne!(cache_key(&post), cache_key(&other));
        assert_eq!(cache_key(&plain).len(), 64);
    }

    #[test]
    fn stores_reads_and_evicts_oldest() {
        let dir = tempfile::tempdir().unwrap();
        let cache = DiskCache::open(dir.path(), Duration::from_secs(60), 10).unwrap();
        cache.put("a", "https://a", &response(b"1234")).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        cache.put("b", "https://b", &response(b"1234")).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(cache.get("a").unwrap().unwrap().body, b"1234");
        cache.put("c", "https://c", &response(b"1234")).unwrap();
        assert!(
            cache.get("a").unwrap().is_none(),
            "the oldest entry is evicted"
        );
        assert!(cache.get("b").unwrap().is_some());
        assert!(cache.get("c").unwrap().is_some());
        cache
            .put("huge", "https://huge", &response(&[0; 11]))
            .unwrap();
        assert!(
            cache.get("huge").unwrap().is_none(),
            "bodies over the cap are not stored"
        );
        assert!(cache.get("c").unwrap().is_some());
    }

    #[test]
    fn entries_expire_after_the_ttl() {
        let dir = tempfile::tempdir().unwrap();
        let cache = DiskCache::open(dir.path(), Duration::from_millis(50), 1000).unwrap();
        cache.put("a", "https://a", &response(b"x")).unwrap();
        assert!(cache.get("a").unwrap().is_some());
        std::thread::sleep(Duration::from_millis(80));
        assert!(cache.get("a").unwrap().is_none());
    }

    #[test]
    fn two_connections_share_one_file() {
        let dir = tempfile::tempdir().unwrap();
        let first = DiskCache::open(dir.path(), Duration::from_secs(60), 1000).unwrap();
        let second = DiskCache::open(dir.path(), Duration::from_secs(60), 1000).unwrap();
        first.put("a", "https://a", &response(b"x")).unwrap();
        assert_eq!(second.get("a").unwrap().unwrap().body, b"x");
    }
}
