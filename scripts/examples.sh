#!/usr/bin/env bash
# Sets warplint up (scripts/setup.sh) and runs it on the bundled examples in examples/.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$here/scripts/setup.sh"
wl="$here/${WARPLINT_BUILD_DIR:-build}/bin/warplint"
cd "$here"
"$wl" --version
