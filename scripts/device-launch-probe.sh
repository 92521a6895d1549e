#!/usr/bin/env bash
# Runs ON the GPU machine: carry/bin/tcgen-launch-probe (bench/LaunchProbe.cu)
# twice: what one launch costs beyond the kernel's own span for each
# property of a Hopper GEMM kernel (threads, shared memory, tensor-map
# parameters, setmaxnreg, stores at exit, clusters). CSVs in $OUT.
set -uo pipefail
# shellcheck source=scripts/device-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/device-env.sh"
ROUNDS="${ROUNDS:-200}"
CYCLES="${CYCLES:-40000}"
for run in 1 2; do
  timeout 120 "$CARRY/bin/tcgen-launch-probe" "$ROUNDS" "$CYCLES" \
    > "$OUT/launch-probe-$run.csv" 2>&1 || echo "probe run $run failed"
  cat "$OUT/launch-probe-$run.csv"
done
