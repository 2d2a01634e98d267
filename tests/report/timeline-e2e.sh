#!/usr/bin/env bash
# `warplint timeline` end to end on tests/Inputs/timeline/tail.jsonl: the summary lines,
# the exit status against the model, the .svg and .html outputs, and the page rendered in
# headless Chromium (tests/report/check-timeline.py; exit 77, skip, without chromium).
# usage: timeline-e2e.sh WARPLINT SOURCE_DIR OUT_DIR
set -euo pipefail
warplint=$1
src=$(cd "$2" && pwd)
out=$3
mkdir -p "$out"
trace=$src/tests/Inputs/timeline/tail.jsonl
fail() { echo "FAIL: $*" >&2; exit 1; }
# The model: sm_86, 256 threads, 128 registers -> 2 blocks per SM (registers).
model=(--arch sm_86 --threads 256 --registers 128 --sms 4)

set +e
"$warplint" timeline "$trace" --launch 0 "${model[@]}" -o "$out/launch0.html" > "$out/launch0.txt"
rc=$?
set -e
cat "$out/launch0.txt"
[ $rc -eq 0 ] || fail "launch 0 agrees with the model: exit $rc, expected 0"
grep -q '^regHeavy launch 0: 10 blocks on 3 of 4 SMs (idle: SM 3) in 200 us; at most 2 blocks resident per SM measured (SM 0), model 2: agrees; 2 waves measured (model 2 (1.25 waves of 8, the last 2 blocks)); tail 25% of the launch (from 150 us, when SM 2 finished); SMs busy 66% of the time$' \
  "$out/launch0.txt" || fail "launch 0's summary"

set +e
"$warplint" timeline "$trace" "${model[@]}" -o "$out/both.html" > "$out/both.txt"
rc=$?
set -e
cat "$out/both.txt"
[ $rc -eq 1 ] || fail "launch 1 has 3 blocks at once on SM 0, above the model: exit $rc, expected 1"
grep -q '^regHeavy launch 1: .*at most 3 blocks resident per SM measured (SM 0), model 2: MORE than the model allows' \
  "$out/both.txt" || fail "launch 1's summary"

"$warplint" timeline "$trace" --kernel regHeavy --launch 0 --sms 4 -o "$out/launch0.svg" > /dev/null
grep -q '^<?xml' "$out/launch0.svg" || fail "the .svg output is not an SVG document"
[ "$(grep -c '<rect class="blk"' "$out/launch0.svg")" -eq 10 ] || fail "the .svg should have 10 bars"

# The model from `warplint check --format json`: regHeavy's launch, 40 KiB of dynamic
# shared memory per 256-thread block on sm_86 -> 2 blocks per SM (shared memory).
cat > "$out/k.cu" <<'CU'
__global__ void regHeavy(float *p) { p[threadIdx.x] = 1; }
void run(float *p) { regHeavy<<<10, 256, 40 * 1024>>>(p); }
CU
set +e
"$warplint" check --mock-cuda --arch sm_86 --registers-from none --format json -o "$out/check.json" \
  "$out/k.cu" 2> /dev/null
set -e
[ -s "$out/check.json" ] || fail "warplint check wrote no JSON"
set +e
"$warplint" timeline "$trace" --check "$out/check.json" --sms 4 > "$out/check.txt"
rc=$?
set -e
cat "$out/check.txt"
[ $rc -eq 1 ] || fail "--check: launch 1 is above the checked model: exit $rc, expected 1"
grep -q '^regHeavy launch 0: .* model 2: agrees' "$out/check.txt" || fail "--check: launch 0"
grep -q '^regHeavy launch 1: .* model 2: MORE than the model allows' "$out/check.txt" ||
  fail "--check: launch 1"

# Bad input: a clear message and exit 2.
printf '{"kernel": "k", "block": [0], "sm": 0, "start_ns": 9, "end_ns": 1}\n' > "$out/bad.jsonl"
set +e
"$warplint" timeline "$out/bad.jsonl" 2> "$out/bad.err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "a bad trace: exit $rc, expected 2"
grep -q 'bad.jsonl: line 1: "end_ns" is before "start_ns"' "$out/bad.err" || fail "bad trace message"
# Bad command lines: each a message and exit 2.
expect2() { # message, arguments...
  local want=$1; shift
  set +e
  "$warplint" timeline "$@" > /dev/null 2> "$out/err.txt"
  local rc=$?
  set -e
  [ $rc -eq 2 ] || fail "timeline $*: exit $rc, expected 2"
  grep -q -- "$want" "$out/err.txt" || { cat "$out/err.txt"; fail "timeline $*: no '$want'"; }
}
expect2 "cannot read '$out/missing.jsonl'" "$out/missing.jsonl"
expect2 "ends in neither .html nor .svg" "$trace" -o "$out/t.png"
expect2 "the model needs --arch" "$trace" --threads 256
expect2 "the model needs the block" "$trace" --arch sm_86 --registers 32
expect2 "a block ran on SM 2, but the GPU has 2 SMs" "$trace" --sms 2
expect2 "no traced launch matches" "$trace" --kernel other

python=/usr/bin/python3
[ -x "$python" ] || python=python3
set +e
"$python" "$src/tests/report/check-timeline.py" "$out/launch0.html" --launches 1 --blocks 10 \
  --lanes 4 --idle 1 --screenshot "$out/launch0.png"
rc0=$?
"$python" "$src/tests/report/check-timeline.py" "$out/both.html" --launches 2 --blocks 14 \
  --lanes 8 --idle 3 --over-model --screenshot "$out/both.png"
rc1=$?
set -e
[ $rc0 -eq 77 ] && exit 77
[ $rc0 -eq 0 ] && [ $rc1 -eq 0 ]
