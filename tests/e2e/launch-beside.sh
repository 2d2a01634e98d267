#!/usr/bin/env bash
# `warplint launch` with the analysis beside the compile (--overlap), and chained with
# sccache, on tests/e2e/Inputs/launch/divergent.cu with the real nvcc:
#  1. beside: the analysis process runs while the compiler runs (the compiler, a wrapper
#     around nvcc, sees its sibling); never: it does not;
#  2. beside, the registers still come from the object this compile writes, not from the
#     previous build's object at the same path (which the wrapper leaves in place until
#     nvcc overwrites it, after a pause): the object is read only after the compile;
#  3. beside, a failed compile shows nvcc's errors only, with nvcc's status, and no
#     analysis process outlives the step;
#  4. beside, a compile with no device code (-E) is analysed without waiting for an object;
#  5. the findings are the same beside, after and with --overlap auto;
#  a crash of the analysis beside the compile: status 0 and said, or 1 and said with
#  --warnings-as-errors; a compiler that cannot be executed; a launcher without compiler;
#  6. warplint;launch;--;sccache: the second compile is an sccache hit, and the findings
#     come back (the object restored by sccache, the analysis from the result cache).
# usage: launch-beside.sh WARPLINT SOURCE_DIR WORK_DIR
# Exit 77 (skip) without nvcc.
set -euo pipefail
warplint=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
work=$3
nvcc=${CUDA_NVCC:-/usr/local/cuda/bin/nvcc}
[ -x "$nvcc" ] || { echo "no nvcc at $nvcc: skipped"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work"
cp "$src/tests/e2e/Inputs/launch/divergent.cu" .
export XDG_CACHE_HOME=$work/cache
findings() { grep -E '^/[^ ]+:[0-9]+:[0-9]+: (warning|error): .*\[warplint-[a-z-]+\]$' "$1" | sort || true; }

# A compiler named nvcc (the launcher reads its arguments as nvcc's) that records whether
# a warplint process other than its parent (the analysis child: the parent's other
# child) exists while it runs, pauses, then runs the real nvcc.
mkdir -p wrap
cat > wrap/nvcc <<EOF
#!/usr/bin/env bash
launcher=\$PPID
sleep \${PAUSE:-0}
sibling=\$(pgrep -P "\$launcher" -x warplint || true)
if [ -n "\$sibling" ]; then echo beside; else echo alone; fi >> "$work/siblings"
# CRASH=1: the analysis crashes (SIGSEGV) while the compile runs.
if [ -n "\${CRASH:-}" ] && [ -n "\$sibling" ]; then kill -SEGV \$sibling; fi
exec "$nvcc" "\$@"
EOF
chmod +x wrap/nvcc

# 1. beside and after.
rm -f siblings
PAUSE=1 "$warplint" launch --overlap=always -- wrap/nvcc -arch=sm_80 -c divergent.cu -o beside.o 2> beside.err ||
  { cat beside.err; fail "launch --overlap=always failed"; }
PAUSE=1 "$warplint" launch --overlap=never -- wrap/nvcc -arch=sm_80 -c divergent.cu -o after.o 2> after.err ||
  { cat after.err; fail "launch --overlap=never failed"; }
[ "$(cat siblings)" = "$(printf 'beside\nalone')" ] ||
  { cat siblings; fail "expected the analysis beside the compile with always, not with never"; }
echo "overlap: the analysis ran beside the compile (always), after it (never)"

# 5. The same findings either way, and with auto; registers from the object written.
findings beside.err > beside.findings
findings after.err > after.findings
[ "$(wc -l < beside.findings)" -eq 3 ] || { cat beside.err; fail "expected 3 findings beside"; }
diff after.findings beside.findings || fail "the findings differ beside and after the compile"
"$warplint" launch -- "$nvcc" -arch=sm_80 -c divergent.cu -o auto.o 2> auto.err ||
  { cat auto.err; fail "launch (auto) failed"; }
diff after.findings <(findings auto.err) || fail "the findings differ with --overlap auto"
grep -q "note: registers from 'beside.o (sm_80 cubin)'" beside.err ||
  fail "beside: the registers did not come from the object"
# The compiler's own messages come before the findings (held until the compile ended).
"$warplint" launch --overlap=always -- wrap/nvcc -arch=sm_80 -Xptxas -v -c divergent.cu -o v.o 2> v.err
first_ptxas=$(grep -m1 -n 'ptxas info' v.err | cut -d: -f1)
first_finding=$(grep -m1 -n 'warning: .*\[warplint-' v.err | cut -d: -f1)
[ -n "$first_ptxas" ] && [ -n "$first_finding" ] && [ "$first_ptxas" -lt "$first_finding" ] ||
  { cat v.err; fail "beside: the findings did not follow the compiler's output"; }

# 2. A stale object at the output path: the last build's, with 56 registers for 'heavy'
# (the occupancy finding). The new compile limits registers to 32 (no finding): beside,
# the analysis must read the new object, which exists only once nvcc has run (after the
# wrapper's pause, while the parse is long done).
"$warplint" launch --overlap=never --no-cache -- "$nvcc" -arch=sm_80 -c divergent.cu -o stale.o 2> stale1.err
grep -q "occupancy 37.5% for 'heavy'" stale1.err || { cat stale1.err; fail "no occupancy finding at 56 registers"; }
PAUSE=3 "$warplint" launch --overlap=always --no-cache -- wrap/nvcc -arch=sm_80 -maxrregcount=32 \
  -c divergent.cu -o stale.o 2> stale2.err || { cat stale2.err; fail "the recompile failed"; }
if grep -q "occupancy .* for 'heavy'" stale2.err; then
  cat stale2.err
  fail "beside: the registers came from the previous build's object"
fi
grep -q "divergent.cu:5:7: warning: branch on 'Tid'" stale2.err || fail "beside: findings missing"
echo "beside: the registers from the object this compile wrote, not the stale one"

# 3. A failed compile beside: nvcc's errors and status, nothing of warplint, no process
# left behind.
echo '__global__ void broken() { undeclared(); }' > broken.cu
set +e
PAUSE=1 "$warplint" launch --overlap=always -- wrap/nvcc -arch=sm_80 -c broken.cu -o broken.o 2> broken.err
rc=$?
"$nvcc" -arch=sm_80 -c broken.cu -o broken2.o 2> /dev/null
nvcc_rc=$?
set -e
[ $rc -eq $nvcc_rc ] && [ $rc -ne 0 ] || fail "beside: a failed compile exited $rc, nvcc $nvcc_rc"
grep -q "undeclared" broken.err || fail "beside: nvcc's error not passed through"
if grep -q -e "warplint" -e "\[warplint-" broken.err; then cat broken.err; fail "beside: a failed compile showed analysis output"; fi
# The analysis is stopped when the compile fails; give a loaded machine up to 10 s to
# reap it (0.5 s was too short with the cores busy) before calling it a survivor.
for _ in $(seq 100); do
  pgrep -f "warplint launch --overlap=always -- wrap/nvcc -arch=sm_80 -c broken.cu" > /dev/null || break
  sleep 0.1
done
if pgrep -f "warplint launch --overlap=always -- wrap/nvcc -arch=sm_80 -c broken.cu" > /dev/null; then
  fail "beside: an analysis process outlived the failed compile"
fi

# 4. No device code (-E): beside, no object to wait for; registers only from the register
# cache (empty here: no nvcc register run happened), and the other findings come.
"$warplint" launch --overlap=always -- "$nvcc" -arch=sm_80 -E divergent.cu -o divergent.ii 2> e.err ||
  { cat e.err; fail "beside: -E failed"; }
[ -s divergent.ii ] || fail "beside: -E wrote nothing"
grep -q "divergent.cu:5:7: warning: branch on 'Tid'" e.err || { cat e.err; fail "beside: no findings for -E"; }
echo "beside: failed compile and -E as after the compile"

# A crash of the analysis (SIGSEGV, sent by the compiler wrapper while it runs): the
# compile's object and status 0, one line that says so; with --warnings-as-errors the
# step fails (1, the object removed) and says why although the compile succeeded.
set +e
CRASH=1 "$warplint" launch --overlap=always -- wrap/nvcc -arch=sm_80 -c divergent.cu -o crash.o 2> crash.err
rc_crash=$?
CRASH=1 "$warplint" launch --overlap=always --warnings-as-errors='*' -- wrap/nvcc -arch=sm_80 \
  -c divergent.cu -o crash-wae.o 2> crash-wae.err
rc_crash_wae=$?
set -e
[ $rc_crash -eq 0 ] && [ -s crash.o ] && [ "$(grep -c "the analysis of divergent.cu crashed (signal 11" crash.err)" -eq 1 ] ||
  { cat crash.err; fail "a crashed analysis: status $rc_crash"; }
if grep -q '\[warplint-' crash.err; then fail "a crashed analysis printed findings"; fi
[ $rc_crash_wae -eq 1 ] && [ ! -e crash-wae.o ] &&
  grep -q "crashed (signal 11" crash-wae.err &&
  grep -q "error: --warnings-as-errors is set and divergent.cu could not be analysed (above): the step fails although the compile succeeded" crash-wae.err ||
  { cat crash-wae.err; fail "a crashed analysis with --warnings-as-errors: status $rc_crash_wae"; }
echo "crash of the analysis: exit 0 and said; with --warnings-as-errors exit 1 and said"

# Bad input: a compiler that is there but not executable (127, said); launchers with no
# compiler after them (passed through with their own status, said once).
printf '#!/bin/sh\n' > noexec-nvcc && chmod -x noexec-nvcc
set +e
"$warplint" launch -- ./noexec-nvcc -c divergent.cu -o ne.o > noexec.out 2>&1
rc_noexec=$?
"$warplint" launch -- ccache > ccache-alone.out 2>&1
rc_ccache_alone=$?
ccache > /dev/null 2>&1
rc_ccache=$?
set -e
[ $rc_noexec -eq 127 ] && grep -q "cannot run './noexec-nvcc': Permission denied" noexec.out ||
  { cat noexec.out; fail "a compiler that cannot be executed: $rc_noexec"; }
if command -v ccache > /dev/null; then
  [ $rc_ccache_alone -eq $rc_ccache ] &&
    [ "$(grep -c "warplint launch: not analysed: no compiler in the command" ccache-alone.out)" -eq 1 ] ||
    { cat ccache-alone.out; fail "ccache without a compiler: $rc_ccache_alone (ccache alone $rc_ccache)"; }
fi
echo "bad input: a compiler not executable, a launcher without compiler: said, passed through"

# A bad --overlap value: said; the compile runs; the step fails (exit 2).
set +e
"$warplint" launch --overlap=sometimes -- "$nvcc" -arch=sm_80 -c divergent.cu -o bad.o 2> bad.err
rc=$?
set -e
[ $rc -eq 2 ] && [ -f bad.o ] && grep -q "overlap takes auto, always or never, not 'sometimes'" bad.err ||
  { cat bad.err; fail "bad --overlap: $rc"; }

# 6. sccache in the chain: a miss, then a hit; the same findings both times.
if command -v sccache > /dev/null; then
  export SCCACHE_DIR=$work/sccache SCCACHE_SERVER_PORT=${SCCACHE_SERVER_PORT:-4227}
  sccache --stop-server > /dev/null 2>&1 || true
  sccache --start-server > /dev/null 2>&1 || fail "sccache --start-server failed"
  for i in 1 2; do
    rm -f sc.o
    "$warplint" launch -- sccache "$nvcc" -arch=sm_80 -c divergent.cu -o sc.o 2> sc$i.err ||
      { cat sc$i.err; sccache --stop-server > /dev/null 2>&1; fail "sccache compile $i failed"; }
  done
  stats=$(sccache --show-stats 2>&1)
  sccache --stop-server > /dev/null 2>&1 || true
  hits=$(echo "$stats" | awk '/^Cache hits +[0-9]/ {print $3}')
  misses=$(echo "$stats" | awk '/^Cache misses +[0-9]/ {print $3}')
  [ "$hits" = 1 ] && [ "$misses" = 1 ] || { echo "$stats"; fail "sccache: expected 1 hit and 1 miss"; }
  diff after.findings <(findings sc1.err) || fail "sccache: the findings differ (miss)"
  diff after.findings <(findings sc2.err) || fail "sccache: the findings differ (hit)"
  grep -q "note: registers from 'sc.o (sm_80 cubin)'" sc2.err || fail "sccache hit: registers not from the object"
  echo "sccache: a miss then a hit, the same findings, registers from the restored object"
else
  echo "no sccache: chaining not tested"
fi
echo "launch beside: OK"
