#!/usr/bin/env bash
# Runs every CPU test: lit (compiler passes, CLI), GoogleTest (runtime,
# manifest, ...) and the Python package's unittest suite (python/tests).
# GPU tests skip themselves where no GPU is present.
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TCGEN_BUILD_DIR:-$SRC/build}"
LLVM_PREFIX="${LLVM_PREFIX:-/usr/lib/llvm-22}"
ninja -C "$BUILD" -j "${JOBS:-$(nproc)}"
"$LLVM_PREFIX/bin/lit" -sv "$BUILD/test"
ctest --test-dir "$BUILD" --output-on-failure
python3 -m unittest discover -s "$SRC/python/tests" -t "$SRC/python/tests" -v
# A short libFuzzer run of each fuzz target (fuzz/README.md); skipped with a
# message where clang-22 or libFuzzer is missing.
"$SRC/fuzz/ci.sh"
