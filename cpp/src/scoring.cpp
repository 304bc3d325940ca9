// Attention with a choice of scoring function (scoring.hpp, docs/semantics.md "Scoring functions").
//
// dot and scaled-dot are sdpa itself. general is sdpa on (q W, k, v): a(q, k) = (q W) . k, so
// the row-streaming kernels do all the work and only the projection is added around them.
// additive and concat have no q . k form: they materialise S = scale * a(q, k) (B, H, Tq, Tk) in
// scratch and share one "attend from a score matrix" path (masked softmax, P V and its backward,
// the backward one query row at a time), into which each brings its own scores and chain rule for
// dq, dk and its parameters.
#include "attnlab/scoring.hpp"

#include <cmath>
#include <cstring>

#include "attnlab/kernels.hpp"
#include "attnlab/sdpa.hpp"
#include "attnlab/softmax.hpp"
#include "query_rows.hpp"
#include "softmax_row.hpp"

namespace attnlab {
namespace {

using detail::for_each_query_row;
using detail::QueryRow;
using kernels::f32_axpy;
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

std::size_t query_rows(const ScoringDims& s) { return std::size_t(s.B) * s.H * s.Tq; }  // (b, h, i)
std::size_t key_rows(const ScoringDims& s) { return std::size_t(s.B) * s.Hkv * s.Tk; }  // (b, kvh, j)
std::size_t score_count(const ScoringDims& s) { return query_rows(s) * s.Tk; }

// ---------------------------------------------------------------------------------------------
// The shared path from a score matrix S (B, H, Tq, Tk) = scale * a(q, k). A scoring (Additive,
// Concat below) is a Model with its scratch layout and these steps:
//   prepare(q, k)                    per-row projections, once per call
//   score_row(row, n, S_r, keep)     S_r[j] for the keys j < n of a QueryRow (keep: scratch for
//                                    values its chain rule may reuse, or nullptr in the forward)
//   clear_sums(grads)                zero what chain_row accumulates
//   chain_row(row, dA_r, keep, grads) accumulate from dA_r = d loss / d a(q_r, k_j)
//   finish(q, k, dq, dk, grads)      the gradients of q, k and the parameters from those sums

// pass 1: S = scale * a(q, k), for every key when the scores are returned, else only the keys
// before each row's mask limit (validLens, causal, a window's right side): the masked softmax never
// reads a score at or beyond it (fill mode overwrites those with the fill).
// pass 2: P = masked softmax of S, in place; out (B, H, Tq, dv) = P v, query head h reading kv
// head h / (H / Hkv). Optional trace outputs are copied on the way.
template <class Model>
void score_matrix_forward(const ScoringDims& s, const ScoringOptions& opt, const ScoringParams& params,
                          const float* q, const float* k, const float* v,
                          const ScoringForwardOutputs& outputs, float* scratch) {
  Model sc(s, opt, params, scratch);
  sc.prepare(q, k);
  const bool all_keys = outputs.scores != nullptr;
  float* S = sc.S;
  const std::size_t n = score_count(s);
  for_each_query_row(s.B, s.H, s.Hkv, s.Tq, s.Tk, opt.mask, [&](const QueryRow& row) {
    sc.score_row(row, all_keys ? s.Tk : row.mask.limit, S + row.r * s.Tk, nullptr);
    if (outputs.masked) {  // what enters the softmax: S + bias where visible, -inf (or fill) where masked
      float* masked = outputs.masked + row.r * s.Tk;
      std::memcpy(masked, S + row.r * s.Tk, std::size_t(s.Tk) * sizeof(float));
      detail::apply_mask(row.mask, opt.mask, masked, s.Tk);
    }
  });
  if (outputs.scores) std::memcpy(outputs.scores, S, n * sizeof(float));
  masked_softmax_forward(s.B, s.H, s.Tq, s.Tk, opt.mask, S, S);
  if (outputs.weights) std::memcpy(outputs.weights, S, n * sizeof(float));
  const int group = s.H / s.Hkv;
  for (int b = 0; b < s.B; ++b)
    for (int h = 0; h < s.H; ++h) {
      const std::size_t bh = std::size_t(b) * s.H + h, bkv = std::size_t(b) * s.Hkv + h / group;
      f32_gemm_nn(s.Tq, s.dv, s.Tk, S + bh * s.Tq * s.Tk, v + bkv * s.Tk * s.dv,
                  outputs.out + bh * s.Tq * s.dv, false);
    }
}

// The backward recomputes S (the forward keeps nothing), one query row at a time so that a row's
// kept values are still there for its chain rule:
//   dP = dout v^T (B, H, Tq, Tk), one product per head, into dA;
//   per row: S_r (keeping what the scoring keeps), P_r = masked softmax of S_r in place,
//     dA_r = scale dS_r = scale P_r (dP_r - P_r . dP_r), 0 where masked, since S = scale a;
//     the scoring's chain rule from dA_r;
//   dv = P^T dout, summed over the query heads sharing a kv head (overwritten).
template <class Model>
void score_matrix_backward(const ScoringDims& s, const ScoringOptions& opt, const ScoringParams& params,
                           const float* q, const float* k, const float* v, const float* dout, float* dq,
                           float* dk, float* dv, const ScoringGrads& grads, float* scratch) {
  Model sc(s, opt, params, scratch);
  sc.prepare(q, k);
  sc.clear_sums(grads);
  float *S = sc.S, *dA = sc.dA;
  const int group = s.H / s.Hkv;
  for (int b = 0; b < s.B; ++b)
    for (int h = 0; h < s.H; ++h) {
      const std::size_t bh = std::size_t(b) * s.H + h, bkv = std::size_t(b) * s.Hkv + h / group;
      f32_gemm_nt(s.Tq, s.Tk, s.dv, dout + bh * s.Tq * s.dv, v + bkv * s.Tk * s.dv, dA + bh * s.Tq * s.Tk,
                  false);
    }
  for_each_query_row(s.B, s.H, s.Hkv, s.Tq, s.Tk, opt.mask, [&](const QueryRow& row) {
    float *S_r = S + row.r * s.Tk, *dA_r = dA + row.r * s.Tk;
    sc.score_row(row, row.mask.limit, S_r, sc.keep);
    detail::masked_softmax_row(row.mask, opt.mask, S_r, S_r, s.Tk);
    detail::masked_softmax_backward_row(row.mask, opt.mask, S_r, dA_r, dA_r, s.Tk, opt.scale);
    sc.chain_row(row, dA_r, sc.keep, grads);
  });
  std::memset(dv, 0, key_rows(s) * s.dv * sizeof(float));
  for (int b = 0; b < s.B; ++b)
    for (int h = 0; h < s.H; ++h) {
      const std::size_t bh = std::size_t(b) * s.H + h, bkv = std::size_t(b) * s.Hkv + h / group;
      f32_gemm_tn(s.Tk, s.dv, s.Tq, S + bh * s.Tq * s.Tk, dout + bh * s.Tq * s.dv, dv + bkv * s.Tk * s.dv,
                  true);
    }
  sc.finish(q, k, dq, dk, grads);
}

// ---------------------------------------------------------------------------------------------
// additive: S_ij = scale * w_v . tanh(QW_i + KW_j) with QW = q Wq (B, H, Tq, h), KW = k Wk (B, Hkv, Tk, h).
// The row kernels (kernels_additive.cpp) run with the lanes over keys, so they read the keys'
// projections transposed, KWT (B, Hkv, h, ld), and accumulate dKWT likewise. The backward keeps a
// row's tanh values, kept (h, ld), from its score for its chain rule: the tanh is most of the cost.
//
// Row stride ld = Tk rounded up to 64, plus 16 floats, and kept placed 8 floats (mod 16) off KWT
// and dKWT: the kernels walk these (h, ld) arrays down their rows, storing into one while loading
// from another, and with ld = Tk = 512 (2 KiB rows) every second row shares its address modulo
// 4 KiB, where the CPU falsely takes a load for one of the stores in flight before it ("4K
// aliasing") and waits for it. With ld = 64 m + 16 two rows of one
// array line up only 64 rows apart, and rows of kept sit half a 64-byte line off those of KWT and dKWT.
// Scratch: S | dA | QW | dQW | KWT | dKWT | KW (before its transpose; dKW after dKWT's) | kept.

class Additive {
 public:
  float *S, *dA, *keep;

  // 64-bit: at Tq = Tk = h = 23168 this is 2^32 + 194576 floats, which wasm32's size_t wrapped.
  static std::uint64_t scratch_floats(const ScoringDims& s) {
    using u64 = std::uint64_t;
    const u64 scores = u64(s.B) * s.H * s.Tq * s.Tk, queries = u64(s.B) * s.H * s.Tq,
              keys = u64(s.B) * s.Hkv * s.Tk;
    const u64 row_stride = ld(s);  // < 2^31 + 80: no wrap
    return 2 * scores + 2 * queries * s.hidden + 2 * u64(s.B) * s.Hkv * s.hidden * row_stride +
           keys * s.hidden + kPlacement + u64(s.hidden) * row_stride;
  }

  Additive(const ScoringDims& s, const ScoringOptions& opt, const ScoringParams& p, float* scratch)
      : s_(s), scale_(opt.scale), p_(p), h_(s.hidden) {
    const std::size_t hq = query_rows(s) * h_;
    S = scratch;
    dA = S + score_count(s);
    QW_ = dA + score_count(s);
    dQW_ = QW_ + hq;
    KWT_ = dQW_ + hq;
    dKWT_ = KWT_ + kv_heads(s) * block(s);  // block(s) is a multiple of 16 floats
    KW_ = dKWT_ + kv_heads(s) * block(s);
    keep = KW_ + key_rows(s) * h_;
    keep += (kPlacement + kPlacement / 2 - std::size_t(keep - KWT_) % kPlacement) %
            kPlacement;  // 8 mod 16 off KWT
  }

  // QW = q Wq, KW = k Wk, KWT = KW transposed per kv head.
  void prepare(const float* q, const float* k) {
    f32_gemm_nn(int(query_rows(s_)), h_, s_.dq, q, p_.wq, QW_, false);
    f32_gemm_nn(int(key_rows(s_)), h_, s_.dk, k, p_.wk, KW_, false);
    for (std::size_t kv = 0; kv < kv_heads(s_); ++kv)
      kernels::f32_transpose(s_.Tk, h_, KW_ + kv * s_.Tk * h_, h_, KWT_ + kv * block(s_), int(ld(s_)));
  }

  void score_row(const QueryRow& row, int n, float* S_r, float* kept) const {
    kernels::f32_additive_scores(S_r, kept, QW_ + row.r * h_, p_.wv, KWT_ + row.kv * block(s_), int(ld(s_)),
                                 h_, n, scale_);
  }

  void clear_sums(const ScoringGrads& g) {
    std::memset(dQW_, 0, query_rows(s_) * h_ * sizeof(float));
    std::memset(dKWT_, 0, kv_heads(s_) * block(s_) * sizeof(float));
    std::memset(g.dwv, 0, std::size_t(h_) * sizeof(float));
  }

  // With t = tanh(z), z = QW_i + KW_j: dw_v += dA t, dz = dA w_v (1 - t^2), dQW_i += dz,
  // dKW_j += dz, over the keys up to the row's last nonzero dA (masked keys have dA = 0).
  void chain_row(const QueryRow& row, const float* dA_r, const float* kept, const ScoringGrads& g) {
    int n = row.mask.limit;
    while (n > 0 && dA_r[n - 1] == 0.0f) --n;
    kernels::f32_additive_scores_backward(dA_r, kept, int(ld(s_)), p_.wv, h_, n, dQW_ + row.r * h_,
                                          dKWT_ + row.kv * block(s_), g.dwv);
  }

  // dq = dQW Wq^T, dWq = q^T dQW, dk = dKW Wk^T, dWk = k^T dKW.
  void finish(const float* q, const float* k, float* dq, float* dk, const ScoringGrads& g) {
    float* dKW = KW_;
    for (std::size_t kv = 0; kv < kv_heads(s_); ++kv)
      kernels::f32_transpose(h_, s_.Tk, dKWT_ + kv * block(s_), int(ld(s_)), dKW + kv * s_.Tk * h_, h_);
    f32_gemm_nt(int(query_rows(s_)), s_.dq, h_, dQW_, p_.wq, dq, false);
    f32_gemm_tn(s_.dq, h_, int(query_rows(s_)), q, dQW_, g.dwq, false);
    f32_gemm_nt(int(key_rows(s_)), s_.dk, h_, dKW, p_.wk, dk, false);
    f32_gemm_tn(s_.dk, h_, int(key_rows(s_)), k, dKW, g.dwk, false);
  }

 private:
  static constexpr std::size_t kPlacement = 16;  // floats
  static std::size_t ld(const ScoringDims& s) { return (std::size_t(s.Tk) + 63) / 64 * 64 + 16; }
  static std::size_t block(const ScoringDims& s) {
    return std::size_t(s.hidden) * ld(s);
  }  // one kv head's (h, ld)
  static std::size_t kv_heads(const ScoringDims& s) { return std::size_t(s.B) * s.Hkv; }

  const ScoringDims& s_;
  float scale_;
  const ScoringParams& p_;
  int h_;
  float *QW_, *dQW_, *KWT_, *dKWT_, *KW_;
};

// ---------------------------------------------------------------------------------------------
// concat: S_ij = scale * (w_q . q_i + w_k . k_j), w = [w_q (dq); w_k (dk)].
// a is linear in q and k, so with rq_i = sum_j dA_ij and rk_j = sum_i dA_ij (over every query
// head sharing the kv head): dq_i = rq_i w_q, dk_j = rk_j w_k, dw_q = sum_i rq_i q_i, dw_k = sum_j rk_j k_j.
// Scratch: S | dA | per_query (B, H, Tq) = w_q . q_i | per_key (B, Hkv, Tk) = w_k . k_j | rq | rk.

class Concat {
 public:
  float *S, *dA, *keep = nullptr;

  static std::uint64_t scratch_floats(const ScoringDims& s) {
    using u64 = std::uint64_t;
    return 2 * (u64(s.B) * s.H * s.Tq * s.Tk + u64(s.B) * s.H * s.Tq + u64(s.B) * s.Hkv * s.Tk);
  }

  Concat(const ScoringDims& s, const ScoringOptions& opt, const ScoringParams& p, float* scratch)
      : s_(s), scale_(opt.scale), p_(p) {
    S = scratch;
    dA = S + score_count(s);
    per_query_ = dA + score_count(s);
    per_key_ = per_query_ + query_rows(s);
    rq_ = per_key_ + key_rows(s);
    rk_ = rq_ + query_rows(s);
  }

  // per_query_i = w_q . q_i, per_key_j = w_k . k_j, as (rows, d) x (d, 1) products.
  void prepare(const float* q, const float* k) {
    f32_gemm_nn(int(query_rows(s_)), 1, s_.dq, q, p_.w, per_query_, false);
    f32_gemm_nn(int(key_rows(s_)), 1, s_.dk, k, p_.w + s_.dq, per_key_, false);
  }

  void score_row(const QueryRow& row, int n, float* S_r, float*) const {
    const float pq = per_query_[row.r];
    const float* pk = per_key_ + row.kv * s_.Tk;
    for (int j = 0; j < n; ++j) S_r[j] = scale_ * (pq + pk[j]);
  }

  void clear_sums(const ScoringGrads&) { std::memset(rk_, 0, key_rows(s_) * sizeof(float)); }

  void chain_row(const QueryRow& row, const float* dA_r, const float*, const ScoringGrads&) {
    rq_[row.r] = kernels::f32_sum(dA_r, s_.Tk);
    f32_axpy(rk_ + row.kv * s_.Tk, 1.0f, dA_r, s_.Tk);
  }

  void finish(const float* q, const float* k, float* dq, float* dk, const ScoringGrads& g) {
    const int rows_q = int(query_rows(s_)), rows_k = int(key_rows(s_));
    f32_gemm_nn(rows_q, s_.dq, 1, rq_, p_.w, dq, false);  // (rows, 1) x (1, dq)
    f32_gemm_nn(rows_k, s_.dk, 1, rk_, p_.w + s_.dq, dk, false);
    f32_gemm_tn(s_.dq, 1, rows_q, q, rq_, g.dw, false);  // q^T rq: (dq, 1)
    f32_gemm_tn(s_.dk, 1, rows_k, k, rk_, g.dw + s_.dq, false);
  }

 private:
  const ScoringDims& s_;
  float scale_;
  const ScoringParams& p_;
  float *per_query_, *per_key_, *rq_, *rk_;
};

// ---------------------------------------------------------------------------------------------
// general: A = q W (B, H, Tq, dk), then sdpa(A, k, v). Scratch: A | dA | sdpa scratch.

std::uint64_t general_scratch_floats(const ScoringDims& s) {
  return 2 * std::uint64_t(s.B) * s.H * s.Tq * s.dk + sdpa_scratch_floats(attention_dims(s, s.dk));
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
      score_matrix_forward<Additive>(dims, opt, params, q, k, v, outputs, scratch);
      break;
    case Scoring::concat:
      score_matrix_forward<Concat>(dims, opt, params, q, k, v, outputs, scratch);
      break;
  }
}

void scoring_backward(const ScoringDims& dims, const ScoringOptions& opt, const ScoringParams& params,
                      const float* q, const float* k, const float* v, const float* dout, float* dq, float* dk,
                      float* dv, const ScoringGrads& grads, float* scratch) {
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
      score_matrix_backward<Additive>(dims, opt, params, q, k, v, dout, dq, dk, dv, grads, scratch);
      break;
    case Scoring::concat:
      score_matrix_backward<Concat>(dims, opt, params, q, k, v, dout, dq, dk, dv, grads, scratch);
      break;
  }
}

std::uint64_t scoring_scratch_floats(const ScoringDims& dims, Scoring scoring) {
  switch (scoring) {
    case Scoring::dot:
    case Scoring::scaled_dot:
      return sdpa_scratch_floats(attention_dims(dims, dims.dq));
    case Scoring::general:
      return general_scratch_floats(dims);
    case Scoring::additive:
      return Additive::scratch_floats(dims);
    case Scoring::concat:
      return Concat::scratch_floats(dims);
  }
  return 0;
}

}  // namespace attnlab
