#!/usr/bin/env bash
# `warplint launch` on HIP compiles with clang-22 (no GPU, no ROCm: warplint's own HIP
# header, as tests/e2e/hip-objects-e2e.sh): the registers come from the object the
# compile wrote, and the findings equal `warplint check -p` on a database holding the
# same commands, file by file. usage: launch-hip.sh WARPLINT SOURCE_DIR WORK_DIR
# Exit 77 (skip) without clang++-22 or its AMDGPU target.
set -euo pipefail
warplint=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
work=$3
command -v clang++-22 > /dev/null || { echo "SKIP: clang++-22 not found"; exit 77; }
own=$(dirname "$warplint")/../share/warplint/hip
[ -f "$own/hip/hip_runtime.h" ] || { echo "FAIL: no own HIP header at $own"; exit 1; }
own=$(cd "$own" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work"
cp "$src/tests/e2e/Inputs/amd-pressure.hip" "$src/tests/e2e/Inputs/amd-mfma.hip" .
export ROCM_PATH="$work/none" XDG_CACHE_HOME="$work/cache"
flags=(-x hip --offload-arch=gfx90a -O3 -std=c++17 -DWG=256 -nogpuinc -nogpulib
       -isystem "$own" -include hip/hip_runtime.h -D__AMDGCN_WAVEFRONT_SIZE=64)
clang++-22 "${flags[@]}" -c amd-pressure.hip -o probe.o 2> probe.err ||
  { cat probe.err; echo "SKIP: clang++-22 cannot compile for gfx90a here"; exit 77; }
findings() { grep -E '^/[^ ]+:[0-9]+:[0-9]+: (warning|error): .*\[warplint-[a-z-]+\]$' "$1" | sort -u || true; }
: > launch.log
for f in amd-pressure amd-mfma; do
  "$warplint" launch -- clang++-22 "${flags[@]}" -c "$work/$f.hip" -o "$f.o" 2>> launch.log ||
    { cat launch.log; fail "launch on $f.hip failed"; }
  [ -s "$f.o" ] || fail "no object for $f.hip"
done
# amd-pressure.hip's occupancy findings name their register source (amd-mfma.hip has none).
grep -q "from the code object 'amd-pressure.o (gfx90a code object)'" launch.log ||
  fail "the registers did not come from amd-pressure.o"
python3 - "$work" "${flags[@]}" <<'PY'
import json, sys
work, flags = sys.argv[1], sys.argv[2:]
json.dump([{"directory": work, "file": f"{work}/{f}.hip",
            "arguments": ["clang++-22"] + flags + ["-c", f"{work}/{f}.hip", "-o", f + ".o"]}
           for f in ("amd-pressure", "amd-mfma")], open(work + "/compile_commands.json", "w"))
PY
set +e
mkdir -p elsewhere
(cd elsewhere && "$warplint" check -p "$work" > "$work/check.out" 2> "$work/check.err")
rc=$?
set -e
[ $rc -eq 1 ] || { cat check.out check.err; fail "check -p exited $rc, expected 1"; }
findings launch.log > launch.findings
findings check.out > check.findings
[ -s launch.findings ] || fail "no findings through the launcher"
for f in amd-pressure amd-mfma; do
  diff <(grep "/$f.hip:" check.findings || true) <(grep "/$f.hip:" launch.findings || true) ||
    fail "$f.hip: the launcher's findings differ from check -p's"
done
echo "launch (HIP, gfx90a): OK, $(wc -l < launch.findings) findings, the same as check -p's"
