#!/usr/bin/env bash
# Here: compiles study bundles into carry/<mode>-bundles; then
# scripts/device-study.sh on the GPU machine checks and times them against
# cuBLAS (and profiles the best, a middling and the worst WMMA tiling with ncu).
#   scripts/prepare-study.sh [tiling] [sweep] [sm90] [sm90sweep] [sm90ablation] [streamk] [cluster] [store] [sm90tune] [fusion] [edges] [wmma] [layouts] [batched] [smallm] [tune] [colmajor] [staged] [odd] [squares] [accumulate] [dual] [prologue] [tf32] [epilogueops] [random] [sm80] [sm80sweep] [sm80splitk] [sm80epilogue] [sm80layouts] [sm80bf16] [sm80fusion] [sm80random] [dynamic] [fp8] [einsum] [fp8tiles] [dynepilogue] [narrow] [smallcluster] [packone] [batchmiddle] [contraction3d] [bshd] [batchepilogue] [pointwise] [simt] [asynccopy] [swap] [tunesmallm] [oddtiles] [tall] [talldefaults] [bthree] [fp8tall] [batchtiles] [swapsquares] [broadcast] [wavetiles] [randombroadcast] [misrows] [skorder] [swapmodel] [twok] [squares16] [bigsquares] [swapstore] [st1536] [misrowsclusters] [smallclusters] [clusterchecks] [bertclusters] [llm] [skspread] [llmsweep] [gap] [gap2048] [kline] [kring] [rowblocks] [swapdef] [rbsan] [rb1024] [rbsquares] [rbbert] [talldef1wg] [clsquares] [b2b] [kline7168] [desc] [raster] [rastdef] [l2promo]
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TCGEN="${TCGEN:-$SRC/build/bin/tcgen}"
TARGET="${TARGET:-sm_90a}"
CARRY="$SRC/carry"
mkdir -p "$CARRY/mlir"
want() { [ $# -eq 0 ] && return 0; for w in "${ARGS[@]}"; do [ "$w" = "$1" ] && return 0; done; return 1; }
ARGS=("$@")
[ ${#ARGS[@]} -eq 0 ] && ARGS=(tiling sweep)
# modes: tiling (WMMA tilings at 8192^3), sweep (WMMA per-size candidates),
# sm90 (sm90 per-size candidates), sm90sweep (the default config over the
# Hopper issue's square sizes and BERT shapes), sm90ablation (Hopper features
# one at a time), streamk (data-parallel against stream-K where whole tiles
# fill the last wave poorly), cluster (2x1 and 1x2 clusters with multicast),
# fusion (fused epilogues against cuBLAS + pointwise kernels and cuBLASLt's
# fused epilogues; EPILOGUE_TMA=1 adds the fragment loads (_frag) and TMA
# epilogue checks, EPILOGUE_HALF=1 the f16x2 epilogues (_half)), edges (sizes that are not multiples of the tile), wmma
# (WMMA copy order and double buffering: tilings, the ablation with two
# steps beyond the paper, the default config over square sizes), layouts (NT, TN, TT against NN on sm90), batched (linalg.batch_matmul:
# the generality issue's shapes with several block tiles, and checks),
# smallm (M <= 64: default, stream-K and narrower tiles), tune (every
# candidate of the tile-size model's search space for the square sweep and
# the generality issue's shapes, into carry/tune-dirs/<shape>: tcgen tune
# --top=0 --no-measure; the device times them with tcgen-gpu tune),
# colmajor (C stored [n][m]: checks in every A/B layout, odd sizes, a fused
# epilogue and a batch; timed against row-major C at 4096^3 and 8192^3),
# staged (C rows TMA cannot address: staged coalesced stores against
# stores from registers), odd (the generality issue's odd and unaligned
# sizes with the default configuration), squares (the Hopper issue's square
# sweep 1024..16384, f16 -> f32, default configuration, three checked),
# accumulate (C += A*B on sm90: checks and timings against cuBLAS, beta 1),
# dual (add(gemm, gemm): checks, timings against 2 x cuBLAS + add),
# (random with SIMT=1: every draw f32 -> f32 on the simt back end; with
# SWAP=1 every draw a small M on sm90 with --swap=1),
# asynccopy (sm90 operands whose rows are 16-byte but not 128-byte
# multiples apart loaded with cp.async by the producer, --pack=async:
# checks in every layout, edges, batch, epilogue, C += A*B, narrow tiles
# and stream-K; timings against the packs / unaligned TMA of --pack=auto),
# swap (sm90 --swap=1, C^T = B^T A^T for small M: checks of narrow tiles,
# M = 1, edges, layouts, dtypes, epilogues and C += A*B; timings of the
# small-M shapes against the default),
# tf32 (f32 inputs on tensor cores: checks, timings against cuBLAS tf32),
# epilogueops (every op of the fusion issue's list fused, checks),
# prologue (ReLU on A or B in shared memory, in a pack kernel, and the
# default choice; checks, timings),
# random (checks only: random sizes with primes and 1s, random layouts,
# dtypes, C += A*B, epilogues, column-major C, batches, stream-K, clusters,
# other tiles; SEED picks the draw; PROLOGUES=1 adds ReLU prologues on A
# and relu(C) + A*B; REGS=1 every draw a ReLU prologue on A (in registers
# where it applies); FEATURES=1 prologues on A or B, relu(C) + A*B,
# add(gemm, gemm) and tf32; EPILOGUES=1 every draw a fused epilogue with
# a matrix operand),
# sm80 (the sm80 back end on sm_90a with --backend=sm80: checks of tiles,
# stages, padding and C += A*B; the default config over the square sizes
# against cuBLAS and the wmma back end; a stage sweep 2-5 and the padded
# layout against the swizzled one at 4096^3 and 8192^3, profiled with ncu),
# sm80sweep (the sm80 default over the square sizes 1024..16384 every 1024,
# f16 C at 4096^3 and 8192^3, warp and block tilings at 4096^3 and 8192^3;
# small bundles for compute-sanitizer in carry/san),
# sm80splitk (intra-block split-K on the sm80 back end: checks, and shapes
# with few output tiles and a long K, against the same tiles without the
# split; three repeated runs of the default at 4096^3 and 8192^3 with the
# wmma back end),
# sm80epilogue (the sm80 epilogue through shared memory, store = staged,
# against stores from registers: checks, f32 and f16 C, large and small K;
# the few-tile default against 128x128 tiles),
# sm80layouts (A stored [k][m] and B stored [n][k] on the sm80 back end:
# checks with and without split-K, padded and f16 C; NN, NT, TN and TT at
# 4096^3 and 8192^3 against cuBLAS in the same layout),
# sm80bf16 (bf16 inputs with f32 C on the sm80 back end: checks in every
# layout, with split-K and both stores; timings at 4096^3 and 8192^3),
# sm80fusion (fused epilogues on the sm80 back end, computed in its staged
# epilogue: checks with every input kind, dtypes, split-K and layouts;
# timings against cuBLAS + a pointwise kernel and cuBLASLt's fused
# epilogues at 1024..4096 cubed),
# sm80random (checks only: random sm80 configurations, SEED picks the draw:
# tiles with and without split-K, stages 2-5, padded or swizzled tiles,
# staged or register stores, f16 or bf16, all layouts, C += A*B and fused
# epilogues, sizes random multiples of the tile),
# narrow (sm90 block tiles whose N is a multiple of 16 but not of 64:
# checks in every layout, dtype, store and epilogue form, cluster, batch
# and a dynamic bundle; timings at the square sizes whose tile counts fill
# the SMs' waves poorly with 64-multiples),
# smallcluster (1024^3 and 1536^3 with and without 2-block clusters:
# timings, and ncu's warp-state, scheduler and speed-of-light sections of
# each kernel),
# packone (the odd sizes whose rows TMA reads slowly with both operands,
# one or neither packed: --pack=auto|a|b|never; 1536^3 with stores from
# registers and one more stage),
# batchmiddle (batches stored between the matrix dimensions, A[m][b][k]
# and the like: checks in every layout, store and size; timings against
# the batch-outermost kernel and cublasGemmStridedBatchedEx),
# contraction3d (C[i,j] = sum_{k,l} A[i,k,l] B[l,k,j], a summed batch:
# checks in every layout, store and size; timings against permute+cublas,
# the strided copy of the operand that is not already one matrix over
# K' = k l, then cuBLAS),
# bshd (two batch dimensions that do not collapse, the [batch, seq, heads,
# features] attention layouts: checks; timings of the same products in the
# [b, h, s, d] layout next to them, each against cuBLAS on batch-contiguous
# operands)

# build DEST NAME GEN_ARGS... -- TCGEN_FLAGS...: writes the input with
# gen_matmul.py and compiles it; a config that does not fit (shared memory,
# registers) is skipped with a note.
build() {
  local dest=$1 name=$2 gen=()
  shift 2
  while [ $# -gt 0 ] && [ "$1" != -- ]; do gen+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  "$SRC/scripts/gen_matmul.py" "${gen[@]}" --name "$name" > "$CARRY/mlir/$name.mlir"
  if ! "$TCGEN" compile "$CARRY/mlir/$name.mlir" --target="$TARGET" -o "$dest/$name" \
      "$@" > "$CARRY/mlir/$name.log" 2>&1; then
    echo "  skipped $name: $(grep -m1 error "$CARRY/mlir/$name.log" | cut -c1-120)"
    rm -rf "${dest:?}/$name"
  fi
}

# build_old DEST NAME GEN_ARGS... -- TCGEN_FLAGS...: the same with the
# compiler in TCGEN_OLD (to time a change against the defaults before it);
# nothing when TCGEN_OLD is unset.
build_old() {
  [ -z "${TCGEN_OLD:-}" ] && return 0
  TCGEN="$TCGEN_OLD" build "$@"
}

# build_rows DEST PREFIX [TCGEN_FLAGS...] < LINES: one bundle per line
# "name|gen_matmul arguments|tcgen flags" (the flags may be left out), named
# PREFIX<name>, compiled with its flags and then TCGEN_FLAGS.
build_rows() {
  local dest=$1 prefix=$2 name gen flags
  shift 2
  while IFS='|' read -r name gen flags; do
    # shellcheck disable=SC2086
    build "$dest" "$prefix$name" $gen -- $flags "$@"
  done
}

# build_new_old DEST NEW SHAPE...: for each MxNxK shape and C type (f32,
# f16) the default bundle with this compiler (t_<shape>_<c>_<NEW>) and with
# TCGEN_OLD's (t_<shape>_<c>_o), to time a change of the defaults.
build_new_old() {
  local dest=$1 new=$2 shape m n k out
  shift 2
  for shape in "$@"; do
    IFS=x read -r m n k <<<"$shape"
    for out in f32 f16; do
      build "$dest" "t_${shape}_${out}_$new" "$m" "$n" "$k" --out $out --
      build_old "$dest" "t_${shape}_${out}_o" "$m" "$n" "$k" --out $out --
    done
  done
}

if want tiling; then
  rm -rf "$CARRY/tiling-bundles"; mkdir -p "$CARRY/tiling-bundles"
  echo "tiling study, 8192^3 f16 -> f32 (block x warp):"
  for block in 64,64,32 64,64,64 128,64,32 64,128,32 128,64,64 64,128,64 \
               128,128,32 128,128,64 256,128,32 128,256,32; do
    for warp in 32,32 32,64 64,32 64,64; do
      IFS=, read -r bm bn bk <<<"$block"; IFS=, read -r wm wn <<<"$warp"
      (( bm % wm == 0 && bn % wn == 0 )) || continue
      warps=$(( (bm / wm) * (bn / wn) ))
      (( warps >= 2 && warps <= 8 )) || continue
      build "$CARRY/tiling-bundles" "t_${bm}x${bn}x${bk}_w${wm}x${wn}" 8192 8192 8192 \
        -- --backend=wmma --block-tile="$block" --warp-tile="$wm,$wn,$bk"
    done
  done
  echo "  $(ls "$CARRY/tiling-bundles" | wc -l) configs"
fi

if want sweep; then
  rm -rf "$CARRY/sweep-bundles"; mkdir -p "$CARRY/sweep-bundles"
  echo "square sweep (candidate configs per size):"
  for s in 256 512 1024 2048 4096 8192 16384; do
    for out in f32 f16; do
      for cfg in 64,64,32:32,32 128,64,32:64,32 64,128,32:32,64 128,128,32:64,64 \
                 128,128,64:64,64 256,128,32:64,64 128,256,32:64,64; do
        block=${cfg%%:*}; warp=${cfg#*:}
        IFS=, read -r bm bn bk <<<"$block"; IFS=, read -r wm wn <<<"$warp"
        (( s % bm == 0 && s % bn == 0 && s % bk == 0 )) || continue
        build "$CARRY/sweep-bundles" "s${s}_${out}_${bm}x${bn}x${bk}_w${wm}x${wn}" \
          "$s" "$s" "$s" --out "$out" -- --backend=wmma --block-tile="$block" --warp-tile="$wm,$wn,$bk"
      done
    done
  done
  echo "  $(ls "$CARRY/sweep-bundles" | wc -l) bundles"
fi
if want sm90; then
  rm -rf "$CARRY/sm90-bundles"; mkdir -p "$CARRY/sm90-bundles"
  echo "sm90 sweep (candidate block tiles per size):"
  # square sizes and the BERT-large shapes (M = 3072), every block tile
  # that divides the shape
  shapes="1024 1536 2048 2560 3072 3584 4096 4608 5120 6144 7168 8192 9216"
  shapes="$shapes 3072x1024x1024 3072x4096x1024 3072x1024x4096"
  for shape in $shapes; do
    case $shape in *x*) IFS=x read -r m n k <<<"$shape" ;; *) m=$shape n=$shape k=$shape ;; esac
    for out in f32 f16; do
      for block in 128,256,64 128,192,64 128,128,64 64,256,64 64,192,64 64,128,64; do
        IFS=, read -r bm bn bk <<<"$block"
        (( m % bm == 0 && n % bn == 0 )) || continue
        build "$CARRY/sm90-bundles" "h${shape}_${out}_${bm}x${bn}" "$m" "$n" "$k" --out "$out" \
          -- --backend=sm90 --block-tile="$block"
      done
    done
  done
  echo "  $(ls "$CARRY/sm90-bundles" | wc -l) bundles"
fi
if want sm90ablation; then
  rm -rf "$CARRY/sm90ablation-bundles"; mkdir -p "$CARRY/sm90ablation-bundles"
  echo "sm90 ablation (f16 -> f32): WMMA pipeline, then sm90 without and with"
  echo "grouped rasterization, persistence, the TMA-store epilogue and a 2x1 cluster"
  for s in 4096 8192; do
    steps=("a1_wmma|--backend=wmma --block-tile=128,256,32 --warp-tile=64,64,32"
           "a2_tma_ws|--block-tile=128,256,64 --raster=1 --persistent=0 --store=global"
           "a3_raster|--block-tile=128,256,64 --raster=8 --persistent=0 --store=global"
           "a4_persistent|--block-tile=128,256,64 --raster=8 --persistent=1 --store=global"
           "a5_tma_store|--block-tile=128,256,64 --raster=8 --persistent=1 --store=tma"
           "a6_cluster|--block-tile=128,256,64 --raster=8 --persistent=1 --store=tma --cluster=2,1")
    for step in "${steps[@]}"; do
      label=${step%%|*}; flags=${step#*|}
      # shellcheck disable=SC2086
      build "$CARRY/sm90ablation-bundles" "${label}_${s}" "$s" "$s" "$s" -- $flags
      # shellcheck disable=SC2086
      build "$CARRY/sm90ablation-bundles" "${label}_${s}_f16" "$s" "$s" "$s" --out f16 -- $flags
    done
  done
  echo "  $(ls "$CARRY/sm90ablation-bundles" | wc -l) bundles"
fi

if want streamk; then
  rm -rf "$CARRY/streamk-bundles"; mkdir -p "$CARRY/streamk-bundles"
  echo "stream-K against data-parallel (128x256 tiles):"
  for shape in 1536x1536x1536 2560x2560x2560 3072x3072x3072 5120x5120x5120 \
               3072x1024x1024 3072x1024x4096 2048x2048x2048 8192x8192x8192 \
               256x512x512 1024x1024x4096; do
    IFS=x read -r m n k <<<"$shape"
    for out in f32 f16; do
      for sk in 0 1; do
        build "$CARRY/streamk-bundles" "sk${sk}_${shape}_${out}" "$m" "$n" "$k" --out "$out" \
          -- --backend=sm90 --block-tile=128,256,64 --stream-k=$sk
      done
    done
  done
fi

if want cluster; then
  rm -rf "$CARRY/cluster-bundles"; mkdir -p "$CARRY/cluster-bundles"
  echo "clusters with TMA multicast: every layout at 1024x2048x512 (checks),"
  echo "then no cluster, 2x1 and 1x2 over square sizes (f16 -> f32)"
  for al in mk km; do
    for bl in kn nk; do
      for cl in 2,1 1,2; do
        for block in 128,256,64 64,128,64; do
          build "$CARRY/cluster-bundles" "lay_${al}_${bl}_c${cl/,/x}_b$(echo "${block%,64}" | tr , x)" 1024 2048 512 \
            --a-layout "$al" --b-layout "$bl" -- --cluster="$cl" --block-tile="$block"
        done
      done
    done
  done
  build "$CARRY/cluster-bundles" "lay_bf16_c2x1" 1024 2048 512 --in bf16 --out bf16 -- --cluster=2,1
  for s in 2048 3072 4096 6144 8192 16384; do
    for cl in 1,1 2,1 1,2; do
      build "$CARRY/cluster-bundles" "cs${s}_c${cl/,/x}" "$s" "$s" "$s" -- --cluster="$cl" --block-tile=128,256,64
    done
  done
  echo "  $(ls "$CARRY/cluster-bundles" | wc -l) bundles"
fi

if want sm90sweep; then
  rm -rf "$CARRY/sm90sweep-bundles"; mkdir -p "$CARRY/sm90sweep-bundles"
  echo "sm90 square sweep (default config): 512..4096 every 512, then every 1024"
  sizes="512 1024 1536 2048 2560 3072 3584 4096 5120 6144 7168 8192 9216 10240 11264 12288 13312 14336 15360 16384"
  # in:out pairs: f16 and bf16 inputs, f32 accumulation, 16-bit or f32 out
  for s in $sizes; do
    for io in f16:f32 f16:f16 bf16:f32 bf16:bf16; do
      in=${io%%:*}; out=${io#*:}
      build "$CARRY/sm90sweep-bundles" "q${s}_${in}_${out}" "$s" "$s" "$s" --in "$in" --out "$out"
    done
  done
  # BERT-large feed-forward and projection shapes: M = 3072
  for nk in 1024x1024 4096x1024 1024x4096; do
    n=${nk%x*}; k=${nk#*x}
    for io in f16:f32 f16:f16; do
      in=${io%%:*}; out=${io#*:}
      build "$CARRY/sm90sweep-bundles" "bert_3072x${n}x${k}_${in}_${out}" 3072 "$n" "$k" --in "$in" --out "$out"
    done
  done
  echo "  $(ls "$CARRY/sm90sweep-bundles" | wc -l) bundles"
fi
if want store; then
  rm -rf "$CARRY/store-bundles"; mkdir -p "$CARRY/store-bundles"
  echo "TMA-store epilogue (--store=tma) against stores from registers:"
  echo "every layout, cluster, stream-K, fused epilogues, bf16 (checks), then"
  echo "square sizes both ways"
  for al in mk km; do
    for bl in kn nk; do
      for out in f16 f32; do
        build "$CARRY/store-bundles" "chk_${al}_${bl}_${out}" 1024 2048 512 \
          --a-layout "$al" --b-layout "$bl" --out "$out" -- --store=tma
      done
    done
  done
  build "$CARRY/store-bundles" "chk_bf16" 1024 2048 512 --in bf16 --out bf16 -- --store=tma
  build "$CARRY/store-bundles" "chk_c2x1_f16" 1024 2048 512 --out f16 -- --store=tma --cluster=2,1
  build "$CARRY/store-bundles" "chk_c1x2_f32" 1024 2048 512 -- --store=tma --cluster=1,2
  build "$CARRY/store-bundles" "chk_sk_f16" 1536 1536 1536 --out f16 -- --store=tma --stream-k=1 --block-tile=128,256,64
  build "$CARRY/store-bundles" "chk_sk_f32" 1024 1024 4096 -- --store=tma --stream-k=1 --block-tile=128,256,64
  build "$CARRY/store-bundles" "chk_64x128_f16" 1024 1024 1024 --out f16 -- --store=tma --block-tile=64,128,64
  build "$CARRY/store-bundles" "chk_128x192_f32" 1536 1536 1536 -- --store=tma --block-tile=128,192,64
  for e in add-relu bias-gelu-residual relu-bias; do
    build "$CARRY/store-bundles" "chk_fused_${e//-/_}" 1024 2048 512 --out f16 --epilogue "$e" -- --store=tma
  done
  build "$CARRY/store-bundles" "chk_fused_f32_add_scalar" 1024 2048 512 --out f32 --epilogue add-scalar -- --store=tma
  for s in 1024 2048 3072 4096 6144 8192; do
    tile=128,256,64; [ "$s" = 1024 ] && tile=64,128,64; [ "$s" = 3072 ] && tile=128,192,64
    for out in f16 f32; do
      for st in global tma; do
        build "$CARRY/store-bundles" "t${s}_${out}_${st}" "$s" "$s" "$s" --out "$out" \
          -- --store="$st" --block-tile="$tile"
      done
    done
  done
  # (fused epilogues are timed by the fusion study, against their baselines)
  echo "  $(ls "$CARRY/store-bundles" | wc -l) bundles"
fi
if want edges; then
  rm -rf "$CARRY/edges-bundles"; mkdir -p "$CARRY/edges-bundles"
  echo "sizes that are not multiples of the tile (sm90; checks, then timing):"
  B="$CARRY/edges-bundles"
  for st in tma global; do
    build "$B" "chk_300x328x72_f32_$st" 300 328 72 -- --store=$st --block-tile=128,256,64
    build "$B" "chk_1000_f16_$st" 1000 1000 1000 --out f16 -- --store=$st
    build "$B" "chk_1000_f32_$st" 1000 1000 1000 -- --store=$st --block-tile=128,256,64
    for e in add-relu bias-gelu-residual relu-bias add-scalar; do
      build "$B" "chk_fused_${e//-/_}_$st" 1000 1000 520 --out f16 --epilogue "$e" -- --store=$st
    done
  done
  for al in mk km; do
    for bl in kn nk; do
      build "$B" "chk_${al}_${bl}_f16" 1000 2040 520 --a-layout "$al" --b-layout "$bl" --out f16
    done
  done
  build "$B" "chk_bf16_1000" 1000 1000 1000 --in bf16 --out bf16
  build "$B" "chk_sk_1000x1000x4000" 1000 1000 4000 -- --stream-k=1 --block-tile=128,256,64
  build "$B" "chk_c2x1_384x512x256" 384 512 256 -- --cluster=2,1 --block-tile=128,256,64
  build "$B" "chk_c1x2_520x600x136" 520 600 136 --out f16 -- --cluster=1,2 --block-tile=128,128,64
  build "$B" "chk_m1_4096" 1 4096 4096
  build "$B" "chk_m33_1000x520" 33 1000 520 --out bf16 --in bf16
  build "$B" "chk_k8_512" 512 512 8
  # rows TMA cannot read (packed) or stores (odd N: element stores)
  build "$B" "chk_odd_1001x1001x999_f16" 1001 1001 999 --out f16
  build "$B" "chk_odd_fused_1001x1001x1000" 1001 1001 1000 --out f16 --epilogue bias-gelu-residual
  build "$B" "chk_odd_fused_km_nk_f32" 1001 1001 1000 --epilogue add-relu --a-layout km --b-layout nk
  build "$B" "chk_odd_relu_bias_bf16" 999 777 555 --in bf16 --out bf16 --epilogue relu-bias
  build "$B" "chk_pack_1000_always" 1000 1000 1000 --out f16 -- --pack=always
  build "$B" "chk_pack_700" 3000 5000 700 --out f16
  build "$B" "chk_pack_km_nk_1000x2000x700" 1000 2000 700 --a-layout km --b-layout nk -- --pack=always
  # the generality issue's sizes (packs where the rows need them)
  for s in 1000 2049 4095 5000 8191; do
    for out in f32 f16; do
      build "$B" "t${s}_${out}" "$s" "$s" "$s" --out "$out"
    done
  done
  build "$B" "t3000x5000x700_f16" 3000 5000 700 --out f16
  build "$B" "t3000x5000x700_f32" 3000 5000 700
  build "$B" "t5000_f16_nopack" 5000 5000 5000 --out f16 -- --pack=never
  build "$B" "t1000_f16_pack" 1000 1000 1000 --out f16 -- --pack=always
  build "$B" "t2000_f16_nopack" 2000 2000 2000 --out f16 -- --pack=never
  build "$B" "t2000_f16" 2000 2000 2000 --out f16
  build "$B" "t8x12288x4096_f16" 8 12288 4096 --out f16
  build "$B" "t64x8192x8192_f16" 64 8192 8192 --out f16
  echo "  $(ls "$B" | wc -l) bundles"
fi

if want sm90tune; then
  rm -rf "$CARRY/sm90tune-bundles"; mkdir -p "$CARRY/sm90tune-bundles"
  echo "sm90 (TMA stores) where the default falls short: tiles, stream-K and"
  echo "clusters at 1024^3, 1536^3, 5120^3, 8192^3 and M = 3072, N = 1024, K = 4096"
  for shape in 1024x1024x1024 1536x1536x1536 5120x5120x5120 8192x8192x8192 3072x1024x4096; do
    IFS=x read -r m n k <<<"$shape"
    for v in "b64x128|--block-tile=64,128,64" "b64x256|--block-tile=64,256,64" \
             "b128x128|--block-tile=128,128,64" "b128x192|--block-tile=128,192,64" \
             "b128x256|--block-tile=128,256,64" \
             "sk128x256|--block-tile=128,256,64 --stream-k=1" \
             "sk128x192|--block-tile=128,192,64 --stream-k=1" \
             "c2x1_128x256|--block-tile=128,256,64 --cluster=2,1" \
             "c2x1_128x128|--block-tile=128,128,64 --cluster=2,1"; do
      label=${v%%|*}; flags=${v#*|}
      # shellcheck disable=SC2086
      build "$CARRY/sm90tune-bundles" "u${shape}_${label}" "$m" "$n" "$k" -- $flags
    done
  done
  echo "  $(ls "$CARRY/sm90tune-bundles" | wc -l) bundles"
fi
if want fusion; then
  rm -rf "$CARRY/fusion-bundles"; mkdir -p "$CARRY/fusion-bundles"
  echo "fused epilogues (f16 in, f16 matmul result and out), and the plain"
  echo "matmul for reference, at 1024..8192 cubed; bf16 and f32 variants"
  for s in 1024 2048 4096 8192; do
    for e in relu-bias gelu-bias add-relu add-scalar bias-gelu-residual; do
      build "$CARRY/fusion-bundles" "f${s}_${e//-/_}" "$s" "$s" "$s" --out f16 --epilogue "$e"
    done
    build "$CARRY/fusion-bundles" "f${s}_plain" "$s" "$s" "$s" --out f16
    # D = relu(C) + A*B (the matmul's init transformed; timed against the
    # bare cuBLAS matmul, which does not read C)
    build "$CARRY/fusion-bundles" "f${s}_relu_c" "$s" "$s" "$s" --out f16 --init relu-c
    # C = relu(A) * B (a prologue; against a ReLU kernel + cuBLAS)
    build "$CARRY/fusion-bundles" "f${s}_relu_a" "$s" "$s" "$s" --out f16 --prologue relu-a
    # EPILOGUE_HALF=1: the epilogues computed on f16x2 pairs (opt-in)
    if [ "${EPILOGUE_HALF:-0}" = 1 ]; then
      for e in add-relu relu-bias add-scalar; do
        build "$CARRY/fusion-bundles" "f${s}_${e//-/_}_half" "$s" "$s" "$s" --out f16 --epilogue "$e" -- --epilogue-in-half
      done
    fi
    # EPILOGUE_TMA=1: the matrix operand read through the store chunks (the
    # default, epilogue-loads = auto) against the fragment loads (_frag)
    if [ "${EPILOGUE_TMA:-0}" = 1 ]; then
      for e in add-relu bias-gelu-residual; do
        build "$CARRY/fusion-bundles" "f${s}_${e//-/_}_frag" "$s" "$s" "$s" --out f16 --epilogue "$e" -- --epilogue-loads=fragments
      done
    fi
  done
  if [ "${EPILOGUE_TMA:-0}" = 1 ]; then
    # checks: edge tiles, f32 and bf16 C, 64-row and 128 x 192 tiles,
    # several items per block (persistent), a second matrix operand
    E=(--epilogue-loads=tma)
    build "$CARRY/fusion-bundles" "echk_tma_edges" 1000 1000 512 --out f16 --epilogue add-relu -- "${E[@]}"
    build "$CARRY/fusion-bundles" "echk_tma_f32" 777 1024 333 --out f32 --epilogue add-relu -- "${E[@]}"
    build "$CARRY/fusion-bundles" "echk_tma_bf16" 1024 768 512 --in bf16 --out bf16 --epilogue bias-gelu-residual -- "${E[@]}"
    build "$CARRY/fusion-bundles" "echk_tma_64rows" 512 1024 256 --out f16 --epilogue add-relu -- "${E[@]}" --block-tile=64,128,64
    build "$CARRY/fusion-bundles" "echk_tma_n192" 2048 1536 512 --out f16 --epilogue add-relu -- "${E[@]}" --block-tile=128,192,64
    build "$CARRY/fusion-bundles" "echk_tma_items" 4096 4096 256 --out f16 --epilogue bias-gelu-residual -- "${E[@]}" --block-tile=128,128,64
    # small ones for scripts/device-sanitize.sh
    mkdir -p "$CARRY/san"
    build "$CARRY/san" san_etma 256 512 128 --out f16 --epilogue add-relu -- "${E[@]}"
    build "$CARRY/san" san_etma_bgr 300 256 200 --in bf16 --out bf16 --epilogue bias-gelu-residual -- "${E[@]}"
    build "$CARRY/san" san_etma_items 1024 1024 64 --out f16 --epilogue add-relu -- "${E[@]}" --block-tile=64,64,64
  fi
  # prologue checks: A transposed, bf16, odd sizes (edges and packs), a
  # cluster sharing A, stream-K, 64-row tiles
  build "$CARRY/fusion-bundles" "pchk_km" 1024 512 768 --out f32 --prologue relu-a --a-layout km
  build "$CARRY/fusion-bundles" "pchk_bf16_nk" 768 1024 512 --in bf16 --out bf16 --prologue relu-a --b-layout nk
  build "$CARRY/fusion-bundles" "pchk_odd" 1000 777 333 --out f32 --prologue relu-a
  build "$CARRY/fusion-bundles" "pchk_odd_km" 1001 640 999 --out f16 --prologue relu-a --a-layout km
  build "$CARRY/fusion-bundles" "pchk_cluster" 2048 2048 1024 --out f16 --prologue relu-a -- --cluster=1,2
  build "$CARRY/fusion-bundles" "pchk_streamk" 1536 1536 4096 --out f32 --prologue relu-a -- --stream-k=1
  build "$CARRY/fusion-bundles" "pchk_64rows" 512 512 2048 --out f32 --prologue relu-a -- --block-tile=64,128,64
  build "$CARRY/fusion-bundles" "pchk_reluc_odd" 1000 777 333 --out f16 --init relu-c
  # prologues on B: B transposed, bf16, odd sizes, a 2x1 cluster sharing B,
  # stream-K, 64-row tiles (one consumer warpgroup); timed as the plain
  # kernel is (no baseline)
  build "$CARRY/fusion-bundles" "pchk_b_nk" 1024 512 768 --out f32 --prologue relu-b --b-layout nk
  build "$CARRY/fusion-bundles" "pchk_b_bf16_km" 768 1024 512 --in bf16 --out bf16 --prologue relu-b --a-layout km
  build "$CARRY/fusion-bundles" "pchk_b_odd" 1000 777 333 --out f32 --prologue relu-b
  build "$CARRY/fusion-bundles" "pchk_b_cluster" 2048 2048 1024 --out f16 --prologue relu-b -- --cluster=2,1
  build "$CARRY/fusion-bundles" "pchk_b_streamk" 1536 1536 4096 --out f32 --prologue relu-b -- --stream-k=1
  build "$CARRY/fusion-bundles" "pchk_b_64rows" 512 512 2048 --out f32 --prologue relu-b -- --block-tile=64,128,64
  for s in 4096 8192; do
    build "$CARRY/fusion-bundles" "f${s}_relu_b" "$s" "$s" "$s" --out f16 --prologue relu-b
  done
  for out in bf16 f32; do
    for e in relu-bias bias-gelu-residual add-scalar; do
      # (linalg.matmul cannot take f16 inputs to a bf16 result: bf16 in)
      in=f16; [ "$out" = bf16 ] && in=bf16
      build "$CARRY/fusion-bundles" "v2048_${out}_${e//-/_}" 2048 2048 2048 --in "$in" --out "$out" --epilogue "$e"
    done
  done
  echo "  $(ls "$CARRY/fusion-bundles" | wc -l) bundles"
fi
du -sh "$CARRY"

if want wmma; then
  rm -rf "$CARRY/wmma-bundles"; mkdir -p "$CARRY/wmma-bundles"
  echo "WMMA copy order and stages (8192^3 f16 -> f32, C = A*B; 1024^3 for checks):"
  # s1rows: one stage, row-major copies (the paper); s1: one stage, copy
  # order by the bank model; s2: two stages (double-buffered shared memory).
  for cfg in 128,128,32:64,64 128,128,32:64,32 64,128,32:32,64 128,256,32:64,64; do
    block=${cfg%%:*}; warp=${cfg#*:}
    IFS=, read -r bm bn bk <<<"$block"; IFS=, read -r wm wn <<<"$warp"
    tag="${bm}x${bn}x${bk}_w${wm}x${wn}"
    for s in 8192 1024; do
      for v in "s1rows|--stages=1 --no-reorder-copies --raster=1" "s1|--stages=1 --raster=1" "s2|--stages=2 --raster=1"; do
        # shellcheck disable=SC2086
        build "$CARRY/wmma-bundles" "w${s}_${tag}_${v%%|*}" $s $s $s -- --backend=wmma \
          --block-tile="$block" --warp-tile="$wm,$wn,$bk" ${v#*|}
      done
    done
  done
  # The paper's ablation (C += A*B), then two steps beyond it.
  i=0
  for step in "naive|--no-promote --no-hoist --no-vectorize --no-prefetch --no-reorder-copies --stages=1 --raster=1" \
              "smem|--no-hoist --no-vectorize --no-prefetch --padding=0 --no-reorder-copies --stages=1 --raster=1" \
              "regtile|--no-vectorize --no-prefetch --padding=0 --no-reorder-copies --stages=1 --raster=1" \
              "padding|--no-vectorize --no-prefetch --no-reorder-copies --stages=1 --raster=1" \
              "vector|--no-prefetch --no-reorder-copies --stages=1 --raster=1" \
              "prefetch|--no-reorder-copies --stages=1 --raster=1" "reorder|--stages=1 --raster=1" \
              "double|--raster=1" "raster|"; do
    i=$((i + 1)); label=${step%%|*}; flags=${step#*|}
    # shellcheck disable=SC2086
    build "$CARRY/wmma-bundles" "abl${i}_${label}" 8192 8192 8192 --accumulate -- --backend=wmma $flags
  done
  # The default config over the square sizes (f32: C = A*B in f32; f16:
  # f16 accumulation).
  for s in 1024 2048 4096 8192 16384; do
    for out in f32 f16; do
      build "$CARRY/wmma-bundles" "d${s}_${out}" $s $s $s --out $out -- --backend=wmma
      # the same with the blocks in row-major order (no raster groups)
      build "$CARRY/wmma-bundles" "d${s}_${out}_r1" $s $s $s --out $out -- --backend=wmma --raster=1
    done
  done
  echo "  $(ls "$CARRY/wmma-bundles" | wc -l) bundles"
fi

if want layouts; then
  rm -rf "$CARRY/layouts-bundles"; mkdir -p "$CARRY/layouts-bundles"
  echo "A/B layouts on sm90 (default config), f16 -> f16 and f16 -> f32:"
  # NN: A [m][k], B [k][n]; NT: B [n][k]; TN: A [k][m]; TT: both.
  for s in 4096 8192; do
    for out in f16 f32; do
      for lay in nn:mk:kn nt:mk:nk tn:km:kn tt:km:nk; do
        IFS=: read -r name al bl <<<"$lay"
        build "$CARRY/layouts-bundles" "l${s}_${out}_${name}" $s $s $s --out $out \
          --a-layout $al --b-layout $bl --
      done
    done
  done
  for lay in nn:mk:kn nt:mk:nk tn:km:kn tt:km:nk; do
    IFS=: read -r name al bl <<<"$lay"
    build "$CARRY/layouts-bundles" "chk_1000x1200x700_${name}" 1000 1200 700 --a-layout $al --b-layout $bl --
  done
  echo "  $(ls "$CARRY/layouts-bundles" | wc -l) bundles"
fi

if want batched; then
  rm -rf "$CARRY/batched-bundles"; mkdir -p "$CARRY/batched-bundles"
  echo "batched matmuls (batch, M, N, K), f16 in, f16/f32 out, default and other block tiles:"
  for shape in 128:384:384:64 128:384:64:384 16:1024:1024:1024 8:2048:2048:2048; do
    IFS=: read -r bb m n k <<<"$shape"
    for out in f16 f32; do
      base="b${bb}x${m}x${n}x${k}_${out}"
      build "$CARRY/batched-bundles" "${base}_def" $m $n $k --batch $bb --out $out --
      for tile in 128,256 128,192 128,128 128,64 64,256 64,128 64,64; do
        IFS=, read -r tm tn <<<"$tile"
        (( tn <= 2 * n && tm <= 2 * m )) || continue
        build "$CARRY/batched-bundles" "${base}_${tm}x${tn}" $m $n $k --batch $bb --out $out \
          -- --block-tile=$tile,64
      done
    done
    # attention's Q K^T: B stored [batch][n][k]
    build "$CARRY/batched-bundles" "b${bb}x${m}x${n}x${k}_f16_nt_def" $m $n $k --batch $bb --out f16 --b-layout nk --
  done
  # correctness: edge tiles, all four layouts, odd N (stores from
  # registers), stream-K and a cluster across a batch
  for lay in nn:mk:kn nt:mk:nk tn:km:kn tt:km:nk; do
    IFS=: read -r name al bl <<<"$lay"
    build "$CARRY/batched-bundles" "chk_3x200x72x104_${name}" 200 72 104 --batch 3 --a-layout $al --b-layout $bl --
  done
  build "$CARRY/batched-bundles" chk_3x200x71x104_nt_f32 200 71 104 --batch 3 --b-layout nk --
  build "$CARRY/batched-bundles" chk_5x333x256x200_f16 333 256 200 --batch 5 --out f16 --
  build "$CARRY/batched-bundles" chk_7x512x512x512_streamk 512 512 512 --batch 7 -- --stream-k=1
  build "$CARRY/batched-bundles" chk_4x512x512x256_cluster 512 512 256 --batch 4 -- --cluster=2,1 --block-tile=128,256,64
  build "$CARRY/batched-bundles" chk_16x1024x1024x1024_f16 1024 1024 1024 --batch 16 --out f16 --
  # M = 1 or N = 1 with the operand stored transposed (read in the other
  # layout)
  build "$CARRY/batched-bundles" chk_1x256x256_tn 1 256 256 --a-layout km --
  build "$CARRY/batched-bundles" chk_256x1x256_nt 256 1 256 --b-layout nk --
  build "$CARRY/batched-bundles" chk_4x1x256x128_tn 1 256 128 --batch 4 --a-layout km --
  echo "  $(ls "$CARRY/batched-bundles" | wc -l) bundles"
fi

if want smallm; then
  rm -rf "$CARRY/smallm-bundles"; mkdir -p "$CARRY/smallm-bundles"
  echo "small M (memory-bound), f16 -> f16: default, stream-K, narrower tiles:"
  for shape in 1:12288:4096 8:12288:4096 32:12288:4096 16:4096:4096 64:4096:4096 16:8192:8192 64:8192:8192; do
    IFS=: read -r m n k <<<"$shape"
    base="m${m}x${n}x${k}"
    build "$CARRY/smallm-bundles" "${base}_def" $m $n $k --out f16 --
    build "$CARRY/smallm-bundles" "${base}_sk" $m $n $k --out f16 -- --stream-k=1
    for tile in 64,64 64,128 64,256; do
      build "$CARRY/smallm-bundles" "${base}_${tile/,/x}" $m $n $k --out f16 -- --block-tile=$tile,64
      build "$CARRY/smallm-bundles" "${base}_${tile/,/x}_sk" $m $n $k --out f16 -- --block-tile=$tile,64 --stream-k=1
    done
  done
  build "$CARRY/smallm-bundles" chk_8x12288x4096_sk 8 12288 4096 --out f16 -- --stream-k=1
  build "$CARRY/smallm-bundles" chk_1x12288x4096_64x64_sk 1 12288 4096 --out f16 -- --block-tile=64,64,64 --stream-k=1
  echo "  $(ls "$CARRY/smallm-bundles" | wc -l) bundles"
fi

# tune_shape NAME GEN_ARGS...: one contraction, all its candidates (small
# M: the swapped kernels too), into carry/tune-dirs/NAME.
tune_shape() {
  local name=$1
  shift
  "$SRC/scripts/gen_matmul.py" "$@" --name "$name" > "$CARRY/mlir/$name.mlir"
  if ! "$TCGEN" tune "$CARRY/mlir/$name.mlir" --target="$TARGET" --top=0 --no-measure \
      -o "$CARRY/tune-dirs/$name" > "$CARRY/mlir/$name.log" 2>&1; then
    echo "  $name failed: $(grep -m1 error "$CARRY/mlir/$name.log" | cut -c1-120)"
  fi
  rm -f "$CARRY/tune-dirs/$name"/*.log "$CARRY/tune-dirs/$name"/*/*.ptx
}
tune_small_m() {
  for shape in 1:12288:4096 8:12288:4096 32:12288:4096 16:4096:4096 64:4096:4096 16:8192:8192 64:8192:8192; do
    IFS=: read -r m n k <<<"$shape"
    tune_shape "m${m}x${n}x${k}" $m $n $k --out f16
  done
}

# tunesmallm: the small-M shapes of tune only (swapped and unswapped
# candidates), for scripts/device-tune.sh.
if want tunesmallm; then
  rm -rf "$CARRY/tune-dirs"; mkdir -p "$CARRY/tune-dirs"
  echo "tune: the small-M shapes, every candidate:"
  tune_small_m
  echo "  $(ls "$CARRY/tune-dirs" | wc -l) shapes, $(ls -d "$CARRY"/tune-dirs/*/c* | wc -l) candidates"
fi

if want tune; then
  rm -rf "$CARRY/tune-dirs"; mkdir -p "$CARRY/tune-dirs"
  echo "tune: every candidate of the model's search space per shape:"
  for s in 512 1024 1536 2048 2560 3072 3584 4096 5120 6144 7168 8192 9216 \
           10240 11264 12288 13312 14336 15360 16384; do
    tune_shape "sq$s" $s $s $s
  done
  for s in 1000 2049 4095 5000 8191; do tune_shape "odd$s" $s $s $s; done
  tune_shape odd3000x5000x700 3000 5000 700
  for s in 4096 8192; do
    tune_shape "nt$s" $s $s $s --b-layout nk
    tune_shape "tn$s" $s $s $s --a-layout km
    tune_shape "tt$s" $s $s $s --a-layout km --b-layout nk
  done
  tune_shape b128x384x384x64 384 384 64 --batch 128 --out f16
  tune_shape b128x384x64x384 384 64 384 --batch 128 --out f16
  tune_shape b16x1024 1024 1024 1024 --batch 16
  tune_shape b8x2048 2048 2048 2048 --batch 8
  tune_small_m
  echo "  $(ls "$CARRY/tune-dirs" | wc -l) shapes, $(ls -d "$CARRY"/tune-dirs/*/c* | wc -l) candidates"
fi

if want colmajor; then
  rm -rf "$CARRY/colmajor-bundles"; mkdir -p "$CARRY/colmajor-bundles"
  echo "column-major C: checks and timings:"
  D="$CARRY/colmajor-bundles"
  for lay in nn:mk:kn nt:mk:nk tn:km:kn tt:km:nk; do
    IFS=: read -r name al bl <<<"$lay"
    build "$D" "chk_cm_1000x1200x700_${name}" 1000 1200 700 --a-layout $al --b-layout $bl --c-layout nm --
  done
  build "$D" chk_cm_333x257x200_f16 333 257 200 --out f16 --c-layout nm --
  build "$D" chk_cm_1x256x256 1 256 256 --c-layout nm --
  build "$D" chk_cm_2048_streamk 2048 2048 2048 --c-layout nm -- --stream-k=1
  build "$D" chk_cm_relu_bias_256x512x128_f16 256 512 128 --out f16 --c-layout nm --epilogue relu-bias --
  # a batch with a column-major C is a linalg.generic
  cat > "$CARRY/mlir/chk_cm_batch.mlir" <<'MLIR'
func.func @chk_cm_batch(%A: memref<3x200x104xf16>, %B: memref<3x104x72xf16>, %C: memref<3x72x200xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<3x72x200xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, n, m)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<3x200x104xf16>, memref<3x104x72xf16>) outs(%C : memref<3x72x200xf32>) {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}
MLIR
  "$TCGEN" compile "$CARRY/mlir/chk_cm_batch.mlir" --target="$TARGET" -o "$D/chk_cm_batch" > /dev/null
  for s in 4096 8192; do
    for out in f32 f16; do
      build "$D" "t${s}_${out}_cm" $s $s $s --out $out --c-layout nm --
      build "$D" "t${s}_${out}_rm" $s $s $s --out $out --
    done
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want staged; then
  rm -rf "$CARRY/staged-bundles"; mkdir -p "$CARRY/staged-bundles"
  echo "staged stores for C rows TMA cannot address:"
  D="$CARRY/staged-bundles"
  for out in f32 f16 bf16; do
    inp=f16; [ $out = bf16 ] && inp=bf16
    build "$D" "chk_st_333x257x200_$out" 333 257 200 --in $inp --out $out -- --store=staged
  done
  build "$D" chk_st_1000x1001x700_nt 1000 1001 700 --b-layout nk -- --store=staged
  build "$D" chk_st_1000x1001x700_tn 1000 1001 700 --a-layout km -- --store=staged
  build "$D" chk_st_1024x4092x512_f16 1024 4092 512 --out f16 -- --store=staged
  build "$D" chk_st_relu_bias_255x257x128_f16 255 257 128 --out f16 --epilogue relu-bias -- --store=staged
  build "$D" chk_st_batch_3x200x71x104 200 71 104 --batch 3 -- --store=staged
  build "$D" chk_st_streamk_2049 2049 2049 2049 -- --store=staged --stream-k=1
  build "$D" chk_st_cluster_1000x1001x512 1000 1001 512 -- --store=staged --cluster=2,1 --block-tile=128,256,64
  build "$D" chk_st_64x128_1000x1001x1000 1000 1001 1000 -- --store=staged --block-tile=64,128,64
  build "$D" chk_st_4095_f32 4095 4095 4095 -- --store=staged
  for shape in 4095:4095:4095:f32 4095:4095:4095:f16 8191:8191:8191:f32 2049:2049:2049:f32 1024:4092:4096:f16 3000:5001:700:f32; do
    IFS=: read -r m n k out <<<"$shape"
    for st in global staged; do
      build "$D" "t${m}x${n}x${k}_${out}_${st}" $m $n $k --out $out -- --store=$st
    done
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want odd; then
  rm -rf "$CARRY/odd-bundles"; mkdir -p "$CARRY/odd-bundles"
  echo "odd and unaligned sizes, default configuration:"
  D="$CARRY/odd-bundles"
  for shape in 1000:1000:1000 2049:2049:2049 4095:4095:4095 5000:5000:5000 8191:8191:8191 3000:5000:700; do
    IFS=: read -r m n k <<<"$shape"
    for out in f32 f16; do
      build "$D" "t${m}x${n}x${k}_${out}" $m $n $k --out $out --
    done
  done
  build "$D" chk_2049_f16 2049 2049 2049 --out f16 --
  build "$D" chk_1000_f32 1000 1000 1000 --
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want oddtiles; then
  # 1000^3 (rows 2000 bytes apart) against 1024^3 with the same tilings, and
  # 1536^3: which tiles, clusters and splits close the gap to cuBLAS
  rm -rf "$CARRY/oddtiles-bundles"; mkdir -p "$CARRY/oddtiles-bundles"
  echo "oddtiles: tilings at 1000^3, 1024^3 and 1536^3 (f16 -> f32):"
  D="$CARRY/oddtiles-bundles"
  for s in 1000 1024 1536; do
    build "$D" "t${s}_def" $s $s $s --
    build "$D" "t${s}_128x128" $s $s $s -- --block-tile=128,128,64
    build "$D" "t${s}_128x128_c21" $s $s $s -- --block-tile=128,128,64 --cluster=2,1
    build "$D" "t${s}_128x128_sk" $s $s $s -- --block-tile=128,128,64 --stream-k=1
    build "$D" "t${s}_64x128_c21" $s $s $s -- --block-tile=64,128,64 --cluster=2,1
    build "$D" "t${s}_128x256_sk" $s $s $s -- --block-tile=128,256,64 --stream-k=1
    build "$D" "t${s}_128x192_c21" $s $s $s -- --block-tile=128,192,64 --cluster=2,1
    build "$D" "t${s}_128x160" $s $s $s -- --block-tile=128,160,64
  done
  build "$D" "t1000_pack" 1000 1000 1000 -- --pack=always
  build "$D" chk_1000_128x128_c21 1000 1000 1000 -- --block-tile=128,128,64 --cluster=2,1
  build "$D" chk_1000_128x128_sk 1000 1000 1000 -- --block-tile=128,128,64 --stream-k=1
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want tall; then
  # Block tiles of 192 rows (three consumer warpgroups): checks of every
  # feature with them, and timings against the default on the square sizes
  # and BERT shapes where their tile counts fill the SMs better
  rm -rf "$CARRY/tall-bundles"; mkdir -p "$CARRY/tall-bundles"
  echo "tall: block tiles of 192 rows (three consumer warpgroups):"
  D="$CARRY/tall-bundles"
  T=(--block-tile=192,128,64)
  build "$D" chk_plain 1536 1536 1536 -- "${T[@]}"
  build "$D" chk_96 1536 1536 1536 -- --block-tile=192,96,64
  build "$D" chk_192 1000 1000 1000 --out f16 -- --block-tile=192,192,64
  build "$D" chk_edges 1001 777 333 -- "${T[@]}"
  build "$D" chk_edges_f16 333 1001 777 --out f16 -- --block-tile=192,96,64
  build "$D" chk_akm 1000 768 512 --a-layout km -- "${T[@]}"
  build "$D" chk_bnk 1000 768 512 --b-layout nk --in bf16 --out bf16 -- "${T[@]}"
  build "$D" chk_tt 777 640 520 --a-layout km --b-layout nk -- --block-tile=192,160,64
  build "$D" chk_acc 1000 1000 1000 --accumulate -- "${T[@]}"
  build "$D" chk_bgr 1000 1000 1000 --out f16 --epilogue bias-gelu-residual -- "${T[@]}"
  build "$D" chk_add_relu 1536 1536 1536 --out f16 --epilogue add-relu -- "${T[@]}"
  build "$D" chk_add_relu_half 1536 1536 1536 --out f16 --epilogue add-relu -- "${T[@]}" --epilogue-in-half
  build "$D" chk_relu_a 1000 1000 1000 --out f16 --prologue relu-a -- "${T[@]}"
  build "$D" chk_batch 384 384 64 --batch 8 --out f16 -- "${T[@]}"
  build "$D" chk_cluster 2048 2048 2048 -- "${T[@]}" --cluster=2,1
  build "$D" chk_cluster12 2048 2048 1024 -- "${T[@]}" --cluster=1,2
  build "$D" chk_streamk 1536 1536 4096 -- "${T[@]}" --stream-k=1
  build "$D" chk_staged 1000 999 512 -- "${T[@]}" --store=staged
  build "$D" chk_global 1000 1000 512 --out f16 -- "${T[@]}" --store=global
  build "$D" chk_tf32 1000 768 512 --in f32 --b-layout nk -- --block-tile=192,128,32 --allow-tf32
  build "$D" chk_fp8 1024 1024 1024 --in e4m3 --out bf16 --b-layout nk -- --block-tile=192,128,128
  build "$D" chk_pack 1000 1000 5000 -- "${T[@]}" --pack=always
  for shape in 1536:1536:1536 2048:2048:2048 2560:2560:2560 3072:3072:3072 4096:4096:4096 8192:8192:8192 3072:1024:1024 3072:4096:1024 3072:1024:4096 1000:1000:1000; do
    IFS=: read -r m n k <<<"$shape"
    b="${m}x${n}x${k}"
    build "$D" "t${b}_def" $m $n $k --
    for n2 in 96 128 160 192; do
      build "$D" "t${b}_192x${n2}" $m $n $k -- --block-tile=192,$n2,64
    done
  done
  rm -rf "$CARRY/san"; mkdir -p "$CARRY/san"
  build "$CARRY/san" tall_edges 400 300 200 -- --block-tile=192,96,64
  build "$CARRY/san" tall_bgr 400 256 200 --out f16 --epilogue bias-gelu-residual -- "${T[@]}"
  build "$CARRY/san" tall_cluster 800 512 256 -- "${T[@]}" --cluster=2,1
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want talldefaults; then
  # The shapes where the model picks a 192-row tile, default against the
  # tile it picked before (f32 and f16 C), checked
  rm -rf "$CARRY/talldefaults-bundles"; mkdir -p "$CARRY/talldefaults-bundles"
  echo "talldefaults: the model's 192-row choices against the earlier ones:"
  D="$CARRY/talldefaults-bundles"
  for out in f32 f16; do
    build "$D" "t2049_${out}_def" 2049 2049 2049 --out $out --
    build "$D" "t2049_${out}_128x192" 2049 2049 2049 --out $out -- --block-tile=128,192,64
    build "$D" "t3072x1024x1024_${out}_def" 3072 1024 1024 --out $out --
    build "$D" "t3072x1024x1024_${out}_64x128" 3072 1024 1024 --out $out -- --block-tile=64,128,64
    build "$D" "t3072x1024x4096_${out}_def" 3072 1024 4096 --out $out --
    build "$D" "t3072x1024x4096_${out}_128x256" 3072 1024 4096 --out $out -- --block-tile=128,256,64
    build "$D" "t3072x1024x4096_${out}_64x128" 3072 1024 4096 --out $out -- --block-tile=64,128,64
  done
  build "$D" chk_2049_def 2049 2049 2049 --out f16 --
  build "$D" chk_3072x1024x4096_def 3072 1024 4096 --out bf16 --in bf16 --
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want fp8tall; then
  # e4m3 -> bf16 with 192-row tiles against the tiles the model picked
  # before them
  rm -rf "$CARRY/fp8tall-bundles"; mkdir -p "$CARRY/fp8tall-bundles"
  echo "fp8tall: e4m3 with 192-row tiles:"
  D="$CARRY/fp8tall-bundles"
  F=(--in e4m3 --out bf16 --b-layout nk)
  for shape in 3072:1024:4096 3072:1024:1024 2048:2048:2048 4096:4096:4096; do
    IFS=: read -r m n k <<<"$shape"
    b="${m}x${n}x${k}"
    build "$D" "t${b}_def" $m $n $k "${F[@]}" --
    build "$D" "t${b}_128x256" $m $n $k "${F[@]}" -- --block-tile=128,256,128
    build "$D" "t${b}_192x128" $m $n $k "${F[@]}" -- --block-tile=192,128,128
    build "$D" "t${b}_192x192" $m $n $k "${F[@]}" -- --block-tile=192,192,128
    build "$D" "t${b}_64x128" $m $n $k "${F[@]}" -- --block-tile=64,128,128
  done
  build "$D" chk_192x192 1000 776 528 "${F[@]}" -- --block-tile=192,192,128
  build "$D" chk_def_3072 3072 1024 4096 "${F[@]}" --
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want batchtiles; then
  # The batched shape that fell short (128 x 384 x 384 x 64, f32 C): tiles
  # that divide 384 against the default's 128x256
  rm -rf "$CARRY/batchtiles-bundles"; mkdir -p "$CARRY/batchtiles-bundles"
  echo "batchtiles: 128 x 384 x 384 x 64 with tiles that divide 384:"
  D="$CARRY/batchtiles-bundles"
  for out in f32 f16; do
    build "$D" "t_${out}_def" 384 384 64 --batch 128 --out $out --
    for t in 128,192 192,128 128,128 64,128 64,192 192,192 128,96; do
      build "$D" "t_${out}_${t/,/x}" 384 384 64 --batch 128 --out $out -- --block-tile=$t,64
    done
  done
  build "$D" chk_192x192 384 384 64 --batch 8 --out f32 -- --block-tile=192,192,64
  # The other shapes where the tie-break towards less padding changes the
  # model's choice, against the tile it picked before
  build "$D" t_b8_512x384x256_def 512 384 256 --batch 8 --b-layout nk --
  build "$D" t_b8_512x384x256_64x256 512 384 256 --batch 8 --b-layout nk -- --block-tile=64,256,64
  build "$D" t_b30_197x200x64_def 197 200 64 --batch 30 --
  build "$D" t_b30_197x200x64_128x192 197 200 64 --batch 30 -- --block-tile=128,192,64
  build "$D" t_b24_256x384x64_def 256 384 64 --batch 24 --
  build "$D" t_b24_256x384x64_128x256 256 384 64 --batch 24 -- --block-tile=128,256,64
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want swapsquares; then
  # cuBLAS's kernels at 1000^3-1536^3 compute C^T (its tiles in its terms:
  # 64x128, 128x64, 192x96): the swapped kernel with those tiles against
  # the default
  rm -rf "$CARRY/swapsquares-bundles"; mkdir -p "$CARRY/swapsquares-bundles"
  echo "swapsquares: swapped kernels at the small squares:"
  D="$CARRY/swapsquares-bundles"
  for s in 1000 1024 1536; do
    for out in f32 f16; do
      build "$D" "t${s}_${out}_def" $s $s $s --out $out --
      for t in 192,96 128,96 128,64 64,128 128,128; do
        build "$D" "t${s}_${out}_swap${t/,/x}" $s $s $s --out $out -- --swap=1 --block-tile=$t,64
      done
    done
  done
  build "$D" chk_swap192x96 1536 1536 1536 -- --swap=1 --block-tile=192,96,64
  build "$D" chk_swap128x64 1000 1000 1000 --out f16 -- --swap=1 --block-tile=128,64,64
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want squares; then
  rm -rf "$CARRY/squares-bundles"; mkdir -p "$CARRY/squares-bundles"
  echo "square sweep 1024..16384, f16 -> f32, default configuration:"
  D="$CARRY/squares-bundles"
  for s in 1024 1536 2048 2560 3072 3584 4096 5120 6144 7168 8192 9216 10240 \
           11264 12288 13312 14336 15360 16384; do
    build "$D" "t$(printf %05d $s)" $s $s $s --
  done
  for s in 1536 5120 8192; do build "$D" "chk_$s" $s $s $s --; done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want accumulate; then
  rm -rf "$CARRY/accumulate-bundles"; mkdir -p "$CARRY/accumulate-bundles"
  echo "C += A*B on sm90:"
  D="$CARRY/accumulate-bundles"
  build "$D" chk_acc_1000x1001x700 1000 1001 700 --accumulate --
  build "$D" chk_acc_333x257x200_f16 333 257 200 --accumulate --out f16 --
  build "$D" chk_acc_1000x1200x700_nt 1000 1200 700 --accumulate --b-layout nk --
  build "$D" chk_acc_1000x1200x700_cm 1000 1200 700 --accumulate --c-layout nm --
  build "$D" chk_acc_2048_streamk 2048 2048 2048 --accumulate -- --stream-k=1
  build "$D" chk_acc_1024x1024x512_cluster 1024 1024 512 --accumulate -- --cluster=2,1 --block-tile=128,256,64
  build "$D" chk_acc_2048_bf16 2048 2048 2048 --accumulate --in bf16 --out bf16 --
  for s in 2048 4096 8192; do
    for out in f32 f16; do
      build "$D" "t${s}_${out}" $s $s $s --accumulate --out $out --
    done
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want prologue; then
  rm -rf "$CARRY/prologue-bundles"; mkdir -p "$CARRY/prologue-bundles"
  echo "fused prologues (relu on A or B): where they run (smem, pack, auto)"
  D="$CARRY/prologue-bundles"
  # PROLOGUE_B=1 adds the prologues on B (unchanged by the register form).
  xs="a"
  [ "${PROLOGUE_B:-0}" = 1 ] && xs="a b"
  for s in 1024 2048 4096 8192; do
    for x in $xs; do
      build "$D" "f${s}_relu_${x}" "$s" "$s" "$s" --out f16 --prologue "relu-$x"
      build "$D" "f${s}_relu_${x}_smem" "$s" "$s" "$s" --out f16 --prologue "relu-$x" -- --prologue=smem
      build "$D" "f${s}_relu_${x}_pack" "$s" "$s" "$s" --out f16 --prologue "relu-$x" -- --prologue=pack
    done
    build "$D" "f${s}_plain" "$s" "$s" "$s" --out f16
  done
  # the prologue on A in registers (the default where it applies): edges
  # and an alignment pack, bf16 with B [n][k], a 1x2 cluster sharing A,
  # stream-K, 64-row tiles, a batch, cp.async A, an f32 C
  build "$D" pchk_regs_odd 1000 777 333 --out f32 --prologue relu-a -- --prologue=regs
  build "$D" pchk_regs_bf16_nk 768 1024 512 --in bf16 --out bf16 --prologue relu-a --b-layout nk -- --prologue=regs
  build "$D" pchk_regs_cluster 2048 2048 1024 --out f16 --prologue relu-a -- --prologue=regs --cluster=1,2
  build "$D" pchk_regs_streamk 1536 1536 4096 --out f32 --prologue relu-a -- --prologue=regs --stream-k=1 --block-tile=128,256,64
  build "$D" pchk_regs_64rows 512 512 2048 --out f32 --prologue relu-a -- --prologue=regs --block-tile=64,128,64
  build "$D" pchk_regs_batch 512 384 256 --batch 3 --prologue relu-a -- --prologue=regs
  build "$D" pchk_regs_async 1000 1024 1000 --out f16 --prologue relu-a -- --prologue=regs --pack=async
  build "$D" pchk_regs_n192 2048 1536 2048 --out f32 --prologue relu-a -- --prologue=regs --block-tile=128,192,64
  # A stored [k][m] (ldmatrix .trans): edges and packs, bf16 with B [n][k],
  # a 1x2 cluster, 64-row and 128 x 192 tiles, a batch; timed against the
  # other two forms with PROLOGUE_KM=1
  build "$D" pchk_regs_km_odd 1001 640 999 --out f16 --prologue relu-a --a-layout km -- --prologue=regs
  build "$D" pchk_regs_km_bf16_nk 768 1024 512 --in bf16 --out bf16 --prologue relu-a --a-layout km --b-layout nk -- --prologue=regs
  build "$D" pchk_regs_km_cluster 2048 2048 1024 --out f16 --prologue relu-a --a-layout km -- --prologue=regs --cluster=1,2
  build "$D" pchk_regs_km_64rows 512 512 2048 --out f32 --prologue relu-a --a-layout km -- --prologue=regs --block-tile=64,128,64
  build "$D" pchk_regs_km_n192 2048 1536 2048 --out f32 --prologue relu-a --a-layout km -- --prologue=regs --block-tile=128,192,64
  build "$D" pchk_regs_km_batch 300 200 136 --batch 2 --out f16 --prologue relu-a --a-layout km -- --prologue=regs
  if [ "${PROLOGUE_KM:-0}" = 1 ]; then
    for s in 1024 2048 4096 8192; do
      build "$D" "f${s}_relu_a_km" "$s" "$s" "$s" --out f16 --prologue relu-a --a-layout km
      build "$D" "f${s}_relu_a_km_smem" "$s" "$s" "$s" --out f16 --prologue relu-a --a-layout km -- --prologue=smem
      build "$D" "f${s}_relu_a_km_pack" "$s" "$s" "$s" --out f16 --prologue relu-a --a-layout km -- --prologue=pack
    done
  fi
  build "$D" pchk_regs_k40 640 768 40 --out f32 --prologue relu-a -- --prologue=regs --block-tile=128,256,64
  build "$D" pchk_regs_k72 640 768 72 --out f16 --prologue relu-a -- --prologue=regs --block-tile=128,256,64
  build "$D" pchk_pack_odd_km 1001 640 999 --out f16 --prologue relu-a --a-layout km -- --prologue=pack
  build "$D" pchk_pack_odd_b 1000 777 333 --out f32 --prologue relu-b -- --prologue=pack
  build "$D" pchk_pack_b_nk 1024 512 768 --out f32 --prologue relu-b --b-layout nk -- --prologue=pack
  build "$D" pchk_pack_bf16 768 1024 512 --in bf16 --out bf16 --prologue relu-a -- --prologue=pack
  # batches: in shared memory and in a (transposed, batched) pack
  build "$D" pchk_batch_a 512 384 256 --batch 3 --prologue relu-a
  build "$D" pchk_batch_b_pack 1024 1024 512 --batch 4 --prologue relu-b --b-layout nk -- --prologue=pack
  build "$D" pchk_batch_a_odd 300 200 130 --batch 2 --out f16 --prologue relu-a --a-layout km
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want epilogueops; then
  rm -rf "$CARRY/epilogueops-bundles"; mkdir -p "$CARRY/epilogueops-bundles"
  echo "every op of the fusion issue's list as a fused epilogue (checks only):"
  echo "512x384x256 into f16, 2048^3 into f32, 1000x777x333 into bf16"
  D="$CARRY/epilogueops-bundles"
  for op in sub mul div max min leaky-relu gelu-erf silu sigmoid tanh exp clamp alpha-beta; do
    for shape in "512 384 256 f16" "2048 2048 2048 f32" "1000 777 333 bf16"; do
      read -r m n k out <<<"$shape"
      nm="e_${op//-/_}_${m}_${out}"
      "$SRC/scripts/gen_epilogue_op.py" "$op" "$m" "$n" "$k" --out "$out" --name "$nm" > "$CARRY/mlir/$nm.mlir"
      "$TCGEN" compile "$CARRY/mlir/$nm.mlir" --target="$TARGET" -o "$D/$nm" > "$CARRY/mlir/$nm.log" 2>&1 \
        || echo "  skipped $nm: $(grep -m1 error "$CARRY/mlir/$nm.log" | cut -c1-120)"
    done
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want dynamic; then
  rm -rf "$CARRY/dynamic-bundles"; mkdir -p "$CARRY/dynamic-bundles/gpu"
  echo "dynamic (sizes known at run time only): bundles for tcgen-gpu-tests"
  echo "(one handle checked at several sizes, a misaligned launch refused) and"
  echo "the same problems compiled static and dynamic for timing"
  G="$CARRY/dynamic-bundles/gpu"
  build "$G" dyn_nn 0 0 0 --dynamic mnk
  build "$G" dyn_f16out 0 0 0 --dynamic mnk --out f16
  build "$G" dyn_bf16_tt 0 0 0 --dynamic mnk --in bf16 --out bf16 --a-layout km --b-layout nk
  build "$G" dyn_nt 0 0 0 --dynamic mnk --b-layout nk
  build "$G" dyn_tn 0 0 0 --dynamic mnk --a-layout km
  build "$G" dyn_colmajor 0 0 0 --dynamic mnk --c-layout nm
  build "$G" dyn_tf32 0 0 0 --dynamic mnk --in f32 --b-layout nk -- --allow-tf32
  build "$G" dyn_m_batch 0 256 512 --dynamic m --batch 4 --out f16
  build "$G" dyn_k 520 264 0 --dynamic k
  build "$G" dyn_cluster 0 0 0 --dynamic mnk -- --cluster=2,1
  build "$G" dyn_tile128 0 0 0 --dynamic mnk -- --block-tile=128,128,64
  D="$CARRY/dynamic-bundles"
  build "$D" dyn 0 0 0 --dynamic mnk
  for shape in 2048x2048x2048 4096x4096x4096 8192x8192x8192 3072x4096x1024 \
               4000x4000x4000; do
    IFS=x read -r m n k <<<"$shape"
    build "$D" "static_$shape" "$m" "$n" "$k"
  done
  echo "  $(ls "$G" | wc -l) + $(( $(ls "$D" | wc -l) - 1 )) bundles"
fi

# build_einsum DEST NAME SPEC SIZE... [-- TCGEN_OPTION...]: like build, from
# scripts/gen_einsum.py.
build_einsum() {
  local dest=$1 name=$2 gen=()
  shift 2
  while [ $# -gt 0 ] && [ "$1" != -- ]; do gen+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  "$SRC/scripts/gen_einsum.py" "${gen[@]}" --name "$name" > "$CARRY/mlir/$name.mlir"
  if ! "$TCGEN" compile "$CARRY/mlir/$name.mlir" --target="$TARGET" -o "$dest/$name" \
      "$@" > "$CARRY/mlir/$name.log" 2>&1; then
    echo "  skipped $name: $(grep -m1 error "$CARRY/mlir/$name.log" | cut -c1-120)"
    rm -rf "${dest:?}/$name"
  fi
}

if want einsum; then
  rm -rf "$CARRY/einsum-bundles"; mkdir -p "$CARRY/einsum-bundles"
  echo "einsum (several batch, M, N or K dimensions collapsed into one each):"
  echo "checks, and attention-score shapes against cublasGemmStridedBatchedEx"
  D="$CARRY/einsum-bundles"
  build_einsum "$D" chk_heads "bhqd,bhkd->bhqk" b=2 h=12 q=384 k=384 d=64 --out f16
  build_einsum "$D" chk_heads_odd "bhqd,bhkd->bhqk" b=3 h=5 q=197 k=200 d=64
  build_einsum "$D" chk_two_k "ikl,klj->ij" i=1000 j=768 k=64 l=32
  build_einsum "$D" chk_two_m "bmk,kn->bmn" b=4 m=250 k=512 n=1024 --out bf16 --in bf16
  build_einsum "$D" chk_two_n "mk,knp->mnp" m=512 k=256 n=16 p=64
  build_einsum "$D" chk_all "bhmk,bhkn->bhmn" b=2 h=3 m=256 k=128 n=128
  build_einsum "$D" t_heads_bert "bhqd,bhkd->bhqk" b=8 h=16 q=384 k=384 d=64 --out f16
  build_einsum "$D" t_heads_512 "bhqd,bhkd->bhqk" b=4 h=16 q=512 k=512 d=64 --out f16
  build_einsum "$D" t_heads_2k "bhqd,bhkd->bhqk" b=2 h=16 q=2048 k=2048 d=128 --out f16
  build_einsum "$D" t_pv_2k "bhqk,bhkd->bhqd" b=2 h=16 q=2048 k=2048 d=128 --out f16
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want pointwise; then
  rm -rf "$CARRY/pointwise-bundles"; mkdir -p "$CARRY/pointwise-bundles"
  echo "pointwise: consumers that are not fused, compiled as kernels of"
  echo "their own (checks of every bundle, matmul and pointwise)"
  D="$CARRY/pointwise-bundles"
  # compile_split NAME MLIR [PREFIX]: each bundle tcgen compile writes gets
  # a directory of its own, <PREFIX><entry> (default chk_).
  compile_split() {
    local tmp="$CARRY/mlir/$1.out" j e p="${3:-chk_}"
    rm -rf "$tmp"
    "$TCGEN" compile "$2" --target="$TARGET" -o "$tmp" > /dev/null 2>&1 || { echo "  skipped $1"; return; }
    for j in "$tmp"/*.json; do
      e=$(basename "$j" .json)
      mkdir -p "$D/$p$e"
      cp "$tmp/$e".* "$D/$p$e/"
    done
  }
  compile_split observable "$SRC/examples/matmul_observable_relu.mlir"
  for spec in "64x48:f32:f16:8" "300x37:f32:f32:1" "1000x1000:bf16:bf16:8" "512x1022:f16:f32:2" \
              "4096x4096:f16:f16:8:t_" "8192x8192:f16:f16:8:t_" "8192x8192:f32:f32:8:t_"; do
    IFS=: read -r shape xt yt w prefix <<<"$spec"
    IFS=x read -r m n <<<"$shape"
    name="pw_${m}x${n}_${xt}_${yt}"
    # Y = tanh(X + bias[j]) * s + D * c[i], computed in f32, next to a
    # small matmul (tcgen compiles functions with a contraction).
    cat > "$CARRY/mlir/$name.mlir" <<MLIR
func.func @$name(%A: memref<128x64xf16>, %B: memref<64x128xf16>, %C: memref<128x128xf32>, %X: memref<${m}x${n}x${xt}>, %bias: memref<${n}x${xt}>, %s: memref<f32>, %D: memref<${m}x${n}x${xt}>, %c: memref<${m}xf32>, %Y: memref<${m}x${n}x${yt}>) {
  %zm = arith.constant 0.0 : f32
  linalg.fill ins(%zm : f32) outs(%C : memref<128x128xf32>)
  linalg.matmul ins(%A, %B : memref<128x64xf16>, memref<64x128xf16>) outs(%C : memref<128x128xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%X, %bias, %s, %D, %c : memref<${m}x${n}x${xt}>, memref<${n}x${xt}>, memref<f32>, memref<${m}x${n}x${xt}>, memref<${m}xf32>) outs(%Y : memref<${m}x${n}x${yt}>) {
  ^bb0(%x: ${xt}, %b: ${xt}, %sc: f32, %d: ${xt}, %cv: f32, %o: ${yt}):
    $( [ "$xt" = f32 ] && echo "%xf = arith.addf %x, %zero0 : f32" || echo "%xf = arith.extf %x : $xt to f32" )
    $( [ "$xt" = f32 ] && echo "%bf = arith.addf %b, %zero0 : f32" || echo "%bf = arith.extf %b : $xt to f32" )
    $( [ "$xt" = f32 ] && echo "%df = arith.addf %d, %zero0 : f32" || echo "%df = arith.extf %d : $xt to f32" )
    %t = arith.addf %xf, %bf : f32
    %g = math.tanh %t : f32
    %u = arith.mulf %g, %sc : f32
    %v = arith.mulf %df, %cv : f32
    %r = arith.addf %u, %v : f32
    $( [ "$yt" = f32 ] && echo "linalg.yield %r : f32" || echo "%ro = arith.truncf %r : f32 to $yt
    linalg.yield %ro : $yt" )
  }
  return
}
MLIR
    sed -i "s/^func.func @$name(\(.*\)) {$/func.func @$name(\1) {\n  %zero0 = arith.constant 0.0 : f32/" "$CARRY/mlir/$name.mlir"
    compile_split "$name" "$CARRY/mlir/$name.mlir" "${prefix:-chk_}"
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want batchepilogue; then
  rm -rf "$CARRY/batchepilogue-bundles"; mkdir -p "$CARRY/batchepilogue-bundles"
  echo "batchepilogue: fused epilogues on a batch (checks; the plain batch"
  echo "next to the same batch with a scale or bias fused)"
  D="$CARRY/batchepilogue-bundles"
  "$TCGEN" compile "$SRC/examples/batched_matmul_scale_mask.mlir" -o "$D/chk_example" > /dev/null
  build "$D" chk_relu_bias 384 320 256 --batch 4 --epilogue relu-bias --out f16 --
  build "$D" chk_add_relu_odd 197 200 72 --batch 5 --epilogue add-relu --
  build "$D" chk_bgr_bf16 256 512 128 --batch 3 --epilogue bias-gelu-residual --in bf16 --out bf16 --
  build "$D" chk_scalar_streamk 1024 1024 1024 --batch 3 --epilogue add-scalar -- --stream-k=1
  build "$D" chk_gelu_cluster 512 512 256 --batch 4 --epilogue gelu-bias --out f16 -- --cluster=2,1 --block-tile=128,256,64
  build "$D" chk_relu_bias_global 300 328 96 --batch 2 --epilogue relu-bias -- --store=global
  for s in "2048 2048 2048 4" "384 384 64 128" "512 512 64 64"; do
    set -- $s
    build "$D" "t${1}x${2}x${3}_b${4}_plain" "$1" "$2" "$3" --batch "$4" --out f16 --
    build "$D" "t${1}x${2}x${3}_b${4}_addscalar" "$1" "$2" "$3" --batch "$4" --out f16 --epilogue add-scalar --
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want bshd; then
  rm -rf "$CARRY/bshd-bundles"; mkdir -p "$CARRY/bshd-bundles"
  echo "bshd: two batch dimensions that do not collapse into one"
  D="$CARRY/bshd-bundles"
  "$TCGEN" compile "$SRC/examples/attention_bshd.mlir" -o "$D/chk_example" > /dev/null
  "$TCGEN" compile "$SRC/examples/attention_bshd_scale_mask.mlir" -o "$D/chk_scale_mask" > /dev/null
  build_einsum "$D" chk_scores "bshd,bthd->bhst" b=2 h=3 s=256 t=384 d=64
  build_einsum "$D" chk_scores_odd "bshd,bthd->bhst" b=3 h=5 s=197 t=200 d=64 --out f16
  build_einsum "$D" chk_pv "bhst,bthd->bshd" b=2 h=3 s=256 t=128 d=64
  build_einsum "$D" chk_mixed "hmbk,bkhn->bmhn" b=2 h=5 m=128 k=64 n=128
  build_einsum "$D" chk_bf16 "bshd,bthd->bhst" b=2 h=4 s=128 t=256 d=128 --in bf16 --out bf16
  build_einsum "$D" chk_b1 "bshd,bthd->bhst" b=1 h=6 s=256 t=256 d=64
  build_einsum "$D" chk_h1 "bshd,bthd->bhst" b=3 h=1 s=128 t=256 d=64
  build_einsum "$D" chk_one_two "bshd,bthd->bhst" b=1 h=1 s=128 t=256 d=64
  build "$D" chk_one_mid 128 256 64 --batch 1 --batch-middle ac --
  build "$D" chk_one_sum 128 256 64 --batch 1 --batch-middle ab --sum-batch --
  build_einsum "$D" chk_cluster "bshd,bthd->bhst" b=2 h=3 s=512 t=512 d=64 -- --cluster=2,1 --block-tile=128,256,64
  build_einsum "$D" chk_streamk "bshd,bthd->bhst" b=2 h=2 s=1024 t=1024 d=512 -- --stream-k=1
  for shape in "8 16 384 384 64" "4 16 512 512 64" "2 16 2048 2048 128"; do
    set -- $shape
    build_einsum "$D" "t_scores_${3}_bshd" "bshd,bthd->bhst" b=$1 h=$2 s=$3 t=$4 d=$5 --out f16
    build_einsum "$D" "t_scores_${3}_bhsd" "bhsd,bhtd->bhst" b=$1 h=$2 s=$3 t=$4 d=$5 --out f16
  done
  build_einsum "$D" t_pv_2048_bshd "bhst,bthd->bshd" b=2 h=16 s=2048 t=2048 d=128 --out f16
  build_einsum "$D" t_pv_2048_bhsd "bhst,bhtd->bhsd" b=2 h=16 s=2048 t=2048 d=128 --out f16
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want bthree; then
  # Three batch dimensions that do not collapse (5-d tensor maps): checks,
  # and timings against cuBLAS on batch-contiguous operands
  rm -rf "$CARRY/bthree-bundles"; mkdir -p "$CARRY/bthree-bundles"
  echo "bthree: three batch dimensions that do not collapse into fewer"
  D="$CARRY/bthree-bundles"
  "$TCGEN" compile "$SRC/examples/einsum_three_batch_scale_mask.mlir" -o "$D/chk_scale_mask" > /dev/null
  build_einsum "$D" chk_three "bmhgk,gbnhk->bhgmn" b=2 h=3 g=4 m=256 n=384 k=64
  build_einsum "$D" chk_three_odd "bmhgk,gbnhk->bhgmn" b=3 h=2 g=5 m=197 n=200 k=72 --out f16
  build_einsum "$D" chk_three_bf16 "gbmhk,bhkgn->bghmn" b=2 h=3 g=2 m=128 n=256 k=128 --in bf16 --out bf16
  build_einsum "$D" chk_three_ones "bmhgk,gbnhk->bhgmn" b=1 h=3 g=1 m=128 n=128 k=64
  build_einsum "$D" chk_three_cluster "bmhgk,gbnhk->bhgmn" b=2 h=2 g=2 m=512 n=512 k=64 -- --cluster=2,1 --block-tile=128,256,64
  build_einsum "$D" chk_three_streamk "bmhgk,gbnhk->bhgmn" b=2 h=2 g=2 m=256 n=256 k=2048 -- --stream-k=1
  build_einsum "$D" t_three_512 "bmhgk,gbnhk->bhgmn" b=2 h=4 g=4 m=512 n=512 k=64 --out f16
  build_einsum "$D" t_three_2k "bmhgk,gbnhk->bhgmn" b=2 h=4 g=2 m=2048 n=2048 k=128 --out f16
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want broadcast; then
  # Several M or N dimensions that do not collapse: batch dimensions that
  # one input lacks (stride 0 in its manifest entry, read at 0): checks in
  # every layout and with the kernel's features, and the attention input
  # projection (head-first output) against cuBLAS
  rm -rf "$CARRY/broadcast-bundles"; mkdir -p "$CARRY/broadcast-bundles"
  echo "broadcast: batch dimensions that one input lacks"
  D="$CARRY/broadcast-bundles"
  "$TCGEN" compile "$SRC/examples/einsum_head_split_bias.mlir" -o "$D/chk_head_split_bias" > /dev/null
  build_einsum "$D" chk_qkv "bsd,dhe->bhse" b=2 s=256 d=128 h=3 e=128
  build_einsum "$D" chk_one "sd,dhe->hse" s=256 d=128 h=3 e=128
  build_einsum "$D" chk_two_m "bmk,kn->mbn" b=4 m=250 k=512 n=1024 --in bf16 --out bf16
  build_einsum "$D" chk_kmajor "bsd,hed->bhse" b=2 s=256 d=128 h=3 e=128
  build_einsum "$D" chk_amajor "bds,dhe->bhse" b=2 s=256 d=128 h=3 e=128 --out f16
  build_einsum "$D" chk_odd "bsd,dhe->bhse" b=3 s=197 d=72 h=5 e=200 --out f16
  build_einsum "$D" chk_three "bsd,dhfe->bhfse" b=2 s=256 d=128 h=3 f=2 e=128
  build_einsum "$D" chk_ones "bsd,dhe->bhse" b=1 s=128 d=64 h=3 e=64
  build_einsum "$D" chk_cluster "bsd,dhe->bhse" b=2 s=512 d=128 h=2 e=256 -- --cluster=2,1 --block-tile=128,256,64
  build_einsum "$D" chk_streamk "bsd,dhe->bhse" b=2 s=256 d=2048 h=2 e=128 -- --stream-k=1
  # heads side by side in N (foldsN): K-major heads of 64 (two boxes per
  # tile), odd M edges with seven heads, a scalar epilogue
  build_einsum "$D" chk_fold_kmajor "bsd,hed->bhse" b=2 s=256 d=128 h=5 e=64 -- --block-tile=128,128,64
  build_einsum "$D" chk_fold_edges "bsd,dhe->bhse" b=3 s=200 d=96 h=7 e=64 --out f16
  build_einsum "$D" chk_fold_cluster_kmajor "bsd,hed->bhse" b=2 s=512 d=128 h=4 e=64 -- --cluster=2,1 --block-tile=128,256,64
  build_einsum "$D" t_qkv_bert "bsd,dhe->bhse" b=8 s=512 d=1024 h=16 e=64 --out f16
  build_einsum "$D" t_qkv_bert_kmajor "bsd,hed->bhse" b=8 s=512 d=1024 h=16 e=64 --out f16
  # the example's scale + bias[e] at the BERT-large sizes (b=8 s=512 d=1024
  # h=16 e=64), heads side by side: a check (the bench takes no baseline
  # for it)
  sed -e 's/2x256x512xf16/8x512x1024xf16/g; s/512x4x64xf16/1024x16x64xf16/g' \
      -e 's/2x4x256x64x/8x16x512x64x/g; s/@einsum_head_split_bias/@qkv_bert_bias/' \
      "$SRC/examples/einsum_head_split_bias.mlir" > "$CARRY/mlir/qkv_bert_bias.mlir"
  "$TCGEN" compile "$CARRY/mlir/qkv_bert_bias.mlir" -o "$D/chk_qkv_bert_bias" > /dev/null
  build_einsum "$D" t_qkv_big "bsd,dhe->bhse" b=4 s=2048 d=4096 h=32 e=128 --out f16
  build_einsum "$D" t_two_m "bmk,kn->mbn" b=8 m=1024 k=4096 n=4096 --out f16
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want wavetiles; then
  # The squares below 0.95 of cuBLAS (1536^3: 120 tiles of 128x160 on 132
  # SMs; 5120^3: 800 tiles of 128x256, 6.06 waves) with tiles whose counts
  # fill whole waves (1536^3 128x144: 132 tiles; 5120^3 128x224: 920, 6.97
  # waves), and their neighbours; the defaults; a check of each new width
  rm -rf "$CARRY/wavetiles-bundles"; mkdir -p "$CARRY/wavetiles-bundles"
  echo "wavetiles: tiles whose counts fill whole waves at 1536^3 and 5120^3"
  D="$CARRY/wavetiles-bundles"
  for out in f16 f32; do
    build "$D" "t1536_${out}_def" 1536 1536 1536 --out $out
    for t in 128,144,64 128,160,64 128,176,64 192,96,64 192,112,64 64,192,64; do
      build "$D" "t1536_${out}_${t//,/x}" 1536 1536 1536 --out $out -- --block-tile=$t
    done
    build "$D" "t5120_${out}_def" 5120 5120 5120 --out $out
    for t in 128,224,64 128,256,64 192,192,64 192,160,64; do
      build "$D" "t5120_${out}_${t//,/x}" 5120 5120 5120 --out $out -- --block-tile=$t --stream-k=0
    done
  done
  build "$D" chk_1536_128x144 1536 1536 1536 --out f16 -- --block-tile=128,144,64
  build "$D" chk_1000_128x144 1000 1000 1000 -- --block-tile=128,144,64
  build "$D" chk_5120_128x224 5120 5120 5120 --out f16 -- --block-tile=128,224,64 --stream-k=0
  build "$D" chk_1000_128x224 1000 1000 1000 -- --block-tile=128,224,64 --stream-k=0
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want randombroadcast; then
  # Random einsums with M or N dimensions that do not collapse (a broadcast
  # batch: s, e the matrix's; b, h batch dimensions that one input lacks;
  # sometimes a kept batch g): random orders in every operand, sizes with
  # primes and 1s, dtypes, tiles; checks only (random-broadcast-<seed>).
  # Draws the compiler refuses (a batch dimension innermost, rows not
  # 16-byte multiples apart) are listed with their error.
  D="$CARRY/random-broadcast-${SEED:-1}-bundles"
  rm -rf "$D"; mkdir -p "$D"
  echo "random broadcast einsums (seed ${SEED:-1}), checks only:"
  python3 - "${SEED:-1}" > "$CARRY/mlir/random-broadcast.txt" <<'PY'
import random, sys
r = random.Random(int(sys.argv[1]))
for i in range(int(sys.argv[2]) if len(sys.argv) > 2 else 24):
    kept = r.random() < 0.25
    extraM, extraN = r.random() < 0.7, r.random() < 0.7
    if not (extraM or extraN):
        extraN = True
    def order(matrix, batch, fixed=False):
        """The batch dimensions in random order, then the matrix's two
        (in random order unless fixed), one batch dimension sometimes
        between them."""
        batch = batch[:]
        r.shuffle(batch)
        if not fixed:
            matrix = r.sample(matrix, 2)
        dims = batch + matrix
        if batch and r.random() < 0.3:
            dims.remove(batch[-1])
            dims.insert(len(dims) - 1, batch[-1])
        return dims
    a = order(["s", "d"], (["b"] if extraM else []) + (["g"] if kept else []))
    b = order(["d", "e"], (["h"] if extraN else []) + (["g"] if kept else []))
    c = order(["s", "e"], (["b"] if extraM else []) + (["h"] if extraN else [])
              + (["g"] if kept else []), fixed=True)
    sizes = {"s": r.choice([1, 7, 64, 128, 197, 256, 333]),
             "e": r.choice([64, 128, 192, 72, 200, 256]),
             "d": r.choice([8, 64, 72, 128, 264, 520]),
             "b": r.choice([1, 2, 3, 5]), "h": r.choice([1, 2, 3, 4, 7]),
             "g": r.choice([1, 2, 3])}
    spec = "".join(a) + "," + "".join(b) + "->" + "".join(c)
    size_args = " ".join(f"{k}={v}" for k, v in sizes.items() if k in spec)
    dtype = r.choice(["f16", "f16", "bf16"])
    out = r.choice(["f32", "f16", dtype])
    flags = r.choice(["", "", "--stream-k=1", "--block-tile=128,128,64",
                      "--block-tile=64,256,64", "--cluster=2,1 --block-tile=128,256,64"])
    print(f"rb{i}|{spec}|{size_args}|--in {dtype} --out {out}|{flags}")
PY
  while IFS='|' read -r name spec sz types flags; do
    # shellcheck disable=SC2086
    build_einsum "$D" "$name" "$spec" $sz $types -- $flags
  done < "$CARRY/mlir/random-broadcast.txt"
  echo "  $(ls "$D" | wc -l) of $(wc -l < "$CARRY/mlir/random-broadcast.txt") draws built"
fi

if want misrows; then
  # Rows 16-byte but not 128-byte multiples apart, read unpacked (1000,
  # 1400, 2000, 2400: 2000-4800-byte rows): the defaults (no tiles of 64
  # rows or columns there) against those tiles and the other sizes'
  # choices; f16 and f32 C; a check of each default
  rm -rf "$CARRY/misrows-bundles"; mkdir -p "$CARRY/misrows-bundles"
  echo "misrows: rows that straddle 128-byte lines"
  D="$CARRY/misrows-bundles"
  for s in 1000 1400 2000 2400; do
    for out in f16 f32; do
      build "$D" "t${s}_${out}_def" $s $s $s --out $out
      for t in 64,128,64 64,256,64 128,64,64 128,128,64 128,192,64 128,256,64; do
        build "$D" "t${s}_${out}_${t//,/x}" $s $s $s --out $out -- --block-tile=$t --stream-k=0
      done
    done
    build "$D" "chk_${s}" $s $s $s
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want dynepilogue; then
  rm -rf "$CARRY/dynepilogue-bundles"; mkdir -p "$CARRY/dynepilogue-bundles/gpu"
  echo "sizes known at run time with a fused epilogue (row, column, scalar"
  echo "and matrix operands) and C += A*B: tcgen-gpu-tests bundles, and timings against the static"
  echo "kernel of the same epilogue"
  D="$CARRY/dynepilogue-bundles"
  "$TCGEN" compile "$SRC/examples/matmul_dynamic_bias_relu.mlir" -o "$D/gpu/dyn_bias_relu" > /dev/null
  "$TCGEN" compile "$SRC/examples/matmul_dynamic_bias_relu.mlir" -o "$D/dyn_bias_relu" > /dev/null
  build "$D/gpu" dyn_fp8_scale 0 0 0 --dynamic mnk --in e4m3 --b-layout nk --out f32 --epilogue scale
  # matrix operands and C += A*B: each row stride a parameter (stride:E0:0)
  build "$D/gpu" dyn_add_relu 0 0 0 --dynamic mnk --out f16 --epilogue add-relu
  build "$D/gpu" dyn_bgr 0 0 0 --dynamic mnk --out f16 --epilogue bias-gelu-residual
  build "$D/gpu" dyn_m_add_relu_f32 0 512 256 --dynamic m --out f32 --epilogue add-relu
  build "$D/gpu" dyn_acc 0 0 0 --dynamic mnk --accumulate
  build "$D/gpu" dyn_acc_nt_bf16 0 0 0 --dynamic mnk --accumulate --in bf16 --b-layout nk
  for s in 2048 4096 8192; do
    build "$D" "static_${s}" "$s" "$s" "$s" --out f16 --epilogue relu-bias
  done
  echo "  $(ls "$D" "$D/gpu" | wc -l) entries"
fi

if want fp8tiles; then
  rm -rf "$CARRY/fp8tiles-bundles"; mkdir -p "$CARRY/fp8tiles-bundles"
  echo "fp8 tiles where the default fell short of cuBLASLt (e4m3 -> bf16)"
  D="$CARRY/fp8tiles-bundles"
  F=(--in e4m3 --out bf16 --b-layout nk)
  for shape in 2048x2048x2048 3072x1024x4096 1024x1024x1024 3072x1024x1024; do
    IFS=x read -r m n k <<<"$shape"
    build "$D" "t${shape}_default" "$m" "$n" "$k" "${F[@]}"
    for tile in 128,256 128,192 128,128 64,256 64,128; do
      build "$D" "t${shape}_${tile/,/x}" "$m" "$n" "$k" "${F[@]}" -- --block-tile="$tile,128"
      build "$D" "t${shape}_${tile/,/x}_c21" "$m" "$n" "$k" "${F[@]}" -- --block-tile="$tile,128" --cluster=2,1
    done
    build "$D" "t${shape}_128x256_sk" "$m" "$n" "$k" "${F[@]}" -- --block-tile=128,256,128 --stream-k=1
    build "$D" "t${shape}_128x128_sk" "$m" "$n" "$k" "${F[@]}" -- --block-tile=128,128,128 --stream-k=1
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want fp8; then
  rm -rf "$CARRY/fp8-bundles"; mkdir -p "$CARRY/fp8-bundles/gpu"
  echo "fp8 (e4m3, e5m2 inputs, A [m][k] and B [n][k]): checks against the"
  echo "float64 reference, dynamic fp8 bundles for tcgen-gpu-tests, and"
  echo "timings against cuBLASLt's fp8 matmul"
  D="$CARRY/fp8-bundles"
  F=(--b-layout nk)
  build "$D" chk_e4m3_odd 1000 776 528 --in e4m3 "${F[@]}"
  build "$D" chk_e4m3_m1 1 512 4096 --in e4m3 "${F[@]}"
  build "$D" chk_e4m3_f16 777 1024 1024 --in e4m3 --out f16 "${F[@]}"
  build "$D" chk_e5m2_bf16 2048 1024 1024 --in e5m2 --out bf16 "${F[@]}"
  build "$D" chk_e4m3_big 4096 4096 4096 --in e4m3 "${F[@]}"
  build "$D" chk_e4m3_scale 2048 1024 4096 --in e4m3 --out f32 --epilogue scale "${F[@]}"
  build "$D" chk_e4m3_batch 512 512 512 --in e4m3 --batch 4 "${F[@]}"
  build "$D" chk_e4m3_cluster 2048 2048 1024 --in e4m3 "${F[@]}" -- --cluster=2,1
  build "$D" chk_e4m3_128 1024 1024 2048 --in e4m3 "${F[@]}" -- --block-tile=128,128,128
  build "$D" chk_e4m3_n16 1024 16 1024 --in e4m3 "${F[@]}"
  build "$D" chk_e4m3_colmajor 1024 768 512 --in e4m3 --a-layout mk --b-layout nk --c-layout nm
  build "$D/gpu" dyn_e4m3 0 0 0 --dynamic mnk --in e4m3 "${F[@]}"
  build "$D/gpu" dyn_e5m2_bf16 0 0 0 --dynamic mnk --in e5m2 --out bf16 "${F[@]}"
  for s in 2048 4096 8192 16384; do
    for out in f32 bf16; do
      build "$D" "t${s}_${out}" "$s" "$s" "$s" --in e4m3 --out "$out" "${F[@]}"
    done
  done
  for nk in 1024x1024 4096x1024 1024x4096; do
    IFS=x read -r n k <<<"$nk"
    build "$D" "tbert_${nk}_bf16" 3072 "$n" "$k" --in e4m3 --out bf16 "${F[@]}"
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want tf32; then
  rm -rf "$CARRY/tf32-bundles"; mkdir -p "$CARRY/tf32-bundles"
  echo "tf32 (f32 A [m][k] and B [n][k] on tensor cores, --allow-tf32): checks,"
  echo "and timings against cuBLAS with CUBLAS_COMPUTE_32F_FAST_TF32"
  D="$CARRY/tf32-bundles"
  T=(--in f32 --b-layout nk)
  build "$D" chk_tf32_odd 1000 777 332 "${T[@]}" -- --allow-tf32
  build "$D" chk_tf32_f16out 768 1024 512 "${T[@]}" --out f16 -- --allow-tf32
  build "$D" chk_tf32_acc 1024 512 768 "${T[@]}" --accumulate -- --allow-tf32
  build "$D" chk_tf32_batch 512 384 256 "${T[@]}" --batch 3 -- --allow-tf32
  build "$D" chk_tf32_relu_bias 1024 1024 512 "${T[@]}" --out f32 --epilogue relu-bias -- --allow-tf32
  build "$D" chk_tf32_cluster 2048 2048 1024 "${T[@]}" -- --allow-tf32 --cluster=2,1
  build "$D" chk_tf32_streamk 1536 1536 4096 "${T[@]}" -- --allow-tf32 --stream-k=1
  build "$D" chk_tf32_64rows 512 512 2048 "${T[@]}" -- --allow-tf32 --block-tile=64,128,32
  build "$D" chk_tf32_k4 256 256 4 "${T[@]}" -- --allow-tf32
  # other layouts: MN-major operands transposed by a pack kernel
  build "$D" chk_tf32_nn 1000 777 332 --in f32 -- --allow-tf32
  build "$D" chk_tf32_tt_k 1000 777 333 --in f32 --a-layout km -- --allow-tf32
  build "$D" chk_tf32_tt 768 1024 516 --in f32 --a-layout km --b-layout nk -- --allow-tf32
  build "$D" chk_tf32_tn_odd 1001 640 330 --in f32 --a-layout km -- --allow-tf32
  for s in 4096 8192; do
    build "$D" "nn${s}" "$s" "$s" "$s" --in f32 -- --allow-tf32
    build "$D" "tt${s}" "$s" "$s" "$s" --in f32 --a-layout km --b-layout nk -- --allow-tf32
  done
  for s in 1024 2048 4096 8192; do
    build "$D" "t${s}" "$s" "$s" "$s" "${T[@]}" -- --allow-tf32
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want dual; then
  rm -rf "$CARRY/dual-bundles"; mkdir -p "$CARRY/dual-bundles"
  echo "add(gemm, gemm): C = A B + A2 B2 in one kernel (checks; timings"
  echo "against 2 x cuBLAS + an add kernel with K1 = K2 = size)"
  D="$CARRY/dual-bundles"
  build "$D" chk_dual_km_nk 1024 768 512 --second-k 256 --a-layout km --b-layout nk
  build "$D" chk_dual_odd 1000 776 333 --second-k 136 --out f16
  build "$D" chk_dual_packs 1000 777 333 --second-k 130 --out f32
  build "$D" chk_dual_bf16 1024 1024 1024 --second-k 512 --in bf16 --out bf16
  build "$D" chk_dual_cluster 2048 2048 1024 --second-k 1024 --out f16 -- --cluster=2,1
  build "$D" chk_dual_streamk 1536 1536 2048 --second-k 2048 -- --stream-k=1 --block-tile=128,256,64
  build "$D" chk_dual_64rows 512 512 512 --second-k 64 -- --block-tile=64,128,64
  build "$D" chk_dual_k2small 1024 1024 1024 --second-k 8
  mkdir -p "$D/chk_dual_relu"
  "$TCGEN" compile "$SRC/examples/add_gemm_gemm_relu.mlir" --target="$TARGET" -o "$D/chk_dual_relu" > /dev/null
  for s in 1024 2048 4096 8192; do
    build "$D" "d${s}" "$s" "$s" "$s" --second-k "$s" --out f16
    # the same work as one plain matmul over K = 2 size, against cuBLAS
    build "$D" "p${s}" "$s" "$s" "$((2 * s))" --out f16
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want random; then
  rm -rf "$CARRY/random-bundles"; mkdir -p "$CARRY/random-bundles"
  echo "random shapes (seed ${SEED:-1}), checks only:"
  python3 - "${SEED:-1}" "${PROLOGUES:-0}" "${FEATURES:-0}" "${SIMT:-0}" "${SWAP:-0}" "${REGS:-0}" "${EPILOGUES:-0}" > "$CARRY/mlir/random.txt" <<'PY'
import random, sys
r = random.Random(int(sys.argv[1]))
def sm90_flags(pick, bounds, tiles):
    """Stream-K, a 2x1 cluster or another block tile, by where pick falls."""
    if pick < bounds[0]:
        return ["--stream-k=1"]
    if pick < bounds[1]:
        return ["--cluster=2,1", "--block-tile=128,256,64"]
    if pick < bounds[2]:
        return ["--block-tile=" + r.choice(tiles)]
    return []
# EPILOGUES=1: every draw a fused epilogue with a matrix operand on sm90
# (add-relu or bias-gelu-residual; read with TMA where epilogue-loads =
# auto applies: mostly sizes whose C rows are 16-byte multiples), random
# dtypes, layouts, tiles, stream-K, clusters and batches (which fall back
# to the fragment loads).
if sys.argv[7] == "1":
    sizes = [8, 16, 64, 72, 136, 256, 504, 1000, 1024, 1536, 2040, 3000, 4096,
             1, 61, 127, 509]
    for i in range(24):
        m, n, k = (r.choice(sizes) for _ in range(3))
        inp = r.choice(["f16", "bf16"])
        args = [str(m), str(n), str(k), "--in", inp, "--out", r.choice(["f32", inp]),
                "--epilogue", r.choice(["add-relu", "bias-gelu-residual"]),
                "--a-layout", r.choice(["mk", "km"]), "--b-layout", r.choice(["kn", "nk"])]
        if r.random() < 0.1:
            args += ["--batch", str(r.choice([2, 3]))]
        flags = sm90_flags(r.random(), (0.1, 0.2, 0.6),
                           ["64,64,64", "128,64,64", "64,256,64", "128,128,64",
                            "128,192,64", "64,128,64", "128,256,64", "128,144,64"])
        print(f"r{i:02d}_{m}x{n}x{k}_epi " + " ".join(args) + " -- " + " ".join(flags))
    sys.exit(0)
# REGS=1: every draw C = relu(A) B on sm90 (the prologue on A, in registers
# where it applies: A stored [m][k]; a fifth A [k][m], which falls back),
# random sizes with edges, dtypes, B layout, tiles, stream-K, clusters,
# batches, an epilogue now and then.
if sys.argv[6] == "1":
    for i in range(24):
        m, n, k = (r.choice([1, 7, 61, 127, 251, 509, 777, 1000, 1536, 2039, 64, 3000])
                   for _ in range(3))
        inp = r.choice(["f16", "bf16"])
        args = [str(m), str(n), str(k), "--in", inp, "--out", r.choice(["f32", inp]),
                "--prologue", "relu-a", "--b-layout", r.choice(["kn", "nk"]),
                "--a-layout", "km" if r.random() < 0.2 else "mk"]
        if r.random() < 0.2:
            args += ["--batch", str(r.choice([2, 3]))]
        pick = r.random()
        flags = []
        if pick < 0.15:
            flags = ["--stream-k=1", "--block-tile=128,256,64"]
        elif pick < 0.25:
            flags = ["--cluster=1,2", "--block-tile=128,256,64"]
        elif pick < 0.5:
            flags = ["--block-tile=" + r.choice(["64,64,64", "128,64,64", "64,256,64",
                                                "128,144,64", "128,192,64", "64,112,64",
                                                "128,256,64"])]
        print(f"r{i:02d}_{m}x{n}x{k}_regs " + " ".join(args) + " -- " + " ".join(flags))
    sys.exit(0)
# SWAP=1: every draw a small M (1..40) on sm90 with --swap=1 (C^T = B^T A^T):
# A stored [m][k] with K a multiple of 8, random B layout, dtypes, C += A*B
# or an epilogue, the default tile or a random one, stream-K now and then.
if sys.argv[5] == "1":
    for i in range(24):
        m = r.choice([1, 2, 3, 5, 7, 8, 13, 16, 24, 31, 32, 40])
        n = r.choice([64, 100, 127, 777, 1000, 1536, 2039, 4093])
        k = r.choice([8, 64, 72, 200, 1000, 1536, 4096])
        inp = r.choice(["f16", "bf16"])
        args = [str(m), str(n), str(k), "--in", inp, "--out", r.choice(["f32", inp]),
                "--b-layout", r.choice(["kn", "nk"])]
        extra = r.random()
        if extra < 0.2:
            args += ["--accumulate"]
        elif extra < 0.5:
            args += ["--epilogue", r.choice(["relu-bias", "add-relu", "bias-gelu-residual"])]
        flags = ["--swap=1"]
        if r.random() < 0.5:
            flags += ["--block-tile=" + r.choice(["64,8,64", "128,8,64", "64,16,64", "128,24,64",
                                                 "128,32,64", "64,40,64", "128,64,64"])]
        if r.random() < 0.15:
            flags += ["--stream-k=1"]
        print(f"r{i:02d}_{m}x{n}x{k}_swap " + " ".join(args) + " -- " + " ".join(flags))
    sys.exit(0)
# SIMT=1: every draw f32 x f32 -> f32 (the simt back end), with its tilings.
simt = sys.argv[4] == "1"
# PROLOGUES=1 turns a fifth of the plain draws into C = relu(A) B (a fused
# prologue) or D = relu(C) + A B (a transformed C); the draws stay the same.
# FEATURES=1 turns the plain draws into prologues on A or B, relu(C) + A B,
# add(gemm, gemm) and tf32 (f32 A [m][k], B [n][k]).
prologues = sys.argv[2] == "1"
features = sys.argv[3] == "1"
sizes = [1, 2, 3, 7, 13, 31, 61, 127, 251, 509, 1021, 2039, 64, 100, 777, 1000,
         1536, 3000, 4093]
for i in range(24):
    m, n, k = (r.choice(sizes) for _ in range(3))
    args = [str(m), str(n), str(k)]
    inp = "f32" if simt else r.choice(["f16", "bf16"])
    out = "f32" if simt else r.choice(["f32", inp])
    args += ["--in", inp, "--out", out]
    args += ["--a-layout", r.choice(["mk", "km"]), "--b-layout", r.choice(["kn", "nk"])]
    extra = r.random()
    if extra < 0.2:
        args += ["--accumulate"]
    elif extra < 0.4:
        args += ["--epilogue", r.choice(["relu-bias", "add-relu", "bias-gelu-residual"])]
    elif extra < 0.5:
        args += ["--c-layout", "nm"]
    elif extra < 0.65:
        args += ["--batch", str(r.choice([2, 3, 5]))]
    elif features and not simt:
        kind = r.choice(["relu-a", "relu-b", "relu-c", "dual", "tf32"])
        if kind in ("relu-a", "relu-b"):
            args += ["--prologue", kind]
        elif kind == "relu-c":
            args += ["--init", "relu-c"]
        elif kind == "dual":
            args += ["--second-k", str(r.choice(sizes))]
        else:
            k4 = (k + 3) // 4 * 4
            args = [str(m), str(n), str(k4), "--in", "f32", "--out", r.choice(["f32", "f16"]),
                    "--b-layout", "nk"]
            print(f"r{i:02d}_{m}x{n}x{k4}_tf32 " + " ".join(args) + " -- --allow-tf32")
            continue
    elif prologues and not simt and extra < 0.75:
        args += ["--prologue", "relu-a"]
    elif prologues and not simt and extra < 0.85:
        args += ["--init", "relu-c"]
    flags = []
    pick = r.random()
    if simt:
        if pick < 0.4:
            flags = r.choice([
                ["--block-tile=128,128,32", "--warp-tile=32,64,32", "--thread-tile=8,8"],
                ["--block-tile=64,128,16", "--warp-tile=32,64,16", "--thread-tile=8,8"],
                ["--block-tile=128,64,8", "--warp-tile=32,32,8", "--thread-tile=8,4"],
                ["--block-tile=64,64,8", "--warp-tile=32,32,8", "--thread-tile=4,8"]])
    else:
        flags = sm90_flags(pick, (0.15, 0.25, 0.35),
                           ["64,64,64", "128,64,64", "64,256,64", "128,144,64",
                            "128,160,64", "64,112,64", "128,208,64"])
    print(f"r{i:02d}_{m}x{n}x{k} " + " ".join(args) + " -- " + " ".join(flags))
PY
  while read -r name args; do
    # shellcheck disable=SC2086
    build "$CARRY/random-bundles" "chk_$name" $args
  done < "$CARRY/mlir/random.txt"
  echo "  $(ls "$CARRY/random-bundles" | wc -l) bundles"
fi

if want sm80; then
  rm -rf "$CARRY/sm80-bundles"; mkdir -p "$CARRY/sm80-bundles"
  echo "sm80 back end (ldmatrix, mma.sync, cp.async, swizzle):"
  D="$CARRY/sm80-bundles"
  S80=(--backend=sm80)
  build "$D" chk_256 256 256 256 -- "${S80[@]}"
  build "$D" chk_1024x512x384_f16 1024 512 384 --out f16 -- "${S80[@]}"
  build "$D" chk_512_acc 512 512 512 --accumulate -- "${S80[@]}"
  build "$D" chk_512_acc_f16 512 768 256 --accumulate --out f16 -- "${S80[@]}"
  build "$D" chk_1024_s2 1024 1024 1024 -- "${S80[@]}" --stages=2
  build "$D" chk_1024_s3 1024 1024 1024 -- "${S80[@]}" --stages=3
  build "$D" chk_1024_s5 1024 1024 1024 -- "${S80[@]}" --stages=5
  build "$D" chk_1024_s8_k96 1024 1024 96 -- "${S80[@]}" --stages=8
  build "$D" chk_1024_pad8 1024 1024 1024 -- "${S80[@]}" --padding=8
  build "$D" chk_1024_128x256 1024 1024 1024 -- "${S80[@]}" --block-tile=128,256,32 --warp-tile=64,64,32
  build "$D" chk_1024_64x64x64 1024 1024 1024 -- "${S80[@]}" --block-tile=64,64,64 --warp-tile=32,32,64
  build "$D" chk_2048x1024x4096 2048 1024 4096 -- "${S80[@]}"
  for s in 1024 2048 4096 8192 16384; do
    n=$(printf %05d $s)
    build "$D" "t${n}_sm80" $s $s $s -- "${S80[@]}"
    build "$D" "t${n}_wmma" $s $s $s -- --backend=wmma
  done
  for s in 4096 8192; do
    for st in 2 3 4 5; do
      build "$D" "st${s}_s${st}" $s $s $s -- "${S80[@]}" --stages=$st
    done
    build "$D" "st${s}_pad8" $s $s $s -- "${S80[@]}" --padding=8
    build "$D" "st${s}_128x256" $s $s $s -- "${S80[@]}" --block-tile=128,256,32 --warp-tile=64,64,32
    build "$D" "st${s}_128x128x64" $s $s $s -- "${S80[@]}" --block-tile=128,128,64 --warp-tile=64,64,64
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want sm80sweep; then
  rm -rf "$CARRY/sm80sweep-bundles"; mkdir -p "$CARRY/sm80sweep-bundles" "$CARRY/san"
  echo "sm80 sweep and tilings:"
  D="$CARRY/sm80sweep-bundles"
  S80=(--backend=sm80)
  for s in $(seq 1024 1024 16384); do
    build "$D" "t$(printf %05d $s)" $s $s $s -- "${S80[@]}"
  done
  for s in 4096 8192; do
    build "$D" "f$s" $s $s $s --out f16 -- "${S80[@]}"
    build "$D" "x${s}_s3" $s $s $s -- "${S80[@]}" --stages=3
    build "$D" "x${s}_w64x32" $s $s $s -- "${S80[@]}" --block-tile=128,128,32 --warp-tile=64,32,32
    build "$D" "x${s}_w32x64" $s $s $s -- "${S80[@]}" --block-tile=128,128,32 --warp-tile=32,64,32
    build "$D" "x${s}_256x128" $s $s $s -- "${S80[@]}" --block-tile=256,128,32 --warp-tile=64,64,32
    build "$D" "x${s}_64x128" $s $s $s -- "${S80[@]}" --block-tile=64,128,32 --warp-tile=32,64,32
    build "$D" "x${s}_r16" $s $s $s -- "${S80[@]}" --raster=16
  done
  build "$D" chk_f16_2048 2048 2048 2048 --out f16 -- "${S80[@]}"
  build "$D" chk_w64x32 1024 1024 1024 -- "${S80[@]}" --block-tile=128,128,32 --warp-tile=64,32,32
  build "$D" chk_256x128 1024 1024 1024 -- "${S80[@]}" --block-tile=256,128,32 --warp-tile=64,64,32
  # compute-sanitizer (scripts/device-sanitize.sh): small shapes
  rm -rf "$CARRY"/san/sm80_*
  build "$CARRY/san" sm80_256_s4 256 256 256 -- "${S80[@]}"
  build "$CARRY/san" sm80_256x256x512_s2 256 256 512 -- "${S80[@]}" --stages=2
  build "$CARRY/san" sm80_256_acc_f16 256 256 256 --accumulate --out f16 -- "${S80[@]}"
  build "$CARRY/san" sm80_256_pad8 256 256 256 -- "${S80[@]}" --padding=8
  echo "  $(ls "$D" | wc -l) bundles, $(ls "$CARRY/san" | wc -l) for the sanitizer"
fi

if want sm80splitk; then
  rm -rf "$CARRY/sm80splitk-bundles"; mkdir -p "$CARRY/sm80splitk-bundles" "$CARRY/san"
  echo "sm80 intra-block split-K:"
  D="$CARRY/sm80splitk-bundles"
  S80=(--backend=sm80)
  build "$D" chk_256x256x512_k2 256 256 512 -- "${S80[@]}" --block-tile=64,64,64 --warp-tile=32,32,32
  build "$D" chk_512x384x1024_k4 512 384 1024 -- "${S80[@]}" --block-tile=64,64,128 --warp-tile=32,32,32
  build "$D" chk_256x512x512_k2_f16 256 512 512 --out f16 -- "${S80[@]}" --block-tile=64,64,64 --warp-tile=32,32,32
  build "$D" chk_1024x1024x4096_k2 1024 1024 4096 -- "${S80[@]}" --block-tile=128,128,64 --warp-tile=64,64,32
  # few tiles, long K: variants named <shape>_<block>_k<splits>
  for shape in 256x256x8192 512x512x8192 256x1024x8192 1024x1024x4096; do
    IFS=x read -r m n k <<<"$shape"
    build "$D" "s${shape}_def" $m $n $k -- "${S80[@]}"
    build "$D" "s${shape}_64x64_k1" $m $n $k -- "${S80[@]}" --block-tile=64,64,32 --warp-tile=32,32,32
    build "$D" "s${shape}_64x64_k2" $m $n $k -- "${S80[@]}" --block-tile=64,64,64 --warp-tile=32,32,32
    build "$D" "s${shape}_64x64_k4" $m $n $k -- "${S80[@]}" --block-tile=64,64,128 --warp-tile=32,32,32
    build "$D" "s${shape}_128x128_k2" $m $n $k -- "${S80[@]}" --block-tile=128,128,64 --warp-tile=64,64,32
  done
  for rep in 1 2 3; do
    for s in 4096 8192; do
      build "$D" "r${rep}_${s}_sm80" $s $s $s -- "${S80[@]}"
      build "$D" "r${rep}_${s}_wmma" $s $s $s -- --backend=wmma
    done
  done
  rm -rf "$CARRY"/san/sm80k_*
  build "$CARRY/san" sm80k_256x256x512_k2 256 256 512 -- "${S80[@]}" --block-tile=64,64,64 --warp-tile=32,32,32
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want sm80epilogue; then
  rm -rf "$CARRY/sm80epilogue-bundles"; mkdir -p "$CARRY/sm80epilogue-bundles" "$CARRY/san"
  echo "sm80 staged epilogue:"
  D="$CARRY/sm80epilogue-bundles"
  S80=(--backend=sm80)
  L=(--block-tile=128,128,32 --warp-tile=64,64,32)
  build "$D" chk_st_256 256 256 256 -- "${S80[@]}" "${L[@]}" --store=staged
  build "$D" chk_st_1024x512x384_f16 1024 512 384 --out f16 -- "${S80[@]}" "${L[@]}" --store=staged
  build "$D" chk_st_k2_f16 256 512 512 --out f16 -- "${S80[@]}" --block-tile=64,64,64 --warp-tile=32,32,32 --store=staged
  build "$D" chk_st_64_f32 512 512 512 -- "${S80[@]}" --block-tile=64,64,32 --warp-tile=32,32,32 --store=staged
  build "$D" chk_def_1024 1024 1024 1024 -- "${S80[@]}"
  for shape in 4096x4096x4096 8192x8192x8192 4096x4096x512 8192x8192x1024; do
    IFS=x read -r m n k <<<"$shape"
    for out in f32 f16; do
      build "$D" "e${shape}_${out}_global" $m $n $k --out $out -- "${S80[@]}" "${L[@]}"
      build "$D" "e${shape}_${out}_staged" $m $n $k --out $out -- "${S80[@]}" "${L[@]}" --store=staged
    done
  done
  for shape in 1024x1024x1024 1024x1024x4096 2048x1024x2048 512x512x8192; do
    IFS=x read -r m n k <<<"$shape"
    build "$D" "d${shape}_default" $m $n $k -- "${S80[@]}"
    build "$D" "d${shape}_128x128" $m $n $k -- "${S80[@]}" "${L[@]}"
  done
  rm -rf "$CARRY"/san/sm80e_*
  build "$CARRY/san" sm80e_256_staged 256 256 256 -- "${S80[@]}" "${L[@]}" --store=staged
  build "$CARRY/san" sm80e_256x512x512_k2_staged_f16 256 512 512 --out f16 -- "${S80[@]}" --block-tile=64,64,64 --warp-tile=32,32,32 --store=staged
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want sm80layouts; then
  rm -rf "$CARRY/sm80layouts-bundles"; mkdir -p "$CARRY/sm80layouts-bundles" "$CARRY/san"
  echo "sm80 layouts:"
  D="$CARRY/sm80layouts-bundles"
  S80=(--backend=sm80)
  L=(--block-tile=128,128,32 --warp-tile=64,64,32)
  for lay in "tn|--a-layout km" "nt|--b-layout nk" "tt|--a-layout km --b-layout nk"; do
    tag=${lay%%|*}; flags=${lay#*|}
    # shellcheck disable=SC2086
    {
      build "$D" "chk_${tag}_512x256x384" 512 256 384 $flags -- "${S80[@]}"
      build "$D" "chk_${tag}_1024x768x512" 1024 768 512 $flags -- "${S80[@]}" "${L[@]}"
      build "$D" "chk_${tag}_f16_pad" 1024 512 256 $flags --out f16 -- "${S80[@]}" "${L[@]}" --padding=8
      build "$D" "chk_${tag}_acc" 512 512 512 $flags --accumulate -- "${S80[@]}" "${L[@]}" --store=global
    }
  done
  for s in 4096 8192; do
    for lay in "nn|" "tn|--a-layout km" "nt|--b-layout nk" "tt|--a-layout km --b-layout nk"; do
      tag=${lay%%|*}; flags=${lay#*|}
      # shellcheck disable=SC2086
      build "$D" "l${s}_${tag}" $s $s $s $flags -- "${S80[@]}"
    done
  done
  rm -rf "$CARRY"/san/sm80l_*
  build "$CARRY/san" sm80l_256_tt 256 256 256 --a-layout km --b-layout nk -- "${S80[@]}" "${L[@]}"
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want sm80bf16; then
  rm -rf "$CARRY/sm80bf16-bundles"; mkdir -p "$CARRY/sm80bf16-bundles" "$CARRY/san"
  echo "sm80 bf16:"
  D="$CARRY/sm80bf16-bundles"
  S80=(--backend=sm80)
  L=(--block-tile=128,128,32 --warp-tile=64,64,32)
  B=(--in bf16)
  build "$D" chk_bf16_512 512 512 512 "${B[@]}" -- "${S80[@]}"
  build "$D" chk_bf16_1024x768x512 1024 768 512 "${B[@]}" -- "${S80[@]}" "${L[@]}"
  build "$D" chk_bf16_acc 512 512 512 "${B[@]}" --accumulate -- "${S80[@]}" "${L[@]}" --store=global
  build "$D" chk_bf16_tt 512 256 384 "${B[@]}" --a-layout km --b-layout nk -- "${S80[@]}"
  build "$D" chk_bf16_tn_128 1024 512 256 "${B[@]}" --a-layout km -- "${S80[@]}" "${L[@]}"
  build "$D" chk_bf16_nt_pad 1024 512 256 "${B[@]}" --b-layout nk -- "${S80[@]}" "${L[@]}" --padding=8
  for s in 4096 8192; do
    build "$D" "b${s}" $s $s $s "${B[@]}" -- "${S80[@]}"
    build "$D" "h${s}" $s $s $s -- "${S80[@]}"
  done
  rm -rf "$CARRY"/san/sm80b_*
  build "$CARRY/san" sm80b_256_bf16 256 256 256 "${B[@]}" -- "${S80[@]}" "${L[@]}"
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want sm80fusion; then
  rm -rf "$CARRY/sm80fusion-bundles"; mkdir -p "$CARRY/sm80fusion-bundles"
  echo "sm80 fused epilogues:"
  D="$CARRY/sm80fusion-bundles"
  S80=(--backend=sm80)
  for s in 1024 2048 4096; do
    for e in relu-bias gelu-bias add-relu add-scalar bias-gelu-residual; do
      build "$D" "f${s}_${e//-/_}" "$s" "$s" "$s" --out f16 --epilogue "$e" -- "${S80[@]}"
    done
    build "$D" "f${s}_plain" "$s" "$s" "$s" --out f16 -- "${S80[@]}"
  done
  build "$D" chk_f32_bias_gelu_residual 512 768 256 --out f32 --epilogue bias-gelu-residual -- "${S80[@]}"
  build "$D" chk_bf16_relu_bias 1024 512 256 --in bf16 --out f32 --epilogue relu-bias -- "${S80[@]}" --block-tile=128,128,32 --warp-tile=64,64,32
  build "$D" chk_tt_add_relu 512 512 1024 --out f16 --epilogue add-relu --a-layout km --b-layout nk -- "${S80[@]}"
  build "$D" chk_128_add_scalar 1024 1024 512 --out f16 --epilogue add-scalar -- "${S80[@]}" --block-tile=128,128,32 --warp-tile=64,64,32
  # the wmma back end with a staged epilogue (fw*: timed with the same
  # baselines), and its plain kernel with either store
  for e in relu-bias gelu-bias add-relu add-scalar bias-gelu-residual; do
    build "$D" "fw2048_${e//-/_}" 2048 2048 2048 --out f16 --epilogue "$e" -- --backend=wmma --store=staged
  done
  build "$D" chk_wmma_f32_add_relu 512 768 256 --out f32 --epilogue add-relu -- --backend=wmma --store=staged
  build "$D" "fw2048_plain" 2048 2048 2048 --out f16 -- --backend=wmma --store=staged
  build "$D" "fw2048_plain_global" 2048 2048 2048 --out f16 -- --backend=wmma
  # prologues: ReLU on A (timed against a ReLU kernel + cuBLAS) or on B;
  # checks in other layouts, with split-K, padding and f32 out
  for s in 1024 2048 4096; do
    build "$D" "f${s}_relu_a" "$s" "$s" "$s" --out f16 --prologue relu-a -- "${S80[@]}"
  done
  build "$D" chk_pro_b 1024 512 768 --out f32 --prologue relu-b -- "${S80[@]}"
  build "$D" chk_pro_a_km_split 512 512 1024 --out f16 --prologue relu-a --a-layout km -- "${S80[@]}"
  build "$D" chk_pro_b_nk_pad 1024 768 256 --out f16 --prologue relu-b --b-layout nk -- "${S80[@]}" --block-tile=128,128,32 --warp-tile=64,64,32 --padding=8
  build "$D" chk_pro_a_global 512 512 512 --out f32 --prologue relu-a -- "${S80[@]}" --store=global
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want sm80random; then
  rm -rf "$CARRY/sm80random-bundles"; mkdir -p "$CARRY/sm80random-bundles"
  echo "random sm80 configurations (seed ${SEED:-1}), checks only:"
  python3 - "${SEED:-1}" > "$CARRY/mlir/sm80random.txt" <<'PY'
import random, sys
r = random.Random(int(sys.argv[1]))
tiles = [None, ("128,128,32", "64,64,32"), ("64,64,32", "32,32,32"),
         ("64,64,64", "32,32,32"), ("64,64,128", "32,32,32"),
         ("128,128,64", "64,64,32"), ("128,256,32", "64,64,32"),
         ("64,128,32", "32,64,32")]
for i in range(40):
    tile = r.choice(tiles)
    bm, bn, bk = (int(x) for x in (tile[0] if tile else "128,128,128").split(","))
    split = tile is not None and bk // int(tile[1].split(",")[2]) > 1
    m = bm * r.randint(1, 12)
    n = bn * r.randint(1, 12)
    k = bk * r.randint(1, 16)
    inp = r.choice(["f16", "bf16"])
    out = "f32" if inp == "bf16" else r.choice(["f32", "f16"])
    args = [str(m), str(n), str(k), "--in", inp, "--out", out,
            "--a-layout", r.choice(["mk", "km"]), "--b-layout", r.choice(["kn", "nk"])]
    store = r.choice(["staged", "global"])
    extra = r.random()
    if extra < 0.2 and not split and tile is not None:
        args += ["--accumulate"]
    elif extra < 0.5:
        args += ["--epilogue", r.choice(["relu-bias", "add-relu", "bias-gelu-residual", "add-scalar"])]
        store = "staged"
    flags = ["--backend=sm80", "--store=" + store]
    if tile:
        flags += ["--block-tile=" + tile[0], "--warp-tile=" + tile[1]]
    if r.random() < 0.5:
        flags += ["--stages=" + str(r.randint(2, 5))]
    if r.random() < 0.25:
        flags += ["--padding=8"]
    print(f"r{i:02d}_{m}x{n}x{k} " + " ".join(args) + " -- " + " ".join(flags))
PY
  while read -r name args; do
    # shellcheck disable=SC2086
    build "$CARRY/sm80random-bundles" "chk_$name" $args
  done < "$CARRY/mlir/sm80random.txt"
  echo "  $(ls "$CARRY/sm80random-bundles" | wc -l) bundles"
fi

if want narrow; then
  rm -rf "$CARRY/narrow-bundles"; mkdir -p "$CARRY/narrow-bundles/gpu"
  echo "narrow: sm90 tiles with N a multiple of 16, not of 64"
  D="$CARRY/narrow-bundles"
  build "$D" chk_1536_144 1536 1536 1536 -- --block-tile=128,144,64
  build "$D" chk_1000x1000x700_144_f16 1000 1000 700 --out f16 -- --block-tile=128,144,64
  build "$D" chk_777x1001x300_144_staged 777 1001 300 -- --block-tile=128,144,64
  build "$D" chk_1024x1040x512_80 1024 1040 512 --out bf16 --in bf16 -- --block-tile=128,80,64
  build "$D" chk_nt_144_c21 1000 1200 700 --b-layout nk -- --block-tile=128,144,64 --cluster=2,1
  build "$D" chk_tn_160_c12 1000 1200 700 --a-layout km -- --block-tile=128,160,64 --cluster=1,2
  build "$D" chk_tt_208_f16 1000 1200 700 --a-layout km --b-layout nk --out f16 -- --block-tile=128,208,64
  build "$D" chk_64x112 500 700 300 -- --block-tile=64,112,64
  build "$D" chk_nn_96_f16 999 1000 333 --out f16 -- --block-tile=128,96,64
  build "$D" chk_nn_176_bf16 1001 1304 520 --in bf16 --out bf16 -- --block-tile=128,176,64
  build "$D" chk_nn_240_dual 700 1000 300 --tensor --second-k 200 -- --block-tile=128,240,64
  build "$D" chk_bias_relu_144 1000 1200 700 --tensor --epilogue relu-bias --out f16 -- --block-tile=128,144,64
  build "$D" chk_bgr_176 1000 1200 700 --tensor --epilogue bias-gelu-residual --out bf16 --in bf16 -- --block-tile=128,176,64
  build "$D" chk_acc_144 1000 1200 700 --accumulate -- --block-tile=128,144,64
  build "$D" chk_global_144 1000 1200 700 -- --block-tile=128,144,64 --store=global
  build "$D" chk_batch_144 384 384 64 --batch 8 --out f16 -- --block-tile=128,144,64
  build "$D" chk_colmajor_144 1000 1200 700 --c-layout nm -- --block-tile=128,144,64
  build "$D" chk_fp8_144 1000 1200 768 --in e4m3 --out bf16 --b-layout nk -- --block-tile=128,144,128
  build "$D" chk_tf32_144 1000 1200 700 --in f32 --b-layout nk -- --allow-tf32 --block-tile=128,144,32
  build "$D" chk_prologue_b_144 1000 1200 700 --tensor --prologue relu-b -- --block-tile=128,144,64
  build "$D" chk_prologue_a_144 1000 1200 700 --tensor --prologue relu-a -- --block-tile=128,144,64 --prologue=smem
  build "$D/gpu" dyn_144 0 0 0 --dynamic mnk -- --block-tile=128,144,64
  # Random sizes, layouts, dtypes and narrow tiles (NSEED picks the draw).
  python3 - "${NSEED:-1}" > "$CARRY/mlir/narrow-random.txt" <<'PY'
import random, sys
r = random.Random(int(sys.argv[1]))
sizes = [1, 7, 61, 127, 130, 251, 509, 777, 1000, 1021, 1536, 2039]
for i in range(16):
    m, n, k = (r.choice(sizes) for _ in range(3))
    inp = r.choice(["f16", "bf16"])
    # (bf16 inputs into an f16 C do not verify as a linalg.matmul.)
    out = r.choice(["f32", "bf16"] if inp == "bf16" else ["f32", "f16"])
    args = [str(m), str(n), str(k), "--in", inp, "--out", out,
            "--a-layout", r.choice(["mk", "km"]), "--b-layout", r.choice(["kn", "nk"])]
    extra = r.random()
    if extra < 0.2:
        args += ["--tensor", "--epilogue", r.choice(["relu-bias", "add-relu", "bias-gelu-residual"])]
    elif extra < 0.3:
        args += ["--accumulate"]
    tile = r.choice(["64,80", "64,112", "128,80", "128,144", "128,160", "128,176", "128,208", "128,240"])
    print(f"nr{i:02d}_{m}x{n}x{k} " + " ".join(args) + f" -- --block-tile={tile},64")
PY
  while read -r name args; do
    # shellcheck disable=SC2086
    build "$D" "chk_$name" $args
  done < "$CARRY/mlir/narrow-random.txt"
  for out in f32 f16; do
    build "$D" "t1536_${out}_default" 1536 1536 1536 --out $out
    for n in 96 144 160 176; do
      build "$D" "t1536_${out}_128x$n" 1536 1536 1536 --out $out -- --block-tile=128,$n,64
    done
    build "$D" "t1536_${out}_128x160_c12" 1536 1536 1536 --out $out -- --block-tile=128,160,64 --cluster=1,2
  done
  build "$D" t2560_f32_default 2560 2560 2560
  for n in 160 208 224; do
    build "$D" "t2560_f32_128x$n" 2560 2560 2560 -- --block-tile=128,$n,64
  done
  build "$D" t5120_f32_default 5120 5120 5120
  for n in 224 240; do
    build "$D" "t5120_f32_128x$n" 5120 5120 5120 -- --block-tile=128,$n,64 --stream-k=0
  done
  build "$D" t1024_f32_default 1024 1024 1024
  for t in 128,80 128,96 64,144; do
    build "$D" "t1024_f32_${t/,/x}" 1024 1024 1024 -- --block-tile=$t,64
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want smallcluster; then
  rm -rf "$CARRY/smallcluster-bundles"; mkdir -p "$CARRY/smallcluster-bundles"
  echo "smallcluster: few tiles with and without clusters"
  D="$CARRY/smallcluster-bundles"
  build "$D" chk_1536_c12 1536 1536 1536 -- --block-tile=128,160,64 --cluster=1,2
  for v in 128,160:1,1 128,160:1,2 128,192:1,1 128,192:1,2; do
    t=${v%%:*}; c=${v#*:}
    build "$D" "t1536_${t/,/x}_c${c/,/}" 1536 1536 1536 -- --block-tile=$t,64 --cluster=$c
  done
  for v in 64,128:1,1 64,128:2,1 128,64:1,1 128,64:1,2; do
    t=${v%%:*}; c=${v#*:}
    build "$D" "t1024_${t/,/x}_c${c/,/}" 1024 1024 1024 -- --block-tile=$t,64 --cluster=$c
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want packone; then
  rm -rf "$CARRY/packone-bundles"; mkdir -p "$CARRY/packone-bundles"
  echo "packone: which operands to pack at the odd sizes"
  D="$CARRY/packone-bundles"
  build "$D" chk_1000_a 1000 1000 1000 -- --pack=a
  build "$D" chk_1000_b_f16 1000 1000 1000 --out f16 -- --pack=b
  for out in f32 f16; do
    for mode in auto a b never; do
      build "$D" "t5000_${out}_$mode" 5000 5000 5000 --out $out -- --pack=$mode
      build "$D" "t5000_${out}_128x256_$mode" 5000 5000 5000 --out $out -- --pack=$mode --block-tile=128,256,64
    done
    for mode in auto b; do
      build "$D" "t3000x5000x700_${out}_$mode" 3000 5000 700 --out $out -- --pack=$mode
    done
  done
  for mode in auto always a b; do
    build "$D" "t1000_f32_$mode" 1000 1000 1000 -- --pack=$mode
  done
  build "$D" t1536_default 1536 1536 1536
  build "$D" t1536_global 1536 1536 1536 -- --store=global
  build "$D" t1536_global_192 1536 1536 1536 -- --store=global --block-tile=128,192,64
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want contraction3d; then
  rm -rf "$CARRY/contraction3d-bundles"; mkdir -p "$CARRY/contraction3d-bundles"
  echo "contraction3d: sums over two K dimensions (summed batches)"
  D="$CARRY/contraction3d-bundles"
  "$TCGEN" compile "$SRC/examples/contraction_3d.mlir" -o "$D/chk_example" > /dev/null
  build "$D" chk_mid_ab 384 320 256 --batch 8 --batch-middle ab --sum-batch --
  build "$D" chk_outer_f16 256 512 128 --batch 3 --sum-batch --out f16 --
  build "$D" chk_mid_b_nt 256 512 128 --batch 3 --batch-middle b --b-layout nk --sum-batch --
  build "$D" chk_mid_a_tn 256 512 128 --batch 3 --batch-middle a --a-layout km --sum-batch --
  build "$D" chk_colmajor_c 256 384 128 --batch 4 --batch-middle ab --c-layout nm --sum-batch --
  build "$D" chk_acc_bf16 200 136 96 --batch 5 --batch-middle ab --in bf16 --out bf16 --accumulate --sum-batch --
  build "$D" chk_ragged_k 300 328 72 --batch 5 --batch-middle ab --sum-batch --
  build "$D" chk_ragged_global 300 328 40 --batch 7 --batch-middle ab --sum-batch -- --store=global
  build "$D" chk_m1 1 512 256 --batch 6 --batch-middle ab --sum-batch --
  build "$D" chk_cluster 512 512 256 --batch 4 --batch-middle ab --sum-batch -- --cluster=2,1 --block-tile=128,256,64
  build "$D" chk_streamk 1024 1024 512 --batch 4 --batch-middle ab --sum-batch -- --stream-k=1
  "$TCGEN" compile "$SRC/examples/contraction_3d_bias_relu.mlir" -o "$D/chk_bias_relu" > /dev/null
  build "$D" chk_tf32 256 384 128 --batch 3 --batch-middle ab --sum-batch --in f32 --b-layout nk -- --allow-tf32
  build "$D" chk_fp8 256 384 128 --batch 3 --batch-middle ab --sum-batch --in e4m3 --b-layout nk --
  # Timings: A[i][k][l] B[l][k][j] (B is permuted for cuBLAS, A is already
  # [i][k l]), and the K dimensions outermost in both (both permuted).
  for s in "4096 4096 256 16" "4096 4096 64 64" "4096 4096 1024 4" "8192 8192 512 16" "2048 2048 64 32"; do
    set -- $s
    build "$D" "t${1}x${2}_l${3}_k${4}_mid" "$1" "$2" "$3" --batch "$4" --batch-middle ab --sum-batch --
  done
  build "$D" t4096x4096_l256_k16_outer 4096 4096 256 --batch 16 --sum-batch --
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want batchmiddle; then
  rm -rf "$CARRY/batchmiddle-bundles"; mkdir -p "$CARRY/batchmiddle-bundles"
  echo "batchmiddle: batches between the matrix dimensions"
  D="$CARRY/batchmiddle-bundles"
  build "$D" chk_ac_nn 384 320 256 --batch 8 --batch-middle ac --
  build "$D" chk_abc_nn_f16 384 320 256 --batch 4 --batch-middle abc --out f16 --
  build "$D" chk_b_nt 256 512 128 --batch 3 --batch-middle b --b-layout nk --
  build "$D" chk_a_tn 256 512 128 --batch 3 --batch-middle a --a-layout km --
  build "$D" chk_abc_tt_bf16 200 136 96 --batch 5 --batch-middle abc --a-layout km --b-layout nk --in bf16 --out bf16 --
  build "$D" chk_c_odd_staged 333 257 200 --batch 3 --batch-middle c --
  build "$D" chk_ac_ragged_global 300 328 72 --batch 2 --batch-middle ac -- --store=global
  build "$D" chk_ac_m1 1 512 256 --batch 6 --batch-middle ac --
  build "$D" chk_ac_cluster 512 512 256 --batch 4 --batch-middle ac -- --cluster=2,1 --block-tile=128,256,64
  build "$D" chk_ac_streamk 1024 1024 1024 --batch 3 --batch-middle ac -- --stream-k=1
  for mid in "" ac abc; do
    build "$D" "t2048x4_${mid:-outer}" 2048 2048 2048 --batch 4 ${mid:+--batch-middle $mid} --out f16 --
    build "$D" "t128x384x384x64_${mid:-outer}" 384 384 64 --batch 128 ${mid:+--batch-middle $mid} --out f16 --
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want simt; then
  rm -rf "$CARRY/simt-bundles"; mkdir -p "$CARRY/simt-bundles"
  echo "simt: f32 on CUDA cores (checks; timings against cuBLAS SGEMM)"
  D="$CARRY/simt-bundles"
  F="--in f32 --out f32"
  # Checks: edges in every dimension, all four A/B layouts, a column-major
  # C, C += A*B, a batch, a fused epilogue, and other tiles.
  build "$D" chk_odd 1000 513 700 $F --
  build "$D" chk_prime 257 131 67 $F --
  build "$D" chk_ones 1 1 1 $F --
  build "$D" chk_k3 129 65 3 $F --
  build "$D" chk_tn 384 256 200 $F --a-layout km --
  build "$D" chk_nt 384 256 200 $F --b-layout nk --
  build "$D" chk_tt_odd 301 259 203 $F --a-layout km --b-layout nk --
  build "$D" chk_colmajor 300 200 100 $F --c-layout nm --
  build "$D" chk_accumulate 512 384 256 $F --accumulate --
  build "$D" chk_batch 192 160 96 $F --batch 5 --
  build "$D" chk_relu_bias 512 512 256 $F --epilogue relu-bias --
  build "$D" chk_bias_gelu_residual 300 260 128 $F --epilogue bias-gelu-residual --
  build "$D" chk_big_tile 1024 1024 512 $F --
  build "$D" chk_t8x4 512 512 128 $F -- --block-tile=128,64,8 --warp-tile=32,32,8 --thread-tile=8,4
  build "$D" chk_bk16_acc 515 517 256 $F --accumulate -- --block-tile=128,128,16 --warp-tile=32,64,16 --thread-tile=8,8
  build "$D" chk_bk32 1024 512 512 $F -- --block-tile=128,128,32 --warp-tile=64,32,32 --thread-tile=8,8
  # Shifted edge blocks (M, N not multiples of the tile but at least one):
  # C += A*B must add each element once; a batch; a wide-tile fused bias.
  build "$D" chk_shift_acc 300 200 100 $F --accumulate --
  build "$D" chk_shift_batch 150 70 64 $F --batch 3 --
  build "$D" chk_shift_relu_bias 1000 1000 1000 $F --epilogue relu-bias -- --block-tile=128,128,32 --warp-tile=32,64,32 --thread-tile=8,8
  # Timings: the model's choice (rankSimtCandidates) at square and odd
  # sizes and a batch; K steps of 16 and 8, and 64x128 blocks of 4 warps,
  # next to it where SIMT_CANDIDATES=1.
  for s in 1000 1024 2048 2049 4095 4096 5000 8191 8192; do
    build "$D" "t${s}_default" $s $s $s $F --
  done
  build "$D" t3000x5000x700_default 3000 5000 700 $F --
  build "$D" t16x1024x1024x1024_default 1024 1024 1024 $F --batch 16 --
  if [ "${SIMT_CANDIDATES:-0}" = 1 ]; then
    for s in 4096 8192; do
      build "$D" "t${s}_bk16" $s $s $s $F -- --block-tile=128,128,16 --warp-tile=32,64,16 --thread-tile=8,8
      build "$D" "t${s}_bk8" $s $s $s $F -- --block-tile=128,128,8 --warp-tile=32,64,8 --thread-tile=8,8
    done
    for s in "2049 2049 2049" "5000 5000 5000" "3000 5000 700" "8192 8192 8192" "1024 1024 1024" "4095 4095 4095"; do
      set -- $s
      build "$D" "t${1}x${2}x${3}_b64x128k16" $1 $2 $3 $F -- --block-tile=64,128,16 --warp-tile=32,64,16 --thread-tile=8,8
      build "$D" "t${1}x${2}x${3}_b128x128k16" $1 $2 $3 $F -- --block-tile=128,128,16 --warp-tile=32,64,16 --thread-tile=8,8
      build "$D" "t${1}x${2}x${3}_b64x64k16" $1 $2 $3 $F -- --block-tile=64,64,16 --warp-tile=32,32,16 --thread-tile=4,8
    done
  fi
  # Small bundles for compute-sanitizer (memcheck, racecheck, synccheck).
  rm -rf "$CARRY/san"; mkdir -p "$CARRY/san"
  build "$CARRY/san" simt_bk32 256 256 128 $F --
  build "$CARRY/san" simt_edges_tt 131 67 45 $F --a-layout km --b-layout nk --
  build "$CARRY/san" simt_batch_acc 64 96 40 $F --batch 3 --accumulate --
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want asynccopy; then
  rm -rf "$CARRY/asynccopy-bundles"; mkdir -p "$CARRY/asynccopy-bundles"
  echo "asynccopy: cp.async loads of rows TMA reads slowly (--pack=async)"
  D="$CARRY/asynccopy-bundles"
  A=(-- --pack=async)
  build "$D" chk_5000_f16 5000 5000 5000 --out f16 "${A[@]}"
  build "$D" chk_5000_128x256 5000 5000 5000 "${A[@]}" --block-tile=128,256,64
  build "$D" chk_1000 1000 1000 1000 "${A[@]}"
  build "$D" chk_1000_tt 1000 1000 1000 --a-layout km --b-layout nk "${A[@]}"
  build "$D" chk_1000_nt 1000 1000 1000 --b-layout nk --out f16 "${A[@]}"
  build "$D" chk_1000_tn 1000 1000 1000 --a-layout km --out bf16 --in bf16 "${A[@]}"
  build "$D" chk_b_only 1024 1000 1024 "${A[@]}"
  build "$D" chk_a_only 1000 1024 1000 --out f16 "${A[@]}"
  build "$D" chk_700 3000 5000 700 --out f16 "${A[@]}"
  build "$D" chk_batch 200 1000 1000 --batch 3 "${A[@]}"
  build "$D" chk_relu_bias 1000 1000 1000 --out f16 --epilogue relu-bias "${A[@]}"
  build "$D" chk_bgr 1000 1000 1000 --epilogue bias-gelu-residual "${A[@]}"
  build "$D" chk_acc 1000 1000 1000 --accumulate "${A[@]}"
  build "$D" chk_m1 1 1000 1000 --out f16 "${A[@]}"
  build "$D" chk_narrow 1000 1000 1000 "${A[@]}" --block-tile=128,160,64
  build "$D" chk_streamk 1000 1000 5000 "${A[@]}" --stream-k=1 --block-tile=128,128,64
  build "$D" chk_k8 1000 1000 8 "${A[@]}"
  build "$D" chk_colmajor 1000 1000 1000 --c-layout nm "${A[@]}"
  build "$D" chk_prologue 1000 1000 1000 --prologue relu-a "${A[@]}" --prologue=smem
  for out in f32 f16; do
    for mode in auto async; do
      build "$D" "t5000_${out}_$mode" 5000 5000 5000 --out $out -- --pack=$mode
      build "$D" "t5000_${out}_128x256_$mode" 5000 5000 5000 --out $out -- --pack=$mode --block-tile=128,256,64
      build "$D" "t1000_${out}_$mode" 1000 1000 1000 --out $out -- --pack=$mode
      build "$D" "t2000_${out}_$mode" 2000 2000 2000 --out $out -- --pack=$mode
      build "$D" "t3000x5000x700_${out}_$mode" 3000 5000 700 --out $out -- --pack=$mode
      build "$D" "t5056x5000x5056_${out}_$mode" 5056 5000 5056 --out $out -- --pack=$mode
      build "$D" "t5000_tt_${out}_$mode" 5000 5000 5000 --a-layout km --b-layout nk --out $out -- --pack=$mode
    done
  done
  # Small bundles for compute-sanitizer.
  rm -rf "$CARRY/san"; mkdir -p "$CARRY/san"
  build "$CARRY/san" async_edges 200 136 200 --out f16 "${A[@]}"
  build "$CARRY/san" async_tt 136 200 72 --a-layout km --b-layout nk "${A[@]}"
  build "$CARRY/san" async_batch 72 136 88 --batch 2 "${A[@]}"
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want swap; then
  rm -rf "$CARRY/swap-bundles"; mkdir -p "$CARRY/swap-bundles"
  echo "swap: C^T = B^T A^T for small M"
  D="$CARRY/swap-bundles"
  S=(--swap=1)
  build "$D" chk_m1 1 12288 4096 --out f16 -- "${S[@]}" --block-tile=128,8,64
  build "$D" chk_m8 8 12288 4096 --out f16 -- "${S[@]}" --block-tile=128,8,64
  build "$D" chk_m16 16 4096 4096 -- "${S[@]}" --block-tile=64,16,64
  build "$D" chk_m32 32 12288 4096 --out f16 -- "${S[@]}" --block-tile=128,32,64
  build "$D" chk_m64 64 4096 4096 --out f16 -- "${S[@]}" --block-tile=128,64,64
  build "$D" chk_m3_edges 3 1000 1000 -- "${S[@]}" --block-tile=128,8,64
  build "$D" chk_m20_edges 20 1000 200 --out f16 -- "${S[@]}" --block-tile=64,24,64
  build "$D" chk_m1_k72 1 300 72 -- "${S[@]}" --block-tile=64,8,64
  build "$D" chk_nk 16 1000 512 --b-layout nk -- "${S[@]}" --block-tile=128,16,64
  build "$D" chk_bf16 16 1000 512 --in bf16 --out bf16 -- "${S[@]}" --block-tile=128,16,64
  build "$D" chk_relu_bias 16 1000 512 --out f16 --epilogue relu-bias -- "${S[@]}" --block-tile=128,16,64
  build "$D" chk_bgr 5 1000 512 --epilogue bias-gelu-residual -- "${S[@]}" --block-tile=128,8,64
  build "$D" chk_acc 16 1000 512 --accumulate -- "${S[@]}" --block-tile=128,16,64
  build "$D" chk_m64_tma 64 1000 512 -- "${S[@]}" --block-tile=128,64,64
  # The default (swapped where M <= 32) on the small-M shapes.
  build "$D" chk_def_m1 1 12288 4096 --out f16 --
  build "$D" chk_def_m16 16 8192 8192 --
  build "$D" chk_def_m7_bias 7 2000 1000 --out f16 --epilogue relu-bias --
  # M = 1 with GELU epilogues (swapped by default since the epilogue skips
  # the pair's second element, past C), f16 and f32 out, and an edge
  build "$D" chk_def_m1_bgr 1 12288 4096 --out f16 --epilogue bias-gelu-residual --
  build "$D" chk_def_m1_gelu_f32 1 4096 1024 --epilogue gelu-bias --
  build "$D" chk_m1_bgr_edges 1 1000 200 --out f16 --epilogue bias-gelu-residual -- "${S[@]}" --block-tile=64,8,64
  for shape in 1:12288:4096 8:12288:4096 32:12288:4096 16:4096:4096 64:4096:4096 16:8192:8192 64:8192:8192; do
    IFS=: read -r m n k <<<"$shape"
    base="m${m}x${n}x${k}"
    w=$(( m < 8 ? 8 : m ))
    build "$D" "t${base}_def" $m $n $k --out f16 --
    build "$D" "t${base}_noswap" $m $n $k --out f16 -- --swap=0
    if [ "${SWAP_TILES:-0}" = 1 ]; then
      build "$D" "t${base}_s128" $m $n $k --out f16 -- "${S[@]}" --block-tile=128,$w,64
      build "$D" "t${base}_s64" $m $n $k --out f16 -- "${S[@]}" --block-tile=64,$w,64
    fi
  done
  rm -rf "$CARRY/san"; mkdir -p "$CARRY/san"
  build "$CARRY/san" swap_m3 3 200 136 -- "${S[@]}" --block-tile=128,8,64
  build "$CARRY/san" swap_bgr 5 136 72 --epilogue bias-gelu-residual -- "${S[@]}" --block-tile=64,8,64
  build "$CARRY/san" swap_m1_bgr 1 136 72 --out f16 --epilogue bias-gelu-residual -- "${S[@]}" --block-tile=64,8,64
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want skorder; then
  # Stream-K ranges walked last item first (every block starts at k-tile 0)
  # against data-parallel tiles and, with TCGEN_OLD set (a compiler from
  # before the change), the first-to-last walk (o_ bundles); 128x256 tiles
  # where the last wave is partial (5120^3: 6.06 waves; 2560^3 1.5; 3584^3
  # 2.97; 1536 x 1536 x 4096: 72 tiles, all split); checks of odd sizes,
  # one wave or less, f16 C, a batch, a fused epilogue and a swapped kernel
  rm -rf "$CARRY/skorder-bundles"; mkdir -p "$CARRY/skorder-bundles"
  echo "skorder: stream-K walk order"
  D="$CARRY/skorder-bundles"
  for shape in 5120x5120x5120 2560x2560x2560 3584x3584x3584 1536x1536x4096 7168x7168x7168 \
               2048x2048x8192; do
    IFS=x read -r m n k <<<"$shape"
    for out in f32 f16; do
      [ "$out" = f16 ] && [ "$shape" != 5120x5120x5120 ] && continue
      for sk in 0 1; do
        build "$D" "t_${shape}_${out}_sk${sk}" "$m" "$n" "$k" --out "$out" \
          -- --block-tile=128,256,64 --stream-k=$sk
      done
      build_old "$D" "t_${shape}_${out}_o" "$m" "$n" "$k" --out "$out" \
        -- --block-tile=128,256,64 --stream-k=1
    done
  done
  build "$D" chk_2049 2049 2049 2049 -- --block-tile=128,256,64 --stream-k=1
  build "$D" chk_1000x776x5000 1000 776 5000 --out f16 -- --block-tile=128,128,64 --stream-k=1
  build "$D" chk_300x200x9000 300 200 9000 -- --block-tile=128,128,64 --stream-k=1
  build "$D" chk_5120_f16 5120 5120 5120 --out f16 -- --stream-k=1
  build "$D" chk_b3_1536 1536 1536 1536 --batch 3 -- --block-tile=128,256,64 --stream-k=1
  build "$D" chk_bias_relu 2560 2560 2560 --epilogue relu-bias -- --block-tile=128,256,64 --stream-k=1
  build "$D" chk_swap_m8 8 4096 8192 -- --swap=1 --stream-k=1
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want swapmodel; then
  # The model's swapped default for a larger M with an f32 C (192x96 swapped
  # at 1536 x 1536 x K, B [k][n] and [n][k]) against --swap=0; f16 C stays
  # unswapped; checks of the swapped default with odd sizes and an epilogue
  rm -rf "$CARRY/swapmodel-bundles"; mkdir -p "$CARRY/swapmodel-bundles"
  echo "swapmodel: swapped defaults the model predicts"
  D="$CARRY/swapmodel-bundles"
  for k in 512 1536 4096; do
    for lay in kn nk; do
      build "$D" "t_1536x1536x${k}_${lay}_def" 1536 1536 $k --b-layout $lay --
      build "$D" "t_1536x1536x${k}_${lay}_noswap" 1536 1536 $k --b-layout $lay -- --swap=0
    done
  done
  build "$D" t_1536_f16_def 1536 1536 1536 --out f16 --
  build "$D" chk_1536_kn 1536 1536 1536 --
  build "$D" chk_1536_nk 1536 1536 1536 --b-layout nk --
  build "$D" chk_1536_bias_relu 1536 1536 1536 --epilogue relu-bias --
  build "$D" chk_1536x1536x520 1536 1536 520 --
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want twok; then
  # 2048^3 (0.97-0.98 of cuBLAS, 128 tiles of 128x256): raster groups,
  # clusters, stores from registers, other tiles, swapped tiles
  rm -rf "$CARRY/twok-bundles"; mkdir -p "$CARRY/twok-bundles"
  echo "twok: 2048^3 variants"
  D="$CARRY/twok-bundles"
  while IFS='|' read -r name flags; do
    # shellcheck disable=SC2086
    build "$D" "t_2048_$name" 2048 2048 2048 -- $flags
  done <<'V'
def|
c21|--cluster=2,1
c12|--cluster=1,2 --block-tile=128,256,64
t128x192|--block-tile=128,192,64
t192x128|--block-tile=192,128,64
glob|--store=global
r4|--raster=4
r16|--raster=16
swap192|--swap=1 --block-tile=192,96,64
swap128|--swap=1 --block-tile=128,128,64
V
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want squares16; then
  # The square sweep with 16-bit outputs: f16 in and out, bf16 in and out
  # (default configuration; checks at 1536, 5120, 8192)
  rm -rf "$CARRY/squares16-bundles"; mkdir -p "$CARRY/squares16-bundles"
  echo "squares16: the square sweep with f16 and bf16 C"
  D="$CARRY/squares16-bundles"
  for s in 1024 1536 2048 2560 3072 3584 4096 5120 6144 7168 8192 9216 10240 \
           11264 12288 13312 14336 15360 16384; do
    build "$D" "t_f16_$(printf %05d $s)" $s $s $s --out f16 --
    build "$D" "t_bf16_$(printf %05d $s)" $s $s $s --in bf16 --out bf16 --
  done
  for s in 1536 5120; do
    build "$D" "chk_f16_$s" $s $s $s --out f16 --
    build "$D" "chk_bf16_$s" $s $s $s --in bf16 --out bf16 --
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want bigsquares; then
  # 6144^3, 7168^3 and 8192^3 (f32 C): the default against raster groups of
  # 4 and 16 and 2x1 / 1x2 clusters (B / A multicast: less L2 traffic, less
  # power under the cap?)
  rm -rf "$CARRY/bigsquares-bundles"; mkdir -p "$CARRY/bigsquares-bundles"
  echo "bigsquares: raster and clusters at 6144-8192"
  D="$CARRY/bigsquares-bundles"
  for s in 6144 7168 8192; do
    build "$D" "t_${s}_def" $s $s $s --
    build "$D" "t_${s}_r4" $s $s $s -- --raster=4
    build "$D" "t_${s}_r16" $s $s $s -- --raster=16
    build "$D" "t_${s}_c21" $s $s $s -- --cluster=2,1 --block-tile=128,256,64
    build "$D" "t_${s}_c12" $s $s $s -- --cluster=1,2 --block-tile=128,256,64
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want swapstore; then
  # Swapped kernels with a 16-bit C stored through the TMA chunks, each 8x8
  # block transposed by stmatrix (--store=tma) against stores from
  # registers and the unswapped default; checks with edges, epilogues,
  # stream-K, bf16 and M = 64
  rm -rf "$CARRY/swapstore-bundles"; mkdir -p "$CARRY/swapstore-bundles"
  echo "swapstore: transposed TMA stores of swapped kernels"
  D="$CARRY/swapstore-bundles"
  for s in 1024 1536 2048; do
    for ty in f16 bf16; do
      build "$D" "t_${s}_${ty}_def" $s $s $s --in $ty --out $ty --
      for t in 192,96,64 128,128,64 192,128,64 64,128,64; do
        build "$D" "t_${s}_${ty}_sw${t//,/x}_tma" $s $s $s --in $ty --out $ty -- --swap=1 --store=tma --block-tile=$t
      done
      build "$D" "t_${s}_${ty}_sw192x96x64_glob" $s $s $s --in $ty --out $ty -- --swap=1 --block-tile=192,96,64
    done
  done
  build "$D" t_1536x1536x4096_f16_def 1536 1536 4096 --out f16 --
  build "$D" t_1536x1536x4096_f16_sw192x96x64_tma 1536 1536 4096 --out f16 -- --swap=1 --store=tma --block-tile=192,96,64
  build "$D" chk_1536_f16 1536 1536 1536 --out f16 -- --swap=1 --store=tma --block-tile=192,96,64
  build "$D" chk_1000x1000x520 1000 1000 520 --out f16 -- --swap=1 --store=tma --block-tile=192,96,64
  build "$D" chk_777x1000x264_bf16 777 1000 264 --in bf16 --out bf16 -- --swap=1 --store=tma --block-tile=128,128,64
  build "$D" chk_300x136x200 300 136 200 --out f16 -- --swap=1 --store=tma --block-tile=128,64,64
  build "$D" chk_64x4096x1024 64 4096 1024 --out f16 -- --swap=1 --store=tma --block-tile=128,64,64
  build "$D" chk_bias_relu 1536 1536 1536 --out f16 --epilogue relu-bias -- --swap=1 --store=tma --block-tile=192,96,64
  build "$D" chk_gelu_res 1000 1536 520 --out f16 --epilogue bias-gelu-residual -- --swap=1 --store=tma --block-tile=192,96,64
  build "$D" chk_streamk 512 1536 8192 --out f16 -- --swap=1 --store=tma --block-tile=128,128,64 --stream-k=1
  build "$D" chk_nk 1536 1000 776 --out f16 --b-layout nk -- --swap=1 --store=tma --block-tile=192,96,64
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want st1536; then
  # 1536^3: rings and stores (entries share the name "a"; the bench's CSV
  # rows follow the bundles' sorted names)
  rm -rf "$CARRY/st1536-bundles"; mkdir -p "$CARRY/st1536-bundles"
  echo "st1536: rings and stores at 1536^3"
  D="$CARRY/st1536-bundles"
  "$SRC/scripts/gen_matmul.py" 1536 1536 1536 --out f16 --name a > "$CARRY/mlir/a16.mlir"
  "$SRC/scripts/gen_matmul.py" 1536 1536 1536 --name a > "$CARRY/mlir/a32.mlir"
  while IFS='|' read -r name flags ty; do
    # shellcheck disable=SC2086
    "$TCGEN" compile "$CARRY/mlir/a$ty.mlir" --target="$TARGET" -o "$D/t_$name" $flags > /dev/null
  done <<'V'
f16_def||16
f16_128x160_glob|--store=global --block-tile=128,160,64|16
f16_128x160_glob_s4|--store=global --block-tile=128,160,64 --stages=4|16
f16_sw192x96_tma|--swap=1 --store=tma --block-tile=192,96,64|16
f16_sw192x96_glob|--swap=1 --block-tile=192,96,64|16
f16_sw192x96_glob_s4|--swap=1 --block-tile=192,96,64 --stages=4|16
f32_def||32
f32_sw192x96_s4|--swap=1 --block-tile=192,96,64 --stages=4|32
f32_sw192x96_s5|--swap=1 --block-tile=192,96,64 --stages=5|32
f16_128x192_glob|--store=global --block-tile=128,192,64|16
V
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want gap; then
  # Kernels whose benchmark time differs from their time alone (for
  # scripts/device-gap.sh): 1536^3 with 16- and 32-bit C, 2048^3 as a control
  rm -rf "$CARRY/gap-bundles"; mkdir -p "$CARRY/gap-bundles"
  echo "gap: benchmark against solo and ncu times"
  D="$CARRY/gap-bundles"
  build "$D" g1536_f16 1536 1536 1536 --out f16 --
  build "$D" g1536_f32 1536 1536 1536 --
  build "$D" g1536_f16_sw 1536 1536 1536 --out f16 -- --swap=1 --store=tma --block-tile=192,96,64
  build "$D" g2048_f16 2048 2048 2048 --out f16 --
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want gap2048; then
  # 2048^3 f16 C for scripts/device-gap.sh: the default (128x256, 4 stages,
  # 230 KiB) against 3 stages, stores from registers, no persistence and a
  # 2x1 cluster (where the benchmark's extra time over ncu's comes from)
  rm -rf "$CARRY/gap-bundles"; mkdir -p "$CARRY/gap-bundles"
  echo "gap2048: 2048^3 variants for the benchmark-against-ncu gap"
  build_rows "$CARRY/gap-bundles" g2048_ <<'V'
def|2048 2048 2048 --out f16|
s3|2048 2048 2048 --out f16|--block-tile=128,256,64 --stages=3
glob|2048 2048 2048 --out f16|--block-tile=128,256,64 --store=global
np|2048 2048 2048 --out f16|--persistent=0
c21|2048 2048 2048 --out f16|--cluster=2,1
V
  echo "  $(ls "$CARRY/gap-bundles" | wc -l) bundles"
fi

if want b2b; then
  # Default kernels at the one- and two-wave squares, timed one launch per
  # event pair and ten back to back (tcgen-gpu bench --back-to-back): what
  # a launch costs between events against in a stream of launches
  rm -rf "$CARRY/b2b-bundles"; mkdir -p "$CARRY/b2b-bundles"
  echo "b2b: defaults at 1024^3-4096^3, f16 and f32 C"
  build_rows "$CARRY/b2b-bundles" b_ <<'V'
1024_f16|1024 1024 1024 --out f16|
1024_f32|1024 1024 1024 --out f32|
1536_f16|1536 1536 1536 --out f16|
2048_f16|2048 2048 2048 --out f16|
2048_f32|2048 2048 2048 --out f32|
3072_f16|3072 3072 3072 --out f16|
4096_f16|4096 4096 4096 --out f16|
V
  echo "  $(ls "$CARRY/b2b-bundles" | wc -l) bundles"
fi

if want desc; then
  # wgmma descriptors built once per k-tile and advanced in their low word
  # (one 32-bit add a k-step): new defaults (t_*_n, checked: chk_*) against
  # the old compiler's (TCGEN_OLD: t_*_o), and 7168^3 in clusters for ncu
  rm -rf "$CARRY/desc-bundles"; mkdir -p "$CARRY/desc-bundles"
  echo "desc: descriptor low words, new defaults against old"
  D="$CARRY/desc-bundles"
  build_new_old "$D" n 1024x1024x1024 1536x1536x1536 2048x2048x2048 \
    4096x4096x4096 7168x7168x7168 8192x8192x8192 3072x1024x4096
  build_rows "$D" chk_ <<'V'
nt|1000 1100 700 --out f16 --b-layout nk|
tn|1000 1100 700 --out f32 --a-layout km|
tt|1000 1100 700 --in bf16 --out bf16 --a-layout km --b-layout nk|
rb1536|1536 1536 1536 --out f16|
rb_edges|1472 1500 1000 --out f32|--swap=1 --block-tile=192,96,64 --warp-tile=192,96,64
cl21|2000 2048 1000 --out f16|--cluster=2,1
cl12|2048 2000 1000 --out f32|--cluster=1,2
relu_a|1000 1000 1000 --out f16 --tensor --prologue relu-a|
dual|1000 1000 512 --out f32 --second-k 512|
batch|700 800 300 --out f16 --batch 3|
colmajor|1000 1100 700 --out f32 --c-layout nm|
tf32|1000 1000 500 --in f32 --out f32|--allow-tf32
fp8|1024 1024 1024 --in e4m3 --out f16 --b-layout nk|
streamk|2048 2048 4096 --out f32|--stream-k=1
odd|1001 999 777 --out f16|
resid|1536 1536 1536 --out f16 --tensor --epilogue bias-gelu-residual|
V
  build "$D" "k7_c21" 7168 7168 7168 --out f16 -- --cluster=2,1
  build "$D" "k7_c12" 7168 7168 7168 --out f16 -- --cluster=1,2
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want rastdef; then
  # The model's raster groups (16 tile rows where a wave spans fewer bytes):
  # new defaults (t_*_n, checked: chk_*) against the old compiler's
  # (TCGEN_OLD: t_*_o)
  rm -rf "$CARRY/rastdef-bundles"; mkdir -p "$CARRY/rastdef-bundles"
  echo "rastdef: raster groups of the model, new defaults against old"
  D="$CARRY/rastdef-bundles"
  build_new_old "$D" n 1792x1792x1792 2560x2560x2560 3072x3072x3072 \
    3584x3584x3584 4096x4096x4096 6144x6144x6144 7168x7168x7168 \
    8192x8192x8192 12288x12288x12288 3072x4096x1024 2048x5120x13824
  build_rows "$D" chk_ <<'V'
edges|3001 7001 1000 --out f32|
batch|2000 4096 512 --out f16 --batch 2|
cl21|4000 4096 512 --out f16|--cluster=2,1 --raster=16
bf16|4096 4096 1024 --in bf16 --out bf16 --b-layout nk|
resid|4096 4096 1024 --out f16 --tensor --epilogue bias-gelu-residual|
V
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want raster; then
  # Raster groups of 4-32 tile rows at the multi-wave squares: DRAM and L2
  # traffic (scripts/device-ncu-power.sh) and time against cuBLAS
  rm -rf "$CARRY/raster-bundles"; mkdir -p "$CARRY/raster-bundles"
  echo "raster: raster groups at 4096^3-8192^3"
  D="$CARRY/raster-bundles"
  for s in 4096 6144 7168 8192; do
    for r in 4 8 16 32; do
      build "$D" "t_${s}_r$r" "$s" "$s" "$s" --out f16 -- --raster=$r
    done
  done
  build "$D" t_7168_c21_r16 7168 7168 7168 --out f16 -- --cluster=2,1 --raster=16
  build "$D" chk_r16_edges 3000 7000 1000 --out f32 -- --raster=16
  build "$D" chk_r32_cl 4000 4096 512 --out f16 -- --raster=32 --cluster=2,1
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want l2promo; then
  # 7168^3 f16 C (the default) with A's and B's tensor maps promoting L2
  # fetches to 256 B (as compiled), 128 B or not at all: the manifest's
  # l2_promotion edited (scripts/device-ncu-power.sh, then bench each)
  rm -rf "$CARRY/l2promo-bundles"; mkdir -p "$CARRY/l2promo-bundles"
  echo "l2promo: 7168^3 with A and B maps at 256B, 128B and no L2 promotion"
  D="$CARRY/l2promo-bundles"
  build "$D" p7_256B 7168 7168 7168 --out f16 --
  for v in 128B none; do
    cp -r "$D/p7_256B" "$D/p7_$v"
    sed -i '/"operand": "[AB]"/,/"l2_promotion"/ s/"l2_promotion": "256B"/"l2_promotion": "'"$v"'"/' \
      "$D/p7_$v/p7_256B_kernel.json"
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want kline7168; then
  # 7168 x 7168 x K with the default tile (128x256, 4 stages, 12 waves):
  # time = per-tile fixed cost (prologue, epilogue) + per-k-tile cost,
  # fitted for the kernel and for cuBLAS
  rm -rf "$CARRY/kline7168-bundles"; mkdir -p "$CARRY/kline7168-bundles"
  echo "kline7168: 7168 x 7168 x K, f16 and f32 C"
  for k in 512 1792 3584 7168 14336; do
    for out in f16 f32; do
      build "$CARRY/kline7168-bundles" "k7_${k}_$out" 7168 7168 "$k" --out "$out" \
        -- --block-tile=128,256,64 --stages=4 --stream-k=0
    done
  done
  echo "  $(ls "$CARRY/kline7168-bundles" | wc -l) bundles"
fi

if want kline; then
  # 1536 x 1536 x K for K = 64 ... 3072 with fixed tiles: time = fixed +
  # per-k-tile cost, fitted for the kernels and for cuBLAS (its fixed cost
  # against ours: prologue, first loads, epilogue)
  rm -rf "$CARRY/kline-bundles"; mkdir -p "$CARRY/kline-bundles"
  echo "kline: 1536 x 1536 x K"
  D="$CARRY/kline-bundles"
  for k in 64 256 768 1536 3072; do
    build "$D" "t_k${k}_f16_128x160" 1536 1536 "$k" --out f16 -- --block-tile=128,160,64 --stages=4
    build "$D" "t_k${k}_f32_128x160" 1536 1536 "$k" -- --block-tile=128,160,64 --stages=4
    build "$D" "t_k${k}_f16_sw192x96" 1536 1536 "$k" --out f16 -- --swap=1 --store=tma --block-tile=192,96,64
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want kring; then
  # 1536 x 1536 x {1536, 3072}, 16-bit C: ring depth, stores and clusters
  # (the slope between the two K is the main loop's cost per k-tile)
  rm -rf "$CARRY/kring-bundles"; mkdir -p "$CARRY/kring-bundles"
  echo "kring: ring depth, stores and clusters at 1536 x 1536 x K"
  D="$CARRY/kring-bundles"
  for k in 1536 3072; do
    while IFS='|' read -r name flags; do
      # shellcheck disable=SC2086
      build "$D" "t_k${k}_$name" 1536 1536 "$k" --out f16 -- $flags
    done <<'V'
sw_tma_s4|--swap=1 --store=tma --block-tile=192,96,64 --stages=4
sw_glob_s4|--swap=1 --store=global --block-tile=192,96,64 --stages=4
sw_glob_s5|--swap=1 --store=global --block-tile=192,96,64 --stages=5
sw_glob_s6|--swap=1 --store=global --block-tile=192,96,64 --stages=6
u192x96_tma_s4|--block-tile=192,96,64 --stages=4 --cluster=1,1
u192x96_tma_s4_c12|--block-tile=192,96,64 --stages=4 --cluster=1,2
u192x96_glob_s5_c12|--store=global --block-tile=192,96,64 --stages=5 --cluster=1,2
u128x160_tma_s4|--block-tile=128,160,64 --stages=4 --cluster=1,1
u128x160_glob_s5|--store=global --block-tile=128,160,64 --stages=5 --cluster=1,1
u128x192_glob_s5|--store=global --block-tile=128,192,64 --stages=5 --cluster=1,1
V
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want rowblocks; then
  # One consumer warpgroup over several 64-row blocks (--warp-tile M = 128
  # or 192): checks across layouts, dtypes, edges, epilogues, batches and
  # stores; timings at 1536^3 (and 1536 x 1536 x 3072) against the defaults
  rm -rf "$CARRY/rowblocks-bundles"; mkdir -p "$CARRY/rowblocks-bundles"
  echo "rowblocks: consumer warpgroups of several row blocks"
  D="$CARRY/rowblocks-bundles"
  SW="--swap=1 --block-tile=192,96,64 --warp-tile=192,96,64"
  U2="--block-tile=128,160,64 --warp-tile=128,160,64"
  build_rows "$D" chk_ <<V
sw_f16_tma|1536 1536 1536 --out f16|$SW --store=tma --stages=5
sw_f32|1536 1536 1536|$SW --stages=5
sw_bf16_edges|1000 1000 1000 --in bf16 --out bf16|$SW --store=tma --stages=5
sw_odd|777 1001 333 --out f16|$SW --stages=4
u2_f16_tma|1536 1536 1536 --out f16|$U2 --stages=5
u2_f32_tma|1536 1536 1536|$U2 --stages=4
u2_edges|1000 1100 700 --out f16|$U2 --stages=4
u2_oddn|640 999 512 --out f16|$U2 --stages=4
u2_nt|768 800 640 --out f16 --b-layout nk|$U2 --stages=4
u2_tn|768 800 640 --a-layout km|$U2 --stages=4
u3_tt|960 576 512 --out bf16 --in bf16 --a-layout km --b-layout nk|--block-tile=192,96,64 --warp-tile=192,96,64 --stages=5
u2_bias|1536 1536 1536 --out f16 --tensor --epilogue relu-bias|$U2 --stages=4
u2_resid|1024 1024 512 --out f16 --tensor --epilogue bias-gelu-residual|$U2 --stages=4
u2_batch|512 640 256 --out f16 --batch 3|--block-tile=128,128,64 --warp-tile=128,128,64
u2_128x128|1024 1024 1024 --out f16|--block-tile=128,128,64 --warp-tile=128,128,64
u3_192x64_colc|700 640 320 --c-layout nm|--block-tile=192,64,64 --warp-tile=192,64,64
V
  build_rows "$D" t_ <<V
1536_f16_def|1536 1536 1536 --out f16|
1536_f16_sw_tma_s4|1536 1536 1536 --out f16|--swap=1 --block-tile=192,96,64 --store=tma --stages=4
1536_f16_swr3_tma_s5|1536 1536 1536 --out f16|$SW --store=tma --stages=5
1536_f16_swr3_glob_s6|1536 1536 1536 --out f16|$SW --store=global --stages=6
1536_f16_u2_tma_s4|1536 1536 1536 --out f16|$U2 --stages=4
1536_f16_u2_tma_s5|1536 1536 1536 --out f16|$U2 --stages=5
1536_f16_u3_192x96_tma_s5|1536 1536 1536 --out f16|--block-tile=192,96,64 --warp-tile=192,96,64 --stages=5
1536_f32_def|1536 1536 1536|
1536_f32_swr3_s5|1536 1536 1536|$SW --stages=5
1536_f32_swr3_s6|1536 1536 1536|$SW --stages=6
1536_f32_u2_tma_s4|1536 1536 1536|$U2 --stages=4
1536_f32_u2_tma_s5|1536 1536 1536|$U2 --stages=5
k3072_f16_def|1536 1536 3072 --out f16|
k3072_f16_swr3_tma_s5|1536 1536 3072 --out f16|$SW --store=tma --stages=5
k3072_f16_u2_tma_s5|1536 1536 3072 --out f16|$U2 --stages=5
1024_f16_def|1024 1024 1024 --out f16|
1024_f16_u2_128x128|1024 1024 1024 --out f16|--block-tile=128,128,64 --warp-tile=128,128,64
2048_f16_def|2048 2048 2048 --out f16|
2048_f16_u2_128x128|2048 2048 2048 --out f16|--block-tile=128,128,64 --warp-tile=128,128,64
2048_f16_u2_128x160|2048 2048 2048 --out f16|$U2
V
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want swapdef; then
  # Swapped 192 x 96 defaults of one consumer warpgroup, where the model now
  # predicts them: new defaults (checked) against the old (TCGEN_OLD: o_)
  rm -rf "$CARRY/swapdef-bundles"; mkdir -p "$CARRY/swapdef-bundles"
  echo "swapdef: swapped one-warpgroup defaults against the old defaults"
  D="$CARRY/swapdef-bundles"
  S="1536x1536x1536 1536x1536x512 1536x1536x768 1536x1536x3072 1536x1536x4096
     1472x1536x1536 1536x1472x1536 2560x2560x2560"
  # shellcheck disable=SC2086
  build_new_old "$D" def $S
  for shape in $S; do
    IFS=x read -r m n k <<<"$shape"
    for out in f32 f16; do
      build "$D" "chk_${shape}_${out}" "$m" "$n" "$k" --out $out --
    done
  done
  build "$D" t_1536x1536x1536_bf16_def 1536 1536 1536 --in bf16 --out bf16 --
  build_old "$D" t_1536x1536x1536_bf16_o 1536 1536 1536 --in bf16 --out bf16 --
  build "$D" chk_1536_bf16_relu_bias 1536 1536 1536 --in bf16 --out bf16 --tensor --epilogue relu-bias --
  build "$D" chk_1536_f16_resid 1536 1536 1536 --out f16 --tensor --epilogue bias-gelu-residual --
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want rbsan; then
  # compute-sanitizer bundles of one consumer warpgroup over several row
  # blocks: swapped 192x96 (16-bit C through transposed TMA stores, f32 C
  # from registers), 128x128 with TMA stores and a fused epilogue, and
  # 128x128 with more tiles than SMs (blocks reuse the store buffers
  # across tiles), edges in each
  rm -rf "$CARRY/san"; mkdir -p "$CARRY/san"
  echo "rbsan: sanitizer bundles of several row blocks per warpgroup"
  SW="--swap=1 --block-tile=192,96,64 --warp-tile=192,96,64"
  build "$CARRY/san" rb_sw16 200 392 256 --out f16 -- $SW --store=tma --stages=5
  build "$CARRY/san" rb_sw32 288 384 256 -- $SW --stages=5
  build "$CARRY/san" rb_u2_bias 300 320 200 --out f16 --epilogue relu-bias -- --block-tile=128,128,64 --warp-tile=128,128,64
  build "$CARRY/san" rb_items 1536 1600 64 --out f16 -- --block-tile=128,128,64 --warp-tile=128,128,64
  echo "  $(ls "$CARRY/san" | wc -l) bundles"
fi

if want rb1024; then
  # 1024^3 and 2048^3 with a 16-bit C: one consumer warpgroup over two row
  # blocks of narrow tiles (128 tiles at 1024^3), swapped or not, against
  # the defaults
  rm -rf "$CARRY/rb1024-bundles"; mkdir -p "$CARRY/rb1024-bundles"
  echo "rb1024: row blocks at 1024^3 and 2048^3"
  D="$CARRY/rb1024-bundles"
  build_rows "$D" t_ <<'V'
1024_f16_def|1024 1024 1024 --out f16|
1024_f16_128x64r2|1024 1024 1024 --out f16|--block-tile=128,64,64 --warp-tile=128,64,64
1024_f16_sw128x64r2|1024 1024 1024 --out f16|--swap=1 --store=tma --block-tile=128,64,64 --warp-tile=128,64,64
1024_f16_128x128r2|1024 1024 1024 --out f16|--block-tile=128,128,64 --warp-tile=128,128,64
1024_f32_def|1024 1024 1024|
1024_f32_sw128x64r2|1024 1024 1024|--swap=1 --block-tile=128,64,64 --warp-tile=128,64,64
2048_f16_def|2048 2048 2048 --out f16|
2048_f16_128x128r2|2048 2048 2048 --out f16|--block-tile=128,128,64 --warp-tile=128,128,64
2048_f16_192x128r3|2048 2048 2048 --out f16|--block-tile=192,128,64 --warp-tile=192,64,64
2048_f32_def|2048 2048 2048|
2048_f32_128x128r2|2048 2048 2048|--block-tile=128,128,64 --warp-tile=128,128,64
V
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want rbsquares; then
  # 128x128 with one consumer warpgroup over two row blocks against the
  # default over the square sweep, f32 and f16 C
  rm -rf "$CARRY/rbsquares-bundles"; mkdir -p "$CARRY/rbsquares-bundles"
  echo "rbsquares: 128x128 r2 against the default at the squares"
  D="$CARRY/rbsquares-bundles"
  for s in 1024 2048 2560 3072 4096 5120 6144 8192 10240 12288 16384; do
    for out in f32 f16; do
      build "$D" "t_$(printf %05d $s)_${out}_def" $s $s $s --out $out --
      build "$D" "t_$(printf %05d $s)_${out}_r2" $s $s $s --out $out -- --block-tile=128,128,64 --warp-tile=128,128,64
    done
  done
  build "$D" chk_8192_r2 8192 8192 8192 --out f16 -- --block-tile=128,128,64 --warp-tile=128,128,64
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want rbbert; then
  # 192x128 with one consumer warpgroup over three row blocks (192
  # accumulator registers, 5 stages) and the swapped 192x96 one, against
  # the defaults at the BERT shapes and some squares
  rm -rf "$CARRY/rbbert-bundles"; mkdir -p "$CARRY/rbbert-bundles"
  echo "rbbert: 192-row tiles of one warpgroup at the BERT shapes"
  D="$CARRY/rbbert-bundles"
  for shape in 3072x1024x1024 3072x4096x1024 3072x1024x4096 4096x4096x4096 8192x8192x8192; do
    IFS=x read -r m n k <<<"$shape"
    for out in f32 f16; do
      build "$D" "t_${shape}_${out}_def" "$m" "$n" "$k" --out $out --
      build "$D" "t_${shape}_${out}_192x128r3" "$m" "$n" "$k" --out $out -- --block-tile=192,128,64 --warp-tile=192,128,64
      build "$D" "t_${shape}_${out}_sw192x96r3" "$m" "$n" "$k" --out $out -- --swap=1 --block-tile=192,96,64 --warp-tile=192,96,64
    done
  done
  build "$D" chk_3072x1024x1024_192x128r3 3072 1024 1024 --out f16 -- --block-tile=192,128,64 --warp-tile=192,128,64
  build "$D" chk_1000x1100x700_192x128r3 1000 1100 700 -- --block-tile=192,128,64 --warp-tile=192,128,64
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want talldef1wg; then
  # 192-row tiles in one wave now take one consumer warpgroup: new defaults
  # against the old (TCGEN_OLD: o_), and checks across layouts, dtypes,
  # edges, batches, epilogues, C += A*B and a column-major C
  rm -rf "$CARRY/talldef1wg-bundles"; mkdir -p "$CARRY/talldef1wg-bundles"
  echo "talldef1wg: one-wave 192-row defaults of one warpgroup"
  D="$CARRY/talldef1wg-bundles"
  build_new_old "$D" def 3072x1024x1024 3072x1024x4096 3000x1000x1000
  build "$D" t_b2_1536x1024x512_f16_def 1536 1024 512 --batch 2 --out f16 --
  build_old "$D" t_b2_1536x1024x512_f16_o 1536 1024 512 --batch 2 --out f16 --
  R="--block-tile=192,128,64 --warp-tile=192,128,64"
  build_rows "$D" chk_ $R <<'V'
edges|3000 1000 1000 --out f16
oddn|2900 1001 500 --out f16
nt|3072 1024 512 --b-layout nk --out f16
tn|3072 1024 512 --a-layout km
tt_bf16|3072 1024 512 --a-layout km --b-layout nk --in bf16 --out bf16
batch|1536 1024 512 --batch 2 --out f16
bgr|3072 1024 1024 --out f16 --tensor --epilogue bias-gelu-residual
acc|3072 1024 512 --accumulate
colc|3072 1024 512 --c-layout nm
V
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want clsquares; then
  # The defaults against the same tiles in 2x1 and 1x2 clusters over the
  # squares (f32 and f16 C): multicast halves one operand's L2 -> SM
  # traffic, which may matter under the power cap more than in isolation
  rm -rf "$CARRY/clsquares-bundles"; mkdir -p "$CARRY/clsquares-bundles"
  echo "clsquares: clusters over the squares"
  D="$CARRY/clsquares-bundles"
  for s in 1024 2048 3072 4096 6144 8192; do
    for out in f32 f16; do
      build "$D" "t_$(printf %05d $s)_${out}_def" $s $s $s --out $out --
      build "$D" "t_$(printf %05d $s)_${out}_c21" $s $s $s --out $out -- --cluster=2,1
      build "$D" "t_$(printf %05d $s)_${out}_c12" $s $s $s --out $out -- --cluster=1,2
    done
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want misrowsclusters; then
  # Rows that straddle 128-byte lines, now that narrow tiles in a cluster
  # sharing the slow operand are searched: the defaults (TCGEN_OLD: the
  # defaults before, o_ bundles) and neighbours; checks of each default
  rm -rf "$CARRY/misrowsclusters-bundles"; mkdir -p "$CARRY/misrowsclusters-bundles"
  echo "misrowsclusters: narrow tiles in clusters where rows straddle lines"
  D="$CARRY/misrowsclusters-bundles"
  for shape in 1000x1000x1000 1400x1400x1400 1000x1200x700; do
    IFS=x read -r m n k <<<"$shape"
    for out in f32 f16; do
      build "$D" "t_${shape}_${out}_def" "$m" "$n" "$k" --out $out --
      build_old "$D" "t_${shape}_${out}_o" "$m" "$n" "$k" --out $out --
      build "$D" "t_${shape}_${out}_64x128c21" "$m" "$n" "$k" --out $out -- --block-tile=64,128,64 --cluster=2,1
      build "$D" "t_${shape}_${out}_64x256c21" "$m" "$n" "$k" --out $out -- --block-tile=64,256,64 --cluster=2,1
    done
    build "$D" "chk_${shape}" "$m" "$n" "$k" --
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want smallclusters; then
  # The small squares with the cheaper cluster barriers: the defaults
  # against clustered tiles (1024^3, 1536^3 with f16 C, 2048^3)
  rm -rf "$CARRY/smallclusters-bundles"; mkdir -p "$CARRY/smallclusters-bundles"
  echo "smallclusters: clustered tiles at the small squares"
  D="$CARRY/smallclusters-bundles"
  while IFS='|' read -r name s out flags; do
    # shellcheck disable=SC2086
    build "$D" "t_${name}" $s $s $s --out $out -- $flags
  done <<'V'
1024_f32_def|1024|f32|
1024_f32_64x128c21|1024|f32|--block-tile=64,128,64 --cluster=2,1
1024_f32_128x64c12|1024|f32|--block-tile=128,64,64 --cluster=1,2
1024_f16_def|1024|f16|
1024_f16_64x128c21|1024|f16|--block-tile=64,128,64 --cluster=2,1
1536_f16_def|1536|f16|
1536_f16_128x160c12|1536|f16|--block-tile=128,160,64 --cluster=1,2
1536_f16_128x128c21|1536|f16|--block-tile=128,128,64 --cluster=2,1
1536_f16_128x256c21|1536|f16|--block-tile=128,256,64 --cluster=2,1
1536_f16_192x128c12|1536|f16|--block-tile=192,128,64 --cluster=1,2
2048_f32_def|2048|f32|
2048_f32_c21|2048|f32|--block-tile=128,256,64 --cluster=2,1
2048_f16_def|2048|f16|
2048_f16_c21|2048|f16|--block-tile=128,256,64 --cluster=2,1
V
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want clusterchecks; then
  # Clusters (with the producer's tail instead of an exit barrier) with
  # every feature: cp.async copies, a register prologue, a fused epilogue
  # with a residual, a batch, C += A*B, tf32, bf16 with A [k][m], B [n][k]
  rm -rf "$CARRY/clusterchecks-bundles"; mkdir -p "$CARRY/clusterchecks-bundles"
  echo "clusterchecks: clusters with every feature (checks only)"
  D="$CARRY/clusterchecks-bundles"
  build_rows "$D" chk_ <<'V'
async21|1000 1000 520|--cluster=2,1 --block-tile=128,256,64 --pack=async
prologue12|700 1536 264 --prologue relu-a|--cluster=1,2 --block-tile=128,128,64
gelures12|1000 1536 520 --out f16 --epilogue bias-gelu-residual|--cluster=1,2 --block-tile=128,128,64
batch21|512 768 264 --batch 3|--cluster=2,1 --block-tile=128,256,64
acc21|1000 1024 700 --accumulate|--cluster=2,1 --block-tile=128,256,64
tf32c21|1000 1024 520 --in f32|--allow-tf32 --cluster=2,1 --block-tile=128,128,32
bf16km12|776 1024 264 --in bf16 --out bf16 --a-layout km|--cluster=1,2 --block-tile=128,128,64
nk21|1000 1024 700 --b-layout nk|--cluster=2,1 --block-tile=128,256,64
V
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want bertclusters; then
  # The BERT-large shapes (M = 3072) with the cheaper cluster barriers: the
  # defaults against their tiles in 2x1 and 1x2 clusters
  rm -rf "$CARRY/bertclusters-bundles"; mkdir -p "$CARRY/bertclusters-bundles"
  echo "bertclusters: clustered tiles at the BERT shapes"
  D="$CARRY/bertclusters-bundles"
  for nk in 1024x1024 4096x1024 1024x4096; do
    n=${nk%x*}; k=${nk#*x}
    for out in f32 f16; do
      build "$D" "t_${nk}_${out}_def" 3072 "$n" "$k" --out $out --
      build "$D" "t_${nk}_${out}_192x128c21" 3072 "$n" "$k" --out $out -- --block-tile=192,128,64 --cluster=2,1
      build "$D" "t_${nk}_${out}_192x128c12" 3072 "$n" "$k" --out $out -- --block-tile=192,128,64 --cluster=1,2
      build "$D" "t_${nk}_${out}_128x256c21" 3072 "$n" "$k" --out $out -- --block-tile=128,256,64 --cluster=2,1
    done
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want llm; then
  # Transformer feed-forward and projection shapes (M tokens x N x K): the
  # defaults, and where the model picks stream-K the same tile without it;
  # a check of each stream-K default
  rm -rf "$CARRY/llm-bundles"; mkdir -p "$CARRY/llm-bundles"
  echo "llm: transformer shapes"
  D="$CARRY/llm-bundles"
  for shape in 2048x11008x4096 2048x5120x13824 4096x11008x4096 4096x4096x11008 \
               8192x14336x4096 8192x4096x14336; do
    IFS=x read -r m n k <<<"$shape"
    for out in f16 f32; do
      build "$D" "t_${shape}_${out}_def" "$m" "$n" "$k" --out $out --
      if grep -q '"stream_k": *true' "$D/t_${shape}_${out}_def"/*.json 2>/dev/null; then
        build "$D" "t_${shape}_${out}_dp" "$m" "$n" "$k" --out $out -- --stream-k=0
        [ "$out" = f16 ] && build "$D" "chk_${shape}" "$m" "$n" "$k" --out $out --
      fi
    done
  done
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want skspread; then
  # Shapes whose default changes with the stream-K spread rule: the new
  # default against the old (TCGEN_OLD, o_ bundles); checks of the new
  rm -rf "$CARRY/skspread-bundles"; mkdir -p "$CARRY/skspread-bundles"
  echo "skspread: stream-K excluded where blocks out of step exceed L2"
  D="$CARRY/skspread-bundles"
  for shape in 512x13824x8192 512x28672x8192 1024x5120x8192 1024x13824x4096 \
               2048x5120x8192 2048x11008x8192 2048x11008x14336 1024x14336x14336; do
    IFS=x read -r m n k <<<"$shape"
    build "$D" "t_${shape}_new" "$m" "$n" "$k" --out f16 --
    build_old "$D" "t_${shape}_o" "$m" "$n" "$k" --out f16 --
  done
  build "$D" chk_512x13824x8192 512 13824 8192 --out f16 --
  build "$D" chk_2048x11008x8192 2048 11008 8192 --out f16 --
  echo "  $(ls "$D" | wc -l) bundles"
fi

if want llmsweep; then
  # Transformer projections (f16 in and out, default configuration): M
  # tokens in {512, 4096, 16384} by the (N, K) of attention and
  # feed-forward layers of 4096-wide models; checks at three
  rm -rf "$CARRY/llmsweep-bundles"; mkdir -p "$CARRY/llmsweep-bundles"
  echo "llmsweep: transformer projections"
  D="$CARRY/llmsweep-bundles"
  for m in 512 4096 16384; do
    for nk in 4096x4096 12288x4096 11008x4096 4096x11008 22016x4096 14336x4096 4096x14336 28672x4096; do
      n=${nk%x*}; k=${nk#*x}
      build "$D" "t_${m}x${nk}" "$m" "$n" "$k" --out f16 --
    done
  done
  build "$D" chk_512x22016x4096 512 22016 4096 --out f16 --
  build "$D" chk_4096x4096x14336 4096 4096 14336 --out f16 --
  build "$D" chk_16384x28672x4096 16384 28672 4096 --out f16 --
  echo "  $(ls "$D" | wc -l) bundles"
fi
