#!/usr/bin/env bash
# Runs ON the GPU machine after `scripts/prepare-study.sh tune` here: times
# every candidate of carry/tune-dirs/<shape> with tcgen-gpu tune (the
# measuring half of tcgen tune; wall time per shape in <shape>.time), and
# checks the bundles listed in carry/winners.txt (the fastest of an
# earlier run, written here by scripts/import-tune.sh --winners). Results
# in $OUT/tune.tgz; scripts/import-tune.sh reads it. Environment: OUT,
# CARRY, TUNE_BUDGET (seconds of GPU time per shape, default 2).
set -uo pipefail
# shellcheck source=scripts/device-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/device-env.sh"
GPU="$CARRY/bin/tcgen-gpu"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
if [ -f "$CARRY/winners.txt" ]; then
  while read -r b; do
    [ -d "$b" ] && timeout 120 "$GPU" run "$b" --check --launches 2 2>&1 | tail -1
  done < "$CARRY/winners.txt" > "$OUT/winner-checks.txt"
  echo "winner checks: $(grep -c ' PASS ' "$OUT/winner-checks.txt") pass, $(grep -vc ' PASS ' "$OUT/winner-checks.txt") not"
  grep -v ' PASS ' "$OUT/winner-checks.txt" | head -5
fi
mkdir -p "$OUT/tune"
for d in "$CARRY"/tune-dirs/*/; do
  n=$(basename "$d")
  start=$(date +%s.%N)
  timeout 180 "$GPU" tune "$d" --budget "${TUNE_BUDGET:-2}" --csv "$OUT/tune/$n.csv" \
    > "$OUT/tune/$n.log" 2>&1 || echo "$n: tune failed: $(tail -1 "$OUT/tune/$n.log")"
  awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f\n", b - a }' > "$OUT/tune/$n.time"
done
echo "tcgen-gpu tune wall seconds per shape (min / median / max):"
cat "$OUT"/tune/*.time | sort -n | awk '{a[NR]=$1} END {print a[1], a[int((NR+1)/2)], a[NR]}'
(cd "$OUT" && tar czf tune.tgz tune && rm -rf tune)
