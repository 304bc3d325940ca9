#!/usr/bin/env bash
# attention-lab's whole test run (`npm test`, and CI through .ci/run):
#   setup (apt packages, xsimd headers, npm ci) and build (native + both wasm variants), then
#   1. native   ctest on the Release build: simd.* (tests_simd) and scalar.* (tests_scalar)
#   2. asan     the same C++ tests built with AddressSanitizer + UndefinedBehaviorSanitizer, each
#               binary run once (not through ctest: ctest starts one process per test, and the
#               ~0.3 s a sanitized process takes to start, times ~3000 tests, was most of the run)
#   3. types    Vitest, project "types": tsc --strict over tests/types (a consumer of each package
#               entry using its whole surface) and the .d.ts against the JS modules at runtime
#   4. node     Vitest, project "node"    (both wasm builds)
#   5. browser  Vitest, project "browser" (real Chromium, both wasm builds)
#   6. e2e      Vitest, project "e2e": the explorer page (built into dist/site first) driven in real
#               Chromium with playwright-core: presets, editing, the URL, exports, check mode,
#               backward and training, the speed panel, accessibility (axe-core), screenshots into
#               tests/artifacts/site/
#   7. embed    Vitest, project "embed": <attn-figure>/<attn-heatmap> and the figure functions in
#               Chromium, dist/site's embed.html, guide and Embed dialog, and `npm pack` installed
#               into a fresh project used from Node, a Vite app (build and dev) and a plain page
# Every suite runs even when an earlier one fails. Reports go to test-results/; the last line is
# `N passed, N failed` over all suites, and the exit status is non-zero if anything failed or a
# suite ran no test.
# Usage: bash tools/test.sh [--no-setup] [--only native,asan,types,node,browser,e2e,embed]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
results="$root/test-results"
jobs=2   # the project's machines have 2 cores

do_setup=1
only="native,asan,types,node,browser,e2e,embed"
while [ $# -gt 0 ]; do
  case "$1" in
    --no-setup) do_setup=0 ;;
    --only) only="$2"; shift ;;
    *) echo "test.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
wants() { [[ ",$only," == *",$1,"* ]]; }

mkdir -p "$results"
rm -f "$results"/*.xml "$results"/*.json "$results"/*.status
started=$(date +%s)
banner() { printf '\n==== %s (at %d s) ====\n' "$*" "$(( $(date +%s) - started ))"; }
# Records a suite's exit status for the summary (a suite whose report is missing counts as failed).
status() { echo "$2" > "$results/$1.status"; }

if [ "$do_setup" = 1 ]; then
  banner "setup"
  bash tools/setup.sh || echo "test.sh: setup failed (continuing: the suites will say what is missing)"
fi

banner "build"
build_native=0; build_wasm=0
if wants native; then bash tools/build.sh native || build_native=$?; fi
if wants types || wants node || wants browser || wants e2e || wants embed; then bash tools/build.sh wasm || build_wasm=$?; fi
# The end-to-end tests drive the built page; a failed build leaves no report, so e2e counts as failed.
build_site=0
if wants e2e || wants embed; then
  if [ "$build_wasm" = 0 ]; then
    npx --no-install vite build --config vite.site.config.js --logLevel warn || build_site=$?
  else
    build_site=$build_wasm
  fi
fi

# ctest over one build directory and one test-name prefix, JUnit report in test-results/.
run_ctest() {  # suite-name build-dir prefix
  local suite=$1 dir=$2 prefix=$3
  if [ ! -f "$dir/CTestTestfile.cmake" ]; then status "$suite" 1; return; fi
  # Thousands of passing tests: show only failures (with their output) and ctest's summary.
  ctest --test-dir "$dir" -R "^${prefix}\\." -j"$jobs" --output-on-failure --timeout 600 \
    --output-junit "$results/$suite.xml" | grep -vE '^ +Start +[0-9]+: |Passed +[0-9.]+ sec$'
  status "$suite" "${PIPESTATUS[0]}"
}

# One GoogleTest binary in one process, JUnit-style XML report; prints only failures.
run_gtest() {  # suite-name binary
  local suite=$1 bin=$2
  if [ ! -x "$bin" ]; then status "$suite" 1; return; fi
  "$bin" --gtest_brief=1 --gtest_output="xml:$results/$suite.gtest.xml"
  status "$suite" $?
}

if wants native; then
  banner "native C++ tests (Release)"
  if [ "$build_native" = 0 ]; then
    run_ctest native-simd "$root/build" simd
    run_ctest native-scalar "$root/build" scalar
  else
    status native-simd "$build_native"; status native-scalar "$build_native"
  fi
fi

if wants asan; then
  banner "native C++ tests under AddressSanitizer + UndefinedBehaviorSanitizer"
  asan_dir="$root/build-asan"
  if cmake -S "$root" -B "$asan_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATTNLAB_SANITIZE=ON >/dev/null &&
     cmake --build "$asan_dir" -j"$jobs"; then
    # halt_on_error: the first report fails the test; UBSan's are fatal too (-fno-sanitize-recover).
    export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    run_gtest asan-simd "$asan_dir/tests_simd"
    run_gtest asan-scalar "$asan_dir/tests_scalar"
    unset ASAN_OPTIONS UBSAN_OPTIONS
  else
    status asan-simd 1; status asan-scalar 1
  fi
fi

# Vitest project, default reporter on the console, JSON report for the summary.
run_vitest() {  # project
  local project=$1
  npx --no-install vitest run --project "$project" --reporter=default --reporter=json \
    --outputFile.json="$results/vitest-$project.json"
  status "vitest-$project" $?
}

if wants types; then
  banner "type checks of the .d.ts (tsc --strict over tests/types; the declarations vs the JS)"
  run_vitest types
fi
if wants node; then
  banner "JS tests in Node (Vitest, both wasm builds)"
  run_vitest node
fi
if wants browser; then
  banner "JS tests in Chromium (Vitest browser mode, both wasm builds)"
  run_vitest browser
fi
if wants e2e; then
  banner "explorer end-to-end tests in Chromium (Vitest project e2e, dist/site)"
  if [ "$build_site" = 0 ]; then run_vitest e2e; else status vitest-e2e "$build_site"; fi
fi
if wants embed; then
  banner "embedding tests in Chromium and the packed package (Vitest project embed)"
  if [ "$build_site" = 0 ]; then run_vitest embed; else status vitest-embed "$build_site"; fi
fi

banner "summary"
echo "test.sh: wall time $(( $(date +%s) - started )) s"
# Prints one line per suite and, last, the plain `N passed, N failed`; exits non-zero on any failure.
node "$root/tools/test-summary.mjs" "$results" "$only"
