//! Where litrev keeps its state: `LITREV_HOME`, by default the OS data folder.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The folder holding the store, caches and indexes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Home {
    root: PathBuf,
}

impl Home {
    /// `LITREV_HOME`, or `<data dir>/litrev`.
    ///
    /// # Errors
    /// When neither is available.
    pub fn from_env() -> Result<Home> {
        if let Some(root) = std::env::var_os("LITREV_HOME").filter(|root| !root.is_empty()) {
            return Ok(Home::at(PathBuf::from(root)));
        }
        dirs::data_dir()
            .map(|data| Home::at(data.join("litrev")))
            .ok_or(Error::NoHome)
    }

    /// A home at a given folder.
    pub fn at(root: PathBuf) -> Home {
        Home { root }
    }

    /// The folder itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The default store file.
    pub fn store_path(&self) -> PathBuf {
        self.root.join("litrev.sqlite")
    }

    /// The store `--db` names (a SQLite file, or a `postgres://` URL), or the default file.
    pub fn store_location(&self, db: Option<&Path>) -> litrev_store::Location {
        db.map_or_else(
            || litrev_store::Location::Sqlite(self.store_path()),
            |db| litrev_store::Location::parse(&db.to_string_lossy()),
        )
    }

    /// Where the HTTP response cache is kept.
    pub fn http_cache(&self) -> PathBuf {
        self.root.join("http-cache")
    }

    /// Where answers of language models are cached, so no answer is paid for twice.
    pub fn llm_cache(&self) -> PathBuf {
        self.root.join("llm-cache")
    }

    /// Where sentence embeddings are cached, one file per model.
    pub fn embeddings(&self) -> PathBuf {
        self.root.join("embeddings")
    }

    /// A new run's output folder when the run is asked for over the server or MCP:
    /// `reviews/<milliseconds>-<question's slug>` in the home, so runs never share one.
    pub fn review_folder(&self, question: &str) -> PathBuf {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_millis());
        let folder = crate::options::default_out_dir(question);
        let name = folder
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        self.root.join("reviews").join(format!("{stamp}-{name}"))
    }

    /// Where snapshot indexes are kept.
    pub fn snapshot_indexes(&self) -> PathBuf {
        self.root.join("snapshots")
    }
}
