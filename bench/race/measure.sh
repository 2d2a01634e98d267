#!/bin/bash
# Cost of warplint-data-race against the accesses per barrier interval: K kernels with
# A shared accesses each (gen.py), timed with the race check alone and with a check that
# only reads launches (the parse and the model's facts: the baseline), best of 3 runs.
#   bash bench/race/measure.sh build/bin/warplint
set -euo pipefail
W=$(realpath "${1:-build/bin/warplint}")
HERE=$(dirname "$(realpath "$0")")
T=$(mktemp -d)
best() { # best wall seconds of 3 runs of the command
  local b=999
  for _ in 1 2 3; do
    local s=$(date +%s.%N); "$@" > /dev/null 2>&1 || true; local e=$(date +%s.%N)
    b=$(python3 -c "print(min($b, $e - $s))")
  done
  printf '%.2f' "$b"
}
echo "kernels accesses baseline_s race_s extra_ms_per_kernel"
for A in 25 50 100 200; do
  python3 "$HERE/gen.py" --kernels 20 --accesses $A > "$T/k$A.cu"
  B=$(best "$W" check --mock-cuda --no-cache --registers-from none --checks='-*,warplint-block-size-warp-multiple' "$T/k$A.cu")
  R=$(best "$W" check --mock-cuda --no-cache --registers-from none --checks='-*,warplint-data-race' "$T/k$A.cu")
  echo "20 $A $B $R $(python3 -c "print(round(($R - $B) * 1000 / 20, 1))")"
done
rm -rf "$T"
