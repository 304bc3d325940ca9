// Attention layers (layer.hpp): projections around sdpa, forward and backward, plus the
// deterministic initialisation and the SGD step of seed 004.
//
//   Q = X Wq (B, T, H * d_q)    -> head layout q (B, H, T, d_q)     (same for K, V with Hkv)
//   q, k = rope(q), rope(k)      when asked for, per head (positions offset .. offset + T - 1)
//   O = sdpa(q, k, v)            (B, H, T, d_v)
//   C = concat of the heads      (B, T, H * d_v)
//   out = C Wo (B, T, d_out), or C itself when d_out == 0
#include "attnlab/layer.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>

#include "attnlab/kernels.hpp"

namespace attnlab {
namespace {

using kernels::f32_gemm_nn;
using kernels::f32_gemm_nt;
using kernels::f32_gemm_tn;

// The two layouts of a projection: flat (B, T, heads * width), as X W produces it, and head
// layout (B, heads, T, width), as sdpa reads it. Copies every (b, t, h) row of width floats.
enum class Layout { flat_to_heads, heads_to_flat };

void rearrange_heads(int B, int T, int heads, int width, Layout direction, const float* from, float* to) {
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t)
      for (int h = 0; h < heads; ++h) {
        const std::size_t flat = ((std::size_t(b) * T + t) * heads + h) * width;
        const std::size_t head = ((std::size_t(b) * heads + h) * T + t) * width;
        const bool to_heads = direction == Layout::flat_to_heads;
        std::memcpy(to + (to_heads ? head : flat), from + (to_heads ? flat : head),
                    std::size_t(width) * sizeof(float));
      }
}

// The widest flat projection or head concatenation: kv_heads <= heads, so H * d_q or H * d_v.
// 64-bit: H * d_q may pass INT_MAX for sizes the caller must be able to reject.
std::uint64_t widest_projection(const LayerDims& d) {
  return std::uint64_t(d.heads) * std::max(d.d_q, d.d_v);
}

// Scratch: flat (B, T, widest) | head_out (B, H, T, d_v) | dq (B, H, T, d_q) | dk (B, Hkv, T, d_q) |
// dv (B, Hkv, T, d_v) | sdpa scratch. The forward pass uses flat, head_out and the sdpa scratch.
struct LayerScratch {
  float *flat, *head_out, *dq, *dk, *dv, *sdpa;
};

LayerScratch layer_scratch(const LayerDims& d, float* scratch) {
  const AttentionDims a = d.attention();
  LayerScratch s;
  s.flat = scratch;
  s.head_out = s.flat + std::size_t(std::uint64_t(d.B) * d.T * widest_projection(d));
  s.dq = s.head_out + a.out_size();
  s.dk = s.dq + a.q_size();
  s.dv = s.dk + a.k_size();
  s.sdpa = s.dv + a.v_size();
  return s;
}

// y (B, heads, T, width) = head split of x W, x (B, T, d_in), W (d_in, heads * width).
void project_to_heads(const LayerDims& d, const float* x, const float* W, int heads, int width, float* flat,
                      float* y) {
  f32_gemm_nn(d.B * d.T, heads * width, d.d_in, x, W, flat, false);
  rearrange_heads(d.B, d.T, heads, width, Layout::flat_to_heads, flat, y);
}

// Backward of project_to_heads given dy (B, heads, T, width):
// dW = x^T dY (overwritten), dx += dY W^T (overwritten when first), dY = merged dy.
void project_to_heads_backward(const LayerDims& d, const float* x, const float* W, int heads, int width,
                               const float* dy, float* flat, float* dW, float* dx, bool first) {
  const int rows = d.B * d.T, cols = heads * width;
  rearrange_heads(d.B, d.T, heads, width, Layout::heads_to_flat, dy, flat);
  f32_gemm_tn(d.d_in, cols, rows, x, flat, dW, false);
  f32_gemm_nt(rows, d.d_in, cols, flat, W, dx, !first);
}

// splitmix64's finaliser: a bijective mix of 64 bits.
uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return x;
}

// pass 1 of a forward: q (B, H, T, d_q), k (B, Hkv, T, d_q), v (B, Hkv, T, d_v) = head splits of
// x Wq, x Wk, x Wv, then q and k rotated when rope is given.
void project_qkv(const LayerDims& d, const LayerWeights& w, const float* x, const RopeOptions* rope,
                 float* flat, float* q, float* k, float* v) {
  project_to_heads(d, x, w.wq, d.heads, d.d_q, flat, q);
  project_to_heads(d, x, w.wk, d.kv_heads, d.d_q, flat, k);
  project_to_heads(d, x, w.wv, d.kv_heads, d.d_v, flat, v);
  if (rope != nullptr) {
    rope_forward(d.B * d.heads, d.T, d.d_q, *rope, q, q);
    rope_forward(d.B * d.kv_heads, d.T, d.d_q, *rope, k, k);
  }
}

// pass 3 of a forward: concat (B, T, H d_v) = the heads of head_out (B, H, T, d_v) side by side,
// then out = concat Wo; without Wo the concatenation is written to out itself.
void concat_and_project(const LayerDims& d, const LayerWeights& w, const float* head_out, float* concat,
                        float* out) {
  if (d.d_out == 0) concat = out;
  rearrange_heads(d.B, d.T, d.heads, d.d_v, Layout::heads_to_flat, head_out, concat);
  if (d.d_out > 0) f32_gemm_nn(d.B * d.T, d.d_out, d.heads * d.d_v, concat, w.wo, out, false);
}

// Scratch of the cached forward: flat (B, T, widest) | k, v of the new rows (B, Hkv, T, d_q | d_v) |
// head_out (B, H, T, d_v) | concat (B, T, H d_v) | the scratch of one kv head's sdpa over the keys.
struct CachedScratch {
  float *flat, *k, *v, *head_out, *concat, *sdpa;
};

// One kv head's attention over the cache: its G = H / Hkv query heads against `keys` rows.
AttentionDims cached_attention(const LayerDims& d, int keys) {
  return {1, d.heads / d.kv_heads, 1, d.T, keys, d.d_q, d.d_v};
}

CachedScratch cached_scratch(const LayerDims& d, float* scratch) {
  const std::size_t rows = std::size_t(d.B) * d.T;
  CachedScratch s;
  s.flat = scratch;
  s.k = s.flat + rows * std::size_t(widest_projection(d));
  s.v = s.k + rows * d.kv_heads * d.d_q;
  s.head_out = s.v + rows * d.kv_heads * d.d_v;
  s.concat = s.head_out + rows * d.heads * d.d_v;
  s.sdpa = s.concat + rows * d.heads * d.d_v;
  return s;
}

}  // namespace

// w (fan_in, fan_out) ~ U(-bound, bound), bound = sqrt(6 / (fan_in + fan_out)) (Glorot & Bengio).
// Element n draws from mix64(key + golden * (n + 1)) with key = mix64(seed + golden * (stream + 1)),
// a counter-based stream: no state, so every build and every call order gives the same weights.
// Double arithmetic on exactly representable values, then one rounding to float, keeps it bit-exact
// across native and wasm.
void init_weights(float* w, int fan_in, int fan_out, uint64_t seed, uint32_t stream) {
  constexpr uint64_t golden = 0x9E3779B97F4A7C15ull;
  const uint64_t key = mix64(seed + golden * (uint64_t(stream) + 1));
  const double bound = std::sqrt(6.0 / double(fan_in + fan_out));
  const std::size_t n = std::size_t(fan_in) * fan_out;
  for (std::size_t i = 0; i < n; ++i) {
    const double u = double(mix64(key + golden * (uint64_t(i) + 1)) >> 11) * 0x1p-53;  // [0, 1), 53 bits
    w[i] = float((2.0 * u - 1.0) * bound);
  }
}

// x (B, T, d_in) -> out (B, T, out_width); saved.q, saved.k, saved.v (head layout) always, and
// saved.heads (B, T, H * d_v) when d_out > 0, are written for layer_backward.
void layer_forward(const LayerDims& d, const LayerWeights& w, const SdpaOptions& opt, const float* x,
                   float* out, const LayerSaved& saved, const SdpaForwardOutputs* trace, float* scratch,
                   const RopeOptions* rope) {
  const LayerScratch s = layer_scratch(d, scratch);
  // pass 1: projections into head layout, then the rotary positions of q and k
  project_qkv(d, w, x, rope, s.flat, saved.q, saved.k, saved.v);
  // pass 2: attention per head (trace outputs, when asked for, come straight from sdpa)
  SdpaForwardOutputs so = trace ? *trace : SdpaForwardOutputs{};
  so.out = s.head_out;
  sdpa_forward(d.attention(), opt, saved.q, saved.k, saved.v, so, s.sdpa);
  // pass 3: concatenate the heads, then the output projection
  concat_and_project(d, w, s.head_out, saved.heads, out);
}

// The forward passes in reverse: dout (B, T, out_width) -> dWo = C^T dout, dC = dout Wo^T;
// dO = head split of dC; sdpa backward gives dq, dk, dv (GQA sums included) of the rotated q, k;
// q = rope(X Wq) -> d(X Wq) = ropeBackward(dq) (same for k); each projection gives dW = X^T dY and
// adds dY W^T to dx.
void layer_backward(const LayerDims& d, const LayerWeights& w, const SdpaOptions& opt, const float* x,
                    const LayerSaved& saved, const float* dout, float* dx, const LayerGrads& grads,
                    float* scratch, const RopeOptions* rope) {
  const LayerScratch s = layer_scratch(d, scratch);
  const int rows = d.B * d.T, concat_width = d.heads * d.d_v;
  // pass 3 backward: output projection
  const float* dconcat = dout;
  if (d.d_out > 0) {
    f32_gemm_tn(concat_width, d.d_out, rows, saved.heads, dout, grads.dwo, false);
    f32_gemm_nt(rows, concat_width, d.d_out, dout, w.wo, s.flat, false);
    dconcat = s.flat;
  }
  // pass 2 backward: attention
  rearrange_heads(d.B, d.T, d.heads, d.d_v, Layout::flat_to_heads, dconcat, s.head_out);
  sdpa_backward(d.attention(), opt, saved.q, saved.k, saved.v, s.head_out, s.dq, s.dk, s.dv, s.sdpa);
  // pass 1 backward: the rotations, then the projections (s.flat is free again)
  if (rope != nullptr) {
    rope_backward(d.B * d.heads, d.T, d.d_q, *rope, s.dq, s.dq);
    rope_backward(d.B * d.kv_heads, d.T, d.d_q, *rope, s.dk, s.dk);
  }
  project_to_heads_backward(d, x, w.wq, d.heads, d.d_q, s.dq, s.flat, grads.dwq, dx, true);
  project_to_heads_backward(d, x, w.wk, d.kv_heads, d.d_q, s.dk, s.flat, grads.dwk, dx, false);
  project_to_heads_backward(d, x, w.wv, d.kv_heads, d.d_v, s.dv, s.flat, grads.dwv, dx, false);
}

std::uint64_t layer_cached_scratch_floats(const LayerDims& d, int keys) {
  using u64 = std::uint64_t;
  const u64 rows = u64(d.B) * d.T;
  return rows * widest_projection(d) + rows * d.kv_heads * (u64(d.d_q) + d.d_v) + 2 * rows * d.heads * d.d_v +
         sdpa_scratch_floats(cached_attention(d, keys));
}

// pass 1 as in layer_forward on the new rows (positions from cache.length); the keys and values
// then join the cache in place; pass 2 runs per (b, kv head), whose cached rows are contiguous,
// over every held row; pass 3 as in layer_forward.
void layer_forward_cached(const LayerDims& d, const LayerWeights& w, const SdpaOptions& opt, const float* x,
                          float* out, const LayerCache& cache, float* q, float* scratch,
                          const RopeOptions* rope) {
  const CachedScratch s = cached_scratch(d, scratch);
  // pass 1: projections of the new rows into head layout, their rotations, the append
  project_qkv(d, w, x, rope, s.flat, q, s.k, s.v);
  const std::size_t kv_heads = std::size_t(d.B) * d.kv_heads;
  for (std::size_t bg = 0; bg < kv_heads; ++bg) {
    const std::size_t held = bg * cache.capacity + cache.length;  // first new row of kv head bg
    std::copy_n(s.k + bg * d.T * d.d_q, std::size_t(d.T) * d.d_q, cache.k + held * d.d_q);
    std::copy_n(s.v + bg * d.T * d.d_v, std::size_t(d.T) * d.d_v, cache.v + held * d.d_v);
  }
  // pass 2: each kv head's G query heads against its cached rows (masks other than ALiBi's slopes
  // do not depend on b or h, so the per-group call sees the same rows)
  const int keys = cache.length + d.T;
  const AttentionDims group = cached_attention(d, keys);
  for (std::size_t bg = 0; bg < kv_heads; ++bg) {
    const std::size_t first_head = bg * group.H;  // (b, g) -> query head b * H + g * G
    SdpaOptions o = opt;
    if (o.mask.alibi_slopes != nullptr) o.mask.alibi_slopes += first_head % d.heads;
    SdpaForwardOutputs so;
    so.out = s.head_out + first_head * d.T * d.d_v;
    sdpa_forward(group, o, q + first_head * d.T * d.d_q, cache.k + bg * cache.capacity * d.d_q,
                 cache.v + bg * cache.capacity * d.d_v, so, s.sdpa);
  }
  // pass 3: concatenate the heads, then the output projection
  concat_and_project(d, w, s.head_out, s.concat, out);
}

std::uint64_t layer_scratch_floats(const LayerDims& d) {
  using u64 = std::uint64_t;
  const AttentionDims a = d.attention();
  const u64 rows = u64(d.B) * d.T;  // (b, t): the heads' rows of q and out are H of these each, k and v Hkv
  return rows * widest_projection(d) + rows * d.heads * (u64(a.dv) + a.d) +
         rows * d.kv_heads * (u64(a.d) + a.dv) + sdpa_scratch_floats(a);
}

// w -= learning_rate * g, in chunks the int-sized kernel can take.
void sgd_step(float* w, const float* g, std::size_t n, float learning_rate) {
  while (n > 0) {
    const int chunk = n > std::size_t(INT_MAX) ? INT_MAX : int(n);
    kernels::f32_axpy(w, -learning_rate, g, chunk);
    w += chunk;
    g += chunk;
    n -= std::size_t(chunk);
  }
}

}  // namespace attnlab
