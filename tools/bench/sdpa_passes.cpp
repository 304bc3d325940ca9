// Where the fused forward's time goes (why its efficiency is below the ceiling): the loop of
// cpp/src/sdpa_fused.cpp (Br = 64 query rows by Bc = 64 keys per block, B=1 H=8 d=dv=64, no mask)
// rebuilt from the public kernels, with each pass timed on its own:
//   transpose  Qt = (scale log2 e Q_blk)^T into scratch (once per query block, as the fused path does;
//              the scores come out in log2 units and the softmax runs in base 2)
//   S gemm     S^T = K_blk Qt          (Bc, Br) over d, K_blk read in place
//   softmax    colmax, 2^(S^T - m), rescale of O when the max moves (f32_online_softmax_columns,
//              then the rescale of O)
//   PV gemm    O += (P^T)^T V_blk      (Br, dv) over Bc, the transposed-A product
// and the gemm microkernel alone on one block kept in L1 (its own ceiling in this loop shape).
// Each pass is timed by running the whole loop with only that pass (CPU time of the process, best of
// 3: a timer around every block would cost as much as a block, and wall time counts other jobs on a
// shared machine); the passes' sum is compared with the loop run whole.
// Efficiency is over the ceiling: natively the AVX2 vfmadd probe below, in the same process; in wasm
// the GFLOP/s of tools/bench/lib/ceiling.mjs given as --ceiling=X (clang's build of a chain loop is not
// the exact instruction stream the JS probe writes).
// Usage: build/bench_passes [--ceiling=GFLOPS] [T ...]   (default 512 1024 2048)
// wasm (after tools/build.sh wasm; Emscripten 3.1.6's node glue would fetch() a path, hence the flag):
//   em++ -O3 -msimd128 -DATTNLAB_SIMD=1 -Icpp/include -I.deps/xsimd/usr/include -sALLOW_MEMORY_GROWTH=1 \
//     -sENVIRONMENT=node tools/bench/sdpa_passes.cpp build-wasm/libattnlab_simd.a -o /tmp/passes.js
//   node --no-experimental-fetch /tmp/passes.js
// (relaxed: -mrelaxed-simd, libattnlab_relaxed.a, node tools/wasm/relaxed-opcodes.mjs /tmp/passes.wasm,
//  node --experimental-wasm-relaxed-simd; its ceiling probe stays mul+add)
#include <algorithm>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "attnlab/kernels.hpp"

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
#endif

// The bench's inputs and its clock.
namespace bench {

// n deterministic floats in [-1, 1], a different sequence per seed.
inline std::vector<float> fill(std::size_t n, int seed) {
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = float(std::sin(seed * 12.9898 + double(i) * 78.233));
  return x;
}

// CPU time of this process: on a machine shared with other jobs, wall time includes their slices.
// clock_gettime natively; under Node (Emscripten 3.1.6 has no CPU-time clock) process.cpuUsage().
inline double cpu_seconds() {
#if defined(__EMSCRIPTEN__)
  return EM_ASM_DOUBLE({
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  });
#else
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
#endif
}

// The least CPU seconds of `runs` calls of f.
template <class F>
double best_cpu_seconds(int runs, F&& f) {
  double best = 1e30;
  for (int run = 0; run < runs; ++run) {
    const double t0 = cpu_seconds();
    f();
    best = std::min(best, cpu_seconds() - t0);
  }
  return best;
}

}  // namespace bench

namespace {

namespace kn = attnlab::kernels;
using bench::fill;
struct Clock {
  static double now() { return bench::cpu_seconds(); }
};

constexpr int kRows = 64, kKeys = 64, kHeads = 8, kD = 64;
constexpr int kLd = kRows + 16;  // the row stride of Qt and S^T, padded as sdpa_fused.cpp's Scratch::ld

double seconds_since(double t0) { return Clock::now() - t0; }

#if defined(__x86_64__)
// The AVX2+FMA ceiling: 14 independent vfmadd chains, as tools/bench/lib/ceiling.mjs does in wasm.
double ceiling_gflops() {
  constexpr int kChains = 14;
  volatile float half = 0.5f;
  double best = 0;
  for (int run = 0; run < 5; ++run) {
#if defined(__x86_64__)
    const __m256 m = _mm256_set1_ps(half), c = _mm256_set1_ps(half);
    __m256 acc[kChains];
    for (int i = 0; i < kChains; ++i) acc[i] = _mm256_set1_ps(half * float(i + 2));
    constexpr int kLanes = 8;
#endif
    const long steps = 2'000'000;
    const auto t0 = Clock::now();
    for (long s = 0; s < steps; ++s) {
      for (auto& a : acc) { a = _mm256_fmadd_ps(a, m, c); }
    }
    const double t = seconds_since(t0);
    float sink = 0;
    for (auto& a : acc) {
      float lanes[kLanes];
      std::memcpy(lanes, &a, sizeof lanes);
      sink += lanes[0];
    }
    if (std::fabs(sink - kChains) > 1e-3f) std::printf("ceiling probe: unexpected sum %g\n", sink);
    best = std::max(best, double(steps) * kChains * kLanes * 2 / t / 1e9);
  }
  return best;
}
#endif

enum Pass {
  kTranspose = 1,
  kSGemm = 2,
  kPvGemm = 4,
  kSoftmax = 8,
  kAll = kTranspose | kSGemm | kPvGemm | kSoftmax
};

// One forward over every head and block, running only the passes in `passes`.
void forward_passes(int T, const std::vector<float>& q, const std::vector<float>& k,
                    const std::vector<float>& v, std::vector<float>& out, int passes) {
  std::vector<float> qt(kD * kLd), st(kKeys * kLd), m(kRows), l(kRows);
  const float scale = 1.4426950f / std::sqrt(float(kD));  // log2 e / sqrt(d)
  for (int h = 0; h < kHeads; ++h) {
    const float* qh = q.data() + std::size_t(h) * T * kD;
    const float* kh = k.data() + std::size_t(h) * T * kD;
    const float* vh = v.data() + std::size_t(h) * T * kD;
    for (int i0 = 0; i0 < T; i0 += kRows) {
      float* o = out.data() + (std::size_t(h) * T + i0) * kD;
      if (passes & kTranspose) {
        kn::f32_transpose(kRows, kD, qh + std::size_t(i0) * kD, kD, qt.data(), kLd);
        kn::f32_scale(qt.data(), scale, kD * kLd);
      }
      std::fill(o, o + kRows * kD, 0.0f);
      std::fill(m.begin(), m.end(), -INFINITY);
      std::fill(l.begin(), l.end(), 0.0f);
      for (int j0 = 0; j0 < T; j0 += kKeys) {
        if (passes & kSGemm)
          kn::f32_gemm_nn_strided(kKeys, kRows, kD, kh + std::size_t(j0) * kD, kD, qt.data(), kLd, st.data(),
                                  kLd, false);
        if (passes & kSoftmax) {
          float alpha[kRows];
          kn::f32_online_softmax_columns(st.data(), kLd, kKeys, kRows, m.data(), l.data(), alpha);
          for (int r = 0; r < kRows; ++r)
            if (alpha[r] != 1.0f) kn::f32_scale(o + r * kD, alpha[r], kD);
        }
        if (passes & kPvGemm)
          kn::f32_gemm_tn_strided(kRows, kD, kKeys, st.data(), kLd, vh + std::size_t(j0) * kD, kD, o, kD,
                                  true);
      }
      if (passes & kSoftmax)  // O /= l
        for (int r = 0; r < kRows; ++r) kn::f32_scale(o + r * kD, 1.0f / l[r], kD);
    }
  }
}

// Best CPU seconds of 3 runs of the loop with `passes`.
double time_passes(int T, const std::vector<float>& q, const std::vector<float>& k,
                   const std::vector<float>& v, std::vector<float>& out, int passes) {
  return bench::best_cpu_seconds(3, [&] { forward_passes(T, q, k, v, out, passes); });
}

// The two products' loop shapes alone, on one block that stays in L1: the microkernel's own rate,
// S^T = A B (two pointers into A) and O += A^T B (one pointer into A^T).
double gemm_in_l1_gflops(bool transposed_a) {
  const auto a = fill(kLd * kD, 5), b = fill(kD * kKeys, 6);
  std::vector<float> c(kRows * kKeys);
  const int reps = 20000;
  double best = 0;
  for (int run = 0; run < 3; ++run) {
    const auto t0 = Clock::now();
    for (int i = 0; i < reps; ++i) {
      if (transposed_a)
        kn::f32_gemm_tn_strided(kRows, kKeys, kD, a.data(), kLd, b.data(), kKeys, c.data(), kKeys, true);
      else
        kn::f32_gemm_nn_strided(kRows, kKeys, kD, a.data(), kD, b.data(), kKeys, c.data(), kKeys, false);
    }
    best = std::max(best, 2.0 * kRows * kKeys * kD * reps / seconds_since(t0) / 1e9);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  double ceiling = 0;
  for (int a = 1; a < argc; ++a) {
    if (std::strncmp(argv[a], "--ceiling=", 10) == 0)
      ceiling = std::atof(argv[a] + 10);
    else
      sizes.push_back(std::atoi(argv[a]));
  }
  if (sizes.empty()) sizes = {512, 1024, 2048};
#if defined(__x86_64__)
  if (ceiling == 0) ceiling = ceiling_gflops();
#endif
  if (ceiling == 0) {
    std::printf("give the ceiling: --ceiling=GFLOPS (npm run bench:passes reads and gives it)\n");
    return 2;
  }
  std::printf("sdpa forward passes, kernels '%s', Br=%d Bc=%d H=%d d=%d; ceiling %.1f GFLOP/s\n",
              kn::arch_name(), kRows, kKeys, kHeads, kD, ceiling);
  const double nn = gemm_in_l1_gflops(false), tn = gemm_in_l1_gflops(true);
  std::printf(
      "gemm (%d x %d over %d) in L1: A B %.1f GFLOP/s (%.0f%%), A^T B %.1f GFLOP/s (%.0f%%) of the ceiling\n",
      kRows, kKeys, kD, nn, 100 * nn / ceiling, tn, 100 * tn / ceiling);
  for (int T : sizes) {
    const std::size_t n = std::size_t(kHeads) * T * kD;
    const auto q = fill(n, 1), k = fill(n, 2), v = fill(n, 3);
    std::vector<float> out(n);
    forward_passes(T, q, k, v, out, kAll);  // warm-up
    const double total = time_passes(T, q, k, v, out, kAll);
    const double transpose = time_passes(T, q, k, v, out, kTranspose),
                 s_gemm = time_passes(T, q, k, v, out, kSGemm),
                 softmax = time_passes(T, q, k, v, out, kSoftmax),
                 pv_gemm = time_passes(T, q, k, v, out, kPvGemm);
    const double gemm_flops = 2.0 * kHeads * T * double(T) * kD;  // each of the two products
    std::printf(
        "T=%-5d whole %7.2f ms (%5.1f GFLOP/s, %3.0f%%); alone: transpose %5.1f%% | S gemm %5.1f%% (%5.1f "
        "GFLOP/s)"
        " | softmax %5.1f%% | PV gemm %5.1f%% (%5.1f GFLOP/s) | sum %5.1f%%\n",
        T, total * 1e3, 2 * gemm_flops / total / 1e9, 100 * 2 * gemm_flops / total / 1e9 / ceiling,
        100 * transpose / total, 100 * s_gemm / total, gemm_flops / s_gemm / 1e9, 100 * softmax / total,
        100 * pv_gemm / total, gemm_flops / pv_gemm / 1e9,
        100 * (transpose + s_gemm + softmax + pv_gemm) / total);
  }
}
