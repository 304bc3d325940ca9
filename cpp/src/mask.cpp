// mask_row(): resolves the mask options of one query row once, so the row loops that follow only
// compare j with a limit and read at most one mask row.
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
  if (mask.causal == Causal::top_left) limit = std::min(limit, i + 1);                  // j <= i
  if (mask.causal == Causal::bottom_right) limit = std::min(limit, i + Tk - Tq + 1);    // j <= i + Tk - Tq
  row.limit = std::max(limit, 0);  // bottom-right with Tq > Tk gives rows that see nothing

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
