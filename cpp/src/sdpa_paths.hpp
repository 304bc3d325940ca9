// Internal: the two implementations behind sdpa_forward / sdpa_backward (sdpa.cpp picks one).
//   row streaming (sdpa_rows.cpp)  one query row at a time; every option, the trace and weights.
//   fused        (sdpa_fused.cpp)  blocks of query rows against blocks of keys, online softmax,
//                                  register-tiled products; not d2l fill mode, not dropout.
// Shapes as in attnlab/sdpa.hpp; each takes scratch of its own *_scratch_floats().
#pragma once

#include <cstddef>

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
// Query rows per head up to which the forward streams rows even where the fused path applies: a
// decode step (one new row against a long cache) leaves a fused block's query tile nearly empty and
// still transposes every key block, while the row path reads each key and value once. Measured in
// wasm SIMD under node 20 (whole call, CPU time, B=1 H=8 d=64 Tk=4096), rows / fused in ms:
// Tq=1 3.5 / 4.7, Tq=2 4.3 / 5.0, Tq=3 5.2 / 5.4, Tq=4 5.4 / 5.6 (a tie), Tq=6 6.4 / 5.8.
constexpr int kDecodeRows = 3;
inline bool decode_shaped(const AttentionDims& dims) { return dims.Tq <= kDecodeRows; }
std::uint64_t sdpa_fused_scratch_floats(const AttentionDims& dims);
// out (B, H, Tq, dv) and lse (B, H, Tq, optional).
void sdpa_forward_fused(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                        const float* v, float* out, float* lse, float* scratch);
void sdpa_backward_fused(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                         const float* v, const float* dout, const SdpaSavedForward& saved, float* dq, float* dk,
                         float* dv, float* scratch);

}  // namespace attnlab::detail
