// Internal: the one walk over the query rows of a (B, H, Tq, Tk) score tensor, shared by the masked
// softmax, the row-streaming sdpa and the score-matrix scorings (the fused sdpa walks blocks of
// rows instead: sdpa_fused.cpp).
#pragma once

#include <cstddef>

#include "attnlab/dims.hpp"
#include "softmax_row.hpp"

namespace attnlab::detail {

// Query row (b, h, i), with where its tensors start and its mask resolved once:
//   scores (B, H, Tq, Tk), q (B, H, Tq, d), out (B, H, Tq, dv)   start at r * Tk, r * d, r * dv
//   k (B, Hkv, Tk, d), v (B, Hkv, Tk, dv)                        start at kv * Tk * d, kv * Tk * dv
struct QueryRow {
  int b, h, i;
  std::size_t r;   // (b * H + h) * Tq + i: the row's index in (B, H, Tq)
  std::size_t kv;  // b * Hkv + h / (H / Hkv): the kv head it reads, in (B, Hkv)
  MaskRow mask;
  int n;  // keys_in_softmax(): the keys the softmax looks at
};

// Calls visit(row) for every query row in memory order (r = 0, 1, ...). H % Hkv == 0; an op
// without kv heads (the masked softmax) passes Hkv = H and ignores kv.
template <class Visit>
void for_each_query_row(int B, int H, int Hkv, int Tq, int Tk, const MaskSpec& mask, Visit&& visit) {
  const int group = H / Hkv;
  std::size_t r = 0;
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h)
      for (int i = 0; i < Tq; ++i, ++r) {
        const MaskRow row = mask_row(mask, Tq, Tk, b, h, i);
        visit(QueryRow{b, h, i, r, std::size_t(b) * Hkv + h / group, row, keys_in_softmax(row, mask, Tk)});
      }
}

}  // namespace attnlab::detail
