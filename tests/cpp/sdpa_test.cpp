// Scaled dot-product attention: the streaming core against the float64 reference over the case
// table (forward, trace, backward), both backwards against finite differences, the fully masked
// row, d2l fill mode, dropout, large scores and the worked example of seed 004.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attention_cases.hpp"
#include "attnlab/sdpa.hpp"
#include "reference.hpp"
#include "test_util.hpp"

namespace attnlab {
namespace {

using test::AttentionCase;
using test::AttentionInputs;
using test::expect_close;

constexpr float kInf = std::numeric_limits<float>::infinity();

// Every forward output, owned.
struct Forward {
  std::vector<float> out, lse, weights, scores, softcapped, masked;
  explicit Forward(const AttentionDims& dims)
      : out(dims.out_size()),
        lse(dims.rows()),
        weights(dims.scores_size()),
        scores(dims.scores_size()),
        softcapped(dims.scores_size()),
        masked(dims.scores_size()) {}
  SdpaForwardOutputs all() {
    return {out.data(), lse.data(), weights.data(), scores.data(), softcapped.data(), masked.data()};
  }
  SdpaForwardOutputs out_only() { return {out.data()}; }
};

struct Grads {
  std::vector<float> dq, dk, dv;
  explicit Grads(const AttentionDims& dims) : dq(dims.q_size()), dk(dims.k_size()), dv(dims.v_size()) {}
};

// The core with exactly the scratch it asks for (ASan catches any overrun).
void core_forward(const AttentionDims& dims, const SdpaOptions& opt, const AttentionInputs& in,
                  const SdpaForwardOutputs& outputs) {
  std::vector<float> scratch(sdpa_scratch_floats(dims));
  sdpa_forward(dims, opt, in.q.data(), in.k.data(), in.v.data(), outputs, scratch.data());
}

Grads core_backward(const AttentionDims& dims, const SdpaOptions& opt, const AttentionInputs& in) {
  Grads g(dims);
  std::vector<float> scratch(sdpa_scratch_floats(dims));
  sdpa_backward(dims, opt, in.q.data(), in.k.data(), in.v.data(), in.dout.data(), g.dq.data(), g.dk.data(),
                g.dv.data(), scratch.data());
  return g;
}

Grads ref_backward(const AttentionDims& dims, const SdpaOptions& opt, const AttentionInputs& in) {
  Grads g(dims);
  ref::sdpa_backward(dims, opt, in.q.data(), in.k.data(), in.v.data(), in.dout.data(), g.dq.data(),
                     g.dk.data(), g.dv.data());
  return g;
}

// Float32 core vs float64 reference. Scores are float dot products over d <= 25 of inputs <= 1.5
// (|S| up to ~10): a few ulp, ~1e-6 absolute; weights and outputs inherit about that much (seen:
// <= 2.4e-7). 2e-6 + 2e-5 relative leaves margin across compilers yet is far below any real
// mistake (a wrong key or a wrong mask moves a weight by >= 1e-3 on these inputs).
constexpr double kAtol = 2e-6, kRtol = 2e-5;
// Gradients sum Tq (or Tk) products of those values with O(1) factors: twice the forward budget
// (seen: <= 1.2e-7).
constexpr double kGradAtol = 4e-6, kGradRtol = 4e-5;

class SdpaTable : public ::testing::TestWithParam<AttentionCase> {};

TEST_P(SdpaTable, ForwardMatchesTheFloat64Reference) {
  const AttentionCase& c = GetParam();
  const AttentionInputs in(c);
  Forward core(c.dims), ref(c.dims);
  core_forward(c.dims, c.options(), in, core.out_only());
  ref::sdpa_forward(c.dims, c.options(), in.q.data(), in.k.data(), in.v.data(), ref.all());
  expect_close(core.out, ref.out, kAtol, kRtol, c.name + " out");
}

TEST_P(SdpaTable, TraceWeightsAndLogSumExpMatchTheFloat64Reference) {
  const AttentionCase& c = GetParam();
  const AttentionInputs in(c);
  Forward core(c.dims), ref(c.dims);
  core_forward(c.dims, c.options(), in, core.all());
  ref::sdpa_forward(c.dims, c.options(), in.q.data(), in.k.data(), in.v.data(), ref.all());
  expect_close(core.out, ref.out, kAtol, kRtol, c.name + " out");
  expect_close(core.lse, ref.lse, kAtol, kRtol, c.name + " lse");
  expect_close(core.weights, ref.weights, kAtol, kRtol, c.name + " weights");
  expect_close(core.scores, ref.scores, kAtol, kRtol, c.name + " scores");
  expect_close(core.softcapped, ref.softcapped, kAtol, kRtol, c.name + " softcapped");
  expect_close(core.masked, ref.masked, kAtol, kRtol,
               c.name + " masked");  // -inf (or fill) exactly where masked
}

TEST_P(SdpaTable, AskingForTheTraceDoesNotChangeTheOutputBitForBit) {
  const AttentionCase& c = GetParam();
  const AttentionInputs in(c);
  Forward streaming(c.dims), traced(c.dims);
  core_forward(c.dims, c.options(), in, streaming.out_only());
  core_forward(c.dims, c.options(), in, traced.all());
  expect_close(streaming.out, traced.out, 0, 0, c.name + " out with and without trace");
}

TEST_P(SdpaTable, RowsWithNothingVisibleGiveExactZerosMinusInfinityLseAndNoNaN) {
  const AttentionCase& c = GetParam();
  const AttentionInputs in(c);
  const AttentionDims& d = c.dims;
  const SdpaOptions opt = c.options();
  Forward f(d);
  core_forward(d, opt, in, f.all());
  const Grads g = core_backward(d, opt, in);
  for (const std::vector<float>* x : std::initializer_list<const std::vector<float>*>{
           &f.out, &f.weights, &f.scores, &f.softcapped, &f.masked, &f.lse, &g.dq, &g.dk, &g.dv})
    EXPECT_TRUE(test::no_nan(x->data(), x->size())) << c.name;
  if (opt.mask.use_fill) return;  // in d2l mode every row sees (filled) keys
  for (int b = 0; b < d.B; ++b)
    for (int h = 0; h < d.H; ++h)
      for (int i = 0; i < d.Tq; ++i) {
        if (!test::row_sees_nothing(opt.mask, d.Tq, d.Tk, b, h, i)) continue;
        const std::size_t row = (std::size_t(b) * d.H + h) * d.Tq + i;
        const std::string where =
            c.name + " row b=" + std::to_string(b) + " h=" + std::to_string(h) + " i=" + std::to_string(i);
        EXPECT_EQ(f.lse[row], -kInf) << where;
        for (int x = 0; x < d.dv; ++x) EXPECT_EQ(f.out[row * d.dv + x], 0.0f) << where;
        for (int j = 0; j < d.Tk; ++j) EXPECT_EQ(f.weights[row * d.Tk + j], 0.0f) << where;
        for (int x = 0; x < d.d; ++x) EXPECT_EQ(g.dq[row * d.d + x], 0.0f) << where;
      }
}

TEST_P(SdpaTable, BackwardMatchesTheFloat64Reference) {
  const AttentionCase& c = GetParam();
  const AttentionInputs in(c);
  const Grads core = core_backward(c.dims, c.options(), in), ref = ref_backward(c.dims, c.options(), in);
  expect_close(core.dq, ref.dq, kGradAtol, kGradRtol, c.name + " dq");
  expect_close(core.dk, ref.dk, kGradAtol, kGradRtol, c.name + " dk");
  expect_close(core.dv, ref.dv, kGradAtol, kGradRtol, c.name + " dv");
}

// Central differences of loss = sum(out * R) with R = in.dout, through `forward`, at up to 24
// elements of each of q, k and v, against the analytic gradient `grads`.
template <class ForwardFn>
void expect_gradients_match_finite_differences(const AttentionCase& c, AttentionInputs in, const Grads& grads,
                                               double eps, double atol, double rtol, ForwardFn forward) {
  std::vector<float> out(c.dims.out_size());
  auto loss = [&] {
    forward(in, out.data());
    return test::dot_loss(out, in.dout);
  };
  const struct {
    std::vector<float>* x;
    const std::vector<float>* analytic;
    const char* name;
  } tensors[] = {{&in.q, &grads.dq, "dq"}, {&in.k, &grads.dk, "dk"}, {&in.v, &grads.dv, "dv"}};
  for (const auto& t : tensors) {
    std::vector<float> numeric, analytic;
    for (std::size_t at : test::spread_indices(t.x->size(), 24)) {
      numeric.push_back(float(test::fd_partial(*t.x, at, eps, loss)));
      analytic.push_back((*t.analytic)[at]);
    }
    expect_close(analytic, numeric, atol, rtol, c.name + " " + t.name + " vs finite differences (sampled)");
  }
}

// The reference computes in double but returns float outputs, so the loss carries rounding of
// ~3e-8 |out| per element: with eps = 1e-2 that is ~1e-6 of noise in the slope, and the central
// difference's truncation error eps^2 / 6 * f''' is a few 1e-6 for these O(1) scores (seen: worst
// 4.2e-6). 2e-5 + 2e-4 relative covers both with margin; a wrong term in a gradient is O(0.01+).
TEST_P(SdpaTable, ReferenceBackwardMatchesFiniteDifferences) {
  const AttentionCase& c = GetParam();
  const AttentionInputs in(c);
  const SdpaOptions opt = c.options();
  expect_gradients_match_finite_differences(
      c, in, ref_backward(c.dims, opt, in), 1e-2, 2e-5, 2e-4, [&](const AttentionInputs& x, float* out) {
        ref::sdpa_forward(c.dims, opt, x.q.data(), x.k.data(), x.v.data(), {out});
      });
}

// Float32 end to end: the core's outputs carry a few ulp (~2e-7 |out|) each, which eps = 1e-2
// turns into ~1e-5 of noise in the slope (a smaller eps means more noise, a larger one more
// truncation); truncation as above (seen: worst 1.4e-5). Hence 5e-5 + 5e-4 relative.
TEST_P(SdpaTable, CoreBackwardMatchesFiniteDifferencesInFloat32) {
  const AttentionCase& c = GetParam();
  const AttentionInputs in(c);
  const SdpaOptions opt = c.options();
  expect_gradients_match_finite_differences(
      c, in, core_backward(c.dims, opt, in), 1e-2, 5e-5, 5e-4,
      [&](const AttentionInputs& x, float* out) { core_forward(c.dims, opt, x, {out}); });
}

INSTANTIATE_TEST_SUITE_P(Cases, SdpaTable, ::testing::ValuesIn(test::attention_cases()), test::case_name);
INSTANTIATE_TEST_SUITE_P(WidthSweep, SdpaTable, ::testing::ValuesIn(test::width_sweep_cases()),
                         test::case_name);

// ---- single behaviours ----

// seed 004: X = [[1,2],[0,1],[3,1]], Wq = I, Wk = [[1,1],[0,1]], Wv = [[1,0],[1,1]], scale 1/sqrt(2):
// Q = X, K = X Wk, V = X Wv. The expected numbers are docs/semantics.md's (4 and 3 decimals).
TEST(Sdpa, SeedExample004GivesTheWorkedWeightsAndOutputWithAndWithoutItsCausalMask) {
  const AttentionDims dims{1, 1, 1, 3, 3, 2, 2};
  AttentionInputs in(test::AttentionCase{"seed004", dims});
  in.q = {1, 2, 0, 1, 3, 1};
  in.k = {1, 3, 0, 1, 3, 4};
  in.v = {3, 2, 1, 1, 4, 1};
  SdpaOptions opt;
  opt.scale = 1.0f / std::sqrt(2.0f);
  Forward f(dims);
  core_forward(dims, opt, in, f.all());
  expect_close(f.weights, {0.0557f, 0.0016f, 0.9427f, 0.3057f, 0.0743f, 0.6200f, 0.0070f, 0.0002f, 0.9928f},
               5e-5, 0, "seed 004 weights (printed to 4 decimals)");
  expect_close(f.out, {3.939f, 1.056f, 3.471f, 1.306f, 3.992f, 1.007f}, 5e-4, 0, "seed 004 out (3 decimals)");
  opt.mask.causal = Causal::top_left;
  core_forward(dims, opt, in, f.all());
  expect_close(f.out, {3.0f, 2.0f, 2.609f, 1.804f, 3.992f, 1.007f}, 5e-4, 0,
               "seed 004 causal out (3 decimals)");
}

TEST(Sdpa, FullyMaskedRowGivesZeroOutputAndZeroGradient) {
  // Batch 0 has valid length 0: nothing visible in any of its rows; batch 1 sees two keys.
  test::AttentionCase c{"fully_masked", {2, 2, 2, 3, 4, 3, 2}, test::MaskSetup().lens({0, 2})};
  const AttentionInputs in(c);
  const SdpaOptions opt = c.options();
  Forward f(c.dims);
  core_forward(c.dims, opt, in, f.all());
  const Grads g = core_backward(c.dims, opt, in);
  const std::size_t rows0 = std::size_t(c.dims.H) * c.dims.Tq;  // the rows of batch 0
  for (std::size_t r = 0; r < rows0; ++r) {
    EXPECT_EQ(f.lse[r], -kInf);
    for (int x = 0; x < c.dims.dv; ++x) EXPECT_EQ(f.out[r * c.dims.dv + x], 0.0f);
    for (int j = 0; j < c.dims.Tk; ++j) {
      EXPECT_EQ(f.weights[r * c.dims.Tk + j], 0.0f);
      EXPECT_EQ(f.masked[r * c.dims.Tk + j], -kInf);
    }
    for (int x = 0; x < c.dims.d; ++x) EXPECT_EQ(g.dq[r * c.dims.d + x], 0.0f);
  }
  for (std::size_t x = 0; x < c.dims.k_size() / 2; ++x) EXPECT_EQ(g.dk[x], 0.0f);  // batch 0's keys
  for (std::size_t x = 0; x < c.dims.v_size() / 2; ++x) EXPECT_EQ(g.dv[x], 0.0f);
  EXPECT_NE(f.out[rows0 * c.dims.dv], 0.0f);  // batch 1 is not affected
}

TEST(Sdpa, D2lFillModeGivesUniformWeightsAndTheMeanValueWhenNothingIsVisible) {
  // valid length 0 with fill -1e6: every key gets the same score, so P = 1 / Tk and out = mean(v).
  test::AttentionCase c{"d2l", {1, 1, 1, 2, 5, 3, 4}, test::MaskSetup().lens({0}).with_fill()};
  const AttentionInputs in(c);
  Forward f(c.dims);
  core_forward(c.dims, c.options(), in, f.all());
  std::vector<float> mean_v(c.dims.dv, 0.0f);
  for (int j = 0; j < c.dims.Tk; ++j)
    for (int x = 0; x < c.dims.dv; ++x) mean_v[x] += in.v[j * c.dims.dv + x] / c.dims.Tk;
  for (int i = 0; i < c.dims.Tq; ++i) {
    expect_close(&f.weights[i * c.dims.Tk], std::vector<float>(c.dims.Tk, 0.2f).data(), c.dims.Tk, 1e-7, 0,
                 "uniform weights (one rounding of 1/5)");
    expect_close(&f.out[i * c.dims.dv], mean_v.data(), c.dims.dv, 1e-6, 0,
                 "mean of v (float sums of 5 terms)");
    EXPECT_EQ(f.masked[i * c.dims.Tk], -1e6f);
  }
}

TEST(Sdpa, LargeScoresOfMagnitude1e4StayFiniteAndMatchTheReference) {
  // scale 1 and |q . k| up to ~1e4: a softmax without the max subtracted would overflow exp.
  test::AttentionCase c{"large", {1, 2, 2, 4, 6, 4, 3}, test::MaskSetup().with_causal(Causal::bottom_right)};
  c.scale = 1.0f;
  c.magnitude = 50.0f;
  const AttentionInputs in(c);
  Forward core(c.dims), ref(c.dims);
  core_forward(c.dims, c.options(), in, core.all());
  ref::sdpa_forward(c.dims, c.options(), in.q.data(), in.k.data(), in.v.data(), ref.all());
  for (float x : core.out) EXPECT_TRUE(std::isfinite(x));
  for (float x : core.lse) EXPECT_TRUE(std::isfinite(x));
  // Scores near 1e4 hold float rounding of ~1e-3 absolute, which moves weights by ~1e-3 relative.
  expect_close(core.weights, ref.weights, 5e-3, 5e-3, "weights at scores ~1e4");
  expect_close(core.out, ref.out, 5e-3, 5e-3, "out at scores ~1e4");
  const Grads g = core_backward(c.dims, c.options(), in);
  for (const std::vector<float>* x : {&g.dq, &g.dk, &g.dv}) EXPECT_TRUE(test::no_nan(x->data(), x->size()));
}

test::AttentionCase dropout_case(float p, uint64_t seed) {
  test::AttentionCase c{"dropout", {2, 2, 2, 16, 64, 4, 64}};
  c.dropout = p;
  c.seed = seed;
  return c;
}

TEST(Sdpa, DropoutWithASeedIsDeterministicAndDependsOnTheSeed) {
  const auto c = dropout_case(0.3f, 42);
  const AttentionInputs in(c);
  Forward first(c.dims), again(c.dims), other(c.dims);
  core_forward(c.dims, c.options(), in, first.out_only());
  core_forward(c.dims, c.options(), in, again.out_only());
  core_forward(c.dims, dropout_case(0.3f, 43).options(), in, other.out_only());
  expect_close(again.out, first.out, 0, 0, "same seed, same output");
  EXPECT_FALSE(test::all_close(other.out, first.out, 1e-3, 0, "another seed"));
}

TEST(Sdpa, DropoutKeepsAboutOneMinusPOfTheWeightsEachRescaledByOneOverOneMinusP) {
  // With v = identity (dv = Tk), out[i][j] = P_ij * keep_ij / (1 - p): out / weights reads the mask.
  const float p = 0.3f;
  const auto c = dropout_case(p, 5);
  AttentionInputs in(c);
  const int Tk = c.dims.Tk;
  for (int b = 0; b < c.dims.B * c.dims.Hkv; ++b)
    for (int j = 0; j < Tk; ++j)
      for (int x = 0; x < Tk; ++x) in.v[(std::size_t(b) * Tk + j) * Tk + x] = j == x ? 1.0f : 0.0f;
  Forward f(c.dims);
  core_forward(c.dims, c.options(), in, f.all());
  std::size_t kept = 0;
  for (std::size_t e = 0; e < f.weights.size(); ++e) {
    const double ratio = f.out[e] / f.weights[e];
    const bool is_kept = ratio > 0.5;
    kept += is_kept;
    EXPECT_NEAR(ratio, is_kept ? 1.0 / (1.0 - p) : 0.0, 1e-5) << "element " << e;
  }
  // 8192 Bernoulli(0.7) draws: standard deviation 0.005; 0.025 is five of them.
  EXPECT_NEAR(double(kept) / f.weights.size(), 1.0 - p, 0.025);
}

TEST(Sdpa, ZeroDropoutEqualsNoDropoutBitForBit) {
  auto with_zero = dropout_case(0.0f, 1234), without = dropout_case(0.0f, 0);
  const AttentionInputs in(with_zero);
  Forward a(with_zero.dims), b(without.dims);
  core_forward(with_zero.dims, with_zero.options(), in, a.out_only());
  core_forward(without.dims, SdpaOptions{without.options().scale}, in, b.out_only());
  expect_close(a.out, b.out, 0, 0, "out");
  const Grads ga = core_backward(with_zero.dims, with_zero.options(), in);
  const Grads gb = core_backward(without.dims, SdpaOptions{without.options().scale}, in);
  expect_close(ga.dq, gb.dq, 0, 0, "dq");
  expect_close(ga.dk, gb.dk, 0, 0, "dk");
  expect_close(ga.dv, gb.dv, 0, 0, "dv");
}

TEST(Sdpa, ScratchGrowsWithTkNotWithTqTimesTk) {
  const AttentionDims small{1, 1, 1, 512, 512, 64, 64}, longer{1, 1, 1, 4096, 512, 64, 64};
  EXPECT_EQ(sdpa_scratch_floats(small), sdpa_scratch_floats(longer));
  // A few blocks, (d + dv + 3 Bc) rows of Br + 16 floats (18176 floats at d = 64), not one (Tq, Tk) matrix.
  EXPECT_LT(sdpa_scratch_floats(small), std::size_t(512) * 512 / 8);
}

}  // namespace
}  // namespace attnlab
