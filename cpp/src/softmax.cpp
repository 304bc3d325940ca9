// Masked softmax over the last axis (d2l's masked_softmax with every mask option), row by row.
#include "attnlab/softmax.hpp"

#include "score_row.hpp"

namespace attnlab {

void masked_softmax_forward(int B, int H, int Tq, int Tk, const MaskSpec& mask, const float* x, float* y) {
  detail::for_each_row(B, H, Tq, Tk, mask, [&](int, int, int, std::size_t r, const MaskRow& row, int) {
    detail::masked_softmax_row(row, mask, x + r * Tk, y + r * Tk, Tk);
  });
}

void masked_softmax_backward(int B, int H, int Tq, int Tk, const MaskSpec& mask, const float* y,
                             const float* dy, float* dx) {
  detail::for_each_row(B, H, Tq, Tk, mask, [&](int, int, int, std::size_t r, const MaskRow& row, int) {
    detail::masked_softmax_backward_row(row, mask, y + r * Tk, dy + r * Tk, dx + r * Tk, Tk, 1.0f);
  });
}

}  // namespace attnlab
