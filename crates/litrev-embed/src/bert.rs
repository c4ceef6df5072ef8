//! The BERT encoder of a sentence-transformers model, run on packed batches.
//!
//! A batch is many sequences laid end to end, one row per real token: the dense layers (≈ 90 %
//! of the work) are single large matmuls over every token of the batch with no padding rows,
//! and attention runs sequence by sequence over exactly its own tokens, so no mask is needed.
//! Matmuls go through candle (gemm); the rest is fused loops in [`crate::kernels`].

use std::collections::HashMap;
use std::path::Path;

use candle_core::{CpuStorage, DType, Device, InplaceOp1, InplaceOp2, Layout, Storage, Tensor};
use serde::Deserialize;

use crate::kernels;
use crate::{Error, Result};

/// The parts of a Hugging Face `config.json` the encoder needs.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Config {
    pub hidden_size: usize,
    pub num_attention_heads: usize,
    pub num_hidden_layers: usize,
    pub intermediate_size: usize,
    pub max_position_embeddings: usize,
    #[serde(default = "default_eps")]
    pub layer_norm_eps: f64,
    #[serde(default = "default_act")]
    pub hidden_act: String,
    #[serde(default = "default_position")]
    pub position_embedding_type: String,
}

fn default_eps() -> f64 {
    1e-12
}

fn default_act() -> String {
    "gelu".to_owned()
}

fn default_position() -> String {
    "absolute".to_owned()
}

/// One encoder layer; matmul weights are stored transposed (`[in, out]`, contiguous).
struct Layer {
    qkv: Tensor,
    qkv_bias: Vec<f32>,
    attention_out: Tensor,
    attention_out_bias: Vec<f32>,
    attention_norm: (Vec<f32>, Vec<f32>),
    intermediate: Tensor,
    intermediate_bias: Vec<f32>,
    output: Tensor,
    output_bias: Vec<f32>,
    output_norm: (Vec<f32>, Vec<f32>),
}

/// The loaded encoder.
pub(crate) struct Bert {
    hidden: usize,
    heads: usize,
    eps: f32,
    max_positions: usize,
    word: Vec<f32>,
    vocab: usize,
    position: Vec<f32>,
    token_type: Vec<f32>,
    embedding_norm: (Vec<f32>, Vec<f32>),
    layers: Vec<Layer>,
}

struct Weights {
    tensors: HashMap<String, Tensor>,
}

impl Weights {
    fn tensor(&self, name: &str, shape: &[usize]) -> Result<Tensor> {
        let tensor = self
            .tensors
            .get(name)
            .ok_or_else(|| Error::Weights(format!("{name} is missing")))?;
        if tensor.dims() != shape {
            return Err(Error::Weights(format!(
                "{name} has shape {:?}, expected {shape:?}",
                tensor.dims()
            )));
        }
        Ok(tensor.to_dtype(DType::F32)?)
    }

    fn vector(&self, name: &str, len: usize) -> Result<Vec<f32>> {
        Ok(self.tensor(name, &[len])?.to_vec1()?)
    }

    fn flat(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>> {
        Ok(self.tensor(name, shape)?.flatten_all()?.to_vec1()?)
    }

    /// A `[out, in]` linear weight as a contiguous `[in, out]` matrix.
    fn linear(&self, name: &str, out: usize, input: usize) -> Result<Tensor> {
        Ok(self.tensor(name, &[out, input])?.t()?.contiguous()?)
    }

    fn norm(&self, prefix: &str, len: usize) -> Result<(Vec<f32>, Vec<f32>)> {
        Ok((
            self.vector(&format!("{prefix}.weight"), len)?,
            self.vector(&format!("{prefix}.bias"), len)?,
        ))
    }
}

impl Bert {
    /// Builds the encoder from a config and the bytes of `model.safetensors`.
    pub(crate) fn load(config: &Config, config_path: &Path, safetensors: &[u8]) -> Result<Self> {
        let bad = |message: String| Error::Config {
            path: config_path.to_path_buf(),
            message,
        };
        if config.hidden_act != "gelu" {
            return Err(bad(format!(
                "hidden_act {:?} is not supported (only \"gelu\")",
                config.hidden_act
            )));
        }
        if config.position_embedding_type != "absolute" {
            return Err(bad(format!(
                "position_embedding_type {:?} is not supported (only \"absolute\")",
                config.position_embedding_type
            )));
        }
        let hidden = config.hidden_size;
        let heads = config.num_attention_heads;
        if heads == 0 || !hidden.is_multiple_of(heads) || !matches!(hidden / heads, 32 | 64) {
            return Err(bad(format!(
                "{heads} heads over {hidden} dimensions: only heads of 32 or 64 are supported"
            )));
        }
        let loaded = candle_core::safetensors::load_buffer(safetensors, &Device::Cpu)?;
        // sentence-transformers saves the encoder bare; transformers prefixes it with "bert.".
        let tensors = loaded
            .into_iter()
            .map(|(name, tensor)| {
                let name = name
                    .strip_prefix("bert.")
                    .map(str::to_owned)
                    .unwrap_or(name);
                (name, tensor)
            })
            .collect();
        let weights = Weights { tensors };
        let word_shape = weights
            .tensors
            .get("embeddings.word_embeddings.weight")
            .map(|t| t.dims().to_vec())
            .ok_or_else(|| Error::Weights("embeddings.word_embeddings.weight is missing".into()))?;
        let vocab = word_shape.first().copied().unwrap_or(0);
        let word = weights.flat("embeddings.word_embeddings.weight", &[vocab, hidden])?;
        let position = weights.flat(
            "embeddings.position_embeddings.weight",
            &[config.max_position_embeddings, hidden],
        )?;
        let token_type = weights
            .tensors
            .get("embeddings.token_type_embeddings.weight")
            .ok_or_else(|| {
                Error::Weights("embeddings.token_type_embeddings.weight is missing".into())
            })?
            .to_dtype(DType::F32)?
            .get(0)?
            .to_vec1()?;
        if token_type.len() != hidden {
            return Err(Error::Weights(
                "token type embeddings of the wrong width".into(),
            ));
        }
        let embedding_norm = weights.norm("embeddings.LayerNorm", hidden)?;
        // Scaling the queries by 1/sqrt(head size) once here saves a pass over every score.
        let scale = 1.0 / ((hidden / heads) as f64).sqrt();
        let mut layers = Vec::with_capacity(config.num_hidden_layers);
        for index in 0..config.num_hidden_layers {
            let p = format!("encoder.layer.{index}");
            let inter = config.intermediate_size;
            let query =
                weights.linear(&format!("{p}.attention.self.query.weight"), hidden, hidden)?;
            let key = weights.linear(&format!("{p}.attention.self.key.weight"), hidden, hidden)?;
            let value =
                weights.linear(&format!("{p}.attention.self.value.weight"), hidden, hidden)?;
            let qkv = Tensor::cat(&[(query * scale)?, key, value], 1)?.contiguous()?;
            let mut qkv_bias: Vec<f32> = weights
                .vector(&format!("{p}.attention.self.query.bias"), hidden)?
                .into_iter()
                .map(|b| (f64::from(b) * scale) as f32)
                .collect();
            qkv_bias.extend(weights.vector(&format!("{p}.attention.self.key.bias"), hidden)?);
            qkv_bias.extend(weights.vector(&format!("{p}.attention.self.value.bias"), hidden)?);
            layers.push(Layer {
                qkv,
                qkv_bias,
                attention_out: weights.linear(
                    &format!("{p}.attention.output.dense.weight"),
                    hidden,
                    hidden,
                )?,
                attention_out_bias: weights
                    .vector(&format!("{p}.attention.output.dense.bias"), hidden)?,
                attention_norm: weights.norm(&format!("{p}.attention.output.LayerNorm"), hidden)?,
                intermediate: weights.linear(
                    &format!("{p}.intermediate.dense.weight"),
                    inter,
                    hidden,
                )?,
                intermediate_bias: weights
                    .vector(&format!("{p}.intermediate.dense.bias"), inter)?,
                output: weights.linear(&format!("{p}.output.dense.weight"), hidden, inter)?,
                output_bias: weights.vector(&format!("{p}.output.dense.bias"), hidden)?,
                output_norm: weights.norm(&format!("{p}.output.LayerNorm"), hidden)?,
            });
        }
        Ok(Self {
            hidden,
            heads,
            eps: config.layer_norm_eps as f32,
            max_positions: config.max_position_embeddings,
            word,
            vocab,
            position,
            token_type,
            embedding_norm,
            layers,
        })
    }

    /// Width of the hidden states and of the pooled embedding.
    pub(crate) fn hidden(&self) -> usize {
        self.hidden
    }

    /// Longest sequence the position embeddings allow.
    pub(crate) fn max_positions(&self) -> usize {
        self.max_positions
    }

    /// Mean-pooled, L2-normalised embeddings of `sequences` (token ids), in order.
    pub(crate) fn embed_packed(&self, sequences: &[&[u32]]) -> Result<Vec<Vec<f32>>> {
        let h = self.hidden;
        let lengths: Vec<usize> = sequences.iter().map(|s| s.len()).collect();
        let total: usize = lengths.iter().sum();
        if total == 0 {
            return Ok(vec![vec![0.0; h]; sequences.len()]);
        }
        let mut x = vec![0.0_f32; total * h];
        let mut rows = x.chunks_exact_mut(h);
        for sequence in sequences {
            if sequence.len() > self.max_positions {
                return Err(Error::Tokenizer(format!(
                    "a sequence of {} tokens is longer than the model's {} positions",
                    sequence.len(),
                    self.max_positions
                )));
            }
            for (position, (&id, row)) in sequence.iter().zip(&mut rows).enumerate() {
                let id = id as usize;
                if id >= self.vocab {
                    return Err(Error::Tokenizer(format!(
                        "token id {id} outside the vocabulary"
                    )));
                }
                let word = &self.word[id * h..(id + 1) * h];
                let pos = &self.position[position * h..(position + 1) * h];
                for (((out, w), p), t) in row.iter_mut().zip(word).zip(pos).zip(&self.token_type) {
                    *out = w + p + t;
                }
            }
        }
        kernels::layer_norm(
            &mut x,
            &self.embedding_norm.0,
            &self.embedding_norm.1,
            self.eps,
        );
        let mut x = Tensor::from_vec(x, (total, h), &Device::Cpu)?;
        let mut context = vec![0.0_f32; total * h];
        for layer in &self.layers {
            let qkv = x.matmul(&layer.qkv)?;
            qkv.inplace_op1(&AddBias(&layer.qkv_bias))?;
            with_slice(&qkv, |qkv| {
                kernels::attention(qkv, &lengths, self.heads, h / self.heads, &mut context);
            })?;
            drop(qkv);
            let attended = Tensor::from_slice(&context, (total, h), &Device::Cpu)?
                .matmul(&layer.attention_out)?;
            attended.inplace_op2(
                &x,
                &ResidualNorm {
                    bias: &layer.attention_out_bias,
                    norm: &layer.attention_norm,
                    eps: self.eps,
                },
            )?;
            x = attended;
            let inner = x.matmul(&layer.intermediate)?;
            inner.inplace_op1(&BiasGelu(&layer.intermediate_bias))?;
            let out = inner.matmul(&layer.output)?;
            drop(inner);
            out.inplace_op2(
                &x,
                &ResidualNorm {
                    bias: &layer.output_bias,
                    norm: &layer.output_norm,
                    eps: self.eps,
                },
            )?;
            x = out;
        }
        with_slice(&x, |states| {
            let mut pooled = Vec::with_capacity(sequences.len());
            let mut start = 0;
            for &n in &lengths {
                let mut mean = vec![0.0_f32; h];
                for row in states[start * h..(start + n) * h].chunks_exact(h) {
                    for (m, v) in mean.iter_mut().zip(row) {
                        *m += v;
                    }
                }
                let norm = mean.iter().map(|v| v * v).sum::<f32>().sqrt();
                // Dividing by n before normalising would not change the direction.
                if norm > 0.0 {
                    mean.iter_mut().for_each(|v| *v /= norm);
                }
                pooled.push(mean);
                start += n;
            }
            pooled
        })
    }
}

/// Runs `f` on the contiguous f32 data of a CPU tensor.
fn with_slice<R>(tensor: &Tensor, f: impl FnOnce(&[f32]) -> R) -> Result<R> {
    let (storage, layout) = tensor.storage_and_layout();
    let Storage::Cpu(cpu) = &*storage else {
        return Err(Error::Weights("tensor is not on the CPU".into()));
    };
    let data = cpu.as_slice::<f32>()?;
    let (start, end) = contiguous(layout)?;
    Ok(f(&data[start..end]))
}

fn contiguous(layout: &Layout) -> candle_core::Result<(usize, usize)> {
    layout
        .contiguous_offsets()
        .ok_or_else(|| candle_core::Error::Msg("expected a contiguous tensor".into()))
}

fn f32_mut<'a>(storage: &'a mut CpuStorage, layout: &Layout) -> candle_core::Result<&'a mut [f32]> {
    let (start, end) = contiguous(layout)?;
    match storage {
        CpuStorage::F32(data) => Ok(&mut data[start..end]),
        _ => Err(candle_core::Error::Msg("expected f32 storage".into())),
    }
}

fn f32_ref<'a>(storage: &'a CpuStorage, layout: &Layout) -> candle_core::Result<&'a [f32]> {
    let (start, end) = contiguous(layout)?;
    Ok(&storage.as_slice::<f32>()?[start..end])
}

/// `x += bias` in place, row by row.
struct AddBias<'a>(&'a [f32]);

impl InplaceOp1 for AddBias<'_> {
    fn name(&self) -> &'static str {
        "litrev-add-bias"
    }

    fn cpu_fwd(&self, storage: &mut CpuStorage, layout: &Layout) -> candle_core::Result<()> {
        kernels::add_bias(f32_mut(storage, layout)?, self.0);
        Ok(())
    }
}

/// `x = GELU(x + bias)` in place.
struct BiasGelu<'a>(&'a [f32]);

impl InplaceOp1 for BiasGelu<'_> {
    fn name(&self) -> &'static str {
        "litrev-bias-gelu"
    }

    fn cpu_fwd(&self, storage: &mut CpuStorage, layout: &Layout) -> candle_core::Result<()> {
        kernels::bias_gelu(f32_mut(storage, layout)?, self.0);
        Ok(())
    }
}

/// `x = LayerNorm(x + bias + residual)` in place.
struct ResidualNorm<'a> {
    bias: &'a [f32],
    norm: &'a (Vec<f32>, Vec<f32>),
    eps: f32,
}

impl InplaceOp2 for ResidualNorm<'_> {
    fn name(&self) -> &'static str {
        "litrev-residual-norm"
    }

    fn cpu_fwd(
        &self,
        storage: &mut CpuStorage,
        layout: &Layout,
        residual: &CpuStorage,
        residual_layout: &Layout,
    ) -> candle_core::Result<()> {
        let rows = f32_mut(storage, layout)?;
        let residual = f32_ref(residual, residual_layout)?;
        if rows.len() != residual.len() {
            return Err(candle_core::Error::Msg("residual of another shape".into()));
        }
        kernels::bias_residual_layer_norm(
            rows,
            self.bias,
            residual,
            &self.norm.0,
            &self.norm.1,
            self.eps,
        );
        Ok(())
    }
}
