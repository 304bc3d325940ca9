// Attention layers: the core against the float64 reference and against finite differences over a
// table of configurations (single head, grouped heads with an output projection, masks); the worked
// examples of seed 004 and seed 002 (corrected, docs/semantics.md); the SGD step; init_weights.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "attnlab/layer.hpp"
#include "gradient_check.hpp"
#include "reference.hpp"
#include "test_util.hpp"

namespace attnlab {
namespace {

using test::MaskSetup;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

struct LayerCase {
  std::string name;
  LayerDims dims;
  MaskSetup mask;
  std::optional<RopeOptions> rope = std::nullopt;  // rotary positions on q and k
};

void PrintTo(const LayerCase& c, std::ostream* os) { *os << c.name; }

// A layer call with everything it reads, owned. The default scale is 1/sqrt(d_q), as the JS layer resolves
// it.
struct LayerProblem {
  LayerDims d;
  MaskSetup mask;
  float scale = 1.0f;
  std::vector<float> x, wq, wk, wv, wo, dout;
  std::optional<RopeOptions> rope = std::nullopt;

  const RopeOptions* rope_options() const { return rope ? &*rope : nullptr; }
  SdpaOptions options() const {
    SdpaOptions o;
    o.scale = scale;
    o.mask = mask.spec();
    return o;
  }
  LayerWeights weights() const { return {wq.data(), wk.data(), wv.data(), wo.empty() ? nullptr : wo.data()}; }
  std::size_t out_size() const { return std::size_t(d.B) * d.T * d.out_width(); }
};

LayerProblem make_problem(const LayerCase& c, uint32_t seed) {
  const LayerDims& d = c.dims;
  LayerProblem p{d, c.mask, 1.0f / std::sqrt(float(d.d_q)), {}, {}, {}, {}, {}, {}, c.rope};
  p.x = test::random_uniform(std::size_t(d.B) * d.T * d.d_in, seed + 1);
  p.wq = test::random_uniform(std::size_t(d.d_in) * d.heads * d.d_q, seed + 2);
  p.wk = test::random_uniform(std::size_t(d.d_in) * d.kv_heads * d.d_q, seed + 3);
  p.wv = test::random_uniform(std::size_t(d.d_in) * d.kv_heads * d.d_v, seed + 4);
  if (d.d_out > 0) p.wo = test::random_uniform(std::size_t(d.heads) * d.d_v * d.d_out, seed + 5);
  p.dout = test::random_uniform(p.out_size(), seed + 6);
  return p;
}

// The state layer_forward saves, owned.
struct Saved {
  std::vector<float> q, k, v, heads;
  explicit Saved(const LayerDims& d) {
    const AttentionDims a = d.attention();
    q.assign(a.q_size(), kNaN);
    k.assign(a.k_size(), kNaN);
    v.assign(a.v_size(), kNaN);
    heads.assign(std::size_t(d.B) * d.T * d.heads * d.d_v, kNaN);
  }
  LayerSaved pointers() { return {q.data(), k.data(), v.data(), heads.data()}; }
};

// Outputs and scratch start as NaN, so anything not written (or read before written) shows.
std::vector<float> core_forward(const LayerProblem& p, Saved& saved,
                                const SdpaForwardOutputs* trace = nullptr) {
  std::vector<float> out(p.out_size(), kNaN), scratch(layer_scratch_floats(p.d), kNaN);
  layer_forward(p.d, p.weights(), p.options(), p.x.data(), out.data(), saved.pointers(), trace,
                scratch.data(), p.rope_options());
  return out;
}

std::vector<float> core_output(const LayerProblem& p) {
  Saved saved(p.d);
  return core_forward(p, saved);
}

struct LayerGradients {
  std::vector<float> dx, dwq, dwk, dwv, dwo;
  explicit LayerGradients(const LayerProblem& p)
      : dx(p.x.size(), kNaN),
        dwq(p.wq.size(), kNaN),
        dwk(p.wk.size(), kNaN),
        dwv(p.wv.size(), kNaN),
        dwo(p.wo.size(), kNaN) {}
  LayerGrads pointers() { return {dwq.data(), dwk.data(), dwv.data(), dwo.empty() ? nullptr : dwo.data()}; }
};

LayerGradients core_backward(const LayerProblem& p) {
  Saved saved(p.d);
  core_forward(p, saved);
  LayerGradients g(p);
  std::vector<float> scratch(layer_scratch_floats(p.d), kNaN);
  layer_backward(p.d, p.weights(), p.options(), p.x.data(), saved.pointers(), p.dout.data(), g.dx.data(),
                 g.pointers(), scratch.data(), p.rope_options());
  return g;
}

LayerGradients ref_backward(const LayerProblem& p) {
  LayerGradients g(p);
  ref::layer_backward(p.d, p.weights(), p.options(), p.x.data(), p.dout.data(), g.dx.data(), g.pointers(),
                      p.rope_options());
  return g;
}

std::vector<test::NamedGrad> named_grads(LayerProblem& p, const LayerGradients& g) {
  std::vector<test::NamedGrad> all{
      {"dx", &p.x, &g.dx}, {"dwq", &p.wq, &g.dwq}, {"dwk", &p.wk, &g.dwk}, {"dwv", &p.wv, &g.dwv}};
  if (!p.wo.empty()) all.push_back({"dwo", &p.wo, &g.dwo});
  return all;
}

const test::BackwardUnderTest<LayerProblem, LayerGradients> kLayerBackward{core_backward, ref_backward,
                                                                           named_grads, core_output};

// ---- the table ----

std::vector<LayerCase> layer_cases() {
  // LayerDims: B, T, d_in, d_q, d_v, heads, kv_heads, d_out
  return {
      {"single_head_without_output_projection", {2, 4, 3, 2, 3, 1, 1, 0}, MaskSetup{}},
      {"four_heads_over_two_kv_heads_with_output_projection_valid_lens_and_causal",
       {2, 5, 6, 3, 2, 4, 2, 5},
       MaskSetup{}.lens({5, 3}).with_causal(Causal::top_left)},
      {"two_heads_with_projection_and_a_fully_masked_row",
       {1, 3, 4, 2, 2, 2, 2, 3},
       MaskSetup{}.lens({0, 2, 3}, true)},
      {"multi_query_three_heads_over_one_kv_head_without_projection",
       {1, 4, 5, 3, 2, 3, 1, 0},
       MaskSetup{}.with_causal(Causal::top_left)},
      {"sliding_window_and_alibi_on_four_heads_over_two",
       {2, 6, 4, 3, 2, 4, 2, 3},
       MaskSetup{}.with_window(2, 0).with_alibi({0.25f, 0.0625f, 0.015625f, 0.00390625f})},
      {"rope_halves_on_four_heads_over_two_with_causal",
       {2, 5, 6, 4, 3, 4, 2, 5},
       MaskSetup{}.with_causal(Causal::top_left),
       RopeOptions{10000.0, 0.0, false}},
      {"rope_pairs_multi_query_with_a_window",
       {1, 6, 4, 6, 2, 3, 1, 0},
       MaskSetup{}.with_window(3, 0),
       RopeOptions{100.0, 0.0, true}},
  };
}

class LayerTable : public ::testing::TestWithParam<LayerCase> {
 protected:
  LayerProblem problem() const { return make_problem(GetParam(), 2000); }
};

// Core vs float64 reference: the projections are sums of d_in products and the attention adds the
// error measured in the scoring tests (< 1e-6); the output projection and the backward's extra
// products keep it at a few 1e-7 * O(1) values. 5e-6 leaves margin and still fails on any wrong term.
constexpr double kLayerTol = 5e-6;

TEST_P(LayerTable, ForwardMatchesTheFloat64Reference) {
  const LayerProblem p = problem();
  std::vector<float> ref(p.out_size());
  ref::layer_forward(p.d, p.weights(), p.options(), p.x.data(), ref.data(), p.rope_options());
  test::expect_close(core_output(p), ref, kLayerTol, kLayerTol, "out");
}

TEST_P(LayerTable, BackwardMatchesTheFloat64Reference) {
  test::expect_backward_matches_reference(problem(), kLayerBackward, kLayerTol, kLayerTol);
}

// Central differences (eps 1e-2) of the core's forward, loss = sum(out * dout): truncation
// eps^2 / 6 * O(1..10) plus float32 loss rounding over 2 eps, measured at most 5e-5; the same
// budget as the scoring tests, 3e-4 + 3e-3 relative, with gradients of size O(0.1..1).
TEST_P(LayerTable, BackwardMatchesFiniteDifferencesOfTheForward) {
  test::expect_backward_matches_finite_differences(problem(), kLayerBackward, 1e-2, 3e-4, 3e-3);
}

INSTANTIATE_TEST_SUITE_P(LayerConfigurations, LayerTable, ::testing::ValuesIn(layer_cases()),
                         [](const ::testing::TestParamInfo<LayerCase>& info) { return info.param.name; });

// ---- seed 004: X = [[1,2],[0,1],[3,1]], Wq = I, Wk = [[1,1],[0,1]], Wv = [[1,0],[1,1]], scale 1/sqrt(2)
// ----

LayerProblem seed004(Causal causal) {
  LayerProblem p;
  p.d = {1, 3, 2, 2, 2, 1, 1, 0};
  p.mask.causal = causal;
  p.scale = 1.0f / std::sqrt(2.0f);
  p.x = {1, 2, 0, 1, 3, 1};
  p.wq = {1, 0, 0, 1};
  p.wk = {1, 1, 0, 1};
  p.wv = {1, 0, 1, 1};
  p.dout = {0.5f, -1.0f, 0.25f, 0.75f, -0.5f, 1.0f};
  return p;
}

// One forward pass that also returns the softmax weights (B, H, T, T) from the trace.
struct TracedRun {
  std::vector<float> out, weights;
  Saved saved;
};

TracedRun run_with_weights(const LayerProblem& p) {
  TracedRun r{{}, std::vector<float>(p.d.attention().scores_size(), kNaN), Saved(p.d)};
  SdpaForwardOutputs trace;
  trace.weights = r.weights.data();
  r.out = core_forward(p, r.saved, &trace);
  return r;
}

// docs/semantics.md prints P to 4 decimals and out to 3: the tolerance is half a unit in the last
// printed digit (float32 error is far below it).
TEST(Seed004, TheLayerReproducesTheWeightsAndOutputOfTheWorkedExample) {
  const TracedRun r = run_with_weights(seed004(Causal::none));
  test::expect_close(r.weights,
                     {0.0557f, 0.0016f, 0.9427f, 0.3057f, 0.0743f, 0.6200f, 0.0070f, 0.0002f, 0.9928f}, 5e-5,
                     0, "P");
  test::expect_close(r.out, {3.939f, 1.056f, 3.471f, 1.306f, 3.992f, 1.007f}, 5e-4, 0, "out");
}

TEST(Seed004, WithItsCausalMaskTheFirstTokenSeesOnlyItself) {
  const TracedRun r = run_with_weights(seed004(Causal::top_left));
  test::expect_close(r.out, {3.0f, 2.0f, 2.609f, 1.804f, 3.992f, 1.007f}, 5e-4, 0, "out");
  EXPECT_EQ(r.weights[1], 0.0f);  // keys 1 and 2 are in the future of query 0
  EXPECT_EQ(r.weights[2], 0.0f);
  EXPECT_EQ(r.weights[5], 0.0f);  // key 2 is in the future of query 1
  EXPECT_EQ(r.weights[0], 1.0f);
}

TEST(Seed004, BackwardMatchesFiniteDifferencesWithAndWithoutTheCausalMask) {
  for (Causal causal : {Causal::none, Causal::top_left}) {
    SCOPED_TRACE(causal == Causal::none ? "no mask" : "causal");
    // Same budget as the table (3e-4 + 3e-3 relative); inputs here are O(1..3), so eps 1e-2 is small.
    test::expect_backward_matches_finite_differences(seed004(causal), kLayerBackward, 1e-2, 3e-4, 3e-3);
  }
}

// seed 004 trains with w -= lr * g. A small step along the exact gradient of
// L = 1/2 |out - target|^2 must lower L (first-order decrease lr |g|^2 dominates for small lr).
TEST(Seed004, AnSgdStepAfterBackwardLowersASquaredErrorLoss) {
  LayerProblem p = seed004(Causal::top_left);
  const std::vector<float> target{1, 0, 0, 1, 2, 2};
  auto loss = [&](const LayerProblem& q) {
    const std::vector<float> out = core_output(q);
    double l = 0.0;
    for (std::size_t i = 0; i < out.size(); ++i) l += 0.5 * (out[i] - target[i]) * (out[i] - target[i]);
    return l;
  };
  const double before = loss(p);
  const std::vector<float> out = core_output(p);
  for (std::size_t i = 0; i < out.size(); ++i) p.dout[i] = out[i] - target[i];  // dL/dout
  const LayerGradients g = core_backward(p);

  const std::vector<float> wq_before = p.wq;
  const float lr = 0.05f;
  sgd_step(p.wq.data(), g.dwq.data(), p.wq.size(), lr);
  sgd_step(p.wk.data(), g.dwk.data(), p.wk.size(), lr);
  sgd_step(p.wv.data(), g.dwv.data(), p.wv.size(), lr);
  const double after = loss(p);
  EXPECT_LT(after, before) << "loss before " << before << ", after " << after;

  // The step itself is w - lr g, up to the one rounding an FMA may save (1 ulp of O(1) values).
  std::vector<float> expected(wq_before.size());
  for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = wq_before[i] - lr * g.dwq[i];
  test::expect_close(p.wq, expected, 2.5e-7, 2.5e-7, "wq after the step");
}

// ---- seed 002, corrected: its printed Q, K, V and everything after them are wrong ----

TEST(Seed002, TheLayerGivesTheCorrectedNumbersNotTheOnesPrintedInTheText) {
  LayerProblem p;
  p.d = {1, 3, 4, 3, 3, 1, 1, 0};
  p.scale = 1.0f / std::sqrt(3.0f);
  p.x = {1, 0, 1, 0, 0, 2, 0, 2, 1, 1, 1, 1};
  p.wq = {1, 0, 1, 1, 0, 0, 0, 1, 0, 0, 1, 1};
  p.wk = {0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 0, 0};
  p.wv = {0, 0, 1, 1, 1, 0, 0, 1, 0, 1, 0, 1};
  const TracedRun r = run_with_weights(p);
  const Saved& saved = r.saved;

  // Integer products: exact in float32.
  EXPECT_EQ(saved.q, (std::vector<float>{1, 1, 1, 2, 2, 2, 2, 2, 2}));
  EXPECT_EQ(saved.k, (std::vector<float>{0, 2, 1, 4, 0, 2, 2, 2, 2}));
  EXPECT_EQ(saved.v, (std::vector<float>{0, 1, 1, 4, 2, 2, 2, 2, 2}));
  // The text prints Q row 1 as [1, 0, 1]; x_1 W^Q = W^Q row 0 + W^Q row 2 = [1, 1, 1].
  EXPECT_NE(std::vector<float>(saved.q.begin(), saved.q.begin() + 3), (std::vector<float>{1, 0, 1}));

  // Printed to 3 decimals in docs/semantics.md: half a unit in the last digit.
  test::expect_close(r.weights, {0.081f, 0.459f, 0.459f, 0.015f, 0.492f, 0.492f, 0.015f, 0.492f, 0.492f},
                     5e-4, 0, "P");
  test::expect_close(r.out, {2.756f, 1.919f, 1.919f, 2.954f, 1.985f, 1.985f, 2.954f, 1.985f, 1.985f}, 5e-4, 0,
                     "out");
}

// ---- the trace ----

TEST(LayerTrace, TheTraceHoldsTheScaledScoresAndTheMaskedScoresOfEveryHead) {
  LayerProblem p = make_problem(layer_cases()[1], 3000);
  Saved saved(p.d);
  const std::size_t n = p.d.attention().scores_size();
  std::vector<float> scores(n, kNaN), masked(n, kNaN), weights(n, kNaN);
  SdpaForwardOutputs trace;
  trace.scores = scores.data();
  trace.masked = masked.data();
  trace.weights = weights.data();
  const std::vector<float> out = core_forward(p, saved, &trace);
  // The reference sdpa on the saved per-head q, k, v gives the same (B, H, T, T) tensors.
  std::vector<float> ref_scores(n), ref_masked(n), ref_weights(n), ref_heads(p.d.attention().out_size());
  SdpaForwardOutputs ro;
  ro.out = ref_heads.data();
  ro.scores = ref_scores.data();
  ro.masked = ref_masked.data();
  ro.weights = ref_weights.data();
  ref::sdpa_forward(p.d.attention(), p.options(), saved.q.data(), saved.k.data(), saved.v.data(), ro);
  test::expect_close(scores, ref_scores, 2e-6, 2e-6, "trace scores");  // float32 dot of width d_q
  test::expect_close(masked, ref_masked, 2e-6, 2e-6, "trace masked");  // -inf entries must match exactly
  test::expect_close(weights, ref_weights, 2e-6, 2e-6, "trace weights");
}

// ---- init_weights ----

TEST(InitWeights, TheSameSeedAndStreamGiveTheSameWeightsAndOtherStreamsOrSeedsDiffer) {
  std::vector<float> a(12), b(12), other_stream(12), other_seed(12);
  init_weights(a.data(), 3, 4, 42, 0);
  init_weights(b.data(), 3, 4, 42, 0);
  init_weights(other_stream.data(), 3, 4, 42, 1);
  init_weights(other_seed.data(), 3, 4, 43, 0);
  EXPECT_EQ(a, b);
  int same_stream = 0, same_seed = 0;
  for (int i = 0; i < 12; ++i) {
    same_stream += a[i] == other_stream[i];
    same_seed += a[i] == other_seed[i];
  }
  EXPECT_EQ(same_stream, 0);
  EXPECT_EQ(same_seed, 0);
}

// The first values for (seed 42, stream 0 and 1, 3 x 4), computed independently in Python from the
// documented recipe (splitmix64 finaliser, 53-bit uniform, (2u - 1) * sqrt(6 / (fan_in + fan_out)),
// rounded once to float32). Bit-exact: every build (SIMD, scalar, wasm) must give these weights.
TEST(InitWeights, TheWeightsAreBitExactAcrossBuilds) {
  std::vector<float> w(12);
  init_weights(w.data(), 3, 4, 42, 0);
  EXPECT_EQ(w[0], -0x1.29218800p-2f);
  EXPECT_EQ(w[1], 0x1.b010e800p-1f);
  EXPECT_EQ(w[2], -0x1.9e1e2c00p-6f);
  init_weights(w.data(), 3, 4, 42, 1);
  EXPECT_EQ(w[0], 0x1.cd6bf000p-1f);
  EXPECT_EQ(w[1], -0x1.6aca7e00p-2f);
  EXPECT_EQ(w[2], 0x1.99863c00p-7f);
}

// Xavier/Glorot uniform: |w| <= sqrt(6 / (fan_in + fan_out)), mean 0, variance bound^2 / 3.
// With n = 64 * 48 = 3072 samples the standard error of the mean is bound / sqrt(3 n) ~ 0.01 bound
// and of the variance ~ 1.6%: tolerances of 5 standard errors.
TEST(InitWeights, TheWeightsAreXavierUniform) {
  const int fan_in = 64, fan_out = 48, n = fan_in * fan_out;
  std::vector<float> w(n);
  init_weights(w.data(), fan_in, fan_out, 7, 3);
  const double bound = std::sqrt(6.0 / (fan_in + fan_out));
  double sum = 0.0, sum_sq = 0.0;
  for (float x : w) {
    ASSERT_LE(std::fabs(x), bound);
    sum += x;
    sum_sq += double(x) * x;
  }
  const double mean = sum / n, variance = sum_sq / n - mean * mean;
  EXPECT_NEAR(mean, 0.0, 0.05 * bound);
  EXPECT_NEAR(variance / (bound * bound / 3.0), 1.0, 0.08);
}

}  // namespace
}  // namespace attnlab
