// Masked softmax over the last axis (d2l's masked_softmax with every mask option), row by row.
#include "attnlab/softmax.hpp"

#include <algorithm>

#include "attnlab/kernels.hpp"
#include "score_row.hpp"

namespace attnlab {

void masked_softmax_forward(int B, int H, int Tq, int Tk, const MaskSpec& mask, const float* x, float* y) {
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h)
      for (int i = 0; i < Tq; ++i) {
        const std::size_t offset = ((std::size_t(b) * H + h) * Tq + i) * Tk;
        const MaskRow row = mask_row(mask, Tq, Tk, b, h, i);
        const int n = detail::keys_in_softmax(row, mask, Tk);
        float* yr = y + offset;
        std::copy(x + offset, x + offset + n, yr);  // no-op when x and y alias
        detail::apply_mask(row, mask, yr, n);
        detail::softmax_in_place(yr, n);
        std::fill(yr + n, yr + Tk, 0.0f);  // keys past the limit: weight 0
      }
}

// With y = softmax(z): dz_j = sum_k dy_k y_k (delta_jk - y_j) = y_j (dy_j - dot(y, dy)).
// Masked keys had their input replaced (by -inf or the fill), so their gradient is 0.
void masked_softmax_backward(int B, int H, int Tq, int Tk, const MaskSpec& mask, const float* y,
                             const float* dy, float* dx) {
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h)
      for (int i = 0; i < Tq; ++i) {
        const std::size_t offset = ((std::size_t(b) * H + h) * Tq + i) * Tk;
        const MaskRow row = mask_row(mask, Tq, Tk, b, h, i);
        const int n = detail::keys_in_softmax(row, mask, Tk);
        const float* yr = y + offset;
        float* dxr = dx + offset;
        const float y_dot_dy = kernels::f32_dot(yr, dy + offset, n);
        for (int j = 0; j < n; ++j) dxr[j] = yr[j] * (dy[offset + j] - y_dot_dy);
        detail::zero_masked(row, dxr, n);
        std::fill(dxr + n, dxr + Tk, 0.0f);
      }
}

}  // namespace attnlab
