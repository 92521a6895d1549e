#!/usr/bin/env bash
# Here (no GPU needed): compiles the bundles a device run checks and times,
# into carry/bundles (correctness) and carry/bench-bundles (timing), and
# copies the GPU tools into carry/bin (scripts/device-collect.sh).
# Then on the GPU machine: scripts/device-run.sh
#   TARGET=sm_90a BACKEND=wmma|sm90 [ABLATION=1] scripts/device-prepare.sh [extra tcgen compile flags...]
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TCGEN="${TCGEN:-$SRC/build/bin/tcgen}"
TARGET="${TARGET:-sm_90a}"
CARRY="$SRC/carry"
rm -rf "$CARRY/bundles" "$CARRY/bench-bundles"
mkdir -p "$CARRY/bundles" "$CARRY/bench-bundles" "$CARRY/mlir"

compile() { # dest m n k out [gen flags...]
  local dest=$1 m=$2 n=$3 k=$4 out=$5; shift 5
  local name="mm_${m}x${n}x${k}_${out}"
  for f in "$@"; do [ "$f" = --accumulate ] && name="${name}_acc"; done
  for f in "$@"; do [ "$f" = bf16 ] && name="mm_${m}x${n}x${k}_bf16_${out}"; done
  "$SRC/test/utils/gen_matmul.py" "$m" "$n" "$k" --out "$out" "$@" > "$CARRY/mlir/$name.mlir"
  "$TCGEN" compile "$CARRY/mlir/$name.mlir" --target="$TARGET" -o "$dest/$name" $EXTRA >/dev/null
  echo "  $dest/$name"
}

# The paper's Figure 8 staircase (C += A*B, f32 accumulate): each step adds
# one optimization. ablate DEST SIZE
ablate() {
  local dest=$1 s=$2 i=0
  local steps=(
    "naive|--no-promote --no-hoist --no-vectorize --no-prefetch"
    "smem|--no-hoist --no-vectorize --no-prefetch --padding=0"
    "regtile|--no-vectorize --no-prefetch --padding=0"
    "padding|--no-vectorize --no-prefetch"
    "vector|--no-prefetch"
    "prefetch|")
  for step in "${steps[@]}"; do
    i=$((i + 1))
    local label=${step%%|*} flags=${step#*|}
    local name="abl${i}_${label}_${s}"
    "$SRC/test/utils/gen_matmul.py" "$s" "$s" "$s" --out f32 --accumulate --name "$name" > "$CARRY/mlir/$name.mlir"
    "$TCGEN" compile "$CARRY/mlir/$name.mlir" --target="$TARGET" -o "$dest/$name" $flags >/dev/null
    echo "  $dest/$name"
  done
}
EXTRA="--backend=${BACKEND:-wmma} $*"
echo "correctness bundles:"
for out in f32 f16; do
  for s in 256 1024 4096; do compile "$CARRY/bundles" $s $s $s $out; done
  compile "$CARRY/bundles" 1024 4096 512 $out
  # C += A*B (the sm90 back end computes C = A*B only)
  [ "${BACKEND:-wmma}" = wmma ] && compile "$CARRY/bundles" 512 256 384 $out --accumulate
done
[ "${BACKEND:-wmma}" = wmma ] && ablate "$CARRY/bundles" 1024
if [ "${BACKEND:-wmma}" = sm90 ]; then
  for out in f32 bf16; do
    compile "$CARRY/bundles" 1024 2048 512 $out --in bf16
    compile "$CARRY/bundles" 4096 4096 4096 $out --in bf16
  done
  # The four A/B layouts (A [m][k] or [k][m], B [k][n] or [n][k]).
  for al in mk km; do
    for bl in kn nk; do
      name="mm_layout_a${al}_b${bl}"
      "$SRC/test/utils/gen_matmul.py" 1024 2048 512 --a-layout $al --b-layout $bl --name "$name" > "$CARRY/mlir/$name.mlir"
      "$TCGEN" compile "$CARRY/mlir/$name.mlir" --target="$TARGET" -o "$CARRY/bundles/$name" $EXTRA >/dev/null
      echo "  $CARRY/bundles/$name"
    done
  done
  # Fused prologues: ReLU on A in registers (A [m][k] with edges and a
  # pack, A [k][m]) and on B in shared memory.
  for spec in "1000 777 333 --prologue relu-a" \
              "1001 640 1000 --prologue relu-a --a-layout km --out f16" \
              "768 1024 512 --prologue relu-b --b-layout nk"; do
    set -- $spec
    name="mm_prologue_${1}x${2}x${3}_${5#relu-}"
    "$SRC/test/utils/gen_matmul.py" "$@" --name "$name" > "$CARRY/mlir/$name.mlir"
    "$TCGEN" compile "$CARRY/mlir/$name.mlir" --target="$TARGET" -o "$CARRY/bundles/$name" $EXTRA >/dev/null
    echo "  $CARRY/bundles/$name"
  done
  # f32 x f32 on CUDA cores (the simt back end, whatever BACKEND says): an
  # aligned size, edges with transposed operands, and C += A*B.
  for spec in "1024 1024 1024" "515 259 301 --a-layout km --b-layout nk" "384 256 200 --accumulate"; do
    set -- $spec
    name="mm_simt_${1}x${2}x${3}"
    "$SRC/test/utils/gen_matmul.py" "$@" --in f32 --out f32 --name "$name" > "$CARRY/mlir/$name.mlir"
    "$TCGEN" compile "$CARRY/mlir/$name.mlir" --target="$TARGET" -o "$CARRY/bundles/$name" >/dev/null
    echo "  $CARRY/bundles/$name"
  done
fi
echo "benchmark bundles:"
for out in f32 f16; do
  for s in 1024 2048 4096 8192; do compile "$CARRY/bench-bundles" $s $s $s $out; done
done
if [ "${ABLATION:-0}" = 1 ]; then
  echo "ablation bundles (8192^3):"
  ablate "$CARRY/bench-bundles" 8192
fi
"$SRC/scripts/device-collect.sh"
