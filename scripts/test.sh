#!/usr/bin/env bash
# Installs what the tests need on top of scripts/setup.sh's packages, builds warplint with
# its tests (WARPLINT_TESTS=ON) and runs every test through CTest, then the plugin for
# clang-tidy 19.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
# shellcheck source=scripts/packages.sh
. scripts/packages.sh

# What the tests use (tests/CMakeLists.txt says which test uses what; a test whose tool is
# missing skips, so each must be here for CI to run it):
# - unit tests and benchmarks: libgtest-dev libgmock-dev libbenchmark-dev; ccache for
#   rebuilds; sccache for the launcher chained with it (launch-cmake e2e);
# - checker tests (lit-22, FileCheck-22, clang-tidy-22, clang++-22): llvm-22-tools
#   clang-tidy-22; the fuzzers: libclang-rt-22-dev; HIP through clang-22's AMDGPU backend
#   and the ROCm headers and device libraries: hipcc libamdhip64-dev rocm-device-libs lld-22;
# - the plugin for clang-tidy 19: clang-tidy-19 libclang-19-dev llvm-19-dev;
# - the pre-commit hook: pre-commit git; SARIF schema and docs recipes: python3-jsonschema
#   python3-yaml;
# - report and timeline in a browser: chromium;
# - docs/editors.md's setups: vim vim-ale neovim emacs-nox elpa-eglot elpa-lsp-mode clangd-22.
install_missing libgtest-dev libgmock-dev libbenchmark-dev ccache sccache \
  llvm-22-tools clang-tidy-22 libclang-rt-22-dev \
  hipcc libamdhip64-dev rocm-device-libs lld-22 \
  clang-tidy-19 libclang-19-dev llvm-19-dev \
  pre-commit git python3-jsonschema python3-yaml \
  chromium \
  vim vim-ale neovim emacs-nox elpa-eglot elpa-lsp-mode clangd-22

# setup.sh's packages and the build with the tests (WARPLINT_INSTALL_ONLY=1: only the
# packages of both, then stop).
WARPLINT_TESTS=ON bash "$here/scripts/setup.sh"
[ "${WARPLINT_INSTALL_ONLY:-0}" = 1 ] && exit 0
build=${WARPLINT_BUILD_DIR:-build}
# The SARIF 2.1.0 schema the tests validate against: a packaged copy, never committed.
bash scripts/fetch-sarif-schema.sh "$build/third_party/sarif" ||
  echo "warplint test: SARIF schema not available; the schema validation test will skip" >&2
cd "$here/$build"
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
