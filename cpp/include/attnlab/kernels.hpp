// Vector kernels: the only code that knows about SIMD. One source, built twice: with
// ATTNLAB_SIMD=1 on xsimd's default architecture (wasm simd128, or AVX2+FMA natively) and with
// ATTNLAB_SIMD=0 as plain loops (the scalar wasm build). Each kernel is a vector loop plus an
// explicit scalar tail; tests run every kernel at lengths 1 .. 3W+1 around the width W.
#pragma once

#include <cstddef>

namespace attnlab::kernels {

const char* arch_name();   // "wasm", "avx2", ... or "scalar"
int width();               // floats per vector: 4 (wasm), 8 (avx2), 1 (scalar)

float f32_dot(const float* a, const float* b, int n);                 // sum a[i] b[i]
void f32_axpy(float* y, float a, const float* x, int n);              // y += a x
void f32_scale(float* y, float a, int n);                             // y *= a
float f32_max(const float* x, int n);                                 // -inf when n == 0
float f32_sum(const float* x, int n);
// y[i] = exp(x[i] - m), returns sum y; x and y may alias. exp(-inf) = 0.
float f32_exp_minus_max(float* y, const float* x, float m, int n);

// Row-major matrix products, C (M, N). accumulate: C += product, else C = product.
void f32_gemm_nn(int M, int N, int K, const float* A, const float* Bm, float* C, bool accumulate);  // A (M, K), B (K, N)
void f32_gemm_tn(int M, int N, int K, const float* A, const float* Bm, float* C, bool accumulate);  // A (K, M): C = A^T B
void f32_gemm_nt(int M, int N, int K, const float* A, const float* Bm, float* C, bool accumulate);  // B (N, K): C = A B^T

}  // namespace attnlab::kernels
