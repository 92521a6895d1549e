#!/usr/bin/env bash
# Builds build-fuzz/linalg_fuzzer with clang-22: fuzz/linalg_fuzzer.cpp and
# the compiler's front end (contraction analysis, configure, the fusion and
# collapsing passes, the dialect) compiled with coverage and ASan + UBSan,
# linked with the rest of tcgen's libraries from the compiler's build
# (build/ or $TCGEN_BUILD_DIR, built by scripts/setup.sh with gcc) and
# libMLIR.so. FUZZ_LINALG_FRONT=0 instruments only the target itself: a
# quick build (for CI) whose coverage feedback stops at the target's file.
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${TCGEN_FUZZ_BUILD_DIR:-$SRC/build-fuzz}"
BUILD="${TCGEN_BUILD_DIR:-$SRC/build}"
LLVM_PREFIX="${LLVM_PREFIX:-/usr/lib/llvm-22}"
CXX="${FUZZ_CXX:-clang++-22}"
JOBS="${JOBS:-$(nproc)}"

LIBS=(TCGenPipelines TCGenConfig tcgen_manifest TCGenWMMA TCGenSM80 TCGenSM90
      TCGenSIMT TCGenTransforms TCGenIR TCGenAnalysis tcgen_support)
for l in "${LIBS[@]}"; do
  if [ ! -f "$BUILD/lib/lib$l.a" ]; then
    echo "fuzz: $BUILD/lib/lib$l.a not found: build the compiler first (scripts/setup.sh)" >&2
    exit 2
  fi
done

# The front end, in coverage and sanitizers; the rest comes from $BUILD.
FRONT=(Analysis/Contraction Analysis/Epilogue Config/AttachTarget
       Config/Config Config/Configure Config/Model Config/TuningCache
       Transforms/ChainContractions Transforms/CollapseDims
       Transforms/FuseElementwise Transforms/PeelAccumulatorInit
       IR/TCGenDialect)
[ "${FUZZ_LINALG_FRONT:-1}" = 0 ] && FRONT=()

mkdir -p "$OUT/obj-linalg"
LAUNCHER=()
command -v ccache >/dev/null 2>&1 && LAUNCHER=(ccache)
FLAGS=(-std=c++17 -O1 -g -fno-omit-frame-pointer -Wno-deprecated-declarations
       -fsanitize=address,undefined -fno-sanitize-recover=all
       -DNDEBUG -D_GNU_SOURCE -D__STDC_CONSTANT_MACROS -D__STDC_FORMAT_MACROS
       -D__STDC_LIMIT_MACROS -include "$SRC/fuzz/NoAsanAnnotations.h"
       -I"$SRC/include" -I"$BUILD/include" -I"$SRC/runtime/include"
       -isystem "$LLVM_PREFIX/include")

objs=()
pids=()
# Every source is compiled each time (ccache returns the unchanged ones):
# a check of the sources' times missed changed headers, and an object
# built against an older struct layout than the libraries gave false
# sanitizer reports.
compile() {
  local src="$1" obj="$2"
  "${LAUNCHER[@]}" "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer-no-link -c "$src" -o "$obj"
}
sources=("$SRC/fuzz/linalg_fuzzer.cpp")
for f in "${FRONT[@]}"; do sources+=("$SRC/lib/$f.cpp"); done
for src in "${sources[@]}"; do
  obj="$OUT/obj-linalg/$(basename "$src" .cpp).o"
  objs+=("$obj")
  compile "$src" "$obj" &
  pids+=($!)
  # At most $JOBS compiles at a time.
  if [ "${#pids[@]}" -ge "$JOBS" ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p"; done

archives=()
for l in "${LIBS[@]}"; do archives+=("$BUILD/lib/lib$l.a"); done
# A group: the back ends and lib/Config refer to each other (the registry).
"$CXX" "${FLAGS[@]}" -fsanitize=fuzzer "${objs[@]}" \
  -Wl,--start-group "${archives[@]}" -Wl,--end-group \
  -Wl,-rpath,"$LLVM_PREFIX/lib" "$LLVM_PREFIX/lib/libMLIR.so" \
  "$LLVM_PREFIX/lib/libLLVM.so" -o "$OUT/linalg_fuzzer"
echo "fuzz: built $OUT/linalg_fuzzer"
