// Reference attention with a choice of scoring function, in float64, one (query, key) pair at a
// time: a(q_i, k_j) and its gradient are written out per pair exactly as the formulas of
// docs/semantics.md read, with none of the core's factoring (no q Wq precomputation, no shared
// matrix products). Masks are resolved element by element with ref::visible.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "reference.hpp"

namespace attnlab::ref {
namespace {

using Vec = std::vector<double>;

// The unscaled score a(q, k) of one pair. qi (dq), kj (dk).
double pair_score(const ScoringDims& dims, Scoring scoring, const ScoringParams& p, const float* qi,
                  const float* kj) {
  const int dq = dims.dq, dk = dims.dk, h = dims.hidden;
  double a = 0.0;
  switch (scoring) {
    case Scoring::dot:
    case Scoring::scaled_dot:  // a = q . k (the scale is applied by the caller)
      for (int c = 0; c < dq; ++c) a += double(qi[c]) * kj[c];
      break;
    case Scoring::general:  // a = sum_rc q_r W_rc k_c
      for (int r = 0; r < dq; ++r)
        for (int c = 0; c < dk; ++c) a += double(qi[r]) * p.w[r * dk + c] * kj[c];
      break;
    case Scoring::additive:  // a = sum_c w_v[c] tanh(sum_r q_r Wq_rc + sum_s k_s Wk_sc)
      for (int c = 0; c < h; ++c) {
        double z = 0.0;
        for (int r = 0; r < dq; ++r) z += double(qi[r]) * p.wq[r * h + c];
        for (int s = 0; s < dk; ++s) z += double(kj[s]) * p.wk[s * h + c];
        a += double(p.wv[c]) * std::tanh(z);
      }
      break;
    case Scoring::concat:  // a = w[:dq] . q + w[dq:] . k
      for (int r = 0; r < dq; ++r) a += double(p.w[r]) * qi[r];
      for (int s = 0; s < dk; ++s) a += double(p.w[dq + s]) * kj[s];
      break;
  }
  return a;
}

// Parameter gradients in double, shaped like ScoringParams (empty where not used).
struct ParamGrads {
  Vec w, wq, wk, wv;
};

// Adds g * da/d(everything) of one pair: dqi (dq), dkj (dk) and the parameter gradients.
void pair_score_backward(const ScoringDims& dims, Scoring scoring, const ScoringParams& p, const float* qi,
                         const float* kj, double g, double* dqi, double* dkj, ParamGrads& dp) {
  const int dq = dims.dq, dk = dims.dk, h = dims.hidden;
  switch (scoring) {
    case Scoring::dot:
    case Scoring::scaled_dot:  // da/dq = k, da/dk = q
      for (int c = 0; c < dq; ++c) {
        dqi[c] += g * kj[c];
        dkj[c] += g * qi[c];
      }
      break;
    case Scoring::general:  // da/dq_r = (W k)_r, da/dk_c = (q W)_c, da/dW_rc = q_r k_c
      for (int r = 0; r < dq; ++r)
        for (int c = 0; c < dk; ++c) {
          const double wrc = p.w[r * dk + c];
          dqi[r] += g * wrc * kj[c];
          dkj[c] += g * qi[r] * wrc;
          dp.w[r * dk + c] += g * qi[r] * kj[c];
        }
      break;
    case Scoring::additive:  // t = tanh(z): da/dw_v = t, da/dz = w_v (1 - t^2), z linear in q, k, Wq, Wk
      for (int c = 0; c < h; ++c) {
        double z = 0.0;
        for (int r = 0; r < dq; ++r) z += double(qi[r]) * p.wq[r * h + c];
        for (int s = 0; s < dk; ++s) z += double(kj[s]) * p.wk[s * h + c];
        const double t = std::tanh(z);
        const double dz = g * p.wv[c] * (1.0 - t * t);
        dp.wv[c] += g * t;
        for (int r = 0; r < dq; ++r) {
          dqi[r] += dz * p.wq[r * h + c];
          dp.wq[r * h + c] += dz * qi[r];
        }
        for (int s = 0; s < dk; ++s) {
          dkj[s] += dz * p.wk[s * h + c];
          dp.wk[s * h + c] += dz * kj[s];
        }
      }
      break;
    case Scoring::concat:  // da/dq = w[:dq], da/dk = w[dq:], da/dw = [q; k]
      for (int r = 0; r < dq; ++r) {
        dqi[r] += g * p.w[r];
        dp.w[r] += g * qi[r];
      }
      for (int s = 0; s < dk; ++s) {
        dkj[s] += g * p.w[dq + s];
        dp.w[dq + s] += g * kj[s];
      }
      break;
  }
}

// Everything the forward pass computes, all (B, H, Tq, Tk) except out (B, H, Tq, dv).
struct Forward {
  Vec scores;                 // scale * a(q_i, k_j)
  Vec masked;                 // scores + bias where visible; -inf (or fill) where not
  std::vector<char> visible;  // 1 where the key is visible
  Vec weights;                // P
  Vec out;
};

Forward forward_pass(const ScoringDims& dims, const ScoringOptions& opt, const ScoringParams& params,
                     const float* q, const float* k, const float* v) {
  const int B = dims.B, H = dims.H, Tq = dims.Tq, Tk = dims.Tk, dq = dims.dq, dk = dims.dk, dv = dims.dv;
  const int group = H / dims.Hkv;
  const double inf = std::numeric_limits<double>::infinity();
  const std::size_t n = std::size_t(B) * H * Tq * Tk;
  Forward f{Vec(n), Vec(n), std::vector<char>(n), Vec(n), Vec(std::size_t(B) * H * Tq * dv, 0.0)};
  for (int b = 0; b < B; ++b)
    for (int hh = 0; hh < H; ++hh) {
      const int kvh = hh / group;
      for (int i = 0; i < Tq; ++i) {
        const std::size_t row = ((std::size_t(b) * H + hh) * Tq + i) * Tk;
        const float* qi = q + ((std::size_t(b) * H + hh) * Tq + i) * dq;
        // pass 1: scores, mask, row max
        bool any_visible = false;
        double row_max = -inf;
        for (int j = 0; j < Tk; ++j) {
          const float* kj = k + ((std::size_t(b) * dims.Hkv + kvh) * Tk + j) * dk;
          const double s = opt.scale * pair_score(dims, opt.scoring, params, qi, kj);
          double bias = 0.0;
          const bool vis = visible(opt.mask, Tq, Tk, b, hh, i, j, &bias);
          f.scores[row + j] = s;
          f.visible[row + j] = vis;
          f.masked[row + j] = vis ? s + bias : (opt.mask.use_fill ? double(opt.mask.fill) : -inf);
          any_visible = any_visible || vis;
          row_max = std::max(row_max, f.masked[row + j]);
        }
        // A row with nothing visible has zero weights unless d2l's finite fill makes it uniform.
        if (!any_visible && !opt.mask.use_fill) continue;
        // pass 2: softmax
        double sum = 0.0;
        for (int j = 0; j < Tk; ++j) sum += std::exp(f.masked[row + j] - row_max);
        for (int j = 0; j < Tk; ++j) f.weights[row + j] = std::exp(f.masked[row + j] - row_max) / sum;
        // pass 3: out_i = sum_j P_ij v_j
        double* oi = &f.out[((std::size_t(b) * H + hh) * Tq + i) * dv];
        for (int j = 0; j < Tk; ++j) {
          const float* vj = v + ((std::size_t(b) * dims.Hkv + kvh) * Tk + j) * dv;
          for (int c = 0; c < dv; ++c) oi[c] += f.weights[row + j] * vj[c];
        }
      }
    }
  return f;
}

void store(const Vec& from, float* to) {
  if (to == nullptr) return;
  for (std::size_t i = 0; i < from.size(); ++i) to[i] = float(from[i]);
}

}  // namespace

// q (B, H, Tq, dq), k (B, Hkv, Tk, dk), v (B, Hkv, Tk, dv) -> out (B, H, Tq, dv) and the optional
// (B, H, Tq, Tk) weights, scores and masked scores.
void scoring_forward(const ScoringDims& dims, const ScoringOptions& opt, const ScoringParams& params,
                     const float* q, const float* k, const float* v, const ScoringForwardOutputs& outputs) {
  const Forward f = forward_pass(dims, opt, params, q, k, v);
  store(f.out, outputs.out);
  store(f.weights, outputs.weights);
  store(f.scores, outputs.scores);
  store(f.masked, outputs.masked);
}

// dout (B, H, Tq, dv) -> dq (B, H, Tq, dq), dk (B, Hkv, Tk, dk), dv (B, Hkv, Tk, dv) and the
// parameter gradients that apply to the scoring.
void scoring_backward(const ScoringDims& dims, const ScoringOptions& opt, const ScoringParams& params,
                      const float* q, const float* k, const float* v, const float* dout, float* dq, float* dk,
                      float* dv, const ScoringGrads& grads) {
  const int B = dims.B, H = dims.H, Hkv = dims.Hkv, Tq = dims.Tq, Tk = dims.Tk;
  const int Dq = dims.dq, Dk = dims.dk, Dv = dims.dv, h = dims.hidden;
  const int group = H / Hkv;
  const Forward f = forward_pass(dims, opt, params, q, k, v);

  Vec gq(std::size_t(B) * H * Tq * Dq, 0.0), gk(std::size_t(B) * Hkv * Tk * Dk, 0.0),
      gv(std::size_t(B) * Hkv * Tk * Dv, 0.0);
  ParamGrads gp;
  if (opt.scoring == Scoring::general) gp.w.assign(std::size_t(Dq) * Dk, 0.0);
  if (opt.scoring == Scoring::concat) gp.w.assign(std::size_t(Dq + Dk), 0.0);
  if (opt.scoring == Scoring::additive) {
    gp.wq.assign(std::size_t(Dq) * h, 0.0);
    gp.wk.assign(std::size_t(Dk) * h, 0.0);
    gp.wv.assign(std::size_t(h), 0.0);
  }

  Vec dP(Tk);
  for (int b = 0; b < B; ++b)
    for (int hh = 0; hh < H; ++hh) {
      const int kvh = hh / group;
      for (int i = 0; i < Tq; ++i) {
        const std::size_t qrow = (std::size_t(b) * H + hh) * Tq + i;
        const std::size_t row = qrow * Tk;
        const float* doi = dout + qrow * Dv;
        // dv_j += P_ij dO_i;  dP_ij = dO_i . v_j;  D_i = sum_j P_ij dP_ij (over every key: in fill
        // mode the masked keys carry weight too)
        double D = 0.0;
        for (int j = 0; j < Tk; ++j) {
          const std::size_t kv_row = (std::size_t(b) * Hkv + kvh) * Tk + j;
          const float* vj = v + kv_row * Dv;
          double dpj = 0.0;
          for (int c = 0; c < Dv; ++c) {
            dpj += double(doi[c]) * vj[c];
            gv[kv_row * Dv + c] += f.weights[row + j] * doi[c];
          }
          dP[j] = dpj;
          D += f.weights[row + j] * dpj;
        }
        // dS_ij = P_ij (dP_ij - D) at visible keys; the scores were scaled, so g = scale * dS.
        for (int j = 0; j < Tk; ++j) {
          if (!f.visible[row + j]) continue;
          const double dS = f.weights[row + j] * (dP[j] - D);
          const std::size_t kv_row = (std::size_t(b) * Hkv + kvh) * Tk + j;
          pair_score_backward(dims, opt.scoring, params, q + qrow * Dq, k + kv_row * Dk, opt.scale * dS,
                              &gq[qrow * Dq], &gk[kv_row * Dk], gp);
        }
      }
    }

  store(gq, dq);
  store(gk, dk);
  store(gv, dv);
  if (!gp.w.empty()) store(gp.w, grads.dw);
  if (!gp.wq.empty()) {
    store(gp.wq, grads.dwq);
    store(gp.wk, grads.dwk);
    store(gp.wv, grads.dwv);
  }
}

}  // namespace attnlab::ref
