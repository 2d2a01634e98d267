#!/usr/bin/env bash
# The result cache's saving: `warplint check -p BUILD` cold (empty cache), warm (nothing
# changed), and after touching one header (only the files that include it re-analysed).
# usage: measure.sh WARPLINT BUILD_DIR [HEADER-to-touch] [-- more check args]
set -euo pipefail
wl=$1 build=$2; shift 2
header=""
if [ $# -gt 0 ] && [ "$1" != "--" ]; then header=$1; shift; fi
[ "${1:-}" = "--" ] && shift
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
run() { # prints wall seconds, and the summary line on stderr
  local t0 t1
  t0=$(date +%s.%N)
  "$wl" check -p "$build" --cache-dir "$cache" --registers-from none "$@" > /dev/null 2> "$cache/err" || true
  t1=$(date +%s.%N)
  grep '^warplint: .* analysed' "$cache/err" >&2 || true
  echo "$t0 $t1" | awk '{ printf "%.3f", $2 - $1 }'
}
cold=$(run "$@")
warm=$(run "$@")
echo "cold ${cold} s, warm ${warm} s: warm/cold $(echo "$warm $cold" | awk '{ printf "%.1f%%", 100 * $1 / $2 }')"
if [ -n "$header" ]; then
  printf '\n// touched by bench/cache/measure.sh\n' >> "$header"
  touched=$(run "$@")
  sed -i '$d' "$header"; sed -i '$d' "$header"
  echo "after touching $header: ${touched} s"
fi
