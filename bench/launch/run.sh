#!/usr/bin/env bash
# Build time of a real CMake CUDA project with and without `warplint launch` (issue 26):
# cuda-samples' Samples/0_Introduction, configured with its own CMakeLists.txt files,
# built with Ninja, every build after `ninja -t clean` (every file compiled). One row per
# build in OUTDIR/results.tsv, by stage (STAGES, default all, in this order):
#   cold_j2   after-cold-j2: CMAKE_CUDA_COMPILER_LAUNCHER="warplint;launch;--overlap=never;--",
#             empty warplint caches, the analysis after each compile; beside-cold-j2: the
#             same with --overlap=always, the analysis beside each compile;
#   warm      plain-again-K / launch-warm-K (K = 1..REPEATS, alternating): the plain build
#             and the --overlap=always launcher build, warplint's result cache warm (from
#             beside-cold-j2), no ccache: the warm rebuild and its baseline;
#   cold_j1   plain-j1, after-cold-j1, beside-cold-j1: the same at -j1;
#   check_p   plain-j2, then `warplint check -p build -j2` with empty caches;
#   ccache_warm   warplint;launch;--;ccache filled, then rebuilt: both caches warm;
#   sccache_warm  the same with sccache.
# Columns: wall seconds and CPU seconds (user + system of ninja and every process under
# it, GNU time), the CUDA compile steps in the log, the nvcc runs (every run of nvcc by
# anyone, compiles, device links and links: CMAKE_CUDA_COMPILER and the first nvcc on
# PATH are a wrapper that counts them), and the 1-minute load average before the row
# (the machine is shared).
# usage: bench/launch/run.sh WARPLINT_BUILD_DIR OUTDIR [SAMPLES_GIT_DIR] [ARCH] [REPEATS]
# warplint is installed from WARPLINT_BUILD_DIR into OUTDIR/prefix first, so that a
# rebuild of warplint during the run does not change the binary the build runs.
# SAMPLES_GIT_DIR: a clone of NVIDIA/cuda-samples (a bare mirror works); nothing of it is
# copied into this repository. ARCH (default 80): every sample's CMAKE_CUDA_ARCHITECTURES
# list (9 architectures in the samples) is replaced by it in the extracted copy, so that
# a 2-core machine can build the directory; say so with the figures. REPEATS: 3.
# CHECK_LOG: check -p's log from an earlier run, when STAGES leaves check_p out (for the
# findings comparison).
set -euo pipefail
out=$(mkdir -p "$2" && cd "$2" && pwd)
cmake --install "$1" --prefix "$out/prefix" > "$out/install.log"
warplint=$out/prefix/bin/warplint
git_dir=${3:-/work/.mirror/NVIDIA+cuda-samples/repo}
arch=${4:-80}
repeats=${5:-3}
real_nvcc=${CUDA_NVCC:-/usr/local/cuda/bin/nvcc}
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

# The counting nvcc: one line per run, then the real nvcc (which finds its toolkit by its
# own path; warplint finds /usr/local/cuda for the headers, the wrapper's directory
# holding no toolkit).
mkdir -p "$out/counting/bin"
nvcc_log=$out/nvcc-runs.log
cat > "$out/counting/bin/nvcc" <<EOF
#!/bin/sh
echo "\$*" >> "$nvcc_log"
exec "$real_nvcc" "\$@"
EOF
chmod +x "$out/counting/bin/nvcc"
nvcc=$out/counting/bin/nvcc
export PATH=$out/counting/bin:$PATH
: > "$nvcc_log"

results=$out/results.tsv
printf 'run\twall_s\tcpu_s\tcuda_steps\tnvcc_runs\tload_before\n' > "$results"
export XDG_CACHE_HOME=$out/cache CCACHE_DIR=$out/ccache CCACHE_BASEDIR=$out SCCACHE_DIR=$out/sccache
configure() { # DIR LAUNCHER
  rm -rf "$1"
  cmake -S "$src" -B "$1" -G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
    -DCMAKE_CUDA_COMPILER="$nvcc" "-DCMAKE_CUDA_COMPILER_LAUNCHER=$2" > "$1.cmake.log" 2>&1
}
timed() { # NAME COMMAND...: one row
  local name=$1
  shift
  local before load
  before=$(wc -l < "$nvcc_log")
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f '%e %U %S' -o "$out/$name.time" "$@" > "$out/$name.log" 2>&1 || true
  read -r wall user sys < <(tail -1 "$out/$name.time")
  local steps
  steps=$(grep -c 'Building CUDA object' "$out/$name.log" || true)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$wall" "$(echo "$user + $sys" | bc)" "$steps" \
    "$(( $(wc -l < "$nvcc_log") - before ))" "$load" >> "$results"
}
clean() { ninja -C "$1" -t clean > /dev/null; }
rm -rf "$XDG_CACHE_HOME" "$CCACHE_DIR" "$SCCACHE_DIR" "$out"/b-*
configure "$out/b-plain" ""
configure "$out/b-after" "$warplint;launch;--overlap=never;--"
configure "$out/b-beside" "$warplint;launch;--overlap=always;--"

# The stages, most wanted first (a loaded 2-core machine may not leave time for all):
cold_j2() { # the launcher after and beside each compile, empty warplint caches, -j2
  for mode in after beside; do
    rm -rf "$XDG_CACHE_HOME"
    clean "$out/b-$mode"
    timed $mode-cold-j2 ninja -C "$out/b-$mode" -j2
  done
}
warm() { # after beside-cold-j2 (its result cache warm): rebuilds after `ninja -t clean`
  for k in $(seq 1 "$repeats"); do
    clean "$out/b-plain"
    timed plain-again-$k ninja -C "$out/b-plain" -j2
    clean "$out/b-beside"
    timed launch-warm-$k ninja -C "$out/b-beside" -j2
  done
}
cold_j1() {
  clean "$out/b-plain"
  timed plain-j1 ninja -C "$out/b-plain" -j1
  for mode in after beside; do
    rm -rf "$XDG_CACHE_HOME"
    clean "$out/b-$mode"
    timed $mode-cold-j1 ninja -C "$out/b-$mode" -j1
  done
}
check_p() { # the plain build, then check -p with empty caches
  clean "$out/b-plain"
  timed plain-j2 ninja -C "$out/b-plain" -j2
  rm -rf "$XDG_CACHE_HOME"
  timed check-p "$warplint" check -p "$out/b-plain" -j2
}
ccache_warm() { # warplint;launch;--;ccache filled, then rebuilt after `ninja -t clean`
  configure "$out/b-ccache" "$warplint;launch;--;ccache"
  ninja -C "$out/b-ccache" -j2 > "$out/ccache-fill.log" 2>&1 || true
  clean "$out/b-ccache"
  ccache -z > /dev/null
  timed ccache-warm ninja -C "$out/b-ccache" -j2
  ccache --print-stats > "$out/ccache-stats.txt"
}
sccache_warm() {
  command -v sccache > /dev/null || return 0
  sccache --stop-server > /dev/null 2>&1 || true
  sccache --start-server > /dev/null 2>&1
  configure "$out/b-sccache" "$warplint;launch;--;sccache"
  ninja -C "$out/b-sccache" -j2 > "$out/sccache-fill.log" 2>&1 || true
  clean "$out/b-sccache"
  sccache --zero-stats > /dev/null
  timed sccache-warm ninja -C "$out/b-sccache" -j2
  sccache --show-stats > "$out/sccache-stats.txt" 2>&1
  sccache --stop-server > /dev/null 2>&1 || true
}
for stage in ${STAGES:-cold_j2 warm cold_j1 check_p ccache_warm sccache_warm}; do
  "$stage"
done

findings() { grep -E '^[^ ]+:[0-9]+:[0-9]+: warning: .*\[warplint-' "$1" | sort -u || true; }
[ -f "$out/check-p.log" ] || cp "${CHECK_LOG:-/dev/null}" "$out/check-p.log"
findings "$out/check-p.log" > "$out/check.findings"
{
  echo "cuda-samples $commit, Samples/0_Introduction, CMAKE_CUDA_ARCHITECTURES=$arch"
  for row in after-cold-j2 beside-cold-j2 after-cold-j1 beside-cold-j1 launch-warm-1 ccache-warm sccache-warm; do
    [ -f "$out/$row.log" ] || continue
    findings "$out/$row.log" > "$out/$row.findings"
    if cmp -s "$out/$row.findings" "$out/check.findings"; then same=same; else same=DIFFERENT; fi
    echo "findings $row: $(wc -l < "$out/$row.findings") ($same as check -p's $(wc -l < "$out/check.findings"))"
  done
  [ -f "$out/ccache-stats.txt" ] && echo "ccache: $(awk '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" {s += $2} END {print s + 0}' "$out/ccache-stats.txt") hits, $(awk '$1 == "cache_miss" {print $2}' "$out/ccache-stats.txt") misses"
  [ -f "$out/sccache-stats.txt" ] && echo "sccache: $(awk '/^Cache hits +[0-9]/ {print $3}' "$out/sccache-stats.txt") hits, $(awk '/^Cache misses +[0-9]/ {print $3}' "$out/sccache-stats.txt") misses"
  nproc | sed 's/^/cores: /'
  echo "stages: ${STAGES:-cold_j2 warm cold_j1 check_p ccache_warm sccache_warm}"
  echo "warplint result cache: $XDG_CACHE_HOME (launch-warm rows: filled by beside-cold-j2); ccache $(ccache --version | head -1), sccache $(sccache --version 2>/dev/null)"
} > "$out/about.txt"
cat "$out/about.txt" "$results"
