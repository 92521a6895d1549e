#!/usr/bin/env bash
# Runs ON the GPU machine: a full ncu report of each bundle's kernel
# (--clock-control none) and its SASS source view with the stall samples
# per instruction (CSV), for comparing where two kernels wait. Usage:
#   scripts/device-ncu-source.sh BUNDLE_DIR...
# Writes $OUT/<name>.ncu-rep, $OUT/<name>-source.csv, $OUT/<name>-details.txt.
set -uo pipefail
# shellcheck source=scripts/device-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/device-env.sh"
GPU="$CARRY/bin/tcgen-gpu"
for b in "$@"; do
  b="${b%/}"; name=$(basename "$b")
  timeout 200 ncu --clock-control none -c 1 --set full --import-source no \
    -o "$OUT/$name" -f "$GPU" run "$b" > "$OUT/$name-ncu.log" 2>&1 ||
    { echo "ncu failed on $name: $(tail -2 "$OUT/$name-ncu.log")"; continue; }
  ncu_pages "$name"
done
