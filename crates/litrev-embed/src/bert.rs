//! The BERT encoder of a sentence-transformers model, run on packed batches.
//!
//! A batch is many sequences laid end to end, one row per real token: the dense layers (≈ 90 %
//! of the work) are single large matmuls over every token of the batch with no padding rows,
//! and attention runs sequence by sequence over exactly its own tokens, so no mask is needed.
//! Matmuls go to gemm directly (single-threaded: the embedder runs one batch per core); the rest
//! is fused loops in [`crate::kernels`]. Weights are read from `model.safetensors` with the
//! `safetensors` crate and widened to f32.

use std::path::Path;

use safetensors::tensor::TensorView;
use safetensors::{Dtype, SafeTensors};
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

/// A row-major matrix of f32.
struct Matrix {
    rows: usize,
    columns: usize,
    values: Vec<f32>,
}

impl Matrix {
    /// `x · self` for `x` of `x.len() / self.rows` rows: a new row-major matrix of
    /// `self.columns` columns.
    #[allow(unsafe_code)]
    fn right_multiply(&self, x: &[f32]) -> Vec<f32> {
        let k = self.rows;
        let n = self.columns;
        let m = x.len() / k;
        assert_eq!(m * k, x.len(), "a matmul's left side has whole rows");
        assert_eq!(
            k * n,
            self.values.len(),
            "a matrix holds rows × columns values"
        );
        let mut out = vec![0.0_f32; m * n];
        // SAFETY: `x` holds m×k values, `self.values` k×n and `out` m×n, all row-major with the
        // strides given; `out` is not read (read_dst false) and aliases neither input.
        unsafe {
            gemm_f32::gemm::f32::get_gemm_fn()(
                m,
                n,
                k,
                out.as_mut_ptr(),
                1,
                n as isize,
                false,
                x.as_ptr(),
                1,
                k as isize,
                self.values.as_ptr(),
                1,
                n as isize,
                0.0,
                1.0,
                false,
                false,
                false,
                gemm_common::Parallelism::None,
            );
        }
        out
    }
}

/// One encoder layer; matmul weights are stored transposed (`[in, out]`, contiguous).
struct Layer {
    qkv: Matrix,
    qkv_bias: Vec<f32>,
    attention_out: Matrix,
    attention_out_bias: Vec<f32>,
    attention_norm: (Vec<f32>, Vec<f32>),
    intermediate: Matrix,
    intermediate_bias: Vec<f32>,
    output: Matrix,
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

/// The tensors of `model.safetensors`, read on demand and widened to f32.
struct Weights<'a> {
    file: SafeTensors<'a>,
}

impl<'a> Weights<'a> {
    /// The tensor of that name: sentence-transformers saves the encoder bare, transformers
    /// prefixes it with "bert.".
    fn view(&self, name: &str) -> Option<TensorView<'a>> {
        self.file
            .tensor(name)
            .or_else(|_| self.file.tensor(&format!("bert.{name}")))
            .ok()
    }

    /// The shape of a tensor, if there is one of that name.
    fn shape(&self, name: &str) -> Option<Vec<usize>> {
        self.view(name).map(|view| view.shape().to_vec())
    }

    /// The values of a tensor of `shape`, row-major.
    fn flat(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>> {
        let view = self
            .view(name)
            .ok_or_else(|| Error::Weights(format!("{name} is missing")))?;
        if view.shape() != shape {
            return Err(Error::Weights(format!(
                "{name} has shape {:?}, expected {shape:?}",
                view.shape()
            )));
        }
        let bytes = view.data();
        let values: Vec<f32> = match view.dtype() {
            Dtype::F32 => bytes
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect(),
            Dtype::F16 => bytes
                .chunks_exact(2)
                .map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect(),
            Dtype::BF16 => bytes
                .chunks_exact(2)
                .map(|b| half::bf16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect(),
            other => {
                return Err(Error::Weights(format!(
                    "{name} is stored as {other:?}: only F32, F16 and BF16 weights are supported"
                )));
            }
        };
        if values.len() != shape.iter().product::<usize>() {
            return Err(Error::Weights(format!(
                "{name} holds {} values for shape {shape:?}",
                values.len()
            )));
        }
        Ok(values)
    }

    fn vector(&self, name: &str, len: usize) -> Result<Vec<f32>> {
        self.flat(name, &[len])
    }

    /// A `[out, in]` linear weight as a contiguous `[in, out]` matrix, each value times `scale`.
    fn linear(&self, name: &str, out: usize, input: usize, scale: f32) -> Result<Matrix> {
        let weight = self.flat(name, &[out, input])?;
        let mut values = vec![0.0_f32; out * input];
        for (o, row) in weight.chunks_exact(input).enumerate() {
            for (i, &w) in row.iter().enumerate() {
                values[i * out + o] = w * scale;
            }
        }
        Ok(Matrix {
            rows: input,
            columns: out,
            values,
        })
    }

    fn norm(&self, prefix: &str, len: usize) -> Result<(Vec<f32>, Vec<f32>)> {
        Ok((
            self.vector(&format!("{prefix}.weight"), len)?,
            self.vector(&format!("{prefix}.bias"), len)?,
        ))
    }
}

/// The `[in, a + b + …]` matrix whose columns are those of `parts` side by side.
fn side_by_side(parts: &[Matrix]) -> Matrix {
    let rows = parts.first().map_or(0, |part| part.rows);
    let columns: usize = parts.iter().map(|part| part.columns).sum();
    let mut values = Vec::with_capacity(rows * columns);
    for row in 0..rows {
        for part in parts {
            values.extend_from_slice(&part.values[row * part.columns..(row + 1) * part.columns]);
        }
    }
    Matrix {
        rows,
        columns,
        values,
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
        let file = SafeTensors::deserialize(safetensors)
            .map_err(|e| Error::Weights(format!("model.safetensors: {e}")))?;
        let weights = Weights { file };
        let word_shape = weights
            .shape("embeddings.word_embeddings.weight")
            .ok_or_else(|| Error::Weights("embeddings.word_embeddings.weight is missing".into()))?;
        let vocab = word_shape.first().copied().unwrap_or(0);
        let word = weights.flat("embeddings.word_embeddings.weight", &[vocab, hidden])?;
        let position = weights.flat(
            "embeddings.position_embeddings.weight",
            &[config.max_position_embeddings, hidden],
        )?;
        let token_types = weights
            .shape("embeddings.token_type_embeddings.weight")
            .and_then(|shape| shape.first().copied())
            .unwrap_or(0);
        let mut token_type = weights.flat(
            "embeddings.token_type_embeddings.weight",
            &[token_types, hidden],
        )?;
        if token_type.len() < hidden {
            return Err(Error::Weights(
                "token type embeddings of the wrong width".into(),
            ));
        }
        token_type.truncate(hidden);
        let embedding_norm = weights.norm("embeddings.LayerNorm", hidden)?;
        // Scaling the queries by 1/sqrt(head size) once here saves a pass over every score.
        let scale = 1.0 / ((hidden / heads) as f64).sqrt();
        let mut layers = Vec::with_capacity(config.num_hidden_layers);
        for index in 0..config.num_hidden_layers {
            let p = format!("encoder.layer.{index}");
            let inter = config.intermediate_size;
            let query = weights.linear(
                &format!("{p}.attention.self.query.weight"),
                hidden,
                hidden,
                scale as f32,
            )?;
            let key = weights.linear(
                &format!("{p}.attention.self.key.weight"),
                hidden,
                hidden,
                1.0,
            )?;
            let value = weights.linear(
                &format!("{p}.attention.self.value.weight"),
                hidden,
                hidden,
                1.0,
            )?;
            let qkv = side_by_side(&[query, key, value]);
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
                    1.0,
                )?,
                attention_out_bias: weights
                    .vector(&format!("{p}.attention.output.dense.bias"), hidden)?,
                attention_norm: weights.norm(&format!("{p}.attention.output.LayerNorm"), hidden)?,
                intermediate: weights.linear(
                    &format!("{p}.intermediate.dense.weight"),
                    inter,
                    hidden,
                    1.0,
                )?,
                intermediate_bias: weights
                    .vector(&format!("{p}.intermediate.dense.bias"), inter)?,
                output: weights.linear(&format!("{p}.output.dense.weight"), hidden, inter, 1.0)?,
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
        let mut context = vec![0.0_f32; total * h];
        for layer in &self.layers {
            let mut qkv = layer.qkv.right_multiply(&x);
            kernels::add_bias(&mut qkv, &layer.qkv_bias);
            kernels::attention(&qkv, &lengths, self.heads, h / self.heads, &mut context);
            drop(qkv);
            let mut attended = layer.attention_out.right_multiply(&context);
            kernels::bias_residual_layer_norm(
                &mut attended,
                &layer.attention_out_bias,
                &x,
                &layer.attention_norm.0,
                &layer.attention_norm.1,
                self.eps,
            );
            x = attended;
            let mut inner = layer.intermediate.right_multiply(&x);
            kernels::bias_gelu(&mut inner, &layer.intermediate_bias);
            let mut out = layer.output.right_multiply(&inner);
            drop(inner);
            kernels::bias_residual_layer_norm(
                &mut out,
                &layer.output_bias,
                &x,
                &layer.output_norm.0,
                &layer.output_norm.1,
                self.eps,
            );
            x = out;
        }
        let mut pooled = Vec::with_capacity(sequences.len());
        let mut start = 0;
        for &n in &lengths {
            let mut mean = vec![0.0_f32; h];
            for row in x[start * h..(start + n) * h].chunks_exact(h) {
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
        Ok(pooled)
    }
}
