// Shapes and mask description shared by every op of the core (see docs/semantics.md).
//
// Letters, used in every shape comment of the project:
//   B batch, H query heads, Hkv key/value heads, Tq query length, Tk key length,
//   d query/key width, dv value width, h hidden width of additive attention.
// All tensors are dense, row-major float32, batch first. Callers validate shapes once at the
// boundary (the JS wrapper and the Embind entry points); the functions of the core trust them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attnlab {

// q (B, H, Tq, d), k (B, Hkv, Tk, d), v (B, Hkv, Tk, dv), out (B, H, Tq, dv).
// Grouped-query attention: H % Hkv == 0, query head h reads kv head h / (H / Hkv).
struct AttentionDims {
  int B = 1, H = 1, Hkv = 1, Tq = 1, Tk = 1, d = 1, dv = 1;

  int kv_head_of(int h) const { return h / (H / Hkv); }
  std::size_t q_size() const { return std::size_t(B) * H * Tq * d; }
  std::size_t k_size() const { return std::size_t(B) * Hkv * Tk * d; }
  std::size_t v_size() const { return std::size_t(B) * Hkv * Tk * dv; }
  std::size_t out_size() const { return std::size_t(B) * H * Tq * dv; }
  std::size_t rows() const { return std::size_t(B) * H * Tq; }  // one per (b, h, i)
  std::size_t scores_size() const { return rows() * Tk; }       // (B, H, Tq, Tk)
};

enum class Causal : int {
  none = 0,
  top_left = 1,      // key j visible from query i when j <= i            (PyTorch is_causal)
  bottom_right = 2,  // key j visible from query i when j <= i + Tk - Tq  (decoding with a cache)
};

// Which keys each query row may attend to: the intersection of every constraint given.
// A key that is not visible gets -inf before the softmax (weight 0), or `fill` in d2l mode.
// A row with no visible key gets zero weights and a zero output (never NaN), unless use_fill.
struct MaskSpec {
  // validLens (d2l): null, or int32 of shape (B) when !valid_lens_per_row, (B, Tq) when it is.
  // Keys j >= len are masked. Values are non-negative (checked at the boundary); len > Tk means Tk.
  const int32_t* valid_lens = nullptr;
  bool valid_lens_per_row = false;

  Causal causal = Causal::none;

  // attnMask, broadcast right-aligned to (B, H, Tq, Tk): element strides for b, h, i, j
  // (0 on a broadcast axis). At most one of bool_mask (1 = may attend) and float_mask
  // (added to the scores; -inf masks the key) is set.
  const uint8_t* bool_mask = nullptr;
  const float* float_mask = nullptr;
  std::size_t mask_stride_b = 0, mask_stride_h = 0, mask_stride_i = 0, mask_stride_j = 0;

  // d2l mode: masked scores are *replaced* by `fill` (d2l uses -1e6) instead of -inf, so a row
  // with nothing visible becomes uniform over all keys, as in d2l's masked_softmax.
  bool use_fill = false;
  float fill = -1e6f;

  // Sliding window (FlashAttention's convention): key j is visible from query i when
  // i + (Tk - Tq) - window_left <= j <= i + (Tk - Tq) + window_right; -1 leaves that side open.
  // Checked at the boundary: each is an integer >= -1.
  int window_left = -1, window_right = -1;

  // ALiBi: null, or (H) slopes; the score of key j in row (b, h, i) gets
  // -alibi_slopes[h] * |i + (Tk - Tq) - j| added where visible (with the float mask, after any
  // softcap), before the softmax. Finite (checked at the boundary); gradients treat it as a constant.
  const float* alibi_slopes = nullptr;

  bool has_attn_mask() const { return bool_mask != nullptr || float_mask != nullptr; }
  bool has_window() const { return window_left >= 0 || window_right >= 0; }
};

// The mask of one query row (b, h, i), resolved once per row so kernels loop without branches
// on the options. Visible keys: start <= j < limit, and bool_row[j * stride_j] != 0 when bool_row,
// and float_row[j * stride_j] != -inf when float_row (whose value is then added to the score).
// With alibi, visible key j's score also gets -alibi_slope * |alibi_center - j|.
struct MaskRow {
  int start = 0;  // keys before start are masked (the window's left side); start <= limit
  int limit = 0;  // keys at and beyond limit are masked (validLens, causal, window's right side)
  const uint8_t* bool_row = nullptr;
  const float* float_row = nullptr;
  std::size_t stride_j = 0;
  bool alibi = false;
  float alibi_slope = 0.0f;
  int alibi_center = 0;  // i + Tk - Tq: the key at distance 0
};

// Resolves the mask of row (b, h, i) for a (B, H, Tq, Tk) score tensor.
MaskRow mask_row(const MaskSpec& mask, int Tq, int Tk, int b, int h, int i);

}  // namespace attnlab
