#!/usr/bin/env bash
# Real programs under Nsight Compute (docs/measuring.md, "Real code"): cuda-samples
# programs built for sm_90 (bench/gpu/realcode.sh --build, here, with nvcc's -Xptxas -v
# logs), each run under ncu with the launch and occupancy metrics, at most LAUNCHES
# profiled launches per program (default 40), each program under a 90 s limit. Then, on
# any machine: `warplint report SOURCES --arch sm_90 --registers-from ptxas-log
# --ptxas-log NAME.ptxas.log --ncu NAME.csv` holds every profiled launch against
# warplint's record of it (bench/gpu/realcode-compare.py).
# llm.c's dev/cuda programs too (each one file; they time every kernel variant over block
# sizes 32 to 1024), when --build is given LLM_C as a third argument.
# usage: bench/gpu/realcode.sh --build CUDA_SAMPLES BIN_DIR [LLM_C]
#        bench/gpu/realcode.sh OUT_DIR BIN_DIR
set -u
ncu=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || echo ncu)}
samples=(0_Introduction/vectorAdd 0_Introduction/matrixMul 0_Introduction/mergeSort
  2_Concepts_and_Techniques/histogram 2_Concepts_and_Techniques/scan
  2_Concepts_and_Techniques/sortingNetworks 2_Concepts_and_Techniques/convolutionSeparable
  2_Concepts_and_Techniques/reduction 2_Concepts_and_Techniques/threadFenceReduction
  5_Domain_Specific/fastWalshTransform 5_Domain_Specific/BlackScholes
  5_Domain_Specific/quasirandomGenerator 6_Performance/transpose 6_Performance/alignedTypes)
llmc=(softmax_forward layernorm_forward gelu_forward residual_forward adamw encoder_forward
  crossentropy_forward permute global_norm fused_residual_forward gelu_backward
  layernorm_backward)
if [ "${1:-}" = --build ]; then
  src=$2 bin=$3
  mkdir -p "$bin"
  for d in "${samples[@]}"; do
    n=$(basename "$d")
    nice nvcc -arch=sm_90 -O3 -lineinfo -I"$src/Common" -Xptxas -v -o "$bin/$n" \
      "$src/Samples/$d"/*.cu $(ls "$src/Samples/$d"/*.cpp 2>/dev/null) 2> "$bin/$n.ptxas.log" &&
      echo "built $n" || echo "FAILED $n"
  done
  if [ -n "${4:-}" ]; then
    for n in "${llmc[@]}"; do
      nice nvcc -arch=sm_90 -O3 --use_fast_math -std=c++17 -lineinfo -Xptxas -v \
        -o "$bin/llmc-$n" "$4/dev/cuda/$n.cu" -lcublas -lcublasLt 2> "$bin/llmc-$n.ptxas.log" &&
        echo "built llmc-$n" || echo "FAILED llmc-$n"
    done
  fi
  exit 0
fi
out=$1 bin=$(cd "$2" && pwd)
mkdir -p "$out"
metrics=launch__block_size,launch__grid_size,launch__registers_per_thread
metrics+=,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic
metrics+=,launch__occupancy_limit_blocks,launch__occupancy_limit_registers
metrics+=,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps
metrics+=,launch__waves_per_multiprocessor
metrics+=,sm__maximum_warps_per_active_cycle_pct,sm__warps_active.avg.pct_of_peak_sustained_active
names=()
for d in "${samples[@]}"; do names+=("$(basename "$d")"); done
for n in "${llmc[@]}"; do names+=("llmc-$n"); done
for n in "${names[@]}"; do
  [ -x "$bin/$n" ] || { echo "$n: not built" >> "$out/steps.txt"; continue; }
  cp "$bin/$n.ptxas.log" "$out/" 2>/dev/null
  t0=$(date +%s)
  (cd "$out" && timeout --kill-after=5 90 "$ncu" --csv --page raw --print-units base \
    --clock-control none -c "${LAUNCHES:-40}" --metrics "$metrics" "$bin/$n" > "$n.out" 2>&1)
  rc=$?
  sed -n '/^"ID"/,$p' "$out/$n.out" > "$out/$n.csv"
  echo "$n rc=$rc $(( $(date +%s) - t0 )) s, $(( $(wc -l < "$out/$n.csv") - 2 )) launches" >> "$out/steps.txt"
done
cat "$out/steps.txt"
