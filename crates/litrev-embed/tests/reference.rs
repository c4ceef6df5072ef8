//! The embedder against reference vectors from an independent implementation
//! (`tests/fixtures/make_reference.py`: pure-Python WordPiece and a float64 NumPy forward pass),
//! plus batching and caching invariants on the real model.
#![allow(
    clippy::print_stderr,
    reason = "the accuracy figures are worth seeing in the test log"
)]

use litrev_embed::{Embedder, EmbedderOptions, EmbeddingCache};
use serde::Deserialize;

#[derive(Deserialize)]
struct Reference {
    max_tokens: usize,
    texts: Vec<Entry>,
    cosines: Vec<Vec<f64>>,
}

#[derive(Deserialize)]
struct Entry {
    text: String,
    tokens: usize,
    vector: Vec<f64>,
}

fn reference() -> Reference {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/reference.json");
    let text = std::fs::read_to_string(path).expect("fixture");
    serde_json::from_str(&text).expect("fixture parses")
}

fn cosine(a: &[f32], b: &[f64]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| f64::from(*x) * y).sum();
    let na: f64 = a.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    let nb: f64 = b.iter().map(|y| y * y).sum::<f64>().sqrt();
    dot / (na * nb)
}

#[test]
fn vectors_match_the_independent_reference() {
    let Some(dir) = litrev_testkit::embed_model() else {
        return;
    };
    let reference = reference();
    let embedder = Embedder::load(&dir).expect("model loads");
    assert_eq!(embedder.dimension(), 384);
    assert!(
        embedder.model_id().starts_with("all-MiniLM-L6-v2@"),
        "{}",
        embedder.model_id()
    );
    assert_eq!(embedder.options().max_tokens, reference.max_tokens);
    let texts: Vec<&str> = reference.texts.iter().map(|e| e.text.as_str()).collect();

    let tokens = embedder.tokenize(&texts).expect("tokenize");
    for (ids, entry) in tokens.iter().zip(&reference.texts) {
        assert_eq!(ids.len(), entry.tokens, "token count of {:?}", entry.text);
    }

    // All texts in one packed batch: different lengths side by side.
    let vectors = embedder.embed(&texts).expect("embed");
    let mut max_abs = 0.0_f64;
    let mut min_cos = 1.0_f64;
    for (vector, entry) in vectors.iter().zip(&reference.texts) {
        assert_eq!(vector.len(), 384);
        for (got, want) in vector.iter().zip(&entry.vector) {
            max_abs = max_abs.max((f64::from(*got) - want).abs());
        }
        min_cos = min_cos.min(cosine(vector, &entry.vector));
    }
    let mut max_cos_diff = 0.0_f64;
    for (i, a) in vectors.iter().enumerate() {
        for (j, b) in vectors.iter().enumerate() {
            let got: f64 = a.iter().zip(b).map(|(x, y)| f64::from(x * y)).sum();
            max_cos_diff = max_cos_diff.max((got - reference.cosines[i][j]).abs());
        }
    }
    eprintln!(
        "reference check: max |diff| {max_abs:.2e}, min cosine {min_cos:.9}, \
         max pairwise-cosine diff {max_cos_diff:.2e}"
    );
    assert!(max_abs < 1e-4, "max abs diff {max_abs}");
    assert!(min_cos > 1.0 - 1e-6, "min cosine {min_cos}");
    assert!(
        max_cos_diff < 1e-5,
        "pairwise cosines off by {max_cos_diff}"
    );
    // Unrelated texts are far apart (the wheel's fixed 128 padding would put them near 0.9).
    assert!(reference.cosines[1][3] < 0.3);

    // One by one, and with other batch and thread settings: the very same bytes (a token's
    // sums do not depend on what it is packed with).
    let single = Embedder::load_with(
        &dir,
        EmbedderOptions {
            batch_tokens: 1,
            workers: 1,
            ..EmbedderOptions::default()
        },
    )
    .expect("model loads");
    let alone = single.embed(&texts).expect("embed");
    assert_eq!(alone, vectors, "batching changed a vector");
    for text in &texts {
        let one = embedder.embed(&[text]).expect("embed one");
        let again = embedder.embed(&[text]).expect("embed one again");
        assert_eq!(one, again, "not deterministic");
    }
    assert!(embedder.embed(&[]).expect("nothing").is_empty());
    let empty = embedder.embed(&[""]).expect("empty text");
    assert_eq!(empty[0].len(), 384);
}

#[test]
fn the_cache_embeds_each_text_once_and_persists() {
    let Some(dir) = litrev_testkit::embed_model() else {
        return;
    };
    let embedder = Embedder::load(&dir).expect("model loads");
    let folder = tempfile::tempdir().expect("tempdir");
    let texts = ["a first text", "a second text", "a first text"];
    let direct = embedder.embed(&texts).expect("embed");
    {
        let mut cache =
            EmbeddingCache::for_embedder(&embedder, Some(folder.path())).expect("cache");
        let cached = cache.embed(&embedder, &texts).expect("cached embed");
        assert_eq!(cached, direct);
        assert_eq!(cache.len(), 2, "duplicates are embedded once");
    }
    let mut cache = EmbeddingCache::for_embedder(&embedder, Some(folder.path())).expect("reopen");
    assert_eq!(cache.len(), 2, "vectors persisted");
    assert_eq!(cache.get("a second text"), Some(direct[1].as_slice()));
    let again = cache.embed(&embedder, &texts[..2]).expect("from cache");
    assert_eq!(again, direct[..2].to_vec());
    assert_eq!(cache.len(), 2);
    let mut other = EmbeddingCache::in_memory("another-model", 384);
    assert!(
        other.embed(&embedder, &texts).is_err(),
        "a cache of another model is refused"
    );
}

#[test]
fn from_env_explains_a_missing_model() {
    // Only checks the message's advice; the variable itself is read by other tests too.
    let message = litrev_embed::Error::ModelNotFound {
        looked_in: "/nowhere".into(),
    }
    .to_string();
    assert!(message.contains("install-model.sh") && message.contains("LITREV_EMBED_MODEL"));
}
