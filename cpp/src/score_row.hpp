// Internal: the per-row steps that masked softmax and sdpa share, in the order they run:
//   z = raw scores of row (b, h, i)  ->  apply_mask  ->  softmax_in_place  ->  (backward) zero_masked
// A row's softmax only looks at its first keys_in_softmax() keys: in the default mode every key at
// or beyond MaskRow::limit is -inf (weight 0), so it is skipped; in d2l fill mode every key takes part.
#pragma once

#include <cmath>
#include <limits>

#include "attnlab/dims.hpp"

namespace attnlab::detail {

inline bool key_visible(const MaskRow& row, int j) {
  if (j >= row.limit) return false;
  if (row.bool_row != nullptr && row.bool_row[std::size_t(j) * row.stride_j] == 0) return false;
  if (row.float_row != nullptr && row.float_row[std::size_t(j) * row.stride_j] == -std::numeric_limits<float>::infinity())
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

// z (n): adds the float mask to visible keys and replaces masked keys by masked_value().
void apply_mask(const MaskRow& row, const MaskSpec& mask, float* z, int n);

// z (n) -> softmax(z) in place, the row max subtracted first; returns log(sum exp z).
// A row whose entries are all -inf (nothing visible) becomes zeros and returns -inf.
float softmax_in_place(float* z, int n);

// x (n): x[j] = 0 wherever key j is masked (gradients in fill mode, where masked weights are not 0).
void zero_masked(const MaskRow& row, float* x, int n);

}  // namespace attnlab::detail
