// Rotary position embeddings: one pass per row t that fills the d/2 cosines and sines of its
// angles, then rotates the pairs of every one of the N rows at position t.
#include "attnlab/rope.hpp"

#include <cmath>
#include <cstddef>
#include <vector>

#ifdef __EMSCRIPTEN__
#include <emscripten/em_math.h>
#endif

namespace attnlab {
namespace {

// The double pow, cos and sin of the angles. In wasm they are the engine's Math.pow, Math.cos and
// Math.sin (imports): libc's versions would bring their tables (the 2/pi digits of the argument
// reduction, pow's log and exp tables: about 9 KB of data that gzip cannot shrink, plus 5 KB of
// code), most of the SIMD module's growth with issue 12. An import call costs more than libc's
// inlined code, hence the angle-sum steps below.
#ifdef __EMSCRIPTEN__
double power(double x, double y) { return emscripten_math_pow(x, y); }
double cosine(double x) { return emscripten_math_cos(x); }
double sine(double x) { return emscripten_math_sin(x); }
#else
double power(double x, double y) { return std::pow(x, y); }
double cosine(double x) { return std::cos(x); }
double sine(double x) { return std::sin(x); }
#endif

// Every 16th position's cosines and sines are computed directly; the 15 in between step from the
// previous position by the angle-sum rule. A step adds a few double roundings (~1e-16); a direct
// angle (offset + t) f_i is itself rounded to |angle| 2^-53, so the two ways differ by about that:
// 4e-13 at positions below 4096, 1e-10 near a million (measured over bases 10 .. 500000, d 64 and
// 128), far below float32's rounding of the result.
constexpr int kDirectEvery = 16;

// The cosines and sines of pair i's angles (offset + t) f_i, f_i = base^(-2i/d), position by position.
class Angles {
 public:
  Angles(const RopeOptions& opt, int d)
      : offset_(opt.offset),
        half_(std::size_t(d / 2)),
        f_(half_),
        step_cos_(half_),
        step_sin_(half_),
        cos_(half_),
        sin_(half_) {
    for (std::size_t i = 0; i < half_; ++i) {
      f_[i] = power(opt.base, -2.0 * double(i) / d);
      step_cos_[i] = cosine(f_[i]);  // the rotation from one position to the next
      step_sin_[i] = sine(f_[i]);
    }
  }

  // cs (d): cs[i] = cos, cs[d/2 + i] = sin of position t's angles, rounded once to float. Called
  // with t = 0, 1, 2, ... in turn.
  void at(int t, float* cs) {
    for (std::size_t i = 0; i < half_; ++i) {
      if (t % kDirectEvery == 0) {
        const double angle = (offset_ + double(t)) * f_[i];
        cos_[i] = cosine(angle);
        sin_[i] = sine(angle);
      } else {  // cos(a + f) = cos a cos f - sin a sin f, sin(a + f) = sin a cos f + cos a sin f
        const double c = cos_[i], s = sin_[i];
        cos_[i] = c * step_cos_[i] - s * step_sin_[i];
        sin_[i] = s * step_cos_[i] + c * step_sin_[i];
      }
      cs[i] = float(cos_[i]);
      cs[half_ + i] = float(sin_[i]);
    }
  }

 private:
  double offset_;
  std::size_t half_;
  std::vector<double> f_, step_cos_, step_sin_;  // (d/2) each
  std::vector<double> cos_, sin_;                // (d/2) each: of the last position's angles
};

// sign +1: the forward rotation; -1: the backward (the rotation by minus the angle).
void rotate(int N, int T, int d, const RopeOptions& opt, const float* x, float* y, float sign) {
  const int half = d / 2;
  // Pair i: elements (a_at, b_at) of a row, a_at = i, b_at = i + d/2 (halves) or 2i, 2i + 1 (pairs).
  const int a_step = opt.interleaved ? 2 : 1, b_base = opt.interleaved ? 1 : half;
  std::vector<float> cs(std::size_t(d > 0 ? d : 1));
  Angles angles(opt, d);
  for (int t = 0; t < T; ++t) {
    angles.at(t, cs.data());
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
