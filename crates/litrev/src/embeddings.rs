//! Sentence embeddings of the included works for the organise step. The model comes from
//! `LITREV_EMBED_MODEL`, else `LITREV_HOME/models/all-MiniLM-L6-v2` (`scripts/install-model.sh`
//! puts it there); vectors are cached by content hash under `LITREV_HOME/embeddings`, so no text
//! is embedded twice by the same model. Without a model the organise step clusters TF-IDF
//! vectors instead, and says so.

use std::collections::BTreeMap;

pub use litrev_embed::EmbedderOptions;
use litrev_embed::{Embedder, EmbeddingCache, work_text};
use litrev_model::{Work, WorkId};
use litrev_organise::Embeddings;

use crate::error::Result;
use crate::home::Home;

/// Whether themes can be clustered on embeddings, and why not.
#[derive(Debug)]
pub enum EmbedderStatus {
    /// A model is installed and loaded (boxed: the loaded weights' handles are large).
    Ready(Box<Embedder>),
    /// No model is installed; the message says how to install one.
    Missing(String),
}

/// Loads the embedding model for `home`. A model that is absent is [`EmbedderStatus::Missing`];
/// one that is there but broken is an error, since the user asked for it.
///
/// # Errors
/// When the model's files cannot be read or do not describe a supported model.
pub fn load_embedder(home: &Home, options: EmbedderOptions) -> Result<EmbedderStatus> {
    match Embedder::from_env_or(Some(litrev_embed::model_dir_in(home.root())), options) {
        Ok(embedder) => Ok(EmbedderStatus::Ready(Box::new(embedder))),
        Err(missing @ litrev_embed::Error::ModelNotFound { .. }) => {
            Ok(EmbedderStatus::Missing(missing.to_string()))
        }
        Err(error) => Err(error.into()),
    }
}

/// The embeddings of `works`' titles and abstracts, reusing the vectors cached in `home`.
///
/// # Errors
/// When embedding fails or the cache file cannot be read or written.
pub fn embed_works(
    home: &Home,
    embedder: &Embedder,
    works: &BTreeMap<WorkId, Work>,
) -> Result<Embeddings> {
    let texts: Vec<String> = works
        .values()
        .map(|work| work_text(work.title.as_deref(), work.abstract_text.as_deref()))
        .collect();
    let vectors = embed_texts(home, embedder, &texts)?;
    Ok(Embeddings {
        model: embedder.model_id().to_owned(),
        vectors: works.keys().cloned().zip(vectors).collect(),
    })
}

/// The embeddings of `texts`, in order, reusing the vectors cached in `home`.
///
/// # Errors
/// When embedding fails or the cache file cannot be read or written.
pub fn embed_texts(home: &Home, embedder: &Embedder, texts: &[String]) -> Result<Vec<Vec<f32>>> {
    let mut cache = EmbeddingCache::for_embedder(embedder, Some(&home.embeddings()))?;
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    Ok(cache.embed(embedder, &refs)?)
}
