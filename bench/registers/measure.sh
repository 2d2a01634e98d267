#!/usr/bin/env bash
# Cost of the nvcc register source: the warplint checks in clang-tidy-22 on a CUDA file
# parsed with the real CUDA headers, without a register source (plain), with nvcc's report
# from a warm cache (warm), and with an empty cache (cold, nvcc runs), against the nvcc
# compile that a build does anyway. Medians of RUNS runs (default 7).
# usage: bench/registers/measure.sh [BUILD_DIR] [FILE.cu]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build}
file=${2:-$here/tests/checkers/warplint-occupancy.cu}
runs=${RUNS:-7}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
tidy=${CLANG_TIDY:-clang-tidy-22}
plugin=$build/lib/warplint-tidy.so
[ -x "$nvcc" ] || { echo "nvcc not found" >&2; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
args=(-x cuda --cuda-device-only --cuda-gpu-arch=sm_80 --cuda-path=/usr/local/cuda
      -Wno-unknown-cuda-version -std=c++17)
config() { # $1: RegisterSource, $2: cache dir
  local o="" c
  for c in warplint-occupancy warplint-occupancy-cliff warplint-launch-config-invalid; do
    o+="$c.RegisterSource: $1, $c.Nvcc: '$nvcc', $c.CacheDir: '$2', "
  done
  echo "{CheckOptions: {${o%, }}}"
}
now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
time_ms() { # runs "$@" RUNS times; prints the medians "wall_ms cpu_ms" (cpu: user+sys,
  # children included, less sensitive to a loaded machine than wall time)
  local i
  for ((i = 0; i < runs; i++)); do
    [ -n "${BEFORE:-}" ] && eval "$BEFORE"
    /usr/bin/time -f "%e %U %S" -o "$work/t" "$@" >/dev/null 2>&1 || true
    awk '{printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000}' "$work/t"
  done > "$work/samples"
  echo "$(cut -d' ' -f1 "$work/samples" | median) $(cut -d' ' -f2 "$work/samples" | median)"
}

tidy=("$tidy" --load="$plugin" "--checks=-*,warplint-*" "$file")
plain=$(time_ms "${tidy[@]}" --config="$(config none "$work/c")" -- "${args[@]}")
"${tidy[@]}" --config="$(config nvcc "$work/warm")" -- "${args[@]}" >/dev/null 2>&1 || true
warm=$(time_ms "${tidy[@]}" --config="$(config nvcc "$work/warm")" -- "${args[@]}")
cold=$(BEFORE='rm -rf "$work/cold"' time_ms "${tidy[@]}" --config="$(config nvcc "$work/cold")" -- "${args[@]}")
build_o=$(time_ms "$nvcc" -arch=sm_80 -c "$file" -o "$work/x.o")
ours=$(time_ms "$nvcc" -arch=sm_80 -Xptxas -v -cubin -o /dev/null "$file")
read -r pw pc <<<"$plain"; read -r ww wc <<<"$warm"; read -r cw cc <<<"$cold"
read -r bw bc <<<"$build_o"; read -r ow oc <<<"$ours"
pct() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%+.1f%%", 100*(a-b)/b}'; }
echo "file: $file ($runs runs, medians; wall and CPU = user+sys incl. children)"
echo "plain analysis (RegisterSource=none):   wall $pw ms, cpu $pc ms"
echo "warm cache (RegisterSource=nvcc):       wall $ww ms ($(pct "$ww" "$pw")), cpu $wc ms ($(pct "$wc" "$pc"))"
echo "cold cache (nvcc runs):                 wall $cw ms (+$((cw - pw)) ms), cpu $cc ms (+$((cc - pc)) ms)"
echo "nvcc -c (the build's compile):          wall $bw ms, cpu $bc ms"
echo "nvcc -Xptxas -v -cubin (warplint's run): wall $ow ms, cpu $oc ms"
