#!/bin/sh
# Copied unchanged from the shared benchmark kit (../shared/bench/check_site.sh) so that
# Benchmarks/run.sh can check the cold output from a fresh clone; keep the two in step.
# check_site.sh DIR : rough output sanity for a built site (baselines or feedsite).
# Counts item pages and bytes, pages still carrying script/event-handler/javascript: junk,
# and pages with unresolved relative URLs (the corpus uses ../tags/, ../assets/, img/fig, /images/, /YYYY/).
d=${1:?DIR}
pages=$(find "$d" -path '*/items/*.html' | wc -l)
bytes=$(find "$d" -name '*.html' -printf '%s\n' | awk '{s+=$1} END {print s+0}')
junk=$(grep -rlE '<script|<iframe|<style|[[:space:]]on[a-z]+=|javascript:' "$d" --include='*.html' | wc -l)
rel=$(grep -rlE '(src|href)="(\.\./(tags|assets)/|img/fig|/images/|/20[0-9]{2}/)' "$d" --include='*.html' | wc -l)
echo "$d: $pages item pages, $((bytes / 1000)) KB html, $junk pages with script/on*/javascript: junk, $rel pages with unresolved relative URLs"
