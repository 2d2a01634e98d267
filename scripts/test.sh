#!/usr/bin/env bash
# Sets warplint up (scripts/setup.sh) and runs every test through CTest.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$here/scripts/setup.sh"
cd "$here/${WARPLINT_BUILD_DIR:-build}"
ctest --output-on-failure -j"${WARPLINT_JOBS:-$(nproc)}" "$@"

# The plugin for clang-tidy 19 as well (README.md "Plugin for clang-tidy 19"): built alone
# in build19 (WARPLINT_PLUGIN_ONLY; no driver, no unit tests), then its checker tests run
# in clang-tidy-19. WARPLINT_SKIP_LLVM19=1 leaves it out.
[ "${WARPLINT_SKIP_LLVM19:-0}" = 1 ] && exit 0
build19="$here/${WARPLINT_BUILD19_DIR:-build19}"
if [ ! -f "$build19/build.ninja" ]; then
  cmake -S "$here" -B "$build19" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DLLVM_DIR=/usr/lib/llvm-19/lib/cmake/llvm -DClang_DIR=/usr/lib/llvm-19/lib/cmake/clang \
    -DWARPLINT_PLUGIN_ONLY=ON >/dev/null
fi
rc=0
{ cmake --build "$build19" -- -j"${WARPLINT_JOBS:-$(nproc)}" | grep -vE '^\[[0-9]+/[0-9]+\] '
  rc=${PIPESTATUS[0]}; } || true
[ "$rc" -eq 0 ] || { echo "warplint test: the LLVM 19 plugin did not build" >&2; exit 1; }
cd "$build19"
ctest --output-on-failure "$@"
