// Internal: the two implementations behind sdpa_forward / sdpa_backward (sdpa.cpp picks one).
//   row streaming (sdpa_rows.cpp)  one query row at a time; every option, the trace and weights.
//   fused        (sdpa_fused.cpp)  blocks of query rows against blocks of keys, online softmax,
//                                  register-tiled products; not d2l fill mode, not dropout.
// Shapes as in attnlab/sdpa.hpp; each takes scratch of its own *_scratch_floats().
#pragma once

#include <cstddef>

#include "attnlab/kernels.hpp"
#include "attnlab/sdpa.hpp"

namespace attnlab::detail {

std::uint64_t sdpa_rows_scratch_floats(const AttentionDims& dims);
void sdpa_forward_rows(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                       const float* v, const SdpaForwardOutputs& outputs, float* scratch);
void sdpa_backward_rows(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                        const float* v, const float* dout, float* dq, float* dk, float* dv, float* scratch);

// True when the fused path computes exactly what the options ask for.
inline bool fused_supports(const SdpaOptions& opt) {
  return opt.kernel == SdpaKernel::automatic && !opt.mask.use_fill && opt.dropout <= 0.0f;
}
// Whether the forward streams rows even where the fused path applies: a decode step (a few new
// rows against a long cache). A fused block keeps S^T (Bc, Br), a column per query, so few queries
// leave its products on one-vector tiles, and the Tq % W columns past the last whole vector (W
// floats per vector) on one-lane tiles that cost about a whole vector each; the row path reads
// each key and value once per query row. Measured through the JS API (loadAttention, whole call,
// CPU time, median of 15-25 alternating rounds, node 20, Zen 4, B=1 H=8 d=64 Tk=4096, no mask;
// ranges are 3-4 runs), fused / rows:
//   Tq       1    2    3          4          5          6          7          8
//   simd     1.28 1.31 1.24-1.63  0.81-0.89  0.96-1.06  0.96-1.15  1.10-1.26  0.77-0.80
//   relaxed  1.43 1.67 1.92-2.20  0.82-0.93  1.09-1.26  1.19-1.39  1.31-1.61  0.73
//   Tq       9          10         11         12         13         14         15         16
//   simd     0.89-0.95  0.93-1.05  1.03-1.12  0.75-0.78  0.87-0.88  0.94-0.96  1.00-1.04  0.60-0.63
//   relaxed  0.90-1.10  1.02-1.21  1.14-1.33  0.70-0.80  0.86-1.02  0.98-1.10  1.09-1.22  0.52-0.55
// and past 16 at most a tie (Tq = 17..20, 23: simd 0.64-0.83, relaxed 0.64-0.97); scalar (W = 1,
// no tails): Tq=1 1.10, 2 1.01, 3 0.79, 4..16 0.59-0.73. So rows for one query row, and below
// kDecodeRows = 16 (one register tile's width of columns: 4 vectors of 4 in wasm, 2 of 8 natively,
// sdpa_fused.cpp's kRowGroup) whenever Tq leaves a lane tail. Relaxed, the default where the engine
// has it, gains or ties at every such Tq; simd gives up 5-15% at Tq = 9, 13, 14, ties at 5 and
// 10, and gains 3-26% at 6, 7, 11. Natively (AVX2, W = 8; the C++ functions alone, median of 31)
// a tail costs more still: Tq = 2..7 3.7-4.7, 9 1.46, 15 2.99, 8 0.84, 16 0.37, 17 0.73, but also
// 20 1.29 and 23 1.90, past this bound; the native build serves the tests, so it keeps the wasm rule.
constexpr int kDecodeRows = 16;
inline bool decode_shaped(const AttentionDims& dims) {
  return dims.Tq == 1 || (dims.Tq < kDecodeRows && dims.Tq % kernels::width() != 0);
}
std::uint64_t sdpa_fused_scratch_floats(const AttentionDims& dims);
// out (B, H, Tq, dv) and lse (B, H, Tq, optional).
void sdpa_forward_fused(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                        const float* v, float* out, float* lse, float* scratch);
void sdpa_backward_fused(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                         const float* v, const float* dout, const SdpaSavedForward& saved, float* dq, float* dk,
                         float* dv, float* scratch);

}  // namespace attnlab::detail
