#!/usr/bin/env bash
# The GPU checks and timings of grouped products (mixtures of experts,
# docs/USER-GUIDE.md "Grouped products").
#   here:           scripts/grouped-gpu.sh prepare   (compiles carry/grouped/*, copies tcgen-gpu)
#   on the GPU:     scripts/grouped-gpu.sh run       (run --check, then bench)
# Each bundle takes T at launch; the checks draw balanced, skewed and sparse
# routings (empty groups) and compare every row of every group (sampled
# rows of each group for the large shapes) with a float64 reference; the
# benches time a cublasGemmEx loop and cublasGemmGroupedBatchedEx.
set -euo pipefail
set -f # the specs hold `?`, which must not glob
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$SRC/carry/grouped"
# name | spec options | checked sizes T,N,K (several separated by ' ')
BUNDLES=(
  "small_bf16|--einsum tk,gnk->tn --sizes t=?,n=256,k=128,g=8 --dtypes a=bf16,c=bf16|1,256,128 5,256,128 1000,256,128"
  "kn_f16_i64|--einsum tk,gkn->tn --sizes t=?,n=384,k=192,g=5 --dtypes a=f16,c=f32,offsets=i64|777,384,192"
  "silu|--einsum tk,gnk->tn --sizes t=?,n=512,k=256,g=16 --dtypes a=bf16,c=bf16 --epilogue silu(acc)|2049,512,256"
  "odd|--einsum tk,gnk->tn --sizes t=?,n=200,k=136,g=6 --dtypes a=f16,c=f16|777,200,136"
  "mixtral_w1|--einsum tk,gnk->tn --sizes t=?,n=14336,k=4096,g=8 --dtypes a=bf16,c=bf16|8192,14336,4096"
  "mixtral_w2|--einsum tk,gnk->tn --sizes t=?,n=4096,k=14336,g=8 --dtypes a=bf16,c=bf16|8192,4096,14336"
  "dsv3_up|--einsum tk,gnk->tn --sizes t=?,n=2048,k=7168,g=64 --dtypes a=bf16,c=bf16|16384,2048,7168"
  "dsv3_down|--einsum tk,gnk->tn --sizes t=?,n=7168,k=2048,g=64 --dtypes a=bf16,c=bf16|16384,7168,2048"
)
# bench: bundle | T values (N and K are the bundle's)
BENCH=(
  "mixtral_w1|14336,4096|1024 8192 32768"
  "mixtral_w2|4096,14336|1024 8192 32768"
  "dsv3_up|2048,7168|4096 16384 65536"
  "dsv3_down|7168,2048|4096 16384 65536"
)
case "${1:-}" in
prepare)
  TCGEN="${TCGEN:-$SRC/build/bin/tcgen}"
  rm -rf "$OUT" && mkdir -p "$OUT" "$SRC/carry/bin"
  for b in "${BUNDLES[@]}"; do
    IFS='|' read -r name opts _ <<<"$b"
    # shellcheck disable=SC2086
    "$TCGEN" compile $opts --group g --name "g_$name" -o "$OUT/$name"
  done
  cp -f "$SRC/build/bin/tcgen-gpu" "$SRC/carry/bin/"
  ;;
run)
  GPU="${TCGEN_GPU:-$SRC/carry/bin/tcgen-gpu}"
  status=0
  for b in "${BUNDLES[@]}"; do
    IFS='|' read -r name _ sizes <<<"$b"
    for s in $sizes; do
      "$GPU" run "$OUT/$name" --check --sizes "$s" --timeout 60 || status=1
    done
  done
  for b in "${BENCH[@]}"; do
    IFS='|' read -r name nk ts <<<"$b"
    for t in $ts; do
      "$GPU" bench "$OUT/$name" --sizes "$t,$nk" --iters 20 --warmup 5 \
        --no-cublaslt || status=1
    done
  done
  exit $status
  ;;
*)
  echo "usage: scripts/grouped-gpu.sh prepare|run" >&2
  exit 2
  ;;
esac
