#!/usr/bin/env bash
# Sets warplint up (scripts/setup.sh) and runs it on the bundled examples in examples/.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$here/scripts/setup.sh"
wl="$here/${WARPLINT_BUILD_DIR:-build}/bin/warplint"
cd "$here"
"$wl" --version

# The occupancy calculator: the RTX 3080 worked examples of docs/occupancy.md.
"$wl" occupancy --arch sm_86 --threads 256 --registers 32 --dynamic-smem 40K
"$wl" occupancy --gpu rtx3080 --registers 32 --max-block-size
printf '%s\n' '{"arch":"sm_86","threads":32,"registers":16}' \
  '{"arch":"sm_61","threads":512,"registers":65}' \
  '{"arch":"gfx906","threads":256,"lds":32768}' | "$wl" occupancy --batch

# The checks on the examples in examples/ (one file per group of checks). Findings are the
# point there: `warplint check` exits 1 on them, and 0 (clean) or 2 (could not analyse)
# would mean the run did not do what the examples show, so both stop this script.
for f in examples/launch_shapes.cu examples/divergence.cu examples/occupancy.cu; do
  rc=0
  "$wl" check "$f" || rc=$?
  if [ "$rc" -ne 1 ]; then
    echo "examples.sh: 'warplint check $f' exited $rc, expected 1 (findings)" >&2
    exit 1
  fi
done
"$wl" check --format json examples/launch_shapes.cu > /dev/null || [ $? -eq 1 ]
