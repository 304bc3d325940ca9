#!/usr/bin/env bash
# Regenerates tests/golden/golden.json with Debian's PyTorch (python3-torch 1.13, CPU).
# Uses /usr/bin/python3 on purpose: a pyenv or venv python3 earlier on PATH does not see Debian's torch.
# Usage: bash tools/gen-golden.sh        (installs python3-torch with apt when it is missing)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
py=/usr/bin/python3
if ! "$py" -c "import torch" 2>/dev/null; then
  echo "gen-golden: apt-get install python3-torch"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends python3-torch >/dev/null
fi
"$py" "$root/tests/golden/gen_golden.py"
