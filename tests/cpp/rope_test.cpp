// Rotary position embeddings: the core against the float64 rotation matrices of the reference
// (both layouts, offsets, widths around the vector width), hand-computed angles, in-place calls,
// and the backward against finite differences.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "attnlab/rope.hpp"
#include "reference.hpp"
#include "test_util.hpp"

namespace attnlab {
namespace {

using test::expect_close;

struct RopeCase {
  int N, T, d;
  RopeOptions opt;
  std::string what() const {
    return "N=" + std::to_string(N) + " T=" + std::to_string(T) + " d=" + std::to_string(d) +
           " base=" + std::to_string(opt.base) + " offset=" + std::to_string(opt.offset) +
           (opt.interleaved ? " interleaved" : " halves");
  }
};

std::vector<RopeCase> rope_cases() {
  std::vector<RopeCase> t;
  for (bool interleaved : {false, true}) {
    for (int d : {2, 4, 6, 8, 14, 16, 18, 64}) t.push_back({2, 5, d, {10000.0, 0.0, interleaved}});
    t.push_back({3, 7, 8, {500000.0, 0.0, interleaved}});     // Llama 3's base
    t.push_back({1, 4, 12, {10000.0, 37.0, interleaved}});    // a decoder step after 37 cached tokens
    t.push_back({1, 3, 4, {10.0, 4095.0, interleaved}});      // large angles: cos, sin far from 0
    t.push_back({2, 53, 10, {10.0, 999983.0, interleaved}});  // positions stepped by the angle-sum rule
  }
  return t;
}

// y = R x with |x| <= 1 and |R entries| <= 1: float rounding of cos, sin (6e-8 each) and of two
// products and a sum, a few ulp of 1.
constexpr double kAtol = 1e-6, kRtol = 1e-6;

TEST(Rope, ForwardAndBackwardMatchTheFloat64RotationMatricesAlsoInPlace) {
  for (const RopeCase& c : rope_cases()) {
    const std::size_t n = std::size_t(c.N) * c.T * c.d;
    const std::vector<float> x = test::random_uniform(n, 3 + c.d);
    std::vector<float> core(n), ref(n);
    rope_forward(c.N, c.T, c.d, c.opt, x.data(), core.data());
    ref::rope_forward(c.N, c.T, c.d, c.opt, x.data(), ref.data());
    expect_close(core, ref, kAtol, kRtol, c.what() + " forward");
    std::vector<float> in_place = x;
    rope_forward(c.N, c.T, c.d, c.opt, in_place.data(), in_place.data());
    expect_close(in_place, core, 0, 0, c.what() + " forward in place");

    rope_backward(c.N, c.T, c.d, c.opt, x.data(), core.data());
    ref::rope_backward(c.N, c.T, c.d, c.opt, x.data(), ref.data());
    expect_close(core, ref, kAtol, kRtol, c.what() + " backward");
  }
}

TEST(Rope, HalvesAndPairsRotateTheElementsTheirModelsPair) {
  // d = 4, position 1 (offset 1, T = 1): angles 1 and 10000^(-1/2) = 0.01.
  const std::vector<float> x = {1.0f, 2.0f, 3.0f, 4.0f};
  std::vector<float> y(4);
  const double c0 = std::cos(1.0), s0 = std::sin(1.0), c1 = std::cos(0.01), s1 = std::sin(0.01);
  rope_forward(1, 1, 4, {10000.0, 1.0, false}, x.data(), y.data());  // pairs (0, 2), (1, 3)
  const std::vector<float> halves = {float(1 * c0 - 3 * s0), float(2 * c1 - 4 * s1), float(3 * c0 + 1 * s0),
                                     float(4 * c1 + 2 * s1)};
  expect_close(y, halves, 1e-6, 1e-6, "rotate_half");
  rope_forward(1, 1, 4, {10000.0, 1.0, true}, x.data(), y.data());  // pairs (0, 1), (2, 3)
  const std::vector<float> pairs = {float(1 * c0 - 2 * s0), float(2 * c0 + 1 * s0), float(3 * c1 - 4 * s1),
                                    float(4 * c1 + 3 * s1)};
  expect_close(y, pairs, 1e-6, 1e-6, "rotate_every_two");
  // Position 0 is the identity.
  rope_forward(1, 1, 4, {}, x.data(), y.data());
  expect_close(y, x, 0, 0, "position 0");
}

TEST(Rope, AnAngleAtAMillionIsComputedInDoubleNotFloat) {
  // float(1e6 + 3) is exact, but a float32 angle 1e6 * theta would be off by up to 0.03 rad.
  const std::vector<float> x = {1.0f, 0.0f};
  std::vector<float> y(2);
  rope_forward(1, 1, 2, {10000.0, 1000003.0, true}, x.data(), y.data());
  EXPECT_NEAR(y[0], std::cos(1000003.0), 1e-7);
  EXPECT_NEAR(y[1], std::sin(1000003.0), 1e-7);
}

TEST(Rope, BackwardMatchesFiniteDifferencesAndInvertsTheForward) {
  for (bool interleaved : {false, true}) {
    const int N = 2, T = 3, d = 6;
    const RopeOptions opt{10000.0, 2.0, interleaved};
    std::vector<float> x = test::random_uniform(std::size_t(N) * T * d, 41);
    const std::vector<float> R = test::random_uniform(x.size(), 42);
    std::vector<float> grad(x.size()), y(x.size());
    rope_backward(N, T, d, opt, R.data(), grad.data());
    // Loss sum(rope(x) * R) is linear in x: central differences are exact up to rounding.
    const std::vector<float> fd = test::fd_gradient(x, 1e-2, [&] {
      rope_forward(N, T, d, opt, x.data(), y.data());
      double loss = 0.0;
      for (std::size_t i = 0; i < y.size(); ++i) loss += double(y[i]) * R[i];
      return loss;
    });
    expect_close(grad, fd, 1e-4, 1e-3,
                 std::string(interleaved ? "pairs" : "halves") + " vs finite differences");
    rope_forward(N, T, d, opt, x.data(), y.data());
    rope_backward(N, T, d, opt, y.data(), y.data());
    expect_close(y, x, 1e-6, 1e-6, "backward(forward(x)) = x");
  }
}

}  // namespace
}  // namespace attnlab
