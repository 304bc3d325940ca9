// Scaled dot-product attention, streaming one query row (b, h, i) at a time (the path for d2l fill
// mode, dropout and the (Tq, Tk) trace and weights; the baseline of the fused path):
//   pass 1: s_j = scale * q_i . k_j                 for the keys the softmax looks at
//   pass 2: s_j = softcap * tanh(s_j / softcap)      when softcap > 0
//   pass 3: mask (bias, -inf or fill), softmax -> p   (row max subtracted; nothing visible -> 0)
//   pass 4: out_i = sum_j p_j * keep_j / (1 - dropout) * v_j
// Keys at or past MaskRow::limit are skipped (that is how causal skips the masked half) unless
// the caller asks for the trace, which is written for every key. Scratch holds O(Tk) floats.
#include "sdpa_paths.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "attnlab/dropout.hpp"
#include "attnlab/kernels.hpp"
#include "query_rows.hpp"
#include "softmax_row.hpp"

namespace attnlab::detail {
namespace {

// s (n): s_j = scale * q_i . k_j, then the softcap; dcap (n, optional) receives d s_j / d (scale q_i . k_j)
// divided by scale, i.e. 1 - tanh^2(S_j / softcap) (1 without softcap).
void row_scores(const AttentionDims& dims, const SdpaOptions& opt, const float* qi, const float* kh, int n,
                float* s, float* trace_scores, float* dcap) {
  kernels::f32_dot_rows(s, kh, dims.d, qi, n, dims.d);
  kernels::f32_scale(s, opt.scale, n);
  if (trace_scores != nullptr) std::copy(s, s + n, trace_scores);
  if (opt.softcap > 0.0f) {
    for (int j = 0; j < n; ++j) {
      const float t = std::tanh(s[j] / opt.softcap);
      s[j] = opt.softcap * t;
      if (dcap != nullptr) dcap[j] = 1.0f - t * t;
    }
  } else if (dcap != nullptr) {
    std::fill(dcap, dcap + n, 1.0f);
  }
}

// The dropout multiplier of key j: keep / (1 - p), or exactly 1 without dropout.
float dropout_multiplier(const SdpaOptions& opt, int b, int h, int i, int j) {
  if (opt.dropout <= 0.0f) return 1.0f;
  return dropout_keep(opt.seed, opt.dropout, uint32_t(b), uint32_t(h), uint32_t(i), uint32_t(j))
             ? 1.0f / (1.0f - opt.dropout)
             : 0.0f;
}

// p (n): the softmax weights of the row, recomputed the way the forward pass did.
// Returns the log-sum-exp (-inf when nothing is visible). trace (optional) gets the forward's trace rows.
float row_weights(const AttentionDims& dims, const SdpaOptions& opt, const QueryRow& row, const float* q,
                  const float* k, float* p, float* dcap, const SdpaForwardOutputs* trace) {
  const int n = row.n;
  const std::size_t scores = row.r * dims.Tk;
  const bool all_scores = trace != nullptr && (trace->scores != nullptr || trace->softcapped != nullptr);
  const int computed = all_scores ? dims.Tk : n;  // the trace shows raw scores of masked keys too
  row_scores(dims, opt, q + row.r * dims.d, k + row.kv * dims.Tk * dims.d, computed, p,
             trace != nullptr && trace->scores != nullptr ? trace->scores + scores : nullptr, dcap);
  if (trace != nullptr && trace->softcapped != nullptr)
    std::copy(p, p + computed, trace->softcapped + scores);

  apply_mask(row.mask, opt.mask, p, n);
  if (trace != nullptr && trace->masked != nullptr) {
    float* masked = trace->masked + scores;
    std::copy(p, p + n, masked);
    std::fill(masked + n, masked + dims.Tk, masked_value(opt.mask));
  }
  return softmax_in_place(p, n);
}

}  // namespace

std::uint64_t sdpa_rows_scratch_floats(const AttentionDims& dims) {
  return 3 * std::uint64_t(dims.Tk);  // backward: weights, dP, softcap derivative (forward uses the first)
}

void sdpa_forward_rows(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                       const float* v, const SdpaForwardOutputs& outputs, float* scratch) {
  const bool tracing =
      outputs.scores != nullptr || outputs.softcapped != nullptr || outputs.masked != nullptr;
  float* p = scratch;
  for_each_query_row(dims.B, dims.H, dims.Hkv, dims.Tq, dims.Tk, opt.mask, [&](const QueryRow& row) {
    const int n = row.n;
    const float lse = row_weights(dims, opt, row, q, k, p, nullptr, tracing ? &outputs : nullptr);
    if (outputs.lse != nullptr) outputs.lse[row.r] = lse;
    if (outputs.weights != nullptr) {
      float* weights = outputs.weights + row.r * dims.Tk;
      std::copy(p, p + n, weights);
      std::fill(weights + n, weights + dims.Tk, 0.0f);
    }

    if (opt.dropout > 0.0f)
      for (int j = 0; j < n; ++j) p[j] *= dropout_multiplier(opt, row.b, row.h, row.i, j);
    // out_i (1, dv) = p (1, n) V (n, dv): the register-tiled product walks the values once.
    kernels::f32_gemm_nn_strided(1, dims.dv, n, p, n, v + row.kv * dims.Tk * dims.dv, dims.dv,
                                 outputs.out + row.r * dims.dv, dims.dv, false);
  });
}

// Backward, per query row, quoting the forward:
//   out_i = sum_j p_j m_j v_j      ->  dV_j += p_j m_j dO_i,  g_j = dL/dp_j = m_j (dO_i . v_j)
//   p = softmax(z)                 ->  dz_j = p_j (g_j - D),  D = sum_j p_j g_j (= dO_i . out_i)
//   z_j = softcap(S_j) (+ bias)    ->  dS_j = dz_j (1 - tanh^2(S_j / softcap)); 0 where masked
//   S_j = scale q_i . k_j          ->  dQ_i = scale sum_j dS_j k_j,  dK_j += scale dS_j q_i
// m_j is the dropout multiplier (keep_j / (1 - dropout)). GQA: dK, dV of a kv head accumulate
// over every query head that reads it.
void sdpa_backward_rows(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                        const float* v, const float* dout, float* dq, float* dk, float* dv, float* scratch) {
  float* p = scratch;
  float* g = scratch + dims.Tk;
  float* dcap = scratch + 2 * std::size_t(dims.Tk);
  std::fill(dk, dk + dims.k_size(), 0.0f);
  std::fill(dv, dv + dims.v_size(), 0.0f);
  for_each_query_row(dims.B, dims.H, dims.Hkv, dims.Tq, dims.Tk, opt.mask, [&](const QueryRow& row) {
    const int n = row.n;
    float* dqi = dq + row.r * dims.d;
    std::fill(dqi, dqi + dims.d, 0.0f);
    const float lse = row_weights(dims, opt, row, q, k, p, dcap, nullptr);
    if (lse == -std::numeric_limits<float>::infinity()) return;  // nothing visible: zero gradient

    const float* doi = dout + row.r * dims.dv;
    for (int j = 0; j < n; ++j) {
      const float m = dropout_multiplier(opt, row.b, row.h, row.i, j);
      if (p[j] == 0.0f || m == 0.0f) {
        g[j] = 0.0f;
        continue;
      }  // contributes nothing below
      const std::size_t vj = (row.kv * dims.Tk + j) * dims.dv;
      g[j] = m * kernels::f32_dot(doi, v + vj, dims.dv);
      kernels::f32_axpy(dv + vj, p[j] * m, doi, dims.dv);
    }
    const float D = kernels::f32_dot(p, g, n);
    for (int j = 0; j < n; ++j) g[j] = p[j] * (g[j] - D) * dcap[j];  // g becomes dS
    if (opt.mask.use_fill) zero_masked(row.mask, g, n);  // filled keys carry weight but no gradient

    const float* qi = q + row.r * dims.d;
    for (int j = 0; j < n; ++j) {
      if (g[j] == 0.0f) continue;
      const std::size_t kj = (row.kv * dims.Tk + j) * dims.d;
      kernels::f32_axpy(dqi, opt.scale * g[j], k + kj, dims.d);
      kernels::f32_axpy(dk + kj, opt.scale * g[j], qi, dims.d);
    }
  });
}

}  // namespace attnlab::detail
