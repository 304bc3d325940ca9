// Scaled dot-product attention, forward and backward, without materialising the (Tq, Tk) matrix
// unless the caller asks for it (weights or trace). See docs/semantics.md for the formulas.
#pragma once

#include <cstdint>

#include "attnlab/dims.hpp"

namespace attnlab {

// Which implementation runs. automatic: the fused, blocked path (FlashAttention-2 style: blocks of
// queries against blocks of keys, online softmax, register-tiled products) whenever it supports the
// options, else row streaming (one query row at a time). The fused path covers every mask, causal
// alignment, GQA and softcap; d2l fill mode and dropout stream rows, and the (Tq, Tk) trace and
// weights are written by the row pass (the output still comes from the fused one). row_streaming
// forces the per-row path everywhere: a baseline for tests and benchmarks.
enum class SdpaKernel : int { automatic = 0, row_streaming = 1 };

struct SdpaOptions {
  float scale = 1.0f;    // the caller resolves the default 1/sqrt(d)
  float softcap = 0.0f;  // > 0: S' = softcap * tanh(S / softcap), before the mask bias
  float dropout = 0.0f;  // probability in [0, 1): P is multiplied by keep / (1 - dropout)
  uint64_t seed = 0;     // keep(b, h, i, j) is a pure function of (seed, b, h, i, j): see dropout.hpp
  MaskSpec mask;
  SdpaKernel kernel = SdpaKernel::automatic;
};

// Optional outputs: pass nullptr for any you do not need. All are written in full.
struct SdpaForwardOutputs {
  float* out = nullptr;      // (B, H, Tq, dv), required
  float* lse = nullptr;      // (B, H, Tq): log-sum-exp of the masked row; -inf for a row with nothing visible
  float* weights = nullptr;  // (B, H, Tq, Tk): softmax weights P, before dropout
  float* scores = nullptr;   // (B, H, Tq, Tk): scale * q k^T (every entry, masked or not)
  float* softcapped = nullptr;  // (B, H, Tq, Tk): after softcap (equals scores when softcap == 0)
  float* masked = nullptr;      // (B, H, Tq, Tk): after softcap and bias: -inf (or fill) where masked
};

// q (B, H, Tq, d), k (B, Hkv, Tk, d), v (B, Hkv, Tk, dv) -> outputs.
// scratch: at least sdpa_scratch_floats(dims) floats, owned by the caller.
void sdpa_forward(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                  const float* v, const SdpaForwardOutputs& outputs, float* scratch);

// What the backward can reuse from sdpa_forward on the same inputs and options: out (B, H, Tq, dv)
// and lse (B, H, Tq). Given both, the fused backward skips recomputing the forward (about 4 of its
// 18 B H Tq Tk d flops); either missing, it recomputes them block by block.
struct SdpaSavedForward {
  const float* out = nullptr;
  const float* lse = nullptr;
};

// Gradients of sdpa_forward's `out` given dout (B, H, Tq, dv):
// dq (B, H, Tq, d), dk (B, Hkv, Tk, d), dv (B, Hkv, Tk, dv), all overwritten (GQA sums dk, dv
// over the query heads that share a kv head). Recomputes P block by block (or row by row),
// never stores Tq x Tk.
void sdpa_backward(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                   const float* v, const float* dout, float* dq, float* dk, float* dv, float* scratch,
                   const SdpaSavedForward& saved = {});

// Floats of scratch that sdpa_forward and sdpa_backward need: O(Tk + (Br + Bc) * (d + dv)) for
// the block sizes Br, Bc of the fused path, never O(Tq * Tk) and independent of Tq. Counted in 64
// bits (as every *_scratch_floats): wasm32's 32-bit size_t would wrap for sizes the caller must
// then reject, not allocate.
std::uint64_t sdpa_scratch_floats(const AttentionDims& dims);

}  // namespace attnlab
