#!/usr/bin/env bash
# `warplint report` end to end: analyse tests/Inputs/report/kernels.cu (hermetic mock CUDA),
# write the HTML report, check it, then render it in headless Chromium and check what the
# browser drew (tests/report/check-report.py). Exit 77 (skip) without chromium.
# usage: report-e2e.sh WARPLINT SOURCE_DIR OUT_DIR
set -euo pipefail
warplint=$1
src=$(cd "$2" && pwd)
out=$3
mkdir -p "$out"
python=/usr/bin/python3
[ -x "$python" ] || python=python3
fail() { echo "FAIL: $*" >&2; exit 1; }

html=$out/report.html
rm -f "$html"
set +e
"$warplint" report --gpu rtx3080 -o "$html" "$src/tests/Inputs/report/kernels.cu" \
  --ptxas-log "$src/tests/Inputs/report/kernels.ptxas.log" -- \
  -x cuda --cuda-device-only --cuda-gpu-arch=sm_86 -nocudainc -nocudalib \
  -isystem "$src/tests/Inputs/cuda" -include cuda_runtime.h 2> "$out/report.stderr"
rc=$?
set -e
cat "$out/report.stderr"
[ $rc -eq 1 ] || fail "warplint report exited $rc, expected 1 (the divergent kernel)"
[ -s "$html" ] || fail "no report written"

# The figures on the cards, from the model: RTX 3080 (sm_86, 68 SMs).
grep -q '<h2>stencil</h2>' "$html" || fail "no card for stencil"
grep -q '<h2>oddEven</h2>' "$html" || fail "no card for oddEven"
grep -q '<h2>scale</h2>' "$html" || fail "no card for scale"
grep -q 'aria-label="occupancy 33.3%"' "$html" || fail "stencil: 40 KiB per block should give 33.3%"
grep -q '<b>7.35 waves</b>' "$html" || fail "stencil: 1000 blocks / (2 x 68) = 7.35 waves"
# Registers from the ptxas log: oddEven's 128 per thread leave 4 blocks of 4 warps, 33.3%.
awk '/<h2>oddEven<\/h2>/,/<\/section>/' "$html" > "$out/oddEven.html"
grep -q 'registers</th><td>128 per thread' "$out/oddEven.html" || fail "oddEven: registers not from the log"
grep -q 'aria-label="occupancy 33.3%"' "$out/oddEven.html" || fail "oddEven: 128 registers should give 33.3%"
grep -q 'limited by registers' "$out/oddEven.html" || fail "oddEven: registers should limit"
# The divergence finding inside oddEven's body is on oddEven's card.
grep -q 'warplint-divergent-branch' <<< "$(awk '/<h2>oddEven<\/h2>/,/<\/section>/' "$html")" ||
  fail "the divergence finding is not on oddEven's card"
if grep -q 'Other findings' "$html"; then fail "a finding was left off the cards"; fi
awk '/<h2>scale<\/h2>/,/<\/section>/' "$html" > "$out/scale.html"
grep -q '<tr id="launch-[0-9]*"><td>[^<]*kernels.cu:28:3</td><td>triple-chevron</td><td>256 x 1 x 1</td><td>not known at compile time</td>' \
  "$out/scale.html" || fail "scale's grid is not constant"
# The index lists each launch with its occupancy, linking to its row on its kernel's card.
grep -q '<tr><td><a href="#launch-[0-9]*">stencil</a></td><td>[^<]*kernels.cu:26:3</td><td>sm_86</td><td>33.3%</td><td>limited by shared memory</td>' \
  "$html" || fail "no index row for stencil's launch"
if grep -q '<script' "$html"; then fail "the report has a script"; fi

set +e
"$python" "$src/tests/report/check-report.py" "$html" --cards 3 --launches 3 --charts 9 --currents 8 \
  --screenshot "$out/report.png"
rc=$?
set -e
exit $rc
