#!/usr/bin/env bash
# Builds attention-lab (idempotent and incremental):
#   native  build/       Release: the core libraries (SIMD + scalar), the reference and the C++ tests
#   wasm    build-wasm/  web/wasm/attention-simd.{js,wasm} and web/wasm/attention-scalar.{js,wasm}
# Usage: bash tools/build.sh [native|wasm|all]   (default all)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
what=${1:-all}
case "$what" in
  native|wasm|all) ;;
  *) echo "build.sh: unknown target '$what' (native, wasm or all)" >&2; exit 2 ;;
esac
jobs=2   # the project's machines have 2 cores shared by everyone

if [ ! -f "$root/.deps/xsimd/usr/include/xsimd/xsimd.hpp" ]; then
  bash "$root/tools/setup.sh" --no-browser --no-npm
fi

build_native() {
  cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$root/build" -j"$jobs"
}

build_wasm() {
  # Every em++ link runs acorn from Node; Debian installs it in /usr/share/nodejs (TOOLCHAIN.md).
  export NODE_PATH=/usr/share/nodejs
  if [ ! -f "$root/build-wasm/CMakeCache.txt" ]; then
    emcmake cmake -S "$root" -B "$root/build-wasm" -DCMAKE_BUILD_TYPE=Release >/dev/null
  fi
  cmake --build "$root/build-wasm" -j"$jobs"
  for variant in simd scalar; do
    local wasm="$root/web/wasm/attention-$variant.wasm"
    printf 'build: %-40s %8d bytes\n' "web/wasm/attention-$variant.wasm" "$(stat -c %s "$wasm")"
  done
}

case "$what" in
  native) build_native ;;
  wasm) build_wasm ;;
  all) build_native; build_wasm ;;
esac
