// The plain scalar reference: float64 accumulation, every intermediate materialised, written for
// clarity and independently of the fast core (it resolves masks on its own, element by element).
// Every fast kernel is tested against it; it is never built into the wasm modules.
#pragma once

#include "attnlab/dims.hpp"
#include "attnlab/layer.hpp"
#include "attnlab/rope.hpp"
#include "attnlab/scoring.hpp"
#include "attnlab/sdpa.hpp"
#include "attnlab/train_ops.hpp"

namespace attnlab::ref {

// Whether key j is visible from query row (b, h, i); when it is, adds its float mask value and ALiBi
// bias to *bias (nullable).
bool visible(const MaskSpec& mask, int Tq, int Tk, int b, int h, int i, int j, double* bias);

void masked_softmax_forward(int B, int H, int Tq, int Tk, const MaskSpec& mask, const float* x, float* y);
void masked_softmax_backward(int B, int H, int Tq, int Tk, const MaskSpec& mask, const float* y,
                             const float* dy, float* dx);

void sdpa_forward(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                  const float* v, const SdpaForwardOutputs& outputs);
void sdpa_backward(const AttentionDims& dims, const SdpaOptions& opt, const float* q, const float* k,
                   const float* v, const float* dout, float* dq, float* dk, float* dv);

void scoring_forward(const ScoringDims& dims, const ScoringOptions& opt, const ScoringParams& params,
                     const float* q, const float* k, const float* v, const ScoringForwardOutputs& outputs);
void scoring_backward(const ScoringDims& dims, const ScoringOptions& opt, const ScoringParams& params,
                      const float* q, const float* k, const float* v, const float* dout, float* dq, float* dk,
                      float* dv, const ScoringGrads& grads);

void layer_forward(const LayerDims& dims, const LayerWeights& w, const SdpaOptions& opt, const float* x,
                   float* out, const RopeOptions* rope = nullptr);
void layer_backward(const LayerDims& dims, const LayerWeights& w, const SdpaOptions& opt, const float* x,
                    const float* dout, float* dx, const LayerGrads& grads, const RopeOptions* rope = nullptr);

// x (N, T, d) -> y (N, T, d), and its backward dy -> dx: the rotation matrix of each position.
void rope_forward(int N, int T, int d, const RopeOptions& opt, const float* x, float* y);
void rope_backward(int N, int T, int d, const RopeOptions& opt, const float* dy, float* dx);

// The training ops (train_ops.hpp), same signatures and accumulation rules, in double.
void embedding_forward(int N, int d, const int32_t* tokens, const float* table, float* out);
void embedding_backward(int N, int d, const int32_t* tokens, const float* dout, float* dtable);
void layer_norm_forward(int N, int d, float eps, const float* x, const float* gamma, const float* beta,
                        float* y, float* mean, float* rstd);
void layer_norm_backward(int N, int d, float eps, const float* x, const float* gamma, const float* dy,
                         float* dx, float* dgamma,
                         float* dbeta);  // recomputes mean and rstd in double from x
void linear_forward(int N, int d_in, int d_out, const float* x, const float* W, const float* b, float* y);
void linear_backward(int N, int d_in, int d_out, const float* x, const float* W, const float* dy, float* dx,
                     float* dW, float* db);
void gelu_forward(std::size_t n, Gelu form, const float* x, float* y);
void gelu_backward(std::size_t n, Gelu form, const float* x, const float* dy, float* dx);
float cross_entropy_forward(int N, int V, const float* logits, const int32_t* targets, const uint8_t* mask);
void cross_entropy_backward(int N, int V, const float* logits, const int32_t* targets, const uint8_t* mask,
                            float dloss, float* dlogits);
// steps AdamW steps of one tensor with torch's formulas in double, the state kept in double between
// them: grads[s] (n) is the gradient of step s + 1, already clipped.
void adamw_steps(std::size_t n, const AdamWOptions& opt, int steps, const float* const* grads, float* param);

}  // namespace attnlab::ref
