#!/usr/bin/env bash
# Builds attention-lab (idempotent and incremental):
#   native  build/       Release: the core libraries (SIMD + scalar), the reference and the C++ tests
#   wasm    build-wasm/  web/wasm/attention-{simd,relaxed,scalar}.{js,wasm} (cpp/bindings/wasm.cmake)
# Usage: bash tools/build.sh [native|wasm|all]   (default all)
# ATTNLAB_BUILD_DIR / ATTNLAB_WASM_BUILD_DIR choose other build trees (e.g. when several people
# build in one checkout); the wasm modules always land in web/wasm/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
native_dir=${ATTNLAB_BUILD_DIR:-$root/build}
wasm_dir=${ATTNLAB_WASM_BUILD_DIR:-$root/build-wasm}
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
  cmake -S "$root" -B "$native_dir" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$native_dir" -j"$jobs"
}

build_wasm() {
  # Every em++ link runs acorn from Node; Debian installs it in /usr/share/nodejs (docs/toolchain.md).
  export NODE_PATH=/usr/share/nodejs
  if [ ! -f "$wasm_dir/CMakeCache.txt" ]; then
    emcmake cmake -S "$root" -B "$wasm_dir" -DCMAKE_BUILD_TYPE=Release >/dev/null
  fi
  cmake --build "$wasm_dir" -j"$jobs"
  for variant in simd relaxed scalar; do
    local wasm="$root/web/wasm/attention-$variant.wasm"
    printf 'build: %-40s %8d bytes\n' "web/wasm/attention-$variant.wasm" "$(stat -c %s "$wasm")"
  done
}

case "$what" in
  native) build_native ;;
  wasm) build_wasm ;;
  all) build_native; build_wasm ;;
esac
