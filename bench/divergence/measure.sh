#!/usr/bin/env bash
# Builds kernels.cu with and without -G and reads the branch metrics with ncu (GPU machine).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ncu=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || echo ncu)}
metrics=smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_average_branch_targets_threads_uniform.pct
for mode in O3 G; do
  flags=(-arch=native -o "$out/div_$mode")
  [ "$mode" = G ] && flags+=(-G)
  "$nvcc" "${flags[@]}" "$here/kernels.cu"
  "$ncu" --metrics "$metrics" --csv "$out/div_$mode" > "$out/ncu_$mode.csv"
done
