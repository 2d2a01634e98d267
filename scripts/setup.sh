#!/usr/bin/env bash
# Installs what building and running warplint need (when missing), then configures and
# builds it in build/. Only warplint: the test tools and extras are scripts/test.sh's
# (WARPLINT_TESTS=OFF unless the build directory was configured with the tests).
# Idempotent: quiet and quick when everything is already there.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
# shellcheck source=scripts/packages.sh
. scripts/packages.sh

# The compiler, CMake and Ninja; LLVM/Clang 22 (llvm-22-dev: LLVM's CMake package and
# libraries; clang-22: Clang's CMake package; libclang-22-dev: the Clang and clang-tidy
# libraries and headers, with clang's resource headers the parse needs at run time); fmt.
# git only says the commit in `warplint --version`.
install_missing cmake ninja-build g++ clang-22 libclang-22-dev llvm-22-dev libfmt-dev git
# WARPLINT_INSTALL_ONLY=1: the packages only (an image's dependency layer; the counts of
# bench/setup/fresh-clone.sh).
[ "${WARPLINT_INSTALL_ONLY:-0}" = 1 ] && exit 0

build=${WARPLINT_BUILD_DIR:-build}
tests=${WARPLINT_TESTS:-}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPLINT_TESTS="${tests:-OFF}" >/dev/null
elif [ -n "$tests" ] && ! grep -qx "WARPLINT_TESTS:BOOL=$tests" "$build/CMakeCache.txt"; then
  cmake "$build" -DWARPLINT_TESTS="$tests" >/dev/null
fi
rc=0
{ cmake --build "$build" -- -j"${WARPLINT_JOBS:-$(nproc)}" | grep -vE '^\[[0-9]+/[0-9]+\] '
  rc=${PIPESTATUS[0]}; } || true
[ "$rc" -eq 0 ] && test -x "$build/bin/warplint" || { echo "warplint setup: build failed" >&2; exit 1; }
