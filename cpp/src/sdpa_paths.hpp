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
// query row. So rows below one vector of queries (and for Tq = 1 in the scalar build, W = 1); the
// crossover measured per Tq is in docs/performance.md ("Tried in the kernels").
inline bool decode_shaped(const AttentionDims& dims) { return dims.Tq == 1 || dims.Tq < kernels::width(); }
std::uint64_t sdpa_fused_scratch_floats(const AttentionDims& dims);
// out (B, H, Tq, dv) and lse (B, H, Tq, optional).
void sdpa_forward_fused(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                        const float* v, float* out, float* lse, float* scratch);
void sdpa_backward_fused(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                         const float* v, const float* dout, const SdpaSavedForward& saved, float* dq,
                         float* dk, float* dv, float* scratch);

}  // namespace attnlab::detail
