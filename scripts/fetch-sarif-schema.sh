#!/usr/bin/env bash
# Puts the SARIF 2.1.0 JSON schema that the SARIF tests validate against in
# $1/sarif-2.1.0.json, taken from a packaged copy: the npm package
# @microsoft/jest-sarif ships it as lib/schemas/sarif-2.1.0-rtm.5.json. The schema is
# never committed to this repository. Quiet when it is already there; exits non-zero
# with a message when it cannot be had (the SARIF schema test then skips and says why).
set -euo pipefail
dest=${1:?usage: fetch-sarif-schema.sh DIR}
pkg=@microsoft/jest-sarif@1.0.0-beta.0
[ -s "$dest/sarif-2.1.0.json" ] && exit 0
command -v npm >/dev/null || { echo "fetch-sarif-schema: npm is not installed" >&2; exit 1; }
mkdir -p "$dest"
tmp=$(mktemp -d "$dest/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "$pkg" >/dev/null 2>npm.err) ||
  { echo "fetch-sarif-schema: 'npm pack $pkg' failed: $(tail -1 "$tmp/npm.err")" >&2; exit 1; }
tar -xzf "$tmp"/*.tgz -C "$tmp" package/lib/schemas/sarif-2.1.0-rtm.5.json
mv "$tmp/package/lib/schemas/sarif-2.1.0-rtm.5.json" "$dest/sarif-2.1.0.json.tmp"
mv "$dest/sarif-2.1.0.json.tmp" "$dest/sarif-2.1.0.json"
