// The public sdpa entry points: pick the fused path when it supports the options and, forward, the
// query is not shaped like a decode step (decode_shaped), else stream rows (sdpa_paths.hpp). The
// (Tq, Tk) trace and weights always come from the row pass; the output and lse then come from the
// fused pass when it applies, so asking for the trace never changes them.
#include "attnlab/sdpa.hpp"

#include <algorithm>

#include "sdpa_paths.hpp"

namespace attnlab {

std::uint64_t sdpa_scratch_floats(const AttentionDims& dims) {
  // The two passes of a traced forward run one after the other, so they share the scratch.
  return std::max(detail::sdpa_rows_scratch_floats(dims), detail::sdpa_fused_scratch_floats(dims));
}

void sdpa_forward(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                  const float* v, const SdpaForwardOutputs& outputs, float* scratch) {
  const bool fused = detail::fused_supports(opt) && !detail::decode_shaped(dims);
  const bool per_row_outputs = outputs.weights != nullptr || outputs.scores != nullptr ||
                               outputs.softcapped != nullptr || outputs.masked != nullptr;
  if (!fused || per_row_outputs) detail::sdpa_forward_rows(dims, opt, q, k, v, outputs, scratch);
  if (fused) detail::sdpa_forward_fused(dims, opt, q, k, v, outputs.out, outputs.lse, scratch);
}

void sdpa_backward(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                   const float* v, const float* dout, float* dq, float* dk, float* dv, float* scratch,
                   const SdpaSavedForward& saved) {
  if (detail::fused_supports(opt)) {
    detail::sdpa_backward_fused(dims, opt, q, k, v, dout, saved, dq, dk, dv, scratch);
  } else {
    detail::sdpa_backward_rows(dims, opt, q, k, v, dout, dq, dk, dv, scratch);
  }
}

}  // namespace attnlab
