#!/usr/bin/env bash
# The speed budget of issue #10 on generated files: clang's parse alone against the whole
# warplint analysis, for a file of branchy kernels and one of plain kernels.
#
# usage: bench/check/scale.sh [-n RUNS] [-k KERNELS] [-d DIR] [-w WARPLINT] [-x OPT]...
# Generates DIR/branchy.cu and DIR/plain.cu with generate.py (KERNELS kernels each,
# default 20000; DIR defaults to a temporary directory), then times, one process per run
# and RUNS runs each (default 3), the median time of
#   parse:  clang++-22 -fsyntax-only ARGS FILE
#   facts:  warplint check --checks='-*' ... (the parse, the launch facts and the output,
#           no check)
#   check:  warplint check -j 1 --registers-from none --format json FILE -- ARGS
# with ARGS warplint check's defaults for a lone .cu (device side, sm_86, real CUDA
# headers), and prints check/parse for each file, in wall-clock and in CPU seconds (the
# CPU figures vary less on a shared machine). Registers are not asked for
# (--registers-from none): from nvcc they would come from the cache on a second run.
# -x OPT (repeatable) adds OPT to both warplint runs: `-x --no-cache` so that runs after
# the first analyse the file rather than read the result cache.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
runs=3
kernels=20000
dir=
extra=()
wl=${WARPLINT:-$here/build/bin/warplint}
clangxx=${CLANGXX:-clang++-22}
while [ $# -gt 0 ]; do
  case $1 in
    -n) runs=$2; shift 2 ;;
    -k) kernels=$2; shift 2 ;;
    -d) dir=$2; shift 2 ;;
    -w) wl=$2; shift 2 ;;
    -x) extra+=("$2"); shift 2 ;;
    *) echo "usage: $0 [-n RUNS] [-k KERNELS] [-d DIR] [-w WARPLINT] [-x OPT]..." >&2; exit 2 ;;
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

# Median of $runs runs of a command: wall-clock and CPU (user + sys) seconds, "WALL CPU".
median() {
  local t walls=() cpus=()
  for _ in $(seq "$runs"); do
    t=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>&1; } 2>&1 ) || true
    read -r w u s <<<"$t"
    walls+=("$w")
    cpus+=("$(echo "$u + $s" | bc -l)")
  done
  local mw mc
  mw=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{ t[NR] = $1 }
    END { printf "%.3f", (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }')
  mc=$(printf '%s\n' "${cpus[@]}" | sort -n | awk '{ t[NR] = $1 }
    END { printf "%.3f", (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }')
  echo "$mw $mc"
}

printf '%-11s %7s %7s %7s %7s %7s   %7s %7s %7s %7s\n' file size_MB parse_s facts_s \
  check_s ratio parse_c facts_c check_c ratio_c
for name in branchy plain; do
  f=$dir/$name.cu
  "$clangxx" -fsyntax-only "${args[@]}" "$f" >/dev/null 2>&1 ||
    { echo "$0: clang++ -fsyntax-only fails on $f" >&2; exit 2; }
  read -r p pc <<<"$(median "$clangxx" -fsyntax-only "${args[@]}" "$f")"
  read -r n nc <<<"$(median "$wl" check -j 1 --checks='-*' --registers-from none --format json \
    ${extra[@]+"${extra[@]}"} "$f" -- "${args[@]}")"
  read -r c cc <<<"$(median "$wl" check -j 1 --registers-from none --format json \
    ${extra[@]+"${extra[@]}"} "$f" -- "${args[@]}")"
  size=$(echo "$(stat -c %s "$f") / 1000000" | bc -l)
  printf '%-11s %7.1f %7.2f %7.2f %7.2f %7.2f   %7.2f %7.2f %7.2f %7.2f\n' "$name.cu" "$size" \
    "$p" "$n" "$c" "$(echo "$c / $p" | bc -l)" "$pc" "$nc" "$cc" "$(echo "$cc / $pc" | bc -l)"
done
echo "$kernels kernels a file, median of $runs runs; _s: wall-clock seconds, _c: CPU seconds" \
  "(user + sys); goal: branchy.cu within 5x of the parse"
