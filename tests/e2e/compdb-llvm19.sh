#!/usr/bin/env bash
# clang-tidy-19 with the LLVM 19 plugin on a CUDA 13 .cu of an nvcc compile database,
# through `warplint compdb --for clang-tidy-19`: exit 0 and the expected findings. The
# default export (for clang-tidy-22) fails in clang-tidy-19 on this toolkit (its CUDA
# wrapper includes texture_fetch_functions.h, which CUDA 13 no longer has): the case the
# option exists for. usage: compdb-llvm19.sh WARPLINT CLANG_TIDY_19 PLUGIN_19 SOURCE_DIR WORK_DIR
# Exit 77 (skip) without the driver, a CUDA toolkit, or a toolkit that still has the header.
set -euo pipefail
warplint=$1 tidy=$2 plugin=$3
src=$(cd "$4" && pwd)
work=$5
[ -x "$warplint" ] || { echo "no warplint driver at $warplint (build it first): skipped"; exit 77; }
cuda=${CUDA_PATH:-/usr/local/cuda}
[ -f "$cuda/include/cuda_runtime.h" ] || { echo "no CUDA toolkit at $cuda: skipped"; exit 77; }
[ ! -f "$cuda/include/texture_fetch_functions.h" ] ||
  { echo "$cuda still has texture_fetch_functions.h (before CUDA 13): skipped"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -f "$plugin" ] || fail "no plugin at $plugin (build it first)"
rm -rf "$work" && mkdir -p "$work/build" && cd "$work"
cp "$src/tests/e2e/Inputs/launch/divergent.cu" .
cat > build/compile_commands.json <<JSON
[{"directory": "$work/build", "file": "$work/divergent.cu",
  "command": "$cuda/bin/nvcc -forward-unknown-to-host-compiler --generate-code=arch=compute_80,code=[compute_80,sm_80] --expt-relaxed-constexpr -std=c++17 -x cu -c $work/divergent.cu -o divergent.o"}]
JSON
"$warplint" compdb -p build -o wl22 2> wl22.err || { cat wl22.err; fail "compdb failed"; }
set +e
"$tidy" --load="$plugin" -p wl22 --checks='-*,warplint-*' "$work/divergent.cu" > plain.out 2> plain.err
rc_plain=$?
set -e
[ $rc_plain -ne 0 ] && grep -q "texture_fetch_functions.h' file not found" plain.out ||
  { cat plain.out plain.err; fail "the default export did not fail in clang-tidy-19 as expected ($rc_plain)"; }

"$warplint" compdb -p build -o wl19 --for "$tidy" 2> wl19.err || { cat wl19.err; fail "compdb --for failed"; }
set +e
"$tidy" --load="$plugin" -p wl19 --checks='-*,warplint-*' "$work/divergent.cu" > tidy.out 2> tidy.err
rc=$?
set -e
cat tidy.out
[ $rc -eq 0 ] || { cat tidy.err; fail "clang-tidy-19 exited $rc on the --for clang-tidy-19 export"; }
grep -q "divergent.cu:5:7: warning: branch on 'Tid' diverges in 4 of 4 warps" tidy.out ||
  fail "no divergence finding"
grep -q "divergent.cu:11:34: warning: block 100 is not a whole number of warps" tidy.out ||
  fail "no block-size finding"
echo "clang-tidy-19 on CUDA 13 through compdb --for clang-tidy-19: OK"
