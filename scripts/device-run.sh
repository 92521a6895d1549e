#!/usr/bin/env bash
# Runs ON the GPU machine, from the repository root, with carry/ next to it:
#   carry/bin/{tcgen-gpu,tcgen-gpu-tests}  prebuilt here by scripts/device-collect.sh
#   carry/bundles/<name>/                  bundles to check (tcgen-gpu run --check)
#   carry/bench-bundles/<name>/            bundles to time against cuBLAS
#   carry/ref-bundles/<name>/              optional: bench/refbundles self-test bundles
# Steps: make sure tcgen-gpu starts (else build it from source in
# /tmp/build-gpu, with no MLIR), print the GPU, check every bundle
# (compute-sanitizer memcheck on small ones when SANITIZE=1), run
# tcgen-gpu-tests, time carry/bench-bundles into $OUT/bench.csv, print a
# summary. Exits 1 if anything failed.
#
# Environment: OUT (default ./out), SANITIZE=1, BENCH_ARGS (extra options
# for tcgen-gpu bench, e.g. "--iters 100"), CARRY (default ./carry).
# Logs in $OUT (few files on purpose): device-run.log (everything),
# checks.log, gpu-tests.log, bench.log, bench.csv, build.log, summary.txt.
set -uo pipefail
# shellcheck source=scripts/device-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/device-env.sh"
SANITIZE="${SANITIZE:-0}"
SANITIZE_MAX_MNK=$((1 << 30)) # memcheck is slow: small bundles only
exec > >(tee -a "$OUT/device-run.log") 2>&1

SUMMARY=()  # "kind|name|result|detail"
FAILED=0
note() { SUMMARY+=("$1|$2|$3|$4"); [ "$3" = FAIL ] && FAILED=1; return 0; }
section() { printf '\n=== %s\n' "$*"; }

# --- 1. Binaries --------------------------------------------------------------
section "binaries"
GPU="$CARRY/bin/tcgen-gpu"
TESTS="$CARRY/bin/tcgen-gpu-tests"
REF="$CARRY/ref-bundles"
if "$GPU" --help >/dev/null 2>&1; then
  echo "using prebuilt $GPU"
  if ! "$TESTS" --gtest_list_tests >/dev/null 2>&1; then
    echo "prebuilt $TESTS missing or does not start: gpu-tests skipped"
    TESTS=""
  fi
else
  echo "prebuilt $GPU does not start:"
  "$GPU" --help 2>&1 | head -3
  echo "building the runtime and GPU tools from source in /tmp/build-gpu (log: $OUT/build.log)"
  BUILD=/tmp/build-gpu
  if cmake -G Ninja -S . -B "$BUILD" -DTCGEN_BUILD_COMPILER=OFF \
      -DCMAKE_BUILD_TYPE=Release >"$OUT/build.log" 2>&1; then
    targets=(tcgen-gpu tcgen-ref-bundles)
    if ninja -C "$BUILD" -t targets all 2>/dev/null | grep -q '^tcgen-gpu-tests:'; then
      targets+=(tcgen-gpu-tests)
    else
      echo "no GoogleTest on this machine: building tcgen-gpu only (gpu-tests skipped)"
    fi
    ninja -C "$BUILD" "${targets[@]}" >>"$OUT/build.log" 2>&1 ||
      { echo "build failed; tail of build.log:"; tail -30 "$OUT/build.log"; }
  else
    echo "configure failed; tail of build.log:"; tail -30 "$OUT/build.log"
  fi
  GPU="$BUILD/bin/tcgen-gpu"
  TESTS="$BUILD/bin/tcgen-gpu-tests"
  [ -x "$TESTS" ] || TESTS=""
  [ -d "$REF" ] || REF="$BUILD/ref-bundles"
  if ! "$GPU" --help >/dev/null 2>&1; then
    note build tcgen-gpu FAIL "no working tcgen-gpu (see build.log)"
    GPU=""
  else
    note build tcgen-gpu ok "built from source"
  fi
fi

# --- 2. Device ----------------------------------------------------------------
section "device"
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total,clocks.max.sm,power.limit,temperature.gpu,utilization.gpu \
    --format=csv 2>&1
else
  echo "nvidia-smi not found"
fi

# --- 3. Checks ----------------------------------------------------------------
# check KIND DIR: tcgen-gpu run --check on every bundle directory in DIR.
check_dir() {
  local kind="$1" dir="$2" b name line rc m n k
  [ -d "$dir" ] || return 0
  for b in "$dir"/*/; do
    [ -d "$b" ] || continue
    b="${b%/}"; name="$(basename "$b")"
    echo "--- $kind $name" >>"$OUT/checks.log"
    line="$(timeout "${CHECK_TIMEOUT:-120}" "$GPU" run "$b" --check 2>&1)"; rc=$?
    [ $rc -eq 124 ] && line="$line TIMEOUT (killed after ${CHECK_TIMEOUT:-120} s: hung kernel?)"
    printf '%s\n' "$line" >>"$OUT/checks.log"
    printf '%-8s %-40s %s\n' "$kind" "$name" "$(printf '%s' "$line" | tail -1)"
    if [ $rc -eq 0 ]; then
      note "$kind" "$name" PASS "$(printf '%s' "$line" | grep -o 'maxnorm=.*' | head -1)"
    else
      note "$kind" "$name" FAIL "$(printf '%s' "$line" | tail -1 | cut -c1-160)"
    fi
    if [ "$SANITIZE" = 1 ] && [ $rc -eq 0 ]; then
      read -r m n k < <(printf '%s' "$line" | awk '/^CHECK /{print $3, $4, $5}')
      if [ -n "${k:-}" ] && [ $((m * n * k)) -le $SANITIZE_MAX_MNK ]; then
        local cs; cs="$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)"
        echo "--- memcheck $name" >>"$OUT/checks.log"
        if "$cs" --tool memcheck --error-exitcode 3 "$GPU" run "$b" >>"$OUT/checks.log" 2>&1; then
          note memcheck "$name" PASS "compute-sanitizer memcheck clean"
        else
          note memcheck "$name" FAIL "compute-sanitizer memcheck reported errors (checks.log)"
        fi
      fi
    fi
  done
}

if [ -n "$GPU" ]; then
  section "checks (log: $OUT/checks.log)"
  : >"$OUT/checks.log"
  check_dir ref "$REF"
  check_dir bundle "$CARRY/bundles"
  ls "$CARRY/bundles"/*/ >/dev/null 2>&1 || echo "no bundles in $CARRY/bundles"
fi

# --- 3b. SASS guards ----------------------------------------------------------
# sm90 kernels must use HGMMA or QGMMA (fp8) and TMA (UTMALDG; UTMASTG with
# store = "tma"),
# WMMA kernels HMMA, simt kernels FFMA and no tensor-core op; no kernel may
# touch local memory (LDL/STL: spills or dynamically indexed arrays).
if command -v cuobjdump >/dev/null 2>&1; then
  section "SASS guards"
  for b in "$CARRY"/bundles/*/ "$CARRY"/bench-bundles/*/; do
    [ -d "$b" ] || continue
    cubin=$(ls "$b"*.cubin 2>/dev/null | head -1)
    [ -n "$cubin" ] || continue
    name=$(basename "$b")
    detail=$(sass_counts "$cubin")
    # The fields in sass_counts' order (QGMMA: fp8 wgmma).
    read -r hgmma qgmma tma hmma ldl stl tmastg ffma < <(tr -c '0-9\n' ' ' <<<"$detail")
    if grep -q '"backend": "simt"' "$b"*.json; then
      ok=$(( ffma > 0 && hgmma + qgmma + hmma == 0 && ldl == 0 && stl == 0 ))
    elif grep -q '"backend": "sm90"' "$b"*.json; then
      ok=$(( hgmma + qgmma > 0 && tma > 0 && ldl == 0 && stl == 0 ))
      if grep -q '"store": "tma"' "$b"*.json && [ "$tmastg" = 0 ]; then ok=0; fi
    else
      ok=$(( hmma > 0 && ldl == 0 && stl == 0 ))
    fi
    if [ $ok = 1 ]; then note sass "$name" PASS "$detail"; else note sass "$name" FAIL "$detail"; fi
  done
fi

# --- 4. gpu-tests -------------------------------------------------------------
if [ -n "$TESTS" ]; then
  section "tcgen-gpu-tests (log: $OUT/gpu-tests.log)"
  TCGEN_GPU_BUNDLES="$CARRY/bundles" TCGEN_REF_BUNDLES="$REF" \
    "$TESTS" >"$OUT/gpu-tests.log" 2>&1
  rc=$?
  grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/gpu-tests.log" | head -20
  if [ $rc -eq 0 ] || [ $rc -eq 77 ]; then
    note gpu-tests tcgen-gpu-tests PASS "$(grep -E '^\[  PASSED' "$OUT/gpu-tests.log" | head -1)"
  else
    note gpu-tests tcgen-gpu-tests FAIL "exit $rc (gpu-tests.log)"
  fi
fi

# --- 5. Bench -----------------------------------------------------------------
if [ -n "$GPU" ] && ls "$CARRY/bench-bundles"/*/ >/dev/null 2>&1; then
  section "bench (log: $OUT/bench.log, csv: $OUT/bench.csv)"
  # shellcheck disable=SC2086
  timeout "${BENCH_TIMEOUT:-400}" "$GPU" bench "$CARRY/bench-bundles"/*/ --device-name --csv "$OUT/bench.csv" \
    ${BENCH_ARGS:-} 2>&1 | tee "$OUT/bench.log"
  rc=${PIPESTATUS[0]}
  if [ $rc -eq 0 ]; then
    note bench bench-bundles PASS "$(grep -c '' "$OUT/bench.csv" 2>/dev/null) csv lines"
  else
    note bench bench-bundles FAIL "exit $rc (bench.log)"
  fi
else
  echo; echo "no bundles in $CARRY/bench-bundles: bench skipped"
fi

# --- 6. Summary ---------------------------------------------------------------
section "summary"
{
  printf '%-10s %-40s %-6s %s\n' KIND NAME RESULT DETAIL
  for row in "${SUMMARY[@]}"; do
    IFS='|' read -r kind name result detail <<<"$row"
    printf '%-10s %-40s %-6s %s\n' "$kind" "$name" "$result" "$detail"
  done
  [ "${#SUMMARY[@]}" -eq 0 ] && echo "(nothing ran)"
  [ $FAILED -eq 0 ] && echo "device-run: all passed" || echo "device-run: FAILURES above"
} | tee "$OUT/summary.txt"
# Everything in one archive as well (the device tool returns at most 8 files).
(cd "$OUT" && tar czf device-run.tgz --exclude='*.tgz' ./*.csv ./*.log ./*.txt 2>/dev/null)
exit $FAILED
