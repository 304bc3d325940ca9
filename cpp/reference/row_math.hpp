// Internal to the reference: the two row formulas its masked softmax and sdpa share, in double.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "reference.hpp"

namespace attnlab::ref::detail {

// z of key j in row (b, h, i): the score plus the bias (float mask, ALiBi) where visible; -inf (or
// the fill in d2l mode) where masked. *is_visible receives ref::visible's answer.
inline double masked_score(const MaskSpec& mask, int Tq, int Tk, int b, int h, int i, int j, double score,
                           bool* is_visible) {
  double bias = 0.0;
  *is_visible = visible(mask, Tq, Tk, b, h, i, j, &bias);
  if (*is_visible) return score + bias;
  return mask.use_fill ? double(mask.fill) : -std::numeric_limits<double>::infinity();
}

// p (n) = softmax(z (n)) with the max subtracted; returns log(sum exp z). A row of -inf only
// (nothing visible) gives p = 0 and returns -inf, as docs/semantics.md requires.
inline double softmax_row(const double* z, double* p, int n) {
  double m = -std::numeric_limits<double>::infinity();
  for (int j = 0; j < n; ++j) m = std::max(m, z[j]);
  if (m == -std::numeric_limits<double>::infinity()) {
    for (int j = 0; j < n; ++j) p[j] = 0.0;
    return m;
  }
  double sum = 0.0;
  for (int j = 0; j < n; ++j) sum += std::exp(z[j] - m);
  for (int j = 0; j < n; ++j) p[j] = std::exp(z[j] - m) / sum;
  return m + std::log(sum);
}

}  // namespace attnlab::ref::detail
