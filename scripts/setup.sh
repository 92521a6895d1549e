#!/usr/bin/env bash
# Installs everything a fresh Debian 12 machine needs, then configures and
# builds tcgen into build/. Idempotent: a second run only rebuilds what changed.
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TCGEN_BUILD_DIR:-$SRC/build}"
LLVM_PREFIX="${LLVM_PREFIX:-/usr/lib/llvm-22}"

PKGS=(cmake ninja-build g++ lld ccache python3
      libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
      libgtest-dev googletest pkgconf
      clang-22 libclang-rt-22-dev)  # libFuzzer targets (fuzz/)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The Python package (python/) installs with pip from the build backend on
# the machine (no build isolation, no network): setuptools with bdist_wheel.
if ! python3 -c 'import setuptools, wheel' >/dev/null 2>&1 &&
   ! python3 -c 'import setuptools.command.bdist_wheel' >/dev/null 2>&1; then
  if ! python3 -m pip install --quiet setuptools wheel >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
      python3-pip python3-venv python3-setuptools python3-wheel
  fi
fi

extra=()
command -v ccache >/dev/null 2>&1 && extra+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
command -v ld.lld >/dev/null 2>&1 && extra+=(-DLLVM_USE_LINKER=lld)
if [ -d /usr/local/cuda ]; then extra+=(-DCUDAToolkit_ROOT=/usr/local/cuda); fi

if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -G Ninja -S "$SRC" -B "$BUILD" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" "${extra[@]}"
fi
ninja -C "$BUILD" -j "${JOBS:-$(nproc)}"
