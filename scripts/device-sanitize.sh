#!/usr/bin/env bash
# Runs ON the GPU machine: compute-sanitizer (memcheck, racecheck, synccheck)
# over the bundles in carry/san/ (build them here with tcgen compile -o
# carry/san/<name>, small shapes: racecheck is slow), one launch each, and
# prints one line per bundle and tool. Logs in $OUT/sanitize.tgz.
set -uo pipefail
# shellcheck source=scripts/device-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/device-env.sh"
GPU="$CARRY/bin/tcgen-gpu"
SAN="${SANITIZER:-compute-sanitizer}"
for b in "$CARRY"/san/*/; do
  name=$(basename "$b")
  for tool in memcheck racecheck synccheck; do
    log="$OUT/san_${name}_${tool}.log"
    timeout "${SAN_TIMEOUT:-120}" "$SAN" --tool "$tool" "$GPU" run "$b" > "$log" 2>&1
    rc=$?
    echo "$name $tool rc=$rc: $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log")"
  done
done
(cd "$OUT" && tar czf sanitize.tgz --exclude='*.tgz' ./san_*.log 2>/dev/null && rm -f ./san_*.log)
