#!/usr/bin/env bash
# Times `warplint check` against `clang++-22 -fsyntax-only` on the same TUs and arguments.
#
# usage: bench/check/measure.sh [-n RUNS] [-w WARPLINT] [-x OPT]... [-c] FILE... [-- CLANG ARGS]
# -x OPT adds OPT to `warplint check`'s options (repeat it: -x --registers-from -x none).
# -c times CPU (user + sys, of the process and its children, GNU time) in place of wall
# clock: steadier on a loaded machine, and it counts an nvcc that warplint runs.
# Each file is parsed RUNS times (default 3) by each tool, one process per run, one file
# at a time; the time of a file is its fastest run. Prints one line per file and the
# median and total ratio. Default clang args: warplint check's defaults for a lone .cu
# (device side, sm_86, real CUDA headers).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
runs=3
wl=${WARPLINT:-$here/build/bin/warplint}
clangxx=${CLANGXX:-clang++-22}
wlopts=()
cpu=0
while [ $# -gt 0 ]; do
  case $1 in
    -n) runs=$2; shift 2 ;;
    -w) wl=$2; shift 2 ;;
    -x) wlopts+=("$2"); shift 2 ;;
    -c) cpu=1; shift ;;
    *) break ;;
  esac
done
files=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do files+=("$1"); shift; done
[ $# -gt 0 ] && shift
args=("$@")
if [ ${#args[@]} -eq 0 ]; then
  cuda=${CUDA_PATH:-/usr/local/cuda}
  args=(-x cuda --cuda-device-only --cuda-gpu-arch=sm_86 "--cuda-path=$cuda"
        -isystem "$cuda/include/cccl" -std=c++17 -Wno-unknown-cuda-version)
fi
[ ${#files[@]} -gt 0 ] || { echo "usage: $0 [-n RUNS] [-w WARPLINT] [-x OPT]... [-c] FILE... [-- CLANG ARGS]" >&2; exit 2; }
[ -x "$wl" ] || { echo "$0: no warplint at $wl (build first)" >&2; exit 2; }
[ "$cpu" = 0 ] || [ -x /usr/bin/time ] || { echo "$0: -c needs GNU time at /usr/bin/time" >&2; exit 2; }

# Fastest of $runs wall-clock (or CPU, with -c) times of a command, in seconds.
best() {
  local b= t0 t1 t
  for _ in $(seq "$runs"); do
    if [ "$cpu" = 1 ]; then
      /usr/bin/time -f '%U + %S' -o "$tmp.time" "$@" >/dev/null 2>&1 || true
      # The last line: GNU time puts "Command exited with non-zero status N" first.
      t=$(tail -n 1 "$tmp.time" | bc -l)
    else
      t0=$(date +%s.%N)
      "$@" >/dev/null 2>&1 || true
      t1=$(date +%s.%N)
      t=$(echo "$t1 - $t0" | bc -l)
    fi
    if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then b=$t; fi
  done
  echo "$b"
}

tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.time"' EXIT
printf '%-50s %9s %9s %7s\n' file parse_s check_s ratio
for f in "${files[@]}"; do
  # Only files clang parses count: a ratio over a failed parse means nothing.
  if ! "$clangxx" -fsyntax-only "${args[@]}" "$f" >/dev/null 2>&1; then
    printf '%-50s %s\n' "$(basename "$f")" "skipped (clang++ -fsyntax-only fails)"
    continue
  fi
  # And only files warplint analysed (exit 0 or 1): a failed analysis is no comparison.
  rc=0
  "$wl" check -j 1 --format json ${wlopts[@]+"${wlopts[@]}"} "$f" -- "${args[@]}" >/dev/null 2>&1 || rc=$?
  if [ "$rc" -gt 1 ]; then
    printf '%-50s %s\n' "$(basename "$f")" "skipped (warplint check exits $rc)"
    continue
  fi
  p=$(best "$clangxx" -fsyntax-only "${args[@]}" "$f")
  c=$(best "$wl" check -j 1 --format json ${wlopts[@]+"${wlopts[@]}"} "$f" -- "${args[@]}")
  r=$(echo "$c / $p" | bc -l)
  printf '%-50s %9.3f %9.3f %7.3f\n' "$(basename "$f")" "$p" "$c" "$r"
  echo "$p $c $r" >> "$tmp"
done
[ -s "$tmp" ] || { echo "no file parsed" >&2; exit 2; }
sort -n -k3 "$tmp" | awk '{ r[NR] = $3; p += $1; c += $2 }
  END { m = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2;
        printf "files %d  median ratio %.3f  total parse %.2f s  total check %.2f s  total ratio %.3f\n",
               NR, m, p, c, c / p }'
