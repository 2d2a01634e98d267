#!/usr/bin/env bash
# Neovim's built-in LSP client against `warplint lsp`, headless, configured by the init.lua
# of docs/editors.md (the block after `<!-- editor: nvim-lsp -->`, with `warplint` made
# the build's binary) and driven by tests/lsp/nvim-lsp.lua: the diagnostics of a file
# arrive in the editor with their codes and severities, a hover on a launch shows its
# occupancy, and :write brings the moved diagnostics. Skips (77) without nvim 0.7 or later.
# usage: nvim-lsp.sh WARPLINT SOURCE_DIR WORK_DIR
set -euo pipefail
warplint=$(realpath "$1") src=$(realpath "$2") work=$3
command -v nvim >/dev/null || { echo "nvim not installed: skipped"; exit 77; }
nvim --headless -u NONE -c 'lua if vim.lsp.start_client == nil then vim.cmd("cquit 1") end' \
  -c 'qall!' 2>/dev/null || { echo "nvim has no vim.lsp.start_client: skipped"; exit 77; }
rm -rf "$work" && mkdir -p "$work/proj/build" "$work/cache"
work=$(realpath "$work")
cp "$src/tests/lsp/Inputs/kernel.cu" "$work/proj/"
cat > "$work/proj/build/compile_commands.json" <<JSON
[{"directory": "$work/proj", "file": "$work/proj/kernel.cu",
  "arguments": ["clang++", "-x", "cuda", "-nocudainc", "-nocudalib", "-isystem",
    "$src/tests/Inputs/cuda", "-include", "cuda_runtime.h", "--cuda-device-only",
    "--cuda-gpu-arch=sm_86", "-std=c++17", "-c", "$work/proj/kernel.cu"]}]
JSON
# The page's init.lua, with the binary under test.
python3 - "$src/docs/editors.md" "$warplint" > "$work/init.lua" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
m = re.search(r"<!-- editor: nvim-lsp -->\n```lua\n(.*?)^```", page, re.M | re.S)
if not m:
    sys.exit("docs/editors.md has no nvim-lsp block")
print(m.group(1).replace("cmd = { 'warplint'", "cmd = { '%s'" % sys.argv[2]), end="")
PY
rc=0
(cd "$work/proj" && LSP_OUT=$work/out.txt XDG_CACHE_HOME=$work/cache \
  timeout 600 nvim --headless -u "$work/init.lua" -i NONE -n kernel.cu \
    -c "luafile $src/tests/lsp/nvim-lsp.lua") >"$work/nvim.log" 2>&1 || rc=$?
cat "$work/out.txt" 2>/dev/null || true
[ $rc -eq 0 ] || { echo "nvim exited with $rc"; cat "$work/nvim.log"; exit 1; }
fail=0
expect() { grep -qF -- "$1" "$work/out.txt" || { echo "missing: $1"; fail=1; }; }
# Severity 2 is vim.diagnostic.severity.WARN, 1 ERROR; lines and columns 0-based.
expect "open 16:2 severity=2 source=warplint code=warplint-block-size-warp-multiple block dim3(40,2) is not a whole number of warps: 80 threads in 3 warps, 16 lanes idle"
expect "open 17:2 severity=2 source=warplint code=warplint-launch-config-invalid block of 512 threads is over the __launch_bounds__ maximum of 256 threads of kernel 'boundedScale'"
expect "hover **occupancy 100%** (48 of 48 warps per SM, 6 blocks per SM), registers unknown, warp slots allow no more (an upper bound)"
expect "saved 18:2 severity=2 source=warplint code=warplint-block-size-warp-multiple"
expect "saved 19:2 severity=2 source=warplint code=warplint-launch-config-invalid"
expect "filetype cuda"
expect "stopped true"
[ $(grep -c '^open ' "$work/out.txt") -eq 2 ] || { echo "expected exactly 2 diagnostics on open"; fail=1; }
exit $fail
