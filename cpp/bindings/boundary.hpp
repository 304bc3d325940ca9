// The wasm boundary's second line of defence: the JS API validates everything first, so these
// checks only fire when the private binding is called directly or the JS side has a bug. They are
// cheap (a few comparisons per argument) and turn a would-be out-of-bounds access into a JS
// RangeError instead of a trap or silent corruption.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <utility>

namespace attnlab::binding {

// Collects the first failed check of one entry point; raise() throws it as a JS RangeError.
// Trivially destructible on purpose: a JS throw unwinds the wasm frames without running C++
// destructors (there are no C++ exceptions in this build), so nothing here may own memory.
class Boundary {
 public:
  explicit Boundary(const char* entry) : entry_(entry) {}

  bool ok() const { return !failed_; }

  // Throws `RangeError("<entry>: <message>")` in JS. Never returns when a check failed.
  void raise() const;

  void require(bool condition, const char* what);
  void positive(const char* name, int value);
  void positive(std::initializer_list<std::pair<const char*, int>> named_values);

  // `count` elements of `element_bytes` at byte address `address` lie inside wasm memory and are
  // aligned. `optional`: address 0 means "not given" and passes.
  void span(const char* name, uintptr_t address, double count, int element_bytes, bool optional = false);

 private:
  // format: a string literal with at most 4 conversions, each %s, %d, %lu or %.0f (formatted in
  // JS when raised, boundary.cpp).
  void fail(const char* format, ...);

  const char* entry_;
  bool failed_ = false;
};

// The largest buffer one call may use: a single wasm allocation holds less than 2 GiB.
constexpr double kMaxFloatsPerBuffer = double(1u << 29);

}  // namespace attnlab::binding
