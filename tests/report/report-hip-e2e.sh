#!/usr/bin/env bash
# `warplint report` on a HIP file: AMD's calculator charts (waves per SIMD against
# workgroup size, VGPRs and LDS, the launch marked) for gfx90a (wave64, 8 waves per SIMD)
# and gfx1030 (wave32, 16), with the registers from clang-22's AMDGPU backend; each
# marked point is the launch record's (the JSON's active_warps_per_sm over the SIMDs of
# a CU), then rendered in headless Chromium (tests/report/check-report.py). Exit 77
# (skip) without clang++-22's AMDGPU backend or chromium.
# usage: report-hip-e2e.sh WARPLINT SOURCE_DIR OUT_DIR
set -euo pipefail
warplint=$1
src=$(cd "$2" && pwd)
out=$3
command -v clang++-22 > /dev/null || { echo "SKIP: clang++-22 not found"; exit 77; }
grep -q amdgcn <<< "$(llc-22 --version 2> /dev/null)" || { echo "SKIP: no AMDGPU backend in LLVM 22"; exit 77; }
rm -rf "$out" && mkdir -p "$out/cache"
fail() { echo "FAIL: $*" >&2; exit 1; }
export ROCM_PATH="$out/none" # warplint's own HIP header: no ROCm needed
input=$src/tests/e2e/Inputs/amd-mfma.hip
for target in gfx90a:64:8 gfx1030:32:16; do
  IFS=: read -r arch wave max <<< "$target"
  args=(--cache-dir "$out/cache" --no-cache "$input" -- -x hip --offload-arch="$arch" -O3
        -std=c++17 -DWG=$((4 * wave)))
  "$warplint" report -o "$out/$arch.html" "${args[@]}" 2> "$out/$arch.stderr" ||
    fail "$arch: warplint report failed: $(cat "$out/$arch.stderr")"
  "$warplint" check --format json "${args[@]}" > "$out/$arch.json" 2> /dev/null || true
  python3 - "$out/$arch.html" "$out/$arch.json" "$arch" "$max" <<'PY'
import json, re, sys
html, records, arch, wave_max = open(sys.argv[1]).read(), json.load(open(sys.argv[2])), \
    sys.argv[3], int(sys.argv[4])
launches = {l["kernel"]: l for l in records["launches"]}
# The Y axes (shared parts in the page's <defs>) run 0..the arch's waves per SIMD, and
# no axis is in percent.
ticks = [int(t) for t in re.findall(r'<text [^>]*class="yt"[^>]*>(\d+)</text>', html)]
assert ticks and max(ticks) == wave_max and min(ticks) == 0, ("Y ticks", sorted(set(ticks)))
assert not re.search(r'class="yt"[^>]*>\d+%<', html), "a Y axis in percent"
assert set(launches) == {"mfma", "staged"}, sorted(launches)
for name, l in launches.items():
    assert l["registers_source"] == "clang", (name, l.get("registers_missing"))
    card = re.search(r"<h2>%s</h2>(.*?)</section>" % name, html, re.S).group(1)
    titles = re.findall(r'class="chart"[^>]*aria-label="([^"]*)"', card)
    assert titles == ["Waves per SIMD vs workgroup size", "Waves per SIMD vs VGPRs",
                      "Waves per SIMD vs LDS"], (name, titles)
    facts = "registers</th><td>%d VGPRs, %d AGPRs per lane, %d SGPRs per wave (clang)" % (
        l["vgprs"], l["agprs"], l["sgprs"])
    assert facts in card, (name, "no facts row", facts)
    points = re.findall(r'<circle class="current" data-x="([^"]*)" data-waves-per-simd="([^"]*)"', card)
    assert len(points) == 3, (name, points)
    want = l["active_warps_per_sm"] / 4  # 4 SIMDs per CU on CDNA and per WGP on RDNA
    for x, w in points:
        assert abs(float(w) - want) < 1e-9, (name, "marked at", w, "record", want)
    xs = [float(x) for x, _ in points]
    assert xs[0] == l["block"][0] and xs[1] == l["vgprs"] and xs[2] == l["lds"], (name, xs, l)
    print("%s %s: %d VGPRs, %d B LDS, %g waves/SIMD marked on the 3 charts (record: %d "
          "wavefronts per CU)" % (arch, name, l["vgprs"], l["lds"], want, l["active_warps_per_sm"]))
PY
done
python3 "$src/tests/report/check-report.py" "$out/gfx90a.html" --cards 2 --launches 2 --charts 6 \
  --waves-charts 6 --screenshot "$out/gfx90a.png"
