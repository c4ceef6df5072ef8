//! Embedding throughput, for `litrev bench embed` and the `bench_embed` example.

use std::time::Instant;

use crate::{Embedder, Result};

/// How fast an embedder went over a set of texts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Throughput {
    /// Texts embedded.
    pub docs: usize,
    /// Their tokens after truncation, `[CLS]` and `[SEP]` included (no padding).
    pub tokens: usize,
    /// Wall-clock time of [`Embedder::embed`] (tokenising included).
    pub seconds: f64,
    /// `docs / seconds`.
    pub docs_per_s: f64,
    /// `tokens / seconds`.
    pub tokens_per_s: f64,
}

impl Throughput {
    /// A measurement of `docs` texts holding `tokens` tokens embedded in `seconds`.
    pub fn new(docs: usize, tokens: usize, seconds: f64) -> Self {
        let per_s = |count: usize| {
            if seconds > 0.0 {
                count as f64 / seconds
            } else {
                0.0
            }
        };
        Self {
            docs,
            tokens,
            seconds,
            docs_per_s: per_s(docs),
            tokens_per_s: per_s(tokens),
        }
    }
}

/// Embeds `texts` once with `embedder` and reports the rate. The tokens are counted beforehand
/// (untimed); the timed call is the ordinary [`Embedder::embed`], tokenising included.
///
/// # Errors
/// When embedding fails.
pub fn throughput(embedder: &Embedder, texts: &[&str]) -> Result<Throughput> {
    let tokens = embedder.tokenize(texts)?.iter().map(Vec::len).sum();
    let start = Instant::now();
    let vectors = embedder.embed(texts)?;
    let seconds = start.elapsed().as_secs_f64();
    debug_assert_eq!(vectors.len(), texts.len());
    Ok(Throughput::new(texts.len(), tokens, seconds))
}
