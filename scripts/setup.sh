#!/usr/bin/env bash
# Installs what warplint needs (when missing), then configures and builds it in build/.
# Idempotent: quiet and quick when everything is already there.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"

packages=(cmake ninja-build g++ ccache
  clang-22 clang-tidy-22 libclang-22-dev llvm-22-dev llvm-22-tools
  clang-tidy-19 libclang-19-dev llvm-19-dev libclang-rt-22-dev
  libfmt-dev libgtest-dev libgmock-dev libbenchmark-dev
  pre-commit python3-jsonschema python3-yaml git chromium vim vim-ale clangd-22 neovim
  emacs-nox elpa-eglot elpa-lsp-mode hipcc libamdhip64-dev rocm-device-libs lld-22 sccache)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "warplint setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq >/dev/null
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build=${WARPLINT_BUILD_DIR:-build}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
rc=0
{ cmake --build "$build" -- -j"${WARPLINT_JOBS:-$(nproc)}" | grep -vE '^\[[0-9]+/[0-9]+\] '
  rc=${PIPESTATUS[0]}; } || true
[ "$rc" -eq 0 ] && test -x "$build/bin/warplint" || { echo "warplint setup: build failed" >&2; exit 1; }
# The SARIF 2.1.0 schema the tests validate against: a packaged copy, never committed.
bash scripts/fetch-sarif-schema.sh "$build/third_party/sarif" ||
  echo "warplint setup: SARIF schema not available; the schema validation test will skip" >&2
