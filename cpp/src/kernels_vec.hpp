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
  Lane1() = default;        // uninitialised, like batch
  Lane1(float x) : v(x) {}  // implicit, like batch's broadcast constructor
  static Lane1 load_unaligned(const float* p) { return Lane1(*p); }
  void store_unaligned(float* p) const { *p = v; }
};
inline Lane1 operator+(Lane1 a, Lane1 b) { return a.v + b.v; }
inline Lane1 operator-(Lane1 a, Lane1 b) { return a.v - b.v; }
inline Lane1 operator*(Lane1 a, Lane1 b) { return a.v * b.v; }
inline Lane1 operator/(Lane1 a, Lane1 b) { return a.v / b.v; }
inline bool operator==(Lane1 a, Lane1 b) { return a.v == b.v; }
inline Lane1 select(bool condition, Lane1 a, Lane1 b) { return condition ? a : b; }
inline Lane1 max(Lane1 a, Lane1 b) { return a.v > b.v ? a : b; }
inline Lane1 exp(Lane1 a) { return std::exp(a.v); }  // std::exp(-inf) == 0
inline Lane1 tanh(Lane1 a) { return std::tanh(a.v); }
inline Lane1 erf(Lane1 a) { return std::erf(a.v); }
inline Lane1 sqrt(Lane1 a) { return std::sqrt(a.v); }
inline float reduce_add(Lane1 a) { return a.v; }
inline float reduce_max(Lane1 a) { return a.v; }

#if ATTNLAB_SIMD
using Vec = xsimd::batch<float>;
#else
using Vec = Lane1;
#endif

#if ATTNLAB_SIMD
// The kernels' multiply-add, a * b + c, in one place. WebAssembly simd128 has no FMA, so xsimd's fma
// is a mul and an add there (one vfmadd natively). The relaxed build (ATTNLAB_RELAXED_SIMD,
// -mrelaxed-simd) uses f32x4.relaxed_madd instead: one rounding where the engine has an FMA unit,
// mul+add elsewhere. LLVM 14 encodes the builtin with a pre-standard opcode that
// tools/wasm/relaxed-opcodes.mjs rewrites after the link; the operands stay in stack order, and the
// standard instruction computes a * b + c (tested on a hand-made module in relaxed-opcodes.test.js).
#if ATTNLAB_RELAXED_SIMD
using F32x4 = float __attribute__((__vector_size__(16)));
inline Vec fma(Vec a, Vec b, Vec c) {
  return Vec(v128_t(__builtin_wasm_fma_f32x4(F32x4(v128_t(a)), F32x4(v128_t(b)), F32x4(v128_t(c)))));
}
#else
inline Vec fma(Vec a, Vec b, Vec c) { return xsimd::fma(a, b, c); }
#endif
#endif

// Lane1's multiply-add (the tails of the SIMD builds) rounds as Vec's does in the same build, so an
// element of a product comes out the same to the bit whether a vector lane or a tail computes it:
// fused with relaxed SIMD (one relaxed_madd on lane 0) and with AVX2+FMA (std::fma is one vfmadd
// there), a mul and an add in wasm simd128 and in the scalar builds (where std::fma would be a slow
// library call). The fused sdpa relies on it: its forward and backward tile the same scores in
// different ways (groups of 16 query columns against the rows that reach a key block), and the
// backward's P = exp(S - lse) turns an ulp of a large score into a relative error of P (with tails
// rounding unfused, the relaxed build fails a PyTorch golden case).
#if ATTNLAB_SIMD && ATTNLAB_RELAXED_SIMD
inline Lane1 fma(Lane1 a, Lane1 b, Lane1 c) {
  return __builtin_wasm_fma_f32x4(F32x4{a.v}, F32x4{b.v}, F32x4{c.v})[0];
}
#elif ATTNLAB_SIMD && defined(__FMA__)
inline Lane1 fma(Lane1 a, Lane1 b, Lane1 c) { return std::fma(a.v, b.v, c.v); }
#else
inline Lane1 fma(Lane1 a, Lane1 b, Lane1 c) { return a.v * b.v + c.v; }
#endif

template <class V>
constexpr int lanes() {
  return int(V::size);
}

// ---- exp for the softmax: arguments x <= 0 (a score minus its row max, or minus the lse) ----
//
// xsimd's exp handles every float, and on wasm its many constants become v128.const instructions
// inside the loop, each built from several x64 instructions by V8. This one is XNNPACK's rr2_p5 scheme, for x
// <= 0 only (up to ~88 stays accurate):
//   n = round(x log2 e) by the magic-bias trick, s = 2^n from n's bits shifted into the exponent,
//   t = x - n ln2 (ln2 in two parts), exp(x) = s (1 + t p(t)) with a degree-5 polynomial p,
//   with x first raised to -88 (one max), where n = -127: the exponent field is 0, so s = +0 and the
//   result exactly 0, for x = -inf too. Below -87.68 (n = -127) the result is 0; from there to
//   -87.34 it is subnormal, within 1e-38 of exp (8.3e-39 at most: a sweep of every float in
//   [-95, -80], wasm and AVX2). XNNPACK instead zeroes the lanes below -87.34 with a compare and a
//   select at the end: three instructions more per vector in V8 and one register more (16 with
//   the constants), where the max is one.
// Accuracy: about 1 ulp (XNNPACK's bound; tested at 4 ulp in kernels_test.cpp).
struct ExpCoefficients {
  float log2e, magic_bias, minus_ln2_hi, minus_ln2_lo, c5, c4, c3, c2, c1, floor;
};
// Mutable and external on purpose: the kernels read it into vector registers before their loops,
// where a compile-time constant would be rematerialised as v128.const in every iteration.
inline ExpCoefficients exp_coefficients = {0x1.715476p+0f, 0x1.8000FEp23f, -0x1.62E400p-1f, -0x1.7F7D1Cp-20f,
                                           0x1.0F9F9Cp-7f, 0x1.573A1Ap-5f, 0x1.555A80p-3f,  0x1.FFFDC6p-2f,
                                           0x1.FFFFF6p-1f, -88.0f};

// The coefficients broadcast to V, built once per kernel call.
template <class V>
struct ExpConstants {
  V log2e, magic_bias, minus_ln2_hi, minus_ln2_lo, c5, c4, c3, c2, c1, floor;
  explicit ExpConstants(const ExpCoefficients& c = exp_coefficients)
      : log2e(c.log2e),
        magic_bias(c.magic_bias),
        minus_ln2_hi(c.minus_ln2_hi),
        minus_ln2_lo(c.minus_ln2_lo),
        c5(c.c5),
        c4(c.c4),
        c3(c.c3),
        c2(c.c2),
        c1(c.c1),
        floor(c.floor) {}
};

// One float: libm's exp (the scalar build and the tails).
inline Lane1 exp_nonpositive(Lane1 x, const ExpConstants<Lane1>&) { return std::exp(x.v); }

#if ATTNLAB_SIMD
// s (1 + t p(t)), p(t) = c1 + c2 t + c3 t^2 + c4 t^3 + c5 t^4: the last step of exp and exp2 both.
template <class Constants>
inline Vec times_one_plus_t_p(Vec s, Vec t, const Constants& k) {
  Vec p = fma(k.c5, t, k.c4);
  p = fma(p, t, k.c3);
  p = fma(p, t, k.c2);
  p = fma(p, t, k.c1);
  t = t * s;
  return fma(t, p, s);
}

inline Vec exp_nonpositive(Vec x, const ExpConstants<Vec>& k) {
  x = xsimd::max(x, k.floor);  // -inf -> -88, whose exp comes out exactly 0
  Vec n = fma(x, k.log2e, k.magic_bias);
  const Vec s = xsimd::bitwise_cast<float>(xsimd::bitwise_cast<int32_t>(n) << 23);
  n = n - k.magic_bias;
  Vec t = fma(n, k.minus_ln2_hi, x);
  t = fma(n, k.minus_ln2_lo, t);
  return times_one_plus_t_p(s, t, k);
}
#endif

// ---- 2^x for a softmax in base 2: arguments x <= 0 (scores in log2 units minus their row max) ----
//
// FlashAttention-style kernels fold log2 e into the scale of Q, so the scores arrive multiplied by
// log2 e and the softmax needs 2^x where it needed e^x. The range reduction of exp_nonpositive then
// becomes exact and shorter: n = round(x) by the magic-bias trick (one add instead of a multiply-add),
// s = 2^n from n's bits as there, t = x - n exact in one subtraction (instead of two multiply-adds
// with ln2 in two parts), 2^x = s (1 + t p(t)) with p of degree 4 (2^t of degree 5) on |t| <= 1/2;
// x is first raised to -127, where n = -127 gives s = +0 and the result exactly 0, for -inf too:
// from -126.5 down the result is 0, within 2^-126.5 = 8.3e-39 of 2^x; above it, subnormal results
// included, within the ulps below.
// p is our own fit (tools/fit-exp2.cpp: Lawson-reweighted least squares on the error in ulps of 2^t
// over |t| <= 1/2, in long double, rounded to float): the fit's own error is 1.05 ulp; 2^t of degree
// 4 would be 24 ulp, of degree 6 0.02 ulp. Five coefficients, as many as the exp's.
// Accuracy against float64 exp2, every float in [-2, -1/64] (the error repeats with the period of n
// below that) and every 61st in [-130, 0], under Node 20: at most 2.07 ulp in wasm simd128 (the exp
// above: 2.21), 1.80 with relaxed_madd (exp 1.97), 1.78 with AVX2 FMA; tested at 4 ulp in
// kernels_test.cpp. 16 vector instructions where exp_nonpositive has 20 in wasm simd128 (11 and 12
// with fused multiply-adds), and 7 constants in registers instead of 10.
struct Exp2Coefficients {
  float magic_bias, c5, c4, c3, c2, c1, floor;
};
// Mutable and external for the same reason as exp_coefficients: loaded into registers once per call.
inline Exp2Coefficients exp2_coefficients = {0x1.8000FEp23f, 0x1.5ab418p-10f, 0x1.3cecap-7f, 0x1.c6baa2p-5f,
                                             0x1.ebf9b4p-3f, 0x1.62e424p-1f,  -127.0f};

template <class V>
struct Exp2Constants {
  V magic_bias, c5, c4, c3, c2, c1, floor;
  explicit Exp2Constants(const Exp2Coefficients& c = exp2_coefficients)
      : magic_bias(c.magic_bias), c5(c.c5), c4(c.c4), c3(c.c3), c2(c.c2), c1(c.c1), floor(c.floor) {}
};

#if ATTNLAB_SIMD
inline Vec exp2_nonpositive(Vec x, const Exp2Constants<Vec>& k) {
  x = xsimd::max(x, k.floor);  // -inf -> -127, whose 2^x comes out exactly 0
  Vec n = x + k.magic_bias;    // round(x) + 127 in the low bits of the significand
  const Vec s = xsimd::bitwise_cast<float>(xsimd::bitwise_cast<int32_t>(n) << 23);
  n = n - k.magic_bias;
  const Vec t = x - n;  // exact (Sterbenz): n is 0 or within a factor 2 of x; |t| <= 1/2
  return times_one_plus_t_p(s, t, k);
}

// One float (the tails): the vector body on a splat, so a tail rounds as a lane does and the module
// links no libm exp2 (musl's exp2f and its table).
inline Lane1 exp2_nonpositive(Lane1 x, const Exp2Constants<Lane1>&) {
  return exp2_nonpositive(Vec(x.v), Exp2Constants<Vec>()).get(0);
}
#else
// One float: libm's exp2 (the scalar build).
inline Lane1 exp2_nonpositive(Lane1 x, const Exp2Constants<Lane1>&) { return std::exp2(x.v); }
#endif

// ---- tanh for the additive attention: x P(x^2) / Q(x^2), one division, no exp ----
//
// xsimd's tanh evaluates both of its branches (a polynomial below 0.625, 1 - 2 / (exp(2x) + 1)
// above) plus an exp with constants rebuilt in the loop; tanh per (query, key, hidden unit) is the
// whole cost of additive attention. This is a rational minimax approximation of our own fit:
// P and Q of degree 4 in u = x^2 with P(0) = Q(0) = 1 (so tanh(x) ~ x near 0, and +-0 stay +-0),
// coefficients from Lawson-reweighted least squares on the relative error over [0, 9] (fit error
// 2e-8), rounded to float. Arguments are clamped to [-9, 9], beyond which tanh differs from +-1 by
// at most 1 - tanh(9) = 3.05e-8, about half an ulp below 1, so +-inf give +-1 within an ulp; the
// result is clamped to [-1, 1] because the rounding of P and Q can land one ulp above 1.
// Accuracy against tanh over every 7th float up to 10: at most 6.95 ulp and 4.1e-7 absolute without
// fused multiply-adds (wasm simd128), 4.7 ulp with them (AVX2); the largest errors are near +-1,
// where an ulp is 6e-8; mean 1 ulp, at most 3.5 ulp for |x| < 1 (tested in
// kernels_additive_test.cpp). Inputs must not be NaN (the boundary rejects them).
struct TanhCoefficients {
  float max_x, min_x, one, minus_one, p1, p2, p3, p4, q1, q2, q3, q4;
};
// Mutable and external for the same reason as exp_coefficients: loaded into registers once per call.
inline TanhCoefficients tanh_coefficients = {9.0f,
                                             -9.0f,
                                             1.0f,
                                             -1.0f,
                                             0x1.120b14p-3f,
                                             0x1.ca2c3cp-9f,
                                             0x1.59c2cep-16f,
                                             0x1.cadb40p-27f,
                                             0x1.de5ad4p-2f,
                                             0x1.a7f7d2p-6f,
                                             0x1.5885c4p-12f,
                                             0x1.a17f36p-21f};

template <class V>
struct TanhConstants {
  V max_x, min_x, one, minus_one, p1, p2, p3, p4, q1, q2, q3, q4;
  explicit TanhConstants(const TanhCoefficients& c = tanh_coefficients)
      : max_x(c.max_x),
        min_x(c.min_x),
        one(c.one),
        minus_one(c.minus_one),
        p1(c.p1),
        p2(c.p2),
        p3(c.p3),
        p4(c.p4),
        q1(c.q1),
        q2(c.q2),
        q3(c.q3),
        q4(c.q4) {}
};

// One float: libm's tanh (the scalar build and the tails).
inline Lane1 tanh_may_overshoot(Lane1 x, const TanhConstants<Lane1>&) { return std::tanh(x.v); }
inline Lane1 tanh_rational(Lane1 x, const TanhConstants<Lane1>&) { return std::tanh(x.v); }

#if ATTNLAB_SIMD
// Without the final clamp to [-1, 1], so near +-1 the result may be an ulp beyond it: harmless in a
// weighted sum of tanh or in 1 - tanh^2, and the clamp's two instructions are a noticeable part of
// the additive attention's time in wasm, where tanh is nearly all of it.
inline Vec tanh_may_overshoot(Vec x, const TanhConstants<Vec>& k) {
  x = xsimd::max(xsimd::min(x, k.max_x), k.min_x);
  const Vec u = x * x;
  Vec p = fma(u, k.p4, k.p3);
  p = fma(p, u, k.p2);
  p = fma(p, u, k.p1);
  p = fma(p, u, k.one);
  Vec q = fma(u, k.q4, k.q3);
  q = fma(q, u, k.q2);
  q = fma(q, u, k.q1);
  q = fma(q, u, k.one);
  return x * p / q;
}

inline Vec tanh_rational(Vec x, const TanhConstants<Vec>& k) {
  return xsimd::max(xsimd::min(tanh_may_overshoot(x, k), k.one), k.minus_one);
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
