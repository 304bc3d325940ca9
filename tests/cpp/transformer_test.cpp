// The transformer's own contract, apart from the PyTorch goldens: its backward against finite
// differences of its loss, the trace, a step that goes non-finite, a workspace reused across batch
// sizes, the initialisation and the default targets.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attnlab/transformer.hpp"
#include "test_util.hpp"

namespace attnlab {
namespace {

// Every option at once, small enough for finite differences over every parameter.
TransformerConfig small_config() {
  TransformerConfig c;
  c.vocab = 7;
  c.d_model = 8;
  c.layers = 2;
  c.heads = 4;
  c.kv_heads = 2;
  c.max_length = 6;
  c.positions = Positions::rope;
  c.window = 3;
  c.mlp = 12;
  c.gelu = Gelu::tanh;
  return c;
}

struct Batch {
  int B, T;
  std::vector<int32_t> tokens, targets;
  std::vector<uint8_t> mask;
};

Batch batch(int B, int T, int V, uint32_t seed) {
  Batch b{B, T, std::vector<int32_t>(std::size_t(B) * T), std::vector<int32_t>(std::size_t(B) * T),
          std::vector<uint8_t>(std::size_t(B) * T)};
  const std::vector<float> u = test::random_uniform(b.tokens.size(), seed, 0.0f, float(V));
  for (std::size_t i = 0; i < u.size(); ++i) b.tokens[i] = std::min(V - 1, int(u[i]));
  next_token_targets(B, T, b.tokens.data(), b.targets.data(), b.mask.data());
  return b;
}

// Each partial is two whole forward and backward passes. Under the sanitizers 5 elements of each
// tensor (its first, last and three between): the passes, and so the memory they touch, are the
// same for every element, and at 21 this test was the sanitized binaries' longest after the
// fused kernels' large cases.
#if ATTNLAB_SANITIZED
constexpr std::size_t kFdElements = 5;
#else
constexpr std::size_t kFdElements = 21;
#endif

TEST(Transformer, BackwardMatchesFiniteDifferencesOfTheLossForEveryParameterKind) {
  for (Positions positions : {Positions::learned, Positions::rope, Positions::alibi, Positions::none}) {
    TransformerConfig c = small_config();
    c.positions = positions;
    c.tie = positions == Positions::none;  // the tied unembedding sums both uses into tok.weight
    Transformer model(c);
    model.init(7);
    const Batch b = batch(2, 6, c.vocab, 11);
    model.backward(b.B, b.T, b.tokens.data(), b.targets.data(), b.mask.data());
    const std::vector<float> grads(model.gradients(), model.gradients() + model.parameter_count());
    std::vector<float> params(model.parameters(), model.parameters() + model.parameter_count());
    std::vector<float> logits(std::size_t(b.B) * b.T * c.vocab);
    auto loss = [&] {
      std::copy(params.begin(), params.end(), model.parameters());
      return double(model.backward(b.B, b.T, b.tokens.data(), b.targets.data(), b.mask.data()));
    };
    for (const ParameterInfo& p : model.parameter_info()) {
      // A loss of ~2 in float (ulp 2.4e-7) over a step of 2e-2: 1.2e-5 of noise per partial;
      // truncation eps^2 / 6 times a third derivative of O(1). kFdElements spread over each tensor.
      for (std::size_t i : test::spread_indices(p.size, kFdElements)) {
        const double fd = test::fd_partial(params, p.offset + i, 1e-2, loss);
        EXPECT_NEAR(grads[p.offset + i], fd, 1e-4 + 2e-2 * std::fabs(fd))
            << p.name << "[" << i << "], positions " << int(positions);
      }
    }
  }
}

TEST(Transformer, TheTraceHoldsCausalWindowedSoftmaxRowsAndLeavesTheLogitsAlone) {
  const TransformerConfig c = small_config();
  Transformer model(c);
  model.init(3);
  const Batch b = batch(2, 5, c.vocab, 12);
  const std::size_t n_logits = std::size_t(b.B) * b.T * c.vocab;
  std::vector<float> plain(n_logits), traced(n_logits);
  std::vector<float> attentions(std::size_t(b.B) * c.layers * c.heads * b.T * b.T, -1.0f);
  std::vector<float> residual(std::size_t(c.layers) * b.B * b.T * c.d_model,
                              std::numeric_limits<float>::quiet_NaN());
  model.forward(b.B, b.T, b.tokens.data(), plain.data());
  model.forward(b.B, b.T, b.tokens.data(), traced.data(), {attentions.data(), residual.data()});
  test::expect_close(traced, plain, 0, 0, "logits with and without the trace");
  for (std::size_t r = 0; r < attentions.size() / b.T; ++r) {
    const int i = int(r % b.T);
    double sum = 0.0;
    for (int j = 0; j < b.T; ++j) {
      const float w = attentions[r * b.T + j];
      if (j > i || j <= i - c.window) EXPECT_EQ(w, 0.0f) << "row " << r << " key " << j;
      sum += w;
    }
    EXPECT_NEAR(sum, 1.0, 1e-6) << "row " << r;
  }
  for (float x : residual) ASSERT_TRUE(std::isfinite(x));
}

TEST(Transformer, AStepWhoseLossIsNotFiniteLeavesParametersMomentsAndStepCountAlone) {
  const TransformerConfig c = small_config();
  Transformer model(c);
  model.init(5);
  const Batch b = batch(2, 6, c.vocab, 13);
  AdamWOptions opt;
  opt.learning_rate = 1e-2f;
  EXPECT_TRUE(
      std::isfinite(model.train_step(b.B, b.T, b.tokens.data(), b.targets.data(), b.mask.data(), opt)));
  model.parameters()[model.parameter_info().back().offset] =
      std::numeric_limits<float>::infinity();  // unembed.bias[0]
  const std::vector<float> before(model.parameters(), model.parameters() + model.parameter_count());
  EXPECT_TRUE(std::isnan(model.train_step(b.B, b.T, b.tokens.data(), b.targets.data(), b.mask.data(), opt)));
  EXPECT_EQ(model.steps(), 1);
  const std::vector<float> after(model.parameters(), model.parameters() + model.parameter_count());
  test::expect_close(after, before, 0, 0, "parameters after the refused step");
}

TEST(Transformer, AWorkspaceGrownForALargerBatchGivesASmallerBatchTheSameResults) {
  const TransformerConfig c = small_config();
  Transformer reused(c), fresh(c);
  reused.init(9);
  fresh.init(9);
  const Batch large = batch(3, 6, c.vocab, 14), small = batch(1, 4, c.vocab, 15);
  reused.backward(large.B, large.T, large.tokens.data(), large.targets.data(), large.mask.data());
  const float a =
      reused.backward(small.B, small.T, small.tokens.data(), small.targets.data(), small.mask.data());
  const float f =
      fresh.backward(small.B, small.T, small.tokens.data(), small.targets.data(), small.mask.data());
  EXPECT_EQ(a, f);
  test::expect_close(std::vector<float>(reused.gradients(), reused.gradients() + reused.parameter_count()),
                     std::vector<float>(fresh.gradients(), fresh.gradients() + fresh.parameter_count()), 0, 0,
                     "gradients");
}

TEST(Transformer, InitIsAPureFunctionOfTheSeedWithPyTorchsDistributions) {
  const TransformerConfig c = small_config();
  Transformer a(c), b(c);
  a.init(42);
  b.init(42);
  const std::vector<float> pa(a.parameters(), a.parameters() + a.parameter_count());
  test::expect_close(pa, std::vector<float>(b.parameters(), b.parameters() + b.parameter_count()), 0, 0,
                     "same seed");
  b.init(43);
  EXPECT_NE(pa, std::vector<float>(b.parameters(), b.parameters() + b.parameter_count()));
  for (const ParameterInfo& p : a.parameter_info()) {
    const float* x = a.parameters() + p.offset;
    if (p.name.find("norm.weight") != std::string::npos) {
      for (std::size_t i = 0; i < p.size; ++i) ASSERT_EQ(x[i], 1.0f) << p.name;
    } else if (p.name.find("norm.bias") != std::string::npos) {
      for (std::size_t i = 0; i < p.size; ++i) ASSERT_EQ(x[i], 0.0f) << p.name;
    } else if (p.name != "tok.weight" && p.name != "pos.weight") {
      const int fan_in = p.name.find("fc2.") != std::string::npos ? c.mlp : c.d_model;
      for (std::size_t i = 0; i < p.size; ++i) ASSERT_LE(std::fabs(x[i]), 1.0 / std::sqrt(fan_in)) << p.name;
    }
  }
}

TEST(Transformer, TheDefaultTargetsAreTheNextTokensWithTheLastPositionLeftOut) {
  const std::vector<int32_t> tokens = {4, 1, 3, 0, 2, 2};  // B = 2, T = 3
  std::vector<int32_t> targets(6);
  std::vector<uint8_t> mask(6);
  next_token_targets(2, 3, tokens.data(), targets.data(), mask.data());
  EXPECT_EQ(targets, (std::vector<int32_t>{1, 3, 0, 2, 2, 0}));
  EXPECT_EQ(mask, (std::vector<uint8_t>{1, 1, 0, 1, 1, 0}));
}

TEST(Transformer, ParametersFollowTheStateDictsNamesAndShapes) {
  TransformerConfig c = small_config();
  c.positions = Positions::learned;
  const Transformer model(c);
  std::vector<std::string> names;
  for (const ParameterInfo& p : model.parameter_info()) names.push_back(p.name);
  ASSERT_EQ(names.size(), 2u + 2 * 12 + 4);
  EXPECT_EQ(names[0], "tok.weight");
  EXPECT_EQ(names[1], "pos.weight");
  EXPECT_EQ(names[4], "layers.0.qkv.weight");
  EXPECT_EQ(model.parameter_info()[4].shape, (std::vector<int>{8 + 2 * 2 * 2, 8}));  // d + 2 Hkv dh rows
  EXPECT_EQ(names.back(), "unembed.bias");
}

}  // namespace
}  // namespace attnlab
