#!/usr/bin/env bash
# The short fuzzing run of CI (scripts/test.sh): builds the fuzz targets and
# runs each for FUZZ_SECONDS (default 15) seconds from its corpus in
# fuzz/corpus/ (every corpus input is run first), new inputs going to a
# temporary directory. The linalg target is built in its quick form (only
# the target instrumented). Skips, with a message, where clang-22 or
# libFuzzer is missing. Fails on a crash, a hang, a leak or a sanitizer
# report, leaving the input under build-fuzz/ci/artifacts/.
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${TCGEN_FUZZ_BUILD_DIR:-$SRC/build-fuzz/ci}"
export TCGEN_FUZZ_BUILD_DIR="$OUT"
SECONDS_PER_TARGET="${FUZZ_SECONDS:-15}"

status=0
mkdir -p "$OUT"
"$SRC/fuzz/build.sh" manifest validate spec >"$OUT/build.log" 2>&1 || status=$?
if [ "$status" -eq 2 ]; then
  echo "fuzz: SKIPPED: $(tail -1 "$OUT/build.log")"
  exit 0
elif [ "$status" -ne 0 ]; then
  cat "$OUT/build.log" >&2
  exit "$status"
fi
targets=(manifest validate spec)
if FUZZ_LINALG_FRONT=0 "$SRC/fuzz/build-linalg.sh" >>"$OUT/build.log" 2>&1; then
  targets+=(linalg)
else
  echo "fuzz: linalg target not built (see $OUT/build.log); running the others"
fi

mkdir -p "$OUT/artifacts"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for t in "${targets[@]}"; do
  mkdir -p "$tmp/$t"
  dict=(-dict="$SRC/fuzz/manifest.dict")
  [ "$t" = linalg ] && dict=(-dict="$SRC/fuzz/linalg.dict")
  [ "$t" = spec ] && dict=()
  if ! "$OUT/${t}_fuzzer" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 \
      -rss_limit_mb=4096 "${dict[@]}" -artifact_prefix="$OUT/artifacts/$t-" \
      -print_final_stats=1 "$tmp/$t" "$SRC/fuzz/corpus/$t" >"$tmp/$t.log" 2>&1; then
    tail -40 "$tmp/$t.log" >&2
    echo "fuzz: $t: FAILED (input in $OUT/artifacts/)" >&2
    exit 1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$tmp/$t.log" | grep -o '[0-9]*$')
  echo "fuzz: $t: ok, $runs runs in ${SECONDS_PER_TARGET}s"
done
