#!/usr/bin/env bash
# Runs ON the GPU machine: a full ncu report of the cuBLAS kernel that
# `tcgen-gpu bench` times against each bundle (the first one launched after
# the warm-up), its SASS source view (CSV) and details, to compare with
# scripts/device-ncu-source.sh's report of our kernel. Usage:
#   scripts/device-ncu-cublas.sh BUNDLE_DIR...
# Writes $OUT/<name>-cublas.ncu-rep, -cublas-source.csv, -cublas-details.txt.
set -uo pipefail
# shellcheck source=scripts/device-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/device-env.sh"
GPU="$CARRY/bin/tcgen-gpu"
for b in "$@"; do
  b="${b%/}"; name=$(basename "$b")-cublas
  timeout 200 ncu --clock-control none -k "regex:nvjet|sm90_|cutlass|gemm" -s 2 -c 1 \
    --set full --import-source no -o "$OUT/$name" -f \
    "$GPU" bench "$b" --iters 2 --warmup 2 --no-cublaslt > "$OUT/$name-ncu.log" 2>&1 ||
    { echo "ncu failed on $name: $(tail -2 "$OUT/$name-ncu.log")"; continue; }
  ncu_pages "$name"
done
