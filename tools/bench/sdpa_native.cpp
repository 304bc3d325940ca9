// Native benchmark of sdpa (built by CMake as bench_native on the SIMD core, AVX2+FMA): the fused
// path against row streaming, forward and forward+backward, B=1, H=8, d=dv=64, causal or not.
// Usage: build/bench_native [T ...]   (default 512 1024 2048)
//        build/bench_native --window w [T ...]   (fused, causal sliding window [w, 0] against plain
//        causal, default T 1024 .. 8192: a window of w keys should cost O(T w), so ms / T stays flat)
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
#include <string>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "attnlab/kernels.hpp"
#include "attnlab/sdpa.hpp"
#include "bench_common.hpp"

namespace {

using attnlab::AttentionDims;
using attnlab::Causal;
using attnlab::SdpaKernel;
using attnlab::SdpaOptions;

using bench::cpu_seconds;
using bench::fill;

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
// The machine's AVX2+FMA ceiling, the native counterpart of tools/bench/lib/ceiling.mjs: 14 independent
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

// The benchmark's problem at sequence length T (B=1, H=8, d=dv=64): inputs, outputs and scratch.
struct Problem {
  explicit Problem(int T)
      : dims{1, 8, 8, T, T, 64, 64},
        q(fill(dims.q_size(), 1)), k(fill(dims.k_size(), 2)), v(fill(dims.v_size(), 3)),
        dout(fill(dims.out_size(), 4)), out(dims.out_size()), lse(dims.rows()), dq(dims.q_size()),
        dk(dims.k_size()), dv(dims.v_size()), scratch(attnlab::sdpa_scratch_floats(dims)) {}
  AttentionDims dims;
  std::vector<float> q, k, v, dout, out, lse, dq, dk, dv, scratch;

  void forward(const SdpaOptions& opt) {
    attnlab::sdpa_forward(dims, opt, q.data(), k.data(), v.data(), {out.data(), lse.data()}, scratch.data());
  }
  // saved: pass the forward's out and lse (the backward then skips recomputing them)
  void backward(const SdpaOptions& opt, bool saved) {
    attnlab::sdpa_backward(dims, opt, q.data(), k.data(), v.data(), dout.data(), dq.data(), dk.data(), dv.data(),
                           scratch.data(), saved ? attnlab::SdpaSavedForward{out.data(), lse.data()} : attnlab::SdpaSavedForward{});
  }
};

void run(int T, bool causal) {
  Problem p(T);
  const AttentionDims& dims = p.dims;
  const double pairs = double(dims.B) * dims.H * (causal ? (double(T) * T + T) / 2 : double(T) * T);
  const int calls = std::max(3, int(2e9 / (pairs * dims.d * 12)));  // about a second per configuration

  for (SdpaKernel kernel : {SdpaKernel::automatic, SdpaKernel::row_streaming}) {
    SdpaOptions opt;
    opt.scale = 1.0f / std::sqrt(float(dims.d));
    opt.mask.causal = causal ? Causal::top_left : Causal::none;
    opt.kernel = kernel;
    const double fwd = median_seconds(calls, [&] { p.forward(opt); });
    const double bwd = median_seconds(calls, [&] { p.backward(opt, false); });
    const double bwd_saved = median_seconds(calls, [&] { p.backward(opt, true); });
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

// The fused path under a causal sliding window [w, 0] and under the plain causal mask, at one T.
void run_window(int T, int w) {
  Problem p(T);
  const AttentionDims& dims = p.dims;
  for (int window : {w, -1}) {
    SdpaOptions opt;
    opt.scale = 1.0f / std::sqrt(float(dims.d));
    opt.mask.causal = Causal::top_left;
    opt.mask.window_left = window;
    const double pairs = double(dims.H) * T * std::min(T, window < 0 ? T / 2 : window + 1);
    const int calls = std::max(3, int(1e9 / (pairs * dims.d * 12)));
    const double fwd = median_seconds(calls, [&] { p.forward(opt); });
    const double bwd = median_seconds(calls, [&] { p.backward(opt, true); });
    std::printf("T=%-5d %-14s forward %8.2f ms (%6.2f us per query row) | fwd+bwd %8.2f ms (%6.2f us per row)\n", T,
                window < 0 ? "causal" : ("window " + std::to_string(window)).c_str(), fwd * 1e3, fwd * 1e6 / T,
                (fwd + bwd) * 1e3, (fwd + bwd) * 1e6 / T);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  if (argc >= 3 && std::string(argv[1]) == "--window") {
    const int w = std::atoi(argv[2]);
    for (int a = 3; a < argc; ++a) sizes.push_back(std::atoi(argv[a]));
    if (sizes.empty()) sizes = {1024, 2048, 4096, 8192};
    std::printf("sdpa native fused, kernels '%s', B=1 H=8 d=dv=64, causal window [%d, 0] vs causal, median CPU time\n",
                attnlab::kernels::arch_name(), w);
    for (int T : sizes) run_window(T, w);
    return 0;
  }
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
