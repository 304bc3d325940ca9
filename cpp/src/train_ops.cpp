// The training ops (train_ops.hpp): loops over rows and tensors around the row kernels
// (kernels_train.cpp) and the matrix products (kernels_gemm.cpp).
#include "attnlab/train_ops.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>

#include "attnlab/kernels.hpp"

namespace attnlab {
namespace {

// Runs f(offset, count) over [0, n) in pieces the int-sized kernels take.
template <class F>
void in_int_chunks(std::size_t n, F&& f) {
  for (std::size_t at = 0; at < n;) {
    const int count = int(std::min<std::size_t>(n - at, INT_MAX));
    f(at, count);
    at += std::size_t(count);
  }
}

std::size_t row(int n, int width) { return std::size_t(n) * std::size_t(width); }

}  // namespace

void embedding_forward(int N, int d, const int32_t* tokens, const float* table, float* out) {
  for (int n = 0; n < N; ++n)
    std::memcpy(out + row(n, d), table + row(tokens[n], d), std::size_t(d) * sizeof(float));
}

// The forward copies row tokens[n] of the table to row n, so that table row receives row n of dout.
void embedding_backward(int N, int d, const int32_t* tokens, const float* dout, float* dtable) {
  for (int n = 0; n < N; ++n) kernels::f32_axpy(dtable + row(tokens[n], d), 1.0f, dout + row(n, d), d);
}

void layer_norm_forward(int N, int d, float eps, const float* x, const float* gamma, const float* beta,
                        float* y, float* mean, float* rstd) {
  for (int n = 0; n < N; ++n)
    kernels::f32_layer_norm_row(y + row(n, d), x + row(n, d), gamma, beta, eps, d, mean + n, rstd + n);
}

void layer_norm_backward(int N, int d, const float* x, const float* gamma, const float* mean,
                         const float* rstd, const float* dy, float* dx, float* dgamma, float* dbeta) {
  for (int n = 0; n < N; ++n)
    kernels::f32_layer_norm_row_backward(dx + row(n, d), dgamma, dbeta, x + row(n, d), gamma, dy + row(n, d),
                                         mean[n], rstd[n], d);
}

// pass 1: y = x W^T      (N, d_out) over d_in, W read in nn.Linear's (d_out, d_in) layout
// pass 2: y += b         on every row
void linear_forward(int N, int d_in, int d_out, const float* x, const float* W, const float* b, float* y) {
  kernels::f32_gemm_nt(N, d_out, d_in, x, W, y, false);
  if (b != nullptr)
    for (int n = 0; n < N; ++n) kernels::f32_axpy(y + row(n, d_out), 1.0f, b, d_out);
}

// pass 2 backward: y += b       -> db += sum_n dy[n]
// pass 1 backward: y = x W^T    -> dx = dy W (N, d_in) over d_out, dW += dy^T x (d_out, d_in) over N
void linear_backward(int N, int d_in, int d_out, const float* x, const float* W, const float* dy, float* dx,
                     float* dW, float* db) {
  if (db != nullptr)
    for (int n = 0; n < N; ++n) kernels::f32_axpy(db, 1.0f, dy + row(n, d_out), d_out);
  if (dx != nullptr) kernels::f32_gemm_nn(N, d_in, d_out, dy, W, dx, false);
  kernels::f32_gemm_tn(d_out, d_in, N, dy, x, dW, true);
}

void gelu_forward(std::size_t n, Gelu form, const float* x, float* y) {
  in_int_chunks(
      n, [&](std::size_t at, int count) { kernels::f32_gelu(y + at, x + at, count, form == Gelu::tanh); });
}

void gelu_backward(std::size_t n, Gelu form, const float* x, const float* dy, float* dx) {
  in_int_chunks(n, [&](std::size_t at, int count) {
    kernels::f32_gelu_backward(dx + at, x + at, dy + at, count, form == Gelu::tanh);
  });
}

// Per row that counts:
//   pass 1: m = max logits; probs = exp(logits - m), sum = their sum   (f32_exp_minus_max)
//   pass 2: probs /= sum; loss_n = lse - logits[target], lse = m + log(sum)
// and the mean of loss_n over the rows that count.
float cross_entropy_forward(int N, int V, const float* logits, const int32_t* targets, const uint8_t* mask,
                            float* probs) {
  double total = 0.0;
  int count = 0;
  for (int n = 0; n < N; ++n) {
    const float* z = logits + row(n, V);
    float* p = probs + row(n, V);
    if (mask != nullptr && mask[n] == 0) {
      std::fill(p, p + V, 0.0f);
      continue;
    }
    const float m = kernels::f32_max(z, V);
    const float sum = kernels::f32_exp_minus_max(p, z, m, V);
    kernels::f32_scale(p, 1.0f / sum, V);
    total += double(m) + std::log(double(sum)) - double(z[targets[n]]);
    ++count;
  }
  return float(total / count);
}

// loss = mean_n (lse_n - z[n, t_n])  ->  d loss / d z[n, v] = (softmax(z_n)_v - [v == t_n]) / count
void cross_entropy_backward(int N, int V, const int32_t* targets, const uint8_t* mask, const float* probs,
                            float dloss, float* dlogits) {
  int count = 0;
  for (int n = 0; n < N; ++n) count += mask == nullptr || mask[n] != 0;
  const float scale = dloss / float(count);
  for (int n = 0; n < N; ++n) {
    float* g = dlogits + row(n, V);
    if (mask != nullptr && mask[n] == 0) {
      std::fill(g, g + V, 0.0f);
      continue;
    }
    if (g != probs + row(n, V)) std::memcpy(g, probs + row(n, V), std::size_t(V) * sizeof(float));
    g[targets[n]] -= 1.0f;
    kernels::f32_scale(g, scale, V);
  }
}

double sum_of_squares(const float* x, std::size_t n) {
  // Blocks of 4096 floats: each a float dot product (relative error ~ 4096 / W ulp at worst), their
  // sum in double.
  constexpr std::size_t kBlock = 4096;
  double total = 0.0;
  for (std::size_t at = 0; at < n; at += kBlock) {
    const int count = int(std::min(kBlock, n - at));
    total += double(kernels::f32_dot(x + at, x + at, count));
  }
  return total;
}

// torch.nn.utils.clip_grad_norm_: clip_coef = max_norm / (total_norm + 1e-6), clamped to at most 1
// (the gradients are always multiplied by it, 1 included).
float clip_factor(double total_norm, float max_norm) {
  if (max_norm <= 0.0f) return 1.0f;
  return std::min(1.0f, float(double(max_norm) / (total_norm + 1e-6)));
}

void adamw_step(std::size_t n, const AdamWOptions& opt, int step, float grad_scale, float* param, float* m,
                float* v, const float* grad) {
  // torch computes the bias corrections in double (Python floats), then rounds where they meet the tensors.
  const double bias1 = 1.0 - std::pow(double(opt.beta1), step),
               bias2 = 1.0 - std::pow(double(opt.beta2), step);
  const kernels::AdamWUpdate u{float(1.0 - double(opt.learning_rate) * opt.weight_decay),
                               opt.beta1,
                               opt.beta2,
                               float(opt.learning_rate / bias1),
                               float(std::sqrt(bias2)),
                               opt.eps,
                               grad_scale};
  in_int_chunks(n, [&](std::size_t at, int count) {
    kernels::f32_adamw(param + at, m + at, v + at, grad + at, count, u);
  });
}

}  // namespace attnlab
