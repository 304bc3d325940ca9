// Checks of a backward pass over all of its gradients at once: each gradient travels with the
// input tensor it differentiates, so "every gradient" is one loop for the reference comparison
// and for the finite differences alike.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace attnlab::test {

struct NamedGrad {
  std::string name;                // "dq", "dwk", ...
  std::vector<float>* input;       // the tensor the gradient is taken with respect to
  const std::vector<float>* grad;  // d loss / d input
};

// The same gradients from two implementations (same order, same names): element-wise close.
inline void expect_gradients_close(const std::vector<NamedGrad>& actual,
                                   const std::vector<NamedGrad>& expected, double atol, double rtol,
                                   const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i)
    expect_close(*actual[i].grad, *expected[i].grad, atol, rtol, actual[i].name, file, line);
}

// Every gradient against central differences (fd_gradient, step eps) of `loss`, which must read
// the inputs the gradients point at.
inline void expect_gradients_match_finite_differences(const std::vector<NamedGrad>& grads, double eps,
                                                      const std::function<double()>& loss, double atol,
                                                      double rtol, const char* file = __builtin_FILE(),
                                                      int line = __builtin_LINE()) {
  for (const NamedGrad& g : grads) {
    const std::vector<float> fd = fd_gradient(*g.input, eps, loss);
    expect_close(*g.grad, fd, atol, rtol, g.name + " vs finite differences", file, line);
  }
}

// An op's backward as its test table sees it: the core's gradients, the float64 reference's, the
// gradients paired with the inputs they differentiate, and the core's output (the loss is
// sum(out * p.dout)). The two checks below are what every table runs on each of its problems.
template <class Problem, class Grads>
struct BackwardUnderTest {
  Grads (*core)(const Problem&);
  Grads (*reference)(const Problem&);
  std::vector<NamedGrad> (*named)(Problem&, const Grads&);
  std::vector<float> (*output)(const Problem&);
};

// Every gradient of the core against the reference's, element-wise.
template <class Problem, class Grads>
void expect_backward_matches_reference(Problem p, const BackwardUnderTest<Problem, Grads>& op, double atol,
                                       double rtol, const char* file = __builtin_FILE(),
                                       int line = __builtin_LINE()) {
  const Grads core = op.core(p), ref = op.reference(p);
  expect_gradients_close(op.named(p, core), op.named(p, ref), atol, rtol, file, line);
}

// Every gradient of the core against central differences (step eps) of the core's own forward.
template <class Problem, class Grads>
void expect_backward_matches_finite_differences(Problem p, const BackwardUnderTest<Problem, Grads>& op,
                                                double eps, double atol, double rtol,
                                                const char* file = __builtin_FILE(),
                                                int line = __builtin_LINE()) {
  const Grads g = op.core(p);
  expect_gradients_match_finite_differences(
      op.named(p, g), eps, [&] { return dot_loss(op.output(p), p.dout); }, atol, rtol, file, line);
}

}  // namespace attnlab::test
