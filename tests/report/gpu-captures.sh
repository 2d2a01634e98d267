#!/usr/bin/env bash
# What the H200 and the H100 measured (tests/Inputs/gpu, captured by bench/gpu/run.sh) held
# against warplint's model, with no GPU: bench/gpu/compare.py (the runtime's occupancy and
# cluster answers, ncu's limits and theoretical occupancy, the block traces through
# `warplint timeline --check`, diverging warps against the -G build, memory sectors and
# wavefronts) must agree everywhere, and `warplint report --ncu` on the real ncu CSVs must
# match every profiled launch with no disagreement. docs/measuring.md has the tables.
# usage: gpu-captures.sh WARPLINT SOURCE_DIR OUT_DIR
set -euo pipefail
warplint=$1
src=$(cd "$2" && pwd)
out=$3
mkdir -p "$out"
fail() { echo "FAIL: $*" >&2; exit 1; }
for gpu in h200 h100; do
  python3 "$src/bench/gpu/compare.py" "$warplint" "$src/tests/Inputs/gpu/$gpu" \
    --markdown "$out/$gpu.md" > "$out/$gpu.txt" 2> "$out/$gpu.err" ||
    { cat "$out/$gpu.err" >&2; fail "$gpu: a model figure disagrees with the GPU"; }
  grep -q "every model figure agrees with the GPU" "$out/$gpu.err" || fail "$gpu: no verdict"
done
# The comparisons ran, with the counts the captures hold (a capture the script could not
# read would pass with nothing compared).
grep -q '^117 of 117 launches agree' "$out/h200.md" || fail "h200: the runtime's 117 launches"
grep -q '^160 of 160 `cudaOccupancyMaxActiveClusters` answers agree' "$out/h200.md" ||
  fail "h200: the 160 cluster answers"
grep -q '^160 of 160 `cudaOccupancyMaxActiveClusters` answers agree' "$out/h100.md" ||
  fail "h100: the 160 cluster answers"
grep -q '^43 of 43 profiled launches agree' "$out/h200.md" || fail "h200: ncu's 43 launches"
[ "$(grep -c '| yes |$' "$out/h200.md")" -ge 100 ] || fail "h200: fewer rows than captured"
for k in evenOdd halfOfEachWarp reduce0; do
  grep -q "^| $k | (256, 1, 1) | .* | yes |$" "$out/h200.md" || fail "divergence: $k"
done

# report --ncu on the real CSVs: every launch matched, no disagreement.
h200=$src/tests/Inputs/gpu/h200
check_report() { # SOURCE CSV LAUNCHES [ARGS...]
  local source=$1 csv=$2 n=$3
  shift 3
  "$warplint" report "$src/$source" --arch sm_90 --no-cache --ncu "$h200/$csv" \
    -o "$out/$csv.html" "$@" > "$out/$csv.log" 2>&1 || true
  grep -q "ncu: $n profiled launches, $n matched, 0 not matched to a source launch, 0 disagreements" \
    "$out/$csv.log" || { cat "$out/$csv.log" >&2; fail "report --ncu $csv"; }
}
check_report bench/measure/occupancy_trace.cu ncu-occupancy.csv 12 \
  --registers-from ptxas-log --ptxas-log "$h200/occupancy_trace.ptxas.log" -- -I"$src/trace/include"
check_report bench/memory/kernels.cu ncu-memory.csv 9 \
  --registers-from ptxas-log --ptxas-log "$h200/memory.ptxas.log"
# (the divergence program was built without -Xptxas -v: registers are left out there)
check_report bench/divergence/kernels.cu ncu-divergence.csv 7 --registers-from none
echo "PASS: the H200 and H100 captures agree with warplint's model"
