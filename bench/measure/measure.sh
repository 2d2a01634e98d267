#!/usr/bin/env bash
# Predicted against measured on a GPU machine (docs/measuring.md): builds
# occupancy_trace.cu with nvcc for the machine's GPU, runs it (trace.jsonl: a traced launch
# of regLimited<1>, <2>, <3> at 4 full waves and a tail-heavy regLimited<2>; cost.txt: the
# trace's cost), profiles the same program with ncu (ncu.csv, raw page), and holds both
# against warplint's figures: `warplint timeline` (timeline.html, timeline.txt) and
# `warplint report --ncu` (report.html).
# usage: bench/measure/measure.sh [WARPLINT] [OUT_DIR]   (defaults: build/bin/warplint, $OUT or /tmp/measure)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
warplint=${1:-$root/build/bin/warplint}
out=${2:-${OUT:-/tmp/measure}}
mkdir -p "$out"
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ncu=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || echo ncu)}
arch=${ARCH:-$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)}

"$nvcc" -arch=sm_$arch -O3 -I"$root/trace/include" -Xptxas -v -o "$out/occupancy_trace" \
  "$here/occupancy_trace.cu" 2> "$out/ptxas.log"
"$out/occupancy_trace" "$out"
cat "$out/cost.txt"

metrics=launch__block_size,launch__grid_size,launch__registers_per_thread
metrics+=,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic
metrics+=,launch__occupancy_limit_blocks,launch__occupancy_limit_registers
metrics+=,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps
metrics+=,sm__maximum_warps_per_active_cycle_pct,sm__warps_active.avg.pct_of_peak_sustained_active
metrics+=,smsp__sass_average_branch_targets_threads_uniform.pct
metrics+=,smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum
mkdir -p "$out/ncu-run"
"$ncu" --csv --page raw --print-units base --metrics "$metrics" \
  "$out/occupancy_trace" "$out/ncu-run" > "$out/ncu.csv"

flags=(--registers-from ptxas-log --ptxas-log "$out/ptxas.log" --arch sm_$arch)
"$warplint" check "$here/occupancy_trace.cu" "${flags[@]}" --format json -o "$out/check.json" \
  -- -I"$root/trace/include" || true
"$warplint" timeline "$out/trace.jsonl" --check "$out/check.json" -o "$out/timeline.html" \
  | tee "$out/timeline.txt" || true
"$warplint" report "$here/occupancy_trace.cu" "${flags[@]}" --ncu "$out/ncu.csv" \
  -o "$out/report.html" -- -I"$root/trace/include" || true
echo "measure: results in $out"
