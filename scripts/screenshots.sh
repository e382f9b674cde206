#!/usr/bin/env bash
# Screenshots of the default theme (issue 6): the index, a feed page and an item page, at 375 px
# (a phone) and 1280 px (a laptop), light and dark, in headless Chromium. The site is built from
# real-world fixture feeds (the same set as scripts/validate-html.sh, served by a local python
# http.server) and served over http:// for the browser. Look at the PNGs after a theme change.
#
# Usage: FEEDSITE=.build/debug/feedsite scripts/screenshots.sh    (from anywhere)
#   FEEDSITE  the feedsite binary (default .build/debug/feedsite in the repository)
#   CHROMIUM  the browser (default: chromium, chromium-browser or google-chrome on PATH)
#   OUT       where the PNGs go (default .build/screenshots/)
# Output: OUT/{index,feed,item}-{375,1280}-{light,dark}.png
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/check-setup.sh"
out=${OUT:-.build/screenshots}
fixtures="Tests/FeedsiteKitTests/Fixtures/real-feeds"

[[ -n "$chromium" ]] || { echo "screenshots: error: chromium is not installed (apt-get install chromium)" >&2; exit 1; }
[[ -x "$feedsite" ]] || { echo "screenshots: error: no feedsite binary at $feedsite (set FEEDSITE)" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/feedsite-screenshots.XXXXXX")
pids=()
# shellcheck disable=SC2317  # invoked by the trap
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Serves a folder on a free port; prints the port.
serve() {
  python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$1" >"$2" 2>&1 &
  pids+=($!)
  local port=""
  for _ in $(seq 100); do
    port=$(sed -n 's/.* port \([0-9][0-9]*\).*/\1/p' "$2" | head -1)
    [[ -n "$port" ]] && break
    sleep 0.05
  done
  [[ -n "$port" ]] || { echo "screenshots: error: http.server did not start" >&2; exit 1; }
  echo "$port"
}

feeds=(podcast-itunes-squarespace-atp.xml jsonfeed-1.1-authors-language.json wordpress-rss2-excerpt-only-100-items.xml
  guardian-rss2-media-dc-creator.xml hugo-rss2.xml youtube-atom.xml)
mkdir -p "$tmp/www"
for feed in "${feeds[@]}"; do cp "$fixtures/$feed" "$tmp/www/"; done
feed_port=$(serve "$tmp/www" "$tmp/feeds-server.log")
{
  echo "title: Planet Screenshot"
  echo "description: What the default theme looks like, built from real-world feeds"
  echo "base_url: https://planet.example/"
  echo "timezone: Europe/Berlin"
  echo "retries: 0"
  echo "state_dir: $tmp/state"
  echo "feeds:"
  for feed in "${feeds[@]}"; do echo "  - url: http://127.0.0.1:$feed_port/$feed"; done
} >"$tmp/feeds.yml"
"$feedsite" build --config "$tmp/feeds.yml" --output "$tmp/site" --templates Templates >"$tmp/build.log" 2>&1 || {
  echo "screenshots: error: feedsite build failed" >&2; cat "$tmp/build.log" >&2; exit 1; }
site_port=$(serve "$tmp/site" "$tmp/site-server.log")

# The podcast's feed page and its newest item (an audio player, categories, prev/next).
feed_page=$(grep -l -i "accidental tech podcast" "$tmp"/site/feeds/*/index.html | head -1)
feed_page=${feed_page#"$tmp/site/"}
feed_slug=$(basename "$(dirname "$feed_page")")
item_page=$(grep -o "\.\./\.\./items/$feed_slug/[^\"]*index.html" "$tmp/site/$feed_page" | head -1)
item_page=${item_page#../../}

mkdir -p "$out"
count=0
for page in "index:index.html" "feed:$feed_page" "item:$item_page"; do
  name=${page%%:*}
  path=${page#*:}
  for width in 375 1280; do
    height=$([[ $width == 375 ]] && echo 2000 || echo 1400)
    # Blink's preferredColorScheme: 0 is dark, 1 is light (prefers-color-scheme for the page).
    for scheme in light:1 dark:0; do
      file="$out/$name-$width-${scheme%%:*}.png"
      timeout 60 "$chromium" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
        --user-data-dir="$tmp/profile-$count" --blink-settings=preferredColorScheme="${scheme#*:}" \
        --virtual-time-budget=3000 --window-size="$width,$height" --screenshot="$file" \
        "http://127.0.0.1:$site_port/$path" >>"$tmp/chromium.log" 2>&1 || {
        echo "screenshots: error: chromium failed on $path" >&2; tail -20 "$tmp/chromium.log" >&2; exit 1; }
      count=$((count + 1))
    done
  done
done
echo "screenshots: $count PNGs in $out/ (index, $feed_page, $item_page)"
