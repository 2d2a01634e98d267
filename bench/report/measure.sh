#!/usr/bin/env bash
# Size and time of `warplint report` on a generated file with many launches
# (bench/report/gen-launches.py: K kernels, N launches, shapes repeating per kernel,
# registers from a generated ptxas log), on the RTX 3080 (waves drawn), hermetic mock
# CUDA headers. Times `warplint check --format json` on the same file and arguments too:
# the difference is what the report itself costs. Wall-clock and CPU (user + sys) seconds,
# each the least of RUNS runs (default 3): on a shared machine the CPU time is the steadier.
# usage: bench/report/measure.sh [-n RUNS] [-w WARPLINT] [-k KERNELS] [-l LAUNCHES] [-o KEEP.html]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
runs=3 kernels=250 launches=2500 keep=
wl=${WARPLINT:-$here/build/bin/warplint}
while [ $# -gt 0 ]; do
  case $1 in
    -n) runs=$2; shift 2 ;;
    -w) wl=$2; shift 2 ;;
    -k) kernels=$2; shift 2 ;;
    -l) launches=$2; shift 2 ;;
    -o) keep=$2; shift 2 ;;
    *) echo "usage: $0 [-n RUNS] [-w WARPLINT] [-k KERNELS] [-l LAUNCHES] [-o KEEP.html]" >&2
       exit 2 ;;
  esac
done
[ -x "$wl" ] || { echo "$0: no warplint at $wl (build first)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/bench/report/gen-launches.py" "$work" --kernels "$kernels" --launches "$launches"
args=(--ptxas-log "$work/launches.ptxas.log" -- -x cuda --cuda-device-only
      --cuda-gpu-arch=sm_86 -nocudainc -nocudalib -Wno-unknown-cuda-version
      -isystem "$here/tests/Inputs/cuda" -include cuda_runtime.h)

# "WALL CPU": the least wall-clock and user+sys seconds of $runs runs (exit 0 and 1 are fine).
best() {
  local bw= bc= w c rc
  for _ in $(seq "$runs"); do
    rc=0
    /usr/bin/time -f "%e %U %S" -o "$work/t" "$@" >/dev/null 2>"$work/err" || rc=$?
    [ $rc -le 1 ] || { cat "$work/err" >&2; echo "$0: $* exited $rc" >&2; exit 1; }
    w=$(tail -n 1 "$work/t" | awk '{print $1}')
    c=$(tail -n 1 "$work/t" | awk '{print $2 + $3}')
    if [ -z "$bw" ] || [ "$(echo "$w < $bw" | bc -l)" = 1 ]; then bw=$w; fi
    if [ -z "$bc" ] || [ "$(echo "$c < $bc" | bc -l)" = 1 ]; then bc=$c; fi
  done
  echo "$bw $bc"
}

cd "$work"
read -r cw cc < <(best "$wl" check -j 1 --format json launches.cu "${args[@]}")
read -r rw rc < <(best "$wl" report -j 1 --gpu rtx3080 -o report.html launches.cu "${args[@]}")
bytes=$(wc -c < report.html)
n=$(grep -c '<tr><td><a href="#launch-' report.html || true)
printf 'launches %d (index rows %d), kernels %d\n' "$launches" "$n" "$kernels"
printf 'report %d bytes (%.2f MB, %d bytes per launch)\n' "$bytes" \
  "$(echo "$bytes / 1000000" | bc -l)" "$((bytes / launches))"
printf 'wall: check --format json %.2f s, report %.2f s, report - check %.2f s\n' "$cw" "$rw" \
  "$(echo "$rw - $cw" | bc -l)"
printf 'cpu:  check --format json %.2f s, report %.2f s, report - check %.2f s\n' "$cc" "$rc" \
  "$(echo "$rc - $cc" | bc -l)"
[ -z "$keep" ] || cp report.html "$keep"
