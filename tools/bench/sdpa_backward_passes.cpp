// Where the fused backward's time goes (issue 13): the loop of sdpa_backward_fused
// (cpp/src/sdpa_fused.cpp), given the saved forward (out, lse), B=1 H=8 d=dv=64, no mask, rebuilt
// from the public kernels with each pass timed on its own (as tools/bench/sdpa_passes.cpp does for
// the forward; the same clock, ceiling and build):
//   stats      D = rowsum(dO * O) per row, the scaled queries
//   transpose  K_blk^T and V_blk^T into scratch
//   S gemm     S = Qs K_blk^T             (Br, Bc) over d
//   exp        P = exp(S - lse)
//   dP gemm    dP = dO V_blk^T            (Br, Bc) over dv
//   dS         dS = scale P (dP - D)
//   dV gemm    dV_blk += P^T dO           (Bc, dv) over Br
//   dK gemm    dK_blk += dS^T Q           (Bc, d) over Br
//   dQ gemm    dQ += dS K_blk             (Br, d) over Bc
// Usage: build/bench_backward_passes [--ceiling=GFLOPS] [--rows=Br] [--keys=Bc] [T ...]
// (without --ceiling it prints GFLOP/s only)
// wasm: as sdpa_passes.cpp, with this file:
//   em++ -std=c++17 -O3 -msimd128 -DATTNLAB_SIMD=1 -Icpp/include -I.deps/xsimd/usr/include \
//     -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=node tools/bench/sdpa_backward_passes.cpp \
//     build-wasm/libattnlab_simd.a -o /tmp/backward_passes.js
//   node --no-experimental-fetch /tmp/backward_passes.js --ceiling=X
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "attnlab/kernels.hpp"
#include "attnlab/sdpa.hpp"
#include "bench_common.hpp"

namespace {

namespace kn = attnlab::kernels;

using bench::fill;

constexpr int kHeads = 8, kD = 64;
int rows = 64, keys = 32;

enum Pass { kStats = 1, kTranspose = 2, kSGemm = 4, kExp = 8, kDpGemm = 16, kDs = 32, kDvGemm = 64, kDkGemm = 128,
            kDqGemm = 256, kAll = 511 };
const char* const kNames[] = {"stats", "transpose", "S gemm", "exp", "dP gemm", "dS", "dV gemm", "dK gemm", "dQ gemm"};
constexpr int kPassCount = 9;
bool is_gemm(int pass) { return pass == 2 || pass == 4 || pass >= 6; }

struct Problem {
  int T;
  std::vector<float> q, k, v, o, lse, dout, dq, dk, dv;
  explicit Problem(int T_) : T(T_) {
    const std::size_t n = std::size_t(kHeads) * T * kD;
    q = fill(n, 1), k = fill(n, 2), v = fill(n, 3), o = fill(n, 4), dout = fill(n, 5);
    lse = std::vector<float>(std::size_t(kHeads) * T, 4.0f);  // exp(S - 4) stays in range
    dq.resize(n), dk.resize(n), dv.resize(n);
  }
};

// The backward of the fused path, query blocks outer, running only the passes in `passes`. dS has
// its own buffer (the fused path writes it over dP): run alone, dS = scale P (dP - D) in place would
// shrink dP towards subnormals, which are slow.
void backward_passes(Problem& p, int passes) {
  const int T = p.T;
  const float scale = 1.0f / std::sqrt(float(kD));
  std::vector<float> qs(rows * kD), kt(kD * keys), vt(kD * keys), s(rows * keys), dp(rows * keys),
      ds(rows * keys), D(rows);
  std::fill(p.dk.begin(), p.dk.end(), 0.0f);
  std::fill(p.dv.begin(), p.dv.end(), 0.0f);
  for (int h = 0; h < kHeads; ++h) {
    const std::size_t head = std::size_t(h) * T * kD;
    const float* kh = p.k.data() + head;
    const float* vh = p.v.data() + head;
    for (int i0 = 0; i0 < T; i0 += rows) {
      const std::size_t first = head + std::size_t(i0) * kD;
      const float* lse = p.lse.data() + std::size_t(h) * T + i0;
      if (passes & kStats) {
        for (int i = 0; i < rows * kD; ++i) qs[i] = scale * p.q[first + i];
        for (int r = 0; r < rows; ++r) D[r] = kn::f32_dot(p.dout.data() + first + r * kD, p.o.data() + first + r * kD, kD);
      }
      std::fill(p.dq.begin() + first, p.dq.begin() + first + rows * kD, 0.0f);
      for (int j0 = 0; j0 < T; j0 += keys) {
        if (passes & kTranspose) {
          kn::f32_transpose(keys, kD, kh + std::size_t(j0) * kD, kD, kt.data(), keys);
          kn::f32_transpose(keys, kD, vh + std::size_t(j0) * kD, kD, vt.data(), keys);
        }
        if (passes & kSGemm) kn::f32_gemm_nn_strided(rows, keys, kD, qs.data(), kD, kt.data(), keys, s.data(), keys, false);
        if (passes & kExp)
          for (int r = 0; r < rows; ++r) kn::f32_exp_minus_max(s.data() + r * keys, s.data() + r * keys, lse[r], keys);
        if (passes & kDpGemm)
          kn::f32_gemm_nn_strided(rows, keys, kD, p.dout.data() + first, kD, vt.data(), keys, dp.data(), keys, false);
        if (passes & kDs)
          for (int r = 0; r < rows; ++r)
            kn::f32_softmax_grad(ds.data() + r * keys, s.data() + r * keys, dp.data() + r * keys, D[r], scale, keys);
        if (passes & kDvGemm)
          kn::f32_gemm_tn_strided(keys, kD, rows, s.data(), keys, p.dout.data() + first, kD,
                                  p.dv.data() + head + std::size_t(j0) * kD, kD, true);
        if (passes & kDkGemm)
          kn::f32_gemm_tn_strided(keys, kD, rows, ds.data(), keys, p.q.data() + first, kD,
                                  p.dk.data() + head + std::size_t(j0) * kD, kD, true);
        if (passes & kDqGemm)
          kn::f32_gemm_nn_strided(rows, kD, keys, ds.data(), keys, kh + std::size_t(j0) * kD, kD, p.dq.data() + first,
                                  kD, true);
      }
    }
  }
}

// The library's own backward (attnlab::sdpa_backward, the fused path) on the same problem.
void library_backward(Problem& p) {
  attnlab::AttentionDims dims;
  dims.H = dims.Hkv = kHeads;
  dims.Tq = dims.Tk = p.T;
  dims.d = dims.dv = kD;
  attnlab::SdpaOptions opt;
  opt.scale = 1.0f / std::sqrt(float(kD));
  static std::vector<float> scratch;
  scratch.resize(attnlab::sdpa_scratch_floats(dims));
  attnlab::sdpa_backward(dims, opt, p.q.data(), p.k.data(), p.v.data(), p.dout.data(), p.dq.data(), p.dk.data(),
                         p.dv.data(), scratch.data(), {p.o.data(), p.lse.data()});
}

// Best CPU seconds of 3 runs of the loop with `passes` (0: the library's backward).
double time_passes(Problem& p, int passes) {
  return bench::best_cpu_seconds(3, [&] { passes == 0 ? library_backward(p) : backward_passes(p, passes); });
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  double ceiling = 0;
  for (int a = 1; a < argc; ++a) {
    const char* arg = argv[a];
    auto value_of = [&](const char* name) {
      return std::strncmp(arg, name, std::strlen(name)) == 0 ? arg + std::strlen(name) : nullptr;
    };
    if (const char* x = value_of("--ceiling=")) ceiling = std::atof(x);
    else if (const char* x = value_of("--rows=")) rows = std::atoi(x);
    else if (const char* x = value_of("--keys=")) keys = std::atoi(x);
    else sizes.push_back(std::atoi(arg));
  }
  if (sizes.empty()) sizes = {512, 1024, 2048};
  std::printf("sdpa backward passes, kernels '%s', Br=%d Bc=%d H=%d d=%d; ceiling %.1f GFLOP/s\n", kn::arch_name(),
              rows, keys, kHeads, kD, ceiling);
  for (int T : sizes) {
    Problem p(T);
    backward_passes(p, kAll);  // warm-up
    const double total = time_passes(p, kAll);
    const double flops = 10.0 * kHeads * T * double(T) * kD;
    std::printf("T=%-5d whole %7.2f ms (%5.1f GFLOP/s", T, total * 1e3, flops / total / 1e9);
    if (ceiling > 0) std::printf(", %3.0f%%", 100 * flops / total / 1e9 / ceiling);
    const double library = time_passes(p, 0);
    std::printf("); attnlab::sdpa_backward %7.2f ms (%5.1f GFLOP/s)\n  alone:", library * 1e3, flops / library / 1e9);
    double sum = 0;
    for (int i = 0; i < kPassCount; ++i) {
      const double t = time_passes(p, 1 << i);
      sum += t;
      std::printf(" %s %.1f%%", kNames[i], 100 * t / total);
      if (is_gemm(i)) std::printf(" (%.1f GF)", 2.0 * kHeads * T * double(T) * kD / t / 1e9);
      std::printf(i + 1 < kPassCount ? " |" : "");
    }
    std::printf(" | sum %.1f%%\n", 100 * sum / total);
  }
}
