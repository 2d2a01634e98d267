#!/usr/bin/env bash
# Sets warplint up (scripts/setup.sh) and runs every test through CTest.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$here/scripts/setup.sh"
cd "$here/${WARPLINT_BUILD_DIR:-build}"
ctest --output-on-failure -j"${WARPLINT_JOBS:-$(nproc)}" "$@"
