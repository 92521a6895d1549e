#!/usr/bin/env bash
# Compiles the fixed kernel set of bench/suites/ptx-matrix.txt to PTX into
# DIR (one NAME.ptx and NAME.json per kernel, and DIR/sums.txt): run it
# before and after a refactor and `diff -r` the two directories; a refactor
# that claims to keep behaviour leaves every file identical.
#   scripts/ptx-matrix.sh DIR [LIST]
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TCGEN="${TCGEN:-$SRC/build/bin/tcgen}"
DEST=$1
LIST=${2:-$SRC/bench/suites/ptx-matrix.txt}
mkdir -p "$DEST"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
while IFS='|' read -r name input flags; do
  name=$(echo "$name" | xargs); input=$(echo "$input" | xargs)
  case "$name" in ''|'#'*) continue ;; esac
  if [[ $input == gen\ * ]]; then
    # shellcheck disable=SC2086
    "$SRC/test/utils/gen_matmul.py" ${input#gen } --name "$name" > "$work/$name.mlir"
    input="$work/$name.mlir"
  else
    input="$SRC/$input"
  fi
  # shellcheck disable=SC2086
  if ! "$TCGEN" compile "$input" --target=sm_90a --emit=ptx -o "$work/$name" \
      $flags > "$work/$name.log" 2>&1; then
    echo "FAIL $name: $(tail -1 "$work/$name.log")"; fails=$((fails + 1)); continue
  fi
  for f in "$work/$name"/*.ptx "$work/$name"/*.json; do
    cp "$f" "$DEST/${name}__$(basename "$f")"
  done
done < "$LIST"
(cd "$DEST" && sha256sum -- *.ptx *.json > sums.txt)
echo "$(grep -c '\.ptx$' "$DEST/sums.txt") PTX files in $DEST, $fails failed"
[ "$fails" -eq 0 ]
