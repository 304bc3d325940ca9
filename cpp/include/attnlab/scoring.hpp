// Attention with a choice of scoring function a(q, k) (seed 003, docs/semantics.md "Scoring functions"):
//   dot         q . k                       (scale 1 by default)
//   scaled-dot  q . k / sqrt(d)             (the default scoring)
//   general     q^T W k                     W (dq, dk)
//   additive    w_v . tanh(q Wq + k Wk)     Wq (dq, h), Wk (dk, h), w_v (h)   (Bahdanau, d2l)
//   concat      w . [q; k]                  w (dq + dk)
// dot, scaled-dot and general run through sdpa (general as (q W) . k); additive and concat
// materialise the (B, H, Tq, Tk) scores in scratch and share one masked-softmax path.
#pragma once

#include "attnlab/dims.hpp"

namespace attnlab {

enum class Scoring : int { dot = 0, scaled_dot = 1, general = 2, additive = 3, concat = 4 };

// q (B, H, Tq, dq), k (B, Hkv, Tk, dk), v (B, Hkv, Tk, dv); hidden = h (additive only).
struct ScoringDims {
  int B = 1, H = 1, Hkv = 1, Tq = 1, Tk = 1, dq = 1, dk = 1, dv = 1, hidden = 0;
};

struct ScoringParams {        // which are read depends on the scoring
  const float* w = nullptr;   // general: W (dq, dk); concat: w (dq + dk)
  const float* wq = nullptr;  // additive: Wq (dq, h)
  const float* wk = nullptr;  // additive: Wk (dk, h)
  const float* wv = nullptr;  // additive: w_v (h)
};

struct ScoringGrads {  // same shapes as ScoringParams; null where not applicable
  float* dw = nullptr;
  float* dwq = nullptr;
  float* dwk = nullptr;
  float* dwv = nullptr;
};

struct ScoringOptions {
  Scoring scoring = Scoring::scaled_dot;
  float scale = 1.0f;  // multiplies a(q, k); the caller resolves defaults (1/sqrt(dq) for scaled-dot, else 1)
  MaskSpec mask;
};

struct ScoringForwardOutputs {
  float* out = nullptr;      // (B, H, Tq, dv), required
  float* weights = nullptr;  // (B, H, Tq, Tk) or null
  float* scores = nullptr;   // (B, H, Tq, Tk): scale * a(q, k), or null
  float* masked = nullptr;   // (B, H, Tq, Tk): scores + bias, -inf (or fill) where masked, or null
};

void scoring_forward(const ScoringDims& dims, const ScoringOptions& opt, const ScoringParams& params,
                     const float* q, const float* k, const float* v, const ScoringForwardOutputs& outputs,
                     float* scratch);

// dq (B, H, Tq, dq), dk (B, Hkv, Tk, dk), dv (B, Hkv, Tk, dv) and the parameter gradients,
// all overwritten.
void scoring_backward(const ScoringDims& dims, const ScoringOptions& opt, const ScoringParams& params,
                      const float* q, const float* k, const float* v, const float* dout, float* dq, float* dk,
                      float* dv, const ScoringGrads& grads, float* scratch);

std::uint64_t scoring_scratch_floats(const ScoringDims& dims, Scoring scoring);

}  // namespace attnlab
