#!/usr/bin/env bash
# Emacs' eglot or lsp-mode against `warplint lsp`, in batch mode, configured by
# docs/editors.md's blocks as written: the cuda-mode for Emacs without one (after
# `<!-- editor: emacs-cuda-mode -->`) and the client's (after `<!-- editor: eglot -->` or
# `<!-- editor: lsp-mode -->`), with `warplint` on PATH the build's binary) and driven by tests/lsp/emacs-lsp.el:
# the diagnostics of a file arrive in flymake, the hover on a launch shows its occupancy,
# and a save brings the moved diagnostics. Skips (77) without emacs or the client
# (Debian 12: emacs-nox, elpa-eglot, elpa-lsp-mode).
# usage: emacs-lsp.sh eglot|lsp-mode WARPLINT SOURCE_DIR WORK_DIR
set -euo pipefail
client=$1 warplint=$(realpath "$2") src=$(realpath "$3") work=$4
command -v emacs >/dev/null || { echo "emacs not installed: skipped"; exit 77; }
emacs --batch -q --eval "(progn (package-initialize) (require '$client))" >/dev/null 2>&1 ||
  { echo "$client not installed: skipped"; exit 77; }
rm -rf "$work" && mkdir -p "$work/proj/build" "$work/cache"
work=$(realpath "$work")
cp "$src/tests/lsp/Inputs/kernel.cu" "$work/proj/"
git -C "$work/proj" init -q   # a project for eglot
cat > "$work/proj/build/compile_commands.json" <<JSON
[{"directory": "$work/proj", "file": "$work/proj/kernel.cu",
  "arguments": ["clang++", "-x", "cuda", "-nocudainc", "-nocudalib", "-isystem",
    "$src/tests/Inputs/cuda", "-include", "cuda_runtime.h", "--cuda-device-only",
    "--cuda-gpu-arch=sm_86", "-std=c++17", "-c", "$work/proj/kernel.cu"]}]
JSON
# The page's blocks as written: the stand-in cuda-mode, then the client's; `warplint` on
# PATH is the binary under test.
python3 - "$src/docs/editors.md" "$client" > "$work/init.el" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
for name in ("emacs-cuda-mode", sys.argv[2]):
    m = re.search(r"<!-- editor: %s -->\n```elisp\n(.*?)^```" % re.escape(name), page, re.M | re.S)
    if not m:
        sys.exit("docs/editors.md has no %s block" % name)
    print(m.group(1), end="")
PY
mkdir -p "$work/bin" && ln -sf "$warplint" "$work/bin/warplint"
rc=0
(cd "$work/proj" && PATH="$work/bin:$PATH" LSP_FILE=$work/proj/kernel.cu XDG_CACHE_HOME=$work/cache \
  WARPLINT_EMACS_CLIENT=$client TMPDIR=$work timeout 300 \
  emacs --batch -q --eval '(package-initialize)' -l "$work/init.el" \
    -l "$src/tests/lsp/emacs-lsp.el") >"$work/out.txt" 2>"$work/emacs.log" || rc=$?
cat "$work/out.txt"
[ $rc -eq 0 ] || { echo "emacs exited with $rc"; tail -20 "$work/emacs.log"; exit 1; }
fail=0
expect() { grep -qF -- "$1" "$work/out.txt" || { echo "missing: $1"; fail=1; }; }
# Lines are 1-based here (line-number-at-pos); eglot prefixes the source and the code.
if [ "$client" = eglot ]; then
  w="eglot-warning warplint [warplint-block-size-warp-multiple]:"
  l="eglot-warning warplint [warplint-launch-config-invalid]:"
else
  w=":warning" l=":warning"
fi
expect "mode cuda-mode"
expect "open 17 $w block dim3(40,2) is not a whole number of warps: 80 threads in 3 warps, 16 lanes idle"
expect "open 18 $l block of 512 threads is over the __launch_bounds__ maximum of 256 threads of kernel 'boundedScale'"
expect "hover **occupancy 100%** (48 of 48 warps per SM, 6 blocks per SM), registers unknown, warp slots allow no more (an upper bound)"
expect "saved 19 $w block dim3(40,2)"
expect "saved 20 $l block of 512 threads"
[ "$(grep -c '^open ' "$work/out.txt")" -eq 2 ] || { echo "expected exactly 2 diagnostics on open"; fail=1; }
exit $fail
