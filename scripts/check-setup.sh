# Sourced by the checks that build sites from the fixture feeds (browser-proof, axe-check,
# reload-proof, validate-html, screenshots): sets `feedsite` (FEEDSITE, a relative path taken from
# the current folder when it is there, else from the repository), `repo`, `chromium` (CHROMIUM, else
# chromium, chromium-browser or google-chrome on PATH; empty when none) and `chromedriver`
# (CHROMEDRIVER, else chromedriver on PATH; empty when none), and moves to the repository.
# The fixture feeds name real icon hosts: no icon request leaves the machine (avatars: monograms).
export FEEDSITE_AVATARS=off
feedsite=${FEEDSITE:-.build/debug/feedsite}
if [[ "$feedsite" != /* && -e "$feedsite" ]]; then feedsite="$PWD/$feedsite"; fi
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

chromium=${CHROMIUM:-}
if [[ -z "$chromium" ]]; then
  for candidate in chromium chromium-browser google-chrome; do
    if command -v "$candidate" >/dev/null 2>&1; then chromium=$(command -v "$candidate"); break; fi
  done
fi
chromedriver=${CHROMEDRIVER:-$(command -v chromedriver || true)}
