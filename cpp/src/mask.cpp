// mask_row(): resolves the mask options of one query row once, so the row loops that follow only
// compare j with a start and a limit and read at most one mask row.
#include <algorithm>

#include "attnlab/dims.hpp"

namespace attnlab {

MaskRow mask_row(const MaskSpec& mask, int Tq, int Tk, int b, int h, int i) {
  MaskRow row;
  // validLens and causal both mask a suffix of the keys, so they reduce to one limit.
  int limit = Tk;
  if (mask.valid_lens != nullptr) {
    const int len = mask.valid_lens_per_row ? mask.valid_lens[std::size_t(b) * Tq + i] : mask.valid_lens[b];
    limit = std::min(limit, len);
  }
  if (mask.causal == Causal::top_left) limit = std::min(limit, i + 1);                // j <= i
  if (mask.causal == Causal::bottom_right) limit = std::min(limit, i + Tk - Tq + 1);  // j <= i + Tk - Tq
  // The window, in 64-bit: a diagonal offset plus a width near INT_MAX must not wrap.
  const long long diagonal = (long long)i + Tk - Tq;
  if (mask.window_right >= 0) limit = int(std::min<long long>(limit, diagonal + mask.window_right + 1));
  row.limit = std::max(limit, 0);  // bottom-right with Tq > Tk gives rows that see nothing
  if (mask.window_left >= 0)
    row.start = int(std::min<long long>(std::max<long long>(diagonal - mask.window_left, 0), row.limit));
  if (mask.alibi_slopes != nullptr) {
    row.alibi = true;
    row.alibi_slope = mask.alibi_slopes[h];
    row.alibi_center = int(diagonal);
  }

  if (mask.has_attn_mask()) {
    const std::size_t offset = std::size_t(b) * mask.mask_stride_b + std::size_t(h) * mask.mask_stride_h +
                               std::size_t(i) * mask.mask_stride_i;
    if (mask.bool_mask != nullptr) row.bool_row = mask.bool_mask + offset;
    if (mask.float_mask != nullptr) row.float_row = mask.float_mask + offset;
    row.stride_j = mask.mask_stride_j;
  }
  return row;
}

}  // namespace attnlab
