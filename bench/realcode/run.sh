#!/usr/bin/env bash
# Runs `warplint check` over public CUDA corpora checked out elsewhere and prints the
# counts docs/real-code.md reports.
#
# usage: bench/realcode/run.sh OUTDIR [cuda-samples=DIR] [ggml=DIR] [llm.c=DIR]
# For each corpus: bench/realcode/compdb.py writes OUTDIR/CORPUS/compile_commands.json
# from the checkout, then `warplint check -p ... -j2 --arch sm_86 --registers-from none --no-cache
# --format json` writes OUTDIR/CORPUS.json, and summarize.py prints the counts.
# The checkouts are only read (CMake configures into OUTDIR).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
wl=${WARPLINT:-$here/build/bin/warplint}
[ $# -ge 2 ] || { echo "usage: $0 OUTDIR CORPUS=CHECKOUT..." >&2; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd)
shift
for spec in "$@"; do
  corpus=${spec%%=*}
  src=${spec#*=}
  python3 "$here/bench/realcode/compdb.py" "$corpus" "$src" "$out/$corpus"
  start=$(date +%s.%N)
  rc=0
  "$wl" check -p "$out/$corpus" -j "${JOBS:-2}" --arch sm_86 --registers-from none --no-cache \
    --format json -o "$out/$corpus.json" 2> "$out/$corpus.err" || rc=$?
  end=$(date +%s.%N)
  python3 "$here/bench/realcode/summarize.py" --name "$corpus" "$out/$corpus.json"
  printf '  exit %d, %.0f s\n' "$rc" "$(echo "$end - $start" | bc -l)"
done
