// The kernels of additive attention: f32_tanh's accuracy over a dense sweep of floats and at the
// special values, and the per-row score kernels (forward and backward) against double loops at every
// key count 1 .. 3W+1 around the vector width W plus long rows, with the keys' row stride wider than
// the row, so the vector loop, the single-key tail and both together all run.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "attnlab/kernels.hpp"
#include "test_util.hpp"

namespace attnlab {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

float from_bits(uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// Distance from the exact tanh(x) in units of the last place of the float nearest to it.
double ulps_from_tanh(float y, float x) {
  const double exact = std::tanh(double(x));
  const float nearest = float(exact);
  const double ulp = double(std::nextafter(std::fabs(nearest), kInf)) - std::fabs(double(nearest));
  return std::fabs(double(y) - exact) / ulp;
}

// The SIMD tanh is a rational approximation evaluated in float: its fit is within 2e-8 of tanh, and
// the ~10 roundings of P, Q and the division add up to a measured 4.7 ulp with fused multiply-adds
// (native AVX2, this sweep) and 6.95 ulp without them (wasm simd128, every 7th float up to 10):
// 8 ulp allowed. The largest absolute error is near +-1, where an ulp is 6e-8: measured 4.1e-7,
// 5e-7 allowed. The scalar build is std::tanh (< 1 ulp).
constexpr double kTanhUlps = 8.0;
constexpr double kTanhAbs = 5e-7;

TEST(KernelsTanh, IsWithin8UlpOfTanhOverADenseSweepOfPositiveAndNegativeFloats) {
  // Every 61st float from 0 up to 10 (past the clamp at 9), both signs: about 36 million values
  // (every 977th under the sanitizers: test_util.hpp).
  constexpr uint32_t kTen = 0x41200000u, kStep = test::kFloatSweepStep;
  std::vector<float> x, y;
  double worst = 0.0, worst_abs = 0.0;
  float worst_x = 0.0f;
  for (uint32_t start = 0; start < kTen; start += kStep * 4096) {
    x.clear();
    for (uint32_t bits = start; bits < kTen && bits < start + kStep * 4096; bits += kStep) {
      x.push_back(from_bits(bits));
      x.push_back(-from_bits(bits));
    }
    y.resize(x.size());
    kernels::f32_tanh(y.data(), x.data(), int(x.size()));
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double e = ulps_from_tanh(y[i], x[i]);
      worst_abs = std::max(worst_abs, std::fabs(double(y[i]) - std::tanh(double(x[i]))));
      if (e > worst) {
        worst = e;
        worst_x = x[i];
      }
    }
  }
  EXPECT_LE(worst, kTanhUlps) << "worst at x = " << worst_x;
  EXPECT_LE(worst_abs, kTanhAbs);
}

TEST(KernelsTanh, KeepsTheSignOfZeroFollowsTinyArgumentsAndSaturatesAtInfinity) {
  const float tiny = std::numeric_limits<float>::denorm_min(), smallest = std::numeric_limits<float>::min();
  const std::vector<float> x = {0.0f,
                                -0.0f,
                                tiny,
                                -tiny,
                                smallest,
                                -smallest,
                                1e-20f,
                                -1e-7f,
                                3e-4f,
                                9.0f,
                                -9.5f,
                                20.0f,
                                -1e4f,
                                std::numeric_limits<float>::max(),
                                -std::numeric_limits<float>::max(),
                                kInf,
                                -kInf};
  for (int n = 1; n <= int(x.size()); ++n) {  // every special value in the vector body and in the tail
    std::vector<float> y(n);
    kernels::f32_tanh(y.data(), x.data(), n);
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(std::signbit(y[i]), std::signbit(x[i])) << "x = " << x[i] << " n=" << n;
      EXPECT_LE(std::fabs(y[i]), 1.0f) << "x = " << x[i];
      EXPECT_LE(ulps_from_tanh(y[i], x[i]), kTanhUlps) << "x = " << x[i] << " y = " << y[i];
      if (std::fabs(x[i]) < 1e-10f) EXPECT_EQ(y[i], x[i]) << "tanh x = x - x^3 / 3 rounds to x";
    }
  }
}

TEST(KernelsTanh, NeverLeavesMinusOneToOneAndMayWorkInPlace) {
  std::vector<float> x = test::random_uniform(4099, 21, -12.0f, 12.0f);
  const std::vector<float> original = x;
  kernels::f32_tanh(x.data(), x.data(), int(x.size()));
  for (std::size_t i = 0; i < x.size(); ++i) {
    EXPECT_LE(std::fabs(x[i]), 1.0f) << "at " << i;
    EXPECT_LE(ulps_from_tanh(x[i], original[i]), kTanhUlps) << "x = " << original[i];
  }
}

// ---- one query row of additive scores ----

std::vector<int> key_counts() { return test::lengths_around(kernels::width(), {64, 127, 515}); }

// A row's inputs: qw, wv (h), kwT (h, ldk) with ldk = n + 3 (a stride wider than the row).
struct Row {
  int h, n, ldk;
  std::vector<float> qw, wv, kwT;
  Row(int h_, int n_, uint32_t seed)
      : h(h_),
        n(n_),
        ldk(n_ + 3),
        qw(test::random_uniform(h_, seed, -1.5f, 1.5f)),
        wv(test::random_uniform(h_, seed + 1)),
        kwT(test::random_uniform(std::size_t(h_) * (n_ + 3), seed + 2, -1.5f, 1.5f)) {}
  double t(int c, int j) const { return std::tanh(double(qw[c]) + double(kwT[std::size_t(c) * ldk + j])); }
  std::string where() const { return "h=" + std::to_string(h) + " n=" + std::to_string(n); }
};

// Each term wv[c] t_cj carries the tanh error (kTanhAbs |wv[c]|) and the float sum of h terms its
// rounding (h eps sum |terms|): the allowance for a sum is the sum of those over c.
constexpr double kEps = 0x1p-24;

TEST(KernelsAdditive, ScoresMatchADoubleLoopKeepTheTanhAndLeaveTheRestOfTheRowAlone) {
  const float scale = 0.75f;
  for (int h : {1, 5, 16})
    for (int n : key_counts()) {
      const Row r(h, n, 100 + 7 * n + h);
      std::vector<float> s(n + 2, 99.0f), kept(r.kwT.size(), 99.0f), s_without(n + 2, 99.0f);
      kernels::f32_additive_scores(s.data(), kept.data(), r.qw.data(), r.wv.data(), r.kwT.data(), r.ldk, h, n,
                                   scale);
      kernels::f32_additive_scores(s_without.data(), nullptr, r.qw.data(), r.wv.data(), r.kwT.data(), r.ldk,
                                   h, n, scale);
      for (int j = 0; j < n; ++j) {
        double expected = 0.0, allowance = 0.0;
        for (int c = 0; c < h; ++c) {
          expected += double(r.wv[c]) * r.t(c, j);
          allowance += std::fabs(double(r.wv[c])) * (kTanhAbs + (h + 2) * kEps);
          EXPECT_NEAR(kept[std::size_t(c) * r.ldk + j], r.t(c, j), kTanhAbs)
              << r.where() << " c=" << c << " j=" << j;
        }
        EXPECT_NEAR(s[j], scale * expected, scale * allowance) << r.where() << " j=" << j;
        EXPECT_EQ(s_without[j], s[j])
            << "keeping the tanh values changes nothing, " << r.where() << " j=" << j;
      }
      for (int j = n; j < n + 2; ++j) EXPECT_EQ(s[j], 99.0f) << r.where();
      for (int c = 0; c < h; ++c)
        for (int j = n; j < r.ldk; ++j)
          EXPECT_EQ(kept[std::size_t(c) * r.ldk + j], 99.0f) << r.where() << " j=" << j;
    }
}

TEST(KernelsAdditive, BackwardAccumulatesTheGradientsOfADoubleLoopFromTheKeptTanhAtEveryKeyCount) {
  for (int h : {1, 5, 16})
    for (int n : key_counts()) {
      const Row r(h, n, 300 + 7 * n + h);
      // The kept tanh values as the forward stores them (h, ldk); the kernel must only read them.
      std::vector<float> t(r.kwT.size(), 99.0f), s(n);
      kernels::f32_additive_scores(s.data(), t.data(), r.qw.data(), r.wv.data(), r.kwT.data(), r.ldk, h, n,
                                   1.0f);
      const std::vector<float> da = test::random_uniform(n, 400 + n);
      // Nonzero starting values: the kernel adds to them.
      std::vector<float> dqw = test::random_uniform(h, 500 + n), dwv = test::random_uniform(h, 600 + n);
      std::vector<float> dkwT = test::random_uniform(r.kwT.size(), 700 + n);
      const std::vector<float> dqw0 = dqw, dwv0 = dwv, dkwT0 = dkwT;
      kernels::f32_additive_scores_backward(da.data(), t.data(), r.ldk, r.wv.data(), h, n, dqw.data(),
                                            dkwT.data(), dwv.data());
      // Against the exact tanh: d(1 - t^2) = -2 t dt, so the tanh error reaches g doubled; sums
      // over n keys add n eps each.
      for (int c = 0; c < h; ++c) {
        double sum_t = 0.0, sum_g = 0.0, allowance_t = 0.0, allowance_g = 0.0;
        const double w = r.wv[c];
        for (int j = 0; j < n; ++j) {
          const double tanh_z = r.t(c, j), g = double(da[j]) * (1.0 - tanh_z * tanh_z);
          sum_t += da[j] * tanh_z;
          sum_g += g;
          allowance_t += std::fabs(double(da[j])) * (kTanhAbs + (n + 2) * kEps);
          allowance_g += std::fabs(double(da[j])) * (2 * kTanhAbs + (n + 4) * kEps);
          const std::size_t at = std::size_t(c) * r.ldk + j;
          EXPECT_NEAR(dkwT[at], dkwT0[at] + w * g, std::fabs(w * da[j]) * 2 * kTanhAbs + 4 * kEps)
              << r.where() << " c=" << c << " j=" << j;
        }
        EXPECT_NEAR(dwv[c], dwv0[c] + sum_t, allowance_t + 2 * kEps) << r.where() << " c=" << c;
        EXPECT_NEAR(dqw[c], dqw0[c] + w * sum_g, std::fabs(w) * allowance_g + 2 * kEps)
            << r.where() << " c=" << c;
        for (int j = n; j < r.ldk; ++j)  // past the row: untouched
          EXPECT_EQ(dkwT[std::size_t(c) * r.ldk + j], dkwT0[std::size_t(c) * r.ldk + j])
              << r.where() << " j=" << j;
      }
    }
}

}  // namespace
}  // namespace attnlab
