#!/usr/bin/env bash
# warplint/trace.cuh compiles with nvcc or with clang in CUDA mode, and the PTX of a traced
# kernel reads %globaltimer and %smid and counts the block's threads with an atomic add.
# usage: trace-compile.sh nvcc|clang|mock INCLUDE_DIR OUT_DIR [CLANGXX]
# Exit 77 (skip) without nvcc (nvcc mode) or without a CUDA installation (clang mode:
# clang needs the toolkit's headers for the host side and libdevice). mock: clang's device
# side against warplint's mock CUDA header and Inputs/device-shim.h, no toolkit needed
# (what CI machines without CUDA run).
set -euo pipefail
mode=$1
inc=$2
out=$3
clangxx=${4:-clang++-22}
src=$(cd "$(dirname "$0")" && pwd)/Inputs/traced.cu
mkdir -p "$out"
fail() { echo "FAIL: $*" >&2; exit 1; }

cuda=${CUDA_PATH:-/usr/local/cuda}
nvcc=$(command -v nvcc || true)
[ -n "$nvcc" ] || { [ -x "$cuda/bin/nvcc" ] && nvcc=$cuda/bin/nvcc; } || true

check_ptx() { # PTX file, what compiled it
  grep -q '%globaltimer' "$1" || fail "$2: no %globaltimer read in the PTX"
  grep -q '%smid' "$1" || fail "$2: no %smid read in the PTX"
  grep -Eq 'atom(\.global)?\.add\.u32' "$1" || fail "$2: no atomic add on the block's counter"
}

case $mode in
nvcc)
  [ -n "$nvcc" ] || { echo "skip: nvcc not found"; exit 77; }
  for arch in sm_80 sm_90; do
    "$nvcc" -arch=$arch -I"$inc" -c "$src" -o "$out/traced-nvcc-$arch.o" ||
      fail "nvcc -arch=$arch -c"
    "$nvcc" -arch=$arch -I"$inc" -ptx "$src" -o "$out/traced-nvcc-$arch.ptx" ||
      fail "nvcc -arch=$arch -ptx"
    check_ptx "$out/traced-nvcc-$arch.ptx" "nvcc $arch"
    echo "nvcc -arch=$arch: compiled, PTX reads %globaltimer and %smid"
  done
  ;;
clang)
  command -v "$clangxx" > /dev/null || { echo "skip: $clangxx not found"; exit 77; }
  [ -f "$cuda/include/cuda_runtime.h" ] || { echo "skip: no CUDA installation at $cuda"; exit 77; }
  for arch in sm_80 sm_90; do
    flags=(-x cuda --cuda-path="$cuda" --cuda-gpu-arch=$arch -Wno-unknown-cuda-version
           -Wall -Wextra -Werror -I"$inc")
    "$clangxx" "${flags[@]}" -c "$src" -o "$out/traced-clang-$arch.o" ||
      fail "$clangxx -x cuda --cuda-gpu-arch=$arch -c"
    "$clangxx" "${flags[@]}" -O2 --cuda-device-only -S "$src" -o "$out/traced-clang-$arch.ptx" ||
      fail "$clangxx --cuda-device-only -S ($arch)"
    check_ptx "$out/traced-clang-$arch.ptx" "clang $arch"
    echo "$clangxx --cuda-gpu-arch=$arch: compiled, PTX reads %globaltimer and %smid"
  done
  ;;
mock)
  command -v "$clangxx" > /dev/null || { echo "skip: $clangxx not found"; exit 77; }
  here=$(cd "$(dirname "$0")" && pwd)
  for arch in sm_80 sm_90; do
    "$clangxx" -x cuda --cuda-device-only --cuda-gpu-arch=$arch -nocudainc -nocudalib \
      -Wno-unknown-cuda-version -Wall -Wextra -Werror -isystem "$here/../Inputs/cuda" \
      -include cuda_runtime.h -include "$here/Inputs/device-shim.h" -I"$inc" -O2 -S "$src" \
      -o "$out/traced-mock-$arch.ptx" || fail "$clangxx --cuda-device-only ($arch, mock CUDA)"
    check_ptx "$out/traced-mock-$arch.ptx" "clang $arch (mock CUDA)"
    echo "$clangxx --cuda-device-only --cuda-gpu-arch=$arch (mock CUDA): PTX reads %globaltimer and %smid"
  done
  ;;
*)
  fail "mode must be nvcc, clang or mock"
  ;;
esac
