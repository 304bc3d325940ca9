// What the JS API passes to the private binding: plain numbers only (one packed record of doubles,
// packed.hpp), converted here to the core's structs after cheap re-validation.
//   - one *Args struct per op family with the sizes and options,
//   - one Buffers struct with the byte address of every tensor (0 = not given).
#pragma once

#include <cstdint>

#include "attnlab/dims.hpp"
#include "attnlab/layer.hpp"
#include "attnlab/rope.hpp"
#include "attnlab/scoring.hpp"
#include "attnlab/sdpa.hpp"
#include "boundary.hpp"

namespace attnlab::binding {

// Each struct below is generated from its list, in record order: X(type, name, default) for the
// *Args, X(name) for the Buffers. packed.hpp reads a record and names the fields to JS
// (packedLayout()) from the same lists, so every field and buffer name is written once, here.
// The X-macro field lists keep their hand-aligned columns.
// clang-format off
#define ATTNLAB_FIELD(type, name, init) type name = init;
#define ATTNLAB_ADDRESS(name) uintptr_t name = 0;

// Byte addresses in wasm memory (0 = not given), named as the JS memory arena's blocks
// (web/src/boundary/buffers.js). Which ones an entry point reads is listed at the entry point.
#define ATTNLAB_BUFFERS(X)                                                                         \
  X(x) X(y) X(dy) X(dx)                  /* softmax; layer input and its gradient */              \
  X(q) X(k) X(v) X(dout)                 /* attention inputs (layer: saved q, k, v) */            \
  X(out) X(lse) X(weights) X(scores) X(softcapped) X(masked) X(heads)                             \
  X(dq) X(dk) X(dv)                                                                               \
  X(w) X(wq) X(wk) X(wv) X(wo)           /* scoring parameters / layer weights */                 \
  X(dw) X(dwq) X(dwk) X(dwv) X(dwo)                                                               \
  X(validLens) X(boolMask) X(floatMask)  /* int32, uint8, float32 */                              \
  X(scratch)                                                                                      \
  X(alibiSlopes)                         /* float32 (H) */
struct Buffers {
  ATTNLAB_BUFFERS(ATTNLAB_ADDRESS)
};

// MaskSpec without its pointers (those are Buffers::validLens/boolMask/floatMask/alibiSlopes).
// Strides are element strides of the attnMask for the b, h, i, j axes of (B, H, Tq, Tk).
#define ATTNLAB_MASK_ARGS(X)                                                                       \
  X(bool, validLensPerRow, false)                                                                 \
  X(int, causal, 0)                      /* attnlab::Causal */                                    \
  X(double, strideB, 0) X(double, strideH, 0) X(double, strideI, 0) X(double, strideJ, 0)         \
  X(bool, useFill, false) X(double, fill, -1e6)                                                   \
  X(double, windowLeft, -1) X(double, windowRight, -1)  /* integers >= -1 (-1: that side open) */
struct MaskArgs {
  ATTNLAB_MASK_ARGS(ATTNLAB_FIELD)
};

// x, y, dy, dx (B, H, Tq, Tk)
#define ATTNLAB_SOFTMAX_ARGS(X) X(int, B, 1) X(int, H, 1) X(int, Tq, 1) X(int, Tk, 1) X(MaskArgs, mask, {})
struct SoftmaxArgs {
  ATTNLAB_SOFTMAX_ARGS(ATTNLAB_FIELD)
};

// q (B, H, Tq, d), k (B, Hkv, Tk, d), v (B, Hkv, Tk, dv)
#define ATTNLAB_SDPA_ARGS(X)                                                                       \
  X(int, B, 1) X(int, H, 1) X(int, Hkv, 1) X(int, Tq, 1) X(int, Tk, 1) X(int, d, 1) X(int, dv, 1) \
  X(double, scale, 1) X(double, softcap, 0) X(double, dropout, 0) X(double, seed, 0)              \
  X(MaskArgs, mask, {})
struct SdpaArgs {
  ATTNLAB_SDPA_ARGS(ATTNLAB_FIELD)
};

// q (B, H, Tq, dq), k (B, Hkv, Tk, dk), v (B, Hkv, Tk, dv); hidden h for additive
#define ATTNLAB_SCORING_ARGS(X)                                                                    \
  X(int, B, 1) X(int, H, 1) X(int, Hkv, 1) X(int, Tq, 1) X(int, Tk, 1)                            \
  X(int, dq, 1) X(int, dk, 1) X(int, dv, 1) X(int, hidden, 0)                                     \
  X(int, scoring, 1)                     /* attnlab::Scoring */                                   \
  X(double, scale, 1) X(MaskArgs, mask, {})
struct ScoringArgs {
  ATTNLAB_SCORING_ARGS(ATTNLAB_FIELD)
};

// x (B, T, dIn); see layer.hpp
#define ATTNLAB_LAYER_ARGS(X)                                                                      \
  X(int, B, 1) X(int, T, 1) X(int, dIn, 1) X(int, dQ, 1) X(int, dV, 1)                            \
  X(int, heads, 1) X(int, kvHeads, 1) X(int, dOut, 0)                                             \
  X(double, scale, 1) X(MaskArgs, mask, {})                                                       \
  X(bool, rope, false)                   /* rotary positions on q and k, with these options: */   \
  X(double, ropeBase, 10000) X(bool, ropeInterleaved, false)                                      \
  X(double, ropeOffset, 0)               /* the position of row 0 (a KV cache's length) */       \
  X(double, cacheLength, 0) X(double, cacheCapacity, 0) /* layerForwardCached: rows held, room, per kv head */
struct LayerArgs {
  ATTNLAB_LAYER_ARGS(ATTNLAB_FIELD)
};

// x, y, dy, dx (N, T, d); see rope.hpp
#define ATTNLAB_ROPE_ARGS(X)                                                                       \
  X(int, N, 1) X(int, T, 1) X(int, d, 2) X(double, base, 10000) X(double, offset, 0)              \
  X(bool, interleaved, false)
struct RopeArgs {
  ATTNLAB_ROPE_ARGS(ATTNLAB_FIELD)
};

// w (fanIn, fanOut): Xavier-uniform from (seed, stream). Buffers: w.
#define ATTNLAB_INIT_ARGS(X) X(int, fanIn, 1) X(int, fanOut, 1) X(double, seed, 0) X(int, stream, 0)
struct InitArgs {
  ATTNLAB_INIT_ARGS(ATTNLAB_FIELD)
};

// w (n) -= learningRate * dw (n). Buffers: w, dw.
#define ATTNLAB_STEP_ARGS(X) X(double, n, 0) X(double, learningRate, 0)
struct StepArgs {
  ATTNLAB_STEP_ARGS(ATTNLAB_FIELD)
};

// A transformer's configuration (attnlab/transformer.hpp's TransformerConfig; kvHeads 0: heads;
// positions and gelu: the enums' values) and the seed of its initialisation.
#define ATTNLAB_TRANSFORMER_ARGS(X)                                                                \
  X(int, vocab, 1) X(int, dModel, 1) X(int, layers, 1) X(int, heads, 1) X(int, kvHeads, 0)         \
  X(int, maxLength, 1) X(int, positions, 0) X(double, ropeBase, 10000) X(int, window, 0)          \
  X(int, mlp, 0) X(int, gelu, 0) X(bool, tie, false) X(double, seed, 0)
struct TransformerArgs {
  ATTNLAB_TRANSFORMER_ARGS(ATTNLAB_FIELD)
};

// One call on a live model (its handle from transformerCreate) over a batch (B, T): the byte
// addresses of tokens (B, T) int32, targets (B, T) int32 and lossMask (B, T) uint8 (0: every
// position counts), logits (B, T, V), the trace's attentions (B, L, H, T, T) and residual
// (L, B, T, d) (0: not wanted); and, for a training step, torch.optim.AdamW's options.
#define ATTNLAB_MODEL_CALL_ARGS(X)                                                                 \
  X(int, handle, 0) X(int, B, 1) X(int, T, 1)                                                     \
  X(uintptr_t, tokens, 0) X(uintptr_t, targets, 0) X(uintptr_t, lossMask, 0)                      \
  X(uintptr_t, logits, 0) X(uintptr_t, attentions, 0) X(uintptr_t, residual, 0)                   \
  X(double, learningRate, 1e-3) X(double, beta1, 0.9) X(double, beta2, 0.999) X(double, eps, 1e-8) \
  X(double, weightDecay, 1e-2) X(double, clip, 0)
struct ModelCallArgs {
  ATTNLAB_MODEL_CALL_ARGS(ATTNLAB_FIELD)
};

// clang-format on
#undef ATTNLAB_FIELD
#undef ATTNLAB_ADDRESS

// Each converter checks what it converts (sizes, options, and the mask buffers' extents) into
// `check`; the caller raises before calling the core.
MaskSpec to_mask(Boundary& check, const MaskArgs& m, const Buffers& b, int B, int H, int Tq, int Tk);
AttentionDims to_dims(Boundary& check, const SdpaArgs& a);
SdpaOptions to_sdpa_options(Boundary& check, const SdpaArgs& a, const Buffers& b);
ScoringDims to_dims(Boundary& check, const ScoringArgs& a);
ScoringOptions to_scoring_options(Boundary& check, const ScoringArgs& a, const Buffers& b);
LayerDims to_dims(Boundary& check, const LayerArgs& a);
RopeOptions to_rope_options(Boundary& check, const RopeArgs& a);
SdpaOptions to_layer_options(Boundary& check, const LayerArgs& a, const Buffers& b);
// The same for a cached forward, whose rows attend to `keys` (held + new) keys.
SdpaOptions to_layer_options(Boundary& check, const LayerArgs& a, const Buffers& b, int keys);
// The layer's rotary options (positions from ropeOffset); checks dQ even, the base and the offset.
RopeOptions to_layer_rope(Boundary& check, const LayerArgs& a);

// Element counts in double: products of valid dims can exceed wasm32's 32-bit size_t.
double count(double a, double b, double c = 1, double d = 1);

// What the conversion to float32 makes of a double option (as Math.fround on the JS side), decided
// in double: a cast of a double beyond float's range is undefined behaviour in C++.
bool finite_in_float32(double x);
bool positive_in_float32(double x);
bool float_below_one(double x);

inline const float* f32(uintptr_t address) { return reinterpret_cast<const float*>(address); }
inline float* f32_out(uintptr_t address) { return reinterpret_cast<float*>(address); }

}  // namespace attnlab::binding
