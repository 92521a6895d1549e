#!/usr/bin/env bash
# Runs ON the GPU machine: where a kernel's time in the benchmark differs
# from its time alone. For each bundle: `tcgen-gpu bench` as the sweeps run
# it (alternated with cuBLAS, 30 iterations), longer (200 after 50 warm-up
# launches), solo (back to back with itself), with cuBLASLt (cuBLAS after
# the kernel, cuBLASLt after cuBLAS); then ncu's kernel durations inside the
# benchmark, with the caches as the previous kernel left them and flushed.
# Usage: scripts/device-gap.sh BUNDLE_DIR...   (OUT: logs and CSVs; the raw
# rows gathered in $OUT/gap-bench.csv (bundle, variant, then the bench
# CSV's columns) and $OUT/gap-ncu.csv (bundle, cache, kernel, ns))
set -uo pipefail
# shellcheck source=scripts/device-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/device-env.sh"
GPU="$CARRY/bin/tcgen-gpu"
rm -f "$OUT/gap-bench.csv" "$OUT/gap-ncu.csv"
echo "bundle,cache,kernel,ns" > "$OUT/gap-ncu.csv"
echo "bundle variant tcgen_us cublas_us lt_us ratio"
for b in "$@"; do
  b="${b%/}"; name=$(basename "$b")
  run() {
    local variant=$1; shift
    "$GPU" bench "$b" "$@" --csv "$OUT/gap_${name}_$variant.csv" \
      > "$OUT/gap_${name}_$variant.log" 2>&1 || { echo "$name $variant failed"; return; }
    [ -f "$OUT/gap-bench.csv" ] ||
      head -1 "$OUT/gap_${name}_$variant.csv" | sed 's/^/bundle,variant,/' > "$OUT/gap-bench.csv"
    tail -n +2 "$OUT/gap_${name}_$variant.csv" | sed "s/^/$name,$variant,/" >> "$OUT/gap-bench.csv"
    tail -n +2 "$OUT/gap_${name}_$variant.csv" | awk -F, -v n="$name" -v v="$variant" \
      '{printf "%s %s %.2f %.2f %.2f %s\n", n, v, $10*1000, $12*1000, $16*1000, $14}'
  }
  run sweep --iters 30 --warmup 3 --no-cublaslt
  run long --iters 200 --warmup 50 --no-cublaslt
  run solo --iters 200 --warmup 50 --solo
  run lt --iters 200 --warmup 50
  run sweep2 --iters 30 --warmup 3 --no-cublaslt
  for cache in none all; do
    timeout 120 ncu --clock-control none --cache-control "$cache" \
      -k "regex:_kernel$|nvjet|sm90_" -c 24 --metrics gpu__time_duration.sum --csv \
      "$GPU" bench "$b" --iters 10 --warmup 2 --no-cublaslt \
      > "$OUT/gap_${name}_ncu_$cache.csv" 2> "$OUT/gap_${name}_ncu_$cache.err" ||
      { echo "$name ncu $cache failed: $(tail -2 "$OUT/gap_${name}_ncu_$cache.err")"; continue; }
    # Kernel name and duration (ns) per launch; the median per kernel.
    grep -E '^"[0-9]' "$OUT/gap_${name}_ncu_$cache.csv" |
      awk -F'","' -v n="$name" -v c="$cache" '{k=$5; sub(/\(.*/, "", k); v=$NF;
                    gsub(/[",]/, "", v); print n "," c "," k "," v}' >> "$OUT/gap-ncu.csv"
    grep -E '^"[0-9]' "$OUT/gap_${name}_ncu_$cache.csv" |
      awk -F'","' '{k=$5; sub(/\(.*/, "", k); v=$NF; gsub(/[",]/, "", v);
                    print substr(k, 1, 48), v}' | sort -k1,1 -k2,2g |
      awk -v n="$name" -v c="$cache" '
        function flush() { if (cnt) printf "%s ncu-cache-%s %s median %.2f us of %d\n",
                           n, c, key, vals[int((cnt + 1) / 2)] / 1000, cnt }
        $1 != key { flush(); key = $1; cnt = 0 }
        { vals[++cnt] = $2 }
        END { flush() }'
  done
done
