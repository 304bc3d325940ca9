// Vector kernels: the only code that knows about SIMD. One source, built with ATTNLAB_SIMD=1 on
// xsimd's default architecture (wasm simd128, the same with relaxed-simd multiply-adds, or AVX2+FMA
// natively) and with ATTNLAB_SIMD=0 as plain loops (the scalar builds). Each kernel is a vector loop plus an
// explicit scalar tail; tests run every kernel at lengths 1 .. 3W+1 around the width W.
#pragma once

#include <cstddef>

namespace attnlab::kernels {

const char* arch_name();  // "wasm", "wasm+relaxed", "avx2", ... or "scalar"
int width();              // floats per vector: 4 (wasm), 8 (avx2), 1 (scalar)

float f32_dot(const float* a, const float* b, int n);  // sum a[i] b[i]
// y (n) = A x for A (n, d) with row stride lda: f32_dot of every row (same order of sums), four
// rows at a time so each load of x feeds four multiply-adds (one query's scores against many keys).
void f32_dot_rows(float* y, const float* A, int lda, const float* x, int n, int d);
// The index of the first NaN or +-inf in x (n), or -1: a sum of x - x (0 exactly when x is finite)
// per block of floats, so a finite input costs one load and two operations per vector.
int f32_first_nonfinite(const float* x, int n);
void f32_axpy(float* y, float a, const float* x, int n);  // y += a x
void f32_scale(float* y, float a, int n);                 // y *= a
float f32_max(const float* x, int n);                     // -inf when n == 0
float f32_sum(const float* x, int n);
// y[i] = exp(x[i] - m), returns sum y; x and y may alias. exp(-inf) = 0. For the softmax:
// x[i] - m <= 0 (small positive excesses from rounding are fine); the vector body gives 0 below
// -87.68 (libm's exp, in the scalar build and the tails, goes on in subnormals to -103.3).
float f32_exp_minus_max(float* y, const float* x, float m, int n);
// y[i] = 2^(x[i] - m[i]), for scores in log2 units (log2 e folded into the scale of Q: the fused
// sdpa's softmax runs in base 2, whose range reduction is exact and four instructions shorter than
// the exp's; kernels_vec.hpp), with a shift per element (the fused backward's P^T = 2^(S^T - lse)
// along a key's row, one lse per query). x and y may alias. 2^-inf = 0; the SIMD builds give 0
// below -126.5, tails included (libm's exp2, in the scalar build, goes on in subnormals to -149).
void f32_exp2_minus(float* y, const float* x, const float* m, int n);
// One key block of the online softmax (the fused sdpa's pass 3) on s (n, cols), row stride lds,
// laid out as S^T: a row per key, a column per query row, in log2 units (f32_exp2_minus), each
// column with its running max m and sum l (cols): m' = max(m, max_j s_j), s_j = 2^(s_j - m'),
// alpha = 2^(m - m') (exactly 1 when the max did not move: the caller rescales what it accumulated
// by alpha), l = l alpha + sum_j s_j, m = m'; the column's log-sum-exp in natural units is then
// (m + log2 l) ln 2. A column with m' = -inf (nothing visible so far) gets s = 0 and keeps m = -inf,
// l = 0. The vectors run along the queries, so no step reduces across lanes.
void f32_online_softmax_columns(float* s, int lds, int n, int cols, float* m, float* l, float* alpha);
// Softcap in place: y = cap * tanh(y / cap), and dcap[i] = 1 - tanh^2(y_in[i] / cap) when dcap != nullptr.
void f32_softcap(float* y, float cap, int n, float* dcap);
// The softmax backward of one row with its scale folded in: ds[i] = scale * p[i] * (dp[i] - D).
// ds may alias p or dp.
void f32_softmax_grad(float* ds, const float* p, const float* dp, float D, float scale, int n);
// The same along a key's row of S^T, one D per query: ds[i] = scale * p[i] * (dp[i] - D[i]).
void f32_softmax_grad_columns(float* ds, const float* p, const float* dp, const float* D, float scale, int n);
void f32_mul(float* y, const float* x, int n);  // y[i] *= x[i]
// y[i] = tanh(x[i]); y may alias x. SIMD: a rational approximation (kernels_vec.hpp), at most
// 7 ulp / 4.2e-7 from tanh, |y| <= 1, tanh(+-inf) = +-1, tanh(+-0) = +-0; scalar and tails: std::tanh.
// x must not hold NaN.
void f32_tanh(float* y, const float* x, int n);

// Additive attention, one query row at a time, lanes over the keys (kernels_additive.cpp).
// qw (h) = q_i Wq and wv (h) = w_v; kwT (h, ldk): the keys' projections k Wk transposed, so row c
// holds hidden unit c of every key (ldk >= n). The tanh is f32_tanh's, except that near +-1 it may
// be an ulp beyond (no clamp: it makes no difference in these sums).
//   s (n):  s[j] = scale * sum_c wv[c] t[c][j],  t[c][j] = tanh(qw[c] + kwT[c][j]);
//   t (h, ldk) keeps the tanh values for the backward, or is nullptr.
void f32_additive_scores(float* s, float* t, const float* qw, const float* wv, const float* kwT, int ldk,
                         int h, int n, float scale);
// Its gradients for one query row from the kept t (h, ldk), given da (n) = d loss / d a_j with
// a_j = sum_c wv[c] t[c][j]; all accumulated (+=):
//   dwv (h) += sum_j da_j t[c][j],   g[c][j] = da_j wv[c] (1 - t[c][j]^2),
//   dqw (h) += sum_j g[c][j],        dkwT (h, ldk): dkwT[c][j] += g[c][j].
void f32_additive_scores_backward(const float* da, const float* t, int ldk, const float* wv, int h, int n,
                                  float* dqw, float* dkwT, float* dwv);

// The training ops' rows (kernels_train.cpp; train_ops.hpp loops them over rows and tensors).
// LayerNorm of one row x (n), variance biased as PyTorch's: mean = sum x / n, var = sum (x - mean)^2
// / n (two passes, so a large mean cancels before the squares), rstd = 1 / sqrt(var + eps),
// y = (x - mean) rstd gamma + beta. Writes *mean and *rstd for the backward. y may alias x.
void f32_layer_norm_row(float* y, const float* x, const float* gamma, const float* beta, float eps, int n,
                        float* mean, float* rstd);
// Its backward, with xhat = (x - mean) rstd and g = dy gamma, all accumulated (+=):
//   dx += rstd (g - mean(g) - xhat mean(g xhat)),  dgamma += dy xhat,  dbeta += dy.
void f32_layer_norm_row_backward(float* dx, float* dgamma, float* dbeta, const float* x, const float* gamma,
                                 const float* dy, float mean, float rstd, int n);
// GELU, y (n) = x Phi(x). tanh_form: PyTorch's approximate='tanh', 0.5 x (1 + tanh(sqrt(2/pi)
// (x + 0.044715 x^3))); otherwise the exact 'none', 0.5 x (1 + erf(x / sqrt 2)). y may alias x.
void f32_gelu(float* y, const float* x, int n, bool tanh_form);
// dx (n) = dy * GELU'(x), overwritten; dx may alias dy.
void f32_gelu_backward(float* dx, const float* x, const float* dy, int n, bool tanh_form);
// One AdamW update of n floats in place, torch.optim.AdamW's order of operations, with g = grad *
// grad_scale (the clipping factor, 1 without clipping):
//   param *= decay;  m = beta1 m + (1 - beta1) g;  v = beta2 v + (1 - beta2) g^2;
//   param -= step_size m / (sqrt(v) / bias2_sqrt + eps)
// where decay = 1 - lr wd, step_size = lr / (1 - beta1^t), bias2_sqrt = sqrt(1 - beta2^t).
struct AdamWUpdate {
  float decay, beta1, beta2, step_size, bias2_sqrt, eps, grad_scale;
};
void f32_adamw(float* param, float* m, float* v, const float* grad, int n, const AdamWUpdate& u);

// Row-major matrix products, C (M, N). accumulate: C += product, else C = product.
void f32_gemm_nn(int M, int N, int K, const float* A, const float* Bm, float* C,
                 bool accumulate);  // A (M, K), B (K, N)
void f32_gemm_tn(int M, int N, int K, const float* A, const float* Bm, float* C,
                 bool accumulate);  // A (K, M): C = A^T B
void f32_gemm_nt(int M, int N, int K, const float* A, const float* Bm, float* C,
                 bool accumulate);  // B (N, K): C = A B^T

// The same products on strided operands (row strides lda, ldb, ldc, each >= its row's width), the
// building blocks of the fused attention. Register-tiled (kernels_gemm.cpp): a tile of MR rows of C
// by NV vectors of columns stays in registers over a depth block (4 x 2 natively, 2 x 4 in wasm
// simd128 and relaxed; in wasm blocks of 64 deep by 64 columns, so B stays in L1); each step loads
// NV vectors of a row of B and broadcasts MR elements of A, for MR x NV vector multiply-adds.
// Tails: fewer rows, one vector, then single columns. C must not overlap A or B.
void f32_gemm_nn_strided(int M, int N, int K, const float* A, int lda, const float* Bm, int ldb, float* C,
                         int ldc,
                         bool accumulate);  // A (M, K), B (K, N): C = A B
void f32_gemm_tn_strided(int M, int N, int K, const float* A, int lda, const float* Bm, int ldb, float* C,
                         int ldc,
                         bool accumulate);  // A (K, M), B (K, N): C = A^T B
// The register tile every product above runs, rows x vectors, fixed per build at compile time
// (kernels_gemm.cpp): "2x4" in wasm, "4x2" natively and in the scalar build.
const char* tile_name();

// dst (cols, rows) with row stride ldd = src^T, src (rows, cols) with row stride lds; W x W blocks
// are transposed in registers. dst must not overlap src.
void f32_transpose(int rows, int cols, const float* src, int lds, float* dst, int ldd);

}  // namespace attnlab::kernels
