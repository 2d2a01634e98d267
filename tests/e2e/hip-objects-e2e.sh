#!/usr/bin/env bash
# End to end with clang-22's real AMDGPU backend, no GPU: the code-object reader
# (--objects) gives, for every kernel of two test files on gfx90a, gfx908 (AGPRs),
# gfx1030 wave32 and gfx1030 -mwavefrontsize64, the figures the device assembly gives
# (--registers-from clang, the same compile command), and they reach the JSON launches.
# Objects in the three forms clang writes: the offload bundle of --cuda-device-only -c,
# a bare code object (--no-gpu-bundle-output), a host object of `clang++ -x hip -c`
# with two targets in its .hip_fatbin, and a shared library of both files (two bundles).
# Built against warplint's own HIP header (no ROCm device libraries needed). Exit 77
# (ctest SKIP) without an AMDGPU backend.
# usage: hip-objects-e2e.sh <warplint> <source-root> <work-dir>
set -euo pipefail
warplint=$1 src=$2 work=$3
command -v clang++-22 > /dev/null || { echo "SKIP: clang++-22 not found"; exit 77; }
grep -q amdgcn <<< "$(llc-22 --version 2> /dev/null)" || { echo "SKIP: no AMDGPU backend in LLVM 22"; exit 77; }
own=$(cd "$(dirname "$warplint")/../share/warplint/hip" 2> /dev/null && pwd) ||
  { echo "FAIL: warplint's own HIP header not found beside $warplint"; exit 1; }
rm -rf "$work" && mkdir -p "$work/cache"
cp "$src/tests/e2e/Inputs/amd-pressure.hip" "$src/tests/e2e/Inputs/amd-mfma.hip" "$work/"
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
export ROCM_PATH="$work/none" # warplint's own header for the parse as well

# The compile database of both files for one target; "$@" are extra compile flags.
database() {
  local arch=$1 wave=$2
  shift 2
  python3 - "$work" "$arch" "$wave" "$own" "$@" <<'PY'
import json, sys
work, arch, wave, own, extra = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5:]
flags = ["-x", "hip", "--offload-arch=" + arch, "-O3", "-std=c++17", "-DWG=%d" % (4 * wave),
         "-nogpuinc", "-nogpulib", "-isystem", own, "-include", "hip/hip_runtime.h",
         "-D__AMDGCN_WAVEFRONT_SIZE=%d" % wave] + extra
json.dump([{"directory": work, "file": f,
            "arguments": ["clang++-22"] + flags + ["-c", f, "-o", f + ".o"]}
           for f in ("amd-pressure.hip", "amd-mfma.hip")], open(work + "/compile_commands.json", "w"))
print(" ".join(flags))
PY
}

# The launch figures of two runs, kernel by kernel: equal but for where they came from.
compare() {
  python3 - "$@" <<'PY'
import json, sys
asm_path, obj_path, arch, wave, origin = sys.argv[1:6]
a, o = json.load(open(asm_path))["launches"], json.load(open(obj_path))["launches"]
assert len(a) == 11 and len(o) == 11, (len(a), len(o))
keys = ("kernel", "arch", "wave_size", "registers", "vgprs", "agprs", "sgprs", "lds",
        "static_smem_bytes", "blocks_per_sm", "active_warps_per_sm", "occupancy", "limiters")
agprs = 0
for x, y in zip(a, o):
    assert x["registers_source"] == "clang", (x["kernel"], x.get("registers_missing"))
    assert origin in y["registers_source"], (y["kernel"], y["registers_source"],
                                             y.get("registers_missing"))
    for k in keys:
        if x.get(k) != y.get(k):
            raise SystemExit("%s %s: %s assembly %r, code object %r" % (arch, x["kernel"], k,
                                                                         x.get(k), y.get(k)))
    assert isinstance(y["vgprs"], int) and y["wave_size"] == int(wave), y
    agprs = max(agprs, y["agprs"])
if arch == "gfx908" and agprs == 0:
    raise SystemExit("gfx908: no kernel with AGPRs (the mfma kernel should have them)")
print("%s wave%s %s: %d launches agree (VGPRs %s, AGPRs max %d)" % (
    arch, wave, origin, len(o), sorted({l["vgprs"] for l in o}), agprs))
PY
}

run() { # run OUT ARGS...: warplint check on both files of the database, JSON
  local out=$1
  shift
  "$warplint" check -p . --cache-dir "$work/cache" --no-cache --format json \
    --checks='-*,warplint-occupancy' "$@" amd-pressure.hip amd-mfma.hip > "$out" 2> "$out.err" ||
    true
}

compared=0
for target in gfx90a:64 gfx908:64 gfx1030:32 gfx1030:64; do
  arch=${target%:*} wave=${target#*:}
  extra=()
  [ "$arch" = gfx1030 ] && [ "$wave" = 64 ] && extra=(-mwavefrontsize64)
  read -r -a flags < <(database "$arch" "$wave" "${extra[@]}")
  tag=$arch-w$wave
  run "asm-$tag.json" --registers-from clang
  for f in amd-pressure amd-mfma; do
    clang++-22 "${flags[@]}" --cuda-device-only -c "$f.hip" -o "$f-$tag.o" ||
      fail "clang++-22 --cuda-device-only -c $f.hip for $arch"
    head -c 24 "$f-$tag.o" | grep -q __CLANG_OFFLOAD_BUNDLE__ || fail "$f-$tag.o is no offload bundle"
  done
  run "obj-$tag.json" --objects "amd-pressure-$tag.o" --objects "amd-mfma-$tag.o"
  compare "asm-$tag.json" "obj-$tag.json" "$arch" "$wave" "($arch code object)" ||
    fail "$tag: see $work/obj-$tag.json"
  compared=$((compared + 1))
done

# A bare code object (.hsaco) and a host object with two targets, for gfx90a.
read -r -a flags < <(database gfx90a 64)
for f in amd-pressure amd-mfma; do
  clang++-22 "${flags[@]}" --cuda-device-only --no-gpu-bundle-output -c "$f.hip" -o "$f.hsaco" ||
    fail "clang++-22 --no-gpu-bundle-output for $f"
  clang++-22 "${flags[@]}" --offload-arch=gfx908 -c "$f.hip" -o "$f-host.o" ||
    fail "clang++-22 -c (host object) for $f"
done
run bare.json --objects amd-pressure.hsaco --objects amd-mfma.hsaco
compare asm-gfx90a-w64.json bare.json gfx90a 64 ".hsaco'" || fail "bare code objects"
run host.json --objects amd-pressure-host.o --objects amd-mfma-host.o
compare asm-gfx90a-w64.json host.json gfx90a 64 "-host.o (gfx90a code object)" ||
  fail "host objects"

# A shared library of both files: its .hip_fatbin holds two bundles, one per TU.
clang++-22 "${flags[@]}" -fPIC -shared amd-pressure.hip amd-mfma.hip -o libk.so ||
  fail "clang++-22 -shared"
run lib.json --objects libk.so
compare asm-gfx90a-w64.json lib.json gfx90a 64 "libk.so (gfx90a code object)" ||
  fail "the shared library"

# clang's new offload driver links the device code at -c through LTO partitions: one
# metadata note per partition, every kernel read (its figures are that link's, not the
# assembly's). -fgpu-rdc keeps bitcode: refused, with the reason.
for f in amd-pressure amd-mfma; do
  clang++-22 "${flags[@]}" --offload-new-driver -c "$f.hip" -o "$f-nd.o" || fail "--offload-new-driver"
  clang++-22 "${flags[@]}" -fgpu-rdc -c "$f.hip" -o "$f-rdc.o" || fail "-fgpu-rdc"
done
run nd.json --objects amd-pressure-nd.o --objects amd-mfma-nd.o
python3 - nd.json <<'PY' || fail "new-driver objects: see $work/nd.json"
import json, sys
launches = json.load(open(sys.argv[1]))["launches"]
assert len(launches) == 11, len(launches)
for l in launches:
    assert "-nd.o (gfx90a code object)" in l["registers_source"], (l["kernel"], l.get("registers_missing"))
    assert isinstance(l["vgprs"], int), l
print("new offload driver: all 11 launches have the object's figures")
PY
if "$warplint" check -p . --no-cache --objects amd-mfma-rdc.o amd-mfma.hip > rdc.out 2> rdc.err; then
  fail "a -fgpu-rdc object was accepted"
fi
grep -q -- "-fgpu-rdc" rdc.err || fail "the -fgpu-rdc object's message: $(cat rdc.err)"

# A damaged object stops the run with the reason, no analysis without figures.
head -c 100 amd-mfma-gfx90a-w64.o > cut.o
if "$warplint" check -p . --no-cache --objects cut.o amd-mfma.hip > cut.out 2> cut.err; then
  fail "a truncated bundle was accepted"
fi
grep -q "cut.o" cut.err || fail "the truncated bundle's message does not name it: $(cat cut.err)"
echo "PASS: $compared targets, bundles, bare code objects, host objects and a shared library agree with the assembly"
