// The polynomial of exp2_nonpositive (cpp/src/kernels_vec.hpp): 2^t ~ 1 + t (c1 + c2 t + ... + cD t^(D-1))
// on |t| <= 1/2, fitted by Lawson-reweighted least squares (each round multiplies a point's weight by
// its error, which drives the least-squares solution towards the minimax one) in long double, on the
// error in ulps of the float result: 2^t is in [1/sqrt2, 1) with an ulp of 2^-24 for t < 0 and in
// [1, sqrt2] with 2^-23 for t >= 0. Prints the best round's error and the coefficients rounded to float.
// Usage: g++ -O2 tools/fit-exp2.cpp -o /tmp/fit-exp2 && /tmp/fit-exp2 [D]   (default 5)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

using Real = long double;

int main(int argc, char** argv) {
  const int D = argc > 1 ? std::atoi(argv[1]) : 5;
  if (D < 1 || D > 12) return 2;
  const int N = 8001;  // grid points on [-1/2, 1/2]
  std::vector<Real> t(N), f(N), unit(N), w(N, 1.0L), c(D), best_c(D);
  for (int i = 0; i < N; ++i) {
    t[i] = -0.5L + Real(i) / (N - 1);
    f[i] = std::pow(2.0L, t[i]);
    unit[i] = f[i] < 1 ? 0.5L : 1.0L;  // the float ulp of 2^t, over 2^-23
  }
  Real best = 1;
  for (int round = 0; round < 400; ++round) {
    // Normal equations of min sum_i w_i ((sum_k c_k t_i^k - (f_i - 1)) / unit_i)^2, by Gauss elimination.
    std::vector<Real> A(D * D, 0), b(D, 0);
    for (int i = 0; i < N; ++i) {
      Real phi[12], p = t[i];
      for (int k = 0; k < D; ++k, p *= t[i]) phi[k] = p / unit[i];
      const Real y = (f[i] - 1) / unit[i];
      for (int r = 0; r < D; ++r) {
        b[r] += w[i] * phi[r] * y;
        for (int q = 0; q < D; ++q) A[r * D + q] += w[i] * phi[r] * phi[q];
      }
    }
    for (int col = 0; col < D; ++col)
      for (int r = col + 1; r < D; ++r) {
        const Real m = A[r * D + col] / A[col * D + col];
        for (int q = col; q < D; ++q) A[r * D + q] -= m * A[col * D + q];
        b[r] -= m * b[col];
      }
    for (int r = D - 1; r >= 0; --r) {
      Real sum = b[r];
      for (int q = r + 1; q < D; ++q) sum -= A[r * D + q] * c[q];
      c[r] = sum / A[r * D + r];
    }
    Real worst = 0, total = 0;
    std::vector<Real> e(N);
    for (int i = 0; i < N; ++i) {
      Real p = 0;
      for (int k = D - 1; k >= 0; --k) p = p * t[i] + c[k];
      e[i] = std::fabs(1 + t[i] * p - f[i]) / unit[i];
      worst = std::max(worst, e[i]);
    }
    if (worst < best) best = worst, best_c = c;
    for (int i = 0; i < N; ++i) total += w[i] *= e[i];
    for (int i = 0; i < N; ++i) w[i] /= total;
  }
  std::printf("2^t of degree %d: at most %.2Lf ulp (before rounding to float)\n", D, best / 0x1p-23L);
  for (int k = D - 1; k >= 0; --k) std::printf("c%d = %a\n", k + 1, double(float(best_c[k])));
}
