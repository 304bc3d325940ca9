// Internal: the masked-softmax row toolkit, the per-row steps that the masked softmax, the
// row-streaming and fused sdpa and the score-matrix scorings share, in the order they run:
//   z = raw scores of row (b, h, i)  ->  apply_mask  ->  softmax_in_place  ->  (backward) zero_masked
// A row's softmax only looks at its first keys_in_softmax() keys: in the default mode every key at
// or beyond MaskRow::limit is -inf (weight 0), so it is skipped; in d2l fill mode every key takes part.
#pragma once

#include <cmath>
#include <limits>

#include "attnlab/dims.hpp"

namespace attnlab::detail {

inline bool key_visible(const MaskRow& row, int j) {
  if (j < row.start || j >= row.limit) return false;
  if (row.bool_row != nullptr && row.bool_row[std::size_t(j) * row.stride_j] == 0) return false;
  if (row.float_row != nullptr &&
      row.float_row[std::size_t(j) * row.stride_j] == -std::numeric_limits<float>::infinity())
    return false;
  return true;
}

inline int keys_in_softmax(const MaskRow& row, const MaskSpec& mask, int Tk) {
  return mask.use_fill ? Tk : row.limit;
}

// The value a masked key's score takes: -inf, or `fill` in d2l mode.
inline float masked_value(const MaskSpec& mask) {
  return mask.use_fill ? mask.fill : -std::numeric_limits<float>::infinity();
}

// z (n), element j at z[j * stride]: adds the ALiBi bias and the float mask, times bias_scale, to
// visible keys and replaces masked keys by masked_value() (the fused sdpa's S^T holds a row's scores
// in a column, in log2 units: stride Br, bias_scale log2 e; 1 * bias is exact, so the rows keep theirs).
void apply_mask(const MaskRow& row, const MaskSpec& mask, float* z, int n, int stride = 1,
                float bias_scale = 1.0f);

// z (n) -> y (n) = softmax(z), the row max subtracted first; returns log(sum exp z). y may alias z.
// A row whose entries are all -inf (nothing visible) becomes zeros and returns -inf.
float softmax(const float* z, float* y, int n);
inline float softmax_in_place(float* z, int n) { return softmax(z, z, n); }

// True when the row's mask is more than its limit in the softmax: an elementwise mask, a window's
// start, an ALiBi bias, or fill-mode keys past the limit that take the fill.
inline bool masks_within_softmax(const MaskRow& row, int n) {
  return row.bool_row != nullptr || row.float_row != nullptr || row.limit < n || row.start > 0 || row.alibi;
}

// One row of the masked softmax, x (Tk) -> y (Tk): softmax over the keys_in_softmax() keys, masked
// ones first replaced by masked_value() (or the bias added), zeros past them. y may alias x.
void masked_softmax_row(const MaskRow& row, const MaskSpec& mask, const float* x, float* y, int Tk);

// Its backward with a scale folded in, y, dy (Tk) -> dx (Tk) = scale y (dy - dot(y, dy)), 0 at
// masked keys and past the softmax's keys. dx may alias y or dy.
void masked_softmax_backward_row(const MaskRow& row, const MaskSpec& mask, const float* y, const float* dy,
                                 float* dx, int Tk, float scale);

// x (n): x[j] = 0 wherever key j is masked (gradients in fill mode, where masked weights are not 0).
void zero_masked(const MaskRow& row, float* x, int n);

}  // namespace attnlab::detail
