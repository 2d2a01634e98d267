#!/bin/bash
# The house in figures (docs/architecture.md "The house in figures"): lines per top-level
# folder (and per driver/ folder), and the functions over a length, outside tests/ and
# bench/. Function extents come from Universal Ctags' end: field (Debian: universal-ctags),
# so a lambda counts inside its function and on its own.
# Usage: bash bench/house/figures.sh [REPO_DIR] [MAX_LINES=150]
set -euo pipefail
cd "${1:-.}"
max=${2:-150}
command -v ctags >/dev/null || { echo "figures.sh: needs ctags (apt-get install universal-ctags)" >&2; exit 2; }
src() { git ls-files '*.cpp' '*.h' '*.cuh' | grep -v -E '^(tests|bench)/'; }
echo "## lines per folder (C++ sources and headers outside tests/ and bench/)"
src | xargs wc -l | grep -v ' total$' | awk '{split($2,p,"/"); d=p[1]; if (d=="driver" && p[3]!="") d=d"/"p[2]; n[d]+=$1; t+=$1} END {for (d in n) printf "%-20s %6d\n", d, n[d]; printf "%-20s %6d\n", "total", t}' | sort -k2 -rn
echo "## functions over $max lines"
src | xargs ctags --kinds-c++=f --fields=+ne -o - 2>/dev/null |
  awk -F'\t' -v max="$max" '{l="";e=""; for(i=4;i<=NF;i++){if($i~/^line:/)l=substr($i,6); if($i~/^end:/)e=substr($i,5)}
       if(l!=""&&e!=""&&e-l+1>max) printf "%5d %s:%s %s\n", e-l+1, $2, l, $1}' | sort -rn
