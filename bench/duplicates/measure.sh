#!/usr/bin/env bash
# Duplicated code outside tests and bench, as jscpd (pinned in package.json, settings in
# .jscpd.json: 6 lines and 40 tokens at least, C++ sources and headers) counts it.
# Installs jscpd from the npm registry into node_modules/ on first use (npm ci).
# usage: bench/duplicates/measure.sh   (prints jscpd's table; the JSON lands in /tmp/jscpd-report)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ -x "$here/node_modules/.bin/jscpd" ] || (cd "$here" && npm ci --no-audit --no-fund >/dev/null)
cd "$root"
"$here/node_modules/.bin/jscpd" --config "$here/.jscpd.json" \
  core driver checks model divergence resources plugin trace | tail -n 8
