//! Embeddings stored by content hash, so no text is embedded twice by the same model.
//!
//! The key is `sha256(model id, 0x00, text)`. Vectors live in a map and, when the cache is
//! opened on a folder, in an append-only file there, one per model:
//! `embeddings-<model id with every character outside [A-Za-z0-9.-] replaced by _>.bin`.
//!
//! File layout (little-endian): the magic `LITREVEC`, a `u32` format version (1), the `u32`
//! dimension, the `u32` byte length of the model id and the id itself; then records of a 32-byte
//! key followed by `dimension` f32 values. A record cut short by a crash is dropped (and the file
//! truncated to the last whole record) on the next open.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::{Embedder, Error, Result};

const MAGIC: &[u8; 8] = b"LITREVEC";
const VERSION: u32 = 1;

/// Embeddings by `sha256(model id, text)`: in memory, and optionally in a file.
#[derive(Debug)]
pub struct EmbeddingCache {
    model_id: String,
    dimension: usize,
    vectors: HashMap<[u8; 32], Vec<f32>>,
    file: Option<(PathBuf, BufWriter<File>)>,
}

impl EmbeddingCache {
    /// An empty cache for a model's vectors, kept in memory only.
    pub fn in_memory(model_id: &str, dimension: usize) -> Self {
        Self {
            model_id: model_id.to_owned(),
            dimension,
            vectors: HashMap::new(),
            file: None,
        }
    }

    /// The cache of a model's vectors in `dir` (created if needed), loading what earlier runs
    /// stored there.
    ///
    /// # Errors
    /// When the folder or file cannot be created or read, or the file belongs to another
    /// model or dimension.
    pub fn open(dir: &Path, model_id: &str, dimension: usize) -> Result<Self> {
        let fail = |path: &Path, message: String| Error::Cache {
            path: path.to_path_buf(),
            message,
        };
        std::fs::create_dir_all(dir).map_err(|e| fail(dir, e.to_string()))?;
        let path = dir.join(Self::file_name(model_id));
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&path)
            .map_err(|e| fail(&path, e.to_string()))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| fail(&path, e.to_string()))?;
        let header = header(model_id, dimension);
        let mut vectors = HashMap::new();
        if bytes.is_empty() {
            file.write_all(&header)
                .map_err(|e| fail(&path, e.to_string()))?;
        } else {
            if !bytes.starts_with(&header) {
                return Err(fail(
                    &path,
                    format!("not an embedding cache of {model_id} with dimension {dimension}"),
                ));
            }
            let record = 32 + 4 * dimension;
            let body = &bytes[header.len()..];
            let whole = body.len() / record * record;
            for chunk in body[..whole].chunks_exact(record) {
                let mut key = [0_u8; 32];
                key.copy_from_slice(&chunk[..32]);
                let vector = chunk[32..]
                    .chunks_exact(4)
                    .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                    .collect();
                vectors.insert(key, vector);
            }
            if whole < body.len() {
                // A torn last record: drop it so appends stay aligned.
                file.set_len((header.len() + whole) as u64)
                    .and_then(|()| file.seek(SeekFrom::End(0)).map(drop))
                    .map_err(|e| fail(&path, e.to_string()))?;
            }
        }
        Ok(Self {
            model_id: model_id.to_owned(),
            dimension,
            vectors,
            file: Some((path, BufWriter::new(file))),
        })
    }

    /// The cache for `embedder`'s model: in `dir` when given, else in memory.
    ///
    /// # Errors
    /// As [`EmbeddingCache::open`].
    pub fn for_embedder(embedder: &Embedder, dir: Option<&Path>) -> Result<Self> {
        match dir {
            Some(dir) => Self::open(dir, embedder.model_id(), embedder.dimension()),
            None => Ok(Self::in_memory(embedder.model_id(), embedder.dimension())),
        }
    }

    /// The file name used for a model's cache inside its folder.
    pub fn file_name(model_id: &str) -> String {
        let safe: String = model_id
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        format!("embeddings-{safe}.bin")
    }

    /// The content key of `text` under `model_id`: `sha256(model id, 0x00, text)`.
    pub fn key(model_id: &str, text: &str) -> [u8; 32] {
        let mut hasher = Sha256::new();
        hasher.update(model_id.as_bytes());
        hasher.update([0]);
        hasher.update(text.as_bytes());
        hasher.finalize().into()
    }

    /// The model whose vectors this cache holds.
    pub fn model_id(&self) -> &str {
        &self.model_id
    }

    /// The file backing the cache, if any.
    pub fn path(&self) -> Option<&Path> {
        self.file.as_ref().map(|(path, _)| path.as_path())
    }

    /// Number of vectors held.
    pub fn len(&self) -> usize {
        self.vectors.len()
    }

    /// Whether the cache holds no vector.
    pub fn is_empty(&self) -> bool {
        self.vectors.is_empty()
    }

    /// The stored vector of `text`, if any.
    pub fn get(&self, text: &str) -> Option<&[f32]> {
        self.vectors
            .get(&Self::key(&self.model_id, text))
            .map(Vec::as_slice)
    }

    /// Stores the vector of `text` (appending it to the file, if any) unless already there.
    ///
    /// # Errors
    /// When the vector has the wrong dimension or the file cannot be written.
    pub fn insert(&mut self, text: &str, vector: &[f32]) -> Result<()> {
        if vector.len() != self.dimension {
            return Err(Error::Dimension {
                expected: self.dimension,
                got: vector.len(),
            });
        }
        let key = Self::key(&self.model_id, text);
        if self.vectors.contains_key(&key) {
            return Ok(());
        }
        if let Some((path, writer)) = &mut self.file {
            let mut record = Vec::with_capacity(32 + 4 * vector.len());
            record.extend_from_slice(&key);
            for value in vector {
                record.extend_from_slice(&value.to_le_bytes());
            }
            writer.write_all(&record).map_err(|e| Error::Cache {
                path: path.clone(),
                message: e.to_string(),
            })?;
        }
        self.vectors.insert(key, vector.to_vec());
        Ok(())
    }

    /// Embeddings of `texts` in order: stored ones are reused, the others (each distinct text
    /// once) are embedded in one call, stored and flushed to the file.
    ///
    /// # Errors
    /// When `embedder` runs another model than the cache's, embedding fails or the file cannot
    /// be written.
    pub fn embed(&mut self, embedder: &Embedder, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        if embedder.model_id() != self.model_id {
            return Err(Error::Cache {
                path: self.path().map(Path::to_path_buf).unwrap_or_default(),
                message: format!(
                    "holds vectors of {}, not of {}",
                    self.model_id,
                    embedder.model_id()
                ),
            });
        }
        let mut missing: Vec<&str> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for text in texts {
            if self.get(text).is_none() && seen.insert(*text) {
                missing.push(text);
            }
        }
        if !missing.is_empty() {
            let vectors = embedder.embed(&missing)?;
            for (text, vector) in missing.iter().zip(&vectors) {
                self.insert(text, vector)?;
            }
            self.flush()?;
        }
        texts
            .iter()
            .map(|text| {
                self.get(text)
                    .map(<[f32]>::to_vec)
                    .ok_or_else(|| Error::Weights("a text was not embedded".into()))
            })
            .collect()
    }

    /// Writes buffered vectors to the file.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn flush(&mut self) -> Result<()> {
        if let Some((path, writer)) = &mut self.file {
            writer.flush().map_err(|e| Error::Cache {
                path: path.clone(),
                message: e.to_string(),
            })?;
        }
        Ok(())
    }
}

impl Drop for EmbeddingCache {
    fn drop(&mut self) {
        // Best effort: an unflushed tail is at worst a torn record, dropped on the next open.
        let _ = self.flush();
    }
}

fn header(model_id: &str, dimension: usize) -> Vec<u8> {
    let mut header = MAGIC.to_vec();
    header.extend_from_slice(&VERSION.to_le_bytes());
    header.extend_from_slice(&(dimension as u32).to_le_bytes());
    header.extend_from_slice(&(model_id.len() as u32).to_le_bytes());
    header.extend_from_slice(model_id.as_bytes());
    header
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_survive_reopening_and_torn_records_are_dropped() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = {
            let mut cache = EmbeddingCache::open(dir.path(), "m@1/256", 3).expect("open");
            cache.insert("a", &[1.0, 2.0, 3.0]).expect("insert");
            cache.insert("b", &[4.0, 5.0, 6.0]).expect("insert");
            cache.insert("a", &[9.0, 9.0, 9.0]).expect("insert again");
            assert!(cache.insert("c", &[1.0]).is_err());
            cache.path().expect("path").to_path_buf()
        };
        let cache = EmbeddingCache::open(dir.path(), "m@1/256", 3).expect("reopen");
        assert_eq!(cache.len(), 2);
        assert_eq!(cache.get("a"), Some(&[1.0, 2.0, 3.0][..]));
        assert_eq!(cache.get("c"), None);
        drop(cache);
        // Tear the last record.
        let len = std::fs::metadata(&path).expect("meta").len();
        let file = OpenOptions::new().write(true).open(&path).expect("file");
        file.set_len(len - 5).expect("truncate");
        drop(file);
        let mut cache = EmbeddingCache::open(dir.path(), "m@1/256", 3).expect("reopen torn");
        assert_eq!(cache.len(), 1);
        cache
            .insert("d", &[7.0, 8.0, 9.0])
            .expect("insert after tear");
        drop(cache);
        let cache = EmbeddingCache::open(dir.path(), "m@1/256", 3).expect("reopen again");
        assert_eq!(cache.get("d"), Some(&[7.0, 8.0, 9.0][..]));
        assert_eq!(cache.get("a"), Some(&[1.0, 2.0, 3.0][..]));
    }

    #[test]
    fn another_model_or_dimension_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        drop(EmbeddingCache::open(dir.path(), "m", 3).expect("open"));
        let path = dir.path().join(EmbeddingCache::file_name("m"));
        std::fs::rename(&path, dir.path().join(EmbeddingCache::file_name("n"))).expect("rename");
        assert!(EmbeddingCache::open(dir.path(), "n", 3).is_err());
    }

    #[test]
    fn keys_depend_on_model_and_text() {
        assert_ne!(EmbeddingCache::key("m", "a"), EmbeddingCache::key("n", "a"));
        assert_ne!(EmbeddingCache::key("m", "a"), EmbeddingCache::key("m", "b"));
        assert_ne!(EmbeddingCache::key("ma", ""), EmbeddingCache::key("m", "a"));
    }
}
