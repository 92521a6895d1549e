#!/usr/bin/env bash
# Runs ON the GPU machine: the bundles of carry/b2b-bundles (or those
# given) timed against cuBLAS with one launch per event pair and with N
# launches back to back between the events (tcgen-gpu bench
# --back-to-back), two runs each, alternated. Raw rows in $OUT/b2b.csv
# (run, launches, then the bench CSV's columns).
set -uo pipefail
# shellcheck source=scripts/device-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/device-env.sh"
ITERS="${ITERS:-60}"
N="${N:-10}"
BUNDLES=("$@")
[ ${#BUNDLES[@]} -eq 0 ] && BUNDLES=("$CARRY"/b2b-bundles/*/)
rm -f "$OUT/b2b.csv"
echo "run launches entry tcgen_us cublas_us ratio"
for run in 1 2; do
  for n in 1 "$N"; do
    csv="$OUT/b2b-$run-$n.csv"
    "$CARRY/bin/tcgen-gpu" bench "${BUNDLES[@]}" --iters "$ITERS" --warmup 5 \
      --no-cublaslt --back-to-back "$n" --csv "$csv" > "$OUT/b2b-$run-$n.log" 2>&1 ||
      echo "run $run launches $n failed: $(tail -2 "$OUT/b2b-$run-$n.log")"
    [ -f "$OUT/b2b.csv" ] || head -1 "$csv" | sed 's/^/run,launches,/' > "$OUT/b2b.csv"
    tail -n +2 "$csv" | sed "s/^/$run,$n,/" >> "$OUT/b2b.csv"
    tail -n +2 "$csv" | awk -F, -v r="$run" -v n="$n" \
      '{printf "%s %s %s %.2f %.2f %s\n", r, n, $3, $10*1000, $12*1000, $14}'
  done
done
