#!/usr/bin/env bash
# `make dist-check`: the tarball from `make dist`, alone in an empty folder, must start and build a
# planet with no Swift toolchain, no Templates/ and no network:
#   1. its SHA-256 matches, it unpacks, the binary needs only the C library family (ldd);
#   2. `feedsite init` writes feeds.yml, a second `init` refuses to overwrite it;
#   3. `feedsite build` builds the site from local feeds (sample snapshots served on 127.0.0.1);
#   4. `feedsite init --theme` writes the theme; an edited item.mustache changes the item pages;
#   5. action.yml's steps download, cache and run it (scripts/test-action.py).
# KEEP=1 keeps the folder.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
fail() { echo "dist-check: FAIL: $*" >&2; exit 1; }

tarball="${1:-$(ls -t "$repo"/dist/feedsite-*-linux-*.tar.gz 2>/dev/null | head -1)}"
[[ -f "$tarball" ]] || fail "no dist/feedsite-*.tar.gz: run make dist first"
tmp="$(mktemp -d)"
server_pid=""
cleanup() {
  [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null
  if [[ "${KEEP:-0}" == 1 ]]; then echo "dist-check: kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

# 1. Checksum, unpack, shared libraries.
(cd "$(dirname "$tarball")" && sha256sum --quiet -c "$(basename "$tarball").sha256") || fail "checksum mismatch"
mkdir "$tmp/unpacked"
tar -xzf "$tarball" -C "$tmp/unpacked"
feedsite="$(echo "$tmp"/unpacked/feedsite-*/feedsite)"
[[ -x "$feedsite" ]] || fail "no feedsite binary in $tarball"
for file in README.md LICENSE completions/feedsite.bash completions/_feedsite completions/feedsite.fish man/feedsite.1; do
  [[ -s "$(dirname "$feedsite")/$file" ]] || fail "$file is missing from the tarball"
done
unexpected="$(ldd "$feedsite" | grep -Ev '^\s*(linux-vdso\.so|/lib.*/ld-linux|lib(c|m|dl|pthread|rt)\.so)' || true)"
[[ -z "$unexpected" ]] || fail "the binary needs shared libraries beyond the C library: $unexpected"

# 2. init in an empty folder (the binary is elsewhere, and there is no Templates/ anywhere near).
mkdir "$tmp/planet"
cd "$tmp/planet"
"$feedsite" init > "$tmp/init.out" || fail "feedsite init exited $?"
grep -q "wrote feeds.yml" "$tmp/init.out" || fail "init did not say it wrote feeds.yml: $(cat "$tmp/init.out")"
status=0; "$feedsite" init 2> "$tmp/init2.err" || status=$?
[[ $status == 73 ]] || fail "a second init exited $status, not 73"
grep -q "already exists; not overwritten" "$tmp/init2.err" || fail "a second init did not refuse: $(cat "$tmp/init2.err")"

# 3. build from local feeds: the starter's feed list replaced with three sample snapshots on 127.0.0.1.
mkdir "$tmp/www"
for feed in dont-hit-save.xml bbc-urdu.xml inessential.json; do cp "$repo/Examples/sample-feeds/$feed" "$tmp/www/"; done
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$tmp/www" > "$tmp/server.log" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 100); do
  port="$(sed -n 's/.* port \([0-9][0-9]*\).*/\1/p' "$tmp/server.log" | head -1)"
  [[ -n "$port" ]] && break
  sleep 0.05
done
[[ -n "$port" ]] || fail "the local feed server did not start: $(cat "$tmp/server.log")"
sed -i '/^feeds:/,$d' feeds.yml
{
  echo "feeds:"
  echo "  - url: http://127.0.0.1:$port/dont-hit-save.xml"
  echo "  - url: http://127.0.0.1:$port/bbc-urdu.xml"
  echo "    name: BBC Urdu"
  echo "  - url: http://127.0.0.1:$port/inessential.json"
} >> feeds.yml
"$feedsite" build > "$tmp/build.out" 2> "$tmp/build.err" || fail "feedsite build exited $?: $(cat "$tmp/build.err")"
grep -q "from 3 of 3 feeds" "$tmp/build.out" || fail "unexpected summary: $(cat "$tmp/build.out")"
for page in index.html status/index.html assets/style.css assets/favicon.svg opml.xml; do
  [[ -s "Site/$page" ]] || fail "Site/$page was not written"
done
grep -q "<title>My Planet</title>" Site/index.html || fail "Site/index.html does not carry the starter's title"

# 4. init --theme, then one edited template changes the item pages.
"$feedsite" init --theme > "$tmp/theme.out" 2>&1 || fail "feedsite init --theme exited $?"
[[ -s Templates/item.mustache && -s Templates/assets/style.css ]] || fail "init --theme wrote no theme"
sed -i 's|<article class="item">|<article class="item dist-check">|' Templates/item.mustache
"$feedsite" build > "$tmp/build2.out" 2> "$tmp/build2.err" || fail "the rebuild exited $?: $(cat "$tmp/build2.err")"
grep -rq 'class="item dist-check"' Site/items || fail "the edited Templates/item.mustache was not used"

# 5. The GitHub Action's shell steps, run here against the same tarball.
python3 "$repo/scripts/test-action.py" "$tarball"

size="$(du -h "$tarball" | cut -f1)"
echo "dist-check: ok: $(basename "$tarball") ($size): init, build (3 local feeds) and a theme override, offline"
