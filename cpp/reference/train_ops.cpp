// Reference training ops in double, each written from its PyTorch definition with nothing shared
// with the core: LayerNorm from the mean and variance formulas (its backward through the
// normalisation's Jacobian, element by element), GELU from erf and tanh, cross-entropy from
// log-softmax, AdamW from torch.optim.AdamW's documented algorithm.
#include <algorithm>
#include <cmath>
#include <vector>

#include "reference.hpp"

namespace attnlab::ref {
namespace {

constexpr double kPi = 3.14159265358979323846;

std::size_t at(int n, int width, int j) { return std::size_t(n) * std::size_t(width) + std::size_t(j); }

struct RowMoments {
  double mean, rstd;
};

RowMoments moments(const float* x, int d, float eps) {
  double mean = 0.0, var = 0.0;
  for (int j = 0; j < d; ++j) mean += x[j];
  mean /= d;
  for (int j = 0; j < d; ++j) var += (x[j] - mean) * (x[j] - mean);
  var /= d;
  return {mean, 1.0 / std::sqrt(var + double(eps))};
}

// GELU and its derivative in double, tanh form or exact.
double gelu(double x, Gelu form) {
  if (form == Gelu::tanh)
    return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / kPi) * (x + 0.044715 * x * x * x)));
  return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
}

double gelu_derivative(double x, Gelu form) {
  if (form == Gelu::tanh) {
    const double k = std::sqrt(2.0 / kPi), t = std::tanh(k * (x + 0.044715 * x * x * x));
    return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * k * (1.0 + 3.0 * 0.044715 * x * x);
  }
  return 0.5 * (1.0 + std::erf(x / std::sqrt(2.0))) + x * std::exp(-0.5 * x * x) / std::sqrt(2.0 * kPi);
}

// log softmax of one row, in double.
std::vector<double> log_softmax(const float* z, int V) {
  double m = z[0];
  for (int v = 1; v < V; ++v) m = std::max(m, double(z[v]));
  double sum = 0.0;
  for (int v = 0; v < V; ++v) sum += std::exp(z[v] - m);
  std::vector<double> out(static_cast<std::size_t>(V));
  for (int v = 0; v < V; ++v) out[v] = z[v] - m - std::log(sum);
  return out;
}

bool counts(const uint8_t* mask, int n) { return mask == nullptr || mask[n] != 0; }

}  // namespace

void embedding_forward(int N, int d, const int32_t* tokens, const float* table, float* out) {
  for (int n = 0; n < N; ++n)
    for (int j = 0; j < d; ++j) out[at(n, d, j)] = table[at(tokens[n], d, j)];
}

// d out[n, j] / d table[v, j] = [tokens[n] == v]: each table row sums, in double, the rows of dout
// whose token it is.
void embedding_backward(int N, int d, const int32_t* tokens, const float* dout, float* dtable) {
  int V = 0;
  for (int n = 0; n < N; ++n) V = std::max(V, tokens[n] + 1);
  for (int v = 0; v < V; ++v)
    for (int j = 0; j < d; ++j) {
      double sum = dtable[at(v, d, j)];
      for (int n = 0; n < N; ++n)
        if (tokens[n] == v) sum += dout[at(n, d, j)];
      dtable[at(v, d, j)] = float(sum);
    }
}

void layer_norm_forward(int N, int d, float eps, const float* x, const float* gamma, const float* beta,
                        float* y, float* mean, float* rstd) {
  for (int n = 0; n < N; ++n) {
    const RowMoments r = moments(x + at(n, d, 0), d, eps);
    for (int j = 0; j < d; ++j)
      y[at(n, d, j)] = float((x[at(n, d, j)] - r.mean) * r.rstd * gamma[j] + beta[j]);
    mean[n] = float(r.mean);
    rstd[n] = float(r.rstd);
  }
}

// The full Jacobian of xhat_i = (x_i - mean) rstd:
//   d xhat_i / d x_k = rstd ([i == k] - 1/d - xhat_i xhat_k / d),
// and dx_k = sum_i dy_i gamma_i d xhat_i / d x_k, written out as that double sum (O(d^2) per row).
void layer_norm_backward(int N, int d, float eps, const float* x, const float* gamma, const float* dy,
                         float* dx, float* dgamma, float* dbeta) {
  std::vector<double> xhat(static_cast<std::size_t>(d)), dg(static_cast<std::size_t>(d), 0.0),
      db(static_cast<std::size_t>(d), 0.0);
  for (int j = 0; j < d; ++j) {
    dg[j] = dgamma[j];
    db[j] = dbeta[j];
  }
  for (int n = 0; n < N; ++n) {
    const RowMoments r = moments(x + at(n, d, 0), d, eps);
    for (int j = 0; j < d; ++j) xhat[j] = (x[at(n, d, j)] - r.mean) * r.rstd;
    for (int k = 0; k < d; ++k) {
      double sum = 0.0;
      for (int i = 0; i < d; ++i)
        sum += double(dy[at(n, d, i)]) * gamma[i] * r.rstd *
               ((i == k ? 1.0 : 0.0) - 1.0 / d - xhat[i] * xhat[k] / d);
      dx[at(n, d, k)] = float(dx[at(n, d, k)] + sum);
    }
    for (int j = 0; j < d; ++j) {
      dg[j] += dy[at(n, d, j)] * xhat[j];
      db[j] += dy[at(n, d, j)];
    }
  }
  for (int j = 0; j < d; ++j) {
    dgamma[j] = float(dg[j]);
    dbeta[j] = float(db[j]);
  }
}

void linear_forward(int N, int d_in, int d_out, const float* x, const float* W, const float* b, float* y) {
  for (int n = 0; n < N; ++n)
    for (int o = 0; o < d_out; ++o) {
      double sum = b != nullptr ? b[o] : 0.0;
      for (int i = 0; i < d_in; ++i) sum += double(x[at(n, d_in, i)]) * W[at(o, d_in, i)];
      y[at(n, d_out, o)] = float(sum);
    }
}

void linear_backward(int N, int d_in, int d_out, const float* x, const float* W, const float* dy, float* dx,
                     float* dW, float* db) {
  if (dx != nullptr)
    for (int n = 0; n < N; ++n)
      for (int i = 0; i < d_in; ++i) {
        double sum = 0.0;
        for (int o = 0; o < d_out; ++o) sum += double(dy[at(n, d_out, o)]) * W[at(o, d_in, i)];
        dx[at(n, d_in, i)] = float(sum);
      }
  for (int o = 0; o < d_out; ++o) {
    for (int i = 0; i < d_in; ++i) {
      double sum = dW[at(o, d_in, i)];
      for (int n = 0; n < N; ++n) sum += double(dy[at(n, d_out, o)]) * x[at(n, d_in, i)];
      dW[at(o, d_in, i)] = float(sum);
    }
    if (db != nullptr) {
      double sum = db[o];
      for (int n = 0; n < N; ++n) sum += dy[at(n, d_out, o)];
      db[o] = float(sum);
    }
  }
}

void gelu_forward(std::size_t n, Gelu form, const float* x, float* y) {
  for (std::size_t i = 0; i < n; ++i) y[i] = float(gelu(x[i], form));
}

void gelu_backward(std::size_t n, Gelu form, const float* x, const float* dy, float* dx) {
  for (std::size_t i = 0; i < n; ++i) dx[i] = float(dy[i] * gelu_derivative(x[i], form));
}

float cross_entropy_forward(int N, int V, const float* logits, const int32_t* targets, const uint8_t* mask) {
  double total = 0.0;
  int count = 0;
  for (int n = 0; n < N; ++n) {
    if (!counts(mask, n)) continue;
    total -= log_softmax(logits + at(n, V, 0), V)[targets[n]];
    ++count;
  }
  return float(total / count);
}

void cross_entropy_backward(int N, int V, const float* logits, const int32_t* targets, const uint8_t* mask,
                            float dloss, float* dlogits) {
  int count = 0;
  for (int n = 0; n < N; ++n) count += counts(mask, n);
  for (int n = 0; n < N; ++n) {
    const std::vector<double> logp = log_softmax(logits + at(n, V, 0), V);
    for (int v = 0; v < V; ++v) {
      const double g = std::exp(logp[v]) - (v == targets[n] ? 1.0 : 0.0);
      dlogits[at(n, V, v)] = counts(mask, n) ? float(dloss * g / count) : 0.0f;
    }
  }
}

// torch.optim.AdamW (its documentation's algorithm, maximize = amsgrad = False), per element:
//   theta = theta - lr lambda theta;  m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2
//   m_hat = m / (1 - b1^t);  v_hat = v / (1 - b2^t);  theta = theta - lr m_hat / (sqrt(v_hat) + eps)
void adamw_steps(std::size_t n, const AdamWOptions& opt, int steps, const float* const* grads, float* param) {
  const double lr = opt.learning_rate, b1 = opt.beta1, b2 = opt.beta2, eps = opt.eps, wd = opt.weight_decay;
  for (std::size_t i = 0; i < n; ++i) {
    double theta = param[i], m = 0.0, v = 0.0;
    for (int t = 1; t <= steps; ++t) {
      const double g = grads[t - 1][i];
      theta -= lr * wd * theta;
      m = b1 * m + (1.0 - b1) * g;
      v = b2 * v + (1.0 - b2) * g * g;
      const double m_hat = m / (1.0 - std::pow(b1, t)), v_hat = v / (1.0 - std::pow(b2, t));
      theta -= lr * m_hat / (std::sqrt(v_hat) + eps);
    }
    param[i] = float(theta);
  }
}

}  // namespace attnlab::ref
