// Native benchmark of sdpa (built by CMake as bench_native on the SIMD core, AVX2+FMA): the fused
// path against row streaming, forward and forward+backward, B=1, H=8, d=dv=64, causal or not.
// Usage: build/bench_native [T ...]   (default 512 1024 2048)
// Each rate is followed by its efficiency: the percentage of the machine's AVX2+FMA ceiling, measured
// first by fma_ceiling_gflops() in the same process.
//
// GFLOP/s counts useful flops, the products an explicit (unfused) graph would also do, with
// N = B H Tq Tk (halved, rounded as (Tq Tk + Tq) / 2 per head, for causal top-left):
//   forward           4 N d   (S = Q K^T and O = P V, 2 flops per multiply-add)
//   forward+backward 12 N d   (the forward, then dV = P^T dO, dP = dO V^T, dQ = dS K, dK = dS^T Q)
// The fused backward also recomputes S (2 N d), and the forward too (4 N d) unless it is given the
// forward's out and lse; those recomputations are not counted.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "attnlab/kernels.hpp"
#include "attnlab/sdpa.hpp"

namespace {

using attnlab::AttentionDims;
using attnlab::Causal;
using attnlab::SdpaKernel;
using attnlab::SdpaOptions;

std::vector<float> fill(std::size_t n, int seed) {
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = float(std::sin(seed * 12.9898 + double(i) * 78.233));
  return x;
}

// CPU time of this process: on a machine shared with other jobs, wall time includes their slices.
double cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// Median CPU seconds of `calls` calls of f after one warm-up call.
template <class F>
double median_seconds(int calls, F&& f) {
  f();
  std::vector<double> t;
  for (int c = 0; c < calls; ++c) {
    const double t0 = cpu_seconds();
    f();
    t.push_back(cpu_seconds() - t0);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

#if defined(__x86_64__)
// The machine's AVX2+FMA ceiling, the native counterpart of tools/bench/ceiling.mjs: 14 independent
// chains acc = acc * m + c of 8-float vfmadd (FMA latency 4 cycles, two FMA pipes on Zen 3/4 and
// recent Intel: 8 chains would do, 14 leave margin and still fit 16 ymm registers with m and c).
// m = c = 0.5 brings every acc to 1 and keeps it there. GFLOP/s, the best of 5 runs of about 20 ms of CPU time.
__attribute__((target("avx2,fma"))) double fma_ceiling_gflops() {
  constexpr int kChains = 14;
  volatile float half = 0.5f;  // not a constant the compiler could fold
  const __m256 m = _mm256_set1_ps(half), c = _mm256_set1_ps(half);
  double best = 0;
  for (int run = 0; run < 5; ++run) {
    // Different starting values (all tending to 1), or the compiler merges the identical chains.
    __m256 acc[kChains];
    for (int i = 0; i < kChains; ++i) acc[i] = _mm256_set1_ps(half * float(i + 2));
    const long steps = 2'000'000;
    const double t0 = cpu_seconds();
    for (long s = 0; s < steps; ++s)
      for (auto& a : acc) a = _mm256_fmadd_ps(a, m, c);
    const double seconds = cpu_seconds() - t0;
    __m256 sum = acc[0];
    for (int i = 1; i < kChains; ++i) sum = _mm256_add_ps(sum, acc[i]);
    if (std::fabs(_mm256_cvtss_f32(sum) - float(kChains)) > 1e-3f) std::printf("ceiling probe: unexpected sum\n");
    best = std::max(best, double(steps) * kChains * 8 * 2 / seconds / 1e9);
  }
  return best;
}
#endif

double ceiling = 0;  // GFLOP/s, measured once in main (x86-64)

void run(int T, bool causal) {
  const AttentionDims dims{1, 8, 8, T, T, 64, 64};
  const auto q = fill(dims.q_size(), 1), k = fill(dims.k_size(), 2), v = fill(dims.v_size(), 3),
             dout = fill(dims.out_size(), 4);
  std::vector<float> out(dims.out_size()), lse(dims.rows()), dq(dims.q_size()), dk(dims.k_size()),
      dv(dims.v_size()), scratch(attnlab::sdpa_scratch_floats(dims));
  const double pairs = double(dims.B) * dims.H * (causal ? (double(T) * T + T) / 2 : double(T) * T);
  const int calls = std::max(3, int(2e9 / (pairs * dims.d * 12)));  // about a second per configuration

  for (SdpaKernel kernel : {SdpaKernel::automatic, SdpaKernel::row_streaming}) {
    SdpaOptions opt;
    opt.scale = 1.0f / std::sqrt(float(dims.d));
    opt.mask.causal = causal ? Causal::top_left : Causal::none;
    opt.kernel = kernel;
    const double fwd = median_seconds(calls, [&] {
      attnlab::sdpa_forward(dims, opt, q.data(), k.data(), v.data(), {out.data(), lse.data()}, scratch.data());
    });
    const double bwd = median_seconds(calls, [&] {
      attnlab::sdpa_backward(dims, opt, q.data(), k.data(), v.data(), dout.data(), dq.data(), dk.data(), dv.data(),
                             scratch.data());
    });
    const double bwd_saved = median_seconds(calls, [&] {
      attnlab::sdpa_backward(dims, opt, q.data(), k.data(), v.data(), dout.data(), dq.data(), dk.data(), dv.data(),
                             scratch.data(), {out.data(), lse.data()});
    });
    const char* name = kernel == SdpaKernel::automatic ? "fused" : "rows";
    const double fwd_flops = 4 * pairs * dims.d, all_flops = 12 * pairs * dims.d;
    const auto rate = [](double flops, double seconds) { return flops / seconds / 1e9; };
    const auto of_ceiling = [&](double gflops) { return ceiling > 0 ? 100 * gflops / ceiling : 0.0; };
    const double r_fwd = rate(fwd_flops, fwd), r_all = rate(all_flops, fwd + bwd), r_saved = rate(all_flops, fwd + bwd_saved);
    std::printf("T=%-5d %-7s %-6s forward %8.2f ms %6.1f GFLOP/s %3.0f%% | fwd+bwd %8.2f ms %6.1f GFLOP/s %3.0f%%"
                " | fwd+bwd(saved out, lse) %8.2f ms %6.1f GFLOP/s %3.0f%%\n",
                T, causal ? "causal" : "full", name, fwd * 1e3, r_fwd, of_ceiling(r_fwd), (fwd + bwd) * 1e3, r_all,
                of_ceiling(r_all), (fwd + bwd_saved) * 1e3, r_saved, of_ceiling(r_saved));
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  for (int a = 1; a < argc; ++a) sizes.push_back(std::atoi(argv[a]));
  if (sizes.empty()) sizes = {512, 1024, 2048};
  std::printf("sdpa native, kernels '%s' (width %d), B=1 H=8 d=dv=64, median CPU time of calls after a warm-up\n",
              attnlab::kernels::arch_name(), attnlab::kernels::width());
#if defined(__x86_64__)
  ceiling = fma_ceiling_gflops();
  std::printf("ceiling: %.1f GFLOP/s (14 chains of AVX2 vfmadd, CPU time); efficiency = GFLOP/s over it\n", ceiling);
#endif
  for (int T : sizes)
    for (bool causal : {false, true}) run(T, causal);
}
