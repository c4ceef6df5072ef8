//! Embedding throughput on OpenAlex Work files: the optimized embedder over every work, and,
//! for the ratio, candle's stock BERT (candle-transformers, fixed-order padded batches of 32
//! with an attention mask: the way candle runs out of the box) on a subset, in the same process.
//!
//! ```text
//! cargo run --release -p litrev-embed --features stock-bert-baseline --example bench_embed -- [OPTIONS] WORKS_FILE...
//!   --model DIR          model folder (default: LITREV_EMBED_MODEL, else $LITREV_HOME/models/...)
//!   --workers N          batches in flight, one thread each (default: one per core)
//!   --threads N          threads per batch (default 1)
//!   --batch-tokens N     tokens per packed batch (default 1024)
//!   --baseline-docs N    works for the stock-candle baseline (default 256; 0 skips it)
//!   --repeat N           optimized passes over all works (default 1)
//! ```
#![allow(clippy::print_stdout, reason = "an example reports on stdout")]

use std::path::PathBuf;
use std::time::Instant;

use candle_core::{DType, Device, Tensor};
use litrev_embed::{Embedder, EmbedderOptions, Throughput, throughput, work_text};

type Failure = Box<dyn std::error::Error + Send + Sync>;

struct Args {
    model: Option<PathBuf>,
    options: EmbedderOptions,
    baseline_docs: usize,
    repeat: usize,
    files: Vec<PathBuf>,
}

fn parse_args() -> Result<Args, Failure> {
    let mut args = Args {
        model: None,
        options: EmbedderOptions::default(),
        baseline_docs: 256,
        repeat: 1,
        files: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--model" => args.model = Some(PathBuf::from(value()?)),
            "--workers" => args.options.workers = value()?.parse()?,
            "--threads" => args.options.threads_per_worker = value()?.parse()?,
            "--batch-tokens" => args.options.batch_tokens = value()?.parse()?,
            "--baseline-docs" => args.baseline_docs = value()?.parse()?,
            "--repeat" => args.repeat = value()?.parse()?,
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}").into()),
            file => args.files.push(PathBuf::from(file)),
        }
    }
    if args.files.is_empty() {
        return Err("usage: bench_embed [OPTIONS] WORKS_FILE... (OpenAlex Work jsonl[.gz])".into());
    }
    Ok(args)
}

fn main() -> Result<(), Failure> {
    let args = parse_args()?;
    let (works, issues) = litrev_sources::SnapshotSource::read_works(&args.files)?;
    let texts: Vec<String> = works
        .iter()
        .map(|work| work_text(work.title.as_deref(), work.abstract_text.as_deref()))
        .collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let dir = match args.model {
        Some(dir) => dir,
        None => std::env::var_os(litrev_embed::MODEL_ENV)
            .map(PathBuf::from)
            .or_else(litrev_embed::default_model_dir)
            .ok_or("no model folder: pass --model or set LITREV_EMBED_MODEL")?,
    };
    let embedder = Embedder::load_with(&dir, args.options.clone())?;
    let lengths: Vec<usize> = embedder.tokenize(&texts)?.iter().map(Vec::len).collect();
    let truncated = lengths
        .iter()
        .filter(|&&n| n == args.options.max_tokens)
        .count();
    println!(
        "{} works ({} lines skipped) from {} file(s); {} tokens, {:.0} per work, {} truncated at {}",
        works.len(),
        issues.len(),
        args.files.len(),
        lengths.iter().sum::<usize>(),
        lengths.iter().sum::<usize>() as f64 / lengths.len().max(1) as f64,
        truncated,
        args.options.max_tokens
    );
    println!(
        "model {} ({}-d), options {:?}",
        embedder.model_id(),
        embedder.dimension(),
        args.options
    );
    // Warm-up: page in the weights, start the workers.
    embedder.embed(&texts[..texts.len().min(64)])?;

    if args.baseline_docs > 0 {
        let subset = &texts[..texts.len().min(args.baseline_docs)];
        let cpu = cpu_seconds();
        let (base, base_vectors) = stock_candle(&dir, subset, args.options.max_tokens)?;
        let base_cpu = cpu_seconds() - cpu;
        let cpu = cpu_seconds();
        let ours = throughput(&embedder, subset)?;
        let ours_cpu = cpu_seconds() - cpu;
        let vectors = embedder.embed(subset)?;
        let max_diff = vectors
            .iter()
            .zip(&base_vectors)
            .flat_map(|(a, b)| a.iter().zip(b).map(|(x, y)| (x - y).abs()))
            .fold(0.0_f32, f32::max);
        println!(
            "subset of {} works (same texts, same process):",
            subset.len()
        );
        report(
            "  stock candle (BertModel, fixed order, padded batches of 32)",
            &base,
            base_cpu,
        );
        report("  litrev-embed (packed, sorted, fused)", &ours, ours_cpu);
        println!(
            "  ratio {:.2}x docs/s wall-clock, {:.2}x per CPU-second; max |difference| between the two: {max_diff:.1e}",
            ours.docs_per_s / base.docs_per_s,
            (ours.docs as f64 / ours_cpu) / (base.docs as f64 / base_cpu)
        );
    }
    for pass in 1..=args.repeat {
        let cpu = cpu_seconds();
        let all = throughput(&embedder, &texts)?;
        report(
            &format!("all works, pass {pass}"),
            &all,
            cpu_seconds() - cpu,
        );
    }
    Ok(())
}

/// Prints a measurement, with the process CPU time it took: on a shared machine the wall clock
/// depends on the other load, tokens per CPU-second much less.
fn report(label: &str, t: &Throughput, cpu: f64) {
    println!(
        "{label}: {} docs, {} tokens in {:.2} s = {:.1} docs/s, {:.0} tokens/s \
         (CPU {:.2} s, {:.0}% of one core, {:.0} tokens per CPU-second)",
        t.docs,
        t.tokens,
        t.seconds,
        t.docs_per_s,
        t.tokens_per_s,
        cpu,
        100.0 * cpu / t.seconds,
        t.tokens as f64 / cpu
    );
}

/// User + system CPU time of this process so far (Linux `/proc/self/stat`, 100 ticks a second);
/// NaN elsewhere.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and
    // 13th.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    match (ticks(11), ticks(12)) {
        (Some(user), Some(system)) => (user + system) / 100.0,
        _ => f64::NAN,
    }
}

/// candle-transformers' BERT as its examples run it: batches of 32 in input order, padded to
/// the longest, attention mask, masked mean pooling, L2 normalisation.
fn stock_candle(
    dir: &std::path::Path,
    texts: &[&str],
    max_tokens: usize,
) -> Result<(Throughput, Vec<Vec<f32>>), Failure> {
    use candle_transformers::models::bert::{BertModel, Config};
    let device = Device::Cpu;
    let config: Config = serde_json::from_str(&std::fs::read_to_string(dir.join("config.json"))?)?;
    let weights = std::fs::read(dir.join("model.safetensors"))?;
    let vb = candle_nn::VarBuilder::from_buffered_safetensors(weights, DType::F32, &device)?;
    let model = BertModel::load(vb, &config)?;
    let mut tokenizer = tokenizers::Tokenizer::from_file(dir.join("tokenizer.json"))?;
    tokenizer.with_padding(Some(tokenizers::PaddingParams {
        strategy: tokenizers::PaddingStrategy::BatchLongest,
        ..Default::default()
    }));
    tokenizer.with_truncation(Some(tokenizers::TruncationParams {
        max_length: max_tokens,
        ..Default::default()
    }))?;
    let tokens: usize = texts
        .iter()
        .map(|t| {
            tokenizer
                .encode(*t, true)
                .map(|e| e.get_attention_mask().iter().sum::<u32>())
        })
        .sum::<Result<u32, _>>()? as usize;
    let start = Instant::now();
    let mut vectors = Vec::with_capacity(texts.len());
    for chunk in texts.chunks(32) {
        let encodings = tokenizer.encode_batch(chunk.to_vec(), true)?;
        let ids: Vec<Tensor> = encodings
            .iter()
            .map(|e| Tensor::new(e.get_ids(), &device))
            .collect::<Result<_, _>>()?;
        let masks: Vec<Tensor> = encodings
            .iter()
            .map(|e| Tensor::new(e.get_attention_mask(), &device))
            .collect::<Result<_, _>>()?;
        let ids = Tensor::stack(&ids, 0)?;
        let mask = Tensor::stack(&masks, 0)?;
        let types = ids.zeros_like()?;
        let states = model.forward(&ids, &types, Some(&mask))?;
        let mask = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
        let summed = states.broadcast_mul(&mask)?.sum(1)?;
        let pooled = summed.broadcast_div(&mask.sum(1)?)?;
        let norms = pooled.sqr()?.sum_keepdim(1)?.sqrt()?;
        vectors.extend(pooled.broadcast_div(&norms)?.to_vec2::<f32>()?);
    }
    let seconds = start.elapsed().as_secs_f64();
    Ok((Throughput::new(texts.len(), tokens, seconds), vectors))
}
