#!/usr/bin/env bash
# Runs ON the GPU machine: profiles bundles with ncu (--clock-control none)
# and prints one line of counters per bundle. Usage:
#   scripts/device-ncu.sh BUNDLE_DIR...
# Environment: OUT (logs), CARRY, METRICS (comma list; default below).
set -uo pipefail
# shellcheck source=scripts/device-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/device-env.sh"
GPU="$CARRY/bin/tcgen-gpu"
METRICS="${METRICS:-gpu__time_duration.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum.per_second,dram__bytes.sum.per_second,lts__t_sector_hit_rate.pct,launch__grid_size,launch__registers_per_thread,sm__throughput.avg.pct_of_peak_sustained_elapsed}"
for b in "$@"; do
  b="${b%/}"; name=$(basename "$b")
  timeout 120 ncu --clock-control none -c 1 --metrics "$METRICS" --csv \
    "$GPU" run "$b" > "$OUT/ncu_$name.csv" 2> "$OUT/ncu_$name.err" ||
    { echo "ncu failed on $name: $(tail -2 "$OUT/ncu_$name.err")"; continue; }
  # "Metric Name","Metric Unit","Metric Value" are the last three columns.
  printf '%s' "$name"
  grep -E '^"[0-9]' "$OUT/ncu_$name.csv" | awk -F'","' '{gsub(/"/, "", $NF); printf " %s=%s%s", $(NF-2), $NF, $(NF-1)}'
  echo
done
