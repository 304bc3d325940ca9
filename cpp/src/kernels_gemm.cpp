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
// xsimd's fma is one vfmadd. The tile is loaded from / stored to C once, not once per k. The
// relaxed build also has a 6 x 2 tile (12 accumulators, one relaxed_madd each), chosen at run time
// by set_tile: see kTallTileRows below.
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

// The tile shape per instruction set, measured with build/bench_passes (and its em++ build) on Zen 4,
// the fused forward's 32 x 64 x 64 products, CPU time:
//   wasm simd128 (V8): 2 x 4 (8 columns more per broadcast, half the splats of a scalar, which V8
//     builds with a shuffle) 44.4 / 43.0 GFLOP/s for S / PV against 4 x 2's 40.7 / 38.7, the
//     forward loop 66% of the mul+add ceiling against 62%; relaxed: 72% against 66%. 6 x 2, 4 x 3
//     and 3 x 4 spill (34-38 GFLOP/s), 8 x 1 does 30.
//     Tried again with sdpa_passes (64 x 64 x 64 in L1, ceiling 52; issue 13, 2026-11-24): 2 x 4 46,
//     4 x 2 44, 3 x 3 35, 4 x 3 39, 3 x 4 38, 2 x 5 36, 2 x 6 27, 1 x 8 31.5. More than 8
//     accumulators spill although 3 x 3 needs 14 of V8's 15 allocatable xmm: V8 unrolls the k loop
//     twice and hoists the first copy's 3 loads and 3 broadcasts together, so one accumulator is
//     stored and reloaded every step (print-wasm-code); loading each B vector next to its use
//     leaves clang's wasm the same. Packing 2 rows of A k-major, so one pointer serves them, cost
//     more than the add it saves (46 -> 41.6: a pack serves only the 4 tiles of 64 columns).
//   relaxed (one relaxed_madd, no temporary): 2 x 4 and 4 x 2 54.3 GFLOP/s, 3 x 3 49.6, 4 x 3 and
//     3 x 4 28.5: the same tile serves both builds.
//   AVX2+FMA: 4 x 2, 101 / 92 GFLOP/s; 2 x 4 (32 columns of 8 lanes) falls to 79 / 56.
#if defined(__wasm_simd128__)
constexpr int kTileRows = 2;     // MR
constexpr int kTileVectors = 4;  // NV
#else
constexpr int kTileRows = 4;     // MR
constexpr int kTileVectors = 2;  // NV
#endif

// The relaxed build's second tile, 6 x 2: 12 accumulators instead of 8. Intel's FMA has a latency
// of 4 cycles on 2 pipes, so 8 chains only just keep them busy, and any stall shows: on an Intel
// Xeon (family 6 model 207, 2026-11-27) the ceiling probe's relaxed_madd read 40.4 GFLOP/s at 8
// chains against 46.3 at 10, and the 2 x 4 tile's products in L1 39-41 GFLOP/s. Larger tiles lost
// before because V8 spilled them, not for want of registers: 12 accumulators, 2 vectors of B and
// one broadcast are 15 of V8's 15 allocatable xmm, but in the copies of the loop that V8's loop
// unrolling makes it issues every load of a step before its multiply-adds (clang's wasm has them
// interleaved), and 6 broadcasts held at once spill two accumulators. kUnrollGuard stops the
// unrolling (below); then 6 x 2 ran the products at 44.4 / 45.2 GFLOP/s against 2 x 4's 40.4 /
// 40.8 and the forward at T = 512 1.07x (alternating in one process, 60 s, 497 calls each). The
// mul+add build keeps one tile: its products reach 99% of its probe on that Xeon already, and 6 x
// 2 with a temporary for each product needs 16 registers. The order of every element's sum over k
// is the same in both tiles, so they give the same bits; the JS loader chooses between them by
// timing both at load, since no machine but that Xeon has measured 6 x 2 yet.
#if ATTNLAB_RELAXED_SIMD
constexpr int kTallTileRows = 6, kTallTileVectors = 2;
#endif

// The tile the products run: 0 the build's default, 1 the relaxed build's 6 x 2 (set_tile).
int g_tile = 0;

// Never true, and never written: the condition of kUnrollGuard's branch. Volatile, so neither
// clang nor binaryen can prove the branch dead and drop it.
const float* volatile g_never_row = nullptr;
volatile int g_never_count = 0;
volatile int g_never_sink = 0;

// A[r][k] of op(A): A is (M, K) with stride lda, or (K, M) when transposed.
template <bool kTransposedA>
inline float a_at(const float* A, int lda, int r, int k) {
  return kTransposedA ? A[std::size_t(k) * lda + r] : A[std::size_t(r) * lda + k];
}

// kLda: op(A)'s row stride when known at compile time (kFixedRowStride), else 0 (lda at run time).
// kUnrollGuard: a branch at the top of each step, never taken, to a loop. V8 unrolls only a loop
// with no loop inside (LoopFinder::FindSmallInnermostLoopFromHeader), so this one stays one step
// a turn and keeps clang's order. The branch goes before the step's loads: after them, V8 sinks the
// multiply-adds past it and the loads end up together again. Its cost is a load, a compare and a
// branch a step, which the 6 x 2 tile's 12 multiply-adds hide (print-wasm-code, Node 20).
template <bool kTransposedA, int MR, int NV, class V, int kLda = 0, bool kUnrollGuard = false>
inline void gemm_tile(int K, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
                      bool accumulate) {
  constexpr int W = lanes<V>();
  V acc[MR][NV];
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v) acc[r][v] = V(0.0f);
  // Row r of op(A) at step k is a[r][k * a_step], one pointer per row, or with A transposed
  // a[0][k * a_step + r]: the rows are neighbours, so one pointer serves them all (clang kept one
  // per row, one add each per step: the fused fwd+bwd, whose dV and dK products take this form, went
  // 1-2% faster in wasm simd, efficiency.mjs, 3 runs alternating, 2026-11-24). Every load is a
  // pointer plus a constant offset (WebAssembly has no scaled-index addressing). With the row
  // stride a compile-time kLda, one pointer serves the rows of an untransposed A too: row r at
  // a[0][k + r * kLda], the offset in the load's immediate.
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
  // Not unrolled: unrolling let the compiler hoist the loads of B of several steps, more live
  // vectors than x64 has registers, and V8 spilled (measured 15% slower with 2 or 4 steps; 2 steps
  // with an empty asm barrier between them, so no load moves, 30 GFLOP/s against 45 (2026-11-24)).
  // Unrolled whole for d = 64 with the row strides constant, so no pointer moves and no loop is left
  // (the loop's adds, compare and stack check are 3.5 of its 25.5 x64 instructions a step): V8
  // computes the addresses of all 128 broadcasts up front and spills them, and the fused forward ran
  // at 20-22 GFLOP/s against 39 (S^T product only, wasm simd, Zen 4, print-wasm-code).
  // B's pointer is the loop variable: a separate step counter was one more add per step in a loop
  // V8 runs at about 6 instructions a cycle (28 per step for 16 vector mul/adds): 45.3 -> 45.9
  // GFLOP/s in L1 and the 1x8x1024x64 loop 58.6 -> 57.9 ms (bench_passes, three runs each).
  const float* const never = kUnrollGuard ? g_never_row : nullptr;
  for (const float* const b_end = B + std::size_t(K) * ldb; b != b_end; b += ldb) {
    if constexpr (kUnrollGuard) {
      if (__builtin_expect(b == never, 0))
        for (int i = 0; i < g_never_count; ++i) g_never_sink = i;
    }
    step(0);
    for (int p = 0; p < kPointers; ++p) a[p] += a_step;
  }
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v) {
      float* c = C + std::size_t(r) * ldc + v * W;
      (accumulate ? acc[r][v] + V::load_unaligned(c) : acc[r][v]).store_unaligned(c);
    }
}

// A register tile's shape: kRows x kVectors vectors of accumulators, with kUnrollGuard (gemm_tile).
template <int kRows, int kVectors, bool kGuard>
struct Tile {
  static constexpr int rows = kRows, vectors = kVectors;
  static constexpr bool unroll_guard = kGuard;
};
using DefaultTile = Tile<kTileRows, kTileVectors, false>;
#if ATTNLAB_RELAXED_SIMD
using TallTile = Tile<kTallTileRows, kTallTileVectors, true>;
#endif

// MR rows of C, every column: full tiles of T's vectors, then one vector, then single columns.
template <bool kTransposedA, class T, int MR, int kLda = 0>
void gemm_rows(int N, int K, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
               bool accumulate) {
  constexpr int W = lanes<Vec>();
  int n = 0;
  for (; n + T::vectors * W <= N; n += T::vectors * W)
    gemm_tile<kTransposedA, MR, T::vectors, Vec, kLda, T::unroll_guard>(K, A, lda, B + n, ldb, C + n, ldc,
                                                                        accumulate);
  for (; n + W <= N; n += W)
    gemm_tile<kTransposedA, MR, 1, Vec>(K, A, lda, B + n, ldb, C + n, ldc, accumulate);
  for (; n < N; ++n) gemm_tile<kTransposedA, MR, 1, Lane1>(K, A, lda, B + n, ldb, C + n, ldc, accumulate);
}

// The last M % T::rows rows: a tile of exactly that many rows.
template <bool kTransposedA, class T, int MR>
void gemm_remainder_rows(int rows, int N, int K, const float* A, int lda, const float* B, int ldb, float* C,
                         int ldc, bool accumulate) {
  if constexpr (MR > 0) {
    if (rows == MR)
      gemm_rows<kTransposedA, T, MR>(N, K, A, lda, B, ldb, C, ldc, accumulate);
    else
      gemm_remainder_rows<kTransposedA, T, MR - 1>(rows, N, K, A, lda, B, ldb, C, ldc, accumulate);
  }
}

// The row stride of an untransposed A that gets tiles of its own, with the stride fixed (gemm_tile):
// 64 floats, the head width of most models, so the fused attention's S^T = K_blk Qt (A = the keys,
// rows of d floats) and the backward's dP^T = V_blk dOt (rows of dv) take it. One pointer add less
// per step of a tile V8 issues at about 6 instructions a cycle: the wasm simd forward (sdpa_forward
// from C++, B=1 H=8 d=64, best of 15, alternating, Zen 4, 2026-11-24) T=512 13.84-14.03 -> 13.48-13.63
// ms (five runs each), T=1024 54.1-54.8 -> 53.1-53.3 ms (three). Unchanged where the multiply-adds,
// not the issue of instructions, bound the tile: the relaxed build (11.7-11.9 ms both) and AVX2
// (within 1%); and the backward, whose other products read P^T and dS^T with the padded stride of
// its blocks (80: a second fixed stride for it left the backward within noise, 31.6-32.8 ms against
// 32.3-32.8 at T=512).
constexpr int kFixedRowStride = 64;

// Every row of C over one block of columns and depth: the register tiles of T, T::rows rows at a time.
template <bool kTransposedA, class T>
void gemm_block_tiled(int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* C,
                      int ldc, bool accumulate) {
  constexpr int MR = T::rows;
  // Row r0 of op(A) starts at A + r0 * lda, or at A + r0 when A is transposed.
  auto rows_of_a = [&](int r0) { return kTransposedA ? A + r0 : A + std::size_t(r0) * lda; };
  int m = 0;
  if constexpr (!kTransposedA) {
    if (lda == kFixedRowStride)
      for (; m + MR <= M; m += MR)
        gemm_rows<false, T, MR, kFixedRowStride>(N, K, rows_of_a(m), lda, B, ldb, C + std::size_t(m) * ldc,
                                                 ldc, accumulate);
  }
  for (; m + MR <= M; m += MR)
    gemm_rows<kTransposedA, T, MR>(N, K, rows_of_a(m), lda, B, ldb, C + std::size_t(m) * ldc, ldc,
                                   accumulate);
  gemm_remainder_rows<kTransposedA, T, MR - 1>(M - m, N, K, rows_of_a(m), lda, B, ldb,
                                               C + std::size_t(m) * ldc, ldc, accumulate);
}

// One block in the tile set_tile chose, where that tile needs one pointer for its rows of A: A
// transposed, or its row stride the fixed one. Otherwise each of the tall tile's 6 rows walks its
// own pointer, and the fused backward (dQ += dS K, dS with the padded stride 80) ran 2.6x slower
// than in 2 x 4 (efficiency.mjs, fwd+bwd at T = 512, 150.8 against 57.2 ms, Intel Xeon); such
// blocks keep the default tile (the same bits).
template <bool kTransposedA>
__attribute__((noinline)) void gemm_block(int M, int N, int K, const float* A, int lda, const float* B,
                                          int ldb, float* C, int ldc, bool accumulate) {
#if ATTNLAB_RELAXED_SIMD
  if (g_tile == 1 && (kTransposedA || lda == kFixedRowStride))
    return gemm_block_tiled<kTransposedA, TallTile>(M, N, K, A, lda, B, ldb, C, ldc, accumulate);
#endif
  gemm_block_tiled<kTransposedA, DefaultTile>(M, N, K, A, lda, B, ldb, C, ldc, accumulate);
}

// Cache blocks for the large products (the layers' projections, e.g. BERT's 768 x 768 weights):
// every tile walks its columns of B over the whole depth, so without blocks each pair of rows of
// A streams all of B (2.3 MiB at 768 x 768) from L3. A block of kBlockDepth x kBlockColumns floats
// of B (128 KiB, within the L2 of Zen 3 and Zen 4) serves every row of A before the next one;
// each tile then walks kBlockDepth rows of its 16 columns (16 KiB, in L1).
// Measured (wasm simd, Zen 4, CPU time, multiHeadAttention forward, dModel 768, H 12, B x T =
// 1 x 128, 1 x 512, 8 x 128): 28.8, 122.8, 214.9 ms unblocked -> 23.3, 98.9, 180.5 ms (1.19-1.24x;
// relaxed 1.16-1.25x); 128 x 256, 256 x 64, 512 x 64 and 256 x 256 were within 5% of this.
constexpr int kBlockDepth = 256, kBlockColumns = 128;

// The strided products are the fused attention's own (sdpa_fused.cpp): blocks of keys and query
// rows against d or dv. In wasm their B must stay in L1 across the tiles of a block, which a head
// width of 128 (Llama's) breaks: S^T = K_blk Qt walks all of Qt (128 x 64 floats, 32 KiB, L1's
// size) for every pair of key rows, O += P V all of V_blk (64 x 128). Blocks of 64 deep by 64
// columns keep each B block at 16 KiB; at d = dv = 64 every product is one block, as before.
// Measured (sdpa_forward from C++, B=1 H=8 d=dv=128, best of 15, alternating, Zen 4, 2026-11-24):
// wasm simd forward T=512 33.4-33.5 -> 31.1-31.3 ms, T=1024 131.5-132.7 -> 123.1-124.3 ms
// (1.07x), the backward given the saved forward 73.7-74.1 -> 70.8-71.7 ms at T=512. Natively
// (AVX2, 8-wide tiles) the same blocks were 3% slower forward, so there the blocks stay as above.
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

int tile_count() {
#if ATTNLAB_RELAXED_SIMD
  return 2;
#else
  return 1;
#endif
}

const char* tile_name(int tile) {
  if (tile == 0) return kTileRows == 2 ? "2x4" : "4x2";
#if ATTNLAB_RELAXED_SIMD
  if (tile == 1) return "6x2";
#endif
  return "";
}

bool set_tile(int tile) {
  if (tile < 0 || tile >= tile_count()) return false;
  g_tile = tile;
  return true;
}

int current_tile() { return g_tile; }

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
