#include "softmax_row.hpp"

#include <algorithm>
#include <cstdlib>

#include "attnlab/kernels.hpp"

namespace attnlab::detail {

void apply_mask(const MaskRow& row, const MaskSpec& mask, float* z, int n, int stride, float bias_scale) {
  const float masked = masked_value(mask);
  const int within = std::min(row.limit, n);
  auto at = [&](int j) -> float& { return z[std::size_t(j) * stride]; };
  for (int j = within; j < n; ++j) at(j) = masked;                  // fill mode: keys beyond the limit
  for (int j = 0; j < std::min(row.start, n); ++j) at(j) = masked;  // keys before the window
  if (row.alibi) {  // first, so that the passes below still replace what they mask (fill mode)
    for (int j = row.start; j < within; ++j)
      at(j) -= bias_scale * (row.alibi_slope * float(std::abs(row.alibi_center - j)));
  }
  if (row.bool_row != nullptr) {
    for (int j = row.start; j < within; ++j)
      if (row.bool_row[std::size_t(j) * row.stride_j] == 0) at(j) = masked;
  }
  if (row.float_row != nullptr) {
    for (int j = row.start; j < within; ++j) {
      const float bias = row.float_row[std::size_t(j) * row.stride_j];
      at(j) = bias == -std::numeric_limits<float>::infinity() ? masked : at(j) + bias_scale * bias;
    }
  }
}

float softmax(const float* z, float* y, int n) {
  const float m = kernels::f32_max(z, n);
  if (m == -std::numeric_limits<float>::infinity()) {  // nothing visible (or n == 0)
    std::fill(y, y + n, 0.0f);
    return m;
  }
  const float sum = kernels::f32_exp_minus_max(y, z, m, n);  // sum >= 1: the max contributes exp(0)
  kernels::f32_scale(y, 1.0f / sum, n);
  return m + std::log(sum);
}

// Three passes over the row (max, exp and sum, scale), reading x in the first two: the row is
// copied only when masked values must be written into it first.
void masked_softmax_row(const MaskRow& row, const MaskSpec& mask, const float* x, float* y, int Tk) {
  const int n = keys_in_softmax(row, mask, Tk);
  if (masks_within_softmax(row, n)) {
    if (x != y) std::copy(x, x + n, y);
    apply_mask(row, mask, y, n);
    softmax_in_place(y, n);
  } else {
    softmax(x, y, n);
  }
  std::fill(y + n, y + Tk, 0.0f);  // keys past the limit: weight 0
}

// With y = softmax(z): dz_j = sum_k dy_k y_k (delta_jk - y_j) = y_j (dy_j - dot(y, dy)).
// Masked keys had their input replaced (by -inf or the fill), so their gradient is 0.
void masked_softmax_backward_row(const MaskRow& row, const MaskSpec& mask, const float* y, const float* dy,
                                 float* dx, int Tk, float scale) {
  const int n = keys_in_softmax(row, mask, Tk);
  const float y_dot_dy = kernels::f32_dot(y, dy, n);
  kernels::f32_softmax_grad(dx, y, dy, y_dot_dy, scale, n);
  if (masks_within_softmax(row, n)) zero_masked(row, dx, n);
  std::fill(dx + n, dx + Tk, 0.0f);
}

void zero_masked(const MaskRow& row, float* x, int n) {
  for (int j = 0; j < n; ++j)
    if (!key_visible(row, j)) x[j] = 0.0f;
}

}  // namespace attnlab::detail
