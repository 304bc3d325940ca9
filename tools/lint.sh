#!/usr/bin/env bash
# Lint and format (pinned: ESLint and Prettier in package.json, Debian's clang-format 14).
#   bash tools/lint.sh           check: ESLint, Prettier --check, clang-format --dry-run (npm run lint)
#   bash tools/lint.sh --write   rewrite the layout with Prettier and clang-format (npm run format)
# `npm test` runs the same checks as tests/lint/lint.test.js.
set -uo pipefail
cd "$(dirname "$0")/.."
mapfile -t cpp < <(git ls-files --cached --others --exclude-standard -- '*.cpp' '*.hpp')
if [ "${1:-}" = --write ]; then
  npx --no-install prettier --write --log-level warn . && clang-format -i "${cpp[@]}"
  exit
fi
status=0
npx --no-install eslint . || status=1
npx --no-install prettier --check --log-level warn . || status=1
clang-format --dry-run --Werror "${cpp[@]}" || status=1
exit $status
