// What the JS API passes to the private binding: plain numbers only (one packed record of doubles,
// packed.hpp), converted here to the core's structs after cheap re-validation.
//   - one *Args struct per op family with the sizes and options,
//   - one Buffers struct with the byte address of every tensor (0 = not given), named as in the
//     JS memory arena, so the arena's address table is passed unchanged.
#pragma once

#include <cstdint>

#include "attnlab/dims.hpp"
#include "attnlab/layer.hpp"
#include "attnlab/rope.hpp"
#include "attnlab/scoring.hpp"
#include "attnlab/sdpa.hpp"
#include "boundary.hpp"

namespace attnlab::binding {

// Byte addresses in wasm memory. Which ones an entry point reads is listed at the entry point.
struct Buffers {
  uintptr_t x = 0, y = 0, dy = 0, dx = 0;                       // softmax; layer input and its gradient
  uintptr_t q = 0, k = 0, v = 0, dout = 0;                      // attention inputs (layer: saved q, k, v)
  uintptr_t out = 0, lse = 0, weights = 0, scores = 0, softcapped = 0, masked = 0, heads = 0;
  uintptr_t dq = 0, dk = 0, dv = 0;
  uintptr_t w = 0, wq = 0, wk = 0, wv = 0, wo = 0;              // scoring parameters / layer weights
  uintptr_t dw = 0, dwq = 0, dwk = 0, dwv = 0, dwo = 0;
  uintptr_t validLens = 0, boolMask = 0, floatMask = 0;         // int32, uint8, float32
  uintptr_t scratch = 0;
  uintptr_t alibiSlopes = 0;                                    // float32 (H)
};

// MaskSpec without its pointers (those are Buffers::validLens/boolMask/floatMask).
// Strides are element strides of the attnMask for the b, h, i, j axes of (B, H, Tq, Tk).
struct MaskArgs {
  bool validLensPerRow = false;
  int causal = 0;  // attnlab::Causal
  double strideB = 0, strideH = 0, strideI = 0, strideJ = 0;
  bool useFill = false;
  double fill = -1e6;
  double windowLeft = -1, windowRight = -1;  // integers >= -1 (-1: that side open)
};

// x, y, dy, dx (B, H, Tq, Tk)
struct SoftmaxArgs {
  int B = 1, H = 1, Tq = 1, Tk = 1;
  MaskArgs mask;
};

// q (B, H, Tq, d), k (B, Hkv, Tk, d), v (B, Hkv, Tk, dv)
struct SdpaArgs {
  int B = 1, H = 1, Hkv = 1, Tq = 1, Tk = 1, d = 1, dv = 1;
  double scale = 1, softcap = 0, dropout = 0, seed = 0;
  MaskArgs mask;
};

// q (B, H, Tq, dq), k (B, Hkv, Tk, dk), v (B, Hkv, Tk, dv); hidden h for additive
struct ScoringArgs {
  int B = 1, H = 1, Hkv = 1, Tq = 1, Tk = 1, dq = 1, dk = 1, dv = 1, hidden = 0;
  int scoring = 1;  // attnlab::Scoring
  double scale = 1;
  MaskArgs mask;
};

// x, y, dy, dx (N, T, d); see rope.hpp
struct RopeArgs {
  int N = 1, T = 1, d = 2;
  double base = 10000, offset = 0;
  bool interleaved = false;
};

// x (B, T, dIn); see layer.hpp
struct LayerArgs {
  int B = 1, T = 1, dIn = 1, dQ = 1, dV = 1, heads = 1, kvHeads = 1, dOut = 0;
  double scale = 1;
  MaskArgs mask;
  bool rope = false;  // rotary positions on q and k, with these two options
  double ropeBase = 10000;
  bool ropeInterleaved = false;
  double ropeOffset = 0;  // the position of row 0 (a KV cache's length)
  double cacheLength = 0, cacheCapacity = 0;  // layerForwardCached: rows held and room, per kv head
};

// w (fanIn, fanOut): Xavier-uniform from (seed, stream). Buffers: w.
struct InitArgs {
  int fanIn = 1, fanOut = 1;
  double seed = 0;
  int stream = 0;
};

// w (n) -= learningRate * dw (n). Buffers: w, dw.
struct StepArgs {
  double n = 0, learningRate = 0;
};

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
