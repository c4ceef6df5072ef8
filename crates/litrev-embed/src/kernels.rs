//! The encoder's non-matmul work as fused CPU loops: bias + GELU, bias + residual + layer norm,
//! and packed multi-head attention (scores, softmax and weighted values per sequence, no padding
//! and so no mask).
//!
//! Every entry point runs its loop through [`pulp::Arch::dispatch`], which picks the widest
//! instruction set the CPU has at run time (AVX-512, else AVX2 + FMA, else SSE2) and compiles the
//! loop body for it, so the build stays portable without `-C target-cpu=native`. Bodies are
//! written so that LLVM vectorises them: fixed-width lane arrays for reductions, branch-free
//! polynomial `exp` and `erf` instead of libm calls.

/// Lanes of the hand-split reductions and of the attention micro-kernel (one AVX-512 register).
const LANES: usize = 16;

fn arch() -> pulp::Arch {
    static ARCH: std::sync::OnceLock<pulp::Arch> = std::sync::OnceLock::new();
    *ARCH.get_or_init(pulp::Arch::new)
}

/// `a * b + c`, fused where the vector unit has FMA (every x86 level above SSE2; a fused
/// multiply-add without hardware support is a slow library call, so the scalar path does not).
#[inline(always)]
fn fma<S: pulp::Simd>(a: f32, b: f32, c: f32) -> f32 {
    if S::F32_LANES > 1 {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// `e^x` for `x <= 88`, within 2 ulp: Cephes' polynomial after a round-to-nearest range
/// reduction done with the 1.5·2²³ trick, so that it vectorises.
#[inline(always)]
fn exp<S: pulp::Simd>(x: f32) -> f32 {
    const LOG2E: f32 = std::f32::consts::LOG2_E;
    const SHIFT: f32 = 12_582_912.0; // 1.5 * 2^23
    let x = if x < -87.0 { -87.0 } else { x };
    let shifted = fma::<S>(x, LOG2E, SHIFT);
    let n = shifted - SHIFT;
    let r = fma::<S>(n, 2.121_944_4e-4, fma::<S>(n, -0.693_359_4, x));
    let mut p = 1.987_569_1e-4_f32;
    p = fma::<S>(p, r, 1.398_199_9e-3);
    p = fma::<S>(p, r, 8.333_452e-3);
    p = fma::<S>(p, r, 4.166_579_6e-2);
    p = fma::<S>(p, r, 0.166_666_65);
    p = fma::<S>(p, r, 0.5);
    let y = fma::<S>(p, r * r, r + 1.0);
    // The low bits of `shifted` hold n + 2^22; move n into the exponent field.
    let bits = (shifted.to_bits().wrapping_sub(0x4B40_0000_u32)).wrapping_add(127) << 23;
    y * f32::from_bits(bits)
}

/// `erf(x)` within about 1e-7: the rational approximation Eigen and XLA use for f32.
#[inline(always)]
fn erf<S: pulp::Simd>(x: f32) -> f32 {
    let x = x.clamp(-4.0, 4.0);
    let x2 = x * x;
    let mut p = -2.726_142_3e-10_f32;
    p = fma::<S>(p, x2, 2.770_681_4e-8);
    p = fma::<S>(p, x2, -2.101_024e-6);
    p = fma::<S>(p, x2, -5.692_506_4e-5);
    p = fma::<S>(p, x2, -7.349_906_3e-4);
    p = fma::<S>(p, x2, -2.954_600_1e-3);
    p = fma::<S>(p, x2, -1.609_603_3e-2);
    p *= x;
    let mut q = -1.456_607_2e-5_f32;
    q = fma::<S>(q, x2, -2.133_740_6e-4);
    q = fma::<S>(q, x2, -1.682_827e-3);
    q = fma::<S>(q, x2, -7.373_329e-3);
    q = fma::<S>(q, x2, -1.426_474e-2);
    p / q
}

/// The exact (erf) GELU BERT uses.
#[inline(always)]
fn gelu<S: pulp::Simd>(x: f32) -> f32 {
    0.5 * x * (1.0 + erf::<S>(x * std::f32::consts::FRAC_1_SQRT_2))
}

#[inline(always)]
fn sum(values: &[f32]) -> f32 {
    let mut lanes = [0.0_f32; LANES];
    let mut chunks = values.chunks_exact(LANES);
    for chunk in &mut chunks {
        for (lane, value) in lanes.iter_mut().zip(chunk) {
            *lane += value;
        }
    }
    lanes.iter().sum::<f32>() + chunks.remainder().iter().sum::<f32>()
}

/// Layer norm of one row in place.
#[inline(always)]
fn normalize_row(row: &mut [f32], gamma: &[f32], beta: &[f32], eps: f32) {
    let n = row.len() as f32;
    let mean = sum(row) / n;
    let mut lanes = [0.0_f32; LANES];
    let mut chunks = row.chunks_exact(LANES);
    for chunk in &mut chunks {
        for (lane, value) in lanes.iter_mut().zip(chunk) {
            let d = value - mean;
            *lane += d * d;
        }
    }
    let tail: f32 = chunks
        .remainder()
        .iter()
        .map(|v| (v - mean) * (v - mean))
        .sum();
    let variance = (lanes.iter().sum::<f32>() + tail) / n;
    let scale = 1.0 / (variance + eps).sqrt();
    for ((value, g), b) in row.iter_mut().zip(gamma).zip(beta) {
        *value = (*value - mean) * scale * g + b;
    }
}

/// `rows[r] = LayerNorm(rows[r])` for each row of `gamma.len()` values.
pub(crate) fn layer_norm(rows: &mut [f32], gamma: &[f32], beta: &[f32], eps: f32) {
    struct Op<'a>(&'a mut [f32], &'a [f32], &'a [f32], f32);
    impl pulp::WithSimd for Op<'_> {
        type Output = ();
        #[inline(always)]
        fn with_simd<S: pulp::Simd>(self, _: S) {
            let Op(rows, gamma, beta, eps) = self;
            for row in rows.chunks_exact_mut(gamma.len()) {
                normalize_row(row, gamma, beta, eps);
            }
        }
    }
    arch().dispatch(Op(rows, gamma, beta, eps));
}

/// `rows[r] = LayerNorm(rows[r] + bias + residual[r])`: the end of every BERT sub-layer.
pub(crate) fn bias_residual_layer_norm(
    rows: &mut [f32],
    bias: &[f32],
    residual: &[f32],
    gamma: &[f32],
    beta: &[f32],
    eps: f32,
) {
    struct Op<'a> {
        rows: &'a mut [f32],
        bias: &'a [f32],
        residual: &'a [f32],
        gamma: &'a [f32],
        beta: &'a [f32],
        eps: f32,
    }
    impl pulp::WithSimd for Op<'_> {
        type Output = ();
        #[inline(always)]
        fn with_simd<S: pulp::Simd>(self, _: S) {
            let width = self.bias.len();
            let rows = self.rows.chunks_exact_mut(width);
            for (row, skip) in rows.zip(self.residual.chunks_exact(width)) {
                for ((value, b), s) in row.iter_mut().zip(self.bias).zip(skip) {
                    *value += b + s;
                }
                normalize_row(row, self.gamma, self.beta, self.eps);
            }
        }
    }
    arch().dispatch(Op {
        rows,
        bias,
        residual,
        gamma,
        beta,
        eps,
    });
}

/// `rows[r] = rows[r] + bias`.
pub(crate) fn add_bias(rows: &mut [f32], bias: &[f32]) {
    struct Op<'a>(&'a mut [f32], &'a [f32]);
    impl pulp::WithSimd for Op<'_> {
        type Output = ();
        #[inline(always)]
        fn with_simd<S: pulp::Simd>(self, _: S) {
            let Op(rows, bias) = self;
            for row in rows.chunks_exact_mut(bias.len()) {
                for (value, b) in row.iter_mut().zip(bias) {
                    *value += b;
                }
            }
        }
    }
    arch().dispatch(Op(rows, bias));
}

/// `rows[r] = GELU(rows[r] + bias)`: the feed-forward activation.
pub(crate) fn bias_gelu(rows: &mut [f32], bias: &[f32]) {
    struct Op<'a>(&'a mut [f32], &'a [f32]);
    impl pulp::WithSimd for Op<'_> {
        type Output = ();
        #[inline(always)]
        fn with_simd<S: pulp::Simd>(self, _: S) {
            let Op(rows, bias) = self;
            for row in rows.chunks_exact_mut(bias.len()) {
                for (value, b) in row.iter_mut().zip(bias) {
                    *value = gelu::<S>(*value + b);
                }
            }
        }
    }
    arch().dispatch(Op(rows, bias));
}

/// Self-attention over packed sequences.
///
/// `qkv` holds one row per token, `[q | k | v]` each `heads * head_dim` wide, the queries
/// already scaled by `1/sqrt(head_dim)`; `lengths` are the sequences' token counts in packing
/// order. Writes the attended values, `heads * head_dim` per token, into `out`. Heads of 32 and
/// 64 values are supported (the loader refuses others).
pub(crate) fn attention(
    qkv: &[f32],
    lengths: &[usize],
    heads: usize,
    head_dim: usize,
    out: &mut [f32],
) {
    arch().dispatch(Attention {
        qkv,
        lengths,
        heads,
        head_dim,
        out,
    });
}

/// [`attention`]'s arguments, run for one instruction set by [`pulp::WithSimd::with_simd`].
struct Attention<'a> {
    qkv: &'a [f32],
    lengths: &'a [usize],
    heads: usize,
    head_dim: usize,
    out: &'a mut [f32],
}

impl pulp::WithSimd for Attention<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) {
        // Register blocking per vector width: KB keys per score tile, QC queries (of CV
        // vectors each) per context pass; a block holds one query per lane.
        match (S::F32_LANES, self.head_dim) {
            (16, 32) => self.run::<S, 32, 16, 8, 2>(simd),
            (16, 64) => self.run::<S, 64, 16, 4, 4>(simd),
            (8, 32) => self.run::<S, 32, 8, 2, 4>(simd),
            (8, 64) => self.run::<S, 64, 8, 1, 8>(simd),
            (4, 32) => self.run::<S, 32, 8, 2, 8>(simd),
            (4, 64) => self.run::<S, 64, 8, 1, 16>(simd),
            // Any other width (none of pulp's today): the portable scalar path.
            (_, 32) => self.run::<pulp::Scalar, 32, 4, 1, 32>(pulp::Scalar::new()),
            _ => self.run::<pulp::Scalar, 64, 4, 1, 64>(pulp::Scalar::new()),
        }
    }
}

impl Attention<'_> {
    #[inline(always)]
    fn run<S: pulp::Simd, const D: usize, const KB: usize, const QC: usize, const CV: usize>(
        self,
        simd: S,
    ) {
        debug_assert_eq!(CV * S::F32_LANES, D);
        let hidden = self.heads * D;
        let mut scratch = Scratch::default();
        let mut start = 0;
        for &n in self.lengths {
            let rows = &self.qkv[start * 3 * hidden..(start + n) * 3 * hidden];
            let out_rows = &mut self.out[start * hidden..(start + n) * hidden];
            for head in 0..self.heads {
                sequence_head::<S, D, KB, QC, CV>(simd, rows, out_rows, n, head, &mut scratch);
            }
            start += n;
        }
    }
}

/// Scratch space reused across heads and sequences.
#[derive(Default)]
struct Scratch {
    /// Keys of the head, contiguous (`[token][d]`), zero rows up to a multiple of the tile.
    keys: Vec<f32>,
    /// Values of the head, contiguous: `[token][d]`.
    values: Vec<f32>,
    /// A block of queries transposed: `[d][query]`, one query per vector lane.
    queries: Vec<f32>,
    /// Scores, then unnormalised probabilities, key-major: `[key][query]`.
    scores: Vec<f32>,
}

/// One head of one sequence of `n` tokens: `softmax(q kᵀ) v`.
///
/// Queries go one per vector lane, so scores come out key-major (`[key][lanes queries]`): the
/// softmax over keys is then vertical (no horizontal reductions) and the weights of one value
/// for all queries are adjacent for the context pass. Tiles: `KB` keys x one vector of queries
/// for the scores, `QC` queries x `CV` vectors of values for the context, all in registers.
#[inline(always)]
fn sequence_head<
    S: pulp::Simd,
    const D: usize,
    const KB: usize,
    const QC: usize,
    const CV: usize,
>(
    simd: S,
    rows: &[f32],
    out_rows: &mut [f32],
    n: usize,
    head: usize,
    scratch: &mut Scratch,
) {
    let lanes = S::F32_LANES;
    debug_assert!(CV * lanes == D && lanes % QC == 0 && lanes <= LANES);
    let hidden = out_rows.len() / n.max(1);
    let stride = 3 * hidden;
    let q_at = head * D;
    let k_at = hidden + head * D;
    let v_at = 2 * hidden + head * D;
    let padded = n.div_ceil(KB) * KB;
    let Scratch {
        keys,
        values,
        queries,
        scores,
    } = scratch;
    keys.clear();
    values.clear();
    for row in rows.chunks_exact(stride) {
        keys.extend_from_slice(&row[k_at..k_at + D]);
        values.extend_from_slice(&row[v_at..v_at + D]);
    }
    keys.resize(padded * D, 0.0);
    scores.clear();
    scores.resize(padded * lanes, 0.0);
    let zero = simd.splat_f32s(0.0);
    for first in (0..n).step_by(lanes) {
        let count = (n - first).min(lanes);
        queries.clear();
        queries.resize(D * lanes, 0.0);
        for (r, row) in rows[first * stride..]
            .chunks_exact(stride)
            .take(count)
            .enumerate()
        {
            for (line, q) in queries.chunks_exact_mut(lanes).zip(&row[q_at..q_at + D]) {
                line[r] = *q;
            }
        }
        let (query_t, _) = S::as_simd_f32s(queries);
        // Scores: a tile of KB keys x `lanes` queries per step.
        for (tile, out) in keys
            .chunks_exact(KB * D)
            .zip(scores.chunks_exact_mut(KB * lanes))
        {
            let mut acc = [zero; KB];
            for (d, q) in query_t.iter().enumerate() {
                for (a, key) in acc.iter_mut().zip(tile.chunks_exact(D)) {
                    *a = simd.mul_add_e_f32s(simd.splat_f32s(key[d]), *q, *a);
                }
            }
            let (out, _) = S::as_mut_simd_f32s(out);
            out.copy_from_slice(&acc);
        }
        // Softmax over the n real keys, one query per lane, without its division.
        let real = &mut scores[..n * lanes];
        let mut tops = [f32::NEG_INFINITY; LANES];
        for line in real.chunks_exact(lanes) {
            for (top, x) in tops.iter_mut().zip(line) {
                *top = if *x > *top { *x } else { *top };
            }
        }
        let mut sums = [0.0_f32; LANES];
        for line in real.chunks_exact_mut(lanes) {
            for ((x, top), sum) in line.iter_mut().zip(&tops).zip(&mut sums) {
                *x = exp::<S>(*x - top);
                *sum += *x;
            }
        }
        // Context: QC queries at a time, CV vectors of values each.
        for group in (0..count).step_by(QC) {
            let mut acc = [[zero; CV]; QC];
            for (value, weights) in values.chunks_exact(D).zip(real.chunks_exact(lanes)) {
                let (value, _) = S::as_simd_f32s(value);
                let weights = &weights[group..group + QC];
                for (a, w) in acc.iter_mut().zip(weights) {
                    let w = simd.splat_f32s(*w);
                    for (x, v) in a.iter_mut().zip(value) {
                        *x = simd.mul_add_e_f32s(w, *v, *x);
                    }
                }
            }
            for (r, a) in acc.iter().enumerate().take(count - group) {
                let scale = simd.splat_f32s(1.0 / sums[group + r]);
                let at = (first + group + r) * hidden + head * D;
                let (out, _) = S::as_mut_simd_f32s(&mut out_rows[at..at + D]);
                for (o, x) in out.iter_mut().zip(a) {
                    *o = simd.mul_f32s(*x, scale);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_matches_std() {
        let mut worst = 0.0_f32;
        for i in -870..=880 {
            let x = i as f32 / 10.0 + 0.0123;
            let rel = ((exp::<pulp::Scalar>(x) - x.exp()) / x.exp()).abs();
            worst = worst.max(rel);
        }
        assert!(worst < 1e-6, "worst relative error {worst}");
    }

    #[test]
    fn erf_matches_reference() {
        // erf from the continued series, in f64.
        fn erf64(x: f64) -> f64 {
            let mut term = x;
            let mut total = x;
            for n in 1..200 {
                term *= -x * x / n as f64;
                total += term / (2 * n + 1) as f64;
            }
            total * 2.0 / std::f64::consts::PI.sqrt()
        }
        for i in -300..=300 {
            let x = i as f64 / 100.0;
            let got = f64::from(erf::<pulp::Scalar>(x as f32));
            assert!(
                (got - erf64(x)).abs() < 5e-7,
                "erf({x}) = {got}, want {}",
                erf64(x)
            );
        }
        assert!((erf::<pulp::Scalar>(6.0) - 1.0).abs() < 5e-7);
        assert!((erf::<pulp::Scalar>(-6.0) + 1.0).abs() < 5e-7);
    }

    #[test]
    fn layer_norm_has_zero_mean_unit_variance() {
        let mut row: Vec<f32> = (0..40)
            .map(|i| (i as f32 * 0.37).sin() * 3.0 + 1.0)
            .collect();
        let ones = vec![1.0; 40];
        let zeros = vec![0.0; 40];
        layer_norm(&mut row, &ones, &zeros, 1e-12);
        let mean = row.iter().sum::<f32>() / 40.0;
        let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / 40.0;
        assert!(
            mean.abs() < 1e-5 && (var - 1.0).abs() < 1e-4,
            "{mean} {var}"
        );
    }

    /// Runs attention with every instruction set this CPU has (and the scalar one) on ragged
    /// sequences and compares with a float64 reference.
    #[test]
    fn attention_matches_naive_on_every_instruction_set() {
        for head_dim in [32, 64] {
            let heads = 2;
            let hidden = heads * head_dim;
            let lengths = [3, 1, 21, 40];
            let total: usize = lengths.iter().sum();
            let qkv: Vec<f32> = (0..total * 3 * hidden)
                .map(|i| ((i * 7919 % 101) as f32 / 50.0) - 1.0)
                .collect();
            let want = naive_attention(&qkv, &lengths, heads, head_dim);
            let mut runs: Vec<(&str, Vec<f32>)> = Vec::new();
            let mut run = |name, f: &dyn Fn(Attention<'_>)| {
                let mut out = vec![f32::NAN; total * hidden];
                f(Attention {
                    qkv: &qkv,
                    lengths: &lengths,
                    heads,
                    head_dim,
                    out: &mut out,
                });
                runs.push((name, out));
            };
            run("scalar", &|op| {
                pulp::WithSimd::with_simd(op, pulp::Scalar::new())
            });
            #[cfg(target_arch = "x86_64")]
            if let Some(simd) = pulp::x86::V3::try_new() {
                run("avx2", &move |op| pulp::WithSimd::with_simd(op, simd));
            }
            #[cfg(target_arch = "x86_64")]
            if let Some(simd) = pulp::x86::V4::try_new() {
                run("avx512", &move |op| pulp::WithSimd::with_simd(op, simd));
            }
            run("dispatched", &|op| arch().dispatch(op));
            for (name, got) in &runs {
                for (g, w) in got.iter().zip(&want) {
                    assert!(
                        (f64::from(*g) - w).abs() < 1e-5,
                        "{name}, heads of {head_dim}: {g} vs {w}"
                    );
                }
            }
        }
    }

    fn naive_attention(qkv: &[f32], lengths: &[usize], heads: usize, d: usize) -> Vec<f64> {
        let hidden = heads * d;
        let mut out = vec![0.0; lengths.iter().sum::<usize>() * hidden];
        let mut start = 0;
        for &n in lengths {
            for head in 0..heads {
                for i in 0..n {
                    let q = &qkv[(start + i) * 3 * hidden + head * d..][..d];
                    let scores: Vec<f64> = (0..n)
                        .map(|j| {
                            let k = &qkv[(start + j) * 3 * hidden + hidden + head * d..][..d];
                            q.iter()
                                .zip(k)
                                .map(|(a, b)| f64::from(*a) * f64::from(*b))
                                .sum()
                        })
                        .collect();
                    let top = scores.iter().cloned().fold(f64::MIN, f64::max);
                    let weights: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
                    let total_weight: f64 = weights.iter().sum();
                    for c in 0..d {
                        out[(start + i) * hidden + head * d + c] = (0..n)
                            .map(|j| {
                                let v = qkv[(start + j) * 3 * hidden + 2 * hidden + head * d + c];
                                weights[j] / total_weight * f64::from(v)
                            })
                            .sum();
                    }
                }
            }
            start += n;
        }
        out
    }
}
