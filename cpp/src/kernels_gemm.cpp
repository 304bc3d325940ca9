// Matrix kernels: register-tiled products and a blocked transpose, written once over the vector
// type (kernels_vec.hpp) like the row kernels.
//
// The microkernel computes a tile of C of MR rows by NV vectors of columns over the whole depth K:
//   for k: b[v] = B[k][n0 + v W ...]              (NV vector loads)
//          a    = broadcast A[r][k] (or A[k][r])   (one per row, MR of them)
//          acc[r][v] += a * b[v]                    (MR * NV multiply-adds)
// With MR = 4 and NV = 2 (AVX2) that is 8 accumulators, 2 loads of B and 4 broadcasts per 8
// multiply-adds, and with MR = 2, NV = 4 (wasm) 4 loads and 2 broadcasts: at most 14 of the 16
// registers of AVX2 or of wasm simd128 on x64 (V8), so nothing spills. WebAssembly
// SIMD has no FMA (without relaxed-simd), so each multiply-add is a mul and an add there; natively
// xsimd's fma is one vfmadd. The tile is loaded from / stored to C once, not once per k. Each
// build has one tile, fixed here at compile time; the shapes tried and their speeds are in
// docs/performance.md ("Tried in the kernels").
#include <algorithm>
#include <cstddef>

#include "attnlab/kernels.hpp"
#include "kernels_vec.hpp"

namespace attnlab::kernels {
namespace {

using vec::fma;  // the relaxed build's madd, not xsimd's (kernels_vec.hpp)
using vec::Lane1;
using vec::lanes;
using vec::Vec;

// The tile per instruction set: 2 x 4 in wasm (simd and relaxed), 4 x 2 of 8 lanes on AVX2, the
// fastest of those measured on each (docs/performance.md); larger wasm tiles spill in V8.
#if defined(__wasm_simd128__)
constexpr int kTileRows = 2;     // MR
constexpr int kTileVectors = 4;  // NV
#else
constexpr int kTileRows = 4;     // MR
constexpr int kTileVectors = 2;  // NV
#endif

// A[r][k] of op(A): A is (M, K) with stride lda, or (K, M) when transposed.
template <bool kTransposedA>
inline float a_at(const float* A, int lda, int r, int k) {
  return kTransposedA ? A[std::size_t(k) * lda + r] : A[std::size_t(r) * lda + k];
}

// kLda: op(A)'s row stride when known at compile time (kFixedRowStride), else 0 (lda at run time).
template <bool kTransposedA, int MR, int NV, class V, int kLda = 0>
inline void gemm_tile(int K, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
                      bool accumulate) {
  constexpr int W = lanes<V>();
  V acc[MR][NV];
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v) acc[r][v] = V(0.0f);
  // Row r of op(A) at step k is a[r][k * a_step], one pointer per row, or with A transposed
  // a[0][k * a_step + r]: the rows are neighbours, so one pointer serves them all (one add a step
  // fewer than a pointer per row; docs/performance.md). Every load is a pointer plus a constant
  // offset (WebAssembly has no scaled-index addressing). With the row stride a compile-time kLda,
  // one pointer serves the rows of an untransposed A too: row r at a[0][k + r * kLda], the offset
  // in the load's immediate.
  constexpr int kPointers = (kTransposedA || kLda > 0) ? 1 : MR;
  const std::size_t a_step = kTransposedA ? std::size_t(lda) : 1;
  const float* a[kPointers];
  for (int p = 0; p < kPointers; ++p) a[p] = A + std::size_t(p) * lda;
  const float* b = B;
  auto step = [&](int kk) {
    const float* b_row = b + std::size_t(kk) * ldb;
    V bv[NV];
    for (int v = 0; v < NV; ++v) bv[v] = V::load_unaligned(b_row + v * W);
    for (int r = 0; r < MR; ++r) {
      const V av(kLda > 0 ? a[0][kk + r * kLda]
                          : a[kTransposedA ? 0 : r][kk * a_step + (kTransposedA ? r : 0)]);
      for (int v = 0; v < NV; ++v) acc[r][v] = fma(av, bv[v], acc[r][v]);
    }
  };
  // Neither unrolled nor with a separate step counter: both ran slower in V8, which spilled the
  // hoisted loads or paid the extra add (docs/performance.md). B's pointer is the loop variable.
  for (const float* const b_end = B + std::size_t(K) * ldb; b != b_end; b += ldb) {
    step(0);
    for (int p = 0; p < kPointers; ++p) a[p] += a_step;
  }
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v) {
      float* c = C + std::size_t(r) * ldc + v * W;
      (accumulate ? acc[r][v] + V::load_unaligned(c) : acc[r][v]).store_unaligned(c);
    }
}

// MR rows of C, every column: full tiles of kTileVectors, then one vector, then single columns.
template <bool kTransposedA, int MR, int kLda = 0>
void gemm_rows(int N, int K, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
               bool accumulate) {
  constexpr int W = lanes<Vec>();
  int n = 0;
  for (; n + kTileVectors * W <= N; n += kTileVectors * W)
    gemm_tile<kTransposedA, MR, kTileVectors, Vec, kLda>(K, A, lda, B + n, ldb, C + n, ldc, accumulate);
  for (; n + W <= N; n += W)
    gemm_tile<kTransposedA, MR, 1, Vec>(K, A, lda, B + n, ldb, C + n, ldc, accumulate);
  for (; n < N; ++n) gemm_tile<kTransposedA, MR, 1, Lane1>(K, A, lda, B + n, ldb, C + n, ldc, accumulate);
}

// The last M % kTileRows rows: a tile of exactly that many rows.
template <bool kTransposedA, int MR>
void gemm_remainder_rows(int rows, int N, int K, const float* A, int lda, const float* B, int ldb, float* C,
                         int ldc, bool accumulate) {
  if constexpr (MR > 0) {
    if (rows == MR)
      gemm_rows<kTransposedA, MR>(N, K, A, lda, B, ldb, C, ldc, accumulate);
    else
      gemm_remainder_rows<kTransposedA, MR - 1>(rows, N, K, A, lda, B, ldb, C, ldc, accumulate);
  }
}

// The row stride of an untransposed A that gets tiles of its own, with the stride fixed (gemm_tile):
// 64 floats, the head width of most models, so the fused attention's S^T = K_blk Qt (A = the keys,
// rows of d floats) and the backward's dP^T = V_blk dOt (rows of dv) take it: one pointer add less
// per step, which V8's issue rate shows (docs/performance.md).
constexpr int kFixedRowStride = 64;

// Every row of C over one block of columns and depth: the register tiles, kTileRows rows at a time.
// Not inlined (nor is gemm): inlined into the five f32_gemm_* entries they cost 0.7 KiB of wasm.
template <bool kTransposedA>
__attribute__((noinline)) void gemm_block(int M, int N, int K, const float* A, int lda, const float* B,
                                          int ldb, float* C, int ldc, bool accumulate) {
  constexpr int MR = kTileRows;
  // Row r0 of op(A) starts at A + r0 * lda, or at A + r0 when A is transposed.
  auto rows_of_a = [&](int r0) { return kTransposedA ? A + r0 : A + std::size_t(r0) * lda; };
  int m = 0;
  if constexpr (!kTransposedA) {
    if (lda == kFixedRowStride)
      for (; m + MR <= M; m += MR)
        gemm_rows<false, MR, kFixedRowStride>(N, K, rows_of_a(m), lda, B, ldb, C + std::size_t(m) * ldc, ldc,
                                              accumulate);
  }
  for (; m + MR <= M; m += MR)
    gemm_rows<kTransposedA, MR>(N, K, rows_of_a(m), lda, B, ldb, C + std::size_t(m) * ldc, ldc, accumulate);
  gemm_remainder_rows<kTransposedA, MR - 1>(M - m, N, K, rows_of_a(m), lda, B, ldb, C + std::size_t(m) * ldc,
                                            ldc, accumulate);
}

// Cache blocks for the large products (the layers' projections, e.g. BERT's 768 x 768 weights):
// every tile walks its columns of B over the whole depth, so without blocks each pair of rows of
// A streams all of B (2.3 MiB at 768 x 768) from L3. A block of kBlockDepth x kBlockColumns floats
// of B (128 KiB, within a 512 KiB L2) serves every row of A before the next one; each tile then
// walks kBlockDepth rows of its 16 columns (16 KiB, in L1). The sizes tried: docs/performance.md.
constexpr int kBlockDepth = 256, kBlockColumns = 128;

// The strided products are the fused attention's own (sdpa_fused.cpp): blocks of keys and query
// rows against d or dv. In wasm their B must stay in L1 across the tiles of a block, which a head
// width of 128 (Llama's) breaks: S^T = K_blk Qt walks all of Qt (128 x 64 floats, 32 KiB, L1's
// size) for every pair of key rows, O += P V all of V_blk (64 x 128). Blocks of 64 deep by 64
// columns keep each B block at 16 KiB; at d = dv = 64 every product is one block. Natively (AVX2,
// 8-wide tiles) these blocks were slower, so there they stay as above (docs/performance.md).
#if defined(__wasm_simd128__)
constexpr int kStridedDepth = 64, kStridedColumns = 64;
#else
constexpr int kStridedDepth = kBlockDepth, kStridedColumns = kBlockColumns;
#endif

// C (M, N) (+)= op(A) (M, K) B (K, N), block by block: depth blocks of kDepth outer (the first one
// stores C unless accumulating, the next ones add to it), column blocks of kColumns inner.
template <bool kTransposedA, int kDepth = kBlockDepth, int kColumns = kBlockColumns>
__attribute__((noinline)) void gemm(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
                                    float* C, int ldc, bool accumulate) {
  int k0 = 0;
  do {  // at least once: K = 0 still stores (or keeps) C
    const int kb = std::min(kDepth, K - k0);
    const float* a = kTransposedA ? A + std::size_t(k0) * lda : A + k0;
    for (int n0 = 0; n0 < N; n0 += kColumns)
      gemm_block<kTransposedA>(M, std::min(kColumns, N - n0), kb, a, lda, B + std::size_t(k0) * ldb + n0, ldb,
                               C + n0, ldc, accumulate || k0 > 0);
    k0 += kb;
  } while (k0 < K);
}

}  // namespace

const char* tile_name() { return kTileRows == 2 ? "2x4" : "4x2"; }

void f32_gemm_nn_strided(int M, int N, int K, const float* A, int lda, const float* Bm, int ldb, float* C,
                         int ldc, bool accumulate) {
  gemm<false, kStridedDepth, kStridedColumns>(M, N, K, A, lda, Bm, ldb, C, ldc, accumulate);
}

void f32_gemm_tn_strided(int M, int N, int K, const float* A, int lda, const float* Bm, int ldb, float* C,
                         int ldc, bool accumulate) {
  gemm<true, kStridedDepth, kStridedColumns>(M, N, K, A, lda, Bm, ldb, C, ldc, accumulate);
}

void f32_gemm_nn(int M, int N, int K, const float* A, const float* Bm, float* C, bool accumulate) {
  gemm<false>(M, N, K, A, K, Bm, N, C, N, accumulate);
}

void f32_gemm_tn(int M, int N, int K, const float* A, const float* Bm, float* C, bool accumulate) {
  gemm<true>(M, N, K, A, M, Bm, N, C, N, accumulate);
}

// B (N, K) is transposed a block at a time into a buffer on the stack (kPanel x kPanel floats,
// 16 KiB), so the product runs on the register-tiled kernel instead of one dot product per element.
void f32_gemm_nt(int M, int N, int K, const float* A, const float* Bm, float* C, bool accumulate) {
  constexpr int kPanel = 64;
  float bt[kPanel * kPanel];  // (k, n) of the block, row stride kPanel
  for (int n0 = 0; n0 < N; n0 += kPanel) {
    const int nb = std::min(kPanel, N - n0);
    for (int k0 = 0; k0 < K; k0 += kPanel) {
      const int kb = std::min(kPanel, K - k0);
      f32_transpose(nb, kb, Bm + std::size_t(n0) * K + k0, K, bt, kPanel);
      gemm<false>(M, nb, kb, A + k0, K, bt, kPanel, C + n0, N, accumulate || k0 > 0);
    }
  }
  if (K == 0 && !accumulate) std::fill(C, C + std::size_t(M) * N, 0.0f);
}

void f32_transpose(int rows, int cols, const float* src, int lds, float* dst, int ldd) {
  int r = 0;
#if ATTNLAB_SIMD
  constexpr int W = lanes<Vec>();
  for (; r + W <= rows; r += W) {
    int c = 0;
    for (; c + W <= cols; c += W) {
      Vec block[W];
      for (int x = 0; x < W; ++x) block[x] = Vec::load_unaligned(src + std::size_t(r + x) * lds + c);
      xsimd::transpose(block, block + W);
      for (int x = 0; x < W; ++x) block[x].store_unaligned(dst + std::size_t(c + x) * ldd + r);
    }
    for (; c < cols; ++c)
      for (int x = 0; x < W; ++x) dst[std::size_t(c) * ldd + r + x] = src[std::size_t(r + x) * lds + c];
  }
#endif
  for (; r < rows; ++r)
    for (int c = 0; c < cols; ++c) dst[std::size_t(c) * ldd + r] = src[std::size_t(r) * lds + c];
}

}  // namespace attnlab::kernels
