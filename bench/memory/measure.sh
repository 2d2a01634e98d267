#!/usr/bin/env bash
# Holds warplint's per-warp predictions for bench/memory/kernels.cu against Nsight
# Compute. Needs a GPU, nvcc and ncu; prints warplint's findings, then ncu's counters per
# kernel: sectors and requests of global loads and stores, shared-memory wavefronts and
# bank conflicts of loads and stores.
#
# usage: bench/memory/measure.sh [ARCH]        (ARCH default sm_86)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
arch=${1:-sm_86}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== warplint's predictions"
"$root/build/bin/warplint" check --registers-from none \
  --checks='-*,warplint-uncoalesced-access,warplint-shared-bank-conflict' \
  "$here/kernels.cu" -- -x cuda --cuda-device-only --cuda-gpu-arch="$arch" \
  -Wno-unknown-cuda-version || true

command -v ncu >/dev/null || { echo "ncu not found: no measurement" >&2; exit 2; }
nvcc -O3 -arch="$arch" -lineinfo -o "$out/memory-bench" "$here/kernels.cu"
echo "== Nsight Compute"
ncu --csv --metrics \
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
smsp__inst_executed_op_shared_ld.sum,\
smsp__inst_executed_op_shared_st.sum \
  "$out/memory-bench"
