#!/usr/bin/env bash
# The live-reload check of `feedsite serve` in headless Chromium (scripts/reload_proof.py says
# how): a page whose live-reload stream was refused (503, every place taken) reconnects on its own
# once places are free, and reloads after a rebuild.
#
# Usage: FEEDSITE=.build/debug/feedsite scripts/reload-proof.sh    (from anywhere)
#   FEEDSITE      the feedsite binary (default .build/debug/feedsite in the repository)
#   CHROMIUM      the browser (default: chromium, chromium-browser or google-chrome on PATH)
#   CHROMEDRIVER  the driver (default: chromedriver on PATH, as Debian's chromium-driver installs it)
#   PYTHON        a Python with selenium (default: .build/venv/bin/python)
#   KEEP=1        keep the temporary folder (site, feeds.yml, the server's log)
# Exit status: 0 passed (or skipped: a tool is missing), 1 failed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/check-setup.sh"

python=${PYTHON:-.build/venv/bin/python}
if [[ -z "$chromium" || -z "$chromedriver" ]] || ! "$python" -c 'import selenium' 2>/dev/null; then
  echo "reload-proof: SKIPPED: needs chromium, chromium-driver and selenium in .build/venv" \
    "(scripts/install-deps.sh test installs them)"
  exit 0
fi
[[ -x "$feedsite" ]] || { echo "reload-proof: error: no feedsite binary at $feedsite (set FEEDSITE)" >&2; exit 1; }

keep=()
[[ "${KEEP:-0}" == 1 ]] && keep=(--keep)
SE_OFFLINE=true exec "$python" scripts/reload_proof.py --feedsite "$feedsite" --chromium "$chromium" \
  --chromedriver "$chromedriver" "${keep[@]}"
