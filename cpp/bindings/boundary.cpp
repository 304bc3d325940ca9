#include "boundary.hpp"

#include <emscripten/em_js.h>
#include <emscripten/heap.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>

// A real JS error object, not a bare number: without -fexceptions a C++ throw would reach JS as
// an integer. EM_JS instead of emscripten::val, because a val handle alive in a frame that a JS
// throw unwinds is never released (no destructors run), which would leak one handle per error.
EM_JS(void, attnlab_throw_range_error, (const char* message), {
  throw new RangeError(UTF8ToString(message));
});

namespace attnlab::binding {
namespace {
// Static, not on the stack: the message must outlive the frame the JS throw unwinds.
char g_message[512];
}  // namespace

void Boundary::fail(const char* format, ...) {
  if (failed_) return;  // keep the first failure: it is the cause, later ones are consequences
  failed_ = true;
  int used = std::snprintf(g_message, sizeof g_message, "%s: ", entry_);
  if (used < 0 || used >= int(sizeof g_message)) used = 0;
  va_list args;
  va_start(args, format);
  std::vsnprintf(g_message + used, sizeof g_message - used, format, args);
  va_end(args);
}

void Boundary::raise() const {
  if (failed_) attnlab_throw_range_error(g_message);
}

void Boundary::require(bool condition, const char* what) {
  if (!condition) fail("%s", what);
}

void Boundary::positive(const char* name, int value) {
  if (value < 1) fail("%s must be a positive integer, got %d", name, value);
}

void Boundary::positive(std::initializer_list<std::pair<const char*, int>> named_values) {
  for (const auto& [name, value] : named_values) positive(name, value);
}

void Boundary::span(const char* name, uintptr_t address, double count, int element_bytes, bool optional) {
  if (address == 0) {
    if (!optional) fail("%s: null pointer for a required buffer of %.0f elements", name, count);
    return;
  }
  if (address % uintptr_t(element_bytes) != 0) {
    fail("%s: address %lu is not aligned to %d bytes", name, (unsigned long)address, element_bytes);
    return;
  }
  // double: count * element_bytes may exceed the 32-bit size_t of wasm32.
  const double end = double(address) + count * element_bytes;
  const double heap = double(emscripten_get_heap_size());
  if (!(count >= 0) || end > heap)
    fail("%s: %.0f elements at address %lu run past the end of wasm memory (%.0f bytes)", name, count,
         (unsigned long)address, heap);
}

}  // namespace attnlab::binding
