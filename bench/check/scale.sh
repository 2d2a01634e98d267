#!/usr/bin/env bash
# The speed budget of issue #10 on generated files: clang's parse alone against the whole
# warplint analysis, for a file of branchy kernels and one of plain kernels.
#
# usage: bench/check/scale.sh [-n RUNS] [-k KERNELS] [-d DIR] [-w WARPLINT]
# Generates DIR/branchy.cu and DIR/plain.cu with generate.py (KERNELS kernels each,
# default 20000; DIR defaults to a temporary directory), then times, one process per run
# and RUNS runs each (default 3), the median wall-clock time of
#   parse:  clang++-22 -fsyntax-only ARGS FILE
#   facts:  warplint check --checks='-*' ... (the parse, the launch facts and the output,
#           no check)
#   check:  warplint check -j 1 --registers-from none --format json FILE -- ARGS
# with ARGS warplint check's defaults for a lone .cu (device side, sm_86, real CUDA
# headers), and prints check/parse for each file. Registers are not asked for
# (--registers-from none): from nvcc they would come from the cache on a second run.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
runs=3
kernels=20000
dir=
wl=${WARPLINT:-$here/build/bin/warplint}
clangxx=${CLANGXX:-clang++-22}
while [ $# -gt 0 ]; do
  case $1 in
    -n) runs=$2; shift 2 ;;
    -k) kernels=$2; shift 2 ;;
    -d) dir=$2; shift 2 ;;
    -w) wl=$2; shift 2 ;;
    *) echo "usage: $0 [-n RUNS] [-k KERNELS] [-d DIR] [-w WARPLINT]" >&2; exit 2 ;;
  esac
done
[ -x "$wl" ] || { echo "$0: no warplint at $wl (build first)" >&2; exit 2; }
if [ -z "$dir" ]; then
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
fi
python3 "$here/bench/check/generate.py" -n "$kernels" "$dir"
cuda=${CUDA_PATH:-/usr/local/cuda}
args=(-x cuda --cuda-device-only --cuda-gpu-arch=sm_86 "--cuda-path=$cuda"
      -isystem "$cuda/include/cccl" -std=c++17 -Wno-unknown-cuda-version)

# Median of $runs wall-clock times of a command, in seconds.
median() {
  local t0 t1 ts=()
  for _ in $(seq "$runs"); do
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    t1=$(date +%s.%N)
    ts+=("$(echo "$t1 - $t0" | bc -l)")
  done
  printf '%s\n' "${ts[@]}" | sort -n | awk '{ t[NR] = $1 }
    END { printf "%.3f\n", (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'
}

printf '%-12s %8s %9s %8s %8s %7s %7s\n' file size_MB kernels parse_s facts_s check_s ratio
for name in branchy plain; do
  f=$dir/$name.cu
  "$clangxx" -fsyntax-only "${args[@]}" "$f" >/dev/null 2>&1 ||
    { echo "$0: clang++ -fsyntax-only fails on $f" >&2; exit 2; }
  p=$(median "$clangxx" -fsyntax-only "${args[@]}" "$f")
  n=$(median "$wl" check -j 1 --checks='-*' --registers-from none --format json "$f" -- "${args[@]}")
  c=$(median "$wl" check -j 1 --registers-from none --format json "$f" -- "${args[@]}")
  size=$(echo "$(stat -c %s "$f") / 1000000" | bc -l)
  printf '%-12s %8.1f %9d %8.2f %8.2f %7.2f %7.2f\n' "$name.cu" "$size" "$kernels" "$p" "$n" "$c" \
    "$(echo "$c / $p" | bc -l)"
done
echo "runs $runs (median), goal: branchy.cu within 5x of the parse"
