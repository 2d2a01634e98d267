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
