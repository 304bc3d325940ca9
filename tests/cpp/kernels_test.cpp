// Every vector kernel against a plain double loop, at every length 1 .. 3W+1 around the vector
// width W (so the vector loop, the scalar tail and both together run) plus a few long lengths,
// at aligned and misaligned addresses.
//
// Most inputs are dyadic (k / 8 with |k| <= 16): products are multiples of 1/64 and every partial
// sum fits in 24 bits for the lengths used, so float arithmetic is exact in any order and the
// kernels must match the double loop *exactly*; a skipped, repeated or misplaced element cannot
// hide inside a tolerance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "attnlab/kernels.hpp"
#include "test_util.hpp"

namespace attnlab {
namespace {

using test::dyadic;
using test::expect_close;

std::vector<int> lengths() { return test::lengths_around(kernels::width(), {127, 1000, 4099}); }

constexpr int kOffsets[] = {0, 1, 3};  // floats past an allocation: aligned, then two misalignments

// A buffer of n floats starting `offset` floats into its allocation.
struct Buffer {
  std::vector<float> storage;
  int offset;
  Buffer(const std::vector<float>& values, int offset_) : storage(values.size() + 4), offset(offset_) {
    std::copy(values.begin(), values.end(), storage.begin() + offset);
  }
  float* data() { return storage.data() + offset; }
};

std::string where(int n, int offset) {
  return "n=" + std::to_string(n) + " offset=" + std::to_string(offset);
}

TEST(Kernels, ArchNameAndWidthAgree) {
  const std::string arch = kernels::arch_name();
  EXPECT_GE(kernels::width(), 1);
  EXPECT_EQ(arch == "scalar", kernels::width() == 1) << arch << " with width " << kernels::width();
}

TEST(Kernels, DotIsExactOnDyadicInputsAtEveryLengthAndAlignment) {
  for (int n : lengths())
    for (int offset : kOffsets) {
      const auto a = dyadic(n, 1 + n), b = dyadic(n, 2 + n);
      double expected = 0.0;
      for (int i = 0; i < n; ++i) expected += double(a[i]) * b[i];
      Buffer ab(a, offset), bb(b, offset == 0 ? 1 : 0);  // a and b misaligned differently
      EXPECT_EQ(kernels::f32_dot(ab.data(), bb.data(), n), float(expected)) << where(n, offset);
    }
}

TEST(Kernels, DotOfRandomFloatsIsWithinTheSummationErrorBound) {
  // Each of the W lanes sums about n / W products, then W lanes and the tail are added: the
  // classic bound is (n / W + 2 W) * eps * sum |a_i b_i|.
  for (int n : lengths()) {
    const auto a = test::random_uniform(n, 3 + n), b = test::random_uniform(n, 4 + n);
    double expected = 0.0, magnitude = 0.0;
    for (int i = 0; i < n; ++i) {
      expected += double(a[i]) * b[i];
      magnitude += std::fabs(double(a[i]) * b[i]);
    }
    const double bound = (n / kernels::width() + 2 * kernels::width()) * 0x1p-23 * magnitude;
    EXPECT_NEAR(kernels::f32_dot(a.data(), b.data(), n), expected, bound) << "n=" << n;
  }
}

TEST(Kernels, DotRowsIsExactOnDyadicInputsForEveryRowCountWidthAndStride) {
  // Rows n = 1 .. 9 cover whole groups of four and every remainder; the width d every length
  // around W; lda > d pads each row with a sentinel that must never be read into a sum.
  for (int d : lengths()) {
    if (d > 3 * kernels::width() + 1 && d != 127) continue;  // the long lengths add nothing per row here
    for (int n = 1; n <= 9; ++n) {
      const int lda = d + 3;
      std::vector<float> A(std::size_t(n) * lda, 1e30f);
      const auto values = dyadic(n * d, 7 + n + d), x = dyadic(d, 8 + d);
      for (int j = 0; j < n; ++j)
        std::copy(values.begin() + j * d, values.begin() + (j + 1) * d, A.begin() + j * lda);
      std::vector<float> y(n + 1, -7.0f);
      kernels::f32_dot_rows(y.data(), A.data(), lda, x.data(), n, d);
      for (int j = 0; j < n; ++j) {
        double expected = 0.0;
        for (int i = 0; i < d; ++i) expected += double(A[std::size_t(j) * lda + i]) * x[i];
        EXPECT_EQ(y[j], float(expected)) << "row " << j << " of " << n << ", d=" << d;
      }
      EXPECT_EQ(y[n], -7.0f) << "wrote past row " << n << ", d=" << d;
    }
  }
}

TEST(Kernels, FirstNonFiniteFindsTheFirstNanOrInfinityAtEveryPosition) {
  const float kNan = std::numeric_limits<float>::quiet_NaN(), kInf = std::numeric_limits<float>::infinity();
  for (int n : lengths()) {
    const auto finite = test::random_uniform(n, 9 + n);
    EXPECT_EQ(kernels::f32_first_nonfinite(finite.data(), n), -1) << "n=" << n;
    std::vector<float> large(n, 3.0e38f);  // finite, though their sums overflow
    EXPECT_EQ(kernels::f32_first_nonfinite(large.data(), n), -1) << "n=" << n;
    for (int at : {0, n / 2, n - 1})
      for (float bad : {kNan, kInf, -kInf}) {
        auto x = finite;
        x[at] = bad;
        if (at + 1 < n) x[n - 1] = kNan;  // a later one must not be reported first
        EXPECT_EQ(kernels::f32_first_nonfinite(x.data(), n), at) << "n=" << n << " at=" << at << " " << bad;
      }
  }
}

TEST(Kernels, AxpyIsExactOnDyadicInputsAndLeavesNeighboursAlone) {
  for (int n : lengths())
    for (int offset : kOffsets) {
      const auto x = dyadic(n, 5 + n), y0 = dyadic(n, 6 + n);
      const float a = -1.375f;
      std::vector<float> expected(n);
      for (int i = 0; i < n; ++i) expected[i] = float(double(y0[i]) + double(a) * x[i]);
      Buffer xb(x, offset), yb(y0, offset);
      yb.storage.back() = 99.0f;  // a write past n would change it
      kernels::f32_axpy(yb.data(), a, xb.data(), n);
      expect_close(yb.data(), expected.data(), n, 0, 0, "axpy " + where(n, offset));
      EXPECT_EQ(yb.storage.back(), 99.0f) << where(n, offset);
    }
}

TEST(Kernels, ScaleIsExactOnDyadicInputs) {
  for (int n : lengths())
    for (int offset : kOffsets) {
      const auto y0 = dyadic(n, 7 + n);
      std::vector<float> expected(n);
      for (int i = 0; i < n; ++i) expected[i] = y0[i] * 0.625f;
      Buffer yb(y0, offset);
      kernels::f32_scale(yb.data(), 0.625f, n);
      expect_close(yb.data(), expected.data(), n, 0, 0, "scale " + where(n, offset));
    }
}

TEST(Kernels, MaxFindsTheLargestElementWhereverItIs) {
  for (int n : lengths())
    for (int offset : kOffsets)
      for (int at : {0, n / 2, n - 1}) {  // first, middle, last (the tail for most n)
        std::vector<float> x = test::random_uniform(n, 8 + n, -10.0f, 0.0f);
        x[at] = 5.0f;
        Buffer xb(x, offset);
        EXPECT_EQ(kernels::f32_max(xb.data(), n), 5.0f) << where(n, offset) << " at=" << at;
      }
}

TEST(Kernels, MaxOfNothingAndOfMinusInfinityIsMinusInfinity) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(kernels::f32_max(nullptr, 0), -inf);
  for (int n : lengths()) {
    const std::vector<float> x(n, -inf);
    EXPECT_EQ(kernels::f32_max(x.data(), n), -inf) << "n=" << n;
  }
}

TEST(Kernels, SumIsExactOnDyadicInputs) {
  EXPECT_EQ(kernels::f32_sum(nullptr, 0), 0.0f);
  for (int n : lengths())
    for (int offset : kOffsets) {
      const auto x = dyadic(n, 9 + n);
      double expected = 0.0;
      for (float v : x) expected += v;
      Buffer xb(x, offset);
      EXPECT_EQ(kernels::f32_sum(xb.data(), n), float(expected)) << where(n, offset);
    }
}

// exp(x - m): compared with double exp of the same float difference x - m, so only the exp
// itself is measured. 4 ulp: xsimd's and libm's expf are within about 1 ulp; the rest is margin.
// The returned sum gets the same summation bound as the dot product (all its terms are >= 0).
TEST(Kernels, ExpMinusMaxIsAccurateMapsMinusInfinityToZeroAndReturnsTheSum) {
  const float inf = std::numeric_limits<float>::infinity();
  for (int n : lengths())
    for (int offset : kOffsets)
      for (bool in_place : {false, true}) {
        std::vector<float> x = test::random_uniform(n, 10 + n, -40.0f, 3.0f);
        if (n > 2) x[n / 3] = -inf;  // a masked key
        const float m = 3.0f;
        std::vector<float> expected(n);
        double expected_sum = 0.0;
        for (int i = 0; i < n; ++i) {
          expected[i] = float(std::exp(double(x[i] - m)));
          expected_sum += expected[i];
        }
        Buffer xb(x, offset), yb(std::vector<float>(n, 7.0f), offset == 0 ? 1 : 0);
        float* y = in_place ? xb.data() : yb.data();
        const float sum = kernels::f32_exp_minus_max(y, xb.data(), m, n);
        const std::string what = "exp " + where(n, offset) + (in_place ? " in place" : "");
        expect_close(y, expected.data(), n, 1e-37, 4 * 0x1p-23, what);
        if (n > 2) EXPECT_EQ(y[n / 3], 0.0f) << what;
        const double bound = (n / kernels::width() + 2 * kernels::width()) * 0x1p-23 * expected_sum + 1e-30;
        EXPECT_NEAR(sum, expected_sum, bound) << what;
      }
}

// 2^(x - m_i) with a shift per element (the fused backward's P^T = 2^(S2^T - lse) along a key's
// row), against float64 exp2 of the same float difference, 4 ulp as the exp above (the exp2 is
// within 2.1 ulp: kernels_vec.hpp); a shift of +inf (the backward's lse of a row that sees nothing)
// gives 0.
TEST(Kernels, Exp2MinusTakesAShiftPerElement) {
  const float inf = std::numeric_limits<float>::infinity();
  for (int n : lengths())
    for (bool in_place : {false, true}) {
      std::vector<float> x = test::random_uniform(n, 30 + n, -40.0f, 3.0f);
      std::vector<float> m = test::random_uniform(n, 31 + n, 3.0f, 9.0f);
      if (n > 2) x[n / 3] = -inf;  // a masked key
      if (n > 1) m[n - 1] = inf;   // a row that sees nothing
      std::vector<float> expected(n);
      for (int i = 0; i < n; ++i) expected[i] = float(std::exp2(double(x[i] - m[i])));
      std::vector<float> y(n, 7.0f);
      float* out = in_place ? x.data() : y.data();
      kernels::f32_exp2_minus(out, x.data(), m.data(), n);
      const std::string what = "exp2 minus n=" + std::to_string(n) + (in_place ? " in place" : "");
      expect_close(out, expected.data(), n, 1e-37, 4 * 0x1p-23, what);
      if (n > 1) EXPECT_EQ(out[n - 1], 0.0f) << what;
    }
}

// The distance from y to the float64 value r in units in the last place of r as a float (2^-149
// for subnormals).
double ulps(float y, double r) {
  int e;
  std::frexp(r, &e);
  return std::fabs(double(y) - r) / std::ldexp(1.0, std::max(e - 24, -149));
}

// 2^x over its whole float range, every 61st float of [-130, 0] (18 million, all exponents and every
// residue of the vector loop) plus -inf, -0, 0, the smallest subnormal and the edges of the cut-off,
// against float64 exp2: at most 4 ulp above -126.5, subnormal results included (measured 2.07 ulp
// in wasm simd128, 1.78 here with fused multiply-adds: kernels_vec.hpp), then within 2^-126.5 =
// 8.3e-39 of exp2 (the SIMD builds give 0 from -126.5 down, tails included, where libm's exp2 in the
// scalar build goes on).
TEST(Kernels, Exp2IsWithinFourUlpAboveMinus126AndAHalfAndIsZeroAtMinusInfinity) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> x = {-inf,    -0.0f,    0.0f,    -0x1p-149f, -1e-30f, -126.0f, -126.25f,
                          -126.5f, -126.75f, -127.0f, -149.0f,    -150.0f, -0.5f,   -1.0f};
  for (float v = -0.0f; v >= -130.0f;) {
    x.push_back(v);
    std::uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    bits += test::kFloatSweepStep;  // 61, or 977 under the sanitizers (test_util.hpp)
    std::memcpy(&v, &bits, sizeof v);
  }
  std::vector<float> y(x.size());
  const std::vector<float> zeros(x.size(), 0.0f);
  kernels::f32_exp2_minus(y.data(), x.data(), zeros.data(), int(x.size()));
  double worst = 0.0, worst_below = 0.0;
  std::size_t at = 0, at_below = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double r = std::exp2(double(x[i]));
    if (x[i] > -126.5f) {
      const double u = ulps(y[i], r);
      if (u > worst) worst = u, at = i;
    } else {
      const double d = std::fabs(double(y[i]) - r);
      if (d > worst_below) worst_below = d, at_below = i;
    }
  }
  EXPECT_LE(worst, 4.0) << "2^" << x[at] << " = " << y[at] << " (float64 " << std::exp2(double(x[at])) << ")";
  EXPECT_LE(worst_below, 8.4e-39) << "2^" << x[at_below] << " = " << y[at_below];
  EXPECT_EQ(y[0], 0.0f);       // 2^-inf
  EXPECT_EQ(y[1], 1.0f);       // 2^-0
  EXPECT_EQ(y[2], 1.0f);       // 2^0
  EXPECT_EQ(y[5], 0x1p-126f);  // the smallest normal, exactly
}

TEST(Kernels, ExpStaysFiniteAndPositiveOverTheSoftmaxRange) {
  // After the max is subtracted the argument is <= 0; it reaches -1e4 and below with large scores.
  // Around -87.5 the vector body's result is subnormal, then 0 (kernels_vec.hpp), within 1e-38.
  const std::vector<float> x = {0.0f,   -1e-8f, -1.0f,  -87.0f,  -87.34f, -87.5f, -87.68f,
                                -87.7f, -88.0f, -88.5f, -103.0f, -200.0f, -1e4f,  -3e38f};
  std::vector<float> y(x.size());
  kernels::f32_exp_minus_max(y.data(), x.data(), 0.0f, int(x.size()));
  for (std::size_t i = 0; i < x.size(); ++i) {
    EXPECT_TRUE(std::isfinite(y[i]) && y[i] >= 0.0f) << "exp(" << x[i] << ") = " << y[i];
    EXPECT_NEAR(y[i], std::exp(double(x[i])), 4 * 0x1p-23 * std::exp(double(x[i])) + 1e-38)
        << "exp(" << x[i] << ")";
  }
  EXPECT_EQ(y[0], 1.0f);
}

// One online-softmax step over the columns of a strided block S^T (a row per key, a column per
// query) in log2 units, against float64: the new max, 2^ of every score against it (4 ulp, as
// f32_exp2_minus), alpha = 2^(m - m'), and l = l alpha + sum. Columns, in turn: one whose max
// moves, one whose max stays (alpha exactly 1), one with nothing visible yet (all -inf, m = -inf:
// zeros, alpha 1, m and l unchanged), one first visible now (m = -inf before: alpha = 2^-inf = 0),
// and one fully masked in this block after earlier keys (m stays, s = 0). The column counts run
// around the width, so every kind lands in vector lanes and in the tail.
TEST(Kernels, OnlineSoftmaxColumnsMovesEachColumnsMaxAndSumAndReturnsTheRescaleFactor) {
  const float inf = std::numeric_limits<float>::infinity();
  const float m_of_kind[5] = {-2.0f, 40.0f, -inf, -inf, 1.0f}, l_of_kind[5] = {3.0f, 2.5f, 0.0f, 0.0f, 4.0f};
  for (int cols : lengths())
    for (int n : {1, 5, 17}) {
      const int lds = cols + 3;  // rows of the block are strided
      std::vector<float> s = test::random_uniform(std::size_t(n) * lds, 20 + cols + 100 * n, -30.0f, 5.0f);
      std::vector<float> m(cols), l(cols);
      for (int c = 0; c < cols; ++c) {
        m[c] = m_of_kind[c % 5];
        l[c] = l_of_kind[c % 5];
        if (c % 5 == 2 || c % 5 == 4)
          for (int j = 0; j < n; ++j) s[j * lds + c] = -inf;
      }
      if (n > 2) s[(n / 2) * lds] = -inf;  // a masked key in a column that sees others
      const std::vector<float> s0 = s, m0 = m, l0 = l;
      std::vector<float> alpha(cols, 7.0f);
      kernels::f32_online_softmax_columns(s.data(), lds, n, cols, m.data(), l.data(), alpha.data());
      for (int c = 0; c < cols; ++c) {
        const std::string what =
            "column " + std::to_string(c) + " of " + std::to_string(cols) + ", n = " + std::to_string(n);
        double col_max = m0[c];
        for (int j = 0; j < n; ++j) col_max = std::max(col_max, double(s0[j * lds + c]));
        EXPECT_EQ(m[c], float(col_max)) << what;
        if (col_max == -inf) {
          EXPECT_EQ(alpha[c], 1.0f) << what;
          EXPECT_EQ(l[c], 0.0f) << what;
          for (int j = 0; j < n; ++j) EXPECT_EQ(s[j * lds + c], 0.0f) << what;
          continue;
        }
        double sum = 0.0;
        for (int j = 0; j < n; ++j) {
          const double expected = float(std::exp2(double(s0[j * lds + c] - float(col_max))));
          EXPECT_NEAR(s[j * lds + c], expected, 4 * 0x1p-23 * expected + 1e-37) << what << " key " << j;
          sum += expected;
        }
        const double expected_alpha = std::exp2(double(m0[c]) - col_max);
        if (float(col_max) == m0[c]) EXPECT_EQ(alpha[c], 1.0f) << what;
        EXPECT_NEAR(alpha[c], expected_alpha, 4 * 0x1p-23 * expected_alpha) << what;
        // The sum runs down the column, one add per key: n roundings, plus alpha's 4 ulp.
        const double expected_l = l0[c] * expected_alpha + sum;
        EXPECT_NEAR(l[c], expected_l, (n + 8) * 0x1p-23 * expected_l) << what;
      }
      for (int j = 0; j < n; ++j)
        for (int c = cols; c < lds; ++c) EXPECT_EQ(s[j * lds + c], s0[j * lds + c]) << "stride, key " << j;
    }
}

// Matrix products on dyadic inputs (exact), at sizes around the width, with and without accumulate.
enum class Gemm { nn, tn, nt };

void expect_gemm_exact(Gemm kind, int M, int N, int K, bool accumulate) {
  const auto A = dyadic(std::size_t(M) * K, 11 + M * 100 + K),
             Bm = dyadic(std::size_t(K) * N, 12 + N * 100 + K);
  const auto C0 = dyadic(std::size_t(M) * N, 13 + M + N);
  std::vector<float> expected(std::size_t(M) * N);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double s = accumulate ? C0[m * N + n] : 0.0;
      for (int k = 0; k < K; ++k) {
        const double a = kind == Gemm::tn ? A[k * M + m] : A[m * K + k];
        const double b = kind == Gemm::nt ? Bm[n * K + k] : Bm[k * N + n];
        s += a * b;
      }
      expected[m * N + n] = float(s);
    }
  std::vector<float> C =
      accumulate ? C0 : std::vector<float>(C0.size(), std::nanf(""));  // overwrite must not read C
  switch (kind) {
    case Gemm::nn:
      kernels::f32_gemm_nn(M, N, K, A.data(), Bm.data(), C.data(), accumulate);
      break;
    case Gemm::tn:
      kernels::f32_gemm_tn(M, N, K, A.data(), Bm.data(), C.data(), accumulate);
      break;
    case Gemm::nt:
      kernels::f32_gemm_nt(M, N, K, A.data(), Bm.data(), C.data(), accumulate);
      break;
  }
  const char* names[] = {"gemm_nn", "gemm_tn", "gemm_nt"};
  expect_close(C, expected, 0, 0,
               std::string(names[int(kind)]) + " M=" + std::to_string(M) + " N=" + std::to_string(N) +
                   " K=" + std::to_string(K) + (accumulate ? " accumulate" : ""));
}

TEST(Kernels, MatrixProductsAreExactOnDyadicInputsAtSizesAroundTheWidth) {
  const int W = kernels::width();
  const std::vector<int> sizes = {1, W, W + 1, 2 * W + 3, 3 * W + 1};
  for (Gemm kind : {Gemm::nn, Gemm::tn, Gemm::nt})
    for (int M : {1, 3, 2 * W + 1})
      for (int N : sizes)
        for (int K : sizes)
          for (bool accumulate : {false, true}) expect_gemm_exact(kind, M, N, K, accumulate);
}

}  // namespace
}  // namespace attnlab
