#!/usr/bin/env bash
# compute-sanitizer over every back end x feature: the bundles of
# bench/suites/sanitize-matrix.txt, each checked by `tcgen-gpu run --check`
# under memcheck, racecheck, synccheck and initcheck, with a table.
#
#   scripts/gpu-sanitize.sh prepare [DIR [LIST]]
#       Here (MLIR, no GPU): compiles LIST (default the suite above) into
#       DIR/bundles/NAME (DIR default carry/gpu-sanitize), writes each
#       bundle's run options to DIR/runs.txt and copies tcgen-gpu into
#       DIR/bin. Exits 1 if a bundle does not compile.
#   scripts/gpu-sanitize.sh run [DIR]
#       On the GPU machine (tcgen-gpu's CUDA libraries and compute-sanitizer
#       only; no MLIR): for every bundle a plain check, then the four tools,
#       JOBS (default 8) at a time; prints a table (also $OUT/gpu-sanitize.txt)
#       and keeps the logs in $OUT/gpu-sanitize-logs.tgz. Exits 1 on a failed
#       check or any sanitizer error, 77 (skipped) without a GPU.
#
# Environment: OUT (default ./out), JOBS, TOOLS (default "memcheck racecheck
# synccheck initcheck"), SAN_TIMEOUT (seconds per run, default 300),
# DEADLINE (seconds for the whole run, default 540: later runs are skipped
# and counted, a tool's column at a time), SANITIZER (compute-sanitizer's
# path), TCGEN and TCGEN_GPU (prepare: the compiler and tcgen-gpu).
set -uo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$SRC" || exit 1
MODE="${1:-}"
DIR="${2:-$SRC/carry/gpu-sanitize}"

prepare() {
  local list="${1:-$SRC/bench/suites/sanitize-matrix.txt}"
  local tcgen="${TCGEN:-$SRC/build/bin/tcgen}" gpu="${TCGEN_GPU:-$SRC/build/bin/tcgen-gpu}"
  [ -x "$tcgen" ] || { echo "prepare: $tcgen not found (build it first)" >&2; return 1; }
  [ -x "$gpu" ] || { echo "prepare: $gpu not found (build tcgen-gpu first)" >&2; return 1; }
  rm -rf "$DIR"
  mkdir -p "$DIR/bundles" "$DIR/bin" "$DIR/mlir" "$DIR/logs"
  cp -f "$gpu" "$DIR/bin/"
  : >"$DIR/runs.txt"
  local name input flags run fails=0 count=0
  while IFS='|' read -r name input flags run; do
    name=$(echo "$name" | xargs); input=$(echo "$input" | xargs)
    case "$name" in '' | '#'*) continue ;; esac
    count=$((count + 1))
    local args=()
    eval "args=($flags)"
    if [[ $input == gen\ * ]]; then
      local gen=()
      eval "gen=(${input#gen })"
      "$SRC/test/utils/gen_matmul.py" "${gen[@]}" --name "$name" >"$DIR/mlir/$name.mlir"
      args=("$DIR/mlir/$name.mlir" "${args[@]}")
    elif [ "$input" != spec ]; then
      args=("$SRC/$input" "${args[@]}")
    fi
    if "$tcgen" compile "${args[@]}" -o "$DIR/bundles/$name" >"$DIR/logs/$name.log" 2>&1; then
      # A directory of several kernels: one run per manifest.
      local manifests=("$DIR/bundles/$name"/*.json)
      if [ "${#manifests[@]}" -gt 1 ]; then
        for j in "${manifests[@]}"; do
          echo "$name/$(basename "$j")|$(echo "$run" | xargs)" >>"$DIR/runs.txt"
        done
      else
        echo "$name|$(echo "$run" | xargs)" >>"$DIR/runs.txt"
      fi
      echo "  $name"
    else
      echo "FAIL $name: $(grep -m1 error "$DIR/logs/$name.log" || tail -1 "$DIR/logs/$name.log")"
      fails=$((fails + 1))
    fi
  done <"$list"
  rm -rf "$DIR/mlir"
  echo "prepare: $((count - fails)) of $count bundles in $DIR ($(du -sh "$DIR" | cut -f1))"
  echo "then on the GPU machine: scripts/gpu-sanitize.sh run${2:+ $DIR}"
  [ "$fails" -eq 0 ]
}

# One run: NAME TOOL RUNFLAGS... ("check": no sanitizer). Writes
# $LOGS/NAME.TOOL.log and prints "NAME TOOL CELL".
one() {
  local name=$1 tool=$2; shift 2
  local log="$LOGS/${name//\//_}.$tool.log" rc cell left
  # Past the deadline the remaining runs are skipped (and counted).
  left=$((END - $(date +%s)))
  if [ "$left" -le 0 ]; then echo "$name $tool SKIPPED"; return; fi
  [ "$left" -gt "${SAN_TIMEOUT:-300}" ] && left=${SAN_TIMEOUT:-300}
  local cmd=("$GPU" run "$DIR/bundles/$name" --check "$@")
  [ "$tool" != check ] && cmd=("$SAN" --tool "$tool" --error-exitcode 3 --print-limit 20 "${cmd[@]}")
  timeout "$left" "${cmd[@]}" >"$log" 2>&1
  rc=$?
  if [ $rc -eq 124 ]; then
    cell=TIMEOUT
  elif [ "$tool" = check ]; then
    [ $rc -eq 0 ] && cell=PASS || cell="FAIL($rc)"
  else
    # "ERROR SUMMARY: N errors"; racecheck: "RACECHECK SUMMARY: N hazards
    # displayed (E errors, W warnings)".
    local errors
    errors=$(grep -oE 'ERROR SUMMARY: [0-9]+|\([0-9]+ errors' "$log" | grep -oE '[0-9]+' | tail -1)
    if [ $rc -eq 0 ] && [ "${errors:-x}" = 0 ]; then cell=0
    elif [ -n "$errors" ] && [ "$errors" != 0 ]; then cell="${errors}err"
    else cell="FAIL($rc)"; fi
  fi
  echo "$name $tool $cell"
}

run() {
  # shellcheck source=scripts/device-env.sh
  source "$SRC/scripts/device-env.sh"
  GPU="$DIR/bin/tcgen-gpu"
  SAN="${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}"
  LOGS="$OUT/gpu-sanitize-logs"
  local tools=(check ${TOOLS:-memcheck racecheck synccheck initcheck})
  if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "gpu-sanitize: no GPU (nvidia-smi -L fails): skipped"; return 77
  fi
  [ -x "$SAN" ] || { echo "gpu-sanitize: no compute-sanitizer at $SAN" >&2; return 1; }
  [ -f "$DIR/runs.txt" ] || { echo "gpu-sanitize: no $DIR/runs.txt (run prepare here first)" >&2; return 1; }
  "$GPU" --help >/dev/null 2>&1 || { echo "gpu-sanitize: $GPU does not start:"; "$GPU" --help 2>&1 | head -3; return 1; }
  rm -rf "$LOGS"; mkdir -p "$LOGS"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  "$SAN" --version | tail -1
  END=$(($(date +%s) + ${DEADLINE:-540}))
  export GPU SAN LOGS DIR SAN_TIMEOUT END
  export -f one
  local results="$OUT/gpu-sanitize.raw" start=$SECONDS
  # A tool's column at a time (the plain checks first), so that a run
  # stopped early still has whole columns. (xargs -L joins a line that
  # ends in a blank with the next: none does.)
  for tool in "${tools[@]}"; do
    while IFS='|' read -r name runflags; do
      echo "$name $tool $runflags" | sed 's/ *$//'
    done <"$DIR/runs.txt"
  done | xargs -P "${JOBS:-8}" -L 1 bash -c 'one "$@"' _ >"$results"
  # The table: a row per bundle, a column per tool.
  local table="$OUT/gpu-sanitize.txt" bad=0 n=0 skipped=0
  {
    printf '%-22s' bundle; printf ' %-9s' "${tools[@]}"; echo
    while IFS='|' read -r name _; do
      n=$((n + 1))
      printf '%-22s' "$name"
      for tool in "${tools[@]}"; do
        cell=$(awk -v n="$name" -v t="$tool" '$1 == n && $2 == t {print $3}' "$results")
        printf ' %-9s' "${cell:-MISSING}"
        case "${cell:-MISSING}" in PASS | 0) ;; SKIPPED) skipped=$((skipped + 1)) ;; *) bad=$((bad + 1)) ;; esac
      done
      echo
    done <"$DIR/runs.txt"
    echo "gpu-sanitize: $n bundles x ${#tools[@]} runs in $((SECONDS - start)) s: $bad failed or reported errors, $skipped skipped (past DEADLINE)"
  } | tee "$table"
  (cd "$OUT" && tar czf gpu-sanitize-logs.tgz gpu-sanitize-logs && rm -rf gpu-sanitize-logs gpu-sanitize.raw)
  grep -q ': 0 failed' "$table"
}

case "$MODE" in
prepare) prepare "${3:-}" ;;
run) run ;;
*) sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
