//! Sentence embeddings of the included works for the organise step. The model comes from
//! `LITREV_EMBED_MODEL`, else `LITREV_HOME/models/all-MiniLM-L6-v2` (`scripts/install-model.sh`
//! puts it there); vectors are cached by content hash under `LITREV_HOME/embeddings`, so no text
//! is embedded twice by the same model. Without a model the organise step clusters TF-IDF
//! vectors instead, and says so.

use std::cell::RefCell;
use std::collections::BTreeMap;

pub use litrev_embed::EmbedderOptions;
use litrev_embed::{Embedder, EmbeddingCache, work_text};
use litrev_model::{Work, WorkId};
use litrev_organise::Embeddings;

use crate::error::Result;
use crate::home::Home;

/// Loads the embedding model for `home`: `Ok(None)` with the reason when none is installed;
/// a model that is there but broken is an error, since the user asked for it.
///
/// # Errors
/// When the model's files cannot be read or do not describe a supported model.
fn installed_embedder(
    home: &Home,
    options: EmbedderOptions,
) -> Result<std::result::Result<Embedder, String>> {
    match Embedder::from_env_or(Some(litrev_embed::model_dir_in(home.root())), options) {
        Ok(embedder) => Ok(Ok(embedder)),
        Err(missing @ litrev_embed::Error::ModelNotFound { .. }) => Ok(Err(missing.to_string())),
        Err(error) => Err(error.into()),
    }
}

/// The installed embedding model; its absence is an error that says how to install it (for
/// the benchmarks, which measure the model itself).
///
/// # Errors
/// When no model is installed, or it cannot be loaded.
pub fn require_embedder(home: &Home, options: EmbedderOptions) -> Result<Embedder> {
    installed_embedder(home, options)?.map_err(|why| crate::Error::BadInput {
        path: litrev_embed::model_dir_in(home.root()),
        message: why,
    })
}

/// The embeddings of `works` with the installed model (cached in `home`) and the model itself,
/// with its cache held open, which embeds the themes' title candidates the same way; or, when
/// no model is installed, why not: the organise step then clusters TF-IDF vectors.
///
/// # Errors
/// When an installed model cannot be loaded or run, or the cache cannot be used.
pub fn embed_if_installed(
    home: &Home,
    works: &BTreeMap<WorkId, Work>,
) -> Result<std::result::Result<(Embeddings, CachedEmbedder), String>> {
    match installed_embedder(home, EmbedderOptions::default())? {
        Ok(embedder) => {
            let cached = CachedEmbedder::open(home, embedder)?;
            Ok(Ok((cached.embed_works(works)?, cached)))
        }
        Err(why) => Ok(Err(why)),
    }
}

/// An embedding model with its cache opened once: the cache file is read when this is made,
/// not again for every batch (organise embeds each theme's title candidates in turn).
pub struct CachedEmbedder {
    embedder: Embedder,
    cache: RefCell<EmbeddingCache>,
}

impl CachedEmbedder {
    /// `embedder` with its cache in `home` opened (read once).
    ///
    /// # Errors
    /// When the cache file cannot be read.
    pub fn open(home: &Home, embedder: Embedder) -> Result<CachedEmbedder> {
        Ok(CachedEmbedder {
            cache: RefCell::new(EmbeddingCache::for_embedder(
                &embedder,
                Some(&home.embeddings()),
            )?),
            embedder,
        })
    }

    /// The model's name, as its vectors are cached under.
    pub fn model_id(&self) -> &str {
        self.embedder.model_id()
    }

    /// The embeddings of `texts`, in order, reusing and extending the cache.
    ///
    /// # Errors
    /// When embedding fails or the cache file cannot be written.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        Ok(self.cache.borrow_mut().embed(&self.embedder, texts)?)
    }

    /// The embeddings of `works`' titles and abstracts, keyed by work.
    ///
    /// # Errors
    /// As [`CachedEmbedder::embed`].
    fn embed_works(&self, works: &BTreeMap<WorkId, Work>) -> Result<Embeddings> {
        let texts: Vec<String> = works
            .values()
            .map(|work| work_text(work.title.as_deref(), work.abstract_text.as_deref()))
            .collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let vectors = self.embed(&refs)?;
        Ok(Embeddings {
            model: self.embedder.model_id().to_owned(),
            vectors: works.keys().cloned().zip(vectors).collect(),
        })
    }
}
