#!/usr/bin/env bash
# Benchmarks/run.sh [N=1000] [M=30] : time `feedsite build` against a local corpus (issue 7).
#
# Rows (each the median of RUNS runs after one untimed-for-the-table warm-up run):
#   cold     state dir and output deleted before every run (a first build, or CI without a cache)
#   warm     state kept: every feed should answer 304 and no output file should be rewritten
#   latency  LAT_N feeds (default 200) served with LAT_MS (default 100) ms per response, cold
#   throughput  parser and sanitiser MB/s (`feedsite parse --stats --sanitise`) next to the libxml2
#               floor (xmlscan.c) over the same corpus
# This script builds nothing: `make bench` builds the release binary first.
#
# Env: FEEDSITE (binary, default <repo>/.build/release/feedsite), TEMPLATES (<repo>/Templates),
#      RUNS (3), PORT (8090), LAT_N (200), LAT_MS (100), BENCH_ROOT (/dev/shm/feedsite-bench),
#      SLOW_S (60: a cold build slower than this switches to RUNS=1), BUDGET_S (540: runs that
#      would end past this many seconds are skipped, so the whole thing stays under 10 minutes),
#      FEEDSITE_THROUGHPUT_CMD (optional shell command, output included in the report).
# Everything (corpus, site, state, nginx, results) lives under BENCH_ROOT, on tmpfs: this machine's
# disk makes rewriting thousands of small files take seconds, which would swamp feedsite's own cost.
set -euo pipefail

N=${1:-1000}
M=${2:-30}
RUNS=${RUNS:-3}
PORT=${PORT:-8090}
LAT_N=${LAT_N:-200}
LAT_MS=${LAT_MS:-100}
SLOW_S=${SLOW_S:-60}
BUDGET_S=${BUDGET_S:-540}
ROOT=${BENCH_ROOT:-/dev/shm/feedsite-bench}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
FEEDSITE=$(realpath -m "${FEEDSITE:-$repo/.build/release/feedsite}")
TEMPLATES=$(realpath -m "${TEMPLATES:-$repo/Templates}")
start_s=$SECONDS
stamp=$(date -u +%Y%m%dT%H%M%SZ)
results=$ROOT/results/n${N}_m${M}-$stamp
mkdir -p "$results"

die() { echo "run.sh: $*" >&2; exit 1; }
note() { echo "$*" | tee -a "$results/notes.txt" >&2; }

# ---- prerequisites ----------------------------------------------------------------------------
# Same policy as scripts/install-deps.sh: install missing Debian packages (nginx-light pulls in
# libnginx-mod-http-echo, whose echo_sleep gives the latency mode; `time` is GNU time, which
# reports peak RSS; bash's builtin does not).
[[ -x $FEEDSITE ]] || die "no feedsite binary at $FEEDSITE (run 'make bench', or set FEEDSITE=path)"
[[ -d $TEMPLATES ]] || die "no templates folder at $TEMPLATES (set TEMPLATES=path)"
missing=()
command -v nginx >/dev/null 2>&1 || missing+=(nginx-light)
[[ -f /usr/lib/nginx/modules/ngx_http_echo_module.so ]] || missing+=(libnginx-mod-http-echo)
[[ -x /usr/bin/time ]] || missing+=(time)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v xml2-config >/dev/null 2>&1 || missing+=(libxml2-dev)
command -v cc >/dev/null 2>&1 || missing+=(gcc libc6-dev)
if [[ ${#missing[@]} -gt 0 ]]; then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  command -v apt-get >/dev/null 2>&1 || die "missing: ${missing[*]}; install them with your package manager"
  echo "installing: ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ---- corpus -------------------------------------------------------------------------------------
# corpus N M: prints the corpus folder, generating it when missing or made for another port
# (feeds.yml bakes the port into every URL). Generation is deterministic, so reuse is safe.
corpus() {
  local dir=$ROOT/corpus/n${1}_m${2}
  if [[ ! -f $dir/feeds.yml ]] || ! grep -q "127.0.0.1:$PORT/" "$dir/feeds.yml"; then
    rm -rf "$dir"
    echo "generating corpus $dir ..." >&2
    python3 "$here/gen_corpus.py" --feeds "$1" --items "$2" --port "$PORT" --out "$dir" >&2
  fi
  echo "$dir"
}

# ---- nginx --------------------------------------------------------------------------------------
# A self-contained config like ../shared/bench/serve.sh: static files, ETag and Last-Modified on
# (so a warm build can get 304s), optional per-response delay with the echo module's non-blocking
# echo_sleep. The access log records only the status, unbuffered, so each row can count its 304s.
ngx=$ROOT/nginx-$PORT
ngx_pid=""
serve_stop() {
  [[ -n $ngx_pid ]] || return 0
  kill -QUIT "$ngx_pid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$ngx_pid" 2>/dev/null || break; sleep 0.1; done
  ngx_pid=""
}
# Stop our nginx however the script ends (error, Ctrl-C), and only ours: by its pid.
trap serve_stop EXIT
trap 'exit 130' INT TERM

serve_start() {  # serve_start DIR LATENCY_MS
  local dir=$1 lat=$2 mod="" loc="location / { }"
  if curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$PORT/"; then
    die "something already listens on 127.0.0.1:$PORT; set PORT= to a free port"
  fi
  if [[ $lat -gt 0 ]]; then
    mod="load_module /usr/lib/nginx/modules/ngx_http_echo_module.so;"
    # echo_sleep then echo_exec to a named location that serves the file as usual.
    loc="location / { echo_sleep $(awk -v l="$lat" 'BEGIN { print l / 1000 }'); echo_exec @file; } location @file { }"
  fi
  mkdir -p "$ngx/tmp"
  : >"$ngx/access.log"
  cat >"$ngx/nginx.conf" <<EOF
$mod
worker_processes 1;
pid $ngx/nginx.pid;
error_log $ngx/error.log warn;
events { worker_connections 4096; }
http {
  types { text/xml xml; text/html html; application/json json; }
  default_type application/octet-stream;
  log_format status_only '\$status';
  access_log $ngx/access.log status_only;
  client_body_temp_path $ngx/tmp; proxy_temp_path $ngx/tmp; fastcgi_temp_path $ngx/tmp;
  uwsgi_temp_path $ngx/tmp; scgi_temp_path $ngx/tmp;
  sendfile on; tcp_nopush on; tcp_nodelay on;
  keepalive_requests 100000; keepalive_timeout 60s;
  etag on; if_modified_since exact;
  server { listen 127.0.0.1:$PORT backlog=4096; root $dir; $loc }
}
EOF
  nginx -q -c "$ngx/nginx.conf" -p "$ngx" -g 'daemon on;'
  ngx_pid=$(cat "$ngx/nginx.pid")
  local code=""
  for _ in $(seq 50); do
    code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/f0001.xml" || true)
    [[ $code == 200 ]] && break
    sleep 0.1
  done
  [[ $code == 200 ]] || die "nginx on $PORT does not serve $dir/f0001.xml (see $ngx/error.log)"
  curl -s -D - -o /dev/null "http://127.0.0.1:$PORT/f0001.xml" | grep -qi '^etag:' ||
    die "nginx on $PORT sends no ETag"
  echo "nginx pid $ngx_pid on 127.0.0.1:$PORT serving $dir (latency $lat ms)" >&2
}

# ---- timing -------------------------------------------------------------------------------------
has_state_option=0
"$FEEDSITE" build --help 2>&1 | grep -q -- '--state' && has_state_option=1
[[ $has_state_option == 1 ]] ||
  note "note: this feedsite has no --state option; its state (if any) stays in its default place under the work dir"

# one_run ROW WORK YML: one timed build; appends "wall cpu peak_MiB changed total n304 n200" to
# $results/ROW.runs. Deleting state/output for cold rows happens before, outside the timer.
one_run() {
  local row=$1 work=$2 yml=$3 i=1
  [[ ! -f $results/$row.runs ]] || i=$(($(wc -l <"$results/$row.runs") + 1))
  local log=$results/$row.$i.log tf=$results/$row.$i.time
  local args=(build --config "$yml" --output "$work/Site" --templates "$TEMPLATES")
  [[ $has_state_option == 0 ]] || args+=(--state "$work/state")
  local before
  before=$(wc -l <"$ngx/access.log")
  # cd into the work dir so any cwd-relative default (.feedsite/) lands there, not in the repo.
  if ! (cd "$work" && /usr/bin/time -o "$tf" -f '%e %U %S %M' "$FEEDSITE" "${args[@]}") >"$log" 2>&1; then
    tail -5 "$log" >&2
    die "feedsite failed in row $row (see $log)"
  fi
  # "(X of Y files changed)" from the summary line; "- -" if this feedsite does not print it.
  local changed
  changed=$(grep -o '([0-9]* of [0-9]* files changed)' "$log" | tail -1 | tr -d '()' | awk '{ print $1, $3 }')
  [[ -n $changed ]] || changed="- -"
  local st
  st=$(tail -n +"$((before + 1))" "$ngx/access.log" | awk '$1 == 304 { a++ } $1 == 200 { b++ } END { print a + 0, b + 0 }')
  awk -v c="$changed" -v s="$st" '{ printf "%s %.3f %.1f %s %s\n", $1, $2 + $3, $4 / 1024, c, s }' "$tf" |
    tee -a "$results/$row.runs" | awk -v r="$row" -v i="$i" '{ printf "   %s run %d: wall %s s, cpu %s s, peak %s MiB, files changed %s of %s, 304s %s, 200s %s\n", r, i, $1, $2, $3, $4, $5, $6, $7 }' >&2
}

last_wall() { tail -1 "$results/$1.runs" | awk '{ print int($1 + 0.999) }'; }

# within_budget RUNSFILE LABEL: is there time for one more run as long as the last one in
# RUNSFILE? (keeps `make bench` under 10 minutes)
within_budget() {
  local last
  last=$(last_wall "$1")
  if (((SECONDS - start_s) + last > BUDGET_S)); then
    note "note: $2: stopped early, another ~${last} s run would pass BUDGET_S=$BUDGET_S s"
    return 1
  fi
}

# fresh WORK COLD: a cold run starts with no state and no output (the whole work dir goes).
fresh() { [[ $2 == 0 ]] || { rm -rf "$1" && mkdir -p "$1"; }; }

# row NAME WORK YML COLD(0|1): warm-up run, then up to RUNS timed runs. The warm-up is kept in its
# own file (.warmup) and left out of the median.
row() {
  local name=$1 work=$2 yml=$3 cold=$4 n=0
  echo ">> $name: $FEEDSITE build --config $yml (cold=$cold)" >&2
  fresh "$work" "$cold"
  one_run "$name.warmup" "$work" "$yml"
  slow_check "$name" "$name.warmup"
  local prev=$name.warmup
  while ((n < RUNS)); do
    within_budget "$prev" "$name" || break
    fresh "$work" "$cold"
    one_run "$name" "$work" "$yml"
    slow_check "$name" "$name"
    prev=$name n=$((n + 1))
  done
}

# slow_check ROW RUNSFILE: a cold build slower than SLOW_S switches every row to one run, which
# keeps the whole benchmark under 10 minutes at N=1000 (say so in the output).
slow_check() {
  [[ $1 == cold && $RUNS -gt 1 ]] || return 0
  if (($(last_wall "$2") > SLOW_S)); then
    note "note: a cold build took more than ${SLOW_S} s: RUNS=1 for every row (median of 1 run)"
    RUNS=1
  fi
}

# median ROW: the run with the median wall time (its CPU and RSS reported with it, as
# ../shared/bench/run_bench.sh does) plus the number of runs.
# A row cut short by BUDGET_S has only its warm-up: report that, with runs "w" so it shows.
median() {
  if [[ -s $results/$1.runs ]]; then
    sort -n "$results/$1.runs" | awk '{ l[NR] = $0 } END { print l[int((NR + 1) / 2)], NR }'
  elif [[ -s $results/$1.warmup.runs ]]; then
    echo "$(cat "$results/$1.warmup.runs") w"
  else
    echo "- - - - - - - 0"
  fi
}

# Other work on the machine (a parallel `swift build`) stretches wall times far more than CPU
# times: record the load so a reader can tell a busy run from a slow feedsite.
load_check() {
  local load
  load=$(cut -d' ' -f1 /proc/loadavg)
  awk -v l="$load" -v c="$(nproc)" 'BEGIN { exit !(l > c) }' &&
    note "warning: load average $load on $(nproc) cores at $1: wall times are unreliable, compare CPU times"
  return 0
}
load_check start

main_corpus=$(corpus "$N" "$M")
lat_corpus=$(corpus "$LAT_N" "$M")

serve_start "$main_corpus/feeds" 0
row cold "$ROOT/work/n${N}_m${M}" "$main_corpus/feeds.yml" 1
check="(check_site.sh not found)"
[[ -x $here/check_site.sh ]] && check=$("$here/check_site.sh" "$ROOT/work/n${N}_m${M}/Site")
# check_site's "unresolved" pattern (the corpus's ../assets/, ../tags/, img/fig, /images/, /YYYY/
# links) also matches feedsite's own theme one folder up: archive/index.html and status/index.html
# link ../assets/style.css and ../assets/favicon.svg (DESIGN puts the theme in Site/assets/). Count
# every match other than those two links: that figure must be 0.
other_links=$(grep -rhoE '(src|href)="(\.\./(tags|assets)/|img/fig|/images/|/20[0-9]{2}/)[^"]*"' \
  "$ROOT/work/n${N}_m${M}/Site" --include='*.html' | grep -cvE '^href="\.\./assets/(style\.css|favicon\.svg)"$' || true)
check+="; unresolved links other than feedsite's own ../assets/style.css and favicon.svg: $other_links"
# The warm row starts from the cold row's last state and output: nothing on the server changed.
row warm "$ROOT/work/n${N}_m${M}" "$main_corpus/feeds.yml" 0
serve_stop

# The latency row is skipped when a run as long as the last cold one would not fit.
if within_budget cold "latency row"; then
  serve_start "$lat_corpus/feeds" "$LAT_MS"
  row latency "$ROOT/work/n${LAT_N}_m${M}_lat" "$lat_corpus/feeds.yml" 1
  serve_stop
fi

load_check end

# ---- throughput ----------------------------------------------------------------------------------
# Parser and sanitiser MB/s on one core (`feedsite parse --stats --sanitise` over the corpus), next
# to the libxml2 floor over the same files (xmlscan.c, a copy of ../shared/bench/probes/xmlscan.c:
# SAX2 parse only; and SAX2 + libxml2's HTML parser and serialiser on every item body).
# FEEDSITE_THROUGHPUT_CMD replaces the feedsite part if set.
throughput_cmd=${FEEDSITE_THROUGHPUT_CMD:-'"$FEEDSITE" parse --stats --sanitise "$BENCH_CORPUS"/feeds/*.xml | grep -E "^(parse|sanitise):"'}
throughput=$(BENCH_CORPUS=$main_corpus FEEDSITE=$FEEDSITE bash -c "$throughput_cmd" 2>&1) ||
  throughput="FAILED: $throughput"
xmlscan=$ROOT/xmlscan
if [[ ! -x $xmlscan ]]; then
  cc -O2 -o "$xmlscan" "$here/xmlscan.c" $(xml2-config --cflags --libs) 2>/dev/null || xmlscan=""
fi
if [[ -n $xmlscan ]]; then
  mb=$(du -sb "$main_corpus/feeds" | awk '{ print $1 / 1e6 }')
  for mode in "" --html; do
    t=$( { /usr/bin/time -f "%U %S" "$xmlscan" $mode "$main_corpus"/feeds/*.xml >/dev/null; } 2>&1 | tail -1)
    cpu=$(awk -v t="$t" 'BEGIN { split(t, a, " "); print a[1] + a[2] }')
    label=$([[ -z $mode ]] && echo "libxml2 SAX2 parse floor" || echo "libxml2 SAX2 + HTML parse/serialise floor")
    throughput+=$'\n'$(awk -v mb="$mb" -v cpu="$cpu" -v l="$label" \
      'BEGIN { printf "%s: %.1f MB in %.2f s CPU = %.1f MB/s", l, mb, cpu, (cpu > 0 ? mb / cpu : 0) }')
  done
fi

# ---- table ----------------------------------------------------------------------------------------
commit=$(git -C "$repo" log -1 --format=%h 2>/dev/null || echo "?")
{
  echo "feedsite benchmark $(date -u +%FT%TZ), $FEEDSITE (repo at $commit), $(nproc) cores"
  echo "corpus: N=$N feeds x M=$M items ($((N * M)) items, $(du -sb "$main_corpus/feeds" | awk '{ printf "%.1f", $1 / 1e6 }') MB of XML); latency row: N=$LAT_N, $LAT_MS ms per response"
  printf '%-9s %8s %8s %9s %5s %15s %12s\n' row wall_s cpu_s peak_MiB runs files_changed "304s/feeds"
  for r in cold warm latency; do
    read -r wall cpu peak changed total n304 _ runs <<<"$(median "$r")"
    feeds=$N
    [[ $r != latency ]] || feeds=$LAT_N
    printf '%-9s %8s %8s %9s %5s %15s %12s\n' "$r" "$wall" "$cpu" "$peak" "$runs" "$changed/$total" "$n304/$feeds"
  done
  read -r cw _ <<<"$(median cold)"
  read -r ww _ <<<"$(median warm)"
  awk -v c="$cw" -v w="$ww" 'BEGIN { if (c + 0 > 0 && w != "-") printf "warm / cold = %.2f (target <= 0.2, with 0 files changed)\n", w / c }'
  echo "check_site (cold output): $check"
  echo "throughput: $throughput"
  [[ ! -s $results/notes.txt ]] || cat "$results/notes.txt"
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "runs: timed runs in the median; w = only the warm-up ran (BUDGET_S), 0 = row skipped"
  echo "raw runs and logs: $results (total $((SECONDS - start_s)) s)"
} | tee "$results/table.txt"
