//! A local stand-in for a Zotero library behind the Web API v3, following its documentation
//! (<https://www.zotero.org/support/dev/web_api/v3/basics>, `…/write_requests`): listings of
//! collections and items (JSON, `start`/`limit` paging, `Total-Results`, `Link` and
//! `Last-Modified-Version` headers), and writes of up to 50 objects answered with
//! `successful`/`success`/`unchanged`/`failed`, under `Zotero-API-Key`, `Zotero-Write-Token`
//! (a token used once is refused) and `If-Unmodified-Since-Version` (412 when the library
//! moved on). Faults can be asked for: a 429 with `Retry-After` before the first write, and a
//! change by someone else just before the first item write.

use std::collections::BTreeSet;
use std::sync::Mutex;

use serde_json::{Map, Value, json};

use crate::http::{Reply, ServedRequest};

/// The most objects one write may carry.
const WRITE_LIMIT: usize = 50;
/// Item types this stand-in accepts, and which of them have a `DOI` field.
const ITEM_TYPES: &[(&str, bool)] = &[
    ("journalArticle", true),
    ("conferencePaper", true),
    ("preprint", true),
    ("dataset", true),
    ("book", false),
    ("bookSection", false),
    ("thesis", false),
    ("report", false),
    ("webpage", false),
    ("manuscript", false),
    ("document", false),
];

/// Faults to inject.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ZoteroFaults {
    /// Answer the first write with 429 and `Retry-After: 1`.
    pub rate_limit_first_write: bool,
    /// Just before the first write of items, someone else writes to the library, so a write
    /// sent under the version read before gets 412.
    pub concurrent_change: bool,
}

/// One library (`users/ID` or `groups/ID`) with its key.
#[derive(Debug)]
pub struct ZoteroServer {
    prefix: String,
    key: String,
    faults: ZoteroFaults,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    version: u64,
    collections: Vec<Value>,
    items: Vec<Value>,
    tokens: BTreeSet<String>,
    writes: u64,
    item_writes: u64,
    next_key: u64,
}

impl ZoteroServer {
    /// An empty library at `library` (`users/475425`) that `key` may read and write.
    pub fn new(library: &str, key: &str, faults: ZoteroFaults) -> ZoteroServer {
        ZoteroServer {
            prefix: format!("/{}", library.trim_matches('/')),
            key: key.to_owned(),
            faults,
            state: Mutex::new(State::default()),
        }
    }

    /// Puts `items` (item data: `itemType`, `title`, `DOI`…) into the collection `name`,
    /// created when missing, as a person's earlier work in Zotero would have: a library to
    /// read from.
    pub fn seed(&self, name: &str, items: Vec<Value>) {
        let mut state = self.lock();
        state.version += 1;
        let version = state.version;
        let collection = match state
            .collections
            .iter()
            .find(|collection| collection["data"]["name"] == name)
        {
            Some(collection) => collection["key"].as_str().unwrap_or_default().to_owned(),
            None => {
                state.next_key += 1;
                let key = object_key(state.next_key);
                state.collections.push(json!({
                    "key": key, "version": version,
                    "data": {"key": key, "version": version, "name": name, "parentCollection": false},
                }));
                key
            }
        };
        for mut data in items {
            state.next_key += 1;
            let key = object_key(state.next_key);
            if let Value::Object(fields) = &mut data {
                fields.insert("key".into(), json!(key));
                fields.insert("version".into(), json!(version));
                fields.insert("collections".into(), json!([collection]));
            }
            state
                .items
                .push(json!({"key": key, "version": version, "data": data}));
        }
    }

    /// Every item in the library, as stored.
    pub fn items(&self) -> Vec<Value> {
        self.lock().items.clone()
    }

    /// Answers a request.
    pub fn answer(&self, request: &ServedRequest) -> Reply {
        let header = |name: &str| {
            request
                .headers
                .iter()
                .find(|(header, _)| header.eq_ignore_ascii_case(name))
                .map(|(_, value)| value.as_str())
        };
        // The documented ways of passing the key: a header of its own, a bearer token, `key=`.
        let key = header("zotero-api-key")
            .or_else(|| header("authorization").and_then(|value| value.strip_prefix("Bearer ")))
            .or_else(|| {
                request
                    .query
                    .iter()
                    .find(|(name, _)| name == "key")
                    .map(|(_, value)| value.as_str())
            });
        if key != Some(self.key.as_str()) {
            return error(403, "Forbidden");
        }
        let Some(path) = request.path.strip_prefix(&self.prefix) else {
            return error(404, "Not found");
        };
        let mut state = self.lock();
        match (request.method.as_str(), path.trim_end_matches('/')) {
            ("GET", "/collections") => {
                let all = state.collections.clone();
                self.listing(&state, request, all)
            }
            ("GET", "/items" | "/items/top") => {
                let all = state.items.clone();
                self.listing(&state, request, all)
            }
            ("GET", path) if path.starts_with("/collections/") => {
                let rest = &path["/collections/".len()..];
                let (key, tail) = rest.split_once('/').unwrap_or((rest, ""));
                if !state.collections.iter().any(|c| c["key"] == key) {
                    return error(404, "Collection not found");
                }
                if !matches!(tail, "items" | "items/top") {
                    return error(404, "Not found");
                }
                let inside: Vec<Value> = state
                    .items
                    .iter()
                    .filter(|item| {
                        item["data"]["collections"]
                            .as_array()
                            .is_some_and(|keys| keys.iter().any(|k| k == key))
                    })
                    .cloned()
                    .collect();
                self.listing(&state, request, inside)
            }
            ("POST", "/collections" | "/items") => {
                let kind = if path.ends_with("items") {
                    "items"
                } else {
                    "collections"
                };
                self.write(
                    &mut state,
                    kind,
                    request,
                    header("zotero-write-token"),
                    header("if-unmodified-since-version"),
                )
            }
            _ => error(405, "Method not allowed"),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A page of `all` (`start`, `limit` up to 100, default 25) with the listing headers.
    fn listing(&self, state: &State, request: &ServedRequest, all: Vec<Value>) -> Reply {
        let number = |name: &str, default: usize| {
            request
                .query
                .iter()
                .find(|(key, _)| key == name)
                .and_then(|(_, value)| value.parse::<usize>().ok())
                .unwrap_or(default)
        };
        let start = number("start", 0);
        let limit = number("limit", 25).clamp(1, 100);
        let total = all.len();
        let page: Vec<Value> = all.into_iter().skip(start).take(limit).collect();
        let mut reply = Reply::json(200, &Value::Array(page))
            .with_header("Total-Results", &total.to_string())
            .with_header("Last-Modified-Version", &state.version.to_string());
        if start + limit < total {
            reply = reply.with_header(
                "Link",
                &format!(
                    "<{}?start={}&limit={limit}>; rel=\"next\"",
                    request.path,
                    start + limit
                ),
            );
        }
        reply
    }

    fn write(
        &self,
        state: &mut State,
        kind: &str,
        request: &ServedRequest,
        token: Option<&str>,
        unmodified_since: Option<&str>,
    ) -> Reply {
        state.writes += 1;
        if self.faults.rate_limit_first_write && state.writes == 1 {
            return error(429, "Too many requests").with_header("Retry-After", "1");
        }
        if kind == "items" {
            state.item_writes += 1;
            if self.faults.concurrent_change && state.item_writes == 1 {
                // Someone else's write lands first.
                state.version += 1;
            }
        }
        if let Some(token) = token
            && (token.len() != 32 || !state.tokens.insert(token.to_owned()))
        {
            return error(412, "Write token already used");
        }
        if let Some(since) = unmodified_since
            && since.parse::<u64>().ok() != Some(state.version)
        {
            return error(412, "Library has been modified since specified version");
        }
        let Ok(Value::Array(objects)) = serde_json::from_slice::<Value>(&request.body) else {
            return error(400, "Uploaded data must be a JSON array");
        };
        if objects.len() > WRITE_LIMIT {
            return error(413, "Only 50 objects can be written in a single request");
        }
        state.version += 1;
        let version = state.version;
        let mut successful = Map::new();
        let mut success = Map::new();
        let mut failed = Map::new();
        for (index, object) in objects.into_iter().enumerate() {
            match validate(kind, &object) {
                Err(message) => {
                    failed.insert(
                        index.to_string(),
                        json!({"key": null, "code": 400, "message": message}),
                    );
                }
                Ok(()) => {
                    state.next_key += 1;
                    let key = object_key(state.next_key);
                    let mut data = object.as_object().cloned().unwrap_or_default();
                    data.insert("key".into(), json!(key));
                    data.insert("version".into(), json!(version));
                    let stored = json!({
                        "key": key,
                        "version": version,
                        "library": {"type": if self.prefix.starts_with("/groups") { "group" } else { "user" }, "id": self.prefix.rsplit('/').next().and_then(|id| id.parse::<u64>().ok()), "name": "stand-in"},
                        "links": {"self": {"href": format!("{}/{kind}/{key}", self.prefix), "type": "application/json"}},
                        "meta": {},
                        "data": Value::Object(data),
                    });
                    successful.insert(index.to_string(), stored.clone());
                    success.insert(index.to_string(), json!(key));
                    if kind == "items" {
                        state.items.push(stored);
                    } else {
                        state.collections.push(stored);
                    }
                }
            }
        }
        Reply::json(
            200,
            &json!({"successful": successful, "success": success, "unchanged": {}, "failed": failed}),
        )
        .with_header("Last-Modified-Version", &version.to_string())
    }
}

/// Why Zotero would refuse an object, if it would.
fn validate(kind: &str, object: &Value) -> Result<(), String> {
    let Some(fields) = object.as_object() else {
        return Err("object is not a JSON object".to_owned());
    };
    if kind == "collections" {
        return match fields.get("name").and_then(Value::as_str) {
            Some(name) if !name.trim().is_empty() => Ok(()),
            _ => Err("Collection name cannot be empty".to_owned()),
        };
    }
    let item_type = fields.get("itemType").and_then(Value::as_str).unwrap_or("");
    let Some(&(_, has_doi)) = ITEM_TYPES.iter().find(|(name, _)| *name == item_type) else {
        return Err(format!("'{item_type}' is not a valid itemType"));
    };
    if fields.contains_key("DOI") && !has_doi {
        return Err(format!("'DOI' is not a valid field for type '{item_type}'"));
    }
    for creator in fields
        .get("creators")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let named = creator.get("name").is_some() || creator.get("lastName").is_some();
        if !named || creator.get("creatorType").and_then(Value::as_str).is_none() {
            return Err(format!("creator {creator} needs a creatorType and a name"));
        }
    }
    Ok(())
}

/// Zotero's eight-character keys, from its alphabet (no 0, 1, O or I).
fn object_key(mut number: u64) -> String {
    const ALPHABET: &[u8] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
    let mut key = [b'2'; 8];
    for slot in key.iter_mut().rev() {
        *slot = ALPHABET[(number % 32) as usize];
        number /= 32;
    }
    String::from_utf8_lossy(&key).into_owned()
}

fn error(status: u16, message: &str) -> Reply {
    Reply::text(status, message)
}
