// What the small C++ benchmarks share (sdpa_native.cpp, sdpa_passes.cpp, sdpa_backward_passes.cpp):
// their inputs and their clock.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <ctime>
#include <vector>

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
#endif

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
