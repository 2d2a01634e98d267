#!/usr/bin/env bash
# `warplint launch` in CMake's HIP language (project(... LANGUAGES HIP)) on Debian 12:
# CMake 3.25, clang-15 and ROCm 5.2 from Debian's packages (hipcc, libamdhip64-dev,
# rocm-device-libs), on tests/e2e/Inputs/launch-hip:
#  1. -DCMAKE_HIP_COMPILER_LAUNCHER="warplint;launch;--": the findings in the build log,
#     the registers from the code object each compile wrote, the same findings as
#     `warplint check -p --objects` on the build's compile database, file by file;
#  2. the installed package: find_package(warplint) + warplint_enable(demo), the same;
#  3. hipcc as CMAKE_CXX_COMPILER with CMAKE_CXX_COMPILER_LAUNCHER, the same.
# CMake's HIP language needs three things Debian 12 does not lay out as CMake expects
# (docs/build-integration.md, "CMake's HIP language on Debian 12"):
#  - CMake looks for <ROCm root>/lib/cmake/hip-lang/hip-lang-config.cmake; Debian has it
#    in /usr/lib/x86_64-linux-gnu/cmake: a ROCm root of symbolic links to those packages
#    (CMAKE_HIP_COMPILER_ROCM_ROOT), also on CMAKE_PREFIX_PATH in the environment (the
#    compiler checks' try_compile projects see only that);
#  - clang-15 finds neither the HIP runtime nor the device libraries by itself:
#    CMAKE_HIP_FLAGS="--rocm-path=/usr --rocm-device-lib-path=<the bitcode>" (what
#    Debian's hipcc passes);
#  - clang-22 needs ROCm 6.3's device libraries (code object ABI 6): clang-15 compiles.
# usage: launch-hip-cmake.sh WARPLINT SOURCE_DIR WORK_DIR WARPLINT_BUILD_DIR
# Exit 77 (skip) without cmake, ninja, clang++-15 or Debian's HIP CMake packages.
set -euo pipefail
warplint=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
work=$3
wlbuild=$(cd "$4" && pwd)
multiarch=$(gcc -print-multiarch 2> /dev/null || echo x86_64-linux-gnu)
cmakedir=/usr/lib/$multiarch/cmake
bitcode=/usr/lib/$multiarch/amdgcn/bitcode
command -v cmake > /dev/null || { echo "no cmake: skipped"; exit 77; }
command -v ninja > /dev/null || { echo "no ninja: skipped"; exit 77; }
command -v clang++-15 > /dev/null || { echo "no clang++-15 (Debian's HIP compiler): skipped"; exit 77; }
for p in hip-lang hip amd_comgr hsa-runtime64; do
  [ -d "$cmakedir/$p" ] || { echo "no $cmakedir/$p (libamdhip64-dev): skipped"; exit 77; }
done
[ -f "$bitcode/ockl.bc" ] || { echo "no device libraries in $bitcode: skipped"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$work" && mkdir -p "$work" && cd "$work"
cp -r "$src/tests/e2e/Inputs/launch-hip" proj
export XDG_CACHE_HOME=$work/cache
mkdir -p rocm/lib/cmake
for p in hip-lang hip amd_comgr hsa-runtime64; do ln -s "$cmakedir/$p" "rocm/lib/cmake/$p"; done
export CMAKE_PREFIX_PATH=$work/rocm${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}
configure() { # BUILD_DIR LAUNCHER [more cmake args]
  local dir=$1 launcher=$2
  shift 2
  cmake -S proj -B "$dir" -G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
    -DCMAKE_HIP_COMPILER=clang++-15 -DCMAKE_HIP_COMPILER_ROCM_ROOT="$work/rocm" \
    -DCMAKE_HIP_ARCHITECTURES=gfx90a \
    "-DCMAKE_HIP_FLAGS=--rocm-path=/usr --rocm-device-lib-path=$bitcode" \
    "-DCMAKE_HIP_COMPILER_LAUNCHER=$launcher" "$@" > "$dir.cmake.log" 2>&1 ||
    { cat "$dir.cmake.log"; fail "cmake failed for $dir"; }
}
findings() { grep -E '^/[^ ]+:[0-9]+:[0-9]+: (warning|error): .*\[warplint-[a-z-]+\]$' "$1" | sort -u || true; }

# 1. The one-line launcher.
configure build "$warplint;launch;--"
grep -q "The HIP compiler identification is Clang" build.cmake.log || fail "CMake did not identify clang as HIP compiler"
ninja -C build > build.log 2>&1 || { cat build.log; fail "the HIP build with the launcher failed"; }
cat build.log
grep -q "Building HIP object CMakeFiles/demo.dir/divergent.hip.o" build.log || fail "not a HIP language build"
grep -q "divergent.hip:5:7: warning: branch on 'Tid' diverges in 2 of 2 wavefronts" build.log ||
  fail "no divergence finding in the build log"
grep -q "divergent.hip:11:34: warning: block 100 is not a whole number of wavefronts" build.log ||
  fail "no block-size finding in the build log"
for f in divergent scale; do
  grep -q "from the code object 'CMakeFiles/demo.dir/$f.hip.o (gfx90a code object)'" build.log ||
    fail "$f.hip: the registers did not come from the code object the compile wrote"
done
grep -q "scale.hip:8:32: warning: occupancy 37.5% for 'scale' on gfx90a" build.log ||
  fail "no register-limited occupancy finding"
if grep -q "not analysed" build.log; then fail "a file was not analysed"; fi
findings build.log > launch.findings
# check -p counts a HIP file's registers with clang-22's AMDGPU backend, which needs
# ROCm 6.3's device libraries: here it has none (said), so it is given the objects the
# build wrote (--objects), as the launcher reads them.
set +e
(cd build && "$warplint" check -p . --objects CMakeFiles/demo.dir/divergent.hip.o \
  --objects CMakeFiles/demo.dir/scale.hip.o > ../check.out 2> ../check.err)
rc=$?
set -e
[ $rc -eq 0 ] || [ $rc -eq 1 ] || { cat check.out check.err; fail "check -p exited $rc"; }
findings check.out > check.findings
for f in divergent.hip scale.hip; do
  diff <(grep "/$f:" check.findings || true) <(grep "/$f:" launch.findings || true) ||
    fail "$f: the launcher's findings differ from check -p's"
done
[ -s launch.findings ] || fail "no findings"
echo "HIP language: launcher = check -p: $(wc -l < launch.findings) findings in 2 files"

# 2. The CMake package from an install prefix.
cmake --install "$wlbuild" --prefix "$work/prefix" > install.log 2>&1 ||
  { cat install.log; fail "cmake --install failed"; }
configure pkg "" -DWARPLINT_PACKAGE=ON -DCMAKE_PREFIX_PATH="$work/prefix"
grep -q "$work/prefix/bin/warplint launch -- " pkg/CMakeFiles/rules.ninja ||
  fail "warplint_enable did not set the HIP launcher"
ninja -C pkg > pkg.log 2>&1 || { cat pkg.log; fail "the package build failed"; }
diff launch.findings <(findings pkg.log) ||
  fail "the package's findings differ"
# 3. hipcc as the CXX compiler (the form without CMake's HIP language), through
# CMAKE_CXX_COMPILER_LAUNCHER: the same findings.
if command -v hipcc > /dev/null; then
  cmake -S proj -B cxx -G Ninja -DDEMO_LANGUAGE=CXX -DCMAKE_CXX_COMPILER=hipcc \
    "-DCMAKE_CXX_COMPILER_LAUNCHER=$warplint;launch;--" > cxx.cmake.log 2>&1 ||
    { cat cxx.cmake.log; fail "cmake (hipcc as CXX) failed"; }
  ninja -C cxx > cxx.log 2>&1 || { cat cxx.log; fail "the hipcc build failed"; }
  grep -q "Building CXX object CMakeFiles/demo.dir/divergent.hip.o" cxx.log || fail "not a CXX build"
  diff launch.findings <(findings cxx.log) || fail "hipcc as CXX: the findings differ"
  echo "hipcc as CXX: the same findings"
fi
echo "launch HIP language: OK"
