#!/bin/bash
# Cost of the sync checks against the accesses per barrier interval: K kernels with
# A shared accesses each (gen.py), timed with the three sync checks (warplint-data-race,
# warplint-barrier-divergence, warplint-warp-sync-mask; CHECKS= to change) and with a
# check that only reads launches (the parse and the model's facts: the baseline), best of
# 3 runs, wall and CPU seconds (the extra cost per kernel from CPU: steadier on a shared
# machine).
#   bash bench/race/measure.sh build/bin/warplint
set -euo pipefail
W=$(realpath "${1:-build/bin/warplint}")
HERE=$(dirname "$(realpath "$0")")
T=$(mktemp -d)
CHECKS=${CHECKS:-warplint-data-race,warplint-barrier-divergence,warplint-warp-sync-mask}
best() { # best of 3 runs of the command: "WALL CPU" seconds (CPU: user + sys of the child)
  python3 - "$@" <<'PY'
import resource, subprocess, sys, time
walls, cpus = [], []
for _ in range(3):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    walls.append(time.time() - t0)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpus.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
print("%.2f %.2f" % (min(walls), min(cpus)))
PY
}
echo "checks: $CHECKS"
echo "kernels accesses baseline_s baseline_cpu checks_s checks_cpu extra_cpu_ms_per_kernel"
for A in 25 50 100 200; do
  python3 "$HERE/gen.py" --kernels 20 --accesses $A > "$T/k$A.cu"
  read -r B BC <<<"$(best "$W" check --mock-cuda --no-cache --registers-from none --checks='-*,warplint-block-size-warp-multiple' "$T/k$A.cu")"
  read -r R RC <<<"$(best "$W" check --mock-cuda --no-cache --registers-from none --checks="-*,$CHECKS" "$T/k$A.cu")"
  echo "20 $A $B $BC $R $RC $(python3 -c "print(round(($RC - $BC) * 1000 / 20, 1))")"
done
rm -rf "$T"
