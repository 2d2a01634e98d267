#!/usr/bin/env bash
# Builds the ptxas-log libFuzzer target with clang++-22 and runs it briefly on the real
# logs of tests/Inputs/ptxas. Exit 77 (ctest SKIP) when clang++-22 or libFuzzer is absent.
# usage: run-fuzzer.sh <source-root> <work-dir> [runs | build]  (build: only build it)
set -euo pipefail
src=$1 work=$2 runs=${3:-20000}
cxx=${WARPLINT_FUZZ_CXX:-clang++-22}
mkdir -p "$work"
if ! command -v "$cxx" >/dev/null; then
  echo "SKIP: $cxx not found (libFuzzer needs clang)"; exit 77
fi
probe="$work/probe.cpp"
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char *, unsigned long) { return 0; }' >"$probe"
if ! "$cxx" -fsanitize=fuzzer "$probe" -o "$work/probe" 2>/dev/null; then
  echo "SKIP: $cxx has no libFuzzer runtime (-fsanitize=fuzzer fails)"; exit 77
fi
# Rebuilt only when a source or header is newer than the binary (ctest runs this often).
stale() { # stale BINARY SOURCES...
  local bin=$1; shift
  [ ! -x "$bin" ] || [ -n "$(find "$@" -newer "$bin" 2>/dev/null | head -1)" ]
}
if stale "$work/ptxas_log_fuzzer" "$src/core/fuzz" "$src/core/lib/PtxasLog.cpp" \
    "$src/core/include/warplint/core/PtxasLog.h"; then
  "$cxx" -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$src/core/include" "$src/core/fuzz/PtxasLogFuzzer.cpp" "$src/core/lib/PtxasLog.cpp" \
    -o "$work/ptxas_log_fuzzer"
fi
# The cubin/fatbin reader (resources/Resources.cpp) against the shared libLLVM.
llvm_config=${WARPLINT_LLVM_CONFIG:-llvm-config-22}
objects=0
if command -v "$llvm_config" >/dev/null && ! stale "$work/object_reader_fuzzer" \
    "$src/resources/fuzz" "$src/resources/Resources.cpp" "$src/resources/Resources.h" \
    "$src/resources/AmdgpuObjects.cpp" "$src/resources/AmdgpuObjects.h" \
    "$src/core/lib/PtxasLog.cpp" "$src/core/lib/AmdgpuAsm.cpp" "$src/core/include"; then
  objects=1
elif command -v "$llvm_config" >/dev/null; then
  "$cxx" -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$src" -I"$src/core/include" -I"$("$llvm_config" --includedir)" \
    "$src/resources/fuzz/ObjectReaderFuzzer.cpp" "$src/resources/Resources.cpp" \
    "$src/resources/AmdgpuObjects.cpp" "$src/core/lib/PtxasLog.cpp" "$src/core/lib/AmdgpuAsm.cpp" \
    -L"$("$llvm_config" --libdir)" -Wl,-rpath,"$("$llvm_config" --libdir)" -lLLVM \
    -o "$work/object_reader_fuzzer" && objects=1
fi
[ "$runs" = build ] && { echo "built $work/ptxas_log_fuzzer"; exit 0; }
corpus="$work/corpus"
mkdir -p "$corpus"
cp "$src"/tests/Inputs/ptxas/*.log "$corpus/"
"$work/ptxas_log_fuzzer" -runs="$runs" -error_exitcode=1 -max_len=4096 -seed=1 -artifact_prefix="$work/" "$corpus" 2>&1 | tail -n 5
if [ "$objects" = 1 ]; then
  # Seeds: a cubin and a host object with two cubins, built here when nvcc is present.
  ocorpus="$work/ocorpus"
  mkdir -p "$ocorpus"
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  if [ -x "$nvcc" ] && [ -z "$(ls -A "$ocorpus")" ]; then
    "$nvcc" -arch=sm_80 -cubin "$src/tests/Inputs/ptxas/kernels.cu" -o "$ocorpus/k.cubin" || true
    "$nvcc" -gencode arch=compute_75,code=sm_75 -gencode arch=compute_90,code=sm_90 -c \
      "$src/tests/Inputs/ptxas/kernels.cu" -o "$ocorpus/k.o" || true
  fi
  # HIP: an offload bundle and a host object with two AMDGPU code objects.
  if command -v clang++-22 >/dev/null && llc-22 --version 2>/dev/null | grep -q amdgcn &&
      [ ! -e "$ocorpus/amd-bundle.o" ]; then
    for out in amd-bundle.o:--cuda-device-only amd-host.o:--offload-arch=gfx908; do
      clang++-22 -x hip -nogpuinc -nogpulib -O1 --offload-arch=gfx90a "${out#*:}" -c \
        -D__AMDGCN_WAVEFRONT_SIZE=64 \
        "$src/tests/Inputs/hip/fuzz-seed.hip" -o "$ocorpus/${out%%:*}" 2>/dev/null || true
    done
  fi
  "$work/object_reader_fuzzer" -runs="$((runs / 10))" -error_exitcode=1 -max_len=65536 -seed=1 \
    -artifact_prefix="$work/" "$ocorpus" 2>&1 | tail -n 3
fi
