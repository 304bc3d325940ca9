// Dropout keep mask as a pure function of (seed, b, h, i, j): forward and backward (and any
// future fused kernel) regenerate the same mask without storing it.
#pragma once

#include <cstdint>

namespace attnlab {

// splitmix64 finaliser over the packed coordinates; uniform in [0, 1) with 24-bit resolution.
inline float dropout_uniform(uint64_t seed, uint32_t b, uint32_t h, uint32_t i, uint32_t j) {
  uint64_t x = seed ^ (uint64_t(b) * 0x9E3779B97F4A7C15ull) ^ (uint64_t(h) * 0xC2B2AE3D27D4EB4Full) ^
               (uint64_t(i) * 0x165667B19E3779F9ull) ^ (uint64_t(j) * 0xD6E8FEB86659FD93ull);
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return float(x >> 40) * (1.0f / 16777216.0f);
}

// True when element (b, h, i, j) is kept under dropout probability p.
inline bool dropout_keep(uint64_t seed, float p, uint32_t b, uint32_t h, uint32_t i, uint32_t j) {
  return dropout_uniform(seed, b, h, i, j) >= p;
}

}  // namespace attnlab
