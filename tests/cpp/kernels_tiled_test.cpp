// The register-tiled matrix kernels (strided gemm_nn / gemm_tn, the blocked transpose) and the
// elementwise kernels of the fused attention, against plain double loops. The tile is 4 rows by
// 2 vectors (2W columns), so sizes run over every row count 1 .. 9 (two tiles and each remainder)
// and every column count 1 .. 3 * 2W + 1 (full tiles, the one-vector step, single columns).
// Inputs are dyadic (k / 8, |k| <= 16), so products and sums are exact in float in any order and
// the kernels must match exactly; strides leave gaps that must stay untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attnlab/kernels.hpp"
#include "test_util.hpp"

namespace attnlab {
namespace {

using test::dyadic;
using test::expect_close;

std::vector<int> column_counts() {
  return test::lengths_around(2 * kernels::width());
}  // a tile is 2 vectors wide

constexpr float kGap = 99.0f;  // fills the stride gaps of C: a write outside the matrix changes it

// C (M, N) with row stride ldc = N + 3, op(A) (M, K) and B (K, N) with strides wider than their rows
// (A's stride lda when given, > 0).
void expect_strided_gemm_exact(bool transposed_a, int M, int N, int K, bool accumulate, int given_lda = 0) {
  const int lda = given_lda > 0 ? given_lda : (transposed_a ? M : K) + 2, ldb = N + 5, ldc = N + 3;
  const int a_rows = transposed_a ? K : M;
  const auto A = dyadic(std::size_t(a_rows) * lda, 21 + M * 1000 + K),
             Bm = dyadic(std::size_t(K) * ldb, 22 + N * 1000 + K);
  std::vector<float> C(std::size_t(M) * ldc, kGap), expected(C.size(), kGap);
  const auto C0 = dyadic(C.size(), 23 + M + N);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double s = accumulate ? C0[m * ldc + n] : 0.0;
      for (int k = 0; k < K; ++k)
        s += double(transposed_a ? A[k * lda + m] : A[m * lda + k]) * Bm[k * ldb + n];
      expected[m * ldc + n] = float(s);
      C[m * ldc + n] = accumulate ? C0[m * ldc + n] : std::nanf("");  // overwriting must not read C
    }
  if (transposed_a)
    kernels::f32_gemm_tn_strided(M, N, K, A.data(), lda, Bm.data(), ldb, C.data(), ldc, accumulate);
  else
    kernels::f32_gemm_nn_strided(M, N, K, A.data(), lda, Bm.data(), ldb, C.data(), ldc, accumulate);
  expect_close(C, expected, 0, 0,
               std::string(transposed_a ? "gemm_tn_strided" : "gemm_nn_strided") + " M=" + std::to_string(M) +
                   " N=" + std::to_string(N) + " K=" + std::to_string(K) + " lda=" + std::to_string(lda) +
                   (accumulate ? " accumulate" : ""));
}

TEST(TiledKernels, StridedProductsAreExactAtEveryTileRemainderAndLeaveTheStrideGapsAlone) {
  for (bool transposed_a : {false, true})
    for (int M = 1; M <= 9; ++M)
      for (int N : column_counts())
        for (int K : {1, 2, 5, 64})
          for (bool accumulate : {false, true}) expect_strided_gemm_exact(transposed_a, M, N, K, accumulate);
}

// An untransposed A whose row stride is 64 floats gets tiles with that stride fixed (one pointer for
// all its rows, kernels_gemm.cpp kFixedRowStride): the same sizes through them, with A's rows as long
// as the stride (K = 64, the fused attention's keys of d = 64) and shorter (K < 64: a gap after each
// row that must not be read as part of the next).
TEST(TiledKernels, ProductsWithARowStrideOf64AreExactAtEveryTileRemainder) {
  for (int M = 1; M <= 9; ++M)
    for (int N : column_counts())
      for (int K : {1, 5, 63, 64})
        for (bool accumulate : {false, true}) expect_strided_gemm_exact(false, M, N, K, accumulate, 64);
}

// The fused sdpa tiles the same scores differently forward and backward (its backward's
// P = exp(S - lse) must see the forward's S to the bit), so an element of a product must not depend
// on whether a vector lane or a single-column tail computes it: Lane1's multiply-add rounds as the
// vector's (fused natively with FMA and in the relaxed build, unfused in wasm simd128;
// kernels_vec.hpp). Random inputs, so rounding shows: column W of an N = W + 1 product (a tail) is
// computed again as column 0 of a product whose columns are rotated (a lane), and must be equal.
TEST(TiledKernels, ATailColumnRoundsExactlyAsAVectorLaneDoes) {
  const int W = kernels::width(), N = W + 1;
  for (bool transposed_a : {false, true})
    for (int K : {1, 7, 64}) {
      constexpr int M = 3;
      const auto A = test::random_uniform(std::size_t(M) * K, 31 + K, -1.0f, 1.0f);
      const auto Bm = test::random_uniform(std::size_t(K) * N, 32 + K, -1.0f, 1.0f);
      std::vector<float> rotated(Bm.size());  // column W first, then columns 0 .. W - 1
      for (int k = 0; k < K; ++k)
        for (int n = 0; n < N; ++n) rotated[k * N + n] = Bm[k * N + (n + W) % N];
      std::vector<float> C(std::size_t(M) * N), C_rotated(C.size());
      // op(A) is (M, K): stored (M, K), or (K, M) when transposed (the same values, read down columns).
      std::vector<float> At(A.size());
      for (int m = 0; m < M; ++m)
        for (int k = 0; k < K; ++k) At[k * M + m] = A[m * K + k];
      auto product = [&](const std::vector<float>& b, std::vector<float>& c) {
        if (transposed_a)
          kernels::f32_gemm_tn_strided(M, N, K, At.data(), M, b.data(), N, c.data(), N, false);
        else
          kernels::f32_gemm_nn_strided(M, N, K, A.data(), K, b.data(), N, c.data(), N, false);
      };
      product(Bm, C);
      product(rotated, C_rotated);
      for (int m = 0; m < M; ++m)
        EXPECT_EQ(C[m * N + W], C_rotated[m * N])
            << (transposed_a ? "tn" : "nn") << " K=" << K << " row " << m;
    }
}

// The large products run in cache blocks of 256 deep by 128 columns (kernels_gemm.cpp), the strided
// ones in wasm in blocks of 64 by 64: a depth block after the first adds to C, a column block starts
// where the previous one ended. Sizes on either side of every edge, and several blocks; dyadic
// inputs keep every sum exact (|sum| <= 4 K in steps of 1/64, below 2^24 for K <= 600), so any term
// lost, doubled or stored twice shows.
TEST(TiledKernels, StridedProductsAreExactAcrossTheCacheBlocks) {
  for (bool transposed_a : {false, true})
    for (int M : {1, 5})
      for (int N : {63, 64, 65, 127, 128, 129, 300})
        for (int K : {63, 64, 65, 255, 256, 257, 600})
          for (bool accumulate : {false, true}) expect_strided_gemm_exact(transposed_a, M, N, K, accumulate);
}

TEST(TiledKernels, TransposeMovesEveryElementOnceAtSizesAroundTheWidth) {
  const int W = kernels::width();
  for (int rows = 1; rows <= 3 * W + 1; ++rows)
    for (int cols = 1; cols <= 3 * W + 1; ++cols) {
      const int lds = cols + 1, ldd = rows + 2;
      const auto src = dyadic(std::size_t(rows) * lds, 31 + rows * 100 + cols);
      std::vector<float> dst(std::size_t(cols) * ldd, kGap), expected(dst.size(), kGap);
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) expected[c * ldd + r] = src[r * lds + c];
      kernels::f32_transpose(rows, cols, src.data(), lds, dst.data(), ldd);
      expect_close(dst, expected, 0, 0,
                   "transpose rows=" + std::to_string(rows) + " cols=" + std::to_string(cols));
    }
}

// tanh from xsimd (or libm in the scalar build) against double tanh: a few ulp of the result
// (4 ulp allowed, plus 1e-7 absolute where tanh crosses 0 and ulps shrink).
TEST(TiledKernels, SoftcapIsCapTimesTanhAndReturnsItsDerivative) {
  const float cap = 2.5f;
  for (int n : column_counts()) {
    const auto x = test::random_uniform(n, 40 + n, -12.0f, 12.0f);
    std::vector<float> y = x, dcap(n), expected(n), expected_dcap(n);
    for (int i = 0; i < n; ++i) {
      const double t = std::tanh(double(x[i]) / cap);
      expected[i] = float(cap * t);
      expected_dcap[i] = float(1.0 - t * t);
    }
    kernels::f32_softcap(y.data(), cap, n, dcap.data());
    expect_close(y, expected, 1e-7, 4 * 0x1p-23, "softcap n=" + std::to_string(n));
    expect_close(dcap, expected_dcap, 1e-7, 4 * 0x1p-23, "softcap derivative n=" + std::to_string(n));
    std::vector<float> y_only = x;
    kernels::f32_softcap(y_only.data(), cap, n, nullptr);
    expect_close(y_only, y, 0, 0, "softcap without the derivative n=" + std::to_string(n));
  }
}

TEST(TiledKernels, SoftmaxGradAndMulAreExactOnDyadicInputsIncludingInPlace) {
  for (int n : column_counts()) {
    const auto p = dyadic(n, 50 + n), dp = dyadic(n, 51 + n), x = dyadic(n, 52 + n);
    const float D = 0.375f, scale = 0.5f;
    std::vector<float> expected(n), product(n);
    for (int i = 0; i < n; ++i) {
      expected[i] = float(double(scale) * p[i] * (double(dp[i]) - D));
      product[i] = float(double(p[i]) * x[i]);
    }
    std::vector<float> ds(n), in_place = dp;
    kernels::f32_softmax_grad(ds.data(), p.data(), dp.data(), D, scale, n);
    kernels::f32_softmax_grad(in_place.data(), p.data(), in_place.data(), D, scale, n);
    expect_close(ds, expected, 0, 0, "softmax_grad n=" + std::to_string(n));
    expect_close(in_place, expected, 0, 0, "softmax_grad in place n=" + std::to_string(n));
    // One D per element (a key's row of S^T, a D per query): each element with its own D.
    const auto Ds = dyadic(n, 53 + n);
    std::vector<float> expected_columns(n), columns(n), columns_in_place = dp;
    for (int i = 0; i < n; ++i) expected_columns[i] = float(double(scale) * p[i] * (double(dp[i]) - Ds[i]));
    kernels::f32_softmax_grad_columns(columns.data(), p.data(), dp.data(), Ds.data(), scale, n);
    kernels::f32_softmax_grad_columns(columns_in_place.data(), p.data(), columns_in_place.data(), Ds.data(),
                                      scale, n);
    expect_close(columns, expected_columns, 0, 0, "softmax_grad_columns n=" + std::to_string(n));
    expect_close(columns_in_place, expected_columns, 0, 0,
                 "softmax_grad_columns in place n=" + std::to_string(n));
    std::vector<float> y = p;
    kernels::f32_mul(y.data(), x.data(), n);
    expect_close(y, product, 0, 0, "mul n=" + std::to_string(n));
  }
}

}  // namespace
}  // namespace attnlab

namespace attnlab {
namespace {

// The tile is fixed per build (kernels.hpp): natively 4 rows by 2 vectors, the shape the sizes
// above are chosen around.
TEST(TileChoice, TheNativeBuildNamesTheFourByTwoTileItsProductsRun) {
  EXPECT_STREQ(kernels::tile_name(), "4x2");
}

}  // namespace
}  // namespace attnlab
