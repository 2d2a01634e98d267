#!/usr/bin/env bash
# The Neovim 0.8+ form of docs/editors.md (vim.lsp.start) with a Neovim that has it: Debian
# 12 ships 0.7.2, so this makes a Debian 13 (trixie) root with debootstrap holding its
# Neovim (0.10), then runs tests/lsp/nvim-lsp.sh with that Neovim (tests/lsp/nvim-in-root.sh:
# the root's loader and libraries, this machine's warplint). Both forms of the page run,
# with the same expectations as ctest lsp-nvim. Opt-in (ctest lsp-nvim-trixie with
# -DWARPLINT_TEST_NVIM_TRIXIE=ON): it needs root for debootstrap, the Debian archive and a
# few minutes the first time; the root is kept in WORK_DIR/root and reused. Skips (77)
# without root or debootstrap.
# usage: nvim-trixie.sh WARPLINT SOURCE_DIR WORK_DIR
# WARPLINT_DEBIAN_MIRROR (default http://deb.debian.org/debian) chooses the archive.
set -euo pipefail
warplint=$(realpath "$1") src=$(realpath "$2") work=$3
mirror=${WARPLINT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
mkdir -p "$work" && work=$(realpath "$work")
root=$work/root
if [ ! -x "$root/usr/bin/nvim" ]; then
  [ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (debootstrap)"; exit 77; }
  command -v debootstrap >/dev/null || { echo "SKIP: debootstrap is not installed"; exit 77; }
  rm -rf "$root"
  echo "== debootstrap --variant=minbase --include=neovim trixie ($(date -u +%T))"
  debootstrap --variant=minbase --include=neovim trixie "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log"; echo "FAIL: debootstrap"; exit 1; }
fi
export NVIM_ROOT=$root WARPLINT_NVIM=$src/tests/lsp/nvim-in-root.sh
out=$("$WARPLINT_NVIM" --headless -u NONE -c 'lua io.stdout:write(tostring(vim.lsp.start ~= nil))' -c 'qall!' 2>&1)
[ "$out" = true ] || { echo "FAIL: the root's Neovim has no vim.lsp.start ($out)"; exit 1; }
log=$work/nvim-lsp.log
rc=0
bash "$src/tests/lsp/nvim-lsp.sh" "$warplint" "$src" "$work/run" >"$log" 2>&1 || rc=$?
cat "$log"
[ $rc -eq 0 ] || exit $rc
# Both forms must have run: the 0.8 form is not allowed to be skipped here.
grep -q "nvim-lsp-0.8: skipped" "$log" && { echo "FAIL: the 0.8 form was skipped"; exit 1; }
[ -s "$work/run/out-nvim-lsp-0.8.txt" ] || { echo "FAIL: no output of the 0.8 form"; exit 1; }
echo "PASS: both forms of docs/editors.md with $("$WARPLINT_NVIM" --version | head -1)"
