#!/usr/bin/env bash
# Runs ON the GPU machine after scripts/prepare-study.sh (and
# scripts/device-collect.sh) here: checks and times the carry/<mode>-bundles
# that prepare-study.sh wrote against cuBLAS, and profiles the best, a
# middling and the worst WMMA tiling with ncu (--clock-control none). Logs and
# CSVs in $OUT/device-study.tgz. Environment: OUT, CARRY, ITERS,
# CHECK_TIMEOUT, BENCH_TIMEOUT.
set -uo pipefail
# shellcheck source=scripts/device-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/device-env.sh"
GPU="$CARRY/bin/tcgen-gpu"
ITERS="${ITERS:-20}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.draw,temperature.gpu --format=csv,noheader

if [ -d "$CARRY/tiling-bundles" ]; then
  echo "=== tiling study"
  timeout "${BENCH_TIMEOUT:-400}" "$GPU" bench "$CARRY"/tiling-bundles/*/ --iters "$ITERS" --warmup 3 --no-cublaslt \
    --csv "$OUT/tiling.csv" > "$OUT/tiling.log" 2>&1 || echo "tiling bench failed"
  # best, median, worst by tcgen TFLOP/s (column 11)
  picks=$(tail -n +2 "$OUT/tiling.csv" | sort -t, -k11,11 -g -r | awk -F, '
    {n++; name[n]=$3} END {print name[1], name[int((n+1)/2)], name[n]}')
  echo "profiling (best, middle, worst): $picks"
  metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__t_sector_hit_rate.pct,smsp__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
  for entry in $picks; do
    b="$CARRY/tiling-bundles/${entry%_kernel}"
    ncu --clock-control none -k "regex:${entry}" -c 1 --metrics "$metrics" --csv \
      "$GPU" run "$b" > "$OUT/ncu_${entry%_kernel}.csv" 2> "$OUT/ncu_${entry%_kernel}.err" \
      || { echo "ncu failed on $entry:"; tail -3 "$OUT/ncu_${entry%_kernel}.err"; }
  done
  echo "--- tiling (sorted)"
  tail -n +2 "$OUT/tiling.csv" | sort -t, -k11,11 -g -r | awk -F, '{printf "%-34s %8.1f TFLOP/s  ratio %.3f\n", $3, $11, $14}'
fi

if [ -d "$CARRY/sm90-bundles" ]; then
  echo "=== sm90 candidates: correctness of every block tile (1024^3 and 1536^3)"
  for b in "$CARRY"/sm90-bundles/h1024_*/ "$CARRY"/sm90-bundles/h1536_*/; do
    [ -d "$b" ] && timeout "${CHECK_TIMEOUT:-120}" "$GPU" run "$b" --check 2>&1 | tail -1
  done | tee "$OUT/sm90-checks.log"
  echo "=== sm90 sweep"
  timeout "${BENCH_TIMEOUT:-400}" "$GPU" bench "$CARRY"/sm90-bundles/*/ --iters "$ITERS" --warmup 3 --no-cublaslt \
    --csv "$OUT/sm90.csv" > "$OUT/sm90.log" 2>&1 || echo "sm90 bench failed"
  echo "--- all (size out entry tcgen cuBLAS ratio)"
  tail -n +2 "$OUT/sm90.csv" | awk -F, '{print $5, $9, $3, $11, $13, $14}' | sort -n -k1,1 -k2,2
fi

if [ -d "$CARRY/sm90ablation-bundles" ]; then
  echo "=== sm90 ablation"
  for b in "$CARRY"/sm90ablation-bundles/*/; do
    timeout "${CHECK_TIMEOUT:-120}" "$GPU" run "$b" --check 2>&1 | tail -1
  done | tee "$OUT/sm90ablation-checks.log"
  timeout "${BENCH_TIMEOUT:-400}" "$GPU" bench "$CARRY"/sm90ablation-bundles/*/ --iters "$ITERS" --warmup 3 --no-cublaslt \
    --csv "$OUT/sm90ablation.csv" > "$OUT/sm90ablation.log" 2>&1 || echo "sm90 ablation bench failed"
  tail -n +2 "$OUT/sm90ablation.csv" | awk -F, '{print $3, $11, $13, $14}' | sort -V
fi

if [ -d "$CARRY/streamk-bundles" ]; then
  echo "=== stream-K: checks (every bundle, third of three launches: the workspace flags must be left clean)"
  for b in "$CARRY"/streamk-bundles/*/; do
    timeout "${CHECK_TIMEOUT:-120}" "$GPU" run "$b" --check --launches 3 2>&1 | tail -1
  done | tee "$OUT/streamk-checks.log"
  for b in "$CARRY"/streamk-bundles/sk1_*/; do
    sass=$(cuobjdump -sass "$b"*.cubin 2>/dev/null)
    printf 'SASS %s HGMMA=%s UTMALDG=%s LDL=%s STL=%s\n' "$(basename "$b")" \
      "$(grep -c HGMMA <<<"$sass")" "$(grep -c UTMALDG <<<"$sass")" \
      "$(grep -c LDL <<<"$sass")" "$(grep -c STL <<<"$sass")"
  done | tee -a "$OUT/streamk-checks.log" | sort -u -k3 | head -4
  timeout "${BENCH_TIMEOUT:-400}" "$GPU" bench "$CARRY"/streamk-bundles/*/ --iters "$ITERS" --warmup 3 --no-cublaslt \
    --csv "$OUT/streamk.csv" > "$OUT/streamk.log" 2>&1 || echo "stream-K bench failed"
  echo "--- entry tcgen-TFLOP/s cuBLAS-TFLOP/s ratio"
  tail -n +2 "$OUT/streamk.csv" | awk -F, '{print $3, $11, $13, $14}' | sort -t_ -k2,2 -k1,1
fi

if [ -d "$CARRY/sm90sweep-bundles" ]; then
  echo "=== sm90 square sweep (default config): checks"
  for b in "$CARRY"/sm90sweep-bundles/*/; do
    timeout "${CHECK_TIMEOUT:-120}" "$GPU" run "$b" --check 2>&1 | tail -1
  done > "$OUT/sm90sweep-checks.log"
  echo "checks: $(grep -c ' PASS ' "$OUT/sm90sweep-checks.log") pass, $(grep -vc ' PASS ' "$OUT/sm90sweep-checks.log") not"
  grep -v ' PASS ' "$OUT/sm90sweep-checks.log" | head -5
  echo "=== sm90 square sweep (default config)"
  timeout "${BENCH_TIMEOUT:-400}" "$GPU" bench "$CARRY"/sm90sweep-bundles/*/ --iters "$ITERS" --warmup 3 --no-cublaslt \
    --csv "$OUT/sm90sweep.csv" > "$OUT/sm90sweep.log" 2>&1 || echo "sm90 sweep bench failed"
  tail -n +2 "$OUT/sm90sweep.csv" | awk -F, '{print $3, $11, $13, $14}' | sort -V
  tail -n +2 "$OUT/sm90sweep.csv" | awk -F, '$3 ~ /^q/ && $5 >= 1024 {k=$8"->"$9; n[k]++; s[k] += log($14); if (!(k in lo) || $14 < lo[k]) lo[k]=$14}
    END {for (k in n) printf "geomean ratio 1024-16384 %s: %.3f (min %.3f)\n", k, exp(s[k]/n[k]), lo[k]}'
fi

if [ -d "$CARRY/sweep-bundles" ]; then
  echo "=== square sweep"
  timeout "${BENCH_TIMEOUT:-400}" "$GPU" bench "$CARRY"/sweep-bundles/*/ --iters "$ITERS" --warmup 3 --no-cublaslt \
    --csv "$OUT/sweep.csv" > "$OUT/sweep.log" 2>&1 || echo "sweep bench failed"
  echo "--- best config per size (size out entry tcgen cuBLAS ratio)"
  tail -n +2 "$OUT/sweep.csv" | awk -F, '{key=$5"_"$9; if (!(key in best) || $11 > best[key]) {best[key]=$11; line[key]=$5" "$9" "$3" "$11" "$13" "$14}}
    END {for (k in line) print line[k]}' | sort -n -k1,1 -k2,2
fi

# Everything in one archive (the device tool returns at most 8 files).
(cd "$OUT" && tar czf device-study.tgz --exclude='*.tgz' ./*.csv ./*.log 2>/dev/null && rm -f ./*.csv ./*.err)
