#!/usr/bin/env bash
# Collects what scripts/device-run.sh needs on the GPU machine into carry/
# (git-ignored): the prebuilt tcgen-gpu and tcgen-gpu-tests into carry/bin,
# and the hand-made reference bundles of bench/refbundles into
# carry/ref-bundles. Kernel bundles to check go into carry/bundles/<name>/
# and bundles to time into carry/bench-bundles/<name>/ (put them there
# yourself, e.g. with tcgen compile -o carry/bundles/<name>).
#
# usage: scripts/device-collect.sh [BUILD_DIR]   (default: $TCGEN_BUILD_DIR or build)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-${TCGEN_BUILD_DIR:-$ROOT/build}}"
CARRY="$ROOT/carry"

if [ ! -x "$BUILD/bin/tcgen-gpu" ]; then
  echo "device-collect: $BUILD/bin/tcgen-gpu not found; build it first:" >&2
  echo "  ninja -C $BUILD tcgen-gpu tcgen-gpu-tests tcgen-ref-bundles" >&2
  exit 1
fi
mkdir -p "$CARRY/bin" "$CARRY/bundles" "$CARRY/bench-bundles"
cp -f "$BUILD/bin/tcgen-gpu" "$CARRY/bin/"
if [ -x "$BUILD/bin/tcgen-gpu-tests" ]; then
  cp -f "$BUILD/bin/tcgen-gpu-tests" "$CARRY/bin/"
else
  echo "device-collect: no $BUILD/bin/tcgen-gpu-tests (GoogleTest missing?); skipped" >&2
fi
if [ -d "$BUILD/ref-bundles" ]; then
  rm -rf "$CARRY/ref-bundles"
  cp -r "$BUILD/ref-bundles" "$CARRY/ref-bundles"
fi
if [ -d "$BUILD/ref-bundles-expect-fail" ]; then
  rm -rf "$CARRY/ref-bundles-expect-fail"
  cp -r "$BUILD/ref-bundles-expect-fail" "$CARRY/ref-bundles-expect-fail"
fi
echo "device-collect: carry/ now holds:"
(cd "$ROOT" && find carry -maxdepth 2 | sort | sed 's/^/  /')
du -sh "$CARRY" | sed 's/^/device-collect: size /'
