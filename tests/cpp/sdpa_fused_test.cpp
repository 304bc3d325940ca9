// The fused (blocked, online-softmax) sdpa path at sizes where blocking matters: Tq, Tk = 257 and
// 1000 (several blocks of queries and keys, with remainders) and a sweep of sizes around the block
// edges, with every mask kind, both causal alignments, GQA, softcap and odd widths. Each case is
// checked against the float64 reference and against the row-streaming path (SdpaKernel::row_streaming),
// forward (out, lse) and backward (dq, dk, dv), and the backward that reuses the forward's saved
// out and lse against the one that recomputes them.
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
using test::MaskSetup;

constexpr float kInf = std::numeric_limits<float>::infinity();

struct Forward {
  std::vector<float> out, lse;
  explicit Forward(const AttentionDims& dims) : out(dims.out_size()), lse(dims.rows()) {}
};

struct Grads {
  std::vector<float> dq, dk, dv;
  explicit Grads(const AttentionDims& dims) : dq(dims.q_size()), dk(dims.k_size()), dv(dims.v_size()) {}
};

SdpaOptions with_kernel(SdpaOptions opt, SdpaKernel kernel) {
  opt.kernel = kernel;
  return opt;
}

Forward core_forward(const AttentionCase& c, const AttentionInputs& in, SdpaKernel kernel) {
  Forward f(c.dims);
  std::vector<float> scratch(sdpa_scratch_floats(c.dims));  // exactly what it asks for (ASan checks)
  sdpa_forward(c.dims, with_kernel(c.options(), kernel), in.q.data(), in.k.data(), in.v.data(),
               {f.out.data(), f.lse.data()}, scratch.data());
  return f;
}

Grads core_backward(const AttentionCase& c, const AttentionInputs& in, SdpaKernel kernel,
                    const SdpaSavedForward& saved = {}) {
  Grads g(c.dims);
  std::vector<float> scratch(sdpa_scratch_floats(c.dims));
  sdpa_backward(c.dims, with_kernel(c.options(), kernel), in.q.data(), in.k.data(), in.v.data(),
                in.dout.data(), g.dq.data(), g.dk.data(), g.dv.data(), scratch.data(), saved);
  return g;
}

// Tolerances. Inputs: q, k uniform in [-1.5, 1.5], d <= 64, so |S| <= ~10 and float scores carry
// a few ulp; the fused path sums in another order than the reference (and than row streaming:
// blocks of keys, a running max that rescales the partial sums). Outputs are weighted means of
// v in [-1, 1] and lse ~ log Tk <= 7: measured worst errors (both builds, against either) were
// 2.4e-7 on out and 1.9e-6 on an lse of 7.1 (3e-7 relative). 2e-6 + 2e-5 relative, as in
// sdpa_test, still catches any wrong key (which moves out by >= 1e-4 on these inputs).
constexpr double kAtol = 2e-6, kRtol = 2e-5;
// Gradients sum up to 1000 products of those values: measured worst 4.3e-6 on a dv of about 9
// (5e-7 relative, most of it row streaming's own rounding; against the float64 reference 1.4e-6),
// 1e-6 on dk, 2.7e-7 on dq. 1e-5 + 1e-4 relative keeps a margin of several times and is still
// far below a missing or doubled term (>= 1e-3 on these inputs).
constexpr double kGradAtol = 1e-5, kGradRtol = 1e-4;

void expect_forward_matches(const AttentionCase& c, const Forward& actual, const Forward& expected,
                            const std::string& against) {
  expect_close(actual.out, expected.out, kAtol, kRtol, c.name + " out vs " + against);
  expect_close(actual.lse, expected.lse, kAtol, kRtol, c.name + " lse vs " + against);
}

void expect_grads_match(const AttentionCase& c, const Grads& actual, const Grads& expected,
                        const std::string& against) {
  expect_close(actual.dq, expected.dq, kGradAtol, kGradRtol, c.name + " dq vs " + against);
  expect_close(actual.dk, expected.dk, kGradAtol, kGradRtol, c.name + " dk vs " + against);
  expect_close(actual.dv, expected.dv, kGradAtol, kGradRtol, c.name + " dv vs " + against);
}

// ---- the cases ----

AttentionCase make(std::string name, AttentionDims dims, MaskSetup mask = {}, float softcap = 0.0f) {
  AttentionCase c{std::move(name), dims, std::move(mask)};
  c.softcap = softcap;
  return c;
}

std::vector<int32_t> lens_per_row(int B, int Tq, int Tk, uint32_t seed) {
  std::vector<int32_t> lens(std::size_t(B) * Tq);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> len(0, Tk + 3);  // includes 0 (nothing visible) and > Tk
  for (auto& l : lens) l = len(rng);
  return lens;
}

// Tq = Tk = 257 and 1000 (the sizes the speed issue names), and Tq != Tk, under every option.
// Under the sanitizers 1000 becomes 296: the same tails in key blocks of 64 and 32 (40 and 8 keys),
// 5 forward key blocks instead of 16, still more than 257 (the cases that pair the two), and 11x
// less work. At 1000 these cases took 57-79 s of the sanitized run's 70-88 s (the float64
// references, Zen 4), which CI waited for; at 424 still 35-44 s of 51-55 s (Xeon); memory errors
// depend on the paths and the tails, which stay, not on the number of blocks.
#if ATTNLAB_SANITIZED
constexpr int kLong = 296;
#else
constexpr int kLong = 1000;
#endif

std::vector<AttentionCase> large_cases() {
  using C = Causal;
  const int L = kLong;
  const std::string l = std::to_string(kLong);
  std::vector<AttentionCase> t;
  //                                                    B  H Hkv   Tq    Tk   d  dv
  t.push_back(make("full_257", {1, 2, 2, 257, 257, 16, 16}));
  t.push_back(make("full_" + l, {1, 2, 2, L, L, 16, 16}));
  t.push_back(make("causal_top_left_257", {1, 2, 2, 257, 257, 16, 16}, MaskSetup().with_causal(C::top_left)));
  t.push_back(make("causal_top_left_" + l, {1, 2, 1, L, L, 16, 16}, MaskSetup().with_causal(C::top_left)));
  t.push_back(
      make("causal_bottom_right_" + l, {1, 2, 2, L, L, 16, 16}, MaskSetup().with_causal(C::bottom_right)));
  t.push_back(make("causal_bottom_right_fewer_queries", {1, 2, 2, 257, L, 16, 16},
                   MaskSetup().with_causal(C::bottom_right)));
  t.push_back(make("causal_bottom_right_more_queries", {1, 2, 2, L, 257, 16, 16},
                   MaskSetup().with_causal(C::bottom_right)));
  t.push_back(
      make("causal_top_left_fewer_keys", {1, 2, 2, L, 257, 16, 16}, MaskSetup().with_causal(C::top_left)));
  t.push_back(make("valid_lens_per_batch_257", {3, 2, 2, 257, 257, 16, 16}, MaskSetup().lens({0, 130, 257})));
  t.push_back(make("valid_lens_per_row_odd_widths_257", {2, 2, 2, 257, 257, 13, 7},
                   MaskSetup().lens(lens_per_row(2, 257, 257, 3), true)));
  t.push_back(make("bool_mask_tq_tk_" + l, {1, 2, 2, L, L, 16, 16}, MaskSetup().random_bool({L, L}, 5, 0.6)));
  t.push_back(make("float_mask_b_h_tq_tk_257", {2, 2, 2, 257, 257, 16, 16},
                   MaskSetup().random_float({2, 2, 257, 257}, 6)));
  t.push_back(make("bool_mask_tk_with_causal_257", {1, 2, 2, 257, 257, 16, 16},
                   MaskSetup().random_bool({257}, 7, 0.8).with_causal(C::top_left)));
  t.push_back(make("grouped_query_4_over_2_softcap_" + l, {1, 4, 2, L, L, 16, 16},
                   MaskSetup().with_causal(C::top_left), 2.0f));
  t.push_back(make("softcap_float_mask_odd_widths_257", {1, 2, 1, 257, 300, 9, 11},
                   MaskSetup().random_float({257, 300}, 8), 1.5f));
  t.push_back(make("head_width_64_" + l, {1, 1, 1, L, L, 64, 64}, MaskSetup().with_causal(C::top_left)));
  // dv = 128: the forward reads V through a padded copy of each key block, the backward dO through a
  // padded copy of the query block's rows (sdpa_fused.cpp aliasing_stride).
  t.push_back(make("value_width_128_causal_257", {1, 2, 1, 257, 300, 16, 128},
                   MaskSetup().with_causal(C::bottom_right)));
  // d = dv = 128: the backward reads the query block's Q and dO through padded copies too.
  t.push_back(make("head_and_value_width_128_window_257", {1, 2, 1, 257, 300, 128, 128},
                   MaskSetup().with_window(90, 7)));
  t.push_back(make("window_causal_100_" + l, {1, 2, 2, L, L, 16, 16}, MaskSetup().with_window(100, 0)));
  t.push_back(make("window_both_sides_gqa_" + l, {1, 4, 2, L, L, 16, 16}, MaskSetup().with_window(70, 37)));
  t.push_back(
      make("window_fewer_queries_257_" + l, {1, 2, 2, 257, L, 16, 16}, MaskSetup().with_window(50, -1)));
  t.push_back(
      make("window_more_queries_" + l + "_257", {1, 2, 2, L, 257, 16, 16}, MaskSetup().with_window(90, 3)));
  t.push_back(make("window_softcap_valid_lens_257", {2, 2, 2, 257, 257, 16, 16},
                   MaskSetup().with_window(40, 40).lens(lens_per_row(2, 257, 257, 4), true), 1.5f));
  t.push_back(make("alibi_causal_" + l, {1, 2, 2, L, L, 16, 16},
                   MaskSetup().with_alibi({0.0625f, 0.00390625f}).with_causal(C::bottom_right)));
  t.push_back(make("alibi_window_float_mask_257", {1, 2, 1, 257, 300, 9, 11},
                   MaskSetup().with_alibi({0.03f, 0.2f}).with_window(60, 5).random_float({257, 300}, 9)));
  return t;
}

// Sizes around the block edges (forward blocks of 64 queries by 64 keys, backward blocks of 64
// queries by 32 keys: one less, equal, one more, and two blocks and a bit), under a bottom-right
// causal mask and sliding windows so the rows' limits and starts cross the key blocks at every
// offset, and GQA so heads share key blocks.
std::vector<AttentionCase> block_edge_cases() {
  std::vector<AttentionCase> t;
  for (int Tq : {1, 31, 32, 33, 63, 64, 65, 129})
    for (int Tk : {1, 31, 32, 33, 63, 64, 65, 129}) {
      const std::string name = "tq_" + std::to_string(Tq) + "_tk_" + std::to_string(Tk);
      t.push_back(make(name, {1, 2, 1, Tq, Tk, 5, 3}, MaskSetup().with_causal(Causal::bottom_right)));
      t.push_back(make(name + "_valid_lens", {2, 1, 1, Tq, Tk, 6, 9}, MaskSetup().lens({Tk / 2 + 1, Tk})));
      // A window whose edges cross the key blocks at every offset, and ALiBi on both sides of it.
      t.push_back(make(name + "_window", {1, 2, 1, Tq, Tk, 5, 3}, MaskSetup().with_window(Tk / 3, 2)));
      // Open on the right: a window the forward runs in 64-row blocks (narrow ones use 32).
      t.push_back(make(name + "_left_window", {1, 2, 1, Tq, Tk, 5, 3}, MaskSetup().with_window(Tk / 3, -1)));
      t.push_back(make(name + "_alibi_window", {1, 2, 2, Tq, Tk, 4, 5},
                       MaskSetup().with_alibi({0.125f, 0.5f}).with_window(33, 31)));
    }
  return t;
}

// Thin query blocks: a few queries, whose columns of S^T the forward runs up to a whole vector (4
// floats in wasm, 8 natively; the padding columns are zero queries whose results nobody reads), at
// and past the sizes the decode rule sends to the fused path, with masks cutting the key blocks.
std::vector<AttentionCase> thin_query_cases() {
  std::vector<AttentionCase> t;
  for (int Tq : {2, 3, 5, 6, 7, 9, 13, 23})
    for (int Tk : {1, 64, 65, 200}) {
      const std::string name = "thin_tq_" + std::to_string(Tq) + "_tk_" + std::to_string(Tk);
      t.push_back(make(name, {1, 2, 1, Tq, Tk, 5, 3}, MaskSetup().with_causal(Causal::bottom_right)));
      t.push_back(make(name + "_valid_lens", {2, 1, 1, Tq, Tk, 6, 9}, MaskSetup().lens({Tk / 2 + 1, Tk})));
      t.push_back(make(name + "_alibi_window", {1, 2, 2, Tq, Tk, 4, 5},
                       MaskSetup().with_alibi({0.125f, 0.5f}).with_window(33, 31)));
    }
  return t;
}

class FusedSdpa : public ::testing::TestWithParam<AttentionCase> {};

TEST_P(FusedSdpa, ForwardMatchesTheFloat64ReferenceAndRowStreaming) {
  const AttentionCase& c = GetParam();
  const AttentionInputs in(c);
  Forward ref(c.dims);
  ref::sdpa_forward(c.dims, c.options(), in.q.data(), in.k.data(), in.v.data(),
                    {ref.out.data(), ref.lse.data()});
  const Forward fused = core_forward(c, in, SdpaKernel::automatic);
  expect_forward_matches(c, fused, ref, "float64 reference");
  expect_forward_matches(c, fused, core_forward(c, in, SdpaKernel::row_streaming), "row streaming");
}

TEST_P(FusedSdpa, BackwardMatchesTheFloat64ReferenceAndRowStreaming) {
  const AttentionCase& c = GetParam();
  const AttentionInputs in(c);
  Grads ref(c.dims);
  ref::sdpa_backward(c.dims, c.options(), in.q.data(), in.k.data(), in.v.data(), in.dout.data(),
                     ref.dq.data(), ref.dk.data(), ref.dv.data());
  const Grads fused = core_backward(c, in, SdpaKernel::automatic);
  expect_grads_match(c, fused, ref, "float64 reference");
  expect_grads_match(c, fused, core_backward(c, in, SdpaKernel::row_streaming), "row streaming");
}

TEST_P(FusedSdpa, BackwardGivenTheSavedOutAndLseMatchesTheOneThatRecomputesThem) {
  const AttentionCase& c = GetParam();
  const AttentionInputs in(c);
  const Forward f = core_forward(c, in, SdpaKernel::automatic);
  const Grads saved = core_backward(c, in, SdpaKernel::automatic, {f.out.data(), f.lse.data()});
  // Same arithmetic except where a block's last key falls (it decides the vector / tail split of
  // the row sums): a few ulp at most, so the forward budget suffices.
  const Grads recomputed = core_backward(c, in, SdpaKernel::automatic);
  expect_close(saved.dq, recomputed.dq, kAtol, kRtol, c.name + " dq, saved vs recomputed");
  expect_close(saved.dk, recomputed.dk, kAtol, kRtol, c.name + " dk, saved vs recomputed");
  expect_close(saved.dv, recomputed.dv, kAtol, kRtol, c.name + " dv, saved vs recomputed");
}

// Its own suite, so the sanitized build can leave out its large cases: they make the same two calls
// on the same inputs as Forward- and BackwardMatchesTheFloat64Reference (so the sanitizers see the
// same memory accesses), and what they add is a check of values, which the Release build makes at
// full size. Under ASan+UBSan they took 11-20 s of a binary's 92-99 s (Xeon, 2026-11-27).
class FusedSdpaEmptyRows : public FusedSdpa {};

TEST_P(FusedSdpaEmptyRows, RowsThatSeeNothingGetZerosMinusInfinityLseAndZeroGradient) {
  const AttentionCase& c = GetParam();
  const AttentionInputs in(c);
  const SdpaOptions opt = c.options();
  const Forward f = core_forward(c, in, SdpaKernel::automatic);
  const Grads g = core_backward(c, in, SdpaKernel::automatic);
  for (const std::vector<float>* x : {&f.out, &f.lse, &g.dq, &g.dk, &g.dv})
    ASSERT_TRUE(test::no_nan(x->data(), x->size())) << c.name;
  const AttentionDims& d = c.dims;
  for (int b = 0; b < d.B; ++b)
    for (int h = 0; h < d.H; ++h)
      for (int i = 0; i < d.Tq; ++i) {
        if (!test::row_sees_nothing(opt.mask, d.Tq, d.Tk, b, h, i)) continue;
        const std::size_t row = (std::size_t(b) * d.H + h) * d.Tq + i;
        ASSERT_EQ(f.lse[row], -kInf) << c.name << " row " << row;
        for (int x = 0; x < d.dv; ++x) ASSERT_EQ(f.out[row * d.dv + x], 0.0f) << c.name << " row " << row;
        for (int x = 0; x < d.d; ++x) ASSERT_EQ(g.dq[row * d.d + x], 0.0f) << c.name << " row " << row;
      }
}

INSTANTIATE_TEST_SUITE_P(Large, FusedSdpa, ::testing::ValuesIn(large_cases()), test::case_name);
INSTANTIATE_TEST_SUITE_P(BlockEdges, FusedSdpa, ::testing::ValuesIn(block_edge_cases()), test::case_name);
INSTANTIATE_TEST_SUITE_P(ThinQueries, FusedSdpa, ::testing::ValuesIn(thin_query_cases()), test::case_name);
#if !ATTNLAB_SANITIZED
INSTANTIATE_TEST_SUITE_P(Large, FusedSdpaEmptyRows, ::testing::ValuesIn(large_cases()), test::case_name);
#endif
INSTANTIATE_TEST_SUITE_P(BlockEdges, FusedSdpaEmptyRows, ::testing::ValuesIn(block_edge_cases()),
                         test::case_name);
INSTANTIATE_TEST_SUITE_P(ThinQueries, FusedSdpaEmptyRows, ::testing::ValuesIn(thin_query_cases()),
                         test::case_name);

TEST(FusedSdpaOptions, TheTraceDoesNotChangeTheFusedOutputAndFillModeAndDropoutStillStreamRows) {
  // With a trace the weights come from the row pass and the output from the fused one; fill mode
  // and dropout go entirely through row streaming, so forcing it changes nothing bit for bit.
  AttentionCase c = make("options", {1, 2, 2, 70, 90, 8, 8}, MaskSetup().lens({50}).with_fill());
  c.dropout = 0.2f;
  c.seed = 9;
  const AttentionInputs in(c);
  expect_close(core_forward(c, in, SdpaKernel::automatic).out,
               core_forward(c, in, SdpaKernel::row_streaming).out, 0, 0,
               "fill + dropout, automatic vs row streaming");
  const Grads automatic = core_backward(c, in, SdpaKernel::automatic),
              rows = core_backward(c, in, SdpaKernel::row_streaming);
  expect_close(automatic.dq, rows.dq, 0, 0, "fill + dropout dq, automatic vs row streaming");

  const AttentionCase plain =
      make("plain", {1, 2, 2, 70, 90, 8, 8}, MaskSetup().with_causal(Causal::top_left));
  const AttentionInputs pin(plain);
  std::vector<float> traced(plain.dims.out_size()), weights(plain.dims.scores_size()),
      scores(plain.dims.scores_size());
  std::vector<float> scratch(sdpa_scratch_floats(plain.dims));
  SdpaForwardOutputs outputs{traced.data()};
  outputs.weights = weights.data();
  outputs.scores = scores.data();
  sdpa_forward(plain.dims, plain.options(), pin.q.data(), pin.k.data(), pin.v.data(), outputs,
               scratch.data());
  expect_close(traced, core_forward(plain, pin, SdpaKernel::automatic).out, 0, 0,
               "fused out with and without a trace");
}

TEST(FusedSdpaOptions, ScratchForSixteenThousandKeysIsAFewBlocksAndDoesNotGrowWithTq) {
  // The memory target: Tq = Tk = 16384, d = 64 must fit a 64 MiB module next to its 4 MiB tensors.
  const AttentionDims longest{1, 1, 1, 16384, 16384, 64, 64}, shorter{1, 1, 1, 64, 16384, 64, 64};
  EXPECT_EQ(sdpa_scratch_floats(longest), sdpa_scratch_floats(shorter));
  EXPECT_LT(sdpa_scratch_floats(longest) * sizeof(float), std::size_t(1) << 20);  // < 1 MiB
}

}  // namespace
}  // namespace attnlab
