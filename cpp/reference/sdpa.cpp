// Reference scaled dot-product attention in double, every (B, H, Tq, Tk) intermediate
// materialised, written as the formulas of docs/semantics.md read.
#include <cmath>
#include <vector>

#include "attnlab/dropout.hpp"
#include "reference.hpp"
#include "row_math.hpp"

namespace attnlab::ref {
namespace {

using Vec = std::vector<double>;

// Every intermediate of one forward pass. S, Sc, Z, P, Pd, visible are (B, H, Tq, Tk);
// O is (B, H, Tq, dv); lse is (B, H, Tq).
struct Forward {
  Vec S;   // scale * q k^T
  Vec Sc;  // softcap * tanh(S / softcap), or S
  Vec Z;   // Sc + bias, -inf (or fill) where masked
  Vec P;   // softmax(Z) per row
  Vec M;   // dropout multiplier keep / (1 - dropout): 1 / (1 - dropout) or 0
  Vec Pd;  // P * M: the weights that multiply V
  std::vector<bool> visible;
  Vec O;
  Vec lse;
};

Forward forward(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                const float* v) {
  const int B = dims.B, H = dims.H, Tq = dims.Tq, Tk = dims.Tk, d = dims.d, dv = dims.dv;
  Forward f;
  const std::size_t n = dims.scores_size();
  f.S.resize(n);
  f.Sc.resize(n);
  f.Z.resize(n);
  f.P.resize(n);
  f.M.resize(n);
  f.Pd.resize(n);
  f.visible.resize(n);
  f.O.assign(dims.out_size(), 0.0);
  f.lse.resize(dims.rows());
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h) {
      const int hk = dims.kv_head_of(h);
      for (int i = 0; i < Tq; ++i) {
        const std::size_t row = (std::size_t(b) * H + h) * Tq + i;
        const float* qi = q + row * d;
        for (int j = 0; j < Tk; ++j) {
          const float* kj = k + ((std::size_t(b) * dims.Hkv + hk) * Tk + j) * d;
          double dot = 0.0;
          for (int c = 0; c < d; ++c) dot += double(qi[c]) * kj[c];
          const std::size_t at = row * Tk + j;
          f.S[at] = double(opt.scale) * dot;
          f.Sc[at] = opt.softcap > 0.0f ? opt.softcap * std::tanh(f.S[at] / opt.softcap) : f.S[at];
          bool is_visible;
          f.Z[at] = detail::masked_score(opt.mask, Tq, Tk, b, h, i, j, f.Sc[at], &is_visible);
          f.visible[at] = is_visible;
        }
        f.lse[row] = detail::softmax_row(&f.Z[row * Tk], &f.P[row * Tk], Tk);
        for (int j = 0; j < Tk; ++j) {
          const std::size_t at = row * Tk + j;
          const bool keep = opt.dropout <= 0.0f || dropout_keep(opt.seed, opt.dropout, uint32_t(b),
                                                                uint32_t(h), uint32_t(i), uint32_t(j));
          f.M[at] = keep ? 1.0 / (1.0 - double(opt.dropout)) : 0.0;
          f.Pd[at] = f.P[at] * f.M[at];
          const float* vj = v + ((std::size_t(b) * dims.Hkv + hk) * Tk + j) * dv;
          for (int c = 0; c < dv; ++c) f.O[row * dv + c] += f.Pd[at] * vj[c];
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

void sdpa_forward(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                  const float* v, const SdpaForwardOutputs& outputs) {
  const Forward f = forward(dims, opt, q, k, v);
  store(f.O, outputs.out);
  store(f.lse, outputs.lse);
  store(f.P, outputs.weights);
  store(f.S, outputs.scores);
  store(f.Sc, outputs.softcapped);
  store(f.Z, outputs.masked);
}

// dV = Pd^T dO;  dPd = dO V^T;  dP = dPd * M;  D = rowsum(dO * O);
// dZ = P * (dP - D), 0 where masked;  dS = dZ * (1 - tanh^2(S / softcap));
// dQ = scale dS K;  dK = scale dS^T Q.  GQA: a kv head sums over the query heads that read it.
void sdpa_backward(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                   const float* v, const float* dout, float* dq, float* dk, float* dv) {
  const int B = dims.B, H = dims.H, Tq = dims.Tq, Tk = dims.Tk, d = dims.d, dvw = dims.dv;
  const Forward f = forward(dims, opt, q, k, v);
  Vec gq(dims.q_size(), 0.0), gk(dims.k_size(), 0.0), gv(dims.v_size(), 0.0);
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h) {
      const std::size_t kv = (std::size_t(b) * dims.Hkv + dims.kv_head_of(h)) * Tk;
      for (int i = 0; i < Tq; ++i) {
        const std::size_t row = (std::size_t(b) * H + h) * Tq + i;
        const float* doi = dout + row * dvw;
        double D = 0.0;
        for (int c = 0; c < dvw; ++c) D += double(doi[c]) * f.O[row * dvw + c];
        for (int j = 0; j < Tk; ++j) {
          const std::size_t at = row * Tk + j;
          const float* vj = v + (kv + j) * dvw;
          double dPd = 0.0;
          for (int c = 0; c < dvw; ++c) {
            dPd += double(doi[c]) * vj[c];
            gv[(kv + j) * dvw + c] += f.Pd[at] * doi[c];
          }
          const double dP = dPd * f.M[at];
          const double dZ = f.visible[at] ? f.P[at] * (dP - D) : 0.0;
          const double t = opt.softcap > 0.0f ? std::tanh(f.S[at] / opt.softcap) : 0.0;
          const double dS = dZ * (1.0 - t * t);
          for (int c = 0; c < d; ++c) {
            gq[row * d + c] += opt.scale * dS * k[(kv + j) * d + c];
            gk[(kv + j) * d + c] += opt.scale * dS * q[row * d + c];
          }
        }
      }
    }
  store(gq, dq);
  store(gk, dk);
  store(gv, dv);
}

}  // namespace attnlab::ref
