#!/usr/bin/env bash
# `warplint launch` as CMake's CUDA compiler launcher with Ninja and the real nvcc, on the
# two-file project tests/e2e/Inputs/launch:
#  1. the objects are the same with and without the launcher (after objcopy --strip-debug:
#     two plain nvcc runs differ only in debug sections naming tmpxft_<pid> files);
#  2. the findings appear in the build log, equal to `warplint check -p` on the same
#     compile database, file by file; nothing is written beside the objects;
#  3. --warnings-as-errors fails the build on a finding; a compile error keeps nvcc's status;
#  4. --sarif-dir logs merge (warplint sarif-merge) into SARIF that the 2.1.0 schema accepts;
#  5. chained with ccache: a rebuild after `ninja -t clean` hits ccache for every object and
#     still prints the findings (result cache);
#  6. the CMake package from an install prefix: find_package(warplint) + warplint_enable.
# usage: launch-cmake.sh WARPLINT SOURCE_DIR WORK_DIR WARPLINT_BUILD_DIR [SARIF_SCHEMA]
# Exit 77 (skip) without nvcc, cmake or ninja.
set -euo pipefail
warplint=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
work=$3
wlbuild=$(cd "$4" && pwd)
schema=${5:+$(realpath -m "$5")}
nvcc=${CUDA_NVCC:-/usr/local/cuda/bin/nvcc}
[ -x "$nvcc" ] || { echo "no nvcc at $nvcc: skipped"; exit 77; }
command -v cmake >/dev/null || { echo "no cmake: skipped"; exit 77; }
command -v ninja >/dev/null || { echo "no ninja: skipped"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$work" && mkdir -p "$work" && cd "$work"
cp -r "$src/tests/e2e/Inputs/launch" proj
export XDG_CACHE_HOME=$work/cache # a cold register and result cache of its own
configure() { # BUILD_DIR LAUNCHER [more cmake args]
  local dir=$1 launcher=$2
  shift 2
  cmake -S proj -B "$dir" -G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
    -DCMAKE_CUDA_COMPILER="$nvcc" "-DCMAKE_CUDA_COMPILER_LAUNCHER=$launcher" "$@" \
    > "$dir.cmake.log" 2>&1 || { cat "$dir.cmake.log"; fail "cmake failed for $dir"; }
}
objects() { find "$1/CMakeFiles/demo.dir" -name "*.o" | sort; }
# The findings of a log: "file:line:col: level: message [check]" lines of warplint's checks.
findings() { grep -E '^/[^ ]+:[0-9]+:[0-9]+: (warning|error): .*\[warplint-[a-z-]+\]$' "$1" | sort -u || true; }

# 1. Without, then with the launcher, in the same build directory.
configure build ""
ninja -C build > plain.log 2>&1 || { cat plain.log; fail "plain build failed"; }
mkdir plain-objects
for o in $(objects build); do objcopy --strip-debug "$o" "plain-objects/$(basename "$o")"; done
(cd build && find . -type f | grep -v -e '^./CMakeFiles/' -e '^./.ninja_' -e '^./build.ninja' \
  -e '^./CMakeCache.txt' -e '^./cmake_install.cmake' | sort) > plain-files
ninja -C build -t clean > /dev/null
configure build "$warplint;launch;--sarif-dir=$work/sarif;--"
ninja -C build > launched.log 2>&1 || { cat launched.log; fail "build with the launcher failed"; }
cat launched.log
n=0
for o in $(objects build); do
  objcopy --strip-debug "$o" stripped.o
  cmp -s stripped.o "plain-objects/$(basename "$o")" || fail "$(basename "$o") differs with the launcher"
  n=$((n + 1))
done
[ "$n" -eq 2 ] || fail "expected 2 objects, found $n"
(cd build && find . -type f | grep -v -e '^./CMakeFiles/' -e '^./.ninja_' -e '^./build.ninja' \
  -e '^./CMakeCache.txt' -e '^./cmake_install.cmake' | sort) > launched-files
diff plain-files launched-files || fail "the launcher left files the plain build does not make"
find build/CMakeFiles -newer plain.log -type f ! -name '*.o' ! -name '*.d' ! -name '*.a' \
  ! -name '*.cmake' ! -name '*.txt' ! -name '*.log' ! -name '*.bin' ! -name '*.out' \
  ! -name '*.json' ! -name '*.ninja' ! -name '*.cu' ! -name '*.cpp' ! -name '*.check_cache' \
  ! -name '*.c' > extra-files || true
[ ! -s extra-files ] || { cat extra-files; fail "files beside the objects"; }

# 2. The findings in the log, and the same as check -p on the database, file by file.
grep -q "divergent.cu:5:7: warning: branch on 'Tid' diverges in 4 of 4 warps" launched.log ||
  fail "no divergence finding in the build log"
grep -q "divergent.cu:11:34: warning: block 100 is not a whole number of warps" launched.log ||
  fail "no block-size finding in the build log"
findings launched.log > launch.findings
set +e
# (from the build directory, as the compiles ran: paths absolute, as in the build log)
(cd build && "$warplint" check -p . > ../check.out 2> ../check.err)
rc=$?
set -e
[ $rc -eq 1 ] || { cat check.out check.err; fail "check -p exited $rc, expected 1"; }
findings check.out > check.findings
for f in divergent.cu clean.cu; do
  diff <(grep "/$f:" check.findings || true) <(grep "/$f:" launch.findings || true) ||
    fail "$f: the launcher's findings differ from check -p's"
done
[ "$(wc -l < launch.findings)" -eq 3 ] || fail "expected 3 findings, got $(wc -l < launch.findings)"
# The occupancy finding counts the registers of the object the compile wrote (check -p
# ran nvcc for them: the same figure).
grep -q "divergent.cu:[0-9]*:[0-9]*: warning: occupancy 37.5% for 'heavy' on sm_80" launch.findings ||
  fail "no register-limited occupancy finding"
grep -q "note: registers from 'CMakeFiles/demo.dir/divergent.cu.o (sm_80 cubin)'" launched.log ||
  fail "the registers did not come from the object the compile wrote"
echo "launcher = check -p: $(wc -l < launch.findings) findings in 2 files"

# A rebuild after `ninja -t clean` (no ccache): nvcc writes new objects, which differ from
# the last ones only in their debug sections; the analysis comes from the result cache
# (no entry is written again) with the same findings.
touch rebuild-marker
sleep 1
ninja -C build -t clean > /dev/null
ninja -C build > rebuilt.log 2>&1 || { cat rebuilt.log; fail "rebuild failed"; }
diff launch.findings <(findings rebuilt.log) || fail "findings differ on a rebuild"
written=$(find cache/warplint/results -type f -newer rebuild-marker | wc -l)
[ "$written" -eq 0 ] || fail "the rebuild analysed again ($written result cache entries written)"
echo "rebuild without ccache: the analysis from the result cache"

# 4. One SARIF log per translation unit; merged, valid SARIF with the two findings.
[ "$(ls sarif/*.sarif | wc -l)" -eq 2 ] || { ls sarif; fail "expected 2 SARIF logs"; }
"$warplint" sarif-merge -o merged.sarif sarif/*.sarif || fail "sarif-merge failed"
python3 - merged.sarif <<'EOF'
import json, sys
log = json.load(open(sys.argv[1]))
results = log["runs"][0]["results"]
ids = sorted(r["ruleId"] for r in results)
assert ids == ["warplint-block-size-warp-multiple", "warplint-divergent-branch",
               "warplint-occupancy"], ids
print("merged SARIF:", len(results), "results")
EOF
if [ -z "$schema" ] || [ ! -f "$schema" ]; then
  echo "no SARIF schema at '$schema': schema validation not run"
else
  set +e
  python3 "$src/tests/sarif/validate-sarif.py" "$schema" merged.sarif sarif/*.sarif
  rc=$?
  set -e
  [ $rc -eq 0 ] || [ $rc -eq 77 ] || fail "the SARIF logs are not valid SARIF 2.1.0"
  [ $rc -eq 77 ] || echo "SARIF 2.1.0 schema: the 2 logs and the merged one are valid"
fi

# 3. --warnings-as-errors fails the step that has a finding; a compile error is nvcc's.
ninja -C build -t clean > /dev/null
configure build "$warplint;launch;--warnings-as-errors=warplint-divergent-branch;--"
set +e
ninja -C build -k 0 > wae.log 2>&1
rc=$?
set -e
[ $rc -ne 0 ] || { cat wae.log; fail "--warnings-as-errors did not fail the build"; }
grep -q "divergent.cu:5:7: error: branch on 'Tid'" wae.log || { cat wae.log; fail "no error in the log"; }
grep -q "warplint launch: 1 warning treated as error" wae.log || fail "no summary of the failure"
grep -q "FAILED: .*divergent.cu.o" wae.log || fail "the failed step is not divergent.cu's"
if grep -q "FAILED: .*clean.cu.o" wae.log; then fail "clean.cu failed too"; fi
[ ! -e build/CMakeFiles/demo.dir/divergent.cu.o ] || fail "the failed step left its object"
set +e
ninja -C build > wae2.log 2>&1
rc=$?
set -e
[ $rc -ne 0 ] || fail "the second build after a --warnings-as-errors failure passed"
echo '__global__ void broken() { undeclared(); }' > proj/broken.cu
set +e
"$warplint" launch -- "$nvcc" -c proj/broken.cu -o broken.o > broken.out 2> broken.err
rc=$?
"$nvcc" -c proj/broken.cu -o broken2.o 2> /dev/null
nvcc_rc=$?
set -e
[ $rc -eq $nvcc_rc ] && [ $rc -ne 0 ] || fail "a failing compile exited $rc, nvcc alone $nvcc_rc"
grep -q "undeclared" broken.err || fail "nvcc's error is not passed through"
if grep -q "warplint launch" broken.err; then fail "a failed compile was analysed"; fi

# Bad input: no compiler; a compiler that does not exist (the shell's 127); one warplint
# does not know (runs, said once); a mistyped option (the compile runs, the step fails).
set +e
"$warplint" launch > bad.out 2>&1; rc_none=$?
"$warplint" launch -- /nonexistent/nvcc -c proj/clean.cu -o x.o > missing.out 2>&1; rc_missing=$?
"$warplint" launch -- cp proj/clean.cu copied.cu > unknown.out 2>&1; rc_unknown=$?
"$warplint" launch --warnings-as-erors='*' -- cp proj/clean.cu typo.cu > typo.out 2>&1; rc_typo=$?
set -e
[ $rc_none -eq 2 ] && grep -q "no compiler command" bad.out || fail "no compiler: $rc_none"
[ $rc_missing -eq 127 ] && grep -q "cannot run '/nonexistent/nvcc'" missing.out ||
  fail "missing compiler: $rc_missing"
[ $rc_unknown -eq 0 ] && cmp -s proj/clean.cu copied.cu && [ "$(grep -c "not analysed: 'cp'" unknown.out)" -eq 1 ] ||
  fail "unknown compiler: $rc_unknown"
[ $rc_typo -eq 2 ] && [ -f typo.cu ] && grep -q "unknown option '--warnings-as-erors=" typo.out ||
  fail "mistyped option: $rc_typo"
# An analysis that cannot run (here .clang-tidy adds a header that does not exist) does
# not fail a build that compiled, unless --warnings-as-errors is set; nor does a crash.
mkdir -p cfg && cp proj/clean.cu cfg/ && printf 'ExtraArgs: ["-include", "/nonexistent/x.h"]\n' > cfg/.clang-tidy
set +e
(cd cfg && "$warplint" launch --no-cache -- "$nvcc" -arch=sm_80 -c clean.cu -o a.o) > nofail.out 2>&1; rc_a=$?
(cd cfg && "$warplint" launch --no-cache --warnings-as-errors='*' -- "$nvcc" -arch=sm_80 -c clean.cu -o b.o) > wfail.out 2>&1; rc_b=$?
set -e
[ $rc_a -eq 0 ] && [ -f cfg/a.o ] && grep -q "clean.cu not analysed: clang could not parse it" nofail.out ||
  { cat nofail.out; fail "a failed analysis changed the status ($rc_a)"; }
[ $rc_b -eq 1 ] && [ ! -f cfg/b.o ] && grep -q "error: --warnings-as-errors is set and clean.cu could not be analysed" wfail.out ||
  { cat wfail.out; fail "a failed analysis with --warnings-as-errors: $rc_b"; }
# The analysis child killed by SIGSEGV while it runs: said, and the status is the compile's.
"$warplint" launch --no-cache -- "$nvcc" -arch=sm_80 -c proj/divergent.cu -o crash.o > crash.out 2>&1 &
lpid=$!
killed=0
for _ in $(seq 1 600); do
  child=$(pgrep -P $lpid -x warplint || true)
  if [ -n "$child" ]; then kill -SEGV $child && killed=1; break; fi
  sleep 0.02
done
set +e; wait $lpid; rc_crash=$?; set -e
if [ $killed -eq 1 ]; then
  [ $rc_crash -eq 0 ] && [ -f crash.o ] && grep -q "crashed (signal 11" crash.out ||
    { cat crash.out; fail "a crashed analysis: status $rc_crash"; }
  echo "bad input: OK (crash of the analysis: exit 0, said)"
else
  echo "bad input: OK (the analysis ended before it could be killed: crash not tested)"
fi

# 5. Chained with ccache: the second build after `ninja -t clean` is all ccache hits, and
# the findings come back (the object is restored, the analysis from the result cache).
if command -v ccache > /dev/null; then
  export CCACHE_DIR=$work/ccache CCACHE_BASEDIR=$work
  rm -rf build && configure build "$warplint;launch;--;ccache"
  ninja -C build > ccache1.log 2>&1 || { cat ccache1.log; fail "ccache build failed"; }
  ccache -z > /dev/null
  ninja -C build -t clean > /dev/null
  touch ccache-marker
  sleep 1
  ninja -C build > ccache2.log 2>&1 || { cat ccache2.log; fail "ccache rebuild failed"; }
  written=$(find cache/warplint/results -type f -newer ccache-marker | wc -l)
  [ "$written" -eq 0 ] || fail "on ccache hits the analysis ran again ($written entries written)"
  stats=$(ccache --print-stats)
  hits=$(echo "$stats" | awk '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" {s += $2} END {print s + 0}')
  misses=$(echo "$stats" | awk '$1 == "cache_miss" {print $2}')
  [ "$hits" -eq 2 ] && [ "${misses:-0}" -eq 0 ] || { echo "$stats"; fail "expected 2 ccache hits, 0 misses"; }
  diff <(findings ccache1.log) <(findings ccache2.log) || fail "findings differ on ccache hits"
  diff launch.findings <(findings ccache2.log) || fail "ccache chain findings differ"
  echo "ccache: 2 hits, findings unchanged, the analysis from the result cache"
  unset CCACHE_DIR CCACHE_BASEDIR
else
  echo "no ccache: chaining not tested"
fi

# Makefiles: the same launcher, the same findings.
if command -v make > /dev/null; then
  cmake -S proj -B make-build -G "Unix Makefiles" -DCMAKE_CUDA_COMPILER="$nvcc" \
    "-DCMAKE_CUDA_COMPILER_LAUNCHER=$warplint;launch" > make.cmake.log 2>&1 ||
    { cat make.cmake.log; fail "cmake (Makefiles) failed"; }
  make -C make-build > make.log 2>&1 || { cat make.log; fail "make failed"; }
  diff launch.findings <(findings make.log) || fail "findings differ under make"
  echo "make: the same findings (launcher list without '--')"
fi

# 6. The CMake package from an install prefix.
cmake --install "$wlbuild" --prefix "$work/prefix" > install.log 2>&1 ||
  { cat install.log; fail "cmake --install failed"; }
[ -f prefix/lib/cmake/warplint/warplintConfig.cmake ] || fail "no warplintConfig.cmake installed"
rm -rf pkg
configure pkg "" -DWARPLINT_PACKAGE=ON -DCMAKE_PREFIX_PATH="$work/prefix" \
  "-DWARPLINT_ENABLE_ARGS=SARIF_DIR;$work/pkg-sarif"
grep -q "$work/prefix/bin/warplint launch --sarif-dir=$work/pkg-sarif --source-root=$work/proj -- .*nvcc" \
  pkg/CMakeFiles/rules.ninja || fail "warplint_enable did not set the installed launcher"
ninja -C pkg > pkg.log 2>&1 || { cat pkg.log; fail "package build failed"; }
diff launch.findings <(findings pkg.log) || fail "the package's findings differ"
[ "$(ls pkg-sarif/*.sarif | wc -l)" -eq 2 ] || fail "SARIF_DIR: expected 2 logs"
grep -q '"uri": "divergent.cu"' pkg-sarif/divergent-*.sarif ||
  fail "SARIF locations are not relative to the project's source dir"
rm -rf pkg && configure pkg "" -DWARPLINT_PACKAGE=ON -DCMAKE_PREFIX_PATH="$work/prefix" \
  "-DWARPLINT_ENABLE_ARGS=WARNINGS_AS_ERRORS"
set +e
ninja -C pkg > pkg-wae.log 2>&1
rc=$?
set -e
[ $rc -ne 0 ] || fail "warplint_enable(WARNINGS_AS_ERRORS) did not fail the build"
grep -q "error: branch on 'Tid'" pkg-wae.log || fail "no error from WARNINGS_AS_ERRORS"
echo "launch: OK"
