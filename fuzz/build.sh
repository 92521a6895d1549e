#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-22 into build-fuzz/ (or
# $TCGEN_FUZZ_BUILD_DIR): fuzz/build.sh [TARGET...], TARGET one of
# manifest, validate, linalg, spec (default: all). The runtime targets compile
# their few sources here; the linalg target also needs the compiler's build
# (build/ or $TCGEN_BUILD_DIR: the generated headers and tcgen's libraries).
# Exits 2, with a message, where clang-22 or libFuzzer is missing.
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${TCGEN_FUZZ_BUILD_DIR:-$SRC/build-fuzz}"
BUILD="${TCGEN_BUILD_DIR:-$SRC/build}"
LLVM_PREFIX="${LLVM_PREFIX:-/usr/lib/llvm-22}"
CXX="${FUZZ_CXX:-clang++-22}"

if ! command -v "$CXX" >/dev/null 2>&1; then
  echo "fuzz: $CXX not found (apt-get install clang-22 libclang-rt-22-dev)" >&2
  exit 2
fi
if ! echo 'extern "C" int LLVMFuzzerTestOneInput(const char *, long) { return 0; }' |
    "$CXX" -x c++ -fsanitize=fuzzer - -o /dev/null 2>/dev/null; then
  echo "fuzz: $CXX cannot link -fsanitize=fuzzer (apt-get install libclang-rt-22-dev)" >&2
  exit 2
fi

mkdir -p "$OUT/obj"
LAUNCHER=()
command -v ccache >/dev/null 2>&1 && LAUNCHER=(ccache)
# Every sanitizer report aborts, so that libFuzzer reports it as a crash.
SAN=(-fsanitize=address,undefined -fno-sanitize-recover=all)
FLAGS=(-std=c++17 -O1 -g -fno-omit-frame-pointer -Wno-deprecated-declarations "${SAN[@]}"
       -I"$SRC/runtime/include" -I"$SRC/include")

# The object of source $1.
object() { echo "$OUT/obj/$(echo "${1#$SRC/}" | tr '/' '_').o"; }

# Compiles $1 with coverage instrumentation, each time: ccache returns the
# unchanged objects, and a check of file times missed headers outside the
# runtime's (an object built against older headers than its neighbours gave
# false sanitizer reports).
compile() {
  local src="$1" obj
  obj="$(object "$src")"
  "${LAUNCHER[@]}" "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer-no-link -c "$src" -o "$obj"
}

RUNTIME=()
for s in Json Manifest TuneFile Validate; do RUNTIME+=("$SRC/runtime/lib/$s.cpp"); done
RUNTIME+=("$SRC/lib/Support/Records.cpp") # the tune file's record format

targets=("$@")
[ "${#targets[@]}" -eq 0 ] && targets=(manifest validate linalg spec)
runtimeTargets=()
for t in "${targets[@]}"; do
  case "$t" in
  manifest | validate) runtimeTargets+=("$t") ;;
  linalg | spec) ;;
  *) echo "fuzz: unknown target '$t' (manifest, validate, linalg, spec)" >&2; exit 1 ;;
  esac
done

if [ "${#runtimeTargets[@]}" -gt 0 ]; then
  # Compile in parallel, ${JOBS:-nproc} at a time, then link each target.
  sources=("${RUNTIME[@]}")
  for t in "${runtimeTargets[@]}"; do sources+=("$SRC/fuzz/${t}_fuzzer.cpp"); done
  printf '%s\n' "${sources[@]}" |
    xargs -P "${JOBS:-$(nproc)}" -I{} bash -c "$(declare -p SRC OUT CXX LAUNCHER FLAGS); $(declare -f object compile); compile {}"
  for t in "${runtimeTargets[@]}"; do
    objs=()
    for s in "${RUNTIME[@]}" "$SRC/fuzz/${t}_fuzzer.cpp"; do objs+=("$(object "$s")"); done
    "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer "${objs[@]}" -o "$OUT/${t}_fuzzer"
    echo "fuzz: built $OUT/${t}_fuzzer"
  done
fi
# The spec front end's parser: its two sources (no MLIR) instrumented,
# LLVM's support library from the Debian packages.
if printf '%s\n' "${targets[@]}" | grep -qx spec; then
  SPEC=("$SRC/lib/Frontend/SpecExpr.cpp" "$SRC/lib/Frontend/SpecParser.cpp"
        "$SRC/fuzz/spec_fuzzer.cpp")
  specFlags=("${FLAGS[@]}" -I"$SRC/include" -I"$SRC/lib/Frontend"
             -I"$LLVM_PREFIX/include" -DNDEBUG)
  objs=()
  for s in "${SPEC[@]}"; do
    obj="$(object "$s")"
    "${LAUNCHER[@]}" "$CXX" "${specFlags[@]}" -fsanitize=fuzzer-no-link -c "$s" -o "$obj"
    objs+=("$obj")
  done
  "$CXX" "${specFlags[@]}" -fsanitize=fuzzer "${objs[@]}" \
    -L"$LLVM_PREFIX/lib" -Wl,-rpath,"$LLVM_PREFIX/lib" -lLLVM -o "$OUT/spec_fuzzer"
  echo "fuzz: built $OUT/spec_fuzzer"
fi
for t in "${targets[@]}"; do
  [ "$t" = linalg ] && "$SRC/fuzz/build-linalg.sh"
done
exit 0
