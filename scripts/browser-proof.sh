#!/usr/bin/env bash
# The real-browser proof of the sanitiser (issue 4). Builds a site from the hostile corpus
# (Tests/FeedsiteKitTests/Fixtures/hostile/vectors.txt) served as RSS and Atom feeds by one local
# HTTP server, opens every generated page in headless Chromium twice — as generated, with its
# Content-Security-Policy meta tag, and from a copy with that tag removed, so the sanitiser alone
# must hold — and fails if the server saw any request for /pwned (every vector would request
# http://127.0.0.1:PORT/pwned?id=N if any part of it ran or loaded).
#
# A positive control (an unsanitised page written into the copy, not through feedsite) must reach
# the detector, so the proof cannot pass because Chromium ran no script.
#
# Usage: FEEDSITE=.build/debug/feedsite scripts/browser-proof.sh    (from anywhere)
#   FEEDSITE  the feedsite binary (default .build/debug/feedsite in the repository)
#   CHROMIUM  the browser (default: chromium, chromium-browser or google-chrome on PATH)
#   TABS      pages open at the same time (default 4)
#   KEEP=1    keep the temporary folder (the site, feeds and logs) for inspection
# Exit status: 0 proven (or skipped: no Chromium), 1 a vector reached the detector or the proof
# could not be carried out.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/check-setup.sh"
helper="$repo/scripts/browser_proof.py"
vectors="Tests/FeedsiteKitTests/Fixtures/hostile/vectors.txt"

if [[ -n "${CHROMIUM:-}" && ! -x "$chromium" ]]; then
  echo "browser-proof: error: CHROMIUM=$chromium is not an executable" >&2
  exit 1
fi
if [[ -z "$chromium" ]]; then
  echo "browser-proof: SKIPPED: chromium is not installed (apt-get install chromium; make test installs it)"
  exit 0
fi
command -v python3 >/dev/null 2>&1 || { echo "browser-proof: error: python3 is required" >&2; exit 1; }
[[ -x "$feedsite" ]] || { echo "browser-proof: error: no feedsite binary at $feedsite (set FEEDSITE)" >&2; exit 1; }
[[ -f "$vectors" ]] || { echo "browser-proof: error: no corpus at $vectors" >&2; exit 1; }

started=$SECONDS
tmp=$(mktemp -d "${TMPDIR:-/tmp}/feedsite-browser-proof.XXXXXX")
server_pid=""
browse_pid=""
# shellcheck disable=SC2317  # invoked by the trap
cleanup() {
  # The browser exits when its DevTools pipe (held by the helper) closes.
  for pid in $browse_pid $server_pid; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [[ "${KEEP:-0}" == 1 ]]; then echo "browser-proof: kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

www="$tmp/www"
mkdir -p "$www/feeds"

# 1. One local server: feeds under /feeds/, the site under /site/ and /site-nocsp/, and the
#    detector: any request whose path contains /pwned is logged (every method).
python3 "$helper" serve --root "$www" --port-file "$tmp/port" --log "$tmp/server.jsonl" \
  2>"$tmp/server.err" &
server_pid=$!
for _ in $(seq 100); do [[ -s "$tmp/port" ]] && break; sleep 0.05; done
if [[ ! -s "$tmp/port" ]]; then
  echo "browser-proof: error: the server did not start" >&2
  cat "$tmp/server.err" >&2
  exit 1
fi
port=$(cat "$tmp/port")
echo "browser-proof: server on http://127.0.0.1:$port/"

# 2. The corpus as feeds (PORTPLACEHOLDER replaced by the port), and a feeds.yml listing them.
python3 "$helper" feeds --vectors "$vectors" --port "$port" --www "$www" --config "$tmp/feeds.yml" \
  --expected "$tmp/expected.json" --extra "retries: 0" --extra "state_dir: $tmp/state"

# 3. Build the site with feedsite itself.
set +e
"$feedsite" build --config "$tmp/feeds.yml" --output "$www/site" --templates Templates 2>"$tmp/build.err"
status=$?
set -e
# Not repeated here: unknown-key warnings (binaries whose configuration predates `retries`) and
# the single-item xhtml feeds of ill-formed markup that feedsite is expected to reject.
grep -v -e "unknown key" -e "-repair-[0-9]*'" "$tmp/build.err" | sed 's/^/  feedsite: /' | head -40 >&2 || true
if [[ $status -ne 0 ]]; then
  echo "browser-proof: FAIL: feedsite build exited $status" >&2
  cat "$tmp/build.err" >&2
  exit 1
fi

# 4. The copy without the CSP meta tag, and the controls.
python3 "$helper" copy --site "$www/site" --nocsp "$www/site-nocsp" --port "$port"

# 5. The positive control first: no point opening hundreds of pages if no script runs.
browse() {
  python3 "$helper" browse --urls "$1" --out "$tmp/browse.jsonl" --chromium "$chromium" \
    --chromium-log "$tmp/chromium.log" --profile "$tmp/profile" --tabs "${TABS:-4}" --progress "${2:-0}" &
  browse_pid=$!
  local status=0
  wait "$browse_pid" || status=$?
  browse_pid=""
  return $status
}
printf 'http://127.0.0.1:%s/site-nocsp/proof-control/index.html\nhttp://127.0.0.1:%s/site/proof-control/index.html\n' \
  "$port" "$port" >"$tmp/control-urls"
browse "$tmp/control-urls" || { echo "browser-proof: FAIL: Chromium could not open the control pages" >&2; \
  tail -20 "$tmp/chromium.log" >&2; exit 1; }
sleep 0.3
python3 "$helper" control --server-log "$tmp/server.jsonl"

# 6. Every generated page, with and without the CSP.
(cd "$www" && find site site-nocsp -name '*.html' -not -path '*/proof-control/*' | LC_ALL=C sort) |
  sed "s|^|http://127.0.0.1:$port/|" >"$tmp/urls"
# The search page (when the build had Pagefind), searching words the corpus's payloads use: its
# results are built from hostile items and must stay text, with and without the CSP.
if [[ -f "$www/site/search/index.html" ]]; then
  for words in alert onerror script pwned javascript iframe svg img; do
    for copy in site site-nocsp; do echo "http://127.0.0.1:$port/$copy/search/index.html?q=$words"; done
  done >>"$tmp/urls"
fi
pages=$(wc -l <"$tmp/urls")
echo "browser-proof: opening $pages pages ($((pages / 2)) × 2) in $chromium with ${TABS:-4} tabs"
browse "$tmp/urls" 500 || { echo "browser-proof: FAIL: the browser run did not complete" >&2; \
  tail -20 "$tmp/chromium.log" >&2; exit 1; }
sleep 0.5 # let the last requests reach the log

set +e
python3 "$helper" report --server-log "$tmp/server.jsonl" --browse-log "$tmp/browse.jsonl" \
  --expected "$tmp/expected.json" --vectors "$vectors" --site "$www/site"
result=$?
set -e
echo "browser-proof: $((SECONDS - started)) s"
exit $result
