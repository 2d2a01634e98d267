#!/usr/bin/env bash
# End to end with clang-22's real AMDGPU backend, no GPU: warplint check on a HIP file
# runs clang for the device assembly (cached), reads the kernel metadata's VGPRs, SGPRs,
# AGPRs and LDS into the JSON launches, and our AMD occupancy model agrees with the
# backend's own `; Occupancy:` comment (waves per SIMD) for every kernel launched with one
# (the best over the workgroup sizes the backend allows for), on GCN, CDNA and RDNA (wave32
# and -mwavefrontsize64): an independent check of core's AMD table. Exit 77 (ctest SKIP) without an AMDGPU backend.
# usage: hip-registers-e2e.sh <warplint> <source-root> <work-dir>
set -euo pipefail
warplint=$1 src=$2 work=$3
command -v clang++-22 > /dev/null || { echo "SKIP: clang++-22 not found"; exit 77; }
grep -q amdgcn <<< "$(llc-22 --version 2> /dev/null)" || { echo "SKIP: no AMDGPU backend in LLVM 22"; exit 77; }
rm -rf "$work" && mkdir -p "$work/cache"
cp "$src/tests/e2e/Inputs/amd-pressure.hip" "$work/k.hip"
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
compared=0
# Without ROCm (warplint's own header: the built-in variables are AMDGPU builtins, no
# device library needed), and with it where it is installed.
modes=(own)
[ -f /usr/include/hip/hip_runtime.h ] || [ -f /opt/rocm/include/hip/hip_runtime.h ] && modes+=(rocm)
for mode in "${modes[@]}"; do
  for target in gfx906:64 gfx90a:64 gfx1030:32 gfx1030:64 gfx1100:32; do
    arch=${target%:*} wave=${target#*:}
    # ROCm 5.2's headers refuse RDNA in wave64 ("HIP is not supported on GFX10 with
    # wavefront size 64"): that target is checked with warplint's own header only.
    [ "$mode" = rocm ] && [ "$target" = gfx1030:64 ] && continue
    # Debian's ROCm 5.2 device libraries stop at gfx1036 (no oclc_isa_version_1100.bc).
    if [ "$mode" = rocm ]; then
      found=$(ls /usr/lib/*/amdgcn/bitcode/oclc_isa_version_"${arch#gfx}".bc \
        /opt/rocm/amdgcn/bitcode/oclc_isa_version_"${arch#gfx}".bc 2> /dev/null || true)
      [ -n "$found" ] || { echo "rocm $arch: no device library for it here, skipped"; continue; }
    fi
    extra=()
    [ "$arch" != gfx906 ] && [ "$arch" != gfx90a ] && [ "$wave" = 64 ] && extra=(-mwavefrontsize64)
    env=()
    [ "$mode" = own ] && env=(ROCM_PATH="$work/none")
    out="$mode-$arch-w$wave.json"
    env "${env[@]}" "$warplint" check --cache-dir "$work/cache" --no-cache --format json \
      --checks='-*,warplint-occupancy' k.hip -- -x hip --offload-arch="$arch" -O3 -std=c++17 \
      -DWG=$((4 * wave)) "${extra[@]}" > "$out" 2> "$out.err" || true
    python3 - "$out" "$arch" "$wave" "$mode" <<'PY' || fail "$mode $arch wave$wave: see $work/$out"
import json, sys
path, arch, wave, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
doc = json.load(open(path))
launches = doc["launches"]
assert len(launches) == 9, "expected 9 launches, got %d" % len(launches)
regs = set()
for l in launches:
    name = l["kernel"]
    assert l["arch"] == arch, (name, l["arch"])
    assert l["registers_source"] == "clang", (name, l.get("registers_missing"))
    assert l["wave_size"] == wave, (name, l["wave_size"])
    assert l["warps_per_block"] == 4, (name, l["warps_per_block"])
    for key in ("vgprs", "sgprs", "agprs", "lds"):
        assert isinstance(l[key], int), (name, key, l[key])
    backend = l["backend_waves_per_simd"]
    assert backend is not None, (name, "no ; Occupancy: comment")
    # Ours: active wavefronts per CU over its 4 SIMDs, for the launch's own workgroup,
    # which is the one size the kernel allows.
    ours = l["active_warps_per_sm"] // 4
    if ours != backend:
        raise SystemExit("%s %s wave%d %s: ours %d waves/SIMD (%d VGPRs, %d SGPRs, %d B LDS), "
                         "backend %d" % (mode, arch, wave, name, ours, l["registers"],
                                         l["sgprs"], l["lds"], backend))
    regs.add(l["registers"])
assert len(regs) >= 4, "the kernels should spread over VGPR counts: %s" % sorted(regs)
print("%s %s wave%d: %d kernels agree; VGPRs %s; waves/SIMD %s" % (
    mode, arch, wave, len(launches), sorted(regs),
    [l["backend_waves_per_simd"] for l in launches]))
PY
    compared=$((compared + 1))
  done
done
# A second run is answered by the cache: no clang process, the same figures.
ROCM_PATH="$work/none" "$warplint" check --cache-dir "$work/cache" --no-cache --format json \
  --checks='-*,warplint-occupancy' k.hip -- -x hip --offload-arch=gfx90a -O3 -std=c++17 -DWG=256 \
  > again.json 2> /dev/null || true
cmp <(grep -v '"elapsed' own-gfx90a-w64.json) <(grep -v '"elapsed' again.json) > /dev/null ||
  fail "the cached run differs from the first"
ls cache/*.amdgpu.s > /dev/null || fail "no clang cache entry written"
echo "PASS: $compared configurations, ours = backend for every kernel"
