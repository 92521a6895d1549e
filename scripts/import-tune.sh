#!/usr/bin/env bash
# Here, after scripts/device-study.sh timed carry/tune-dirs on the GPU
# machine: puts each shape's CSV from its tune.tgz back as
# carry/tune-dirs/<shape>/measured.csv and runs tcgen tune --import over all
# shapes (the model's accuracy, the winners into the tuning cache, the
# calibration).
#   scripts/import-tune.sh TUNE_TGZ CACHE_FILE
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TCGEN="${TCGEN:-$SRC/build/bin/tcgen}"
TGZ=$1 CACHE=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
tar xzf "$TGZ" -C "$TMP"
dirs=()
for csv in "$TMP"/tune/*.csv; do
  n=$(basename "$csv" .csv)
  [ -d "$SRC/carry/tune-dirs/$n" ] || { echo "no carry/tune-dirs/$n" >&2; continue; }
  cp "$csv" "$SRC/carry/tune-dirs/$n/measured.csv"
  dirs+=("$SRC/carry/tune-dirs/$n")
done
"$TCGEN" tune --import "${dirs[@]}" --tuning-cache="$CACHE"
