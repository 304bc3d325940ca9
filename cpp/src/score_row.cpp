#include "score_row.hpp"

#include <algorithm>

#include "attnlab/kernels.hpp"

namespace attnlab::detail {

void apply_mask(const MaskRow& row, const MaskSpec& mask, float* z, int n) {
  const float masked = masked_value(mask);
  std::fill(z + std::min(row.limit, n), z + n, masked);  // fill mode: keys beyond the limit
  const int within = std::min(row.limit, n);
  if (row.bool_row != nullptr) {
    for (int j = 0; j < within; ++j)
      if (row.bool_row[std::size_t(j) * row.stride_j] == 0) z[j] = masked;
  }
  if (row.float_row != nullptr) {
    for (int j = 0; j < within; ++j) {
      const float bias = row.float_row[std::size_t(j) * row.stride_j];
      z[j] = bias == -std::numeric_limits<float>::infinity() ? masked : z[j] + bias;
    }
  }
}

float softmax_in_place(float* z, int n) {
  const float m = kernels::f32_max(z, n);
  if (m == -std::numeric_limits<float>::infinity()) {  // nothing visible (or n == 0)
    std::fill(z, z + n, 0.0f);
    return m;
  }
  const float sum = kernels::f32_exp_minus_max(z, z, m, n);  // sum >= 1: the max contributes exp(0)
  kernels::f32_scale(z, 1.0f / sum, n);
  return m + std::log(sum);
}

void zero_masked(const MaskRow& row, float* x, int n) {
  for (int j = 0; j < n; ++j)
    if (!key_visible(row, j)) x[j] = 0.0f;
}

}  // namespace attnlab::detail
