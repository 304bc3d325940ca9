#include "boundary.hpp"

#include <emscripten/em_js.h>
#include <emscripten/heap.h>

#include <cmath>
#include <cstdarg>

// A real JS error object, not a bare number: without -fexceptions a C++ throw would reach JS as
// an integer. EM_JS instead of emscripten::val, because a val handle alive in a frame that a JS
// throw unwinds is never released (no destructors run), which would leak one handle per error.
// The message is formatted here, in JS, as printf would: musl's printf family (its float formatting
// above all) is several KiB of wasm. args: one double per
// conversion of `format` (%s: the string's address, %d, %lu, %.0f: the number).
// Its body is JavaScript, which clang-format would misread (it split `=>` and `===`).
// clang-format off
EM_JS(void, attnlab_throw_range_error, (const char* entry, const char* format, const double* args), {
  const whole = (x) => {  // printf's %.0f of an integer-valued double (counts and sizes)
    if (Number.isNaN(x)) return "nan";
    if (!Number.isFinite(x)) return x < 0 ? "-inf" : "inf";
    if (Object.is(x, -0)) return "-0";
    return Math.abs(x) < 1e21 ? x.toFixed(0) : BigInt(x).toString();
  };
  let at = args >> 3;
  const text = UTF8ToString(format).replace(/%(s|d|lu|[.]0f)/g, (_, conversion) => {
    const x = HEAPF64[at++];
    return conversion === "s" ? UTF8ToString(x) : conversion === ".0f" ? whole(x) : String(x);
  });
  throw new RangeError(UTF8ToString(entry) + ": " + text);
});
// clang-format on

namespace attnlab::binding {
namespace {
// Static, not on the stack: the failure must outlive the frame the JS throw unwinds.
const char* g_format = "";
double g_args[4];
}  // namespace

void Boundary::fail(const char* format, ...) {
  if (failed_) return;  // keep the first failure: it is the cause, later ones are consequences
  failed_ = true;
  g_format = format;
  va_list args;
  va_start(args, format);
  int n = 0;
  for (const char* c = format; *c != '\0' && n < 4; ++c) {
    if (*c != '%') continue;
    switch (c[1]) {
      case 's':
        g_args[n++] = double(uintptr_t(va_arg(args, const char*)));
        break;
      case 'd':
        g_args[n++] = va_arg(args, int);
        break;
      case 'l':
        g_args[n++] = double(va_arg(args, unsigned long));
        break;  // %lu
      case '.':
        g_args[n++] = va_arg(args, double);
        break;  // %.0f
    }
  }
  va_end(args);
}

void Boundary::raise() const {
  if (failed_) attnlab_throw_range_error(entry_, g_format, g_args);
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
