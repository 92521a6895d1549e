#!/usr/bin/env bash
# Runs ON the GPU machine: times the benchmark bundles with two builds of
# tcgen-gpu (carry/bin/tcgen-gpu-prev and carry/bin/tcgen-gpu), alternating
# whole runs (prev, new, prev, new), each against cuBLAS in its own process;
# then the GPU tests. Shows what a change to the runtime's launch path does
# to the measured time of small kernels. Logs and CSVs in $OUT.
set -uo pipefail
# shellcheck source=scripts/device-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/device-env.sh"
ITERS="${ITERS:-50}"
for run in 1 2; do
  for bin in tcgen-gpu-prev tcgen-gpu; do
    timeout 300 "$CARRY/bin/$bin" bench "$CARRY"/bench-bundles/*/ --iters "$ITERS" --warmup 5 \
      --no-cublaslt --csv "$OUT/launch-$bin-$run.csv" > "$OUT/launch-$bin-$run.log" 2>&1 \
      || echo "$bin run $run failed"
    echo "--- $bin run $run (entry tcgen-TFLOP/s cuBLAS-TFLOP/s ratio)"
    tail -n +2 "$OUT/launch-$bin-$run.csv" | awk -F, '{printf "%s %.1f %.1f %.3f\n", $3, $11, $13, $14}'
  done
done
TCGEN_REF_BUNDLES="$CARRY/ref-bundles" TCGEN_REF_FAIL_BUNDLES="$CARRY/ref-bundles-expect-fail" \
  timeout 300 "$CARRY/bin/tcgen-gpu-tests" > "$OUT/launch-gpu-tests.log" 2>&1
grep -E "RepeatedLaunches|PASSED|FAILED" "$OUT/launch-gpu-tests.log" | head -8
