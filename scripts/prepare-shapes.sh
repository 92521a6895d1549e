#!/usr/bin/env bash
# Compiles the problems of a shape list (bench/suites/*.txt: NAME M N K
# [gen_matmul.py options] per line) into DEST/NAME, one bundle each.
#   scripts/prepare-shapes.sh bench/suites/api-shapes.txt carry/api [tcgen compile flags...]
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TCGEN="${TCGEN:-$SRC/build/bin/tcgen}"
LIST=$1 DEST=$2; shift 2
mkdir -p "$DEST"
grep -v '^\s*\(#\|$\)' "$LIST" | while read -r name m n k opts; do
  # shellcheck disable=SC2086
  "$SRC/scripts/gen_matmul.py" "$m" "$n" "$k" $opts --name "$name" > "$DEST/$name.mlir"
  "$TCGEN" compile "$DEST/$name.mlir" --target=sm_90a -o "$DEST/$name" "$@" >/dev/null
  echo "$DEST/$name"
done
