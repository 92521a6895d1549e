#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-22 into build-fuzz/ (or
# $TCGEN_FUZZ_BUILD_DIR): fuzz/build.sh [TARGET...], TARGET one of
# manifest, validate, linalg (default: all). The runtime targets compile
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
       -I"$SRC/runtime/include")

# Compiles $1 into $OUT/obj with coverage instrumentation; prints the object.
compile() {
  local src="$1" obj; shift
  obj="$OUT/obj/$(echo "${src#$SRC/}" | tr '/' '_').o"
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ -n "$(find "$SRC/runtime/include" "$SRC/include" -newer "$obj" -name '*.h' 2>/dev/null | head -1)" ]; then
    "${LAUNCHER[@]}" "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer-no-link "$@" -c "$src" -o "$obj"
  fi
  echo "$obj"
}

RUNTIME_SRCS=(Json Manifest TuneFile Validate)
runtime_objs() {
  local s
  for s in "${RUNTIME_SRCS[@]}"; do compile "$SRC/runtime/lib/$s.cpp"; done
}

build_runtime_target() {
  local name="$1" objs
  objs=($(runtime_objs) $(compile "$SRC/fuzz/${name}_fuzzer.cpp"))
  "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer "${objs[@]}" -o "$OUT/${name}_fuzzer"
  echo "fuzz: built $OUT/${name}_fuzzer"
}

targets=("$@")
[ "${#targets[@]}" -eq 0 ] && targets=(manifest validate linalg)
for t in "${targets[@]}"; do
  case "$t" in
  manifest | validate) build_runtime_target "$t" ;;
  linalg) "$SRC/fuzz/build-linalg.sh" ;;
  # spec: the spec front end's target goes here once parseSpec exists.
  *) echo "fuzz: unknown target '$t' (manifest, validate, linalg)" >&2; exit 1 ;;
  esac
done
