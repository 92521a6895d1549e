#!/usr/bin/env bash
# Runs ON the GPU machine: each bundle and cuBLAS inside `tcgen-gpu bench`
# under ncu at the base clock and unlocked (--clock-control base / none;
# caches flushed), 24 launches: kernel durations and the SM clock ncu saw.
# Usage: scripts/device-ncu-clock.sh BUNDLE_DIR...   Raw rows in
# $OUT/ncu-clock.csv (bundle, clock_control, kernel, launch, ns, Hz).
set -uo pipefail
# shellcheck source=scripts/device-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/device-env.sh"
GPU="$CARRY/bin/tcgen-gpu"
echo "bundle,clock_control,kernel,launch,gpu_time_duration_ns,sm_cycles_per_second" \
  > "$OUT/ncu-clock.csv"
for b in "$@"; do
  b="${b%/}"; n=$(basename "$b")
  for clk in base none; do
    raw="$OUT/ncu-clock_${n}_$clk.csv"
    timeout 120 ncu --clock-control "$clk" --cache-control all \
      -k "regex:_kernel$|nvjet|sm90_" -c 24 \
      --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second --csv \
      "$GPU" bench "$b" --iters 10 --warmup 2 --no-cublaslt > "$raw" 2> "${raw%.csv}.err" ||
      { echo "$n $clk failed: $(tail -2 "${raw%.csv}.err")"; continue; }
    # One row per launch: ID, kernel, then the two metrics.
    grep -E '^"[0-9]' "$raw" | awk -F'","' -v n="$n" -v c="$clk" '
      { id=$1; gsub(/"/, "", id); k=$5; sub(/\(.*/, "", k); v=$NF; gsub(/[",]/, "", v)
        if ($(NF-2) ~ /duration/) d[id]=v; else hz[id]=v; kern[id]=k }
      END { for (i in kern) print n "," c "," kern[i] "," i "," d[i] "," hz[i] }' |
      sort -t, -k4,4n >> "$OUT/ncu-clock.csv"
  done
done
# Median duration per bundle, clock and kernel.
tail -n +2 "$OUT/ncu-clock.csv" | sort -t, -k1,1 -k2,2 -k3,3 -k5,5n |
  awk -F, '{key=$1" "$2" "substr($3,1,44)} key!=prev {if (cnt) print prev, v[int((cnt+1)/2)]/1000 " us"; cnt=0; prev=key}
           {v[++cnt]=$5} END {if (cnt) print prev, v[int((cnt+1)/2)]/1000 " us"}'
