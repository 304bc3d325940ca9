#!/usr/bin/env bash
# attention-lab's whole test run (`npm test`, and CI through .ci/run):
#   setup (apt packages, xsimd headers, npm ci) and build (native + both wasm variants), then
#   1. native   the GoogleTest binaries of the Release build, build/tests_simd and build/tests_scalar,
#               each run once, both at the same time (not through ctest: ctest starts one process
#               per test case, ~3400 of them, which took ~250 s of a ~20 s suite)
#   2. asan     the same C++ tests built with AddressSanitizer + UndefinedBehaviorSanitizer
#               (build-asan/, or ATTNLAB_ASAN_BUILD_DIR), run the same way; built and run in the
#               background from the native build on (the build at nice 19, the tests at nice 10: they
#               take the CPU the other steps leave idle), waited for before 8 (its log:
#               test-results/asan.log, shown then)
#   3. types    Vitest, project "types": tsc --strict over tests/types (a consumer of each package
#               entry using its whole surface) and the .d.ts against the JS modules at runtime
#   4. node     Vitest, project "node"    (every wasm build)
#   5. browser  Vitest, project "browser" (real Chromium, every wasm build)
#   6. e2e      Vitest, project "e2e": the explorer page (built into dist/site first) driven in real
#               Chromium with playwright-core, two files at a time: presets, editing, the URL,
#               exports, check mode, backward and training, accessibility (axe-core), screenshots
#               into tests/artifacts/site/
#   7. embed    Vitest, project "embed": <attn-figure>/<attn-heatmap> and the figure functions in
#               Chromium, dist/site's embed.html, guide and Embed dialog, and `npm pack` installed
#               into a fresh project used from Node, a Vite app (build and dev) and a plain page,
#               two files at a time
#   8. timed    Vitest, project "timed" (with e2e or embed): the files that time a page, one at a
#               time: the explorer's first render, the speed panel's frames, the figures' render
#               times
# timed starts only once nothing else runs (it times; the sanitized run is waited for first). Every
# suite runs even when an earlier one fails. Reports go to test-results/; the last line is
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

# One GoogleTest binary in one process (not through ctest, which starts one process per test case:
# ~2000 processes per binary, most of the native suites' time), JUnit-style XML report in
# test-results/; prints only failures. A crash or a hang (killed after 20 min) leaves no report,
# which the summary counts as a failure.
run_gtest() {  # suite-name binary
  local suite=$1 bin=$2
  if [ ! -x "$bin" ]; then status "$suite" 1; return; fi
  timeout --kill-after=10 1200 "$bin" --gtest_brief=1 --gtest_output="xml:$results/$suite.gtest.xml"
  status "$suite" $?
}

# Both builds' binaries at once (one core each), then the reports of both.
run_gtest_pair() {  # suite-prefix build-dir
  run_gtest "$1-simd" "$2/tests_simd" & local simd=$!
  run_gtest "$1-scalar" "$2/tests_scalar"
  wait "$simd"
}

# The sanitized build and its tests, in the background from the native build on. The build runs at
# nice 19: the foreground steps keep the cores whenever they can use them, and the sanitized
# compiles take what they leave idle (the wasm links, the type checks, the node and browser
# projects' single worker). At the foreground's priority it took a core from the node project.
# The tests run at nice 10: they may overlap e2e (lab.test.js bounds the frame time while training)
# and still get a tenth of a core from a busy machine (at nice 19, starved, they could reach
# run_gtest's time limit). Its output goes to test-results/asan.log, shown (without the build's
# progress lines) when it is waited for: before the timed project, which must run alone.
run_asan() {
  local asan_dir=${ATTNLAB_ASAN_BUILD_DIR:-$root/build-asan} t0
  t0=$(date +%s)
  # -g1: line tables only (a sanitizer report still names file:line), ~30% less compile time than -g.
  if cmake -S "$root" -B "$asan_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATTNLAB_SANITIZE=ON \
       -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" >/dev/null &&
     nice -n 19 cmake --build "$asan_dir" -j"$jobs" --target tests_simd tests_scalar; then
    echo "asan: built in $(( $(date +%s) - t0 )) s"
    # halt_on_error: the first report fails the test; UBSan's are fatal too (-fno-sanitize-recover).
    export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    renice -n 10 -p "$BASHPID" >/dev/null  # this background shell and the test processes it starts
    run_gtest_pair asan "$asan_dir"
    echo "asan: built and ran in $(( $(date +%s) - t0 )) s"
  else
    status asan-simd 1; status asan-scalar 1
  fi
}

asan_pid=
# Waits for the sanitized run (once) and shows its log.
wait_asan() {
  [ -n "$asan_pid" ] || return 0
  banner "native C++ tests under AddressSanitizer + UndefinedBehaviorSanitizer: waiting for the background run"
  wait "$asan_pid"
  asan_pid=
  grep -vE '^\[ *[0-9]+%\] ' "$results/asan.log"
}

banner "build"
build_native=0; build_wasm=0
if wants native; then bash tools/build.sh native || build_native=$?; fi
# After the native build, which installs the xsimd headers if they are missing (with --no-setup).
if wants asan; then
  echo "test.sh: the sanitized build and tests start in the background (test-results/asan.log)"
  run_asan > "$results/asan.log" 2>&1 &
  asan_pid=$!
fi
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

if wants native; then
  banner "native C++ tests (Release)"
  if [ "$build_native" = 0 ]; then
    run_gtest_pair native "$root/build"
  else
    status native-simd "$build_native"; status native-scalar "$build_native"
  fi
fi

# Vitest project, default reporter on the console, JSON report for the summary.
# node and browser stand for their projects and their -fresh twins (vitest.config.js).
run_vitest() {  # suite [project pattern, default the suite's name]
  local suite=$1 project=${2:-$1}
  npx --no-install vitest run --project "$project" --reporter=default --reporter=json \
    --outputFile.json="$results/vitest-$suite.json"
  status "vitest-$suite" $?
}

if wants types; then
  banner "type checks of the .d.ts (tsc --strict over tests/types; the declarations vs the JS)"
  run_vitest types
fi
if wants node; then
  banner "JS tests in Node (Vitest, every wasm build)"
  run_vitest node 'node*'
fi
if wants browser; then
  banner "JS tests in Chromium (Vitest browser mode, every wasm build)"
  run_vitest browser 'browser*'
fi
if wants e2e; then
  banner "explorer end-to-end tests in Chromium (Vitest project e2e, two files at a time; dist/site)"
  if [ "$build_site" = 0 ]; then run_vitest e2e; else status vitest-e2e "$build_site"; fi
fi
if wants embed; then
  banner "embedding tests in Chromium and the packed package (Vitest project embed, two files at a time)"
  if [ "$build_site" = 0 ]; then run_vitest embed; else status vitest-embed "$build_site"; fi
fi
wait_asan
if wants e2e || wants embed; then
  banner "the files that time a page, one at a time with nothing else running (Vitest project timed)"
  if [ "$build_site" = 0 ]; then run_vitest timed; else status vitest-timed "$build_site"; fi
fi

banner "summary"
echo "test.sh: wall time $(( $(date +%s) - started )) s"
# Prints one line per suite and, last, the plain `N passed, N failed`; exits non-zero on any failure.
node "$root/tools/test-summary.mjs" "$results" "$only"
