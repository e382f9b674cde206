#!/usr/bin/env bash
# Builds the libFuzzer targets (Swift with -sanitize=fuzzer,address, into .build-fuzz so the normal
# build is never disturbed) and runs each for FUZZ_SECONDS (300). See Fuzz/README.md.
#
#   Fuzz/run.sh                              # every target, 300 s each, one after another
#   FUZZ_SECONDS=1200 Fuzz/run.sh FuzzSanitiser
#   Fuzz/run.sh --build-only
#
# FUZZ_KEEP_GOING=1 keeps fuzzing past a finding (libFuzzer's -fork=1 with crashes, timeouts and
# out-of-memory inputs recorded and ignored), for long unattended runs.
#
# The working corpus grows in .build-fuzz/corpus/<target> (seeded from Fuzz/Seeds/<target> and the
# test fixtures); crashes, timeouts (over FUZZ_TIMEOUT, 1 s, per input) and out-of-memory inputs
# land in .build-fuzz/findings/<target>/. A finding is fixed, then kept as a regression fixture
# in Tests/FeedsiteKitTests/Fixtures/fuzz-regressions/<target>/ (FuzzRegressionTests replays them).
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
FUZZ_SECONDS=${FUZZ_SECONDS:-300}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-1}
FUZZ_RSS_MB=${FUZZ_RSS_MB:-2048}
SCRATCH=.build-fuzz
TARGETS=(FuzzFeedParser FuzzSanitiser FuzzStateDecoder FuzzConfiguration FuzzIconFile FuzzSubsetParser FuzzTemplate FuzzDecompression FuzzJSONFeedBudget)

build_only=false
selected=()
for argument in "$@"; do
    case "$argument" in
        --build-only) build_only=true ;;
        *) selected+=("$argument") ;;
    esac
done
[[ ${#selected[@]} -gt 0 ]] || selected=("${TARGETS[@]}")

# The sanitizers come from a toolset (Fuzz/toolset.json: `-sanitize=fuzzer,address`), not from
# `-Xswiftc`, which SwiftPM also applies to the tools it builds for the build itself: the
# TemplateGlue plugin's generator, linked with libFuzzer, would not link (no LLVMFuzzerTestOneInput).
# A toolset's flags reach only what is built for the destination.
for target in "${selected[@]}"; do
    echo "== building $target"
    FEEDSITE_FUZZ=1 "$SWIFT" build --scratch-path "$SCRATCH" --product "$target" --toolset Fuzz/toolset.json
done
$build_only && exit 0

fixtures=Tests/FeedsiteKitTests/Fixtures
seed_corpus() {
    local target=$1 corpus=$2
    mkdir -p "$corpus"
    cp -n Fuzz/Seeds/"$target"/* "$corpus"/ 2>/dev/null || true
    case "$target" in
        FuzzFeedParser)
            # Real feeds up to 64 KB as they are; larger ones would only slow every run.
            find "$fixtures/real-feeds" -type f -size -64k \( -name '*.xml' -o -name '*.json' -o -name '*.atom' \
                -o -name '*.rss' -o -name '*.rdf' \) -exec cp -n {} "$corpus"/ \; ;;
        FuzzSanitiser)
            # One file per hostile vector (as written in the corpus file).
            grep -v '^#' "$fixtures/hostile/vectors.txt" | grep . | cut -f2- | split -l 1 - "$corpus/hostile-" ;;
        FuzzSubsetParser)
            # The sanitiser's seeds and hostile vectors too: markup the subset parser answers for
            # (Seeds/FuzzSubsetParser) and markup it must leave to gumbo.
            cp -n Fuzz/Seeds/FuzzSanitiser/* "$corpus"/ 2>/dev/null || true
            grep -v '^#' "$fixtures/hostile/vectors.txt" | grep . | cut -f2- | split -l 1 - "$corpus/hostile-" ;;
        FuzzStateDecoder)
            # A state published by an earlier version (version 1); Seeds/ holds version 2's parts.
            cp -n "$fixtures"/state/*.json "$corpus"/ ;;
        FuzzConfiguration)
            find Examples . -maxdepth 2 -name '*.yml' -size -64k -exec cp -n {} "$corpus"/ \; 2>/dev/null || true ;;
        FuzzTemplate)
            # Each page template of the built-in theme, as the page (its partials and parent are
            # missing there: the seeds in Fuzz/Seeds/FuzzTemplate hold whole sets).
            for file in Templates/*.mustache; do cp -n "$file" "$corpus/theme-$(basename "$file")"; done ;;
        FuzzIconFile)
            # ICO files of BMP images, as Pillow writes them.
            cp -n "$fixtures"/avatars/*.ico "$corpus"/ ;;
    esac
}

for target in "${selected[@]}"; do
    corpus="$SCRATCH/corpus/$target"
    findings="$SCRATCH/findings/$target"
    mkdir -p "$findings"
    seed_corpus "$target" "$corpus"
    options=()
    [[ -f "Fuzz/$target.dict" ]] && options+=(-dict="Fuzz/$target.dict")
    [[ "${FUZZ_KEEP_GOING:-0}" == 1 ]] && options+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
    leaks=1
    # The template schema (a global dictionary of an enum with indirect cases) keeps its boxes
    # through pointers with the enum's tag in their spare bits, which LeakSanitizer does not read
    # as pointers: it reports the global as leaked, once, for any input.
    [[ "$target" == FuzzTemplate ]] && leaks=0 && options+=(-detect_leaks=0)
    echo "== fuzzing $target for $FUZZ_SECONDS s (corpus $corpus, findings $findings)"
    ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=$leaks" "$SCRATCH/debug/$target" "$corpus" "${options[@]}" \
        -max_total_time="$FUZZ_SECONDS" -timeout="$FUZZ_TIMEOUT" -rss_limit_mb="$FUZZ_RSS_MB" \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="$findings/" || {
        echo "== $target stopped on a finding: see $findings" >&2
        exit 1
    }
done
