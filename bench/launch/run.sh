#!/usr/bin/env bash
# Build time of a real CMake CUDA project with and without `warplint launch` (issue 26):
# cuda-samples' Samples/0_Introduction, configured with its own CMakeLists.txt files,
# built with Ninja at -j2:
#   plain        the build alone;
#   launch-cold  with CMAKE_CUDA_COMPILER_LAUNCHER="warplint;launch;--", empty caches;
#   launch-warm  the same after `ninja -t clean` (warplint's caches warm, no ccache);
#   ccache-warm  warplint;launch;--;ccache after `ninja -t clean`, both caches warm;
#   plain+check  the plain build, then `warplint check -p build -j2` with empty caches.
# Wall and CPU (user+sys of the build and every child) from GNU time; nvcc runs counted:
# the build's CUDA compile steps (ninja's log) and warplint's own (one *.ptxas.log cache
# entry per nvcc register run).
# usage: bench/launch/run.sh WARPLINT_BUILD_DIR OUTDIR [SAMPLES_GIT_DIR] [ARCH]
# warplint is installed from WARPLINT_BUILD_DIR into OUTDIR/prefix first, so that a
# rebuild of warplint during the run does not change the binary the build runs.
# SAMPLES_GIT_DIR: a clone of NVIDIA/cuda-samples (a bare mirror works); nothing of it is
# copied into this repository. ARCH (default 80): every sample's CMAKE_CUDA_ARCHITECTURES
# list (9 architectures in the samples) is replaced by it in the extracted copy, so that
# a 2-core machine can build the directory; say so with the figures.
set -euo pipefail
out=$(mkdir -p "$2" && cd "$2" && pwd)
cmake --install "$1" --prefix "$out/prefix" > "$out/install.log"
warplint=$out/prefix/bin/warplint
git_dir=${3:-/work/.mirror/NVIDIA+cuda-samples/repo}
arch=${4:-80}
nvcc=${CUDA_NVCC:-/usr/local/cuda/bin/nvcc}
src=$out/src
rm -rf "$src" && mkdir -p "$src"
[ -d "$git_dir/.git" ] && git_dir=$git_dir/.git
# File by file (a partial mirror may lack objects of other directories, which git archive reads).
git --git-dir="$git_dir" ls-tree -r --name-only HEAD -- CMakeLists.txt cmake Common Samples/0_Introduction |
  while read -r f; do
    mkdir -p "$src/$(dirname "$f")"
    git --git-dir="$git_dir" show "HEAD:$f" > "$src/$f"
  done
commit=$(git --git-dir="$git_dir" rev-parse HEAD)
# Only 0_Introduction; one architecture.
printf 'add_subdirectory(0_Introduction)\n' > "$src/Samples/CMakeLists.txt"
find "$src" -name CMakeLists.txt -exec sed -i -E \
  "s/set\(CMAKE_CUDA_ARCHITECTURES [0-9 ]+\)/set(CMAKE_CUDA_ARCHITECTURES $arch)/" {} +

results=$out/results.tsv
printf 'run\twall_s\tcpu_s\tcuda_steps\twarplint_nvcc_runs\n' > "$results"
export XDG_CACHE_HOME=$out/cache CCACHE_DIR=$out/ccache CCACHE_BASEDIR=$out
nvcc_runs() { { find "$XDG_CACHE_HOME" -name '*.ptxas.log' 2>/dev/null || true; } | wc -l; }
configure() { # DIR LAUNCHER
  cmake -S "$src" -B "$1" -G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
    -DCMAKE_CUDA_COMPILER="$nvcc" "-DCMAKE_CUDA_COMPILER_LAUNCHER=$2" > "$1.cmake.log" 2>&1
}
timed() { # NAME BUILD_DIR COMMAND...: one row
  local name=$1 dir=$2
  shift 2
  local before
  before=$(nvcc_runs)
  /usr/bin/time -f '%e %U %S' -o "$out/$name.time" "$@" > "$out/$name.log" 2>&1 || true
  read -r wall user sys < <(tail -1 "$out/$name.time")
  local steps
  steps=$(grep -c 'Building CUDA object' "$out/$name.log" || true)
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$wall" "$(echo "$user + $sys" | bc)" "$steps" \
    "$(( $(nvcc_runs) - before ))" >> "$results"
}
rm -rf "$XDG_CACHE_HOME" "$CCACHE_DIR" "$out"/b-*
configure "$out/b-plain" ""
timed plain "$out/b-plain" ninja -C "$out/b-plain" -j2
timed check-p "$out/b-plain" "$warplint" check -p "$out/b-plain" -j2
rm -rf "$XDG_CACHE_HOME"
configure "$out/b-launch" "$warplint;launch;--"
timed launch-cold "$out/b-launch" ninja -C "$out/b-launch" -j2
ninja -C "$out/b-launch" -t clean > /dev/null
timed launch-warm "$out/b-launch" ninja -C "$out/b-launch" -j2
ninja -C "$out/b-plain" -t clean > /dev/null
timed plain-again "$out/b-plain" ninja -C "$out/b-plain" -j2
configure "$out/b-ccache" "$warplint;launch;--;ccache"
ninja -C "$out/b-ccache" -j2 > "$out/ccache-fill.log" 2>&1 || true
ninja -C "$out/b-ccache" -t clean > /dev/null
timed ccache-warm "$out/b-ccache" ninja -C "$out/b-ccache" -j2
grep -E '^[^ ]+:[0-9]+:[0-9]+: warning: .*\[warplint-' "$out/launch-cold.log" | sort -u > "$out/launch.findings" || true
grep -E '^[^ ]+:[0-9]+:[0-9]+: warning: .*\[warplint-' "$out/check-p.log" | sort -u > "$out/check.findings" || true
{
  echo "cuda-samples $commit, Samples/0_Introduction, CMAKE_CUDA_ARCHITECTURES=$arch, ninja -j2"
  echo "findings: launcher $(wc -l < "$out/launch.findings"), check -p $(wc -l < "$out/check.findings")"
  nproc | sed 's/^/cores: /'
} > "$out/about.txt"
cat "$out/about.txt" "$results"
