// Rotary position embeddings: one pass per row t that fills the d/2 cosines and sines of its
// angles, then rotates the pairs of every one of the N rows at position t.
#include "attnlab/rope.hpp"

#include <cmath>
#include <cstddef>
#include <vector>

namespace attnlab {
namespace {

// cs (d): cs[i] = cos, cs[d/2 + i] = sin of the angle (offset + t) base^(-2i/d), in double, rounded once.
void angles(const RopeOptions& opt, int t, int d, float* cs) {
  const int half = d / 2;
  const double position = opt.offset + double(t);
  for (int i = 0; i < half; ++i) {
    const double angle = position * std::pow(opt.base, -2.0 * i / d);
    cs[i] = float(std::cos(angle));
    cs[half + i] = float(std::sin(angle));
  }
}

// sign +1: the forward rotation; -1: the backward (the rotation by minus the angle).
void rotate(int N, int T, int d, const RopeOptions& opt, const float* x, float* y, float sign) {
  const int half = d / 2;
  // Pair i: elements (a_at, b_at) of a row, a_at = i, b_at = i + d/2 (halves) or 2i, 2i + 1 (pairs).
  const int a_step = opt.interleaved ? 2 : 1, b_base = opt.interleaved ? 1 : half;
  std::vector<float> cs(std::size_t(d > 0 ? d : 1));
  for (int t = 0; t < T; ++t) {
    angles(opt, t, d, cs.data());
    for (int n = 0; n < N; ++n) {
      const std::size_t row = (std::size_t(n) * T + t) * d;
      for (int i = 0; i < half; ++i) {
        const std::size_t a_at = row + std::size_t(i) * a_step, b_at = row + b_base + std::size_t(i) * a_step;
        const float a = x[a_at], b = x[b_at], c = cs[i], s = sign * cs[half + i];
        y[a_at] = a * c - b * s;  // read both before writing either: y may alias x
        y[b_at] = b * c + a * s;
      }
    }
  }
}

}  // namespace

void rope_forward(int N, int T, int d, const RopeOptions& opt, const float* x, float* y) {
  rotate(N, T, d, opt, x, y, 1.0f);
}

void rope_backward(int N, int T, int d, const RopeOptions& opt, const float* dy, float* dx) {
  rotate(N, T, d, opt, dy, dx, -1.0f);
}

}  // namespace attnlab
