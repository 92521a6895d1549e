#!/usr/bin/env bash
# Here, after scripts/device-study.sh timed carry/tune-dirs on the GPU
# machine: puts each shape's CSV from its tune.tgz back as
# carry/tune-dirs/<shape>/measured.csv and runs tcgen tune --import over all
# shapes (the model's accuracy, the winners into the tuning cache, the
# calibration).
#   scripts/import-tune.sh TUNE_TGZ CACHE_FILE [--winners]
# With --winners it also lists each shape's fastest bundle in
# carry/winners.txt, for scripts/device-tune.sh to check.
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TCGEN="${TCGEN:-$SRC/build/bin/tcgen}"
TGZ=$1 CACHE=$2 WINNERS=${3:-}
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
"$TCGEN" tune --import "${dirs[@]}" --tuning-cache="$CACHE" | tee "$TMP/import.log"
if [ "$WINNERS" = --winners ]; then
  # The fastest candidate of rank r is bundle c<r-1> of its shape; the
  # import prints the shapes in the order of its arguments.
  i=0
  : > "$SRC/carry/winners.txt"
  while read -r line; do
    case "$line" in
      "tcgen tune: sm_90a "*) d=${dirs[$i]}; i=$((i + 1)) ;;
      *"<- fastest"*) r=$(echo "$line" | awk '{print $1}')
        printf 'carry/tune-dirs/%s/c%02d\n' "$(basename "$d")" $((r - 1)) >> "$SRC/carry/winners.txt" ;;
    esac
  done < "$TMP/import.log"
  echo "wrote carry/winners.txt ($(wc -l < "$SRC/carry/winners.txt") bundles)"
fi
