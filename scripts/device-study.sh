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

# check_bundles LOG [RUN_OPTION...] -- BUNDLE...: `tcgen-gpu run --check` on
# each bundle, one line each into $OUT/LOG; prints a count and the failures.
check_bundles() {
  local log="$OUT/$1" opts=() b
  shift
  while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  for b in "$@"; do
    [ -d "$b" ] && timeout "${CHECK_TIMEOUT:-120}" "$GPU" run "$b" --check "${opts[@]}" 2>&1 | tail -1
  done > "$log"
  echo "checks: $(grep -c ' PASS ' "$log") pass, $(grep -vc ' PASS ' "$log") not"
  grep -v ' PASS ' "$log" | head -5
}

# bench_bundles NAME BUNDLE...: times the bundles against cuBLAS into
# $OUT/NAME.csv (log: $OUT/NAME.log).
bench_bundles() {
  local name=$1
  shift
  timeout "${BENCH_TIMEOUT:-400}" "$GPU" bench "$@" --iters "$ITERS" --warmup 3 --no-cublaslt \
    --csv "$OUT/$name.csv" > "$OUT/$name.log" 2>&1 || echo "$name bench failed"
}

# check_and_bench MODE LABEL BENCH_PREFIX: where carry/MODE-bundles exists (else
# nothing), checks carry/MODE-bundles/chk_*
# (two launches each), times carry/MODE-bundles/BENCH_PREFIX* and prints
# "name TFLOP/s cuBLAS-TFLOP/s ratio" sorted.
check_and_bench() {
  local mode=$1 label=$2 prefix=$3 dir="$CARRY/$1-bundles"
  [ -d "$dir" ] || return 0
  echo "=== $label: checks"
  check_bundles "$mode-checks.log" --launches 2 -- "$dir"/chk_*/
  echo "=== $label (name TFLOP/s cuBLAS-TFLOP/s ratio)"
  bench_bundles "$mode" "$dir"/"$prefix"*/
  tail -n +2 "$OUT/$mode.csv" | awk -F, '{print $3, $11, $13, $14}' | sort -V
}

if [ -d "$CARRY/tiling-bundles" ]; then
  echo "=== tiling study"
  bench_bundles tiling "$CARRY"/tiling-bundles/*/
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
  echo "=== sm90 candidates: correctness of every block tile (1024^3, 1536^3, 3072x1024x1024)"
  check_bundles sm90-checks.log -- "$CARRY"/sm90-bundles/h1024_*/ "$CARRY"/sm90-bundles/h1536_*/ \
    "$CARRY"/sm90-bundles/h3072x1024x1024_*/
  echo "=== sm90 sweep"
  bench_bundles sm90 "$CARRY"/sm90-bundles/*/
  echo "--- all (entry tcgen cuBLAS ratio)"
  tail -n +2 "$OUT/sm90.csv" | awk -F, '{print $3, $11, $13, $14}' | sort -V
  echo "--- best tile per shape and output (entry ratio)"
  tail -n +2 "$OUT/sm90.csv" | awk -F, '{key=$3; sub(/_[0-9]+x[0-9]+_kernel$/, "", key);
      if (!(key in best) || $14 > best[key]) {best[key]=$14; line[key]=$3" "$14}}
    END {for (k in line) print line[k]}' | sort -V
fi

check_and_bench edges "edge tiles" t

if [ -d "$CARRY/store-bundles" ]; then
  echo "=== TMA-store epilogue: checks"
  check_bundles store-checks.log --launches 2 -- "$CARRY"/store-bundles/*/
  echo "=== TMA-store epilogue: timing"
  bench_bundles store "$CARRY"/store-bundles/t*/
  tail -n +2 "$OUT/store.csv" | awk -F, '{print $3, $11, $13, $14}' | sort -V
fi

if [ -d "$CARRY/sm90tune-bundles" ]; then
  echo "=== sm90 tuning candidates: checks"
  check_bundles sm90tune-checks.log --launches 2 -- "$CARRY"/sm90tune-bundles/*/
  echo "=== sm90 tuning candidates: timing"
  bench_bundles sm90tune "$CARRY"/sm90tune-bundles/*/
  tail -n +2 "$OUT/sm90tune.csv" | awk -F, '{print $3, $11, $13, $14}' | sort -V
fi

if [ -d "$CARRY/sm90ablation-bundles" ]; then
  echo "=== sm90 ablation"
  check_bundles sm90ablation-checks.log -- "$CARRY"/sm90ablation-bundles/*/
  bench_bundles sm90ablation "$CARRY"/sm90ablation-bundles/*/
  tail -n +2 "$OUT/sm90ablation.csv" | awk -F, '{print $3, $11, $13, $14}' | sort -V
fi

if [ -d "$CARRY/streamk-bundles" ]; then
  echo "=== stream-K: checks (every bundle, third of three launches: the workspace flags must be left clean)"
  check_bundles streamk-checks.log --launches 3 -- "$CARRY"/streamk-bundles/*/
  for b in "$CARRY"/streamk-bundles/sk1_*/; do
    echo "SASS $(basename "$b") $(sass_counts "$b"*.cubin)"
  done | tee -a "$OUT/streamk-checks.log" | sort -u -k3 | head -4
  bench_bundles streamk "$CARRY"/streamk-bundles/*/
  echo "--- entry tcgen-TFLOP/s cuBLAS-TFLOP/s ratio"
  tail -n +2 "$OUT/streamk.csv" | awk -F, '{print $3, $11, $13, $14}' | sort -t_ -k2,2 -k1,1
fi

if [ -d "$CARRY/cluster-bundles" ]; then
  echo "=== clusters: checks (every bundle, second of two launches)"
  check_bundles cluster-checks.log --launches 2 -- "$CARRY"/cluster-bundles/*/
  for b in "$CARRY"/cluster-bundles/cs*/; do
    echo "SASS $(basename "$b") $(sass_counts "$b"*.cubin)"
  done | tee -a "$OUT/cluster-checks.log" | sort -u -k3 | head -4
  bench_bundles cluster "$CARRY"/cluster-bundles/cs*/
  echo "--- entry tcgen-TFLOP/s cuBLAS-TFLOP/s ratio"
  tail -n +2 "$OUT/cluster.csv" | awk -F, '{print $3, $11, $13, $14}' | sort -V
fi

if [ -d "$CARRY/fusion-bundles" ]; then
  echo "=== fused epilogues: checks against the float64 reference"
  check_bundles fusion-checks.log -- "$CARRY"/fusion-bundles/*/
  echo "=== fused epilogues against their unfused baselines (checked first)"
  for pair in relu_bias:cublaslt-relu-bias gelu_bias:cublaslt-gelu-bias \
              add_relu:cublas+add-relu add_scalar:cublas+add-scalar \
              bias_gelu_residual:cublas+bias-gelu-residual relu_a:relu-a+cublas \
              relu_c:relu-c+cublas add_relu_frag:cublas+add-relu \
              bias_gelu_residual_frag:cublas+bias-gelu-residual \
              add_relu_half:cublas+add-relu relu_bias_half:cublaslt-relu-bias \
              add_scalar_half:cublas+add-scalar; do
    pat=${pair%%:*}; base=${pair#*:}
    ls -d "$CARRY"/fusion-bundles/f*_"$pat"/ > /dev/null 2>&1 || continue
    "$GPU" bench "$CARRY"/fusion-bundles/f*_"$pat"/ --baseline="$base" \
      --check-baseline >> "$OUT/fusion.log" 2>&1 || echo "fusion baseline check $base failed"
    timeout "${BENCH_TIMEOUT:-400}" "$GPU" bench "$CARRY"/fusion-bundles/f*_"$pat"/ \
      --iters "$ITERS" --warmup 3 --baseline="$base" \
      --csv "$OUT/fusion.csv" >> "$OUT/fusion.log" 2>&1 || echo "fusion bench $base failed"
  done
  grep BASELINE-CHECK "$OUT/fusion.log" | grep -v PASS | head -5
  bench_bundles fusion-plain "$CARRY"/fusion-bundles/f*_plain/
  echo "--- entry tcgen-ms baseline baseline-ms baseline/tcgen cuBLAS-matmul-ms"
  tail -n +2 "$OUT/fusion.csv" | awk -F, '{print $3, $10, $19, $20, $22, $12}' | sort -V
  tail -n +2 "$OUT/fusion-plain.csv" | awk -F, '{print $3, $10, $12, $14}' | sort -V
fi

if [ -d "$CARRY/prologue-bundles" ]; then
  echo "=== fused prologues: checks against the float64 reference"
  check_bundles prologue-checks.log -- "$CARRY"/prologue-bundles/*/
  echo "=== ReLU on A against relu-a+cublas (checked first)"
  "$GPU" bench "$CARRY"/prologue-bundles/f*_relu_a*/ --baseline=relu-a+cublas --check-baseline \
    > "$OUT/prologue.log" 2>&1 || echo "prologue baseline check failed"
  timeout "${BENCH_TIMEOUT:-400}" "$GPU" bench "$CARRY"/prologue-bundles/f*_relu_a*/ --iters "$ITERS" \
    --warmup 3 --baseline=relu-a+cublas --csv "$OUT/prologue.csv" >> "$OUT/prologue.log" 2>&1 \
    || echo "prologue bench failed"
  grep BASELINE-CHECK "$OUT/prologue.log" | grep -v PASS | head -5
  echo "--- entry tcgen-ms baseline-ms baseline/tcgen"
  tail -n +2 "$OUT/prologue.csv" | awk -F, '{print $3, $10, $20, $22}' | sort -V
  # the prologues on B (PROLOGUE_B=1 builds them) and the plain kernels
  bench_bundles prologue-b $(ls -d "$CARRY"/prologue-bundles/f*_relu_b*/ 2>/dev/null) \
    "$CARRY"/prologue-bundles/f*_plain/
  echo "--- ReLU on B (and the plain kernel): entry tcgen-ms cuBLAS-ms (plain matmul)"
  tail -n +2 "$OUT/prologue-b.csv" | awk -F, '{print $3, $10, $12}' | sort -V
fi

if [ -d "$CARRY/epilogueops-bundles" ]; then
  echo "=== every fused epilogue op: checks against the float64 reference"
  check_bundles epilogueops-checks.log -- "$CARRY"/epilogueops-bundles/*/
fi

if [ -d "$CARRY/dynamic-bundles" ]; then
  D="$CARRY/dynamic-bundles"
  echo "=== dynamic: SASS of the dynamic kernel: $(sass_counts "$D"/dyn/*.cubin)"
  echo "=== dynamic: one loaded handle per bundle checked at several sizes"
  TCGEN_GPU_BUNDLES="$D/gpu" timeout 600 "$CARRY/bin/tcgen-gpu-tests" \
    --gtest_filter='GpuBundles.*' > "$OUT/dynamic-gpu-tests.log" 2>&1
  grep -E '^\[  (PASSED|FAILED) |^CHECK .* FAIL' "$OUT/dynamic-gpu-tests.log" | head -20
  grep -c '^CHECK .* PASS' "$OUT/dynamic-gpu-tests.log" | sed 's/^/checks passed: /'
  echo "=== dynamic against static, same config (run, size, name, TFLOP/s, cuBLAS, ratio)"
  for run in 1 2; do
    for s in "$D"/static_*/; do
      shape=${s%/}; shape=${shape##*static_}
      IFS=x read -r m n k <<<"$shape"
      timeout 300 "$GPU" bench "$s" "$D/dyn" --sizes "$m,$n,$k" --iters "$ITERS" \
        --warmup 3 --no-cublaslt --csv "$OUT/dynamic-$shape-run$run.csv" \
        > "$OUT/dynamic-$shape-run$run.log" 2>&1 || echo "bench $shape failed"
      tail -n +2 "$OUT/dynamic-$shape-run$run.csv" |
        awk -F, -v r="$run" -v s="$shape" '{print r, s, $3, $11, $13, $14}'
    done
  done
fi

if [ -d "$CARRY/dynepilogue-bundles" ]; then
  D="$CARRY/dynepilogue-bundles"
  echo "=== dynamic with fused epilogues: one handle per bundle, several sizes"
  TCGEN_GPU_BUNDLES="$D/gpu" timeout 300 "$CARRY/bin/tcgen-gpu-tests" \
    --gtest_filter='GpuBundles.*' > "$OUT/dynepilogue-gpu-tests.log" 2>&1
  grep -E '^\[  (PASSED|FAILED) |^CHECK .* FAIL' "$OUT/dynepilogue-gpu-tests.log" | head -10
  grep -c '^CHECK .* PASS' "$OUT/dynepilogue-gpu-tests.log" | sed 's/^/checks passed: /'
  echo "=== dynamic bias + ReLU against static (run, size, name, TFLOP/s, cuBLASLt RELU_BIAS TFLOP/s, ratio)"
  for run in 1 2; do
    for s in 2048 4096 8192; do
      timeout 300 "$GPU" bench "$D/static_$s" "$D/dyn_bias_relu" --sizes "$s,$s,$s" \
        --iters "$ITERS" --warmup 3 --baseline=cublaslt-relu-bias \
        --csv "$OUT/dynepilogue-$s-run$run.csv" > "$OUT/dynepilogue-$s-run$run.log" 2>&1 ||
        echo "bench $s failed"
      tail -n +2 "$OUT/dynepilogue-$s-run$run.csv" |
        awk -F, -v r="$run" -v s="$s" '{print r, s, $3, $11, $21, $22}'
    done
  done
fi

if [ -d "$CARRY/fp8tiles-bundles" ]; then
  echo "=== fp8 tiles (name TFLOP/s cuBLASLt-TFLOP/s ratio)"
  bench_bundles fp8tiles "$CARRY"/fp8tiles-bundles/*/
  tail -n +2 "$OUT/fp8tiles.csv" | awk -F, '{print $3, $11, $13, $14}' | sort -V
fi

if [ -d "$CARRY/einsum-bundles" ]; then
  check_and_bench einsum "einsum (collapsed dimensions)" t_
fi

if [ -d "$CARRY/fp8-bundles" ]; then
  D="$CARRY/fp8-bundles"
  echo "=== fp8: SASS $(sass_counts "$D"/t4096_f32/*.cubin)"
  echo "=== fp8: checks against the float64 reference"
  check_bundles fp8-checks.log --launches 2 -- "$D"/chk_*/
  echo "=== fp8: dynamic bundles (one handle, several sizes)"
  TCGEN_GPU_BUNDLES="$D/gpu" timeout 300 "$CARRY/bin/tcgen-gpu-tests" \
    --gtest_filter='GpuBundles.*' > "$OUT/fp8-gpu-tests.log" 2>&1
  grep -E '^\[  (PASSED|FAILED) |^CHECK .* FAIL' "$OUT/fp8-gpu-tests.log" | head -10
  echo "=== fp8 against cuBLASLt (name TFLOP/s cuBLASLt-TFLOP/s ratio)"
  for run in 1 2; do
    bench_bundles "fp8-run$run" "$D"/t*/
    tail -n +2 "$OUT/fp8-run$run.csv" | awk -F, -v r="$run" '{print r, $3, $11, $13, $14}' | sort -V
  done
fi

if [ -d "$CARRY/tf32-bundles" ]; then
  echo "=== tf32: checks against the float64 reference"
  check_bundles tf32-checks.log -- "$CARRY"/tf32-bundles/*/
  bench_bundles tf32 "$CARRY"/tf32-bundles/t*/ "$CARRY"/tf32-bundles/nn*/
  echo "--- entry tcgen-TFLOP/s cuBLAS-TFLOP/s (CUBLAS_COMPUTE_32F_FAST_TF32) ratio"
  tail -n +2 "$OUT/tf32.csv" | awk -F, '{print $3, $11, $13, $14}' | sort -V
fi

if [ -d "$CARRY/dual-bundles" ]; then
  echo "=== add(gemm, gemm): checks against the float64 reference"
  check_bundles dual-checks.log -- "$CARRY"/dual-bundles/*/
  echo "=== add(gemm, gemm) against 2 x cuBLAS + add (checked first)"
  "$GPU" bench "$CARRY"/dual-bundles/d*/ --baseline=2cublas+add --check-baseline \
    > "$OUT/dual.log" 2>&1 || echo "dual baseline check failed"
  timeout "${BENCH_TIMEOUT:-400}" "$GPU" bench "$CARRY"/dual-bundles/d*/ --iters "$ITERS" \
    --warmup 3 --baseline=2cublas+add --csv "$OUT/dual.csv" >> "$OUT/dual.log" 2>&1 \
    || echo "dual bench failed"
  grep BASELINE-CHECK "$OUT/dual.log" | grep -v PASS | head -5
  echo "--- entry tcgen-ms tcgen-TFLOP/s baseline-ms baseline/tcgen baseline-pointwise-ms"
  tail -n +2 "$OUT/dual.csv" | awk -F, '{print $3, $10, $11, $20, $22, $23}' | sort -V
  bench_bundles dual-plain "$CARRY"/dual-bundles/p*/
  echo "--- one matmul over K = 2 size: entry tcgen-ms tcgen-TFLOP/s cuBLAS-ms ratio"
  tail -n +2 "$OUT/dual-plain.csv" | awk -F, '{print $3, $10, $11, $12, $14}' | sort -V
fi

if [ -d "$CARRY/sm90sweep-bundles" ]; then
  echo "=== sm90 square sweep (default config): checks"
  check_bundles sm90sweep-checks.log -- "$CARRY"/sm90sweep-bundles/*/
  echo "=== sm90 square sweep (default config)"
  bench_bundles sm90sweep "$CARRY"/sm90sweep-bundles/*/
  tail -n +2 "$OUT/sm90sweep.csv" | awk -F, '{print $3, $11, $13, $14}' | sort -V
  tail -n +2 "$OUT/sm90sweep.csv" | awk -F, '$3 ~ /^q/ && $5 >= 1024 {k=$8"->"$9; n[k]++; s[k] += log($14); if (!(k in lo) || $14 < lo[k]) lo[k]=$14}
    END {for (k in n) printf "geomean ratio 1024-16384 %s: %.3f (min %.3f)\n", k, exp(s[k]/n[k]), lo[k]}'
fi

if [ -d "$CARRY/sweep-bundles" ]; then
  echo "=== square sweep"
  bench_bundles sweep "$CARRY"/sweep-bundles/*/
  echo "--- best config per size (size out entry tcgen cuBLAS ratio)"
  tail -n +2 "$OUT/sweep.csv" | awk -F, '{key=$5"_"$9; if (!(key in best) || $11 > best[key]) {best[key]=$11; line[key]=$5" "$9" "$3" "$11" "$13" "$14}}
    END {for (k in line) print line[k]}' | sort -n -k1,1 -k2,2
fi

if [ -d "$CARRY/wmma-bundles" ]; then
  echo "=== WMMA copy order: checks"
  check_bundles wmma-checks.log -- "$CARRY"/wmma-bundles/w1024_*/ "$CARRY"/wmma-bundles/w8192_128x128x32_w64x64_*/ \
    "$CARRY"/wmma-bundles/d1024_*/ "$CARRY"/wmma-bundles/d4096_*/
  echo "=== WMMA copy order, stages, ablation, defaults (name TFLOP/s cuBLAS-TFLOP/s ratio)"
  bench_bundles wmma "$CARRY"/wmma-bundles/w8192_*/ "$CARRY"/wmma-bundles/abl*/ "$CARRY"/wmma-bundles/d*/
  tail -n +2 "$OUT/wmma.csv" | awk -F, '{print $3, $11, $13, $14}' | sort -V
  metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,launch__registers_per_thread,gpu__time_duration.sum
  for v in s1rows s1 s2 d8192_f32 d8192_f32_r1; do
    b="$CARRY/wmma-bundles/w8192_128x128x32_w64x64_$v"
    [ -d "$b" ] || b="$CARRY/wmma-bundles/$v"
    [ -d "$b" ] && ncu --clock-control none -c 1 --metrics "$metrics" --csv "$GPU" run "$b" \
      > "$OUT/ncu_wmma_$v.csv" 2> "$OUT/ncu_wmma_$v.err"
    grep -E "bank_conflicts|hmma|gpu__time|stalled_barrier|registers" "$OUT/ncu_wmma_$v.csv" | awk -F'","' -v v=$v '{print v, $(NF-2), $NF}'
  done
fi

if [ -d "$CARRY/layouts-bundles" ]; then
  echo "=== layouts: checks"
  check_bundles layouts-checks.log -- "$CARRY"/layouts-bundles/chk_*/ "$CARRY"/layouts-bundles/l4096_*/
  echo "=== layouts (name TFLOP/s cuBLAS-TFLOP/s ratio)"
  bench_bundles layouts "$CARRY"/layouts-bundles/l*/
  tail -n +2 "$OUT/layouts.csv" | awk -F, '{print $3, $11, $13, $14}' | sort -V
fi

check_and_bench batched "batched against cublasGemmStridedBatchedEx" b

check_and_bench smallm "small M" m

check_and_bench colmajor "column-major C" t

check_and_bench staged "staged stores" t

check_and_bench odd "odd and unaligned sizes" t

check_and_bench squares "square sweep, default configuration" t

check_and_bench accumulate "C += A*B" t

# Random sm90 draws (prepare-study.sh random; several seeds may sit in
# carry/random-bundles, carry/random-<seed>-bundles ...).
for d in "$CARRY"/random-bundles "$CARRY"/random-*-bundles; do
  [ -d "$d" ] || continue
  n=$(basename "$d" -bundles)
  echo "=== $n: checks"
  check_bundles "$n-checks.log" --launches 2 -- "$d"/*/
done

if [ -d "$CARRY/sm80random-bundles" ]; then
  echo "=== random sm80 configurations: checks"
  check_bundles sm80random-checks.log --launches 2 -- "$CARRY"/sm80random-bundles/*/
fi

if [ -d "$CARRY/sm80fusion-bundles" ]; then
  D="$CARRY/sm80fusion-bundles"
  echo "=== sm80 fused epilogues: checks against the float64 reference"
  check_bundles sm80fusion-checks.log --launches 2 -- "$D"/*/
  echo "=== sm80 fused epilogues against their unfused baselines (checked first)"
  for pair in relu_bias:cublaslt-relu-bias gelu_bias:cublaslt-gelu-bias \
              add_relu:cublas+add-relu add_scalar:cublas+add-scalar \
              bias_gelu_residual:cublas+bias-gelu-residual relu_a:relu-a+cublas; do
    pat=${pair%%:*}; base=${pair#*:}
    ls -d "$D"/f*_"$pat"/ > /dev/null 2>&1 || continue
    "$GPU" bench "$D"/f*_"$pat"/ --baseline="$base" --check-baseline >> "$OUT/sm80fusion.log" 2>&1 \
      || echo "sm80 fusion baseline check $base failed"
    timeout "${BENCH_TIMEOUT:-400}" "$GPU" bench "$D"/f*_"$pat"/ --iters "$ITERS" --warmup 3 \
      --baseline="$base" --csv "$OUT/sm80fusion.csv" >> "$OUT/sm80fusion.log" 2>&1 \
      || echo "sm80 fusion bench $base failed"
  done
  grep BASELINE-CHECK "$OUT/sm80fusion.log" | grep -v PASS | head -5
  bench_bundles sm80fusion-plain "$D"/f*_plain/
  echo "--- entry tcgen-ms baseline baseline-ms baseline/tcgen cuBLAS-matmul-ms"
  tail -n +2 "$OUT/sm80fusion.csv" | awk -F, '{print $3, $10, $19, $20, $22, $12}' | sort -V
  tail -n +2 "$OUT/sm80fusion-plain.csv" | awk -F, '{print $3, $10, $12, $14}' | sort -V
fi

check_and_bench sm80bf16 "sm80 bf16" ""

check_and_bench sm80layouts "sm80 A [k][m] and B [n][k]" ""

check_and_bench sm80epilogue "sm80 staged epilogue and few-tile defaults" ""

check_and_bench sm80splitk "sm80 intra-block split-K and repeats" ""

check_and_bench sm80sweep "sm80 square sweep, f16 C and tilings" ""

if [ -d "$CARRY/sm80-bundles" ]; then
  D="$CARRY/sm80-bundles"
  echo "=== sm80: SASS of the 4096^3 kernel"
  sass=$(cuobjdump -sass "$D"/t04096_sm80/*.cubin)
  for i in HMMA.16816 LDSM LDGSTS LDL STL BAR.SYNC; do printf '%s=%s ' "$i" "$(grep -c "$i" <<<"$sass")"; done; echo
  check_and_bench sm80 "sm80 back end" t
  echo "=== sm80 stages and layouts (name TFLOP/s cuBLAS-TFLOP/s ratio)"
  bench_bundles sm80-stages "$D"/st*/
  tail -n +2 "$OUT/sm80-stages.csv" | awk -F, '{print $3, $11, $13, $14}' | sort -V
  echo "=== sm80 ncu: bank conflicts, swizzled (s4) against padded"
  metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,gpu__time_duration.sum
  for b in st4096_s4 st4096_pad8 t04096_wmma; do
    timeout 120 ncu --clock-control none -c 1 --metrics "$metrics" --csv \
      "$GPU" run "$D/$b" > "$OUT/ncu_sm80_$b.csv" 2> "$OUT/ncu_sm80_$b.err" || { echo "ncu failed on $b"; tail -3 "$OUT/ncu_sm80_$b.err"; continue; }
    echo "--- $b"; grep -v '^==' "$OUT/ncu_sm80_$b.csv" | awk -F'","' 'NR>1 {print $(NF-2), $NF}' | tr -d '"'
  done
fi

if [ -d "$CARRY/tune-dirs" ]; then
  # The model's first choice (c00, the new default) of every shape is
  # checked; then every candidate is timed with tcgen-gpu tune. Here:
  # scripts/import-tune.sh puts the CSVs back and runs tcgen tune --import.
  echo "=== tune: checks of the model's first choices"
  check_bundles tune-checks.log --launches 2 -- "$CARRY"/tune-dirs/*/c00/
  echo "=== tune: every candidate, round-robin per shape"
  mkdir -p "$OUT/tune"
  for d in "$CARRY"/tune-dirs/*/; do
    n=$(basename "$d")
    timeout 180 "$GPU" tune "$d" --budget "${TUNE_BUDGET:-2}" --csv "$OUT/tune/$n.csv" \
      > "$OUT/tune/$n.log" 2>&1 || echo "$n: tune failed: $(tail -1 "$OUT/tune/$n.log")"
  done
  (cd "$OUT" && tar czf tune.tgz tune && rm -rf tune)
fi

if [ -d "$CARRY/narrow-bundles" ]; then
  D="$CARRY/narrow-bundles"
  check_and_bench narrow "block tiles with N a multiple of 16" t
  echo "=== narrow: the dynamic bundle at five sizes"
  TCGEN_GPU_BUNDLES="$D/gpu" timeout 300 "$CARRY/bin/tcgen-gpu-tests" --gtest_filter='GpuBundles.*' \
    > "$OUT/narrow-dynamic.log" 2>&1; grep -E "^CHECK|PASSED|FAILED" "$OUT/narrow-dynamic.log" | head -12
  SASS_OUT="$OUT/narrow-sass.log"
  for b in "$D"/chk_1536_144 "$D"/chk_fp8_144 "$D"/chk_nt_144_c21; do
    [ -d "$b" ] && echo "$(basename "$b"): $(sass_counts "$b"/*.cubin)"
  done | tee "$SASS_OUT"
  echo "=== narrow: kernels under ncu, cuBLAS's and ours (name, grid, block, cluster, us)"
  for b in t1024_f32_default t1536_f32_default t1536_f32_128x144 t1536_f16_default; do
    [ -d "$D/$b" ] || continue
    timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__cluster_dim_x,launch__cluster_dim_y,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum.per_second --csv \
      "$CARRY/bin/tcgen-gpu" bench "$D/$b" --iters 1 --warmup 0 --no-cublaslt > "$OUT/ncu_narrow_$b.csv" 2> "$OUT/ncu_narrow_$b.err" \
      || { echo "ncu failed on $b"; tail -2 "$OUT/ncu_narrow_$b.err"; continue; }
    echo "--- $b"
    grep -E '^"[0-9]' "$OUT/ncu_narrow_$b.csv" | awk -F'","' '{gsub(/"/, "", $NF); k=$5; if (length(k) > 90) k=substr(k,1,90); printf "%s | %s=%s\n", k, $(NF-2), $NF}' | sort -u
  done
fi

if [ -d "$CARRY/smallcluster-bundles" ]; then
  D="$CARRY/smallcluster-bundles"
  check_and_bench smallcluster "few tiles with and without clusters" t
  echo "=== smallcluster: ncu sections per kernel (raw in ncu_sc_*.txt)"
  for b in "$D"/t*/; do
    n=$(basename "$b")
    timeout 120 ncu --clock-control none -k "regex:${n}_kernel" -c 1 \
      --section SpeedOfLight --section LaunchStats --section WarpStateStats --section SchedulerStats \
      "$GPU" run "$b" > "$OUT/ncu_sc_$n.txt" 2>&1 || { echo "ncu failed on $n"; continue; }
    printf '%-22s' "$n"
    grep -E "^ +(Duration|SM Active Cycles|Elapsed Cycles|Warp Cycles Per Issued Instruction|Issued Warp Per Scheduler|No Eligible|Cluster Size) " "$OUT/ncu_sc_$n.txt" \
      | awk '{v=$NF; $NF=""; $(NF)=""; printf " | %s%s", $0, v}'
    echo
  done
  (cd "$OUT" && tar czf ncu-smallcluster.tgz ncu_sc_*.txt && rm -f ncu_sc_*.txt)
fi

check_and_bench packone "packing one operand, both or neither" t

check_and_bench batchmiddle "batches between the matrix dimensions" t

if [ -d "$CARRY/pointwise-bundles" ]; then
  echo "=== pointwise kernels of consumers that are not fused: checks"
  check_bundles pointwise-checks.log -- "$CARRY"/pointwise-bundles/chk_*/
  echo "=== pointwise kernels: timings (entry ms note)"
  bench_bundles pointwise "$CARRY"/pointwise-bundles/t_*pointwise*/
  grep -o "t_[^ ]*pointwise0_kernel\?[^,]*\|pointwise: [0-9]* bytes, [0-9]* GB/s" "$OUT/pointwise.log" | head -20
  tail -n +2 "$OUT/pointwise.csv" | awk -F, '{print $3, $10}' 
fi

check_and_bench batchepilogue "fused epilogues on a batch" t

check_and_bench bshd "two batch dimensions ([b, s, h, d] layouts) next to [b, h, s, d]" t

check_and_bench bthree "three batch dimensions that do not collapse" t
check_and_bench broadcast "batch dimensions that one input lacks" t
check_and_bench misrows "rows that straddle 128-byte lines: defaults and tiles" t
check_and_bench wavetiles "tiles that fill whole waves at 1536^3 and 5120^3" t
check_and_bench skorder "stream-K walk order (sk1 new, o_ old, sk0 data-parallel)" t_
check_and_bench swapmodel "swapped defaults the model predicts (def against --swap=0)" t_
check_and_bench twok "2048^3 variants" t_
check_and_bench squares16 "square sweep, f16 and bf16 C" t_
check_and_bench bigsquares "raster and clusters at 6144-8192" t_
check_and_bench swapstore "transposed TMA stores of swapped kernels" t_
check_and_bench st1536 "1536^3: stages and stores" t_
check_and_bench kline "1536 x 1536 x K with fixed tiles" t_
check_and_bench kring "ring depth, stores and clusters at 1536 x 1536 x K" t_
check_and_bench rowblocks "consumer warpgroups of several row blocks" t_
check_and_bench rastdef "the model's raster groups: new defaults against old (o_)" t_
check_and_bench raster "raster groups of 4-32 tile rows" t_
check_and_bench desc "descriptor low words: new defaults against old (o_)" t_
check_and_bench swapdef "swapped one-warpgroup defaults against the old (o_)" t_
check_and_bench rb1024 "row blocks at 1024^3 and 2048^3" t_
check_and_bench rbsquares "128x128 r2 against the default at the squares" t_
check_and_bench rbbert "192-row tiles of one warpgroup at the BERT shapes" t_
check_and_bench talldef1wg "one-wave 192-row defaults of one warpgroup against the old (o_)" t_
check_and_bench clsquares "clusters over the squares" t_
check_and_bench misrowsclusters "narrow tiles in clusters where rows straddle lines" t_
check_and_bench smallclusters "clustered tiles at the small squares" t_
check_and_bench bertclusters "clustered tiles at the BERT shapes" t_
check_and_bench llm "transformer shapes (def; dp where the default splits K)" t_
check_and_bench skspread "stream-K spread rule: new defaults against old (o_)" t_
check_and_bench llmsweep "transformer projections (defaults)" t_
check_and_bench mapa "cluster releases: mapped per k-tile (v2) or once (new)" t_
if [ -d "$CARRY/clusterchecks-bundles" ]; then
  echo "=== clusters with every feature: checks"
  check_bundles clusterchecks-checks.log --launches 2 -- "$CARRY"/clusterchecks-bundles/chk_*/
fi

check_and_bench simt "f32 on CUDA cores against cuBLAS SGEMM" t

check_and_bench asynccopy "cp.async loads against packs and unaligned TMA" t

check_and_bench swap "swap (C^T = B^T A^T) for small M" t

check_and_bench oddtiles "tilings at 1000^3, 1024^3 and 1536^3" t

check_and_bench tall "block tiles of 192 rows" t

check_and_bench talldefaults "the model's 192-row choices against the earlier ones" t

check_and_bench fp8tall "e4m3 with 192-row tiles" t

check_and_bench batchtiles "128 x 384 x 384 x 64 with tiles that divide 384" t

check_and_bench swapsquares "swapped kernels at the small squares" t

if [ -d "$CARRY/contraction3d-bundles" ]; then
  D="$CARRY/contraction3d-bundles"
  echo "=== contraction3d: checks (two launches each)"
  check_bundles contraction3d-checks.log --launches 2 -- "$D"/chk_*/
  echo "=== contraction3d against permute+cublas (checked first)"
  "$GPU" bench "$D"/t*/ --baseline=permute+cublas --check-baseline \
    > "$OUT/contraction3d.log" 2>&1 || echo "contraction3d baseline check failed"
  grep BASELINE-CHECK "$OUT/contraction3d.log" | grep -v PASS | head -5
  timeout "${BENCH_TIMEOUT:-400}" "$GPU" bench "$D"/t*/ --iters "$ITERS" --warmup 3 \
    --baseline=permute+cublas --csv "$OUT/contraction3d.csv" >> "$OUT/contraction3d.log" 2>&1 \
    || echo "contraction3d bench failed"
  echo "--- entry tcgen-ms tcgen-TFLOP/s cuBLAS-flat-ms baseline-ms baseline/tcgen baseline-copy-ms"
  tail -n +2 "$OUT/contraction3d.csv" | awk -F, '{print $3, $10, $11, $12, $20, $22, $23}' | sort -V
fi

# Everything in one archive (the device tool returns at most 8 files).
# (a checks-only study writes logs and no CSV: archive what there is)
(cd "$OUT" && shopt -s nullglob && files=(./*.csv ./*.log) &&
  tar czf device-study.tgz --exclude='*.tgz' "${files[@]}" && rm -f ./*.csv ./*.err)
