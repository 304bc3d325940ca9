// Internal to the kernels_*.cpp / kernels.cpp files: the vector types every kernel body is written
// over, so each body exists once. Vec is xsimd::batch<float> on the default architecture when
// ATTNLAB_SIMD=1, and Lane1 (one float with the same interface) in the scalar build, which never
// includes xsimd. Lane1 also runs the scalar tails of the SIMD build.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#if ATTNLAB_SIMD
#include <xsimd/xsimd.hpp>
#endif

namespace attnlab::kernels::vec {

// One float with the subset of xsimd::batch<float>'s interface that the kernels use.
struct Lane1 {
  static constexpr std::size_t size = 1;
  float v;
  Lane1() = default;  // uninitialised, like batch
  Lane1(float x) : v(x) {}  // implicit, like batch's broadcast constructor
  static Lane1 load_unaligned(const float* p) { return Lane1(*p); }
  void store_unaligned(float* p) const { *p = v; }
};
inline Lane1 operator+(Lane1 a, Lane1 b) { return a.v + b.v; }
inline Lane1 operator-(Lane1 a, Lane1 b) { return a.v - b.v; }
inline Lane1 operator*(Lane1 a, Lane1 b) { return a.v * b.v; }
// Unfused on purpose: std::fma is a slow library call where the target has no FMA (scalar wasm).
inline Lane1 fma(Lane1 a, Lane1 b, Lane1 c) { return a.v * b.v + c.v; }
inline Lane1 max(Lane1 a, Lane1 b) { return a.v > b.v ? a : b; }
inline Lane1 exp(Lane1 a) { return std::exp(a.v); }  // std::exp(-inf) == 0
inline Lane1 tanh(Lane1 a) { return std::tanh(a.v); }
inline float reduce_add(Lane1 a) { return a.v; }
inline float reduce_max(Lane1 a) { return a.v; }

#if ATTNLAB_SIMD
using Vec = xsimd::batch<float>;
#else
using Vec = Lane1;
#endif

template <class V>
constexpr int lanes() { return int(V::size); }

// ---- exp for the softmax: arguments x <= 0 (a score minus its row max, or minus the lse) ----
//
// xsimd's exp handles every float, and on wasm its many constants become v128.const instructions
// inside the loop, each built from several x64 instructions by V8 (measured: the exp was 22% of the
// fused forward). This one is XNNPACK's rr2_p5 scheme, for x <= 0 only (up to ~88 stays accurate):
//   n = round(x log2 e) by the magic-bias trick, s = 2^n from n's bits shifted into the exponent,
//   t = x - n ln2 (ln2 in two parts), exp(x) = s (1 + t p(t)) with a degree-5 polynomial p,
//   and 0 below -87.34 (where the result would be subnormal), including x = -inf.
// Accuracy: about 1 ulp (XNNPACK's bound; tested at 4 ulp in kernels_test.cpp).
struct ExpCoefficients {
  float log2e, magic_bias, minus_ln2_hi, minus_ln2_lo, c5, c4, c3, c2, c1, cutoff;
};
// Mutable and external on purpose: the kernels read it into vector registers before their loops,
// where a compile-time constant would be rematerialised as v128.const in every iteration.
inline ExpCoefficients exp_coefficients = {
    0x1.715476p+0f,  0x1.8000FEp23f,  -0x1.62E400p-1f, -0x1.7F7D1Cp-20f, 0x1.0F9F9Cp-7f,
    0x1.573A1Ap-5f,  0x1.555A80p-3f,  0x1.FFFDC6p-2f,  0x1.FFFFF6p-1f,   -0x1.5D589Ep6f};

// The coefficients broadcast to V, built once per kernel call.
template <class V>
struct ExpConstants {
  V log2e, magic_bias, minus_ln2_hi, minus_ln2_lo, c5, c4, c3, c2, c1, cutoff;
  explicit ExpConstants(const ExpCoefficients& c = exp_coefficients)
      : log2e(c.log2e), magic_bias(c.magic_bias), minus_ln2_hi(c.minus_ln2_hi), minus_ln2_lo(c.minus_ln2_lo),
        c5(c.c5), c4(c.c4), c3(c.c3), c2(c.c2), c1(c.c1), cutoff(c.cutoff) {}
};

// One float: libm's exp (the scalar build and the tails).
inline Lane1 exp_nonpositive(Lane1 x, const ExpConstants<Lane1>&) { return std::exp(x.v); }

#if ATTNLAB_SIMD
inline Vec exp_nonpositive(Vec x, const ExpConstants<Vec>& k) {
  Vec n = fma(x, k.log2e, k.magic_bias);
  const Vec s = xsimd::bitwise_cast<float>(xsimd::bitwise_cast<int32_t>(n) << 23);
  n = n - k.magic_bias;
  Vec t = fma(n, k.minus_ln2_hi, x);
  t = fma(n, k.minus_ln2_lo, t);
  Vec p = fma(k.c5, t, k.c4);
  p = fma(p, t, k.c3);
  p = fma(p, t, k.c2);
  p = fma(p, t, k.c1);
  t = t * s;
  return xsimd::select(x < k.cutoff, Vec(0.0f), fma(t, p, s));
}
#endif

// body(zero, i) processes elements from i on in steps of decltype(zero)::size and returns where it
// stopped; it runs once with Vec and once with Lane1 for the remaining n % W elements.
template <class Body>
void over_vectors_then_tail(Body&& body) {
  const int stop = body(Vec(0.0f), 0);
  body(Lane1(0.0f), stop);
}

}  // namespace attnlab::kernels::vec
