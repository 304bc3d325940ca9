// Masked softmax, forward and backward: the core against the float64 reference on the mask cases
// of the table (and Tk around the vector width), both backwards against finite differences, the
// d2l examples, fill mode, fully masked rows and large-magnitude scores.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attention_cases.hpp"
#include "attnlab/softmax.hpp"
#include "reference.hpp"
#include "test_util.hpp"

namespace attnlab {
namespace {

using test::AttentionCase;
using test::expect_close;

// The (B, H, Tq, Tk) problem of a case: scores x ~ N(0, 3) so rows are far from uniform, and a
// fixed random gradient R of the weights.
struct SoftmaxProblem {
  int B, H, Tq, Tk;
  MaskSpec mask;
  std::vector<float> x, dy;
  explicit SoftmaxProblem(const AttentionCase& c)
      : B(c.dims.B),
        H(c.dims.H),
        Tq(c.dims.Tq),
        Tk(c.dims.Tk),
        mask(c.mask.spec()),
        x(test::random_normal(c.dims.scores_size(), c.input_seed(), 0.0f, 3.0f)),
        dy(test::random_uniform(c.dims.scores_size(), c.input_seed() + 1)) {}
  std::vector<float> core_forward() const {
    std::vector<float> y(x.size());
    masked_softmax_forward(B, H, Tq, Tk, mask, x.data(), y.data());
    return y;
  }
  std::vector<float> ref_forward() const {
    std::vector<float> y(x.size());
    ref::masked_softmax_forward(B, H, Tq, Tk, mask, x.data(), y.data());
    return y;
  }
};

// Weights are <= 1 and come from one float exp of x - max (|x - max| <= ~25 here, rounded to
// ~1e-6) and one division: ~1e-6 relative at worst (seen: <= 1.2e-7 absolute). Backward adds one
// dot product over Tk <= 25 of such terms.
constexpr double kAtol = 1e-6, kRtol = 1e-5;

class MaskedSoftmaxTable : public ::testing::TestWithParam<AttentionCase> {};

TEST_P(MaskedSoftmaxTable, ForwardMatchesTheFloat64ReferenceAlsoInPlace) {
  const SoftmaxProblem p(GetParam());
  const std::vector<float> core = p.core_forward(), ref = p.ref_forward();
  expect_close(core, ref, kAtol, kRtol, GetParam().name + " y");
  std::vector<float> in_place = p.x;
  masked_softmax_forward(p.B, p.H, p.Tq, p.Tk, p.mask, in_place.data(), in_place.data());
  expect_close(in_place, core, 0, 0, GetParam().name + " y computed in place");
}

TEST_P(MaskedSoftmaxTable, RowsWithNothingVisibleAreZeroAndNothingIsNaN) {
  const SoftmaxProblem p(GetParam());
  const std::vector<float> y = p.core_forward();
  EXPECT_TRUE(test::no_nan(y.data(), y.size()));
  if (p.mask.use_fill) return;  // d2l mode: such rows are uniform instead (tested below)
  for (int b = 0; b < p.B; ++b)
    for (int h = 0; h < p.H; ++h)
      for (int i = 0; i < p.Tq; ++i) {
        if (!test::row_sees_nothing(p.mask, p.Tq, p.Tk, b, h, i)) continue;
        const std::size_t row = ((std::size_t(b) * p.H + h) * p.Tq + i) * p.Tk;
        for (int j = 0; j < p.Tk; ++j) EXPECT_EQ(y[row + j], 0.0f) << "b=" << b << " h=" << h << " i=" << i;
      }
}

TEST_P(MaskedSoftmaxTable, BackwardMatchesTheFloat64ReferenceAlsoInPlace) {
  const SoftmaxProblem p(GetParam());
  const std::vector<float> y = p.core_forward();
  std::vector<float> core(y.size()), ref(y.size());
  masked_softmax_backward(p.B, p.H, p.Tq, p.Tk, p.mask, y.data(), p.dy.data(), core.data());
  ref::masked_softmax_backward(p.B, p.H, p.Tq, p.Tk, p.mask, y.data(), p.dy.data(), ref.data());
  expect_close(core, ref, kAtol, kRtol, GetParam().name + " dx");
  std::vector<float> in_place = p.dy;
  masked_softmax_backward(p.B, p.H, p.Tq, p.Tk, p.mask, y.data(), in_place.data(), in_place.data());
  expect_close(in_place, core, 0, 0, GetParam().name + " dx computed in place");
}

// loss = sum(softmax(x) * R) through the reference forward (float outputs: ~3e-8 rounding each,
// ~1e-6 of slope noise at eps = 1e-2; truncation eps^2 / 6 * f''' with f''' = O(1) for weights
// <= 1: a few 1e-6; seen: worst 2.4e-6). Core and reference backward both must match at every element.
TEST_P(MaskedSoftmaxTable, BackwardMatchesFiniteDifferencesOfTheForward) {
  SoftmaxProblem p(GetParam());
  std::vector<float> y(p.x.size());
  const std::vector<float> fd = test::fd_gradient(p.x, 1e-2, [&] {
    ref::masked_softmax_forward(p.B, p.H, p.Tq, p.Tk, p.mask, p.x.data(), y.data());
    return test::dot_loss(y, p.dy);
  });
  const std::vector<float> weights = p.core_forward();
  std::vector<float> core(y.size()), ref(y.size());
  masked_softmax_backward(p.B, p.H, p.Tq, p.Tk, p.mask, weights.data(), p.dy.data(), core.data());
  ref::masked_softmax_backward(p.B, p.H, p.Tq, p.Tk, p.mask, p.ref_forward().data(), p.dy.data(), ref.data());
  expect_close(ref, fd, 1e-5, 1e-4, GetParam().name + " reference dx vs finite differences");
  expect_close(core, fd, 1e-5, 1e-4, GetParam().name + " core dx vs finite differences");
}

// Only Tk and the mask matter to the softmax: the table, plus the Tk sweep of the width cases.
std::vector<AttentionCase> softmax_cases() {
  std::vector<AttentionCase> cases = test::attention_cases();
  for (auto& c : test::width_sweep_cases())
    if (c.name.rfind("tk_", 0) == 0) cases.push_back(c);
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cases, MaskedSoftmaxTable, ::testing::ValuesIn(softmax_cases()), test::case_name);

// ---- single behaviours ----

TEST(MaskedSoftmax, D2lValidLengthsZeroTheKeysBeyondEachLength) {
  // d2l: masked_softmax(X (2, 2, 4), valid_lens [2, 3]); with X = 0 the visible keys share equally.
  const std::vector<int32_t> lens = {2, 3};
  MaskSpec mask;
  mask.valid_lens = lens.data();
  const std::vector<float> x(16, 0.0f);
  std::vector<float> y(16);
  masked_softmax_forward(2, 1, 2, 4, mask, x.data(), y.data());
  const float h = 0.5f, t = 1.0f / 3.0f;
  expect_close(y, {h, h, 0, 0, h, h, 0, 0, t, t, t, 0, t, t, t, 0}, 1e-7, 0,
               "d2l valid lens [2, 3] (rounding of 1/3)");
}

TEST(MaskedSoftmax, D2lPerRowValidLengthsApplyToEachQueryRow) {
  // d2l: valid_lens [[1, 3], [2, 4]] over X (2, 2, 4) = 0.
  const std::vector<int32_t> lens = {1, 3, 2, 4};
  MaskSpec mask;
  mask.valid_lens = lens.data();
  mask.valid_lens_per_row = true;
  const std::vector<float> x(16, 0.0f);
  std::vector<float> y(16);
  masked_softmax_forward(2, 1, 2, 4, mask, x.data(), y.data());
  const float t = 1.0f / 3.0f;
  expect_close(y, {1, 0, 0, 0, t, t, t, 0, 0.5f, 0.5f, 0, 0, 0.25f, 0.25f, 0.25f, 0.25f}, 1e-7, 0,
               "d2l valid lens [[1, 3], [2, 4]] (rounding of 1/3)");
}

TEST(MaskedSoftmax, FillModeGivesAUniformRowWhenNothingIsVisibleAndZeroGradient) {
  const std::vector<int32_t> lens = {0, 2};
  test::MaskSetup setup = test::MaskSetup().lens(lens).with_fill();
  const MaskSpec mask = setup.spec();
  const std::vector<float> x = test::random_normal(10, 3);
  std::vector<float> y(10), dx(10);
  masked_softmax_forward(2, 1, 1, 5, mask, x.data(), y.data());
  expect_close(y.data(), std::vector<float>(5, 0.2f).data(), 5, 1e-7, 0, "uniform row (rounding of 1/5)");
  EXPECT_EQ(y[7], 0.0f);  // batch 1 sees two keys; -1e6 - x underflows exp to exactly 0
  masked_softmax_backward(2, 1, 1, 5, mask, y.data(), test::random_uniform(10, 4).data(), dx.data());
  for (int j = 0; j < 5; ++j) EXPECT_EQ(dx[j], 0.0f) << "filled key " << j;
}

TEST(MaskedSoftmax, FullyMaskedRowGivesZeroWeightsAndZeroGradient) {
  const std::vector<uint8_t> nothing(6, 0);  // bool mask (Tk) that allows no key
  MaskSpec mask;
  mask.bool_mask = nothing.data();
  mask.mask_stride_j = 1;
  const std::vector<float> x = test::random_normal(12, 5);
  std::vector<float> y(12, 7.0f), dx(12, 7.0f);
  masked_softmax_forward(1, 1, 2, 6, mask, x.data(), y.data());
  masked_softmax_backward(1, 1, 2, 6, mask, y.data(), x.data(), dx.data());
  expect_close(y, std::vector<float>(12, 0.0f), 0, 0, "weights");
  expect_close(dx, std::vector<float>(12, 0.0f), 0, 0, "gradient");
}

TEST(MaskedSoftmax, LargeMagnitudeScoresStayFiniteAndMatchTheReference) {
  // Scores of +-1e4: exp without the max subtracted would overflow. x - max is exact to
  // ulp(1e4) / 2 ~ 5e-4, so weights carry ~5e-4 relative error.
  const std::vector<int32_t> lens = {7, 3};
  MaskSpec mask;
  mask.valid_lens = lens.data();
  const std::vector<float> x = test::random_uniform(2 * 3 * 8, 6, -1e4f, 1e4f);
  std::vector<float> y(x.size()), ref(x.size());
  masked_softmax_forward(2, 1, 3, 8, mask, x.data(), y.data());
  ref::masked_softmax_forward(2, 1, 3, 8, mask, x.data(), ref.data());
  for (float v : y) EXPECT_TRUE(std::isfinite(v));
  expect_close(y, ref, 1e-3, 1e-3, "weights at scores ~1e4");
}

}  // namespace
}  // namespace attnlab
