// Masked softmax over the last axis (d2l's masked_softmax with every mask option), row by row.
#include "attnlab/softmax.hpp"

#include <algorithm>

#include "attnlab/kernels.hpp"
#include "score_row.hpp"

namespace attnlab {

void masked_softmax_forward(int B, int H, int Tq, int Tk, const MaskSpec& mask, const float* x, float* y) {
  detail::for_each_row(B, H, Tq, Tk, mask, [&](int, int, int, std::size_t r, const MaskRow& row, int n) {
    const float* xr = x + r * Tk;
    float* yr = y + r * Tk;
    if (xr != yr) std::copy(xr, xr + n, yr);  // x and y may alias
    detail::apply_mask(row, mask, yr, n);
    detail::softmax_in_place(yr, n);
    std::fill(yr + n, yr + Tk, 0.0f);  // keys past the limit: weight 0
  });
}

// With y = softmax(z): dz_j = sum_k dy_k y_k (delta_jk - y_j) = y_j (dy_j - dot(y, dy)).
// Masked keys had their input replaced (by -inf or the fill), so their gradient is 0.
void masked_softmax_backward(int B, int H, int Tq, int Tk, const MaskSpec& mask, const float* y,
                             const float* dy, float* dx) {
  detail::for_each_row(B, H, Tq, Tk, mask, [&](int, int, int, std::size_t r, const MaskRow& row, int n) {
    const float* yr = y + r * Tk;
    const float* dyr = dy + r * Tk;
    float* dxr = dx + r * Tk;
    const float y_dot_dy = kernels::f32_dot(yr, dyr, n);
    for (int j = 0; j < n; ++j) dxr[j] = yr[j] * (dyr[j] - y_dot_dy);  // dyr[j] read before dxr[j] is written
    detail::zero_masked(row, dxr, n);
    std::fill(dxr + n, dxr + Tk, 0.0f);
  });
}

}  // namespace attnlab
