// Internal to the kernels_*.cpp / kernels.cpp files: the vector types every kernel body is written
// over, so each body exists once. Vec is xsimd::batch<float> on the default architecture when
// ATTNLAB_SIMD=1, and Lane1 (one float with the same interface) in the scalar build, which never
// includes xsimd. Lane1 also runs the scalar tails of the SIMD build.
#pragma once

#include <cmath>
#include <cstddef>

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

// body(zero, i) processes elements from i on in steps of decltype(zero)::size and returns where it
// stopped; it runs once with Vec and once with Lane1 for the remaining n % W elements.
template <class Body>
void over_vectors_then_tail(Body&& body) {
  const int stop = body(Vec(0.0f), 0);
  body(Lane1(0.0f), stop);
}

}  // namespace attnlab::kernels::vec
