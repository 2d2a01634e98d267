#!/usr/bin/env bash
# Runs the Neovim of another Debian root on this machine, through that root's own dynamic
# loader and libraries (no chroot), so the language server it starts (`warplint lsp`, found
# on PATH) is this machine's binary with this machine's libraries. Used for a Neovim newer
# than the one Debian 12 ships (tests/lsp/nvim-trixie.sh makes a Debian 13 root with 0.10).
# usage: NVIM_ROOT=DIR nvim-in-root.sh NVIM-ARGS...
set -euo pipefail
root=${NVIM_ROOT:?NVIM_ROOT must name a Debian root holding usr/bin/nvim}
loader=$root/lib64/ld-linux-x86-64.so.2
[ -x "$root/usr/bin/nvim" ] && [ -e "$loader" ] ||
  { echo "nvim-in-root.sh: no usr/bin/nvim or loader under $root" >&2; exit 127; }
# The loader is the process' executable, so Neovim cannot find its runtime from its own
# path: name it, and its Lua C modules (lpeg), in the root.
export VIMRUNTIME=$root/usr/share/nvim/runtime
export LUA_CPATH="$root/usr/lib/x86_64-linux-gnu/lua/5.1/?.so;;"
exec "$loader" --library-path "$root/usr/lib/x86_64-linux-gnu:$root/lib/x86_64-linux-gnu" \
  "$root/usr/bin/nvim" "$@"
