#!/usr/bin/env bash
# Benchmarks/search.sh [N=1000] [M=30] : what search costs (issue 21), on the corpus of run.sh.
#
# Rows (each the median wall time of RUNS runs; feeds read from the corpus's files, no server):
#   cold         no state, no output, `search: false`: the build itself
#   cold+search  no state, no output, `search: true`: the same build and the Pagefind index
#   warm+search  state and output kept, nothing changed: nothing is indexed again
# Columns: wall and CPU seconds and peak RSS of the whole process (Pagefind's processes
# included: GNU time counts waited-for children), the `search` stage's wall time from
# `build -v`, and the published index (pagefind/): its size, files and shards.
#
# Env: FEEDSITE (default <repo>/.build/release/feedsite), FEEDSITE_PAGEFIND (default: feedsite's
#      own search: PATH, then <repo>/.build/venv/bin/pagefind), RUNS (3), BENCH_ROOT
#      (/dev/shm/feedsite-bench: on tmpfs, like run.sh).
set -euo pipefail

N=${1:-1000}
M=${2:-30}
RUNS=${RUNS:-3}
ROOT=${BENCH_ROOT:-/dev/shm/feedsite-bench}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
FEEDSITE=$(realpath -m "${FEEDSITE:-$repo/.build/release/feedsite}")
[[ -x $FEEDSITE ]] || { echo "search.sh: no feedsite at $FEEDSITE (swift build -c release)" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "search.sh: needs GNU time (apt-get install time)" >&2; exit 1; }

corpus=$ROOT/corpus/n${N}_m${M}
if [[ ! -d $corpus/feeds ]]; then
  echo "generating corpus $corpus ..." >&2
  python3 "$here/gen_corpus.py" --feeds "$N" --items "$M" --port 8090 --out "$corpus" >&2
fi
work=$ROOT/search/n${N}_m${M}
mkdir -p "$work"
for mode in false true; do
  {
    echo "title: Bench Planet"
    echo "search: $mode"
    echo "feeds:"
    for feed in "$corpus"/feeds/*.xml; do echo "  - url: $feed"; done
  } >"$work/feeds-$mode.yml"
done

# one DIR YML COLD: one timed build in $work/DIR; prints "wall cpu peak_MiB search_s index_MB files
# shards". COLD=1 deletes the folder (state and site) first, untimed.
one() {
  local row=$1 yml=$2 cold=$3
  [[ $cold == 0 ]] || rm -rf "$work/$row"
  mkdir -p "$work/$row"
  (cd "$work/$row" && /usr/bin/time -o time.txt -f '%e %U %S %M' "$FEEDSITE" build -v --config "$yml" \
    --output Site --state state >log.txt 2>&1) || { tail -5 "$work/$row/log.txt" >&2; exit 1; }
  # "search 5 sec, 120 ms" (Duration's unit style) in the "time:" line of -v, in seconds.
  local stage
  stage=$(grep '^time:' "$work/$row/log.txt" | grep -oE 'search [0-9]+ secs?(, [0-9]+ ms)?|search [0-9]+ ms' |
    awk '{ s = 0; for (i = 2; i <= NF; i++) { v = $i + 0; u = $(i + 1); if (u ~ /^sec/) s += v; else if (u ~ /^ms/) s += v / 1000 } printf "%.2f", s }')
  local size=- files=- shards=-
  if [[ -d $work/$row/Site/pagefind ]]; then
    size=$(du -sb "$work/$row/Site/pagefind" | awk '{ printf "%.1f", $1 / 1e6 }')
    files=$(find "$work/$row/Site/pagefind" -type f | wc -l)
    shards=$(find "$work/$row/Site/pagefind" -mindepth 1 -maxdepth 1 -type d | wc -l)
  fi
  awk -v s="${stage:--}" -v z="$size" -v f="$files" -v h="$shards" \
    '{ printf "%s %.2f %.0f %s %s %s %s\n", $1, $2 + $3, $4 / 1024, s, z, f, h }' "$work/$row/time.txt"
}

# row NAME DIR YML COLD: RUNS runs, the one with the median wall time.
row() {
  local name=$1 runs=()
  shift
  for _ in $(seq "$RUNS"); do runs+=("$(one "$@")"); echo "   $name: ${runs[-1]}" >&2; done
  printf '%s\n' "${runs[@]}" | sort -n | awk -v n="$name" '{ l[NR] = $0 } END { print n, l[int((NR + 1) / 2)] }'
}

{
  echo "feedsite search benchmark $(date -u +%FT%TZ), $FEEDSITE (repo at $(git -C "$repo" log -1 --format=%h)), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
  echo "corpus: N=$N feeds x M=$M items ($((N * M)) items), median of $RUNS runs"
  printf '%-12s %7s %7s %9s %9s %9s %7s %7s\n' row wall_s cpu_s peak_MiB search_s index_MB files shards
  {
    row cold nosearch "$work/feeds-false.yml" 1
    row cold+search search "$work/feeds-true.yml" 1
    # From the last cold+search run's state and site: nothing changed.
    row warm+search search "$work/feeds-true.yml" 0
  } | while read -r name wall cpu peak stage size files shards; do
    printf '%-12s %7s %7s %9s %9s %9s %7s %7s\n' "$name" "$wall" "$cpu" "$peak" "$stage" "$size" "$files" "$shards"
  done
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$work/table.txt"
