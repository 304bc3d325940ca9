// Reference rotary position embeddings in double: the (d, d) rotation matrix R(t) of each position
// written out from the two papers' layouts, y = R x and dx = R^T dy.
#include <cmath>
#include <vector>

#include "reference.hpp"

namespace attnlab::ref {
namespace {

// R (d, d) of position p: block rotations [[cos, -sin], [sin, cos]] on the pairs (i, i + d/2)
// (Hugging Face Llama: x cos + rotate_half(x) sin) or (2i, 2i + 1) (GPT-J), theta_i = base^(-2i/d).
std::vector<double> rotation(const RopeOptions& opt, double p, int d) {
  std::vector<double> R(std::size_t(d) * d, 0.0);
  for (int i = 0; i < d / 2; ++i) {
    const double theta = p * std::pow(opt.base, -2.0 * i / d);
    const int a = opt.interleaved ? 2 * i : i, b = opt.interleaved ? 2 * i + 1 : i + d / 2;
    R[std::size_t(a) * d + a] = std::cos(theta);
    R[std::size_t(a) * d + b] = -std::sin(theta);
    R[std::size_t(b) * d + a] = std::sin(theta);
    R[std::size_t(b) * d + b] = std::cos(theta);
  }
  return R;
}

void apply(int N, int T, int d, const RopeOptions& opt, const float* x, float* y, bool transpose) {
  std::vector<double> out(static_cast<std::size_t>(d));
  for (int t = 0; t < T; ++t) {
    const std::vector<double> R = rotation(opt, opt.offset + t, d);
    for (int n = 0; n < N; ++n) {
      const std::size_t row = (std::size_t(n) * T + t) * d;
      for (int r = 0; r < d; ++r) {
        double sum = 0.0;
        for (int c = 0; c < d; ++c)
          sum += (transpose ? R[std::size_t(c) * d + r] : R[std::size_t(r) * d + c]) * x[row + c];
        out[r] = sum;
      }
      for (int r = 0; r < d; ++r) y[row + r] = float(out[r]);
    }
  }
}

}  // namespace

void rope_forward(int N, int T, int d, const RopeOptions& opt, const float* x, float* y) {
  apply(N, T, d, opt, x, y, false);
}

void rope_backward(int N, int T, int d, const RopeOptions& opt, const float* dy, float* dx) {
  apply(N, T, d, opt, dy, dx, true);
}

}  // namespace attnlab::ref
