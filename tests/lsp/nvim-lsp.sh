#!/usr/bin/env bash
# Neovim's built-in LSP client against `warplint lsp`, headless, configured by the init.lua
# of docs/editors.md as written (the block after `<!-- editor: nvim-lsp -->`, and the one
# after `<!-- editor: nvim-lsp-0.8 -->` where Neovim has vim.lsp.start; `warplint` on PATH
# is the build's binary) and driven by tests/lsp/nvim-lsp.lua: the diagnostics of a file
# arrive in the editor with their codes and severities, a hover on a launch shows its
# occupancy, and :write brings the moved diagnostics. Skips (77) without nvim 0.7 or later.
# usage: nvim-lsp.sh WARPLINT SOURCE_DIR WORK_DIR
# WARPLINT_NVIM names the Neovim to run (default: nvim on PATH), e.g. tests/lsp/nvim-in-root.sh
# for the Neovim of another Debian root (tests/lsp/nvim-trixie.sh).
set -euo pipefail
warplint=$(realpath "$1") src=$(realpath "$2") work=$3
nvim=${WARPLINT_NVIM:-nvim}
command -v "$nvim" >/dev/null || { echo "nvim not installed: skipped"; exit 77; }
echo "Neovim: $("$nvim" --version | head -1)"
"$nvim" --headless -u NONE -c 'lua if vim.lsp.start_client == nil then vim.cmd("cquit 1") end' \
  -c 'qall!' 2>/dev/null || { echo "nvim has no vim.lsp.start_client: skipped"; exit 77; }
rm -rf "$work" && mkdir -p "$work/proj/build" "$work/cache"
work=$(realpath "$work")
cat > "$work/proj/build/compile_commands.json" <<JSON
[{"directory": "$work/proj", "file": "$work/proj/kernel.cu",
  "arguments": ["clang++", "-x", "cuda", "-nocudainc", "-nocudalib", "-isystem",
    "$src/tests/Inputs/cuda", "-include", "cuda_runtime.h", "--cuda-device-only",
    "--cuda-gpu-arch=sm_86", "-std=c++17", "-c", "$work/proj/kernel.cu"]}]
JSON
# `warplint` on PATH is the binary under test; the page's init.lua as written, in
# $XDG_CONFIG_HOME/nvim/ (the 0.7 form, then the 0.8 form where nvim has vim.lsp.start).
mkdir -p "$work/bin" && ln -sf "$warplint" "$work/bin/warplint"
run_form() { # BLOCK OUT
  local block=$1 out=$2 rc=0
  rm -rf "$work/config" && mkdir -p "$work/config/nvim"
  # Each form starts from the file as shipped (the run below edits and writes it).
  cp "$src/tests/lsp/Inputs/kernel.cu" "$work/proj/"
  python3 - "$src/docs/editors.md" "$block" > "$work/config/nvim/init.lua" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
m = re.search(r"<!-- editor: %s -->\n```lua\n(.*?)^```" % re.escape(sys.argv[2]), page, re.M | re.S)
if not m:
    sys.exit("docs/editors.md has no %s block" % sys.argv[2])
print(m.group(1), end="")
PY
  (cd "$work/proj" && PATH="$work/bin:$PATH" LSP_OUT=$out XDG_CONFIG_HOME=$work/config \
    XDG_CACHE_HOME=$work/cache timeout 600 "$nvim" --headless -i NONE -n kernel.cu \
      -c "luafile $src/tests/lsp/nvim-lsp.lua") >"$work/nvim.log" 2>&1 || rc=$?
  cat "$out" 2>/dev/null || true
  [ $rc -eq 0 ] || { echo "nvim ($block) exited with $rc"; cat "$work/nvim.log"; exit 1; }
}
fail=0
expect() { grep -qF -- "$2" "$1" || { echo "missing ($1): $2"; fail=1; }; }
forms=(nvim-lsp)
if "$nvim" --headless -u NONE -c 'lua if vim.lsp.start == nil then vim.cmd("cquit 1") end' \
     -c 'qall!' 2>/dev/null; then
  forms+=(nvim-lsp-0.8)
else
  echo "nvim-lsp-0.8: skipped, this Neovim ($("$nvim" --version | head -1)) has no vim.lsp.start"
fi
for form in "${forms[@]}"; do
  out=$work/out-$form.txt
  run_form "$form" "$out"
  # Severity 2 is vim.diagnostic.severity.WARN, 1 ERROR; lines and columns 0-based.
  expect "$out" "open 16:2 severity=2 source=warplint code=warplint-block-size-warp-multiple block dim3(40,2) is not a whole number of warps: 80 threads in 3 warps, 16 lanes idle"
  expect "$out" "open 17:2 severity=2 source=warplint code=warplint-launch-config-invalid block of 512 threads is over the __launch_bounds__ maximum of 256 threads of kernel 'boundedScale'"
  expect "$out" "hover **occupancy 100%** (48 of 48 warps per SM, 6 blocks per SM), registers unknown, warp slots allow no more (an upper bound)"
  expect "$out" "saved 18:2 severity=2 source=warplint code=warplint-block-size-warp-multiple"
  expect "$out" "saved 19:2 severity=2 source=warplint code=warplint-launch-config-invalid"
  expect "$out" "filetype cuda"
  expect "$out" "stopped true"
  [ "$(grep -c '^open ' "$out")" -eq 2 ] || { echo "$form: expected exactly 2 diagnostics on open"; fail=1; }
done
exit $fail
