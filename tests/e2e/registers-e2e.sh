#!/usr/bin/env bash
# End to end with the real nvcc: the occupancy checks in stock clang-tidy-22 with the
# plugin get the registers that ptxas reports, from a log, from the build's objects and
# from nvcc itself (run by warplint, then answered by the cache).
# usage: registers-e2e.sh <clang-tidy> <plugin.so> <source-root> <work-dir> <warplint>
# Exit 77 (ctest SKIP) when nvcc is absent.
set -euo pipefail
tidy=$1 plugin=$2 src=$3 work=$4 warplint=$5
nvcc=$(command -v nvcc || true)
[ -n "$nvcc" ] || { [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc; }
[ -n "$nvcc" ] || { echo "SKIP: nvcc not found"; exit 77; }
rm -rf "$work" && mkdir -p "$work/cache"
cp "$src/tests/checkers/warplint-occupancy.cu" "$work/k.cu"
mock="$src/tests/Inputs/cuda"
args=(-x cuda -nocudainc -nocudalib -Wno-unknown-cuda-version -isystem "$mock"
      -include cuda_runtime.h -resource-dir=/usr/lib/llvm-22/lib/clang/22
      --cuda-device-only --cuda-gpu-arch=sm_80)
fail() { echo "FAIL: $*"; exit 1; }
tidy_run() { # $1: config; prints warnings and notes
  "$tidy" --load="$plugin" --checks='-*,warplint-occupancy' "$work/k.cu" --config="$1" \
    -- "${args[@]}" 2>&1 | grep -E 'warning:|note:' || true
}
# 1. ptxas's own log for sm_80, and what it says about regHeavy.
"$nvcc" -arch=sm_80 -Xptxas -v -c "$work/k.cu" -o "$work/k.o" 2> "$work/k.log"
regs=$(grep -A3 "entry function '_Z8regHeavyPfPKf'" "$work/k.log" | sed -n 's/.*Used \([0-9]*\) registers.*/\1/p')
[ "$regs" = 72 ] || fail "ptxas reports $regs registers for regHeavy, expected the pinned 72"
from_log=$(tidy_run "{CheckOptions: {warplint.PtxasLog: '$work/k.log'}}")
grep -q "occupancy 37.5% for 'regHeavy' on sm_80" <<< "$from_log" || fail "log: $from_log"
grep -q "note: $regs registers/thread limit this 256-thread block" <<< "$from_log" || fail "log registers: $from_log"
# 2. The object of the same build gives the same findings.
from_obj=$(tidy_run "{CheckOptions: {warplint.RegisterSource: objects, warplint.Objects: '$work/k.o'}}")
# The what-if of register advice runs only with nvcc as the source (its note is left out of
# the comparison and checked on its own below).
strip() { sed -e 's/registers from .*$/registers from/' | grep -v 'note: with __launch_bounds__\|note: with __maxnreg__'; }
[ "$(echo "$from_log" | strip)" = "$(echo "$from_obj" | strip)" ] ||
  fail "objects and log disagree:"$'\n'"$from_log"$'\n'"---"$'\n'"$from_obj"
# 3. nvcc run by warplint: same findings, four cache entries (the report, the kept PTX,
# the uncapped report of the second run that a spilling kernel, tfat<96>, asks for, and
# the what-if report of the register advice); the second run hits all of them.
# nvcc through a wrapper that counts its runs: the warm run must start none. The output
# itself does not say whether the cache answered (same run, same bytes).
printf '#!/bin/sh\necho "$*" >> "%s/nvcc-runs"\nexec "%s" "$@"\n' "$work" "$nvcc" > "$work/nvcc-counting"
chmod +x "$work/nvcc-counting"
cfg="{CheckOptions: {warplint.RegisterSource: nvcc, warplint.Nvcc: '$work/nvcc-counting', warplint.CacheDir: '$work/cache'}}"
t0=$(date +%s%N); cold=$(tidy_run "$cfg"); t1=$(date +%s%N)
[ "$(echo "$from_log" | strip)" = "$(echo "$cold" | strip)" ] ||
  fail "nvcc and log disagree:"$'\n'"$from_log"$'\n'"---"$'\n'"$cold"
grep -q "registers from nvcc (sm_80)" <<< "$cold" || fail "cold run has no nvcc figures: $cold"
[ -s "$work/nvcc-runs" ] || fail "cold run did not run nvcc"
entries=$(ls "$work/cache" | grep -c '\.ptxas\.log$' || true)
[ "$entries" = 4 ] || fail "expected 4 cache entries, found $entries"
grep -q "note: with __launch_bounds__(256, 4) nvcc 13\.[0-9]* gives" <<< "$cold" ||
  fail "cold run has no verified advice: $cold"
grep -q '\.tmp$' <<< "$(ls "$work/cache")" && fail "temporary file left in the cache"
rm -f "$work/nvcc-runs"
t2=$(date +%s%N); warm=$(tidy_run "$cfg"); t3=$(date +%s%N)
[ -e "$work/nvcc-runs" ] && fail "warm run missed the cache: nvcc ran $(cat "$work/nvcc-runs")"
[ "$cold" = "$warm" ] || fail "cold and warm output differ:"$'\n'"$cold"$'\n'"---"$'\n'"$warm"
# 4. A source change is a new key.
echo "// changed" >> "$work/k.cu"
tidy_run "$cfg" > /dev/null
entries=$(ls "$work/cache" | grep -c '\.ptxas\.log$' || true)
[ "$entries" = 8 ] || fail "a changed source should add four cache entries, found $entries"
# 5. Parallel runs on an empty cache: every run gets the figures, four whole entries remain.
mkdir -p "$work/pcache"
pcfg="{CheckOptions: {warplint.RegisterSource: nvcc, warplint.Nvcc: '$nvcc', warplint.CacheDir: '$work/pcache'}}"
for i in 1 2 3 4; do tidy_run "$pcfg" > "$work/par$i.txt" & done
wait
for i in 1 2 3 4; do
  grep -q "occupancy 37.5% for 'regHeavy' on sm_80" "$work/par$i.txt" || fail "parallel run $i: $(cat "$work/par$i.txt")"
done
entries=$(ls "$work/pcache" | grep -c '\.ptxas\.log$' || true)
[ "$entries" = 4 ] || fail "parallel runs left $entries entries (want the report, the PTX, the uncapped and the what-if one)"
grep -qvE '(\.ptxas\.log|^nvcc-version-.*\.txt)$' <<< "$(ls "$work/pcache")" && fail "parallel runs left temporary files: $(ls "$work/pcache")"
# 6. warplint check -p on an nvcc compile database (auto): the build's nvcc and flags
# (-maxrregcount=40, a relative -I) give the registers; the second run is answered by the
# cache in $XDG_CACHE_HOME/warplint.
mkdir -p "$work/proj/inc" "$work/proj/build"
cp "$src/tests/checkers/warplint-occupancy.cu" "$work/proj/k.cu"
cat >> "$work/proj/k.cu" <<'CU'
// No per-kernel pin: -maxrregcount decides.
__global__ void unpinned(float *out, const float *in) { out[threadIdx.x] = churn<96>(in); }
void more(float *out, const float *in) { unpinned<<<1024, 256>>>(out, in); }
CU
cat > "$work/proj/build/compile_commands.json" <<JSON
[{"directory": "$work/proj/build",
  "command": "$nvcc -I../inc -gencode arch=compute_80,code=sm_80 -maxrregcount=40 -x cu -c $work/proj/k.cu -o k.o",
  "file": "$work/proj/k.cu"}]
JSON
(cd "$work/proj/build" && "$nvcc" -I../inc -arch=sm_80 -maxrregcount=40 -Xptxas -v -c ../k.cu -o k.o 2> build.log)
want=$(grep -A3 "entry function '_Z5lightPf'" "$work/proj/build/build.log" | sed -n 's/.*Used \([0-9]*\) registers.*/\1/p')
want_heavy=$(grep -A3 "entry function '_Z8unpinnedPfPKf'" "$work/proj/build/build.log" | sed -n 's/.*Used \([0-9]*\) registers.*/\1/p')
[ "$want_heavy" = 40 ] || fail "-maxrregcount=40 should pin unpinned at 40, ptxas says $want_heavy"
for run in cold warm; do
  set +e
  XDG_CACHE_HOME="$work/xdg" "$warplint" check -p "$work/proj/build" --format json > "$work/$run.json" 2> "$work/$run.err"
  rc=$?
  set -e
  [ $rc -le 1 ] || fail "check -p exited $rc: $(cat "$work/$run.err")"$'\n'"$(grep -o '"message": "[^"]*"' "$work/$run.json" | head -5)"
  python3 - "$work/$run.json" "$want" "$want_heavy" <<'PY' || fail "$run: registers differ from ptxas"
import json, sys
d = json.load(open(sys.argv[1]))
regs = {l["kernel"]: l["registers"] for l in d["launches"]}
assert regs["light"] == int(sys.argv[2]), regs
assert regs["unpinned"] == int(sys.argv[3]), regs
heavy = [l for l in d["launches"] if l["kernel"] == "unpinned"][0]
assert heavy["blocks_per_sm"] == 6 and heavy["limiters"] == ["registers"], heavy
PY
done
entries=$(ls "$work/xdg/warplint" | grep -c '\.ptxas\.log$' || true)
[ "$entries" = 4 ] || fail "check -p: expected 4 cache entries (report, PTX, uncapped, what-if) in \$XDG_CACHE_HOME/warplint, found $entries"
# 6b. --registers-from nvcc named on the same database takes the build's flags too (it took
# the TU's -I/-D/-std only: -maxrregcount was lost, and ggml's fattn.cu, whose __device__
# lambda needs the build's -extended-lambda, failed in nvcc on every run).
XDG_CACHE_HOME="$work/xdg" "$warplint" check -p "$work/proj/build" --registers-from nvcc --format json > "$work/named.json" 2> "$work/named.err" || [ $? -le 1 ] || fail "check -p --registers-from nvcc: $(cat "$work/named.err")"
python3 - "$work/named.json" "$want_heavy" <<'PY' || fail "--registers-from nvcc: not the build's -maxrregcount"
import json, sys
d = json.load(open(sys.argv[1]))
regs = {l["kernel"]: l["registers"] for l in d["launches"]}
assert regs["unpinned"] == int(sys.argv[2]), regs
PY
# 6c. Another copy of warplint (an install elsewhere: bin/ and share/warplint/ moved
# together) shares the register cache: its own headers are read from another place, which
# nvcc never reads, so the same nvcc reports answer it (the key named them by their path:
# every copy of warplint missed the cache of another).
bindir=$(dirname "$warplint")
if [ -d "$bindir/../share/warplint" ]; then
  mkdir -p "$work/copy/bin" && cp "$warplint" "$work/copy/bin/" && cp -r "$bindir/../share" "$work/copy/"
  XDG_CACHE_HOME="$work/xdg" "$work/copy/bin/$(basename "$warplint")" check -p "$work/proj/build" --no-cache --format json > "$work/copy.json" 2> "$work/copy.err" || [ $? -le 1 ] || fail "copied warplint: $(cat "$work/copy.err")"
  entries=$(ls "$work/xdg/warplint" | grep -c '\.ptxas\.log$' || true)
  [ "$entries" = 4 ] || fail "a copy of warplint missed the register cache: $entries entries (want the same 4)"
  python3 - "$work/copy.json" "$want_heavy" <<'PY' || fail "copied warplint: registers differ"
import json, sys
d = json.load(open(sys.argv[1]))
regs = {l["kernel"]: l["registers"] for l in d["launches"]}
assert regs["unpinned"] == int(sys.argv[2]), regs
PY
fi
# 7. A cache directory that cannot be created: one warning for the run (not one per check,
# not a finding), and the registers still come from nvcc, uncached.
nocache=$("$warplint" check "$work/k.cu" --arch sm_80 --cache-dir /proc/warplint-no-cache 2>&1 || true)
[ "$(grep -c 'nvcc runs uncached' <<< "$nocache")" = 1 ] || fail "unwritable cache: $nocache"
grep -q "registers from nvcc (sm_80)" <<< "$nocache" || fail "unwritable cache lost the registers: $nocache"
grep -q "warplint: warning: registers from nvcc: cannot create the cache directory" <<< "$nocache" ||
  fail "unwritable cache is not a run message: $nocache"
# 8. Spills with registers from nvcc (the default for a lone file with the toolkit):
# warplint-register-spill names the bytes, the arch and the __launch_bounds__ cause.
cp "$src/tests/checkers/warplint-register-spill.cu" "$work/spill.cu"
spill=$("$warplint" check "$work/spill.cu" --arch sm_80 --checks='-*,warplint-register-spill' \
  --cache-dir "$work/cache" 2>&1 || true)
grep -q "warning: kernel 'bounded' spills registers to local memory on sm_80" <<< "$spill" ||
  fail "no spill finding from nvcc: $spill"
grep -q "__launch_bounds__(1024, 2) leaves ptxas at most 32 registers/thread" <<< "$spill" ||
  fail "spill cause missing: $spill"
grep -q "registers from nvcc (sm_80)" <<< "$spill" || fail "spill source: $spill"
# The second ptxas run says what the kernel needs without the caps: the __maxnreg__ that
# clang does not see (capped) and the __launch_bounds__ (bounded) alike.
[ "$(grep -c "with __maxnreg__, __launch_bounds__ and -maxrregcount removed, ptxas uses [0-9]* registers/thread on sm_80 and does not spill" <<< "$spill")" = 2 ] ||
  fail "uncapped figures missing: $spill"
echo "PASS: regHeavy $regs registers from log, objects and nvcc agree; cold $(( (t1-t0)/1000000 )) ms, warm $(( (t3-t2)/1000000 )) ms"
