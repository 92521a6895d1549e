#!/usr/bin/env bash
# Runs ON the GPU machine: times the same bundles with two tcgen-gpu
# binaries, alternating (old, new, old, new), to show what a change of the
# benchmark harness does to the ratios. Environment: OUT, CARRY, ITERS;
# OLD (default $CARRY/bin/tcgen-gpu-old), NEW (default $CARRY/bin/tcgen-gpu).
# usage: scripts/device-harness-ab.sh BUNDLE...
set -uo pipefail
OLD="${OLD:-$CARRY/bin/tcgen-gpu-old}"
NEW="${NEW:-$CARRY/bin/tcgen-gpu}"
for round in 1 2; do
  for side in old new; do
    bin=$OLD; [ $side = new ] && bin=$NEW
    "$bin" bench "$@" --iters "${ITERS:-30}" --warmup 3 --no-cublaslt \
      --csv "$OUT/harness-$side-$round.csv" > "$OUT/harness-$side-$round.log" 2>&1
    echo "--- $side (round $round): entry tcgen-ms cuBLAS-ms ratio"
    tail -n +2 "$OUT/harness-$side-$round.csv" | awk -F, '{print $3, $10, $12, $14}'
  done
done
