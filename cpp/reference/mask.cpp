// Reference visibility of one (query, key) pair, straight from the rules of docs/semantics.md.
#include <cmath>

#include "reference.hpp"

namespace attnlab::ref {

bool visible(const MaskSpec& mask, int Tq, int Tk, int b, int h, int i, int j, double* bias) {
  if (mask.valid_lens != nullptr) {
    const int len = mask.valid_lens_per_row ? mask.valid_lens[b * Tq + i] : mask.valid_lens[b];
    if (j >= len) return false;
  }
  if (mask.causal == Causal::top_left && j > i) return false;
  if (mask.causal == Causal::bottom_right && j > i + Tk - Tq) return false;
  // The sliding window around the bottom-right diagonal, -1 = that side unlimited (FlashAttention).
  const long long diagonal = (long long)i + Tk - Tq;
  if (mask.window_left >= 0 && j < diagonal - mask.window_left) return false;
  if (mask.window_right >= 0 && j > diagonal + mask.window_right) return false;
  const std::size_t at = std::size_t(b) * mask.mask_stride_b + std::size_t(h) * mask.mask_stride_h +
                         std::size_t(i) * mask.mask_stride_i + std::size_t(j) * mask.mask_stride_j;
  if (mask.bool_mask != nullptr && mask.bool_mask[at] == 0) return false;
  if (mask.float_mask != nullptr) {
    const float value = mask.float_mask[at];
    if (std::isinf(value) && value < 0) return false;
    if (bias != nullptr) *bias += value;  // only visible keys receive the float mask
  }
  // ALiBi (Press et al. 2022): -m_h times the distance from the query's diagonal.
  if (mask.alibi_slopes != nullptr && bias != nullptr)
    *bias -= double(mask.alibi_slopes[h]) * std::fabs(double(diagonal - j));
  return true;
}

}  // namespace attnlab::ref
