// Attention with a choice of scoring function (scoring.hpp, SEMANTICS.md "Scoring functions").
//
// dot and scaled-dot are sdpa itself. general is sdpa on (q W, k, v): a(q, k) = (q W) . k, so
// the row-streaming kernels do all the work and only the projection is added around them.
// additive and concat have no q . k form: they materialise S = scale * a(q, k) (B, H, Tq, Tk) in
// scratch and share one "attend from a score matrix" path (masked softmax, P V and its backward),
// after which each applies its own chain rule for dq, dk and its parameters.
#include "attnlab/scoring.hpp"

#include <cmath>
#include <cstring>

#include "attnlab/kernels.hpp"
#include "attnlab/sdpa.hpp"
#include "attnlab/softmax.hpp"
#include "score_row.hpp"

namespace attnlab {
namespace {

using kernels::f32_axpy;
using kernels::f32_dot;
using kernels::f32_gemm_nn;
using kernels::f32_gemm_nt;
using kernels::f32_gemm_tn;

AttentionDims attention_dims(const ScoringDims& s, int key_width) {
  return {s.B, s.H, s.Hkv, s.Tq, s.Tk, key_width, s.dv};
}

SdpaOptions sdpa_options(const ScoringOptions& opt) {
  SdpaOptions o;
  o.scale = opt.scale;
  o.mask = opt.mask;
  return o;
}

std::size_t query_rows(const ScoringDims& s) { return std::size_t(s.B) * s.H * s.Tq; }   // (b, h, i)
std::size_t key_rows(const ScoringDims& s) { return std::size_t(s.B) * s.Hkv * s.Tk; }   // (b, kvh, j)
std::size_t score_count(const ScoringDims& s) { return query_rows(s) * s.Tk; }

// ---------------------------------------------------------------------------------------------
// The shared path from a score matrix S (B, H, Tq, Tk) = scale * a(q, k).

// masked (B, H, Tq, Tk) = S + bias where visible, -inf (or fill in d2l mode) where masked: the
// trace of what enters the softmax.
void write_masked_scores(const ScoringDims& s, const MaskSpec& mask, const float* S, float* masked) {
  for (int b = 0; b < s.B; ++b)
    for (int h = 0; h < s.H; ++h)
      for (int i = 0; i < s.Tq; ++i) {
        const std::size_t row = ((std::size_t(b) * s.H + h) * s.Tq + i) * s.Tk;
        std::memcpy(masked + row, S + row, std::size_t(s.Tk) * sizeof(float));
        detail::apply_mask(mask_row(mask, s.Tq, s.Tk, b, h, i), mask, masked + row, s.Tk);
      }
}

// S (B, H, Tq, Tk) is turned into P in place; out (B, H, Tq, dv) = P v, query head h reading kv
// head h / (H / Hkv). Optional trace outputs are copied on the way.
void attend_scores_forward(const ScoringDims& s, const MaskSpec& mask, float* S, const float* v,
                           const ScoringForwardOutputs& outputs) {
  const std::size_t n = score_count(s);
  if (outputs.scores) std::memcpy(outputs.scores, S, n * sizeof(float));
  if (outputs.masked) write_masked_scores(s, mask, S, outputs.masked);
  masked_softmax_forward(s.B, s.H, s.Tq, s.Tk, mask, S, S);
  if (outputs.weights) std::memcpy(outputs.weights, S, n * sizeof(float));
  const int group = s.H / s.Hkv;
  for (int b = 0; b < s.B; ++b)
    for (int h = 0; h < s.H; ++h) {
      const std::size_t bh = std::size_t(b) * s.H + h, bkv = std::size_t(b) * s.Hkv + h / group;
      f32_gemm_nn(s.Tq, s.dv, s.Tk, S + bh * s.Tq * s.Tk, v + bkv * s.Tk * s.dv, outputs.out + bh * s.Tq * s.dv,
                  false);
    }
}

// Backward of attend_scores_forward given the recomputed S (B, H, Tq, Tk), turned into P in place,
// and dout (B, H, Tq, dv):
//   dv = P^T dout (summed over the query heads sharing a kv head), overwritten;
//   dP = dout v^T, then dS = masked_softmax_backward(P, dP) = P (dP - rowsum(P dP)), 0 where masked;
//   dA = scale * dS (B, H, Tq, Tk): the gradient with respect to a(q, k), since S = scale * a.
void attend_scores_backward(const ScoringDims& s, const MaskSpec& mask, float scale, float* S, const float* v,
                            const float* dout, float* dA, float* dv) {
  masked_softmax_forward(s.B, s.H, s.Tq, s.Tk, mask, S, S);
  const float* P = S;
  const int group = s.H / s.Hkv;
  std::memset(dv, 0, key_rows(s) * s.dv * sizeof(float));
  for (int b = 0; b < s.B; ++b)
    for (int h = 0; h < s.H; ++h) {
      const std::size_t bh = std::size_t(b) * s.H + h, bkv = std::size_t(b) * s.Hkv + h / group;
      const float* P_bh = P + bh * s.Tq * s.Tk;
      const float* dO_bh = dout + bh * s.Tq * s.dv;
      const float* v_b = v + bkv * s.Tk * s.dv;
      f32_gemm_nt(s.Tq, s.Tk, s.dv, dO_bh, v_b, dA + bh * s.Tq * s.Tk, false);   // dP
      f32_gemm_tn(s.Tk, s.dv, s.Tq, P_bh, dO_bh, dv + bkv * s.Tk * s.dv, true);
    }
  masked_softmax_backward(s.B, s.H, s.Tq, s.Tk, mask, P, dA, dA);
  kernels::f32_scale(dA, scale, int(score_count(s)));
}

// Calls fn(ij, qrow, krow) for every (query, key) pair: ij indexes S (B, H, Tq, Tk), qrow the
// query row (b, h, i), krow the key row (b, h / (H / Hkv), j) of the kv head it reads.
template <class Fn>
void for_each_pair(const ScoringDims& s, Fn fn) {
  const int group = s.H / s.Hkv;
  for (int b = 0; b < s.B; ++b)
    for (int h = 0; h < s.H; ++h)
      for (int i = 0; i < s.Tq; ++i) {
        const std::size_t qrow = (std::size_t(b) * s.H + h) * s.Tq + i;
        for (int j = 0; j < s.Tk; ++j) fn(qrow * s.Tk + j, qrow, (std::size_t(b) * s.Hkv + h / group) * s.Tk + j);
      }
}

// ---------------------------------------------------------------------------------------------
// additive: S_ij = scale * w_v . tanh(QW_i + KW_j) with QW = q Wq (B, H, Tq, h), KW = k Wk (B, Hkv, Tk, h).
// The score loops run one query row at a time with the lanes over keys (kernels_additive.cpp), so
// they read the keys' projections transposed: KWT (B, Hkv, h, Tk), and accumulate dKWT likewise.
// Scratch: S | dA | QW | dQW | KWT | dKWT | KW (KW before its transpose, and dKW after dKWT's).

struct AdditiveScratch {
  float *S, *dA, *QW, *dQW, *KWT, *dKWT, *KW;

  AdditiveScratch(const ScoringDims& s, float* scratch) {
    const std::size_t n = score_count(s), hq = query_rows(s) * s.hidden, hk = key_rows(s) * s.hidden;
    S = scratch;
    dA = S + n;
    QW = dA + n;
    dQW = QW + hq;
    KWT = dQW + hq;
    dKWT = KWT + hk;
    KW = dKWT + hk;
  }
};

std::size_t additive_scratch_floats(const ScoringDims& s) {
  return 2 * score_count(s) + (2 * query_rows(s) + 3 * key_rows(s)) * s.hidden;
}

// (B, Hkv, Tk, h) <-> (B, Hkv, h, Tk), one kv head at a time.
void transpose_key_blocks(const ScoringDims& s, const float* from, float* to, bool to_hidden_major) {
  const std::size_t block = std::size_t(s.Tk) * s.hidden;
  for (int bk = 0; bk < s.B * s.Hkv; ++bk) {
    if (to_hidden_major)
      kernels::f32_transpose(s.Tk, s.hidden, from + bk * block, s.hidden, to + bk * block, s.Tk);
    else
      kernels::f32_transpose(s.hidden, s.Tk, from + bk * block, s.Tk, to + bk * block, s.hidden);
  }
}

// Calls fn(qrow, KWT and dKWT blocks of its kv head, n) for every query row (b, h, i), where n is
// how many of its keys need a score: all Tk without `limit_by`, else the keys before the row's mask
// limit (validLens, causal), since the masked softmax never reads a score at or beyond it (fill
// mode overwrites them with the fill).
template <class Fn>
void for_each_query_row(const ScoringDims& s, const MaskSpec* limit_by, const AdditiveScratch& a, Fn fn) {
  const int group = s.H / s.Hkv;
  const std::size_t block = std::size_t(s.Tk) * s.hidden;
  for (int b = 0; b < s.B; ++b)
    for (int h = 0; h < s.H; ++h)
      for (int i = 0; i < s.Tq; ++i) {
        const std::size_t qrow = (std::size_t(b) * s.H + h) * s.Tq + i;
        const std::size_t kv = std::size_t(b) * s.Hkv + h / group;
        const int n = limit_by == nullptr ? s.Tk : mask_row(*limit_by, s.Tq, s.Tk, b, h, i).limit;
        fn(qrow, a.KWT + kv * block, a.dKWT + kv * block, n);
      }
}

// pass 1: QW = q Wq, KW = k Wk, KWT = KW transposed per kv head;
// pass 2: S_ij = scale * w_v . tanh(QW_i + KW_j) for the keys each row needs (all of them when
// the caller returns the scores).
void compute_scores(const ScoringDims& s, const ScoringOptions& opt, bool all_keys, const ScoringParams& p,
                    const float* q, const float* k, const AdditiveScratch& a) {
  const int h = s.hidden;
  f32_gemm_nn(int(query_rows(s)), h, s.dq, q, p.wq, a.QW, false);
  f32_gemm_nn(int(key_rows(s)), h, s.dk, k, p.wk, a.KW, false);
  transpose_key_blocks(s, a.KW, a.KWT, true);
  for_each_query_row(s, all_keys ? nullptr : &opt.mask, a, [&](std::size_t qrow, const float* kwT, float*, int n) {
    kernels::f32_additive_scores(a.S + qrow * s.Tk, a.QW + qrow * h, p.wv, kwT, s.Tk, h, n, opt.scale);
  });
}

// Given dA = d loss / d a(q_i, k_j): with t = tanh(z), z = QW_i + KW_j,
//   dw_v += dA t,  dz = dA w_v (1 - t^2),  dQW_i += dz,  dKW_j += dz
// (per row by f32_additive_scores_backward, over the keys up to the row's last nonzero dA: masked
// keys have dA = 0 and contribute nothing); then dq = dQW Wq^T, dWq = q^T dQW, dk = dKW Wk^T,
// dWk = k^T dKW.
void chain_rule(const ScoringDims& s, const ScoringParams& p, const float* q, const float* k, const AdditiveScratch& a,
                float* dq, float* dk, const ScoringGrads& g) {
  const int h = s.hidden;
  std::memset(a.dQW, 0, query_rows(s) * h * sizeof(float));
  std::memset(a.dKWT, 0, key_rows(s) * h * sizeof(float));
  std::memset(g.dwv, 0, std::size_t(h) * sizeof(float));
  for_each_query_row(s, nullptr, a, [&](std::size_t qrow, const float* kwT, float* dkwT, int n) {
    const float* dA = a.dA + qrow * s.Tk;
    while (n > 0 && dA[n - 1] == 0.0f) --n;
    kernels::f32_additive_scores_backward(dA, a.QW + qrow * h, p.wv, kwT, s.Tk, h, n, a.dQW + qrow * h, dkwT, g.dwv);
  });
  float* dKW = a.KW;
  transpose_key_blocks(s, a.dKWT, dKW, false);
  f32_gemm_nt(int(query_rows(s)), s.dq, h, a.dQW, p.wq, dq, false);
  f32_gemm_tn(s.dq, h, int(query_rows(s)), q, a.dQW, g.dwq, false);
  f32_gemm_nt(int(key_rows(s)), s.dk, h, dKW, p.wk, dk, false);
  f32_gemm_tn(s.dk, h, int(key_rows(s)), k, dKW, g.dwk, false);
}

// ---------------------------------------------------------------------------------------------
// concat: S_ij = scale * (w_q . q_i + w_k . k_j), w = [w_q (dq); w_k (dk)].
// Scratch: S | dA | per-query-row values (B, H, Tq) | per-key-row values (B, Hkv, Tk).

struct ConcatScratch {
  float *S, *dA, *per_query, *per_key;

  ConcatScratch(const ScoringDims& s, float* scratch) {
    S = scratch;
    dA = S + score_count(s);
    per_query = dA + score_count(s);
    per_key = per_query + query_rows(s);
  }
};

std::size_t concat_scratch_floats(const ScoringDims& s) {
  return 2 * score_count(s) + query_rows(s) + key_rows(s);
}

// per_query_i = w_q . q_i, per_key_j = w_k . k_j (as (rows, d) x (d, 1) products), then S.
void compute_scores(const ScoringDims& s, const ScoringOptions& opt, bool, const ScoringParams& p, const float* q,
                    const float* k, const ConcatScratch& c) {
  f32_gemm_nn(int(query_rows(s)), 1, s.dq, q, p.w, c.per_query, false);
  f32_gemm_nn(int(key_rows(s)), 1, s.dk, k, p.w + s.dq, c.per_key, false);
  for_each_pair(s, [&](std::size_t ij, std::size_t qrow, std::size_t krow) {
    c.S[ij] = opt.scale * (c.per_query[qrow] + c.per_key[krow]);
  });
}

// a is linear in q and k, so with rq_i = sum_j dA_ij and rk_j = sum_i dA_ij (over every query
// head sharing the kv head): dq_i = rq_i w_q, dk_j = rk_j w_k, dw_q = sum_i rq_i q_i, dw_k = sum_j rk_j k_j.
void chain_rule(const ScoringDims& s, const ScoringParams& p, const float* q, const float* k, const ConcatScratch& c,
                float* dq, float* dk, const ScoringGrads& g) {
  std::memset(c.per_key, 0, key_rows(s) * sizeof(float));
  std::memset(c.per_query, 0, query_rows(s) * sizeof(float));
  for_each_pair(s, [&](std::size_t ij, std::size_t qrow, std::size_t krow) {
    c.per_query[qrow] += c.dA[ij];
    c.per_key[krow] += c.dA[ij];
  });
  const int rows_q = int(query_rows(s)), rows_k = int(key_rows(s));
  f32_gemm_nn(rows_q, s.dq, 1, c.per_query, p.w, dq, false);          // (rows, 1) x (1, dq)
  f32_gemm_nn(rows_k, s.dk, 1, c.per_key, p.w + s.dq, dk, false);
  f32_gemm_tn(s.dq, 1, rows_q, q, c.per_query, g.dw, false);          // q^T rq: (dq, 1)
  f32_gemm_tn(s.dk, 1, rows_k, k, c.per_key, g.dw + s.dq, false);
}

// ---------------------------------------------------------------------------------------------
// The score-matrix scorings (Scratch = AdditiveScratch or ConcatScratch): their own compute_scores
// and chain_rule around the shared attend_scores_forward / attend_scores_backward.

template <class Scratch>
void score_matrix_forward(const ScoringDims& dims, const ScoringOptions& opt, const ScoringParams& params,
                          const float* q, const float* k, const float* v, const ScoringForwardOutputs& outputs,
                          float* scratch) {
  const Scratch s(dims, scratch);
  compute_scores(dims, opt, outputs.scores != nullptr, params, q, k, s);
  attend_scores_forward(dims, opt.mask, s.S, v, outputs);
}

// Recomputes S (the forward keeps nothing), then dA and dv from the shared path, then the chain rule.
template <class Scratch>
void score_matrix_backward(const ScoringDims& dims, const ScoringOptions& opt, const ScoringParams& params,
                           const float* q, const float* k, const float* v, const float* dout, float* dq,
                           float* dk, float* dv, const ScoringGrads& grads, float* scratch) {
  const Scratch s(dims, scratch);
  compute_scores(dims, opt, false, params, q, k, s);
  attend_scores_backward(dims, opt.mask, opt.scale, s.S, v, dout, s.dA, dv);
  chain_rule(dims, params, q, k, s, dq, dk, grads);
}

// ---------------------------------------------------------------------------------------------
// general: A = q W (B, H, Tq, dk), then sdpa(A, k, v). Scratch: A | dA | sdpa scratch.

std::size_t general_scratch_floats(const ScoringDims& s) {
  return 2 * query_rows(s) * s.dk + sdpa_scratch_floats(attention_dims(s, s.dk));
}

}  // namespace

void scoring_forward(const ScoringDims& dims, const ScoringOptions& opt, const ScoringParams& params,
                     const float* q, const float* k, const float* v, const ScoringForwardOutputs& outputs,
                     float* scratch) {
  SdpaForwardOutputs so;
  so.out = outputs.out;
  so.weights = outputs.weights;
  so.scores = outputs.scores;
  so.masked = outputs.masked;
  switch (opt.scoring) {
    case Scoring::dot:
    case Scoring::scaled_dot:
      sdpa_forward(attention_dims(dims, dims.dq), sdpa_options(opt), q, k, v, so, scratch);
      break;
    case Scoring::general: {
      float* A = scratch;
      f32_gemm_nn(int(query_rows(dims)), dims.dk, dims.dq, q, params.w, A, false);
      sdpa_forward(attention_dims(dims, dims.dk), sdpa_options(opt), A, k, v, so,
                   scratch + 2 * query_rows(dims) * dims.dk);
      break;
    }
    case Scoring::additive:
      score_matrix_forward<AdditiveScratch>(dims, opt, params, q, k, v, outputs, scratch);
      break;
    case Scoring::concat:
      score_matrix_forward<ConcatScratch>(dims, opt, params, q, k, v, outputs, scratch);
      break;
  }
}

void scoring_backward(const ScoringDims& dims, const ScoringOptions& opt, const ScoringParams& params,
                      const float* q, const float* k, const float* v, const float* dout, float* dq,
                      float* dk, float* dv, const ScoringGrads& grads, float* scratch) {
  switch (opt.scoring) {
    case Scoring::dot:
    case Scoring::scaled_dot:
      sdpa_backward(attention_dims(dims, dims.dq), sdpa_options(opt), q, k, v, dout, dq, dk, dv, scratch);
      break;
    case Scoring::general: {
      // Recompute A = q W; sdpa gives dA; then dq = dA W^T and dW = q^T dA (summed over all rows).
      const int rows = int(query_rows(dims));
      float* A = scratch;
      float* dA = A + query_rows(dims) * dims.dk;
      f32_gemm_nn(rows, dims.dk, dims.dq, q, params.w, A, false);
      sdpa_backward(attention_dims(dims, dims.dk), sdpa_options(opt), A, k, v, dout, dA, dk, dv,
                    dA + query_rows(dims) * dims.dk);
      f32_gemm_nt(rows, dims.dq, dims.dk, dA, params.w, dq, false);
      f32_gemm_tn(dims.dq, dims.dk, rows, q, dA, grads.dw, false);
      break;
    }
    case Scoring::additive:
      score_matrix_backward<AdditiveScratch>(dims, opt, params, q, k, v, dout, dq, dk, dv, grads, scratch);
      break;
    case Scoring::concat:
      score_matrix_backward<ConcatScratch>(dims, opt, params, q, k, v, dout, dq, dk, dv, grads, scratch);
      break;
  }
}

std::size_t scoring_scratch_floats(const ScoringDims& dims, Scoring scoring) {
  switch (scoring) {
    case Scoring::dot:
    case Scoring::scaled_dot: return sdpa_scratch_floats(attention_dims(dims, dims.dq));
    case Scoring::general: return general_scratch_floats(dims);
    case Scoring::additive: return additive_scratch_floats(dims);
    case Scoring::concat: return concat_scratch_floats(dims);
  }
  return 0;
}

}  // namespace attnlab
