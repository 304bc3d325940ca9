// Attention layers as stateless functions: the caller (the JS layer object) owns the weights,
// the gradients and what the forward pass saves for the backward pass.
//   selfAttention       = heads 1, no output projection   (seed 000, seed 004)
//   multiHeadAttention  = heads H, kv heads Hkv, output projection Wo
// Weights are applied row-vector style (docs/semantics.md): Q = X Wq.
#pragma once

#include <cstdint>

#include "attnlab/dims.hpp"
#include "attnlab/rope.hpp"
#include "attnlab/sdpa.hpp"

namespace attnlab {

// x (B, T, d_in). Per head: query/key width d_q, value width d_v.
// wq (d_in, H * d_q), wk (d_in, Hkv * d_q), wv (d_in, Hkv * d_v), wo (H * d_v, d_out) when d_out > 0.
// out (B, T, d_out) when d_out > 0, else (B, T, H * d_v) (the concatenated heads).
struct LayerDims {
  int B = 1, T = 1, d_in = 1, d_q = 1, d_v = 1, heads = 1, kv_heads = 1;
  int d_out = 0;  // 0: no output projection

  int out_width() const { return d_out > 0 ? d_out : heads * d_v; }
  AttentionDims attention() const { return {B, heads, kv_heads, T, T, d_q, d_v}; }
};

struct LayerWeights {
  const float* wq = nullptr;
  const float* wk = nullptr;
  const float* wv = nullptr;
  const float* wo = nullptr;  // null when d_out == 0
};

struct LayerGrads {
  float* dwq = nullptr;
  float* dwk = nullptr;
  float* dwv = nullptr;
  float* dwo = nullptr;
};

// What the forward pass keeps for the backward pass, in head layout:
// q (B, H, T, d_q), k (B, Hkv, T, d_q), v (B, Hkv, T, d_v), heads (B, T, H * d_v) = attention
// output before Wo (only needed when d_out > 0).
struct LayerSaved {
  float* q = nullptr;
  float* k = nullptr;
  float* v = nullptr;
  float* heads = nullptr;
};

// Deterministic initialisation (Xavier/Glorot uniform) of one weight matrix (fan_in, fan_out)
// from (seed, stream): the same seed gives the same weights in every build.
void init_weights(float* w, int fan_in, int fan_out, uint64_t seed, uint32_t stream);

// opt.mask may hold any mask for (B, H, T, T); opt.scale is resolved by the caller.
// trace: optional (nullable fields) per-head weights/scores/masked (B, H, T, T).
// rope (optional, d_q even): q and k are rotated per head after the projections (Llama's order);
// saved.q and saved.k then hold the rotated heads.
void layer_forward(const LayerDims& dims, const LayerWeights& w, const SdpaOptions& opt, const float* x,
                   float* out, const LayerSaved& saved, const SdpaForwardOutputs* trace, float* scratch,
                   const RopeOptions* rope = nullptr);

// Given the saved forward state and dout (B, T, out_width): dx (B, T, d_in) and every weight
// gradient, all overwritten.
void layer_backward(const LayerDims& dims, const LayerWeights& w, const SdpaOptions& opt, const float* x,
                    const LayerSaved& saved, const float* dout, float* dx, const LayerGrads& grads,
                    float* scratch, const RopeOptions* rope = nullptr);

std::uint64_t layer_scratch_floats(const LayerDims& dims);

// A layer's KV cache, owned by the caller: k (B, Hkv, capacity, d_q), v (B, Hkv, capacity, d_v),
// rows 0 .. length - 1 of each kv head hold the keys and values (rotated) of the rows seen so far.
struct LayerCache {
  float* k = nullptr;
  float* v = nullptr;
  int capacity = 0;
  int length = 0;
};

// x (B, T, d_in): the T rows after the cache's rows -> out (B, T, out_width). Their keys and values
// (rotated from position cache.length when rope is given, so rope->offset must be cache.length) are
// written in place to rows length .. length + T - 1 of the cache (length + T <= capacity), and
// every query row attends to the cache's rows 0 .. length + T - 1 under opt's mask for
// (B, H, T, length + T): causal alignment, window and ALiBi only (no validLens, no attnMask).
// q (B, H, T, d_q) receives the rotated queries. The caller advances cache.length.
void layer_forward_cached(const LayerDims& dims, const LayerWeights& w, const SdpaOptions& opt,
                          const float* x, float* out, const LayerCache& cache, float* q, float* scratch,
                          const RopeOptions* rope = nullptr);
std::uint64_t layer_cached_scratch_floats(const LayerDims& dims, int keys);  // keys = length + T

// w -= learning_rate * g over n floats (the SGD step of seed 004).
void sgd_step(float* w, const float* g, std::size_t n, float learning_rate);

}  // namespace attnlab
