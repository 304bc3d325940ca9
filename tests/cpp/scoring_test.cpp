// Scoring functions (dot, scaled-dot, general, additive, concat): the core against the float64
// reference, forward and backward, over a table of shapes and masks; the core's backward against
// central finite differences of its own forward; and the d2l example of seed 001.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "attnlab/kernels.hpp"
#include "attnlab/scoring.hpp"
#include "gradient_check.hpp"
#include "reference.hpp"
#include "test_util.hpp"

namespace attnlab {
namespace {

using test::MaskSetup;

const char* scoring_name(Scoring s) {
  switch (s) {
    case Scoring::dot:
      return "dot";
    case Scoring::scaled_dot:
      return "scaled_dot";
    case Scoring::general:
      return "general";
    case Scoring::additive:
      return "additive";
    case Scoring::concat:
      return "concat";
  }
  return "?";
}

bool uses_dot_product(Scoring s) { return s == Scoring::dot || s == Scoring::scaled_dot; }

// One row of the table: shapes and mask; dk is the key width for the scorings that allow dk != dq
// (dot and scaled-dot use dk = dq). scale 0 means the scoring's default.
struct ShapeCase {
  std::string name;
  int B, H, Hkv, Tq, Tk, dq, dk, dv, hidden;
  MaskSetup mask;
  float scale = 0.0f;
};

// Everything one scoring call needs, owned.
struct Problem {
  ScoringDims dims;
  Scoring scoring;
  float scale;
  MaskSetup mask;
  std::vector<float> q, k, v, dout;
  std::vector<float> w, wq, wk, wv;  // only the ones the scoring reads are non-empty

  ScoringOptions options() const {
    ScoringOptions o;
    o.scoring = scoring;
    o.scale = scale;
    o.mask = mask.spec();
    return o;
  }
  ScoringParams params() const {
    ScoringParams p;
    if (!w.empty()) p.w = w.data();
    if (!wq.empty()) {
      p.wq = wq.data();
      p.wk = wk.data();
      p.wv = wv.data();
    }
    return p;
  }
  std::size_t scores_size() const { return std::size_t(dims.B) * dims.H * dims.Tq * dims.Tk; }
  std::size_t out_size() const { return std::size_t(dims.B) * dims.H * dims.Tq * dims.dv; }
};

Problem make_problem(Scoring scoring, const ShapeCase& c, uint32_t seed) {
  Problem p;
  const int dk = uses_dot_product(scoring) ? c.dq : c.dk;
  p.dims = {c.B, c.H, c.Hkv, c.Tq, c.Tk, c.dq, dk, c.dv, scoring == Scoring::additive ? c.hidden : 0};
  p.scoring = scoring;
  p.scale = c.scale != 0.0f ? c.scale : scoring == Scoring::scaled_dot ? 1.0f / std::sqrt(float(c.dq)) : 1.0f;
  p.mask = c.mask;
  p.q = test::random_uniform(std::size_t(c.B) * c.H * c.Tq * c.dq, seed + 1);
  p.k = test::random_uniform(std::size_t(c.B) * c.Hkv * c.Tk * dk, seed + 2);
  p.v = test::random_uniform(std::size_t(c.B) * c.Hkv * c.Tk * c.dv, seed + 3);
  p.dout = test::random_uniform(p.out_size(), seed + 4);
  // Parameter ranges keep scores O(1) (no saturated tanh, no one-hot softmax), so every gradient is alive.
  if (scoring == Scoring::general) p.w = test::random_uniform(std::size_t(c.dq) * dk, seed + 5, -0.7f, 0.7f);
  if (scoring == Scoring::concat) p.w = test::random_uniform(std::size_t(c.dq + dk), seed + 5);
  if (scoring == Scoring::additive) {
    p.wq = test::random_uniform(std::size_t(c.dq) * c.hidden, seed + 6, -0.8f, 0.8f);
    p.wk = test::random_uniform(std::size_t(dk) * c.hidden, seed + 7, -0.8f, 0.8f);
    p.wv = test::random_uniform(std::size_t(c.hidden), seed + 8);
  }
  return p;
}

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

struct Forward {
  std::vector<float> out, weights, scores, masked;
};

// Outputs and scratch start as NaN: anything the core forgets to write, or reads before writing, shows.
Forward core_forward(const Problem& p) {
  Forward f{std::vector<float>(p.out_size(), kNaN), std::vector<float>(p.scores_size(), kNaN),
            std::vector<float>(p.scores_size(), kNaN), std::vector<float>(p.scores_size(), kNaN)};
  std::vector<float> scratch(scoring_scratch_floats(p.dims, p.scoring), kNaN);
  scoring_forward(p.dims, p.options(), p.params(), p.q.data(), p.k.data(), p.v.data(),
                  {f.out.data(), f.weights.data(), f.scores.data(), f.masked.data()}, scratch.data());
  return f;
}

std::vector<float> core_output(const Problem& p) {
  std::vector<float> out(p.out_size(), kNaN);
  std::vector<float> scratch(scoring_scratch_floats(p.dims, p.scoring), kNaN);
  ScoringForwardOutputs o;
  o.out = out.data();
  scoring_forward(p.dims, p.options(), p.params(), p.q.data(), p.k.data(), p.v.data(), o, scratch.data());
  return out;
}

Forward ref_forward(const Problem& p) {
  Forward f{std::vector<float>(p.out_size()), std::vector<float>(p.scores_size()),
            std::vector<float>(p.scores_size()), std::vector<float>(p.scores_size())};
  ref::scoring_forward(p.dims, p.options(), p.params(), p.q.data(), p.k.data(), p.v.data(),
                       {f.out.data(), f.weights.data(), f.scores.data(), f.masked.data()});
  return f;
}

// Gradients shaped like the problem's inputs; parameter gradients only where the scoring has them.
struct Grads {
  std::vector<float> dq, dk, dv, dw, dwq, dwk, dwv;
};

Grads empty_grads(const Problem& p) {
  return {std::vector<float>(p.q.size(), kNaN),  std::vector<float>(p.k.size(), kNaN),
          std::vector<float>(p.v.size(), kNaN),  std::vector<float>(p.w.size(), kNaN),
          std::vector<float>(p.wq.size(), kNaN), std::vector<float>(p.wk.size(), kNaN),
          std::vector<float>(p.wv.size(), kNaN)};
}

ScoringGrads grad_pointers(Grads& g) {
  ScoringGrads s;
  if (!g.dw.empty()) s.dw = g.dw.data();
  if (!g.dwq.empty()) {
    s.dwq = g.dwq.data();
    s.dwk = g.dwk.data();
    s.dwv = g.dwv.data();
  }
  return s;
}

Grads core_backward(const Problem& p) {
  Grads g = empty_grads(p);
  std::vector<float> scratch(scoring_scratch_floats(p.dims, p.scoring), kNaN);
  scoring_backward(p.dims, p.options(), p.params(), p.q.data(), p.k.data(), p.v.data(), p.dout.data(),
                   g.dq.data(), g.dk.data(), g.dv.data(), grad_pointers(g), scratch.data());
  return g;
}

Grads ref_backward(const Problem& p) {
  Grads g = empty_grads(p);
  ref::scoring_backward(p.dims, p.options(), p.params(), p.q.data(), p.k.data(), p.v.data(), p.dout.data(),
                        g.dq.data(), g.dk.data(), g.dv.data(), grad_pointers(g));
  return g;
}

std::vector<test::NamedGrad> named_grads(Problem& p, const Grads& g) {
  std::vector<test::NamedGrad> all{{"dq", &p.q, &g.dq}, {"dk", &p.k, &g.dk}, {"dv", &p.v, &g.dv}};
  if (!p.w.empty()) all.push_back({"dw", &p.w, &g.dw});
  if (!p.wq.empty()) {
    all.push_back({"dwq", &p.wq, &g.dwq});
    all.push_back({"dwk", &p.wk, &g.dwk});
    all.push_back({"dwv", &p.wv, &g.dwv});
  }
  return all;
}

const test::BackwardUnderTest<Problem, Grads> kScoringBackward{core_backward, ref_backward, named_grads,
                                                               core_output};

// ---- the table ----

std::vector<ShapeCase> shape_cases() {
  std::vector<ShapeCase> c;
  c.push_back({"one_head_odd_sizes_no_mask", 1, 1, 1, 3, 5, 3, 4, 5, 7, MaskSetup{}});
  c.push_back({"grouped_query_heads_4_over_2_with_valid_lens_per_batch", 2, 4, 2, 4, 6, 5, 3, 3, 4,
               MaskSetup{}.lens({6, 2})});
  c.push_back({"valid_lens_per_row_with_a_fully_masked_row", 2, 2, 1, 3, 4, 3, 2, 2, 3,
               MaskSetup{}.lens({0, 2, 4, 1, 3, 9}, true)});
  c.push_back({"causal_top_left", 1, 2, 2, 5, 5, 4, 3, 3, 5, MaskSetup{}.with_causal(Causal::top_left)});
  c.push_back({"causal_bottom_right_with_fewer_queries_than_keys", 2, 1, 1, 3, 6, 2, 5, 4, 3,
               MaskSetup{}.with_causal(Causal::bottom_right)});
  c.push_back({"bool_attn_mask_broadcast_over_heads", 2, 3, 1, 4, 5, 3, 3, 2, 4,
               MaskSetup{}.random_bool({2, 1, 4, 5}, 11)});
  c.push_back({"float_attn_mask_with_minus_infinity_broadcast_over_batch_and_heads", 2, 2, 2, 3, 7, 4, 2, 3,
               3, MaskSetup{}.random_float({3, 7}, 12)});
  c.push_back({"d2l_fill_with_a_zero_valid_length_gives_a_uniform_row", 2, 1, 1, 2, 5, 3, 4, 2, 4,
               MaskSetup{}.lens({0, 3}).with_fill()});
  c.push_back({"bool_mask_valid_lens_and_causal_intersect", 2, 2, 1, 5, 5, 3, 3, 3, 3,
               MaskSetup{}.lens({4, 5}).with_causal(Causal::top_left).random_bool({5, 5}, 13, 0.8)});
  c.push_back({"explicit_scale_multiplies_every_score", 1, 2, 1, 4, 3, 3, 5, 2, 6, MaskSetup{}, 0.37f});
  c.push_back({"sliding_window_with_grouped_heads_and_valid_lens", 2, 4, 2, 5, 6, 3, 3, 2, 4,
               MaskSetup{}.with_window(2, 1).lens({6, 3})});
  c.push_back({"alibi_with_a_window_and_a_bool_mask", 1, 2, 1, 4, 6, 3, 4, 3, 3,
               MaskSetup{}.with_alibi({0.5f, 0.125f}).with_window(-1, 0).random_bool({4, 6}, 15, 0.8)});
  c.push_back({"alibi_with_d2l_fill_and_a_zero_valid_length", 2, 1, 1, 3, 5, 3, 4, 2, 4,
               MaskSetup{}.with_alibi({0.3f}).lens({0, 4}).with_fill()});
  // Key counts past the vector width W, so the additive kernels' vector loops (lanes over keys)
  // run, with rows cut inside, at and past a vector by the valid lengths and the causal limit.
  const int W = kernels::width();
  c.push_back({"keys_across_three_vector_widths_with_grouped_heads_and_valid_lens_per_row", 1, 4, 2, 3,
               3 * W + 1, 5, 4, 3, 6, MaskSetup{}.lens({0, W + 1, 3 * W + 1}, true)});
  c.push_back({"causal_over_two_vector_widths_with_a_bool_mask", 1, 1, 1, 2 * W + 3, 2 * W + 3, 3, 4, 2, 5,
               MaskSetup{}.with_causal(Causal::top_left).random_bool({2 * W + 3, 2 * W + 3}, 14, 0.8)});
  return c;
}

struct Case {
  Scoring scoring;
  ShapeCase shape;
};

std::string case_name(const Case& c) { return std::string(scoring_name(c.scoring)) + "_" + c.shape.name; }

// gtest prints a failing parameter with this instead of its bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << case_name(c); }

std::vector<Case> every_scoring_on_every_shape() {
  std::vector<Case> all;
  for (Scoring s : {Scoring::dot, Scoring::scaled_dot, Scoring::general, Scoring::additive, Scoring::concat})
    for (const ShapeCase& shape : shape_cases()) all.push_back({s, shape});
  return all;
}

class ScoringTable : public ::testing::TestWithParam<Case> {
 protected:
  Problem problem() const {
    return make_problem(GetParam().scoring, GetParam().shape, 1000 + 16 * uint32_t(GetParam().scoring));
  }
};

// Core (float32, SIMD or scalar) vs float64 reference: both round only at storage, so they differ
// by float32 accumulation error over a few dozen O(1) terms plus the exp/tanh kernels' relative
// error: measured at most 5e-7 on this table (both builds). 2e-6 keeps a 4x margin and is far
// below what any wrong term or factor does to an O(0.1..1) result.
constexpr double kForwardTol = 2e-6;
// Gradients chain two more products (dP = dO v^T, then sums over Tk or Tq rows for dq, dk, dW) and
// the cancellation in dP - D: measured at most 5e-7 too, allowed 5e-6.
constexpr double kBackwardTol = 5e-6;

TEST_P(ScoringTable, ForwardMatchesTheFloat64ReferenceIncludingTheTrace) {
  const Problem p = problem();
  const Forward core = core_forward(p), ref = ref_forward(p);
  test::expect_close(core.out, ref.out, kForwardTol, kForwardTol, "out");
  test::expect_close(core.weights, ref.weights, kForwardTol, kForwardTol, "weights");
  test::expect_close(core.scores, ref.scores, kForwardTol, kForwardTol, "scores");
  test::expect_close(core.masked, ref.masked, kForwardTol, kForwardTol, "masked");
}

TEST_P(ScoringTable, BackwardMatchesTheFloat64Reference) {
  test::expect_backward_matches_reference(problem(), kScoringBackward, kBackwardTol, kBackwardTol);
}

// Central differences of the core's own forward, loss = sum(out * dout). With eps = 1e-2 the
// truncation error is eps^2 / 6 * |third derivative| ~ 2e-5 * O(1..10), and float32 rounding of the
// loss (|loss| ~ 10, relative 1e-7 per output) divided by 2 eps adds ~5e-5: measured at most 6.5e-5.
// Tolerance 3e-4 + 3e-3 relative: a 1% error in any gradient of size O(0.1) already fails.
TEST_P(ScoringTable, BackwardMatchesFiniteDifferencesOfTheForward) {
  test::expect_backward_matches_finite_differences(problem(), kScoringBackward, 1e-2, 3e-4, 3e-3);
}

TEST_P(ScoringTable, FullyMaskedRowsAreZeroAndNothingIsNaN) {
  const Problem p = problem();
  const Forward f = core_forward(p);
  EXPECT_TRUE(test::no_nan(f.out.data(), f.out.size()));
  EXPECT_TRUE(test::no_nan(f.weights.data(), f.weights.size()));
  const Grads g = core_backward(p);
  EXPECT_TRUE(test::no_nan(g.dq.data(), g.dq.size()));
  EXPECT_TRUE(test::no_nan(g.dk.data(), g.dk.size()));
  EXPECT_TRUE(test::no_nan(g.dv.data(), g.dv.size()));
  // A row whose masked scores are all -inf must have zero weights and a zero output row.
  const int Tk = p.dims.Tk, dv = p.dims.dv;
  for (std::size_t row = 0; row * Tk < f.masked.size(); ++row) {
    bool nothing_visible = true;
    for (int j = 0; j < Tk; ++j) nothing_visible = nothing_visible && std::isinf(f.masked[row * Tk + j]);
    if (!nothing_visible) continue;
    for (int j = 0; j < Tk; ++j) EXPECT_EQ(f.weights[row * Tk + j], 0.0f) << "row " << row << " key " << j;
    for (int c = 0; c < dv; ++c) EXPECT_EQ(f.out[row * dv + c], 0.0f) << "row " << row << " column " << c;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryScoringOnEveryShape, ScoringTable,
                         ::testing::ValuesIn(every_scoring_on_every_shape()),
                         [](const ::testing::TestParamInfo<Case>& info) { return case_name(info.param); });

// ---- seed 001 (d2l): identical keys make the weights uniform over the valid keys ----

// keys all ones (2, 10, 2), values arange(40) as (1, 10, 4) repeated twice, valid lens [2, 6]:
// the output is the mean of the first 2 (resp. 6) value rows whatever the queries and weights.
struct D2lExample {
  std::vector<float> keys = std::vector<float>(2 * 10 * 2, 1.0f);
  std::vector<float> values;
  MaskSetup mask = MaskSetup{}.lens({2, 6}).with_fill(-1e6f);  // d2l's masked_softmax fills with -1e6
  D2lExample() {
    for (int b = 0; b < 2; ++b)
      for (int n = 0; n < 40; ++n) values.push_back(float(n));
  }
};

// Mean of rows 0..1 of arange(40).reshape(10, 4) is [2, 3, 4, 5]; of rows 0..5 it is [10, 11, 12, 13].
// The 1/6 weights are inexact in float32, so the sum of six rows carries ~1e-6 error (d2l prints
// 12.000001): tolerance 1e-5.
const std::vector<float> kD2lOutput{2, 3, 4, 5, 10, 11, 12, 13};

TEST(D2lExample, AdditiveAttentionGivesTheMeanOfTheValidValues) {
  const D2lExample ex;
  const ScoringDims dims{2, 1, 1, 1, 10, 20, 2, 4, 8};
  const auto queries = test::random_normal(2 * 1 * 20, 41);
  const auto wq = test::random_normal(20 * 8, 42), wk = test::random_normal(2 * 8, 43),
             wv = test::random_normal(8, 44);
  ScoringOptions opt;
  opt.scoring = Scoring::additive;
  opt.mask = ex.mask.spec();
  ScoringParams params;
  params.wq = wq.data();
  params.wk = wk.data();
  params.wv = wv.data();
  std::vector<float> out(8, kNaN), weights(20, kNaN);
  std::vector<float> scratch(scoring_scratch_floats(dims, Scoring::additive), kNaN);
  ScoringForwardOutputs o;
  o.out = out.data();
  o.weights = weights.data();
  scoring_forward(dims, opt, params, queries.data(), ex.keys.data(), ex.values.data(), o, scratch.data());
  test::expect_close(out, kD2lOutput, 1e-5, 1e-6, "additive d2l output");
  std::vector<float> uniform(20, 0.0f);
  for (int j = 0; j < 2; ++j) uniform[j] = 0.5f;
  for (int j = 0; j < 6; ++j) uniform[10 + j] = 1.0f / 6.0f;
  test::expect_close(weights, uniform, 1e-7, 1e-6, "additive d2l weights");
}

TEST(D2lExample, ScaledDotProductAttentionGivesTheMeanOfTheValidValues) {
  const D2lExample ex;
  const ScoringDims dims{2, 1, 1, 1, 10, 2, 2, 4, 0};
  const auto queries = test::random_normal(2 * 1 * 2, 45);
  ScoringOptions opt;
  opt.scoring = Scoring::scaled_dot;
  opt.scale = 1.0f / std::sqrt(2.0f);
  opt.mask = ex.mask.spec();
  std::vector<float> out(8, kNaN);
  std::vector<float> scratch(scoring_scratch_floats(dims, Scoring::scaled_dot), kNaN);
  ScoringForwardOutputs o;
  o.out = out.data();
  scoring_forward(dims, opt, {}, queries.data(), ex.keys.data(), ex.values.data(), o, scratch.data());
  test::expect_close(out, kD2lOutput, 1e-5, 1e-6, "scaled-dot d2l output");
}

}  // namespace
}  // namespace attnlab
