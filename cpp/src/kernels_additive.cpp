// Additive attention's inner loops, one query row at a time, written once over the vector type
// (kernels_vec.hpp) with the lanes running over keys: the keys' projections are read transposed,
// kwT (h, ldk), so hidden unit c of W consecutive keys is one vector load, qw[c] and wv[c] are
// broadcasts, and each key's sum over c stays in its own lane (no horizontal sums in the forward).
// Every (query, key, hidden unit) costs one tanh: tanh_may_overshoot (kernels_vec.hpp) on vectors,
// std::tanh on single keys (the scalar build and the last n % W keys). The backward reads the tanh
// values the forward kept instead of computing them again (the tanh is most of the cost).
#include "attnlab/kernels.hpp"

#include "kernels_vec.hpp"

namespace attnlab::kernels {
namespace {

using vec::fma;  // the relaxed build's madd, not xsimd's (kernels_vec.hpp)
using vec::lanes;
using vec::over_vectors_then_tail;
using vec::tanh_may_overshoot;

// s (n): for each block of W keys, acc = sum_c wv[c] tanh(qw[c] + kwT[c][j..j+W)) over the h rows
// of kwT; with kKeepT each tanh is also stored at t[c][j..j+W).
template <bool kKeepT>
void additive_scores(float* s, float* t, const float* qw, const float* wv, const float* kwT, int ldk, int h,
                     int n, float scale) {
  over_vectors_then_tail([&](auto zero, int j) {
    using V = decltype(zero);
    const vec::TanhConstants<V> k;
    const V scale_v(scale);
    for (; j + lanes<V>() <= n; j += lanes<V>()) {
      V acc = zero;
      // Pointers walked instead of indices: WebAssembly has no scaled-index addressing.
      const float* key = kwT + j;
      float* kept = t + j;
      const float* q = qw;
      const float* w = wv;
      for (int c = h; c > 0; --c, key += ldk, kept += ldk, ++q, ++w) {
        const V tanh_z = tanh_may_overshoot(V(*q) + V::load_unaligned(key), k);
        if (kKeepT) tanh_z.store_unaligned(kept);
        acc = fma(V(*w), tanh_z, acc);
      }
      (acc * scale_v).store_unaligned(s + j);
    }
    return j;
  });
}

}  // namespace

void f32_additive_scores(float* s, float* t, const float* qw, const float* wv, const float* kwT, int ldk,
                         int h, int n, float scale) {
  if (t != nullptr)
    additive_scores<true>(s, t, qw, wv, kwT, ldk, h, n, scale);
  else
    additive_scores<false>(s, t, qw, wv, kwT, ldk, h, n, scale);
}

// Hidden unit by hidden unit (row c of t and dkwT), over the keys in vectors:
//   dwv[c] += sum_j da_j t,   g = da_j (1 - t^2),   dkwT[c][j] += wv[c] g,   dqw[c] += wv[c] sum_j g.
// The two sums over j stay in vectors until the end of the row: one horizontal sum each per c.
void f32_additive_scores_backward(const float* da, const float* t, int ldk, const float* wv, int h, int n,
                                  float* dqw, float* dkwT, float* dwv) {
  over_vectors_then_tail([&](auto zero, int j0) {
    using V = decltype(zero);
    constexpr int W = lanes<V>();
    const int stop = j0 + (n - j0) / W * W;
    if (stop == j0) return j0;
    const V one(1.0f);
    const float* t_row = t + j0;
    float* dkey_row = dkwT + j0;
    for (int c = 0; c < h; ++c, t_row += ldk, dkey_row += ldk) {
      const V wc(wv[c]);
      V t_sum = zero, g_sum = zero;
      const float* tc = t_row;
      float* dkey = dkey_row;
      const float* d = da + j0;
      for (int j = j0; j < stop; j += W, tc += W, dkey += W, d += W) {
        const V tv = V::load_unaligned(tc), dv = V::load_unaligned(d);
        t_sum = fma(dv, tv, t_sum);
        const V g = dv * (one - tv * tv);
        g_sum = g_sum + g;
        fma(wc, g, V::load_unaligned(dkey)).store_unaligned(dkey);
      }
      dwv[c] += reduce_add(t_sum);
      dqw[c] += wv[c] * reduce_add(g_sum);
    }
    return stop;
  });
}

}  // namespace attnlab::kernels
