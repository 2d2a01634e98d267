#!/usr/bin/env bash
# Every check page in docs/checks/ is listed in docs/checks/README.md, and every listed
# page exists. usage: check-index.sh SOURCE_DIR
set -euo pipefail
docs=$1/docs/checks
rc=0
for page in "$docs"/warplint-*.md; do
  id=$(basename "$page" .md)
  grep -q "^| \[$id\]($id.md) |" "$docs/README.md" || {
    echo "docs/checks/README.md does not list $id: add a row '| [$id]($id.md) | <first sentence> |'" >&2
    rc=1
  }
done
for id in $(grep -o '^| \[warplint-[a-z0-9-]*\]' "$docs/README.md" | tr -d '|[] '); do
  [ -f "$docs/$id.md" ] || { echo "docs/checks/README.md lists $id, which has no page" >&2; rc=1; }
done
exit $rc
