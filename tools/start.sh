#!/usr/bin/env bash
# attention-lab's main command (`npm start`): installs what is missing, builds the WebAssembly
# module (both variants), builds the explorer page into dist/site/ and serves it, printing the
# URL (Ctrl+C stops the server). Options are passed to the server, e.g. `npm start -- --port 8080`.
# With CI set (CI=true) it builds and exits instead of serving, so it can never hang a pipeline.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash tools/setup.sh --no-browser   # Chromium is only needed by the browser tests (npm test)
bash tools/build.sh wasm           # the page needs only web/wasm/; `npm run build` builds the native tests too
npx --no-install vite build --config vite.site.config.js --logLevel warn
echo
echo "start: built the explorer into dist/site/ (node examples/seed-004.mjs prints the same example in a terminal)"
if [ -n "${CI:-}" ]; then
  echo "start: CI is set, not serving (serve it with: npm run serve:site)"
  exit 0
fi
exec node tools/serve.mjs "$@"
