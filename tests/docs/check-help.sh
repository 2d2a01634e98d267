#!/usr/bin/env bash
# Every option that `warplint <command> --help` lists is described in
# docs/user-guide.md, and every subcommand of `warplint --help` has its section there.
# usage: check-help.sh WARPLINT SOURCE_DIR
set -euo pipefail
warplint=$1 guide=$2/docs/user-guide.md
rc=0
commands=$("$warplint" --help | sed -n '/^commands:/,/^$/p' | awk '/^  [a-z]/ {print $1}')
[ -n "$commands" ] || { echo "warplint --help lists no commands" >&2; exit 1; }
for c in $commands; do
  grep -q "warplint $c" "$guide" || { echo "user-guide.md has nothing on 'warplint $c'" >&2; rc=1; }
  opts=$("$warplint" "$c" --help | grep -oE '(^|[ ,[(|])--[a-z][a-z0-9-]*' |
         grep -oE -- '--[a-z0-9-]+' | sort -u)
  [ -n "$opts" ] || { echo "'warplint $c --help' lists no options" >&2; rc=1; }
  for o in $opts; do
    grep -q -- "\`$o\b\|$o[ =\`|]" "$guide" ||
      { echo "warplint $c: $o is in --help but not in docs/user-guide.md" >&2; rc=1; }
  done
done
exit $rc
