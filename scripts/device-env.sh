# shellcheck shell=bash
# Sourced by the scripts that run ON the GPU machine: the repository root,
# the output and carry folders, and the CUDA libraries for the prebuilt
# binaries (their RUNPATH names this machine's toolkit path only if it
# matches the one they were built with).
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT" || exit 1
OUT="${OUT:-$ROOT/out}"
CARRY="${CARRY:-$ROOT/carry}"
mkdir -p "$OUT"
for d in /usr/local/cuda/lib64 /usr/local/cuda/lib; do
  [ -d "$d" ] && export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done

# sass_counts CUBIN: "HGMMA=.. QGMMA=.. UTMALDG=.. HMMA=.. LDL=.. STL=..
# UTMASTG=.. FFMA=.." of its SASS (tensor-core, TMA load/store and f32 FMA
# instructions present: HGMMA for 16-bit and tf32 wgmma, QGMMA for fp8;
# LDL/STL mean local memory).
sass_counts() {
  local sass
  sass=$(cuobjdump -sass "$1" 2>/dev/null)
  printf 'HGMMA=%s QGMMA=%s UTMALDG=%s HMMA=%s LDL=%s STL=%s UTMASTG=%s FFMA=%s' \
    "$(grep -c HGMMA <<<"$sass")" "$(grep -c QGMMA <<<"$sass")" \
    "$(grep -c UTMALDG <<<"$sass")" \
    "$(grep -c HMMA <<<"$sass")" "$(grep -c LDL <<<"$sass")" "$(grep -c STL <<<"$sass")" \
    "$(grep -c UTMASTG <<<"$sass")" "$(grep -c FFMA <<<"$sass")"
}

# ncu_pages NAME: from $OUT/NAME.ncu-rep (ncu --set full), the SASS source
# view with stall samples per instruction ($OUT/NAME-source.csv) and the
# details page ($OUT/NAME-details.txt); prints NAME and its duration.
ncu_pages() {
  local name=$1
  ncu -i "$OUT/$name.ncu-rep" --page source --csv --print-source sass \
    > "$OUT/$name-source.csv" 2> "$OUT/$name-source.err" ||
    echo "source page failed on $name: $(head -2 "$OUT/$name-source.err")"
  ncu -i "$OUT/$name.ncu-rep" --page details --print-details all \
    > "$OUT/$name-details.txt" 2>&1
  echo "$name: $(grep -m1 -E 'Duration' "$OUT/$name-details.txt")"
}
