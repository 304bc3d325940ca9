// The ops of a small transformer's training step, forward and backward, as free functions over
// caller-owned buffers (PyTorch's layouts and semantics, named as PyTorch names them):
//   embedding (nn.Embedding), layer_norm (nn.LayerNorm), linear (nn.Linear), gelu (nn.GELU),
//   cross_entropy (nn.functional.cross_entropy over the rows a mask keeps), adamw
//   (torch.optim.AdamW with torch.nn.utils.clip_grad_norm_).
// Letters: N rows (every leading axis flattened, B * T in a model), d row width, V vocabulary,
// d_in, d_out a linear's widths. Callers validate at the boundary (token ids in [0, V), N, d >= 1);
// the ops trust their input.
// Gradients of parameters are accumulated (+=), so a parameter used twice (a tied embedding) sums
// its uses and the caller zeroes them once per step; gradients of activations are overwritten,
// except layer_norm_backward's dx, which adds to the residual stream's gradient it belongs to.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attnlab {

// out (N, d) = table[tokens] for table (V, d), tokens (N).
void embedding_forward(int N, int d, const int32_t* tokens, const float* table, float* out);
// dtable (V, d) += the rows of dout (N, d) scattered to their tokens (in order of n, so a repeated
// token sums its rows the same way every time).
void embedding_backward(int N, int d, const int32_t* tokens, const float* dout, float* dtable);

// x (N, d) -> y (N, d) = (x - mean) rstd gamma + beta per row, variance biased, rstd = 1 /
// sqrt(var + eps) (PyTorch's default eps is 1e-5); mean, rstd (N) are kept for the backward.
// gamma, beta (d). y may alias x only if the backward is not needed (it reads x).
void layer_norm_forward(int N, int d, float eps, const float* x, const float* gamma, const float* beta,
                        float* y, float* mean, float* rstd);
// dy (N, d) -> dx (N, d) +=, dgamma (d) +=, dbeta (d) +=, from the forward's x, mean and rstd.
void layer_norm_backward(int N, int d, const float* x, const float* gamma, const float* mean,
                         const float* rstd, const float* dy, float* dx, float* dgamma, float* dbeta);

// x (N, d_in) -> y (N, d_out) = x W^T + b, W (d_out, d_in) as nn.Linear stores it, b (d_out) or null.
// y must not overlap x or W.
void linear_forward(int N, int d_in, int d_out, const float* x, const float* W, const float* b, float* y);
// dy (N, d_out) -> dx (N, d_in) = dy W (overwritten; null to skip), dW (d_out, d_in) += dy^T x,
// db (d_out) += the column sums of dy (null to skip).
void linear_backward(int N, int d_in, int d_out, const float* x, const float* W, const float* dy, float* dx,
                     float* dW, float* db);

// PyTorch's two GELUs: approximate='none' (x Phi(x), erf) and approximate='tanh'.
enum class Gelu : int { none = 0, tanh = 1 };
// y (n) = GELU(x), y may alias x; dx (n) = dy GELU'(x), overwritten, dx may alias dy (not x).
void gelu_forward(std::size_t n, Gelu form, const float* x, float* y);
void gelu_backward(std::size_t n, Gelu form, const float* x, const float* dy, float* dx);

// Softmax cross-entropy over the vocabulary, fused with its log-softmax: the loss is the mean over
// the rows that count (mask[n] != 0, or every row when mask is null) of lse_n - logits[n, targets[n]],
// lse_n = log sum_v exp(logits[n, v]). At least one row must count. Writes probs (N, V) =
// softmax(logits) on the rows that count (0 elsewhere), which the backward turns into the gradient.
// Returns the loss (summed in double, rounded once).
float cross_entropy_forward(int N, int V, const float* logits, const int32_t* targets, const uint8_t* mask,
                            float* probs);
// dlogits (N, V) = dloss (probs - onehot(targets)) / count on the rows that count, 0 elsewhere;
// dlogits may alias probs (the usual call: in place).
void cross_entropy_backward(int N, int V, const int32_t* targets, const uint8_t* mask, const float* probs,
                            float dloss, float* dlogits);

// torch.optim.AdamW's hyperparameters (its defaults), and clip_grad_norm_'s max_norm (0: no clipping).
struct AdamWOptions {
  float learning_rate = 1e-3f;
  float beta1 = 0.9f, beta2 = 0.999f;
  float eps = 1e-8f;
  float weight_decay = 1e-2f;
  float clip = 0.0f;
};

// sum x^2 over n floats, in double across blocks: the square of a gradient tensor's 2-norm, which a
// caller sums over every tensor for clip_grad_norm_'s total norm.
double sum_of_squares(const float* x, std::size_t n);
// clip_grad_norm_'s factor: min(1, max_norm / (total_norm + 1e-6)); 1 when max_norm is 0.
float clip_factor(double total_norm, float max_norm);

// One AdamW step of one tensor of n floats: param, m, v (n) in place, from grad (n) times
// grad_scale (clip_factor's, or 1). step counts the steps taken, this one included (1 on the first),
// for the bias corrections 1 - beta^step.
void adamw_step(std::size_t n, const AdamWOptions& opt, int step, float grad_scale, float* param, float* m,
                float* v, const float* grad);

}  // namespace attnlab
