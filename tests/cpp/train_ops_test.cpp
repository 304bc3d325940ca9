// The training ops (train_ops.hpp): each against the float64 reference at widths around the vector
// width (so the vector loop, the Lane1 tail and both together run), each backward against central
// differences of the core's own forward, and a few values known in closed form.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "attnlab/kernels.hpp"
#include "attnlab/train_ops.hpp"
#include "reference.hpp"
#include "test_util.hpp"

namespace attnlab {
namespace {

using test::expect_close;

std::vector<int> widths() { return test::lengths_around(kernels::width(), {32, 127}); }

std::string at_width(const std::string& what, int d) { return what + " at width " + std::to_string(d); }

// sum(out * r) over a forward's output: a loss whose gradient with respect to out is r.
template <class Forward>
double dot_loss_of(Forward&& forward, std::vector<float>& out, const std::vector<float>& r) {
  forward(out.data());
  return test::dot_loss(out, r);
}

// ---- embedding ----

TEST(TrainOps, EmbeddingCopiesTheTokensRowsAndItsBackwardAddsEachRowToItsToken) {
  for (int d : widths()) {
    const int V = 5, N = 9;
    const std::vector<int32_t> tokens = {3, 0, 3, 4, 1, 3, 0, 2, 4};  // repeats: the backward must sum them
    const std::vector<float> table = test::dyadic(std::size_t(V) * d, 1 + d);
    std::vector<float> out(std::size_t(N) * d), expected(out.size());
    embedding_forward(N, d, tokens.data(), table.data(), out.data());
    ref::embedding_forward(N, d, tokens.data(), table.data(), expected.data());
    expect_close(out, expected, 0, 0, at_width("forward", d));
    // Dyadic rows on dyadic starting gradients: every sum is exact, so the core matches to the bit.
    const std::vector<float> dout = test::dyadic(out.size(), 2 + d);
    std::vector<float> dtable = test::dyadic(table.size(), 3 + d), ref_dtable = dtable;
    embedding_backward(N, d, tokens.data(), dout.data(), dtable.data());
    ref::embedding_backward(N, d, tokens.data(), dout.data(), ref_dtable.data());
    expect_close(dtable, ref_dtable, 0, 0, at_width("backward (accumulated)", d));
  }
}

// ---- layer norm ----

struct LayerNormProblem {
  int N, d;
  float eps = 1e-5f;
  std::vector<float> x, gamma, beta, dy;
};

LayerNormProblem layer_norm_problem(int N, int d, uint32_t seed) {
  // x centred on 3: a mean that must cancel before the squares (the two-pass variance).
  return {N,
          d,
          1e-5f,
          test::random_uniform(std::size_t(N) * d, seed, 2.0f, 4.0f),
          test::random_uniform(std::size_t(d), seed + 1, 0.5f, 1.5f),
          test::random_uniform(std::size_t(d), seed + 2),
          test::random_uniform(std::size_t(N) * d, seed + 3)};
}

void layer_norm(const LayerNormProblem& p, float* y) {
  std::vector<float> mean(p.N), rstd(p.N);
  layer_norm_forward(p.N, p.d, p.eps, p.x.data(), p.gamma.data(), p.beta.data(), y, mean.data(), rstd.data());
}

TEST(TrainOps, LayerNormForwardAndBackwardMatchTheFloat64Reference) {
  for (int d : widths()) {
    if (d == 1) continue;  // one element normalises to 0 with rstd = 1/sqrt(eps): tested below
    const LayerNormProblem p = layer_norm_problem(3, d, 10 + d);
    const std::size_t n = p.x.size();
    std::vector<float> y(n), ref_y(n), mean(p.N), rstd(p.N), ref_mean(p.N), ref_rstd(p.N);
    layer_norm_forward(p.N, d, p.eps, p.x.data(), p.gamma.data(), p.beta.data(), y.data(), mean.data(),
                       rstd.data());
    ref::layer_norm_forward(p.N, d, p.eps, p.x.data(), p.gamma.data(), p.beta.data(), ref_y.data(),
                            ref_mean.data(), ref_rstd.data());
    // x - mean rounds at x's ulp (2.4e-7 near 3) against a standard deviation of 0.58: xhat is off
    // by ~1e-6 relative, y = xhat gamma + beta by ~2e-6 absolute (|xhat| < 2, gamma < 1.5).
    expect_close(y, ref_y, 5e-6, 1e-5, at_width("y", d));
    expect_close(mean, ref_mean, 0, 1e-6, at_width("mean", d));
    expect_close(rstd, ref_rstd, 0, 1e-5, at_width("rstd", d));

    // Accumulated onto nonzero gradients, as in a residual stream.
    std::vector<float> dx = test::random_uniform(n, 20 + d),
                       dgamma = test::random_uniform(std::size_t(d), 21 + d),
                       dbeta = test::random_uniform(std::size_t(d), 22 + d);
    std::vector<float> ref_dx = dx, ref_dgamma = dgamma, ref_dbeta = dbeta;
    layer_norm_backward(p.N, d, p.x.data(), p.gamma.data(), mean.data(), rstd.data(), p.dy.data(), dx.data(),
                        dgamma.data(), dbeta.data());
    ref::layer_norm_backward(p.N, d, p.eps, p.x.data(), p.gamma.data(), p.dy.data(), ref_dx.data(),
                             ref_dgamma.data(), ref_dbeta.data());
    // dx = rstd (g - mean g - xhat mean(g xhat)): rstd ~1.7 times terms of ~1 carrying xhat's 1e-6
    // and the means' float sums over d (127 terms: ~1e-6); dgamma sums N = 3 products.
    expect_close(dx, ref_dx, 2e-5, 1e-5, at_width("dx", d));
    expect_close(dgamma, ref_dgamma, 1e-5, 1e-5, at_width("dgamma", d));
    expect_close(dbeta, ref_dbeta, 1e-6, 1e-6, at_width("dbeta", d));
  }
}

TEST(TrainOps, LayerNormOfAConstantRowIsBetaAndOfOneElementToo) {
  // var = 0: xhat = 0 whatever rstd = 1/sqrt(eps) is, so y = beta exactly.
  for (int d : {1, 5, 17}) {
    const std::vector<float> x(d, 2.5f), gamma(d, 3.0f), beta = test::random_uniform(std::size_t(d), 7);
    std::vector<float> y(d);
    float mean, rstd;
    layer_norm_forward(1, d, 1e-5f, x.data(), gamma.data(), beta.data(), y.data(), &mean, &rstd);
    expect_close(y, beta, 0, 0, at_width("y", d));
    EXPECT_NEAR(rstd, 1.0 / std::sqrt(1e-5), 1e-2);
  }
}

TEST(TrainOps, LayerNormBackwardMatchesFiniteDifferences) {
  for (int d : {3, 11}) {
    LayerNormProblem p = layer_norm_problem(2, d, 30 + d);
    std::vector<float> mean(p.N), rstd(p.N), y(p.x.size());
    layer_norm_forward(p.N, d, p.eps, p.x.data(), p.gamma.data(), p.beta.data(), y.data(), mean.data(),
                       rstd.data());
    std::vector<float> dx(p.x.size(), 0.0f), dgamma(d, 0.0f), dbeta(d, 0.0f);
    layer_norm_backward(p.N, d, p.x.data(), p.gamma.data(), mean.data(), rstd.data(), p.dy.data(), dx.data(),
                        dgamma.data(), dbeta.data());
    auto loss = [&] { return dot_loss_of([&](float* out) { layer_norm(p, out); }, y, p.dy); };
    // Step 1e-2 on x of spread 0.58: truncation ~ eps^2 / 6 times a third derivative of order rstd^3
    // ~ 5 (4e-4 at most), float rounding of the 2 d terms of the loss ~ 1e-6 / 2e-2 = 5e-5.
    expect_close(dx, test::fd_gradient(p.x, 1e-2, loss), 1e-3, 1e-2, at_width("dx vs finite differences", d));
    expect_close(dgamma, test::fd_gradient(p.gamma, 1e-2, loss), 1e-3, 1e-2,
                 at_width("dgamma vs finite differences", d));
    expect_close(dbeta, test::fd_gradient(p.beta, 1e-2, loss), 1e-3, 1e-2,
                 at_width("dbeta vs finite differences", d));
  }
}

// ---- linear ----

struct LinearProblem {
  int N, d_in, d_out;
  bool bias;
  std::vector<float> x, W, b, dy;
  const float* b_or_null() const { return bias ? b.data() : nullptr; }
};

LinearProblem linear_problem(int N, int d_in, int d_out, bool bias, uint32_t seed) {
  return {N,
          d_in,
          d_out,
          bias,
          test::random_uniform(std::size_t(N) * d_in, seed),
          test::random_uniform(std::size_t(d_out) * d_in, seed + 1),
          test::random_uniform(std::size_t(d_out), seed + 2),
          test::random_uniform(std::size_t(N) * d_out, seed + 3)};
}

TEST(TrainOps, LinearForwardAndBackwardMatchTheFloat64ReferenceAtSizesAroundTheWidth) {
  const int W = kernels::width();
  for (int d_in : {1, W - 1, W, W + 1, 2 * W + 3, 33})
    for (int d_out : {1, W, W + 1, 3 * W + 1, 11})
      for (bool bias : {true, false}) {
        if (d_in < 1) continue;
        const std::string what = "d_in=" + std::to_string(d_in) + " d_out=" + std::to_string(d_out) +
                                 (bias ? " with bias" : " without bias");
        const LinearProblem p = linear_problem(5, d_in, d_out, bias, 40 + d_in * 7 + d_out);
        std::vector<float> y(std::size_t(p.N) * d_out), ref_y(y.size());
        linear_forward(p.N, d_in, d_out, p.x.data(), p.W.data(), p.b_or_null(), y.data());
        ref::linear_forward(p.N, d_in, d_out, p.x.data(), p.W.data(), p.b_or_null(), ref_y.data());
        // Float sums of at most 34 products of |.| <= 1: 34 * 2^-24 * 34 ~ 7e-5 in the worst case,
        // ~1e-6 in practice.
        expect_close(y, ref_y, 1e-5, 1e-5, what + " y");

        std::vector<float> dx(p.x.size()), ref_dx(dx.size());
        std::vector<float> dW = test::random_uniform(p.W.size(), 50),
                           db = test::random_uniform(p.b.size(), 51);
        std::vector<float> ref_dW = dW, ref_db = db;
        linear_backward(p.N, d_in, d_out, p.x.data(), p.W.data(), p.dy.data(), dx.data(), dW.data(),
                        bias ? db.data() : nullptr);
        ref::linear_backward(p.N, d_in, d_out, p.x.data(), p.W.data(), p.dy.data(), ref_dx.data(),
                             ref_dW.data(), bias ? ref_db.data() : nullptr);
        expect_close(dx, ref_dx, 1e-5, 1e-5, what + " dx");
        expect_close(dW, ref_dW, 1e-5, 1e-5, what + " dW (accumulated)");
        expect_close(db, ref_db, 1e-5, 1e-5, what + " db (accumulated)");
      }
}

TEST(TrainOps, LinearBackwardMatchesFiniteDifferences) {
  LinearProblem p = linear_problem(3, 5, 7, true, 60);
  std::vector<float> y(std::size_t(p.N) * p.d_out), dx(p.x.size());
  std::vector<float> dW(p.W.size(), 0.0f), db(p.b.size(), 0.0f);
  linear_backward(p.N, p.d_in, p.d_out, p.x.data(), p.W.data(), p.dy.data(), dx.data(), dW.data(), db.data());
  auto loss = [&] {
    return dot_loss_of(
        [&](float* out) { linear_forward(p.N, p.d_in, p.d_out, p.x.data(), p.W.data(), p.b.data(), out); }, y,
        p.dy);
  };
  // Linear in each input: central differences are exact but for the float rounding of y (~1e-7 per
  // element, 21 of them, over a step of 2e-2).
  expect_close(dx, test::fd_gradient(p.x, 1e-2, loss), 1e-4, 1e-3, "dx vs finite differences");
  expect_close(dW, test::fd_gradient(p.W, 1e-2, loss), 1e-4, 1e-3, "dW vs finite differences");
  expect_close(db, test::fd_gradient(p.b, 1e-2, loss), 1e-4, 1e-3, "db vs finite differences");
}

// ---- GELU ----

const char* name(Gelu form) { return form == Gelu::tanh ? "tanh GELU" : "exact GELU"; }

TEST(TrainOps, GeluOfOneAndMinusOneAreTheClosedFormValues) {
  // 1 * Phi(1) and 0.5 (1 + tanh(sqrt(2/pi) 1.044715)), from the formulas in double (PyTorch prints
  // 0.8413 and 0.8412); GELU(-x) = GELU(x) - x for both forms.
  const std::vector<float> x = {1.0f, -1.0f, 0.0f};
  std::vector<float> y(3);
  gelu_forward(3, Gelu::none, x.data(), y.data());
  expect_close(y, {0.841344746068543f, -0.158655253931457f, 0.0f}, 1e-7, 1e-6, "exact");
  gelu_forward(3, Gelu::tanh, x.data(), y.data());
  expect_close(y, {0.841191990608276f, -0.158808009391724f, 0.0f}, 5e-7, 1e-6, "tanh");
}

TEST(TrainOps, GeluForwardAndBackwardMatchTheFloat64ReferenceOverTheWholeRange) {
  for (Gelu form : {Gelu::none, Gelu::tanh}) {
    for (int n : test::lengths_around(kernels::width(), {1000})) {
      const std::vector<float> x = test::random_uniform(std::size_t(n), 70 + n, -8.0f, 8.0f);
      const std::vector<float> dy = test::random_uniform(std::size_t(n), 71 + n);
      std::vector<float> y(n), ref_y(n), dx(n), ref_dx(n);
      gelu_forward(n, form, x.data(), y.data());
      ref::gelu_forward(n, form, x.data(), ref_y.data());
      gelu_backward(n, form, x.data(), dy.data(), dx.data());
      ref::gelu_backward(n, form, x.data(), dy.data(), ref_dx.data());
      // tanh, erf and exp are within an ulp or two; the forward's few float operations keep y
      // within a few ulp of 8 (5e-7). The tanh form's derivative has 0.5 x (1 - t^2) s (1 + 0.13 x^2),
      // where an ulp of t near 1 (6e-8) is magnified up to ~4 (at |x| ~ 2.5): 5e-7 absolute.
      expect_close(y, ref_y, 5e-7, 1e-6, std::string(name(form)) + " forward, n=" + std::to_string(n));
      expect_close(dx, ref_dx, 5e-7, 1e-6, std::string(name(form)) + " backward, n=" + std::to_string(n));
    }
  }
}

TEST(TrainOps, GeluBackwardMatchesFiniteDifferencesAndMayRunInPlace) {
  for (Gelu form : {Gelu::none, Gelu::tanh}) {
    std::vector<float> x = test::random_uniform(37, 80, -4.0f, 4.0f);
    const std::vector<float> dy = test::random_uniform(37, 81);
    std::vector<float> dx(37), y(37);
    gelu_backward(37, form, x.data(), dy.data(), dx.data());
    auto loss = [&] {
      return dot_loss_of([&](float* out) { gelu_forward(37, form, x.data(), out); }, y, dy);
    };
    // Step 1e-3: GELU''' is at most ~1.5, truncation 1.5e-6 / 6; rounding of 37 terms of ~1e-7 over
    // 2e-3, ~1e-4 at worst.
    expect_close(dx, test::fd_gradient(x, 1e-3, loss), 3e-4, 1e-3,
                 std::string(name(form)) + " vs finite differences");
    std::vector<float> in_place = dy;
    gelu_backward(37, form, x.data(), in_place.data(), in_place.data());
    expect_close(in_place, dx, 0, 0, std::string(name(form)) + " backward in place");
  }
}

// ---- cross-entropy ----

TEST(TrainOps, CrossEntropyOfEqualLogitsIsLogVAndItsGradientIsUniformMinusTheTarget) {
  const int N = 2, V = 7;
  const std::vector<float> logits(N * V, 0.25f);
  const std::vector<int32_t> targets = {3, 6};
  std::vector<float> probs(N * V);
  EXPECT_NEAR(cross_entropy_forward(N, V, logits.data(), targets.data(), nullptr, probs.data()),
              std::log(7.0), 1e-6);
  cross_entropy_backward(N, V, targets.data(), nullptr, probs.data(), 1.0f, probs.data());
  std::vector<float> expected(N * V, float(1.0 / 7 / N));
  expected[3] -= 0.5f;
  expected[V + 6] -= 0.5f;
  expect_close(probs, expected, 1e-7, 1e-6, "dlogits");
}

TEST(TrainOps, CrossEntropyMatchesTheFloat64ReferenceOverTheRowsTheMaskKeeps) {
  for (int V : test::lengths_around(kernels::width(), {11, 26, 257})) {
    const int N = 6;
    const std::vector<float> logits = test::random_uniform(std::size_t(N) * V, 90 + V, -6.0f, 6.0f);
    std::vector<int32_t> targets(N);
    for (int n = 0; n < N; ++n) targets[n] = (n * 5 + V) % V;
    const std::vector<uint8_t> mask = {1, 0, 1, 1, 0, 1};
    for (const uint8_t* m : {static_cast<const uint8_t*>(nullptr), mask.data()}) {
      const std::string what = "V=" + std::to_string(V) + (m ? " masked" : " every row");
      std::vector<float> probs(logits.size()), dlogits(logits.size()), ref_dlogits(logits.size());
      const float loss = cross_entropy_forward(N, V, logits.data(), targets.data(), m, probs.data());
      // lse = m + log(sum) with the sum of V exps in float (relative 1e-6 at V = 257) and a loss of ~6.
      EXPECT_NEAR(loss, ref::cross_entropy_forward(N, V, logits.data(), targets.data(), m), 2e-6 * 6) << what;
      cross_entropy_backward(N, V, targets.data(), m, probs.data(), 0.5f, dlogits.data());
      ref::cross_entropy_backward(N, V, logits.data(), targets.data(), m, 0.5f, ref_dlogits.data());
      // softmax probabilities to a few ulp of their value (the exp's ulp, the division by the sum).
      expect_close(dlogits, ref_dlogits, 1e-8, 2e-6, what + " dlogits");
    }
  }
}

TEST(TrainOps, CrossEntropyBackwardMatchesFiniteDifferences) {
  const int N = 4, V = 9;
  std::vector<float> logits = test::random_uniform(std::size_t(N) * V, 100, -3.0f, 3.0f);
  const std::vector<int32_t> targets = {8, 0, 4, 4};
  const std::vector<uint8_t> mask = {1, 1, 0, 1};
  std::vector<float> probs(logits.size());
  cross_entropy_forward(N, V, logits.data(), targets.data(), mask.data(), probs.data());
  cross_entropy_backward(N, V, targets.data(), mask.data(), probs.data(), 1.0f, probs.data());
  auto loss = [&] {
    std::vector<float> scratch(logits.size());
    return double(cross_entropy_forward(N, V, logits.data(), targets.data(), mask.data(), scratch.data()));
  };
  // The loss rounds once to float (~1.2e-7 at ~2), over a step of 2e-2: 6e-6; truncation eps^2/6
  // times a third derivative below 1: 2e-5.
  expect_close(probs, test::fd_gradient(logits, 1e-2, loss), 5e-5, 1e-3, "dlogits vs finite differences");
}

// ---- AdamW and clipping ----

TEST(TrainOps, AdamWMatchesTorchsAlgorithmInDoubleOverThreeSteps) {
  for (int n : test::lengths_around(kernels::width(), {1000})) {
    for (const AdamWOptions& opt : {AdamWOptions{1e-2f, 0.9f, 0.999f, 1e-8f, 0.0f, 0.0f},
                                    AdamWOptions{3e-3f, 0.8f, 0.95f, 1e-6f, 0.1f, 0.0f}}) {
      const std::string what = "n=" + std::to_string(n) + " wd=" + std::to_string(opt.weight_decay);
      std::vector<float> param = test::random_uniform(std::size_t(n), 110 + n), expected = param;
      std::vector<float> m(n, 0.0f), v(n, 0.0f);
      std::vector<std::vector<float>> grads;
      for (int s = 0; s < 3; ++s)
        grads.push_back(test::random_uniform(std::size_t(n), 120 + n + s, -2.0f, 2.0f));
      for (int s = 0; s < 3; ++s)
        adamw_step(n, opt, s + 1, 1.0f, param.data(), m.data(), v.data(), grads[s].data());
      const float* g[3] = {grads[0].data(), grads[1].data(), grads[2].data()};
      ref::adamw_steps(n, opt, 3, g, expected.data());
      // Each step rounds the parameter (|p| < 1.1: 6e-8) and an update of at most ~lr that carries
      // a few float roundings (relative 1e-6: 1e-8).
      expect_close(param, expected, 3e-7, 0, what);
    }
  }
}

TEST(TrainOps, AdamWsFirstStepMovesEachParameterByTheLearningRateAgainstItsGradientsSign) {
  // m_hat = g and v_hat = g^2 after one step, so the update is lr g / (|g| + eps), after the decay
  // p (1 - lr wd): eps shows where |g| is small (1e-3 with eps 1e-5 moves 1% less).
  const AdamWOptions opt{0.5f, 0.9f, 0.999f, 1e-5f, 0.25f, 0.0f};
  std::vector<float> param = {1.0f, -2.0f, 0.5f}, m(3, 0.0f), v(3, 0.0f);
  const std::vector<float> grad = {3.0f, -0.25f, 1e-3f};
  adamw_step(3, opt, 1, 1.0f, param.data(), m.data(), v.data(), grad.data());
  const double decay = 1.0 - 0.5 * 0.25;
  const std::vector<float> expected = {float(decay * 1.0 - 0.5 * 3.0 / (3.0 + 1e-5)),
                                       float(decay * -2.0 + 0.5 * 0.25 / (0.25 + 1e-5)),
                                       float(decay * 0.5 - 0.5 * 1e-3 / (1e-3 + 1e-5))};
  expect_close(param, expected, 2e-7, 1e-6, "params");
}

TEST(TrainOps, ClipFactorIsTorchsMaxNormOverTheNormClampedToOne) {
  EXPECT_FLOAT_EQ(clip_factor(5.0, 1.0f), float(1.0 / (5.0 + 1e-6)));
  EXPECT_EQ(clip_factor(0.5, 1.0f), 1.0f);
  EXPECT_EQ(clip_factor(1e9, 0.0f), 1.0f);  // max_norm 0: no clipping
  // With the factor, Adam's update of a clipped gradient: the moments see g * factor.
  const AdamWOptions opt{1e-2f, 0.9f, 0.999f, 1e-8f, 0.0f, 1.0f};
  std::vector<float> param = {0.0f, 0.0f}, m(2, 0.0f), v(2, 0.0f);
  const std::vector<float> grad = {3.0f, 4.0f};
  const float factor = clip_factor(std::sqrt(sum_of_squares(grad.data(), 2)), opt.clip);
  adamw_step(2, opt, 1, factor, param.data(), m.data(), v.data(), grad.data());
  expect_close(m, {0.1f * 3.0f / 5.0f, 0.1f * 4.0f / 5.0f}, 1e-7, 1e-5,
               "first moments of the clipped gradient");
}

TEST(TrainOps, SumOfSquaresMatchesDoubleAcrossItsBlocks) {
  for (std::size_t n :
       {std::size_t(1), std::size_t(4095), std::size_t(4096), std::size_t(4097), std::size_t(10001)}) {
    const std::vector<float> x = test::random_uniform(n, 130);
    double expected = 0.0;
    for (float e : x) expected += double(e) * e;
    // Float sums within each block of 4096 (~ 4096 / W terms per lane): relative 1e-5 at most.
    EXPECT_NEAR(sum_of_squares(x.data(), n), expected, 1e-5 * expected) << "n=" << n;
  }
}

}  // namespace
}  // namespace attnlab
