// Helpers shared by every C++ test: deterministic random tensors, a closeness check that names the
// worst element, central finite differences, and an owning builder for MaskSpec with broadcast
// strides. Header-only so each suite includes just what it uses.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "attnlab/dims.hpp"

namespace attnlab::test {

// ---- the step of the functions' float sweeps (exp2, tanh): every kFloatSweepStep-th float ----
// 61, odd, so the sweep meets every residue of the vector loop and every exponent. Under the
// sanitizers 977 (also odd; 16x fewer floats, still millions of them): there a sweep checks memory
// and undefined behaviour, which do not depend on how many floats it meets, and at 61 the two sweeps
// took 20 of the sanitized binary's 70 s (Xeon, 2026-11-27).
#if ATTNLAB_SANITIZED
constexpr uint32_t kFloatSweepStep = 977;
#else
constexpr uint32_t kFloatSweepStep = 61;
#endif

// ---- deterministic random fill (std::mt19937, so a seed reproduces a failing case) ----

inline void fill_uniform(float* x, std::size_t n, uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  for (std::size_t i = 0; i < n; ++i) x[i] = dist(rng);
}

inline void fill_normal(float* x, std::size_t n, uint32_t seed, float mean = 0.0f, float stddev = 1.0f) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist(mean, stddev);
  for (std::size_t i = 0; i < n; ++i) x[i] = dist(rng);
}

inline std::vector<float> random_uniform(std::size_t n, uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
  std::vector<float> x(n);
  fill_uniform(x.data(), n, seed, lo, hi);
  return x;
}

inline std::vector<float> random_normal(std::size_t n, uint32_t seed, float mean = 0.0f,
                                        float stddev = 1.0f) {
  std::vector<float> x(n);
  fill_normal(x.data(), n, seed, mean, stddev);
  return x;
}

// Dyadic values k / 8 with |k| <= 16: products are multiples of 1/64 and short sums of them fit in
// 24 bits, so float kernels over them are exact in any summation order (the kernel suites compare
// such results with a double loop exactly).
inline std::vector<float> dyadic(std::size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> k(-16, 16);
  std::vector<float> x(n);
  for (auto& v : x) v = float(k(rng)) / 8.0f;
  return x;
}

// ---- lengths for the vector kernels ----

// 1, 2, ..., 3 step + 1 (around a loop that takes `step` floats at a time: the scalar tail alone, the
// vector loop alone and both together), then the longer lengths in `more`.
inline std::vector<int> lengths_around(int step, std::initializer_list<int> more = {}) {
  std::vector<int> n;
  for (int i = 1; i <= 3 * step + 1; ++i) n.push_back(i);
  n.insert(n.end(), more);
  return n;
}

// ---- closeness with a useful failure message ----

// Passes when |actual - expected| <= atol + rtol * |expected| for every element. Equal values pass
// (so matching infinities pass); a NaN passes only against a NaN. On failure the message names the
// worst element (largest error relative to its allowance): index, both values and the error.
inline ::testing::AssertionResult all_close(const float* actual, const float* expected, std::size_t n,
                                            double atol, double rtol, const std::string& what) {
  std::size_t bad = 0, worst = 0;
  double worst_ratio = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double a = actual[i], e = expected[i];
    double ratio;
    if (a == e || (std::isnan(a) && std::isnan(e))) {
      ratio = 0.0;
    } else if (std::isnan(a) || std::isnan(e) || std::isinf(a) || std::isinf(e)) {
      ratio = std::numeric_limits<double>::infinity();
    } else {
      ratio = std::fabs(a - e) / (atol + rtol * std::fabs(e));
    }
    if (ratio > 1.0) ++bad;
    if (ratio > worst_ratio) {
      worst_ratio = ratio;
      worst = i;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  std::ostringstream msg;
  msg.precision(9);
  msg << what << ": " << bad << " of " << n << " elements differ; worst at index " << worst << ": actual "
      << actual[worst] << ", expected " << expected[worst] << ", error "
      << std::fabs(double(actual[worst]) - double(expected[worst])) << " (atol " << atol << ", rtol " << rtol
      << ")";
  return ::testing::AssertionFailure() << msg.str();
}

inline ::testing::AssertionResult all_close(const std::vector<float>& actual,
                                            const std::vector<float>& expected, double atol, double rtol,
                                            const std::string& what) {
  if (actual.size() != expected.size()) {
    return ::testing::AssertionFailure()
           << what << ": sizes differ, actual " << actual.size() << ", expected " << expected.size();
  }
  return all_close(actual.data(), expected.data(), actual.size(), atol, rtol, what);
}

// Records a non-fatal failure at the caller's line (GCC/Clang evaluate __builtin_FILE/LINE in a
// default argument at the call site).
inline void expect_close(const float* actual, const float* expected, std::size_t n, double atol, double rtol,
                         const std::string& what, const char* file = __builtin_FILE(),
                         int line = __builtin_LINE()) {
  const ::testing::AssertionResult r = all_close(actual, expected, n, atol, rtol, what);
  if (!r) ADD_FAILURE_AT(file, line) << r.message();
}

inline void expect_close(const std::vector<float>& actual, const std::vector<float>& expected, double atol,
                         double rtol, const std::string& what, const char* file = __builtin_FILE(),
                         int line = __builtin_LINE()) {
  const ::testing::AssertionResult r = all_close(actual, expected, atol, rtol, what);
  if (!r) ADD_FAILURE_AT(file, line) << r.message();
}

// True when no element is NaN (infinities are allowed: masked trace entries are -inf).
inline bool no_nan(const float* x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (std::isnan(x[i])) return false;
  return true;
}

// ---- central finite differences ----

// d loss / d x[index] by central differences: perturbs the float x[index] by +-eps, evaluates
// `loss` (which reads x) in double, and restores x[index]. The denominator is the perturbation
// actually representable in float, not 2 eps, so rounding of x +- eps does not bias the slope.
inline double fd_partial(std::vector<float>& x, std::size_t index, double eps,
                         const std::function<double()>& loss) {
  const float saved = x[index];
  const float up = float(double(saved) + eps), down = float(double(saved) - eps);
  x[index] = up;
  const double loss_up = loss();
  x[index] = down;
  const double loss_down = loss();
  x[index] = saved;
  return (loss_up - loss_down) / (double(up) - double(down));
}

// The whole finite-difference gradient of `loss` with respect to x (one pair of evaluations per element).
inline std::vector<float> fd_gradient(std::vector<float>& x, double eps,
                                      const std::function<double()>& loss) {
  std::vector<float> g(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) g[i] = float(fd_partial(x, i, eps, loss));
  return g;
}

// Up to `count` indices spread evenly over [0, n) (all of them when n <= count), so finite
// differences of a large tensor stay cheap yet reach its first, last and middle elements.
inline std::vector<std::size_t> spread_indices(std::size_t n, std::size_t count) {
  std::vector<std::size_t> at;
  if (n <= count) {
    for (std::size_t i = 0; i < n; ++i) at.push_back(i);
  } else {
    for (std::size_t c = 0; c < count; ++c) at.push_back(c * (n - 1) / (count - 1));
  }
  return at;
}

// sum(out * r) in double: the scalar loss whose gradient with respect to out is r.
inline double dot_loss(const std::vector<float>& out, const std::vector<float>& r) {
  double s = 0.0;
  for (std::size_t i = 0; i < out.size(); ++i) s += double(out[i]) * double(r[i]);
  return s;
}

// ---- masks ----

// Element strides (b, h, i, j) of a dense row-major tensor of `shape` (rank 1..4) broadcast
// right-aligned to (B, H, Tq, Tk); 0 on axes the shape lacks or holds with size 1.
inline std::array<std::size_t, 4> broadcast_strides(const std::vector<int>& shape) {
  std::array<std::size_t, 4> strides{0, 0, 0, 0};
  std::size_t stride = 1;
  const int rank = int(shape.size());
  for (int a = rank - 1; a >= 0; --a) {
    const int target_axis = 4 - rank + a;
    strides[target_axis] = shape[a] == 1 ? 0 : stride;
    stride *= std::size_t(shape[a]);
  }
  return strides;
}

inline std::size_t element_count(const std::vector<int>& shape) {
  std::size_t n = 1;
  for (int s : shape) n *= std::size_t(s);
  return n;
}

// Owns everything a MaskSpec points to; spec() rebuilds the pointers, so copies stay valid.
struct MaskSetup {
  std::vector<int32_t> valid_lens;  // empty, (B) or (B, Tq)
  bool valid_lens_per_row = false;
  Causal causal = Causal::none;
  std::vector<int> attn_mask_shape;  // right-aligned to (B, H, Tq, Tk)
  std::vector<uint8_t> bool_mask;    // set at most one of bool_mask / float_mask
  std::vector<float> float_mask;
  bool use_fill = false;
  float fill = -1e6f;
  int window_left = -1, window_right = -1;
  std::vector<float> alibi_slopes;  // empty or (H)

  MaskSpec spec() const {
    MaskSpec m;
    if (!valid_lens.empty()) m.valid_lens = valid_lens.data();
    m.valid_lens_per_row = valid_lens_per_row;
    m.causal = causal;
    if (!bool_mask.empty()) m.bool_mask = bool_mask.data();
    if (!float_mask.empty()) m.float_mask = float_mask.data();
    if (m.has_attn_mask()) {
      const auto s = broadcast_strides(attn_mask_shape);
      m.mask_stride_b = s[0];
      m.mask_stride_h = s[1];
      m.mask_stride_i = s[2];
      m.mask_stride_j = s[3];
    }
    m.use_fill = use_fill;
    m.fill = fill;
    m.window_left = window_left;
    m.window_right = window_right;
    if (!alibi_slopes.empty()) m.alibi_slopes = alibi_slopes.data();
    return m;
  }

  // Builder-style setters, so a table row reads as one expression.
  MaskSetup& lens(std::vector<int32_t> l, bool per_row = false) {
    valid_lens = std::move(l);
    valid_lens_per_row = per_row;
    return *this;
  }
  MaskSetup& with_causal(Causal c) {
    causal = c;
    return *this;
  }
  // Random boolean mask of `shape`: each element may attend with probability keep.
  MaskSetup& random_bool(std::vector<int> shape, uint32_t seed, double keep = 0.7) {
    attn_mask_shape = std::move(shape);
    bool_mask.assign(element_count(attn_mask_shape), 0);
    std::mt19937 rng(seed);
    std::bernoulli_distribution may_attend(keep);
    for (auto& m : bool_mask) m = may_attend(rng) ? 1 : 0;
    return *this;
  }
  // Random float mask of `shape`: uniform in [-2, 2], and -inf with probability masked.
  MaskSetup& random_float(std::vector<int> shape, uint32_t seed, double masked = 0.2) {
    attn_mask_shape = std::move(shape);
    float_mask.assign(element_count(attn_mask_shape), 0.0f);
    std::mt19937 rng(seed);
    std::bernoulli_distribution is_masked(masked);
    std::uniform_real_distribution<float> value(-2.0f, 2.0f);
    for (auto& m : float_mask) m = is_masked(rng) ? -std::numeric_limits<float>::infinity() : value(rng);
    return *this;
  }
  MaskSetup& with_fill(float f = -1e6f) {
    use_fill = true;
    fill = f;
    return *this;
  }
  MaskSetup& with_window(int left, int right) {
    window_left = left;
    window_right = right;
    return *this;
  }
  MaskSetup& with_alibi(std::vector<float> slopes) {
    alibi_slopes = std::move(slopes);
    return *this;
  }
};

}  // namespace attnlab::test
