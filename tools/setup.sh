#!/usr/bin/env bash
# Installs everything attention-lab needs on a fresh Debian bookworm machine (idempotent):
#   - apt: emscripten 3.1.6, g++/cmake/googletest, clang-format 14 (the C++ layout check), chromium and chromium-headless-shell (browser
#     tests: tools/chromium.mjs says which suite runs on which) and fonts-noto-cjk (the zh-CN
#     explorer's characters in screenshots and PNG exports)
#   - xsimd 13 headers (Debian trixie's libxsimd-dev, unpacked into .deps/, system apt untouched)
#   - npm packages from package-lock.json
# Usage: bash tools/setup.sh [--no-browser] [--no-npm]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
want_browser=1; want_npm=1
for a in "$@"; do
  case "$a" in
    --no-browser) want_browser=0 ;;
    --no-npm) want_npm=0 ;;
    *) echo "setup.sh: unknown option $a" >&2; exit 2 ;;
  esac
done

need_pkgs=()
have() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for p in emscripten g++ cmake make libgtest-dev clang-format ca-certificates; do have "$p" || need_pkgs+=("$p"); done
if [ "$want_browser" = 1 ]; then for p in chromium chromium-headless-shell fonts-noto-cjk; do have "$p" || need_pkgs+=("$p"); done; fi
if [ ${#need_pkgs[@]} -gt 0 ]; then
  echo "setup: apt-get install ${need_pkgs[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null
fi

# xsimd 13 (bookworm's 8.1 has no wasm backend): download trixie's header-only package, unpack locally.
xsimd_dir="$root/.deps/xsimd"
if [ ! -f "$xsimd_dir/usr/include/xsimd/xsimd.hpp" ]; then
  echo "setup: fetching xsimd 13 headers (Debian trixie libxsimd-dev) into .deps/xsimd"
  tmp=$(mktemp -d)
  printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' > "$tmp/trixie.sources"
  A=(-o "Dir::Etc::sourcelist=$tmp/trixie.sources" -o "Dir::Etc::sourceparts=-" -o "Dir::State::Lists=$tmp/lists" -o "Dir::Cache=$tmp/cache")
  mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial"
  apt-get "${A[@]}" update -qq
  (cd "$tmp" && apt-get "${A[@]}" download libxsimd-dev >/dev/null)
  mkdir -p "$xsimd_dir"
  dpkg -x "$tmp"/libxsimd-dev_*.deb "$xsimd_dir"
  rm -rf "$tmp"
fi
grep -m1 -h "define XSIMD_VERSION_MAJOR" "$xsimd_dir/usr/include/xsimd/config/xsimd_config.hpp" | sed 's/^/setup: xsimd /'

if [ "$want_npm" = 1 ]; then
  cd "$root"
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "setup: npm ci"
    npm ci --no-audit --no-fund --loglevel=error
  fi
fi
echo "setup: done"
