// Vector kernels. Each kernel body is written once, as a generic lambda over a vector type V:
// over_vectors_then_tail() runs it with the widest vector (xsimd::batch<float> on the default
// architecture when ATTNLAB_SIMD=1) and then finishes the tail with Lane1, a one-float "vector"
// that has the same interface. The scalar build (ATTNLAB_SIMD=0, e.g. wasm without -msimd128)
// uses Lane1 throughout and never includes xsimd.
#include "attnlab/kernels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#if ATTNLAB_SIMD
#include <xsimd/xsimd.hpp>
#endif

namespace attnlab::kernels {
namespace {

// One float with the subset of xsimd::batch<float>'s interface that the kernels use.
struct Lane1 {
  static constexpr std::size_t size = 1;
  float v;
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
inline float reduce_add(Lane1 a) { return a.v; }
inline float reduce_max(Lane1 a) { return a.v; }

#if ATTNLAB_SIMD
using Vec = xsimd::batch<float>;
#else
using Vec = Lane1;
#endif

// body(zero, i) processes elements from i on in steps of decltype(zero)::size and returns where it
// stopped; it runs once with Vec and once with Lane1 for the remaining n % W elements.
template <class Body>
void over_vectors_then_tail(Body&& body) {
  const int stop = body(Vec(0.0f), 0);
  body(Lane1(0.0f), stop);
}

template <class V>
constexpr int lanes() { return int(V::size); }

}  // namespace

const char* arch_name() {
#if ATTNLAB_SIMD
  return xsimd::default_arch::name();
#else
  return "scalar";
#endif
}

int width() { return lanes<Vec>(); }

float f32_dot(const float* a, const float* b, int n) {
  float sum = 0.0f;
  over_vectors_then_tail([&](auto zero, int i) {
    using V = decltype(zero);
    V acc = zero;
    for (; i + lanes<V>() <= n; i += lanes<V>())
      acc = fma(V::load_unaligned(a + i), V::load_unaligned(b + i), acc);
    sum += reduce_add(acc);
    return i;
  });
  return sum;
}

void f32_axpy(float* y, float a, const float* x, int n) {
  over_vectors_then_tail([&](auto zero, int i) {
    using V = decltype(zero);
    const V av(a);
    for (; i + lanes<V>() <= n; i += lanes<V>())
      fma(av, V::load_unaligned(x + i), V::load_unaligned(y + i)).store_unaligned(y + i);
    return i;
  });
}

void f32_scale(float* y, float a, int n) {
  over_vectors_then_tail([&](auto zero, int i) {
    using V = decltype(zero);
    const V av(a);
    for (; i + lanes<V>() <= n; i += lanes<V>()) (V::load_unaligned(y + i) * av).store_unaligned(y + i);
    return i;
  });
}

float f32_max(const float* x, int n) {
  float best = -std::numeric_limits<float>::infinity();
  over_vectors_then_tail([&](auto zero, int i) {
    using V = decltype(zero);
    V acc(best);
    for (; i + lanes<V>() <= n; i += lanes<V>()) acc = max(acc, V::load_unaligned(x + i));
    best = reduce_max(acc);
    return i;
  });
  return best;
}

float f32_sum(const float* x, int n) {
  float sum = 0.0f;
  over_vectors_then_tail([&](auto zero, int i) {
    using V = decltype(zero);
    V acc = zero;
    for (; i + lanes<V>() <= n; i += lanes<V>()) acc = acc + V::load_unaligned(x + i);
    sum += reduce_add(acc);
    return i;
  });
  return sum;
}

float f32_exp_minus_max(float* y, const float* x, float m, int n) {
  float sum = 0.0f;
  over_vectors_then_tail([&](auto zero, int i) {
    using V = decltype(zero);
    const V mv(m);
    V acc = zero;
    for (; i + lanes<V>() <= n; i += lanes<V>()) {
      const V e = exp(V::load_unaligned(x + i) - mv);  // load before store: x and y may alias
      e.store_unaligned(y + i);
      acc = acc + e;
    }
    sum += reduce_add(acc);
    return i;
  });
  return sum;
}

// The matrix products are row-streaming compositions of the kernels above (rows of C built by
// axpy over N, or dot products over K); blocking and register tiling come with the speed work.

void f32_gemm_nn(int M, int N, int K, const float* A, const float* Bm, float* C, bool accumulate) {
  for (int m = 0; m < M; ++m) {
    float* c = C + std::size_t(m) * N;
    if (!accumulate) std::fill(c, c + N, 0.0f);
    for (int k = 0; k < K; ++k) f32_axpy(c, A[std::size_t(m) * K + k], Bm + std::size_t(k) * N, N);
  }
}

void f32_gemm_tn(int M, int N, int K, const float* A, const float* Bm, float* C, bool accumulate) {
  for (int m = 0; m < M; ++m) {
    float* c = C + std::size_t(m) * N;
    if (!accumulate) std::fill(c, c + N, 0.0f);
    for (int k = 0; k < K; ++k) f32_axpy(c, A[std::size_t(k) * M + m], Bm + std::size_t(k) * N, N);
  }
}

void f32_gemm_nt(int M, int N, int K, const float* A, const float* Bm, float* C, bool accumulate) {
  for (int m = 0; m < M; ++m) {
    float* c = C + std::size_t(m) * N;
    const float* a = A + std::size_t(m) * K;
    for (int n = 0; n < N; ++n) {
      const float p = f32_dot(a, Bm + std::size_t(n) * K, K);
      c[n] = accumulate ? c[n] + p : p;
    }
  }
}

}  // namespace attnlab::kernels
