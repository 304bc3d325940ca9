// Fused scaled dot-product attention, FlashAttention-2 style, for every option except d2l fill
// mode and dropout (those stream rows: sdpa_rows.cpp). Work goes block by block: Br query rows of
// one head against Bc keys of its kv head, with register-tiled products (kernels_gemm.cpp), so each
// loaded element feeds several multiply-adds instead of one dot product per (row, key).
//
// A block's scores are kept transposed, S^T (Bc, Br): a row per key, a column per query row, so the
// vectors run along the queries. Then the keys and values are read in place (their rows are the
// rows of the products' A or B; nothing is transposed per key block; rows whose stride would crowd
// L1 are copied with a padded one, aliasing_stride: the forward's values, the backward's Q and dO),
// the online softmax's max and sum are vertical (no reduction across lanes), and O += P V reads P^T
// through one pointer (the transposed-A product). Only the block's queries (and, backward, dO) are
// transposed, once per block.
//
// Forward, per query block (Qt = (scale log2 e Q_blk)^T, (d, Br), so the scores S2 = S log2 e are
// in log2 units and the softmax runs in base 2 (kLog2e below); online softmax: m running max, l
// running sum, both per query row):
//   pass 1: S2^T = K_blk Qt                           (Bc, Br) over d
//   pass 2: S2^T = softcap(S2^T), then + bias         element by element only in the blocks
//           where visible, -inf where masked          that a row's start or limit cuts, or in
//                                                     all of them with an attnMask or ALiBi
//   pass 3: m' = max(m, colmax S2^T); P^T = 2^(S2^T - m'); l = l 2^(m - m') + colsum P^T; O *= 2^(m - m')
//   pass 4: O += (P^T)^T V_blk
// Key blocks at or past every row's limit (validLens, causal, window) or before every row's start (the
// window's left side) are skipped: causal does half the work, a window of w keys O(Tq w) instead of
// O(Tq Tk). A key block that some row's limit or start cuts (the diagonal) runs in groups of 16 query
// rows, each on the keys its rows may see. Passes 1 and 3 run a block's or a group's columns up to a
// whole vector (padded_columns: zero queries). At the end O /= l and lse = (m + log2 l) ln 2; a row
// with nothing visible keeps O = 0 and lse = -inf.
//
// Backward, per query block, quoting the forward (D = rowsum(dO * O) is FlashAttention-2's term):
//   stats:  lse and D of the block's rows: from the caller's saved out and lse, else by running the
//           forward above on the block (its O lands in scratch); dOt = dO_blk^T (dv, Br)
//   per key block, on the rows that may see one of its keys:
//           S2^T as in passes 1-2 (softcap derivative kept), P^T = 2^(S2^T - lse log2 e)
//           dP^T = V_blk dOt;  dS^T = scale P^T (dP^T - D) (* softcap derivative)
//           dV_blk += P^T dO,  dK_blk += dS^T Q,  dQ += (dS^T)^T K_blk
// dK and dV accumulate in the outputs over query blocks and, for GQA, over the heads sharing a kv
// head. Scratch holds a few blocks, never O(Tq) and never O(Tq * Tk).
// Both directions compute S^T with the same product, and a tail column rounds as a vector lane
// does (kernels_vec.hpp's Lane1 fma): the backward's P = exp(S - lse) turns one ulp of a large
// score into a relative error of P, so its scores must be the forward's to the bit.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "attnlab/kernels.hpp"
#include "sdpa_paths.hpp"
#include "softmax_row.hpp"

namespace attnlab::detail {
namespace {

// Block sizes (Br query rows by Bc keys), the fastest of those timed in wasm SIMD
// (docs/performance.md). Forward: 64 x 64.
// Under a sliding window narrower than 512 keys, 32 rows: a taller block spans more keys that
// most of its rows do not see.
// Backward: 64 x 32: the dK, dV products reduce over the Br rows, so more rows amortise loading
// and storing their tiles of C.
constexpr int kForwardRows = 64, kForwardKeys = 64;
constexpr int kNarrowWindowRows = 32, kNarrowWindowKeys = 512;
constexpr int kBackwardRows = 64, kBackwardKeys = 32;
constexpr int kMaxRows = std::max(kForwardRows, kBackwardRows);
// The blocks with Br columns get a row stride of Br + 16 floats: at Br = 64 floats (256 bytes) the
// rows of P^T and of V would fall in 16 of L1's 64 sets and evict each other in O += P V.
constexpr int kColumnPad = 16;

// Rows the products read in place from q, k, v or dO have their row stride from the tensor: dv
// floats for V in O += P V, whose tiles walk a block's 64 rows of V for each pair of query rows. At
// dv = 128 (Llama's heads) that is 512 bytes: L1 (32 KiB, 8 ways of 64 sets of 64-byte lines)
// holds the 64 rows in 8 of its sets, 8 lines each, full, and every other line that maps there
// evicts a row of V. Such a block of V is copied first into scratch with a padded stride (+ 16
// floats), a copy of 1/128 of the product's flops. A stride of 64 floats (256 bytes) spreads 64
// rows over 16 sets and is read in place.
// The backward's query-block operands, Q in dK += dS^T Q and dO in dV += P^T dO, are read once per
// key block, so each query block copies them once (at d = dv = 128, 2 x 36 KiB). The key block's K
// and V (32 rows, 4 of the 8 ways of their sets) stay in place: a copy per pair of blocks costs
// more than the conflicts it avoids. The gains of each copy are in docs/performance.md.
bool aliasing_stride(int floats) { return floats % 128 == 0; }
int padded_stride(int floats) { return floats + kColumnPad; }

constexpr float kInf = std::numeric_limits<float>::infinity();
// The softmax runs in base 2 (kernels::f32_online_softmax_columns): scores are computed in log2
// units, S2 = S log2 e, by folding log2 e into the scale of Q, so each exp is a 2^x, whose range
// reduction is exact and shorter than exp's (kernels_vec.hpp).
constexpr double kLog2e = 1.44269504088896340736, kLn2 = 0.693147180559945309417;

// The block sizes and scratch of one pass, carved out of the caller's buffer (or only counted,
// when base is null). Every block laid out (Bc, Br), (d, Br) or (dv, Br) has row stride ld.
struct Scratch {
  int rows, keys;         // Br, Bc
  int ld;                 // row stride of the blocks below that have Br columns: Br + kColumnPad
  float* qt = nullptr;    // (d, Br): scale * the block's query rows, transposed
  float* s = nullptr;     // (Bc, Br): scores S^T, then P^T
  float* m = nullptr;     // (Br): running max of the online softmax
  float* l = nullptr;     // (Br): running sum of the online softmax
  float* lse = nullptr;   // backward only: (Br) the rows' log-sum-exp
  float* D = nullptr;     // backward only: (Br) rowsum(dO * O)
  float* dot = nullptr;   // backward only: (dv, Br) the block's dO, transposed
  float* dp = nullptr;    // backward only: (Bc, Br) dP^T, then dS^T
  float* dcap = nullptr;  // backward only: (Bc, Br) softcap derivative
  float* o = nullptr;     // backward only: (Br, dv) the recomputed output of the block; it is dead
                          // once D is known, so it shares the floats of dot, dp and dcap
  // Padded copies (padded_stride) of rows the products would read in place with an aliasing_stride;
  // null when the stride does not alias:
  float* v = nullptr;        // forward: (Bc, dv + kColumnPad) a key block's values
  float* q = nullptr;        // backward: (Br, d + kColumnPad) the block's query rows (B of dK += dS^T Q)
  float* dout = nullptr;     // backward: (Br, dv + kColumnPad) the block's rows of dO (B of dV += P^T dO)
  std::uint64_t floats = 0;  // 64-bit: Br * d alone passes 2^32 in wasm32 for d >= 2^26

  Scratch(const AttentionDims& dims, bool backward, float* base)
      : rows(backward ? kBackwardRows : kForwardRows),
        keys(backward ? kBackwardKeys : kForwardKeys),
        ld(rows + kColumnPad) {
    auto take = [&](float*& at, std::uint64_t n) {
      at = base != nullptr ? base + std::size_t(floats) : nullptr;
      floats += (n + 15) / 16 * 16;  // each block starts on a 64-byte boundary of the buffer
    };
    take(qt, std::uint64_t(dims.d) * ld);
    take(s, std::uint64_t(keys) * ld);
    take(m, rows);
    take(l, rows);
    auto take_padded = [&](float*& at, int count, int width) {
      if (aliasing_stride(width)) take(at, std::uint64_t(count) * padded_stride(width));
    };
    if (!backward) {
      take_padded(v, keys, dims.dv);
      return;
    }
    take(lse, rows);
    take(D, rows);
    take_padded(q, rows, dims.d);
    take_padded(dout, rows, dims.dv);
    const std::uint64_t shared_start = floats;
    take(dot, std::uint64_t(dims.dv) * ld);
    take(dp, std::uint64_t(keys) * ld);
    take(dcap, std::uint64_t(keys) * ld);
    const std::uint64_t shared_floats = floats - shared_start, o_floats = std::uint64_t(rows) * dims.dv;
    o = base != nullptr ? base + std::size_t(shared_start) : nullptr;
    if (o_floats > shared_floats) floats += o_floats - shared_floats;
  }
};

// Rows i0 .. i0 + rows - 1 of head (b, h): where they live, their masks, and which keys matter.
struct QueryBlock {
  int rows = 0;
  std::size_t first_row = 0;  // (b * H + h) * Tq + i0: index of the first row in (B, H, Tq)
  std::size_t first_key = 0;  // (b * Hkv + kv head) * Tk: index of the kv head's first key in (B, Hkv, Tk)
  const float* kh = nullptr;  // the kv head's keys (Tk, d) and values (Tk, dv)
  const float* vh = nullptr;
  MaskRow mask[kMaxRows];
  int keys_from = 0;      // min start: no row sees a key before it (those blocks are skipped)
  int keys_seen = 0;      // max limit: no row sees a key at or past it (those blocks are skipped)
  int keys_all_from = 0;  // max start and min limit: in between only an attnMask can hide a key
  int keys_all = 0;
  bool elementwise = false;  // an attnMask or ALiBi: every block is masked element by element
};

QueryBlock query_block(const AttentionDims& dims, const SdpaOptions& opt, const float* k, const float* v,
                       int b, int h, int i0, int rows) {
  QueryBlock qb;
  qb.rows = rows;
  qb.first_row = (std::size_t(b) * dims.H + h) * dims.Tq + i0;
  qb.first_key = (std::size_t(b) * dims.Hkv + dims.kv_head_of(h)) * dims.Tk;
  qb.kh = k + qb.first_key * dims.d;
  qb.vh = v + qb.first_key * dims.dv;
  qb.keys_all = dims.Tk;
  qb.keys_from = dims.Tk;
  for (int r = 0; r < rows; ++r) {
    qb.mask[r] = mask_row(opt.mask, dims.Tq, dims.Tk, b, h, i0 + r);
    qb.keys_from = std::min(qb.keys_from, qb.mask[r].start);
    qb.keys_seen = std::max(qb.keys_seen, qb.mask[r].limit);
    qb.keys_all_from = std::max(qb.keys_all_from, qb.mask[r].start);
    qb.keys_all = std::min(qb.keys_all, qb.mask[r].limit);
  }
  qb.elementwise = opt.mask.has_attn_mask() || opt.mask.alibi_slopes != nullptr;
  return qb;
}

// The mask of `row` seen from key j0 on, for apply_mask on a block that starts at key j0.
MaskRow from_key(const MaskRow& row, int j0) {
  MaskRow shifted = row;
  shifted.start = std::max(row.start - j0, 0);
  shifted.limit = std::max(row.limit - j0, 0);
  shifted.alibi_center = row.alibi_center - j0;
  const std::size_t offset = std::size_t(j0) * row.stride_j;
  if (shifted.bool_row != nullptr) shifted.bool_row += offset;
  if (shifted.float_row != nullptr) shifted.float_row += offset;
  return shifted;
}

// Columns the forward's S^T product and online softmax run on for `count` query columns: up to a
// whole vector. A column past the last whole vector would otherwise run on one-lane tiles, each
// costing about as much as a whole vector (4 columns in wasm, 8 natively); the padding columns are
// zero queries (scaled_queries), their scores 0, and nothing reads them after the softmax. Measured
// on the fused forward alone (sdpa_forward_fused, B=1 H=8 d=64 Tk=4096, CPU time), padded / tails:
// see sdpa_paths.hpp's decode rule, which this moved.
int padded_columns(int count) {
  const int w = kernels::width();
  return (count + w - 1) / w * w;
}

// sc.qt (d, rows), row stride sc.ld = scale log2 e * the block's query rows (contiguous in q),
// transposed: the scores come out in log2 units. Columns rows .. padded_columns(rows) - 1 are zero.
void scaled_queries(const AttentionDims& dims, const SdpaOptions& opt, const QueryBlock& qb, const float* q,
                    const Scratch& sc) {
  kernels::f32_transpose(qb.rows, dims.d, q + qb.first_row * dims.d, dims.d, sc.qt, sc.ld);
  const float scale = float(opt.scale * kLog2e);
  const int padded = padded_columns(qb.rows);
  for (int k = 0; k < dims.d; ++k) {
    float* row = sc.qt + std::size_t(k) * sc.ld;
    kernels::f32_scale(row, scale, qb.rows);
    std::fill(row + qb.rows, row + padded, 0.0f);
  }
}

// Rows r0 .. r1 - 1 of a query block.
struct RowRange {
  int r0, r1;
  int count() const { return r1 - r0; }
};

// Whether row r of qb may see one of the keys j0 .. j0 + nk - 1.
bool row_reaches(const QueryBlock& qb, int r, int j0, int nk) {
  return qb.mask[r].limit > j0 && qb.mask[r].start < j0 + nk;
}

// The rows of qb that may see one of the keys j0 .. j0 + nk - 1: the smallest range holding every
// such row (for causal masks and windows, whose limits and starts grow with the row, that is exactly
// those rows; rows inside the range that see none of the block's keys are masked like any other key).
RowRange rows_reaching(const QueryBlock& qb, int j0, int nk) {
  RowRange range{0, qb.rows};
  while (range.r0 < range.r1 && !row_reaches(qb, range.r0, j0, nk)) ++range.r0;
  while (range.r1 > range.r0 && !row_reaches(qb, range.r1 - 1, j0, nk)) --range.r1;
  return range;
}

// Columns `rr` of s (nk, Br), row stride sc.ld: the masked scores S^T of keys j0 .. j0 + nk - 1
// (forward passes 1-2), a row per key, in log2 units: the softcap is cap log2 e tanh(S2 / (cap log2 e))
// = log2 e softcap(S) and the bias is added times log2 e. The product runs on `columns` >= rr.count()
// columns from rr.r0 (the forward's padded_columns; the extra ones are neither capped nor masked).
// dcap (optional, same layout) receives the softcap derivative.
void block_scores(const AttentionDims& dims, const SdpaOptions& opt, const QueryBlock& qb, const Scratch& sc,
                  RowRange rr, int columns, int j0, int nk, float* dcap) {
  float* s = sc.s + rr.r0;
  kernels::f32_gemm_nn_strided(nk, columns, dims.d, qb.kh + std::size_t(j0) * dims.d, dims.d, sc.qt + rr.r0,
                               sc.ld, s, sc.ld, false);
  if (opt.softcap > 0.0f) {
    for (int j = 0; j < nk; ++j)
      kernels::f32_softcap(s + j * sc.ld, float(opt.softcap * kLog2e), rr.count(),
                           dcap != nullptr ? dcap + j * sc.ld + rr.r0 : nullptr);
  }
  if (qb.elementwise || j0 < qb.keys_all_from || j0 + nk > qb.keys_all) {
    for (int r = rr.r0; r < rr.r1; ++r)
      apply_mask(from_key(qb.mask[r], j0), opt.mask, sc.s + r, nk, sc.ld, float(kLog2e));
  }
}

// Forward passes 1-4 on keys j0 .. j0 + nk - 1 for the rows `rr`: the online softmax state sc.m,
// sc.l and the rows of o (Br, dv) move on by one key block.
// The lazy rescale of FlashAttention-4 and K pre-transposed per kv head did not speed up the loop
// run whole, so neither was kept (docs/performance.md, "Tried in the kernels").
// Rows a product reads: row i at rows + i * ld.
struct StridedRows {
  const float* rows;
  int ld;
  const float* row(int i) const { return rows + std::size_t(i) * ld; }
};

// `count` rows of `width` floats from `from` (row stride width) as the products read them: in place,
// or copied once into `copy` with a padded stride when the scratch holds one (aliasing_stride).
StridedRows rows_for_products(const float* from, int count, int width, float* copy) {
  if (copy == nullptr) return {from, width};
  const int ld = padded_stride(width);
  for (int i = 0; i < count; ++i)
    std::copy(from + std::size_t(i) * width, from + std::size_t(i + 1) * width, copy + std::size_t(i) * ld);
  return {copy, ld};
}

void forward_key_block(const AttentionDims& dims, const SdpaOptions& opt, const QueryBlock& qb,
                       const Scratch& sc, RowRange rr, int j0, int nk, StridedRows v, float* o) {
  // Up to a whole vector of columns: rr.r0 is a multiple of kRowGroup, so rr.r0 + columns <= Br.
  const int columns = padded_columns(rr.count());
  block_scores(dims, opt, qb, sc, rr, columns, j0, nk, nullptr);
  float alpha[kMaxRows];
  kernels::f32_online_softmax_columns(sc.s + rr.r0, sc.ld, nk, columns, sc.m + rr.r0, sc.l + rr.r0, alpha);
  for (int r = rr.r0; r < rr.r1; ++r)  // a new max rescales what was accumulated
    if (alpha[r - rr.r0] != 1.0f) kernels::f32_scale(o + std::size_t(r) * dims.dv, alpha[r - rr.r0], dims.dv);
  kernels::f32_gemm_tn_strided(rr.count(), dims.dv, nk, sc.s + rr.r0, sc.ld, v.rows, v.ld,
                               o + std::size_t(rr.r0) * dims.dv, dims.dv, true);
}

// Query rows per group on key blocks that some row's limit or start cuts (the diagonal of a causal
// mask, the edges of a window): each group computes only up to the keys its last-reaching row can see
// and skips the block when none of its rows sees a key of it, so masked corners cost little. 16 rows
// are one register tile's width of S^T's columns (2 x 4 vectors in wasm, 4 x 2 of 8 lanes natively):
// a group of 8 would run on one-vector tiles.
constexpr int kRowGroup = 16;

// o (rows, dv) and lse (rows) of one query block (sc.qt already holds its scaled queries).
void forward_block(const AttentionDims& dims, const SdpaOptions& opt, const QueryBlock& qb, const Scratch& sc,
                   float* o, float* lse) {
  float* m = sc.m;
  float* l = sc.l;
  std::fill(o, o + std::size_t(qb.rows) * dims.dv, 0.0f);
  std::fill(m, m + padded_columns(qb.rows), -kInf);  // the padding columns' state too (never read)
  std::fill(l, l + padded_columns(qb.rows), 0.0f);
  for (int j0 = qb.keys_from; j0 < qb.keys_seen; j0 += sc.keys) {
    const int nk = std::min(sc.keys, qb.keys_seen - j0);
    // The key block's values, read by every row group of a block on the diagonal.
    const StridedRows v = rows_for_products(qb.vh + std::size_t(j0) * dims.dv, nk, dims.dv, sc.v);
    if (j0 >= qb.keys_all_from && j0 + nk <= qb.keys_all) {  // every row sees every key (up to an attnMask)
      forward_key_block(dims, opt, qb, sc, {0, qb.rows}, j0, nk, v, o);
      continue;
    }
    for (int g0 = 0; g0 < qb.rows; g0 += kRowGroup) {
      const RowRange group{g0, std::min(g0 + kRowGroup, qb.rows)};
      int reach = 0;  // keys of the block any row of the group may see: up to reach, from key `from` on
      int from = nk;
      for (int r = group.r0; r < group.r1; ++r) {
        reach = std::max(reach, std::min(qb.mask[r].limit - j0, nk));
        from = std::min(from, std::max(qb.mask[r].start - j0, 0));
      }
      if (reach > from) forward_key_block(dims, opt, qb, sc, group, j0, reach, v, o);
    }
  }
  for (int r = 0; r < qb.rows; ++r) {
    if (l[r] == 0.0f) {  // nothing visible: O = 0 already
      lse[r] = -kInf;
      continue;
    }
    kernels::f32_scale(o + std::size_t(r) * dims.dv, 1.0f / l[r], dims.dv);
    // (m + log2 l) ln 2, summed in double and rounded once; logf is already linked (log2 in double
    // brought musl's table: 1 KiB gzipped).
    lse[r] = float(m[r] * kLn2 + std::log(l[r]));
  }
}

// Calls visit(qb) for every query block of `rows` rows, head by head.
template <class Visit>
void for_each_query_block(const AttentionDims& dims, const SdpaOptions& opt, const float* k, const float* v,
                          int rows, Visit&& visit) {
  for (int b = 0; b < dims.B; ++b)
    for (int h = 0; h < dims.H; ++h)
      for (int i0 = 0; i0 < dims.Tq; i0 += rows)
        visit(query_block(dims, opt, k, v, b, h, i0, std::min(rows, dims.Tq - i0)));
}

// The backward's work on keys j0 .. j0 + nk - 1 for the rows `rr` of query block qb, whose lse
// (+inf where -inf: see sdpa_backward_fused) and D are in sc.lse, sc.D, scaled queries in sc.qt and
// dO^T in sc.dot: accumulates into dq (the block's rows) and into dk, dv (the key block's rows).
void backward_key_block(const AttentionDims& dims, const SdpaOptions& opt, const QueryBlock& qb,
                        const Scratch& sc, RowRange rr, int j0, int nk, StridedRows q_rows,
                        StridedRows dout_rows, float* dq, float* dk, float* dv) {
  const std::size_t first_row = qb.first_row + rr.r0;  // in (B, H, Tq)
  const std::size_t first_key = qb.first_key + j0;     // in (B, Hkv, Tk)
  const int rows = rr.count();
  float* dcap = opt.softcap > 0.0f ? sc.dcap : nullptr;
  block_scores(dims, opt, qb, sc, rr, rows, j0, nk, dcap);
  float* p = sc.s + rr.r0;    // (nk, rows), row stride sc.ld: S^T, then P^T
  float* ds = sc.dp + rr.r0;  // (nk, rows), row stride sc.ld: dP^T, then dS^T
  for (int j = 0; j < nk; ++j) kernels::f32_exp2_minus(p + j * sc.ld, p + j * sc.ld, sc.lse + rr.r0, rows);
  // dP^T = V_blk dO^T, then dS^T = scale P^T (dP^T - D) in place (masked keys have P = 0, so dS = 0).
  kernels::f32_gemm_nn_strided(nk, rows, dims.dv, qb.vh + std::size_t(j0) * dims.dv, dims.dv, sc.dot + rr.r0,
                               sc.ld, ds, sc.ld, false);
  for (int j = 0; j < nk; ++j) {
    float* ds_row = ds + j * sc.ld;
    kernels::f32_softmax_grad_columns(ds_row, p + j * sc.ld, ds_row, sc.D + rr.r0, opt.scale, rows);
    if (dcap != nullptr) kernels::f32_mul(ds_row, dcap + j * sc.ld + rr.r0, rows);
  }
  // dV_blk += P^T dO, dK_blk += dS^T Q, dQ += (dS^T)^T K_blk
  kernels::f32_gemm_nn_strided(nk, dims.dv, rows, p, sc.ld, dout_rows.row(rr.r0), dout_rows.ld,
                               dv + first_key * dims.dv, dims.dv, true);
  kernels::f32_gemm_nn_strided(nk, dims.d, rows, ds, sc.ld, q_rows.row(rr.r0), q_rows.ld,
                               dk + first_key * dims.d, dims.d, true);
  kernels::f32_gemm_tn_strided(rows, dims.d, nk, ds, sc.ld, qb.kh + std::size_t(j0) * dims.d, dims.d,
                               dq + first_row * dims.d, dims.d, true);
}

}  // namespace

std::uint64_t sdpa_fused_scratch_floats(const AttentionDims& dims) {
  return std::max(Scratch(dims, false, nullptr).floats, Scratch(dims, true, nullptr).floats);
}

void sdpa_forward_fused(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                        const float* v, float* out, float* lse, float* scratch) {
  const Scratch sc(dims, false, scratch);
  float lse_block[kForwardRows];  // when the caller does not want lse
  const MaskSpec& mask = opt.mask;
  const bool narrow_window = mask.window_left >= 0 && mask.window_right >= 0 &&
                             std::int64_t(mask.window_left) + mask.window_right + 1 < kNarrowWindowKeys;
  const int rows = narrow_window ? kNarrowWindowRows : kForwardRows;
  for_each_query_block(dims, opt, k, v, rows, [&](const QueryBlock& qb) {
    scaled_queries(dims, opt, qb, q, sc);
    forward_block(dims, opt, qb, sc, out + qb.first_row * dims.dv,
                  lse != nullptr ? lse + qb.first_row : lse_block);
  });
}

void sdpa_backward_fused(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                         const float* v, const float* dout, const SdpaSavedForward& saved, float* dq,
                         float* dk, float* dv, float* scratch) {
  const Scratch sc(dims, true, scratch);
  std::fill(dk, dk + dims.k_size(), 0.0f);
  std::fill(dv, dv + dims.v_size(), 0.0f);
  const bool recompute = saved.out == nullptr || saved.lse == nullptr;
  for_each_query_block(dims, opt, k, v, kBackwardRows, [&](const QueryBlock& qb) {
    const int rows = qb.rows;
    const float* do_rows = dout + qb.first_row * dims.dv;
    float* lse = sc.lse;
    float* D = sc.D;
    scaled_queries(dims, opt, qb, q, sc);

    // stats: lse and D = rowsum(dO * O) of the block's rows, then dO^T (over o's floats: D is known).
    const float* o = sc.o;
    if (recompute) {
      forward_block(dims, opt, qb, sc, sc.o, lse);
    } else {
      o = saved.out + qb.first_row * dims.dv;
      std::copy(saved.lse + qb.first_row, saved.lse + qb.first_row + rows, lse);
    }
    for (int r = 0; r < rows; ++r) {
      D[r] = kernels::f32_dot(do_rows + std::size_t(r) * dims.dv, o + std::size_t(r) * dims.dv, dims.dv);
      // In log2 units as the scores; nothing visible: P = 2^(S2 - inf) = 0, no weight, no gradient.
      lse[r] = lse[r] == -kInf ? kInf : float(lse[r] * kLog2e);
    }
    kernels::f32_transpose(rows, dims.dv, do_rows, dims.dv, sc.dot, sc.ld);
    const StridedRows q_rows = rows_for_products(q + qb.first_row * dims.d, rows, dims.d, sc.q);
    const StridedRows dout_rows = rows_for_products(do_rows, rows, dims.dv, sc.dout);

    std::fill(dq + qb.first_row * dims.d, dq + (qb.first_row + rows) * dims.d, 0.0f);
    for (int j0 = qb.keys_from; j0 < qb.keys_seen; j0 += sc.keys) {
      const int nk = std::min(sc.keys, qb.keys_seen - j0);
      const RowRange rr = rows_reaching(qb, j0, nk);
      if (rr.count() > 0) backward_key_block(dims, opt, qb, sc, rr, j0, nk, q_rows, dout_rows, dq, dk, dv);
    }
  });
}

}  // namespace attnlab::detail
