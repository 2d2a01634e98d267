#!/usr/bin/env bash
# The result cache's saving: `warplint check -p BUILD` cold (empty cache), warm (nothing
# changed), and after touching one header (only the files that include it re-analysed).
# usage: measure.sh WARPLINT BUILD_DIR [HEADER-to-touch] [-- more check args]
# Prints wall-clock and CPU (user + sys, GNU time) seconds of each run; each run's summary
# line (how many files came from the cache) goes to stderr. With HEADER, also how many
# cached files read it (those must be analysed again). The header gets a comment appended
# and is copied back afterwards, byte for byte.
set -euo pipefail
wl=$1 build=$2; shift 2
header=""
if [ $# -gt 0 ] && [ "$1" != "--" ]; then header=$(realpath "$1"); shift; fi
[ "${1:-}" = "--" ] && shift
cache=$(mktemp -d)
trap 'if [ -f "$cache/header.orig" ]; then cp -p "$cache/header.orig" "$header"; fi; rm -rf "$cache"' EXIT
run() { # prints "wall cpu"; the summary line on stderr
  /usr/bin/time -f "%e %U %S" -o "$cache/time" \
    "$wl" check -p "$build" --cache-dir "$cache" --registers-from none "$@" > /dev/null 2> "$cache/err" || true
  grep '^warplint: .* analysed' "$cache/err" >&2 || true
  tail -n 1 "$cache/time" | awk '{ printf "%.3f %.3f", $1, $2 + $3 }'
}
read -r cold_w cold_c <<< "$(run "$@")"
read -r warm_w warm_c <<< "$(run "$@")"
echo "cold ${cold_w} s wall ${cold_c} s CPU, warm ${warm_w} s wall ${warm_c} s CPU:" \
  "warm/cold $(echo "$warm_w $cold_w $warm_c $cold_c" | awk '{ printf "%.1f%% wall, %.1f%% CPU", 100 * $1 / $2, 100 * $3 / $4 }')"
if [ -n "$header" ]; then
  readers=$(python3 - "$cache/results" "$header" <<'PY'
import glob, json, os, sys
want = os.path.realpath(sys.argv[2])
print(sum(1 for e in glob.glob(os.path.join(sys.argv[1], "*.json"))
          if any(os.path.realpath(f) == want for f, _ in json.load(open(e))["files"])))
PY
)
  cp -p "$header" "$cache/header.orig"
  printf '\n// touched by bench/cache/measure.sh\n' >> "$header"
  read -r t_w t_c <<< "$(run "$@")"
  cp -p "$cache/header.orig" "$header"
  rm -f "$cache/header.orig"
  echo "after touching $header (read by $readers cached files): ${t_w} s wall ${t_c} s CPU"
fi
