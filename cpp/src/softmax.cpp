// Masked softmax over the last axis (d2l's masked_softmax with every mask option), row by row.
#include "attnlab/softmax.hpp"

#include "query_rows.hpp"
#include "softmax_row.hpp"

namespace attnlab {

void masked_softmax_forward(int B, int H, int Tq, int Tk, const MaskSpec& mask, const float* x, float* y) {
  detail::for_each_query_row(B, H, H, Tq, Tk, mask, [&](const detail::QueryRow& row) {
    detail::masked_softmax_row(row.mask, mask, x + row.r * Tk, y + row.r * Tk, Tk);
  });
}

void masked_softmax_backward(int B, int H, int Tq, int Tk, const MaskSpec& mask, const float* y,
                             const float* dy, float* dx) {
  detail::for_each_query_row(B, H, H, Tq, Tk, mask, [&](const detail::QueryRow& row) {
    detail::masked_softmax_backward_row(row.mask, mask, y + row.r * Tk, dy + row.r * Tk, dx + row.r * Tk, Tk,
                                        1.0f);
  });
}

}  // namespace attnlab
