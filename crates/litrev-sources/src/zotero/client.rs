//! A Zotero library over the Web API v3: its collections, the marks of the items a collection
//! holds, and new items created in batches of 50.
//!
//! Every write carries a `Zotero-Write-Token` (derived from the batch and the library version,
//! so a request sent again after a lost answer is refused rather than applied twice) and
//! `If-Unmodified-Since-Version`, the library version last read: when someone else changed the
//! library in between (412), the collection's marks are read again and only what is still
//! missing is sent. 429 and 5xx answers are retried by `litrev-http`, honouring `Retry-After`.

use std::collections::BTreeMap;

use litrev_http::{Endpoint, Request, SourcePolicy};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::ZoteroItem;
use super::item::{item_from_csl, mark_of, marks_in_extra};
use crate::error::{Error, Result};

/// The public API.
pub const DEFAULT_BASE_URL: &str = "https://api.zotero.org";
/// The most objects one write may carry.
const WRITE_BATCH: usize = 50;
/// The largest page of a listing.
const PAGE: usize = 100;

/// How to reach a Zotero library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZoteroConfig {
    /// Base URL (`LITREV_ZOTERO_URL` overrides the public API).
    pub base_url: String,
    /// `users/ID` or `groups/ID` (`LITREV_ZOTERO_LIBRARY`).
    pub library: String,
    /// A key with write access to the library (`LITREV_ZOTERO_KEY`), never logged.
    pub key: Option<String>,
}

/// Zotero asks clients to keep to a few requests a second.
pub fn policy() -> SourcePolicy {
    SourcePolicy::new("zotero", 4)
}

/// What an export to Zotero did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZoteroWrite {
    /// The collection's name.
    pub collection_name: String,
    /// The collection's key.
    pub collection: String,
    /// Items created now.
    pub created: usize,
    /// References the collection held already (from an earlier export).
    pub already: usize,
    /// References without a title, which make no item.
    pub skipped: usize,
    /// Each reference's item key, by its citation key (the CSL-JSON `id`), for writing the
    /// review with Zotero's keys.
    pub keys: BTreeMap<String, String>,
}

/// A reference a Zotero library holds, as far as matching it to a work needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZoteroReference {
    /// The item's key.
    pub key: String,
    /// Its DOI, if it has one.
    pub doi: Option<String>,
    /// Its title, if it has one.
    pub title: Option<String>,
}

/// One Zotero library.
#[derive(Debug)]
pub struct ZoteroLibrary {
    endpoint: Endpoint,
    config: ZoteroConfig,
    /// The library version last read (`Last-Modified-Version`).
    version: Option<u64>,
}

impl ZoteroLibrary {
    /// A library reached through `endpoint` (built with [`policy`]).
    ///
    /// # Errors
    /// When the library is not `users/ID` or `groups/ID`.
    pub fn new(endpoint: Endpoint, config: ZoteroConfig) -> Result<ZoteroLibrary> {
        let valid = config.library.split_once('/').is_some_and(|(kind, id)| {
            matches!(kind, "users" | "groups")
                && !id.is_empty()
                && id.chars().all(|c| c.is_ascii_digit())
        });
        if !valid {
            return Err(Error::Zotero {
                message: format!(
                    "the library `{}` is not users/ID or groups/ID: set LITREV_ZOTERO_LIBRARY to your user ID (https://www.zotero.org/settings/keys) as users/ID, or a group's as groups/ID",
                    config.library
                ),
            });
        }
        Ok(ZoteroLibrary {
            endpoint,
            config,
            version: None,
        })
    }

    /// Writes `references` (CSL-JSON items) into the collection named `name` (created when
    /// missing): each reference the collection does not hold yet becomes an item.
    ///
    /// # Errors
    /// When the library refuses a request (a key without write access, an unknown library),
    /// or an item is refused.
    pub fn export(&mut self, references: &[Value], name: &str) -> Result<ZoteroWrite> {
        let collection = self.collection(name)?;
        let mut held = self.marks(&collection)?;
        let mut write = ZoteroWrite {
            collection_name: name.to_owned(),
            collection: collection.clone(),
            created: 0,
            already: 0,
            skipped: 0,
            keys: BTreeMap::new(),
        };
        let mut pending: Vec<(String, Value)> = Vec::new();
        for reference in references {
            match (mark_of(reference), item_from_csl(reference, &collection)) {
                (Some(mark), Some(_)) if held.contains_key(&mark) => write.already += 1,
                (Some(mark), Some(item)) => {
                    if !pending.iter().any(|(known, _)| *known == mark) {
                        pending.push((mark, item));
                    }
                }
                _ => write.skipped += 1,
            }
        }
        for batch in pending.chunks(WRITE_BATCH) {
            let sent: Vec<&(String, Value)> =
                match self.create_marked(&batch.iter().collect::<Vec<_>>(), &mut held) {
                    Ok(()) => {
                        write.created += batch.len();
                        continue;
                    }
                    Err(Error::Http(litrev_http::Error::Status { status: 412, .. })) => {
                        // The library changed since it was read (or this batch's write went through
                        // and its answer was lost): read again, send what is still missing.
                        held = self.marks(&collection)?;
                        batch
                            .iter()
                            .filter(|(mark, _)| !held.contains_key(mark))
                            .collect()
                    }
                    Err(error) => return Err(error),
                };
            write.already += batch.len() - sent.len();
            if !sent.is_empty() {
                self.create_marked(&sent, &mut held)?;
                write.created += sent.len();
            }
        }
        // Every reference's item is known now: those held before, and those just created.
        write.keys = references
            .iter()
            .filter_map(|reference| {
                let key = reference["id"].as_str()?;
                let item = held.get(&mark_of(reference)?)?;
                Some((key.to_owned(), item.clone()))
            })
            .collect();
        Ok(write)
    }

    /// The key of the top-level collection named `name`, created when the library has none.
    ///
    /// # Errors
    /// When a request fails.
    pub fn collection(&mut self, name: &str) -> Result<String> {
        let collections = self.list("collections")?;
        let found = collections.iter().find(|collection| {
            collection["data"]["name"].as_str() == Some(name)
                && !collection["data"]["parentCollection"].is_string()
        });
        if let Some(key) = found.and_then(|collection| collection["key"].as_str()) {
            return Ok(key.to_owned());
        }
        let keys = self.create("collections", &[json!({ "name": name })])?;
        keys.into_iter().next().ok_or_else(|| Error::Zotero {
            message: format!("the collection `{name}` was not created and no reason was given"),
        })
    }

    /// The references a library holds (its top-level items, attachments and notes aside), or
    /// those of its collection named `collection`: each item's DOI (its field, or a `DOI:` line
    /// of `extra`) and title, for matching works by.
    ///
    /// # Errors
    /// When no collection has that name, or a request fails.
    pub fn references(&mut self, collection: Option<&str>) -> Result<Vec<ZoteroReference>> {
        Ok(references_of(&self.listing(collection)?))
    }

    /// The items a library holds (its top-level items, attachments and notes aside), or those
    /// of its collection named `collection`, as the local reader gives them (without files:
    /// the Web API lists no stored files): what `--library zotero:` joins to a review.
    ///
    /// # Errors
    /// When no collection has that name, or a request fails.
    pub fn items(&mut self, collection: Option<&str>) -> Result<Vec<ZoteroItem>> {
        Ok(self
            .listing(collection)?
            .iter()
            .filter_map(item_of)
            .collect())
    }

    /// The top-level objects of the library, or of its collection named `collection`.
    fn listing(&mut self, collection: Option<&str>) -> Result<Vec<Value>> {
        let path = match collection {
            None => "items/top".to_owned(),
            Some(name) => {
                let collections = self.list("collections")?;
                let key = collections
                    .iter()
                    .find(|found| found["data"]["name"].as_str() == Some(name))
                    .and_then(|found| found["key"].as_str())
                    .ok_or_else(|| Error::Zotero {
                        message: format!(
                            "{} has no collection named `{name}`: check its name in Zotero (it is case-sensitive), or leave --collection out to read the whole library",
                            self.config.library
                        ),
                    })?;
                format!("collections/{key}/items/top")
            }
        };
        self.list(&path)
    }

    /// The marks of the items a collection holds, each with its item's key.
    ///
    /// # Errors
    /// When a request fails.
    pub fn marks(&mut self, collection: &str) -> Result<BTreeMap<String, String>> {
        Ok(self
            .list(&format!("collections/{collection}/items"))?
            .iter()
            .filter_map(|item| Some((item["key"].as_str()?, item["data"]["extra"].as_str()?)))
            .flat_map(|(key, extra)| {
                marks_in_extra(extra)
                    .into_iter()
                    .map(move |mark| (mark, key.to_owned()))
            })
            .collect())
    }

    /// Every object of a listing, page by page.
    fn list(&mut self, path: &str) -> Result<Vec<Value>> {
        let mut all = Vec::new();
        loop {
            let url = format!(
                "{}/{}/{path}?format=json&limit={PAGE}&start={}",
                crate::url::base(&self.config.base_url),
                self.config.library,
                all.len()
            );
            let request = self.authorised(Request::get(&url, "list").with_cacheable(false));
            let response = self.send(&request)?;
            let page: Vec<Value> =
                serde_json::from_slice(&response.body).map_err(|error| Error::Parse {
                    source_name: "zotero",
                    message: format!("a listing is not a JSON array of objects ({error})"),
                })?;
            let fetched = page.len();
            all.extend(page);
            let total = response
                .header("total-results")
                .and_then(|total| total.parse::<usize>().ok());
            // `Total-Results` says when the listing is whole; without it, a short page does.
            let whole = match total {
                Some(total) => all.len() >= total || fetched == 0,
                None => fetched < PAGE,
            };
            if whole {
                return Ok(all);
            }
        }
    }

    /// Creates the marked items of `batch` and records each new key under its mark in `held`.
    fn create_marked(
        &mut self,
        batch: &[&(String, Value)],
        held: &mut BTreeMap<String, String>,
    ) -> Result<()> {
        let items: Vec<Value> = batch.iter().map(|(_, item)| item.clone()).collect();
        let keys = self.create("items", &items)?;
        for ((mark, _), key) in batch.iter().zip(keys) {
            held.insert(mark.clone(), key);
        }
        Ok(())
    }

    /// Creates `objects` (at most 50) under `path` (`items`, `collections`); their new keys.
    fn create(&mut self, path: &str, objects: &[Value]) -> Result<Vec<String>> {
        let url = format!(
            "{}/{}/{path}",
            crate::url::base(&self.config.base_url),
            self.config.library
        );
        let body = Value::Array(objects.to_vec());
        let mut request = Request::post_json(&url, "write", &body)
            .with_cacheable(false)
            .with_header("Zotero-Write-Token", &write_token(self.version, &body));
        if let Some(version) = self.version {
            request = request.with_header("If-Unmodified-Since-Version", &version.to_string());
        }
        let response = self.send(&self.authorised(request))?;
        parse_write_answer(response.text()?, objects.len())
    }

    fn authorised(&self, request: Request) -> Request {
        let request = request.with_header("Zotero-API-Version", "3");
        match &self.config.key {
            Some(key) => request.with_secret_header("Zotero-API-Key", key),
            None => request,
        }
    }

    /// Sends a request, keeps the library version it reports, and says what to do when the
    /// library refuses it.
    fn send(&mut self, request: &Request) -> Result<litrev_http::Response> {
        match self.endpoint.send(request) {
            Ok(response) => {
                if let Some(version) = response
                    .header("last-modified-version")
                    .and_then(|version| version.parse().ok())
                {
                    self.version = Some(version);
                }
                Ok(response)
            }
            Err(litrev_http::Error::Status { status: 403, .. }) => Err(Error::Zotero {
                message: format!(
                    "the key may not write to {}: create a key with write access at https://www.zotero.org/settings/keys and set LITREV_ZOTERO_KEY",
                    self.config.library
                ),
            }),
            Err(litrev_http::Error::Status { status: 404, .. }) => Err(Error::Zotero {
                message: format!(
                    "there is no library {} at {}: check LITREV_ZOTERO_LIBRARY (users/ID or groups/ID)",
                    self.config.library, self.config.base_url
                ),
            }),
            Err(error) => Err(error.into()),
        }
    }
}

/// The references of a listing's items (attachments, notes and annotations aside): each
/// item's DOI (its field, or a `DOI:` line of `extra`) and title.
fn references_of(items: &[Value]) -> Vec<ZoteroReference> {
    items
        .iter()
        .filter_map(item_of)
        .map(|item| item.reference)
        .collect()
}

/// One object of a listing as an item (attachments, notes and annotations are none): its
/// key, DOI (its field, or a `DOI:` line of `extra`), title, type, year (of `meta.parsedDate`,
/// else of `date`), authors ("Last, First", or the one-field name), abstract, address and
/// venue (the journal, book, proceedings or site).
fn item_of(item: &Value) -> Option<ZoteroItem> {
    let data = item.get("data")?;
    let item_type = data["itemType"].as_str().unwrap_or_default();
    if matches!(item_type, "attachment" | "note" | "annotation") {
        return None;
    }
    let text = |field: &str| {
        data[field]
            .as_str()
            .map(str::trim)
            .filter(|value| !value.is_empty())
            .map(str::to_owned)
    };
    let doi = text("DOI").or_else(|| {
        data["extra"].as_str()?.lines().find_map(|line| {
            let value = line.trim().strip_prefix("DOI:")?.trim();
            (!value.is_empty()).then(|| value.to_owned())
        })
    });
    let creators = data["creators"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let named = |creator: &&Value| {
        let field = |name: &str| {
            creator[name]
                .as_str()
                .map(str::trim)
                .filter(|v| !v.is_empty())
        };
        match (field("lastName"), field("firstName")) {
            (Some(last), Some(first)) => Some(format!("{last}, {first}")),
            (Some(last), None) => Some(last.to_owned()),
            _ => field("name").map(str::to_owned),
        }
    };
    // Its authors; an edited book's editors when it names no author.
    let authors: Vec<String> = ["author", "editor"]
        .iter()
        .map(|role| {
            creators
                .iter()
                .filter(|creator| creator["creatorType"].as_str() == Some(role))
                .filter_map(|creator| named(&creator))
                .collect::<Vec<String>>()
        })
        .find(|names| !names.is_empty())
        .unwrap_or_default();
    Some(ZoteroItem {
        reference: ZoteroReference {
            key: item["key"].as_str()?.to_owned(),
            doi,
            title: text("title"),
        },
        item_type: item_type.to_owned(),
        year: item["meta"]["parsedDate"]
            .as_str()
            .or(data["date"].as_str())
            .and_then(crate::library::first_year),
        authors,
        files: Vec::new(),
        abstract_text: text("abstractNote"),
        url: text("url"),
        venue: [
            "publicationTitle",
            "bookTitle",
            "proceedingsTitle",
            "websiteTitle",
            "blogTitle",
        ]
        .iter()
        .find_map(|field| text(field)),
    })
}

/// Reads a listing (`GET …/items`: a JSON array of items) as references.
///
/// # Errors
/// When the body is not a JSON array.
pub fn parse_references(json: &str) -> Result<Vec<ZoteroReference>> {
    let items: Vec<Value> = serde_json::from_str(json).map_err(|error| Error::Parse {
        source_name: "zotero",
        message: format!("a listing is not a JSON array ({error})"),
    })?;
    Ok(references_of(&items))
}

/// Reads a write's answer: the new keys of the `sent` objects, in order.
///
/// # Errors
/// When the body is not JSON, or names objects Zotero refused.
pub fn parse_write_answer(json: &str, sent: usize) -> Result<Vec<String>> {
    let answer: Value = serde_json::from_str(json).map_err(|error| Error::Parse {
        source_name: "zotero",
        message: format!("a write's answer is not JSON ({error})"),
    })?;
    read_write_answer(&answer, sent)
}

/// A write token for `body` at library `version`: the same batch sent twice at one version
/// has one token, so Zotero applies it once.
fn write_token(version: Option<u64>, body: &Value) -> String {
    let mut hasher = Sha256::new();
    hasher.update(version.unwrap_or(0).to_le_bytes());
    hasher.update(body.to_string().as_bytes());
    hasher
        .finalize()
        .iter()
        .take(16)
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The keys of a write's answer (`success`: index → key), in order; an error naming every
/// object it refused (`failed`: index → code and message).
fn read_write_answer(answer: &Value, sent: usize) -> Result<Vec<String>> {
    let failed: Vec<String> = answer["failed"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(index, why)| {
            format!(
                "object {index}: {} {}",
                why["code"],
                why["message"].as_str().unwrap_or("")
            )
        })
        .collect();
    if !failed.is_empty() {
        return Err(Error::Zotero {
            message: format!(
                "{} of {sent} objects refused ({}); the others were written, and exporting again sends only what is missing",
                failed.len(),
                failed.join("; ")
            ),
        });
    }
    let mut keys: Vec<(usize, String)> = ["success", "unchanged"]
        .iter()
        .flat_map(|field| answer[*field].as_object().into_iter().flatten())
        .filter_map(|(index, key)| Some((index.parse().ok()?, key.as_str()?.to_owned())))
        .filter(|(index, _): &(usize, String)| *index < sent)
        .collect();
    keys.sort();
    keys.dedup_by_key(|(index, _)| *index);
    if keys.len() != sent {
        return Err(Error::Zotero {
            message: format!(
                "the write's answer accounts for {} of {sent} objects; export again, which sends only what is missing",
                keys.len()
            ),
        });
    }
    Ok(keys.into_iter().map(|(_, key)| key).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// pyzotero's recorded answer to a creation (`tests/api_responses/creation_doc.json`).
    #[test]
    fn reads_a_recorded_creation_answer_and_names_what_was_refused() {
        let recorded = r#"{"failed": {}, "unchanged": {}, "success": {"0": "ABC123"}}"#;
        let answer: Value = serde_json::from_str(recorded).expect("json");
        assert_eq!(read_write_answer(&answer, 1).expect("keys"), ["ABC123"]);
        let refused = json!({"success": {"0": "K1"}, "failed": {"1": {"code": 400, "message": "Invalid item type 'paper'"}}});
        let message = read_write_answer(&refused, 2)
            .expect_err("refused")
            .to_string();
        assert!(
            message.contains("1 of 2 objects refused") && message.contains("Invalid item type"),
            "{message}"
        );
        // An answer that leaves an object out cannot say which key is whose.
        let short = json!({"success": {"0": "K1", "7": "K7"}, "failed": {}});
        let message = read_write_answer(&short, 2)
            .expect_err("one unaccounted")
            .to_string();
        assert!(message.contains("accounts for 1 of 2"), "{message}");
        assert_ne!(
            write_token(Some(1), &json!([1])),
            write_token(Some(2), &json!([1]))
        );
        assert_eq!(write_token(Some(1), &json!([1])).len(), 32);
    }
}
