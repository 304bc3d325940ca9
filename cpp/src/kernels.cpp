// Vector kernels over one row. Each kernel body is written once, as a generic lambda over a vector
// type V: over_vectors_then_tail() runs it with the widest vector (xsimd::batch<float> on the
// default architecture when ATTNLAB_SIMD=1) and then finishes the tail with Lane1, a one-float
// "vector" with the same interface (kernels_vec.hpp). The scalar build (ATTNLAB_SIMD=0, e.g. wasm
// without -msimd128) uses Lane1 throughout and never includes xsimd. The register-tiled matrix
// kernels live in kernels_gemm.cpp.
#include "attnlab/kernels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels_vec.hpp"

namespace attnlab::kernels {

using vec::exp2_nonpositive;
using vec::exp_nonpositive;
using vec::fma;  // the relaxed build's madd, not xsimd's (kernels_vec.hpp)
using vec::lanes;
using vec::over_vectors_then_tail;
using vec::tanh_rational;
using vec::Vec;

const char* arch_name() {
#if ATTNLAB_RELAXED_SIMD
  return "wasm+relaxed";  // xsimd's wasm backend with relaxed_madd for fma (kernels_vec.hpp)
#elif ATTNLAB_SIMD
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

void f32_dot_rows(float* y, const float* A, int lda, const float* x, int n, int d) {
  constexpr int kRows = 4;
  int j = 0;
  for (; j + kRows <= n; j += kRows) {
    const float* a0 = A + std::size_t(j) * lda;
    const float* a1 = a0 + lda;
    const float* a2 = a1 + lda;
    const float* a3 = a2 + lda;
    float sums[kRows] = {0.0f, 0.0f, 0.0f, 0.0f};
    over_vectors_then_tail([&](auto zero, int i) {
      using V = decltype(zero);
      V acc0 = zero, acc1 = zero, acc2 = zero, acc3 = zero;
      for (; i + lanes<V>() <= d; i += lanes<V>()) {
        const V xv = V::load_unaligned(x + i);
        acc0 = fma(V::load_unaligned(a0 + i), xv, acc0);
        acc1 = fma(V::load_unaligned(a1 + i), xv, acc1);
        acc2 = fma(V::load_unaligned(a2 + i), xv, acc2);
        acc3 = fma(V::load_unaligned(a3 + i), xv, acc3);
      }
      sums[0] += reduce_add(acc0);
      sums[1] += reduce_add(acc1);
      sums[2] += reduce_add(acc2);
      sums[3] += reduce_add(acc3);
      return i;
    });
    std::copy(sums, sums + kRows, y + j);
  }
  for (; j < n; ++j) y[j] = f32_dot(A + std::size_t(j) * lda, x, d);
}

int f32_first_nonfinite(const float* x, int n) {
  constexpr int kBlock = 1024;  // floats per test of the sum: a failed block is searched one by one
  for (int b0 = 0; b0 < n; b0 += kBlock) {
    const float* block = x + b0;
    const int m = std::min(kBlock, n - b0);
    float sum = 0.0f;
    over_vectors_then_tail([&](auto zero, int i) {
      using V = decltype(zero);
      constexpr int W = lanes<V>();
      V acc0 = zero, acc1 = zero, acc2 = zero, acc3 = zero;  // four chains: one add's latency is 3-4 loads
      for (; i + 4 * W <= m; i += 4 * W) {
        const V v0 = V::load_unaligned(block + i), v1 = V::load_unaligned(block + i + W);
        const V v2 = V::load_unaligned(block + i + 2 * W), v3 = V::load_unaligned(block + i + 3 * W);
        acc0 = acc0 + (v0 - v0);
        acc1 = acc1 + (v1 - v1);
        acc2 = acc2 + (v2 - v2);
        acc3 = acc3 + (v3 - v3);
      }
      for (; i + W <= m; i += W) {
        const V v = V::load_unaligned(block + i);
        acc0 = acc0 + (v - v);
      }
      sum += reduce_add((acc0 + acc1) + (acc2 + acc3));
      return i;
    });
    if (sum == 0.0f) continue;
    for (int i = 0; i < m; ++i)
      if (!std::isfinite(block[i])) return b0 + i;
  }
  return -1;
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

namespace {
// The softmax's exp in base e or base 2, chosen by the type of its constants.
template <class V>
V exp_by(V x, const vec::ExpConstants<V>& k) {
  return exp_nonpositive(x, k);
}
template <class V>
V exp_by(V x, const vec::Exp2Constants<V>& k) {
  return exp2_nonpositive(x, k);
}

// y[i] = exp(x[i] - m_i) (ExpConstants) or 2^(x[i] - m_i) (Exp2Constants), with m_i = *m (one shift)
// or m[i] (a shift per element); returns sum y.
template <template <class> class Constants, bool kShiftPerElement>
float exp_minus(float* y, const float* x, const float* m, int n) {
  float sum = 0.0f;
  over_vectors_then_tail([&](auto zero, int i) {
    using V = decltype(zero);
    const Constants<V> k;
    const V one_shift(kShiftPerElement ? 0.0f : *m);
    V acc = zero;
    for (; i + lanes<V>() <= n; i += lanes<V>()) {
      const V shift = kShiftPerElement ? V::load_unaligned(m + i) : one_shift;
      const V e = exp_by(V::load_unaligned(x + i) - shift, k);  // load before store: x and y may alias
      e.store_unaligned(y + i);
      acc = acc + e;
    }
    sum += reduce_add(acc);
    return i;
  });
  return sum;
}
}  // namespace

float f32_exp_minus_max(float* y, const float* x, float m, int n) {
  return exp_minus<vec::ExpConstants, false>(y, x, &m, n);
}

void f32_exp2_minus(float* y, const float* x, const float* m, int n) {
  exp_minus<vec::Exp2Constants, true>(y, x, m, n);
}

void f32_online_softmax_columns(float* s, int lds, int n, int cols, float* m, float* l, float* alpha) {
  over_vectors_then_tail([&](auto zero, int c) {
    using V = decltype(zero);
    const vec::Exp2Constants<V> k;
    const V minus_inf(-std::numeric_limits<float>::infinity()), one(1.0f);
    for (; c + lanes<V>() <= cols; c += lanes<V>()) {
      // Down the column by a pointer, not by j * lds: Emscripten builds with loop strength reduction
      // off (-mllvm -disable-lsr), and the indexed form cost a multiply and two more instructions per
      // load in V8's code. Two keys per step, each with its own max and sum, so neither is one chain
      // of dependent instructions (four keys a step did not speed up the loop run whole).
      float* const column = s + c;
      float* const pairs_end = column + std::size_t(n / 2 * 2) * lds;
      const std::size_t step = std::size_t(lds) * 2;
      const V m_old = V::load_unaligned(m + c);
      V max_even = m_old, max_odd = m_old;
      for (const float* p = column; p != pairs_end; p += step) {
        max_even = max(max_even, V::load_unaligned(p));
        max_odd = max(max_odd, V::load_unaligned(p + lds));
      }
      if (n % 2 != 0) max_even = max(max_even, V::load_unaligned(pairs_end));
      const V m_new = max(max_even, max_odd);
      // A column with nothing visible so far keeps m' = -inf; shifting it by 0 gives 2^-inf = 0.
      const V shift = select(m_new == minus_inf, zero, m_new);
      auto exp2_in_place = [&](float* p) {
        const V e = exp2_nonpositive(V::load_unaligned(p) - shift, k);
        e.store_unaligned(p);
        return e;
      };
      V sum_even = zero, sum_odd = zero;
      for (float* p = column; p != pairs_end; p += step) {
        sum_even = sum_even + exp2_in_place(p);
        sum_odd = sum_odd + exp2_in_place(p + lds);
      }
      if (n % 2 != 0) sum_even = sum_even + exp2_in_place(pairs_end);
      const V sum = sum_even + sum_odd;
      // 2^(m - m') is exactly 1 when the max did not move (2^0 = 1; both -inf: selected),
      // 0 the first time a column sees a key (2^-inf).
      const V a = select(m_new == m_old, one, exp2_nonpositive(m_old - shift, k));
      a.store_unaligned(alpha + c);
      m_new.store_unaligned(m + c);
      (V::load_unaligned(l + c) * a + sum).store_unaligned(l + c);
    }
    return c;
  });
}

// y = cap * tanh(y / cap); dcap (optional) = 1 - tanh^2, the derivative of the cap at y.
void f32_softcap(float* y, float cap, int n, float* dcap) {
  over_vectors_then_tail([&](auto zero, int i) {
    using V = decltype(zero);
    const V capv(cap), inverse(1.0f / cap), one(1.0f);
    for (; i + lanes<V>() <= n; i += lanes<V>()) {
      const V t = tanh(V::load_unaligned(y + i) * inverse);
      (capv * t).store_unaligned(y + i);
      if (dcap != nullptr) (one - t * t).store_unaligned(dcap + i);
    }
    return i;
  });
}

namespace {
// ds[i] = scale * p[i] * (dp[i] - D_i) with D_i = *D (one row) or D[i] (one per element).
template <bool kDPerElement>
void softmax_grad(float* ds, const float* p, const float* dp, const float* D, float scale, int n) {
  over_vectors_then_tail([&](auto zero, int i) {
    using V = decltype(zero);
    const V one_D(kDPerElement ? 0.0f : *D), scalev(scale);
    for (; i + lanes<V>() <= n; i += lanes<V>()) {
      const V Dv = kDPerElement ? V::load_unaligned(D + i) : one_D;
      (scalev * V::load_unaligned(p + i) * (V::load_unaligned(dp + i) - Dv)).store_unaligned(ds + i);
    }
    return i;
  });
}
}  // namespace

void f32_softmax_grad(float* ds, const float* p, const float* dp, float D, float scale, int n) {
  softmax_grad<false>(ds, p, dp, &D, scale, n);
}

void f32_softmax_grad_columns(float* ds, const float* p, const float* dp, const float* D, float scale,
                              int n) {
  softmax_grad<true>(ds, p, dp, D, scale, n);
}

void f32_mul(float* y, const float* x, int n) {
  over_vectors_then_tail([&](auto zero, int i) {
    using V = decltype(zero);
    for (; i + lanes<V>() <= n; i += lanes<V>())
      (V::load_unaligned(y + i) * V::load_unaligned(x + i)).store_unaligned(y + i);
    return i;
  });
}

void f32_tanh(float* y, const float* x, int n) {
  over_vectors_then_tail([&](auto zero, int i) {
    using V = decltype(zero);
    const vec::TanhConstants<V> k;
    for (; i + lanes<V>() <= n; i += lanes<V>())
      tanh_rational(V::load_unaligned(x + i), k).store_unaligned(y + i);
    return i;
  });
}

}  // namespace attnlab::kernels
