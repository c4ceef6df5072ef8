//! The response cache: one JSON entry per answer, keyed by provider, model, prompt version
//! and the SHA-256 of everything else the request says; by default a file per answer under
//! `LITREV_HOME/llm-cache`, or a shared [`AnswerStore`] (a team's database).
//!
//! Files rather than a table by default: answers are written from several threads at once,
//! each file is written whole and renamed into place, and a damaged file is just a miss.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::{Error, LlmRequest, LlmResponse, Result};

/// Answers already paid for, on disk or in a shared store.
#[derive(Debug, Clone)]
pub struct ResponseCache {
    dir: PathBuf,
    shared: Option<Arc<dyn AnswerStore>>,
}

/// A store of cache entries several machines share, so a team pays once for an answer.
pub trait AnswerStore: Send + Sync + std::fmt::Debug {
    /// The entry kept under `key`, if any (a failure to read is a miss).
    fn read(&self, key: &str) -> Option<String>;

    /// Keeps `entry` under `key`.
    ///
    /// # Errors
    /// `Cache` when the store cannot be written.
    fn write(&self, key: &str, entry: &str) -> Result<()>;
}

/// What a cache file holds: the key's parts, for people reading the folder, and the answer.
#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    provider: String,
    model: String,
    prompt: String,
    input_sha256: String,
    response: LlmResponse,
}

impl ResponseCache {
    /// A cache in `dir` (created on the first write).
    pub fn new(dir: impl Into<PathBuf>) -> ResponseCache {
        ResponseCache {
            dir: dir.into(),
            shared: None,
        }
    }

    /// A cache kept in a shared store instead of a folder.
    pub fn shared(store: Arc<dyn AnswerStore>) -> ResponseCache {
        ResponseCache {
            dir: PathBuf::new(),
            shared: Some(store),
        }
    }

    /// The folder (empty for a shared cache).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The stored answer to `request` sent to `provider`, if any.
    pub fn get(&self, provider: &str, request: &LlmRequest) -> Option<LlmResponse> {
        let key = cache_key(provider, request);
        let text = match &self.shared {
            Some(shared) => shared.read(&key)?,
            None => std::fs::read_to_string(self.path(&key)).ok()?,
        };
        let entry: Entry = serde_json::from_str(&text).ok()?;
        Some(LlmResponse {
            cached: true,
            ..entry.response
        })
    }

    /// Stores the answer to `request` sent to `provider`.
    ///
    /// # Errors
    /// `Cache` when the folder or file cannot be written.
    pub fn put(&self, provider: &str, request: &LlmRequest, response: &LlmResponse) -> Result<()> {
        let key = cache_key(provider, request);
        let path = self.path(&key);
        let failure = |error: std::io::Error| Error::Cache {
            path: path.display().to_string(),
            message: error.to_string(),
        };
        let entry = Entry {
            provider: provider.to_owned(),
            model: request.model.clone(),
            prompt: request.prompt.clone(),
            input_sha256: input_hash(request),
            response: LlmResponse {
                cached: false,
                ..response.clone()
            },
        };
        let text = serde_json::to_string_pretty(&entry).map_err(|error| Error::Cache {
            path: path.display().to_string(),
            message: error.to_string(),
        })?;
        if let Some(shared) = &self.shared {
            return shared.write(&key, &text);
        }
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder).map_err(failure)?;
        }
        let temporary = path.with_extension(format!("tmp{}", std::process::id()));
        std::fs::write(&temporary, text).map_err(failure)?;
        std::fs::rename(&temporary, &path).map_err(failure)
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(&key[..2]).join(format!("{key}.json"))
    }
}

/// The cache key: SHA-256 over the provider, the model, the prompt's versioned id and the
/// hash of the request's input (messages, limits, temperature, schema), hex.
pub fn cache_key(provider: &str, request: &LlmRequest) -> String {
    let mut hasher = Sha256::new();
    for part in [
        provider,
        request.model.as_str(),
        request.prompt.as_str(),
        &input_hash(request),
    ] {
        hasher.update(part.as_bytes());
        hasher.update([0]);
    }
    hex(&hasher.finalize())
}

/// SHA-256 of what the model is shown and how it is asked to answer; the ledger phase is
/// left out, so the same question asked by two phases is paid once.
fn input_hash(request: &LlmRequest) -> String {
    let input = serde_json::json!({
        "messages": request.messages,
        "max_tokens": request.max_tokens,
        "temperature": request.temperature,
        "schema": request.schema,
    });
    hex(&Sha256::digest(input.to_string().as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Message;

    fn request(prompt: &str, text: &str) -> LlmRequest {
        LlmRequest {
            model: "m".into(),
            messages: vec![Message::user(text)],
            max_tokens: 10,
            temperature: 0.0,
            schema: None,
            prompt: prompt.into(),
            phase: "p".into(),
        }
    }

    #[test]
    fn answers_come_back_for_the_same_key_only() {
        let folder = tempfile::tempdir().unwrap();
        let cache = ResponseCache::new(folder.path());
        let asked = request("draft.v1", "hello");
        let answer = LlmResponse {
            text: "hi".into(),
            input_tokens: 3,
            output_tokens: 1,
            estimated_usage: false,
            truncated: false,
            batched: false,
            cached: false,
        };
        assert!(cache.get("openai", &asked).is_none());
        cache.put("openai", &asked, &answer).unwrap();
        let hit = cache.get("openai", &asked).unwrap();
        assert!(hit.cached);
        assert_eq!(hit.text, "hi");
        assert!(cache.get("anthropic", &asked).is_none());
        assert!(cache.get("openai", &request("draft.v2", "hello")).is_none());
        assert!(
            cache
                .get("openai", &request("draft.v1", "hello!"))
                .is_none()
        );
        let other_phase = LlmRequest {
            phase: "q".into(),
            ..asked
        };
        assert!(cache.get("openai", &other_phase).is_some());
    }
}
