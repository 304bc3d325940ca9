// Additive attention's inner loops, one query row at a time, written once over the vector type
// (kernels_vec.hpp) with the lanes running over keys: the keys' projections are read transposed,
// kwT (h, ldk), so hidden unit c of W consecutive keys is one vector load, qw[c] and wv[c] are
// broadcasts, and each key's sum over c stays in its own lane (no horizontal sums in the forward).
// Every (query, key, hidden unit) costs one tanh: tanh_rational (kernels_vec.hpp) on vectors,
// std::tanh on single keys (the scalar build and the last n % W keys).
#include "attnlab/kernels.hpp"

#include "kernels_vec.hpp"

namespace attnlab::kernels {

using vec::lanes;
using vec::over_vectors_then_tail;
using vec::tanh_rational;

// s (n): for each block of W keys, acc = sum_c wv[c] tanh(qw[c] + kwT[c][j..j+W)) over the h rows of kwT.
void f32_additive_scores(float* s, const float* qw, const float* wv, const float* kwT, int ldk, int h, int n,
                         float scale) {
  over_vectors_then_tail([&](auto zero, int j) {
    using V = decltype(zero);
    const vec::TanhConstants<V> k;
    const V scale_v(scale);
    for (; j + lanes<V>() <= n; j += lanes<V>()) {
      V acc = zero;
      // Pointers walked instead of indices: WebAssembly has no scaled-index addressing.
      const float* key = kwT + j;
      const float* q = qw;
      const float* w = wv;
      for (int c = h; c > 0; --c, key += ldk, ++q, ++w)
        acc = fma(V(*w), tanh_rational(V(*q) + V::load_unaligned(key), k), acc);
      (acc * scale_v).store_unaligned(s + j);
    }
    return j;
  });
}

// Hidden unit by hidden unit (row c of kwT and dkwT), over the keys in vectors: t = tanh(z),
//   dwv[c] += sum_j da_j t,   g = da_j (1 - t^2),   dkwT[c][j] += wv[c] g,   dqw[c] += wv[c] sum_j g.
// The two sums over j stay in vectors until the end of the row: one horizontal sum each per c.
void f32_additive_scores_backward(const float* da, const float* qw, const float* wv, const float* kwT, int ldk,
                                  int h, int n, float* dqw, float* dkwT, float* dwv) {
  over_vectors_then_tail([&](auto zero, int j0) {
    using V = decltype(zero);
    constexpr int W = lanes<V>();
    const int stop = j0 + (n - j0) / W * W;
    if (stop == j0) return j0;
    const vec::TanhConstants<V> k;
    const float* key_row = kwT + j0;
    float* dkey_row = dkwT + j0;
    for (int c = 0; c < h; ++c, key_row += ldk, dkey_row += ldk) {
      const V qc(qw[c]), wc(wv[c]);
      V t_sum = zero, g_sum = zero;
      const float* key = key_row;
      float* dkey = dkey_row;
      const float* d = da + j0;
      for (int j = j0; j < stop; j += W, key += W, dkey += W, d += W) {
        const V t = tanh_rational(qc + V::load_unaligned(key), k);
        const V dv = V::load_unaligned(d);
        t_sum = fma(dv, t, t_sum);
        const V g = dv * (k.one - t * t);
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
