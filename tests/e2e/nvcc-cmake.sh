#!/usr/bin/env bash
# A real CMake CUDA project (nvcc compile commands in compile_commands.json) through
# `warplint check -p` and `warplint report -p` with the registers ptxas reported while
# nvcc built it. usage: nvcc-cmake.sh WARPLINT SOURCE_DIR WORK_DIR
# Exit 77 (skip) without nvcc or cmake.
set -euo pipefail
warplint=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
work=$3
clang_tidy=$4
plugin=$(cd "$(dirname "$5")" && pwd)/$(basename "$5")
nvcc=${CUDA_NVCC:-/usr/local/cuda/bin/nvcc}
[ -x "$nvcc" ] || { echo "no nvcc at $nvcc: skipped"; exit 77; }
command -v cmake >/dev/null || { echo "no cmake: skipped"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$work" && mkdir -p "$work" && cd "$work"
cp "$src/tests/Inputs/report/kernels.cu" .
cat > CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(demo LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 80 86)
add_library(demo STATIC kernels.cu)
target_compile_options(demo PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr
  -lineinfo --use_fast_math -Xcompiler=-fPIC,-Wall -Xptxas=-v>)
set_target_properties(demo PROPERTIES CUDA_SEPARABLE_COMPILATION ON)
EOF
cmake -S . -B build -G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  -DCMAKE_CUDA_COMPILER="$nvcc" > cmake.log 2>&1 || { cat cmake.log; fail "cmake failed"; }
grep -q '"command": "[^"]*nvcc' build/compile_commands.json || fail "no nvcc command in the database"
# nvcc builds it; ptxas -v reports registers per kernel and arch.
cmake --build build > build.log 2>&1 || { cat build.log; fail "nvcc build failed"; }
grep -q "Used [0-9]* registers" build.log || fail "no ptxas report in the build log"

set +e
"$warplint" check -p build > check.out 2> check.err
rc=$?
set -e
cat check.out check.err
[ $rc -eq 1 ] || fail "check -p on the nvcc database exited $rc, expected 1"
grep -q "kernels.cu:13:7: warning: branch on 'Tid' diverges" check.out || fail "no finding"
grep -q "1 file analysed, 0 failed" check.err || fail "the nvcc command did not parse"

set +e
"$warplint" report -p build --gpu a100 --ptxas-log build.log -o report.html 2> report.err
rc=$?
set -e
cat report.err
[ $rc -eq 1 ] || fail "report exited $rc, expected 1"
# The database's first architecture (sm_80) is analysed; its registers come from ptxas.
regs=$(grep -A3 "Compiling entry function '_Z7stencilPfPKf' for 'sm_80'" build.log |
       sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' | sed -n 1p)
[ -n "$regs" ] || fail "no sm_80 register count for stencil in the build log"
grep -q "registers</th><td>$regs per thread" report.html ||
  fail "the report does not show ptxas's $regs registers for stencil"
awk '/<h2>stencil<\/h2>/,/<\/section>/' report.html > stencil.html
grep -q '<div class="where">sm_80 &middot;' stencil.html || fail "stencil card not for sm_80"
grep -q '<tr id="launch-[0-9]*"><td>kernels.cu:26:3</td>' stencil.html || fail "no row for stencil's launch"

# The translated database for stock clang-tidy with the plugin (editors, CI).
"$warplint" compdb -p build -o db 2> compdb.err || { cat compdb.err; fail "compdb failed"; }
grep -q -- '"--cuda-gpu-arch=sm_80"' db/compile_commands.json || fail "compdb: no device arch"
if grep -q -- '-lineinfo\|--expt-relaxed-constexpr\|bin/nvcc' db/compile_commands.json; then
  fail "compdb left nvcc options in"
fi
set +e
"$clang_tidy" --load="$plugin" -p db --checks='-*,warplint-*' "$work/kernels.cu" > tidy.out 2> tidy.err
set -e
cat tidy.out
grep -q "kernels.cu:13:7: warning: branch on 'Tid' diverges in 4 of 4 warps" tidy.out ||
  { cat tidy.err; fail "clang-tidy on the compdb database did not report the divergence"; }
echo "nvcc database: OK (stencil: $regs registers on sm_80; compdb + clang-tidy agree)"
