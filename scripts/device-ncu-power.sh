#!/usr/bin/env bash
# Runs ON the GPU machine: for each bundle, its kernel and the cuBLAS kernel
# timed against it, both inside `tcgen-gpu bench` under ncu (two launches
# each, clocks unlocked): duration, the SM clock ncu saw, elapsed cycles,
# instructions, L2 sectors (by source and direction) and DRAM bytes: where a
# kernel of the same cycles runs at a lower clock under the power cap, what
# it moves more. Usage: scripts/device-ncu-power.sh BUNDLE_DIR...
# Raw rows in $OUT/ncu-power.csv (bundle, launch, kernel, metric, value).
set -uo pipefail
# shellcheck source=scripts/device-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/device-env.sh"
GPU="$CARRY/bin/tcgen-gpu"
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.max
M=$M,smsp__inst_executed.sum,lts__t_sectors.sum,dram__bytes.sum
M=$M,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
M=$M,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum
M=$M,${NCU_EXTRA_METRICS:-lts__t_sectors_op_read.sum}
echo "bundle,launch,kernel,metric,value" > "$OUT/ncu-power.csv"
for b in "$@"; do
  b="${b%/}"; n=$(basename "$b")
  raw="$OUT/ncu-power_$n.csv"
  timeout 200 ncu --clock-control none -k "regex:_kernel$|nvjet|sm90_" -c 4 --metrics "$M" --csv \
    "$GPU" bench "$b" --iters 2 --warmup 1 --no-cublaslt > "$raw" 2> "${raw%.csv}.err" ||
    { echo "$n failed: $(tail -2 "${raw%.csv}.err")"; continue; }
  grep -E '^"[0-9]' "$raw" | awk -F'","' -v b="$n" '{id=$1; gsub(/"/, "", id); k=$5;
    sub(/\(.*/, "", k); v=$NF; gsub(/[",]/, "", v); print b "," id "," k "," $(NF-2) "," v}' \
    >> "$OUT/ncu-power.csv"
done
# The second launch of each kernel, one line per bundle and kernel.
tail -n +2 "$OUT/ncu-power.csv" | awk -F, '
  { key=$1 " " substr($3, 1, 28); if ($2 > seen[key]) { seen[key]=$2 }; val[key, $4]=$5; keys[key]=1 }
  END { for (k in keys) printf "%s us=%.1f GHz=%.3f cyc=%d inst=%.1fM l2=%.1fM rd=%.1fM wr=%.1fM fabric=%.1fM miss=%.1fM dram=%.3fGB\n", k,
          val[k,"gpu__time_duration.sum"]/1000, val[k,"sm__cycles_elapsed.avg.per_second"]/1e9,
          val[k,"sm__cycles_elapsed.max"], val[k,"smsp__inst_executed.sum"]/1e6,
          val[k,"lts__t_sectors.sum"]/1e6, val[k,"lts__t_sectors_srcunit_tex_op_read.sum"]/1e6,
          val[k,"lts__t_sectors_srcunit_tex_op_write.sum"]/1e6,
          val[k,"lts__t_sectors_srcunit_ltcfabric.sum"]/1e6,
          val[k,"lts__t_sectors_srcunit_tex_lookup_miss.sum"]/1e6, val[k,"dram__bytes.sum"]/1e9 }' | sort
