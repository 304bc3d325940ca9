// Native benchmark of sdpa (built by CMake as bench_native on the SIMD core, AVX2+FMA): the fused
// path against row streaming, forward and forward+backward, B=1, H=8, d=dv=64, causal or not.
// Usage: build/bench_native [T ...]   (default 512 1024 2048)
//        build/bench_native --window w [T ...]   (fused, causal sliding window [w, 0] against plain
//        causal, default T 1024 .. 8192: a window of w keys should cost O(T w), so ms / T stays flat)
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
    std::printf("T=%-5d %-7s %-6s forward %8.2f ms %6.1f GFLOP/s | fwd+bwd %8.2f ms %6.1f GFLOP/s"
                " | fwd+bwd(saved out, lse) %8.2f ms %6.1f GFLOP/s\n",
                T, causal ? "causal" : "full", name, fwd * 1e3, fwd_flops / fwd / 1e9, (fwd + bwd) * 1e3,
                all_flops / (fwd + bwd) / 1e9, (fwd + bwd_saved) * 1e3, all_flops / (fwd + bwd_saved) / 1e9);
  }
}

// The fused path under a causal sliding window [w, 0] and under the plain causal mask, at one T.
void run_window(int T, int w) {
  const AttentionDims dims{1, 8, 8, T, T, 64, 64};
  const auto q = fill(dims.q_size(), 1), k = fill(dims.k_size(), 2), v = fill(dims.v_size(), 3),
             dout = fill(dims.out_size(), 4);
  std::vector<float> out(dims.out_size()), lse(dims.rows()), dq(dims.q_size()), dk(dims.k_size()),
      dv(dims.v_size()), scratch(attnlab::sdpa_scratch_floats(dims));
  for (int window : {w, -1}) {
    SdpaOptions opt;
    opt.scale = 1.0f / std::sqrt(float(dims.d));
    opt.mask.causal = Causal::top_left;
    opt.mask.window_left = window;
    const double pairs = double(dims.H) * T * std::min(T, window < 0 ? T / 2 : window + 1);
    const int calls = std::max(3, int(1e9 / (pairs * dims.d * 12)));
    const double fwd = median_seconds(calls, [&] {
      attnlab::sdpa_forward(dims, opt, q.data(), k.data(), v.data(), {out.data(), lse.data()}, scratch.data());
    });
    const double bwd = median_seconds(calls, [&] {
      attnlab::sdpa_backward(dims, opt, q.data(), k.data(), v.data(), dout.data(), dq.data(), dk.data(), dv.data(),
                             scratch.data(), {out.data(), lse.data()});
    });
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
  for (int T : sizes)
    for (bool causal : {false, true}) run(T, causal);
}
