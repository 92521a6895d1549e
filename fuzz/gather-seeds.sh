#!/usr/bin/env bash
# Gathers seed inputs for the fuzz targets into DIR/{manifest,validate,linalg}:
# the manifests of the bundles a build wrote (BUILD, default build/: the
# reference bundles of bench/) and of gpu-tests/Inputs, and the MLIR of
# examples/ and of the lit tests, one file per `// -----` case. Merge them
# into fuzz/corpus/ with the fuzzer's -merge=1 (fuzz/README.md).
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${1:?usage: fuzz/gather-seeds.sh DIR [BUILD]}"
BUILD="${2:-$SRC/build}"
mkdir -p "$DIR/manifest" "$DIR/validate" "$DIR/linalg"

find "$BUILD" "$SRC/gpu-tests/Inputs" -name '*.json' \
    -not -name compile_commands.json -not -path '*/CMakeFiles/*' |
  while read -r f; do
    if grep -q '"tcgen.bundle"' "$f"; then
      name="$(basename "$(dirname "$f")")-$(basename "$f")"
      cp "$f" "$DIR/manifest/$name"
      cp "$f" "$DIR/validate/$name"
    fi
  done

# MLIR: RUN, CHECK and expected-* comment lines dropped, split at `// -----`.
find "$SRC/examples" "$SRC/test" -name '*.mlir' | while read -r f; do
  base="$(echo "${f#$SRC/}" | tr '/' '_' | sed 's/\.mlir$//')"
  awk -v out="$DIR/linalg/$base" '
    /^\/\/ -----/ { n++; next }
    /^\/\/ *(RUN|CHECK|[A-Z0-9]+-?[A-Z]*:)/ { next }
    /expected-(error|warning|remark|note)/ { next }
    { print > (out "-" n+0 ".mlir") }' "$f"
done
echo "fuzz: seeds: $(ls "$DIR/manifest" | wc -l) manifests," \
  "$(ls "$DIR/linalg" | wc -l) MLIR inputs in $DIR"
