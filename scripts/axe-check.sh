#!/usr/bin/env bash
# The accessibility check of the default theme (issue 22): builds sites from real-world fixture
# feeds (English, German, Arabic), opens one page of every type in headless Chromium through
# Selenium, light and dark colour scheme, and runs axe-core over each (scripts/axe_check.py says
# which pages and why). Fails on any serious or critical violation; minor and moderate ones are
# printed as warnings.
#
# Usage: FEEDSITE=.build/debug/feedsite scripts/axe-check.sh    (from anywhere)
#   FEEDSITE      the feedsite binary (default .build/debug/feedsite in the repository)
#   CHROMIUM      the browser (default: chromium, chromium-browser or google-chrome on PATH)
#   CHROMEDRIVER  the driver (default: chromedriver on PATH, as Debian's chromium-driver installs it)
#   PYTHON        a Python with axe-selenium-python and selenium (default: .build/venv/bin/python)
#   KEEP=1        keep the temporary folder (sites, feeds.yml files, logs) for inspection
# Exit status: 0 no serious or critical violation (or skipped: a tool is missing), 1 violations or
# the check could not be carried out.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/check-setup.sh"

python=${PYTHON:-.build/venv/bin/python}
if [[ -z "$chromium" || -z "$chromedriver" ]] || ! "$python" -c 'import axe_playwright_python, axe_selenium_python, selenium' 2>/dev/null; then
  echo "axe-check: SKIPPED: needs chromium, chromium-driver and axe-selenium-python in .build/venv" \
    "(scripts/install-deps.sh test installs them)"
  exit 0
fi
[[ -x "$feedsite" ]] || { echo "axe-check: error: no feedsite binary at $feedsite (set FEEDSITE)" >&2; exit 1; }

keep=()
[[ "${KEEP:-0}" == 1 ]] && keep=(--keep)
# SE_OFFLINE: Selenium Manager never downloads a driver or a browser (the script sets it too).
SE_OFFLINE=true exec "$python" scripts/axe_check.py --feedsite "$feedsite" --chromium "$chromium" \
  --chromedriver "$chromedriver" "${keep[@]}"
