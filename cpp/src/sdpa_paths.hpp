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
// rows against a long cache). A fused block keeps S^T (Bc, Br), a column per query, and runs its
// columns up to a whole vector (sdpa_fused.cpp's padded_columns), so a block of Tq < W queries (W
// floats per vector) costs what W queries do, while the row path reads each key and value once per
// query row. Measured on the two functions alone (sdpa_forward_fused / sdpa_forward_rows, B=1 H=8
// d=64 Tk=4096, no mask, CPU time, best of 25, three runs; Zen 4, node 20), fused / rows:
//   Tq       1          2          3          4          5          6          7          8
//   simd     2.08-2.28  1.23-1.26  0.97-1.25  0.70-1.04  0.95-1.19  0.77-1.03  0.72-0.89  0.65-0.74
//   relaxed  1.78-2.22  1.05-1.19  0.86-0.89  0.62-0.66  0.82-1.00  0.86-0.93  0.66-0.87  0.72-0.81
// and from 9 to 24 at most 0.93 (simd) and 0.95 (relaxed); natively (AVX2, W = 8, one run) 2.81 at
// Tq = 1, 1.07-2.06 from 2 to 8, 0.50-0.89 from 9 to 24. So rows below one vector of queries (and
// for Tq = 1 in the scalar build, W = 1). Before the padding, a column past the last whole vector ran
// on one-lane tiles costing about a whole vector each: the padding made the fused forward 1.2-2.7x
// faster in wasm at Tq = 2, 3, 6, 7, 10, 11, 13-15 and 1.1-1.6x at 18, 19, 22, 23 (the same runs),
// where the rule sent Tq < 16 with a lane tail to rows; natively fused had been 1.3-1.9x slower
// than rows at Tq = 20 and 23.
inline bool decode_shaped(const AttentionDims& dims) { return dims.Tq == 1 || dims.Tq < kernels::width(); }
std::uint64_t sdpa_fused_scratch_floats(const AttentionDims& dims);
// out (B, H, Tq, dv) and lse (B, H, Tq, optional).
void sdpa_forward_fused(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                        const float* v, float* out, float* lse, float* scratch);
void sdpa_backward_fused(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                         const float* v, const float* dout, const SdpaSavedForward& saved, float* dq,
                         float* dk, float* dv, float* scratch);

}  // namespace attnlab::detail
