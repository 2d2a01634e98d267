#!/usr/bin/env bash
# `warplint report --ncu` end to end: tests/Inputs/report/kernels.cu with its ptxas log and
# tests/Inputs/ncu/report-kernels.raw.csv, a file written by hand to the layout of
# `ncu --csv --page raw` (it tests the reader and the matching, not ncu). The cards carry
# ncu's figures beside ours and a defect line per disagreement; the page still renders in
# headless Chromium (tests/report/check-report.py; exit 77, skip, without chromium).
# usage: report-ncu-e2e.sh WARPLINT SOURCE_DIR OUT_DIR
set -euo pipefail
warplint=$1
src=$(cd "$2" && pwd)
out=$3
mkdir -p "$out"
fail() { echo "FAIL: $*" >&2; exit 1; }
args=("$src/tests/Inputs/report/kernels.cu" --ptxas-log "$src/tests/Inputs/report/kernels.ptxas.log"
      -- -x cuda --cuda-device-only --cuda-gpu-arch=sm_86 -nocudainc -nocudalib
      -isystem "$src/tests/Inputs/cuda" -include cuda_runtime.h)

html=$out/report.html
rm -f "$html"
set +e
"$warplint" report --gpu rtx3080 --ncu "$src/tests/Inputs/ncu/report-kernels.raw.csv" -o "$html" \
  "${args[@]}" 2> "$out/report.stderr"
rc=$?
set -e
cat "$out/report.stderr"
[ $rc -eq 1 ] || fail "warplint report exited $rc, expected 1 (the divergent kernel)"
grep -q "warplint report: ncu: 5 profiled launches, 4 matched, 1 not matched to a source launch, 1 disagreement with warplint's figures" \
  "$out/report.stderr" || fail "the ncu summary line"
card() { awk "/<h2>$1<\/h2>/,/<\/section>/" "$html"; }
card stencil > "$out/stencil.html"
grep -q '<h4>2 launches (ncu IDs 0, 3): block 256 x 1 x 1, grid 1000 x 1 x 1, cc 8.6</h4>' \
  "$out/stencil.html" || fail "stencil: ncu launches 0 and 3 are one group"
grep -q '<p class="defect">defect: ncu and warplint disagree on registers per thread: warplint 72 (the ptxas log .*kernels.ptxas.log.*), ncu 80</p>' \
  "$out/stencil.html" || fail "stencil: the registers disagreement is not a defect line"
grep -q '<tr><th>theoretical occupancy</th><td>33.3%</td><td>33.3%</td></tr>' "$out/stencil.html" ||
  fail "stencil: theoretical occupancy, ours and ncu's"
grep -q '<tr><th>achieved occupancy</th><td>- (measured only)</td><td>31.1% mean (30.9% to 31.3%, 2 launches)</td></tr>' \
  "$out/stencil.html" || fail "stencil: achieved occupancy and its spread"
card oddEven > "$out/oddEven.html"
if grep -q 'class="defect"' "$out/oddEven.html"; then fail "oddEven agrees with ncu"; fi
grep -q '<tr><th>branch efficiency (uniform branch targets)</th><td>0% over 1 thread-dependent branch (weighted by the warps reaching each)</td><td>80%</td></tr>' \
  "$out/oddEven.html" || fail "oddEven: predicted against measured branch efficiency"
card scale > "$out/scale.html"
# ncu's shared-memory limit, 16, is the SM's block slots; ours (100) is capped the same way.
if grep -q 'class="defect"' "$out/scale.html"; then fail "scale agrees with ncu"; fi
grep -q '<td>100 (at most 16 blocks per SM)</td><td>16</td>' "$out/scale.html" ||
  fail "scale: the shared-memory limit, ours capped at the block slots"
grep -q "<p class=\"defect\">unmatched: ncu launch ID 4 of &#39;void transposeTile&lt;32&gt;(float \*, const float \*)&#39;" \
  "$html" || fail "the unmatched ncu launch is not said"

# A file that is not ncu's CSV: exit 2 before any analysis, no report.
printf 'kernel,time\nk,1\n' > "$out/not-ncu.csv"
rm -f "$out/bad.html"
set +e
"$warplint" report --ncu "$out/not-ncu.csv" -o "$out/bad.html" "${args[@]}" 2> "$out/bad.stderr"
rc=$?
set -e
[ $rc -eq 2 ] || fail "a file that is not ncu's: exit $rc, expected 2"
grep -q 'no Nsight Compute CSV header' "$out/bad.stderr" || fail "the bad --ncu message"
[ ! -e "$out/bad.html" ] || fail "a report was written for a bad --ncu file"

set +e
"$warplint" report --ncu "$out/missing.csv" -o "$out/bad.html" "${args[@]}" 2> "$out/bad.stderr"
rc=$?
set -e
[ $rc -eq 2 ] || fail "a missing --ncu file: exit $rc, expected 2"
grep -q "\-\-ncu: cannot read '$out/missing.csv'" "$out/bad.stderr" || fail "the missing --ncu message"

python=/usr/bin/python3
[ -x "$python" ] || python=python3
"$python" "$src/tests/report/check-report.py" "$html" --cards 3 --launches 3 --charts 9 --currents 8 \
  --screenshot "$out/report.png"
