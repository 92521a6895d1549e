#!/usr/bin/env bash
# Builds tcgen with AddressSanitizer and UndefinedBehaviorSanitizer into its
# own tree (build-san/, or $TCGEN_SAN_BUILD_DIR) and runs the CPU tests in
# it: lit (the compiler under every lit test) and ctest (the unit tests,
# the runtime's host paths). Slow: not part of scripts/test.sh.
#   scripts/sanitize.sh
# Environment: TCGEN_SANITIZE (default address,undefined), JOBS; on a slow
# machine a part at a time: TARGETS (ninja targets, default all), LIT=0
# (no lit run) and CTEST_ARGS (e.g. "-E NOT_BUILT": only the tests whose
# binaries were built), e.g.
#   TARGETS="tcgen-runtime-tests tcgen-gpu tcgen_rt_shared" LIT=0 \
#     CTEST_ARGS="-E NOT_BUILT" scripts/sanitize.sh
# Every report aborts the process it comes from (-fno-sanitize-recover),
# so a finding is a failing test; the MLIR/LLVM libraries are not
# instrumented. Known reports in code outside tcgen are suppressed in
# scripts/sanitize/lsan.supp, each with its reason.
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TCGEN_SAN_BUILD_DIR:-$SRC/build-san}"
LLVM_PREFIX="${LLVM_PREFIX:-/usr/lib/llvm-22}"
SANITIZE="${TCGEN_SANITIZE:-address,undefined}"

if [ ! -f "$BUILD/build.ninja" ]; then
  extra=()
  command -v ccache >/dev/null 2>&1 &&
    extra+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  command -v ld.lld >/dev/null 2>&1 && extra+=(-DLLVM_USE_LINKER=lld)
  [ -d /usr/local/cuda ] && extra+=(-DCUDAToolkit_ROOT=/usr/local/cuda)
  # -O1 with line tables: a quarter of a Release build's compile time,
  # stack traces with file and line.
  cmake -G Ninja -S "$SRC" -B "$BUILD" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS_RELEASE="-O1 -g1" -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1" \
    -DTCGEN_SANITIZE="$SANITIZE" \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" "${extra[@]}"
fi
# shellcheck disable=SC2086
ninja -C "$BUILD" -j "${JOBS:-$(nproc)}" ${TARGETS:-}

# The runtime's shared library, instrumented, is loaded by a C program
# built without sanitizers in the install test: ASan's runtime then does
# not come first, which it would otherwise refuse.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:verify_asan_link_order=0:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$SRC/scripts/sanitize/lsan.supp:print_suppressions=0}"
export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-$LLVM_PREFIX/bin/llvm-symbolizer}"
rc=0
if [ "${LIT:-1}" != 0 ]; then
  "$LLVM_PREFIX/bin/lit" -sv "$BUILD/test" || rc=1
fi
# shellcheck disable=SC2086
ctest --test-dir "$BUILD" --output-on-failure -j "${JOBS:-$(nproc)}" ${CTEST_ARGS:-} || rc=1
[ $rc -eq 0 ] && echo "sanitize: lit and ctest pass under $SANITIZE" ||
  echo "sanitize: FAILURES under $SANITIZE (reports above)"
exit $rc
