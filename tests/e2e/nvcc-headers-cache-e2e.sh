#!/usr/bin/env bash
# With the real nvcc (issue 27, items 5 and 6):
#  - a header checked alone gets its registers from nvcc through a one-line .cu that
#    includes it ("nvcc fatal: Don't know what to do with 'solo.cuh'" before);
#  - a header a database does not reach, interpolated from an nvcc command (`-x cuda`
#    added, which nvcc rejects), gets them the same way;
#  - a ptxas report in the cache cut to 50 bytes is a miss: removed, nvcc runs again, one
#    warning says so, and the next run is silent with the same figures ("the register
#    source has no figures" on every launch before, nvcc never re-run).
# usage: nvcc-headers-cache-e2e.sh <warplint> <work-dir>; exit 77 (ctest SKIP) without nvcc.
set -euo pipefail
warplint=$1 work=$2
nvcc=$(command -v nvcc || true)
[ -n "$nvcc" ] || { [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc; }
[ -n "$nvcc" ] || { echo "SKIP: nvcc not found"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work"
cat > solo.cuh <<'SRC'
#pragma once
__global__ void solo(float *p) { p[threadIdx.x] += 1.0f; }
inline void go(float *p) { solo<<<10, 48>>>(p); }
SRC
printf '__global__ void k(float *p) { p[threadIdx.x] = 0; }\nvoid f(float *p) { k<<<1, 64>>>(p); }\n' > k.cu
printf '[{"directory": "%s", "command": "%s -arch=sm_80 -O2 -c k.cu -o k.o", "file": "k.cu"}]\n' \
  "$work" "$nvcc" > compile_commands.json
regs() { grep -m1 -o '"registers": [0-9]*' "$1" | sed 's/.*: //'; }

# 1. The header alone.
"$warplint" check solo.cuh --cache-dir c1 --format json -o alone.json 2> alone.err || true
grep -q "Don't know what to do" alone.err && fail "nvcc was given the header: $(cat alone.err)"
grep -q '"registers_source": "nvcc"' alone.json || fail "no nvcc registers for solo.cuh: $(cat alone.err)"
r=$(regs alone.json)
[ -n "$r" ] && [ "$r" -gt 0 ] || fail "registers of solo: '$r'"

# 2. The header the database does not reach (its command interpolated from k.cu's).
"$warplint" check -p . solo.cuh --cache-dir c2 --format json -o interp.json 2> interp.err || true
grep -q "is not defined for option 'x'" interp.err && fail "nvcc got -x cuda: $(cat interp.err)"
grep -q '"registers_source": "nvcc"' interp.json || fail "no nvcc registers (database): $(cat interp.err)"

# 3. A damaged report in the register cache (the result cache is off: every run reads it).
"$warplint" check k.cu --cache-dir c3 --no-cache --format json -o cold.json 2> cold.err || true
log=$(ls c3/*.ptxas.log | sed -n 1p)
[ -n "$log" ] || fail "no report cached"
truncate -s 50 "$log"
"$warplint" check k.cu --cache-dir c3 --no-cache --format json -o repaired.json 2> repaired.err || true
grep -q "registers from nvcc: the cache entry '.*' was damaged (50 bytes that do not match their digest); it was removed; nvcc ran again" \
  repaired.err || fail "no repair said: $(cat repaired.err)"
[ "$(grep -c 'was damaged' repaired.err)" = 1 ] || fail "repair said more than once: $(cat repaired.err)"
[ "$(regs repaired.json)" = "$(regs cold.json)" ] || fail "registers after repair: $(regs repaired.json) vs $(regs cold.json)"
grep -q "no figures" repaired.json && fail "figures lost after repair"
"$warplint" check k.cu --cache-dir c3 --no-cache --format json -o warm.json 2> warm.err || true
grep -q "damaged" warm.err && fail "said again: $(cat warm.err)"
cmp cold.json warm.json || fail "warm run differs from the cold one"
# With the result cache on, the run that repaired does not store its result (it would say
# the repair again on every hit): the next run analyses, the one after reads the cache.
truncate -s 50 "$log"
"$warplint" check k.cu --cache-dir c3 2> r1.err > /dev/null || true
grep -q "was damaged" r1.err || fail "no repair said (result cache on): $(cat r1.err)"
"$warplint" check k.cu --cache-dir c3 2> r2.err > /dev/null || true
grep -q "damaged" r2.err && fail "repair stored in the result cache: $(cat r2.err)"
"$warplint" check k.cu --cache-dir c3 2> r3.err > /dev/null || true
grep -q "damaged" r3.err && fail "repair stored in the result cache: $(cat r3.err)"
grep -q "1 from the result cache" r3.err || fail "third run not from the result cache: $(cat r3.err)"
echo "PASS"
