#!/usr/bin/env bash
# Every measurement warplint's predictions are held against, in one run on a GPU machine
# (docs/measuring.md, "Measured on an H200"). It needs an NVIDIA GPU, nvcc, ncu and
# compute-sanitizer; warplint itself is not needed there: bench/gpu/compare.py holds the
# results against warplint's model afterwards, on any machine.
#
# It runs each step under its own time limit and goes on when a step fails, so that a
# window without performance counters (ncu's ERR_NVGPUCTRPERM) still yields the runtime's
# occupancy and cluster answers, the block traces, the trace's cost, the timings and the
# sanitizer's findings. steps.txt says, step by step, its exit status and seconds;
# summary.txt says what was recorded and what was not. Everything goes to OUT_DIR and, as
# one archive, to OUT_DIR/gpu-results.tar.gz.
#
# Programs: prebuilt for sm_90 in BIN_DIR (default .gpu/, made by `bench/gpu/run.sh --build`
# here, with nvcc's -Xptxas -v logs the comparison reads), or built on the spot for the
# GPU's own architecture when missing or built for another.
#
# usage: bench/gpu/run.sh [--build] [OUT_DIR] [BIN_DIR]
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build_only=0
if [ "${1:-}" = --build ]; then
  build_only=1
  shift
fi
out=${1:-${OUT:-/tmp/gpu}}
bin=${2:-$root/.gpu}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ncu=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || echo ncu)}
sanitizer=${SANITIZER:-$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || echo compute-sanitizer)}
mkdir -p "$out" "$bin"
steps="$out/steps.txt"
: > "$steps"

# step NAME LIMIT_S COMMAND...: runs it, its output in NAME.out, one line in steps.txt.
step() {
  local name=$1 limit=$2
  shift 2
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout --kill-after=5 "$limit" "$@" > "$out/$name.out" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  printf '%-22s rc=%-3s %6.1f s  %s\n' "$name" "$rc" "$(awk "BEGIN{print $t1 - $t0}")" "$*" >> "$steps"
  return $rc
}

# The programs: source, extra nvcc flags.
declare -A src=(
  [occupancy_api]=bench/gpu/occupancy_api.cu
  [occupancy_trace]=bench/measure/occupancy_trace.cu
  [trace_cost]=bench/gpu/trace_cost.cu
  [advice_timing]=bench/gpu/advice_timing.cu
  [sync_kernels]=bench/gpu/sync_kernels.cu
  [divergence]=bench/divergence/kernels.cu
  [memory]=bench/memory/kernels.cu
  [divergence_G]=bench/divergence/kernels.cu
  [cluster_probe]=bench/gpu/cluster_probe.cu
)
# -G: nvcc keeps every branch as written (at -O3 the divergence kernels' arms become
# predicated instructions and selects, and ncu counts no branch at all).
declare -A extra=([divergence_G]=-G)
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .)
arch=sm_${cc:-90}
build() {
  local name=$1
  local opt=(-O3 -lineinfo)
  [ -n "${extra[$name]:-}" ] && opt=(${extra[$name]})
  "$nvcc" -arch="$arch" "${opt[@]}" -I"$root/trace/include" -Xptxas -v \
    -o "$bin/$name" "$root/${src[$name]}" 2> "$bin/$name.ptxas.log"
  echo "$arch" > "$bin/$name.arch"
}
for name in "${!src[@]}"; do
  if [ ! -x "$bin/$name" ] || [ "$(cat "$bin/$name.arch" 2>/dev/null)" != "$arch" ]; then
    step "build-$name" 300 build "$name" || echo "build of $name failed" >&2
  fi
done
[ "$build_only" = 1 ] && { cat "$steps"; exit 0; }

# The machine.
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total,clocks.max.sm,clocks.sm \
    --format=csv 2>&1
  "$nvcc" --version 2>&1 | tail -2
  "$ncu" --version 2>&1 | tail -1
  "$sanitizer" --version 2>&1 | tail -1
  echo "programs built for $arch: $(cat "$bin"/*.arch 2>/dev/null | sort | uniq -c | tr '\n' ' ')"
} > "$out/env.txt" 2>&1
cp "$bin"/*.ptxas.log "$out/" 2>/dev/null

# 1. The runtime's occupancy and cluster answers.
step occupancy_api 60 "$bin/occupancy_api" "$out/runtime.jsonl"
# 1b. Clusters: the runtime's answer for every size at 1..16 blocks per SM, and the SMs
# each cluster ran on (which SMs share a GPC).
step cluster_probe 60 "$bin/cluster_probe" "$out/clusters.jsonl"
# 2. Block traces: regLimited<1>, <2>, <3> at 4 waves and a tail-heavy grid; cost.txt.
mkdir -p "$out/trace"
step occupancy_trace 120 "$bin/occupancy_trace" "$out/trace"
# 3. The trace header's cost per block on a short kernel.
step trace_cost 60 "$bin/trace_cost" "$out/trace_cost.jsonl"
# 4. Verified and spilling register advice, timed.
step advice_timing 60 "$bin/advice_timing" "$out/advice_timing.jsonl"
# 5. The sanitizer on the sync checks' cases (racecheck: shared memory only), each kernel
# alone (a divergent barrier may hang a kernel under the tool; and racecheck's print limit
# would otherwise be spent on the first racy kernel), 30 s each.
kernels=$(grep -o '^__global__ void [A-Za-z]*' "$root/bench/gpu/sync_kernels.cu" | awk '{print $3}')
for tool in racecheck synccheck; do
  flags=(--tool "$tool" --print-limit 200)
  [ "$tool" = racecheck ] && flags+=(--racecheck-detect-level info --racecheck-report all)
  for k in $kernels; do
    step "$tool-$k" 30 "$sanitizer" "${flags[@]}" "$bin/sync_kernels" "$k"
  done
  grep -H 'SUMMARY' "$out/$tool"-*.out > "$out/$tool.summary" 2>/dev/null
done

# 6. Nsight Compute (needs the performance counters).
occ=launch__block_size,launch__grid_size,launch__registers_per_thread
occ+=,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic
occ+=,launch__occupancy_limit_blocks,launch__occupancy_limit_registers
occ+=,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps
occ+=,launch__waves_per_multiprocessor
occ+=,sm__maximum_warps_per_active_cycle_pct,sm__warps_active.avg.pct_of_peak_sustained_active
branch=smsp__sass_average_branch_targets_threads_uniform.pct
branch+=,smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum
mem=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
mem+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
mem+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
mem+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
mem+=,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
ncu_run() { # NAME METRICS PROGRAM ARGS...
  local name=$1 metrics=$2
  shift 2
  step "ncu-$name" 150 "$ncu" --csv --page raw --print-units base --clock-control none \
    --metrics "$metrics" "$@"
  # The CSV starts at its header line (the program's own output and ncu's "==" lines come first).
  sed -n '/^"ID"/,$p' "$out/ncu-$name.out" > "$out/ncu-$name.csv"
}
mkdir -p "$out/ncu-scratch"
ncu_run occupancy "$occ,$branch" "$bin/occupancy_trace" "$out/ncu-scratch"
ncu_run advice "$occ" "$bin/advice_timing" "$out/ncu-scratch/advice.jsonl" 1
ncu_run divergence "$occ,$branch" "$bin/divergence"
ncu_run divergence-G "$occ,$branch" "$bin/divergence_G"
ncu_run memory "$occ,$mem" "$bin/memory"
rm -rf "$out/ncu-scratch"

# What was recorded.
{
  echo "machine:"
  sed 's/^/  /' "$out/env.txt"
  echo "steps:"
  sed 's/^/  /' "$steps"
  if grep -qs ERR_NVGPUCTRPERM "$out"/ncu-*.out; then
    echo "ncu: ERR_NVGPUCTRPERM, no permission for the performance counters: the ncu CSVs are"
    echo "  empty. Recorded without counters: runtime.jsonl (occupancy, potential block size,"
    echo "  clusters), trace/trace.jsonl and trace/cost.txt (measured resident blocks per SM),"
    echo "  trace_cost.jsonl, advice_timing.jsonl, clusters.jsonl, racecheck-*.out, synccheck-*.out."
  fi
  for f in runtime.jsonl trace/trace.jsonl trace/cost.txt trace_cost.jsonl advice_timing.jsonl \
    clusters.jsonl ncu-occupancy.csv ncu-advice.csv ncu-divergence.csv ncu-divergence-G.csv ncu-memory.csv racecheck.summary synccheck.summary; do
    if [ -s "$out/$f" ]; then
      printf '  %-22s %6d lines\n' "$f" "$(wc -l < "$out/$f")"
    else
      printf '  %-22s missing or empty\n' "$f"
    fi
  done
} > "$out/summary.txt"
tar -czf "$out/gpu-results.tar.gz" -C "$out" --exclude gpu-results.tar.gz .
cat "$out/summary.txt"
