#!/usr/bin/env bash
# `cmake --install` into a throwaway prefix: the binary, the plugin, the trace header
# (include/warplint/trace.cuh, identical to the source's) and docs/ as
# share/doc/warplint (and each page as HTML in share/doc/warplint/html); the installed
# warplint's SARIF links point at the installed docs
# (every link of every rule's help an existing file), and $WARPLINT_DOCS_BASE_URL
# replaces the base at run time. usage: install-docs.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

cmake --install "$build" --prefix "$prefix" > "$tmp/install.log" ||
  { cat "$tmp/install.log"; fail "cmake --install failed"; }
for f in bin/warplint lib/warplint-tidy.so share/doc/warplint/user-guide.md \
         share/doc/warplint/checks/warplint-divergent-branch.md include/warplint/trace.cuh; do
  [ -e "$prefix/$f" ] || fail "$f is not installed"
done
cmp -s "$src/trace/include/warplint/trace.cuh" "$prefix/include/warplint/trace.cuh" ||
  fail "the installed trace.cuh differs from the source's"
(cd "$src/docs" && find . -type f | sort) > "$tmp/source-docs"
(cd "$prefix/share/doc/warplint" && find . -path ./html -prune -o -type f -print | sort) > "$tmp/installed-docs"
diff "$tmp/source-docs" "$tmp/installed-docs" || fail "installed docs differ from docs/"
# Each page also as HTML under html/ (the report's links), its links to pages made .html
# and each of those an installed page.
(cd "$src/docs" && find . -name '*.md' | sed 's/\.md$/.html/' | sort) > "$tmp/source-html"
(cd "$prefix/share/doc/warplint/html" && find . -type f | sort) > "$tmp/installed-html"
diff "$tmp/source-html" "$tmp/installed-html" || fail "installed html/ differs from docs/*.md"
python3 - "$prefix/share/doc/warplint/html" <<'PY' || fail "broken links between the HTML pages"
import os, re, sys, urllib.parse
root, bad, n = sys.argv[1], [], 0
for d, _, files in os.walk(root):
    for f in files:
        page = open(os.path.join(d, f)).read()
        for href in re.findall(r'<a href="([^"#]*)[^"]*"', page):
            if not href or "://" in href or href.startswith("mailto:"):
                continue
            n += 1
            target = os.path.normpath(os.path.join(d, urllib.parse.unquote(href)))
            # Links that leave docs/ (../README.md, source files) are not installed pages.
            if target.startswith(root) and href.endswith(".html") and not os.path.isfile(target):
                bad.append(f"{os.path.relpath(os.path.join(d, f), root)}: {href}")
print(f"{n} links between the HTML pages checked")
for b in bad:
    print("FAIL:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
grep -q '<h1 id="warplint-occupancy">warplint-occupancy</h1>' \
  "$prefix/share/doc/warplint/html/checks/warplint-occupancy.html" || fail "the check page's HTML has no title"

cat > "$tmp/k.cu" <<'EOF'
__global__ void oddEven(float *p) {
  if (threadIdx.x % 2)
    p[threadIdx.x] = 1;
  else
    p[threadIdx.x + 64] = 2;
}
void run(float *p) { oddEven<<<1, 64>>>(p); }
EOF
# Findings exit 1; the SARIF is written either way.
"$prefix/bin/warplint" check --mock-cuda --format sarif -o "$tmp/default.sarif" "$tmp/k.cu" 2>/dev/null ||
  [ $? -eq 1 ] || fail "installed warplint check failed"
WARPLINT_DOCS_BASE_URL=https://docs.example.invalid/warplint/docs \
  "$prefix/bin/warplint" check --mock-cuda --format sarif -o "$tmp/env.sarif" "$tmp/k.cu" 2>/dev/null ||
  [ $? -eq 1 ] || fail "installed warplint check failed with WARPLINT_DOCS_BASE_URL"

python3 - "$tmp/default.sarif" "$tmp/env.sarif" "$prefix" <<'EOF'
import json, os, re, sys, urllib.parse
default, env, prefix = sys.argv[1:]
base = "file://" + urllib.parse.quote(prefix) + "/share/doc/warplint/"
links = re.compile(r'\]\(\s*<?([^)\s>]*)|^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)|(?:href|src)="([^"]*)"', re.M)
fence = re.compile(r'^ {0,3}(```|~~~).*?^ {0,3}\1', re.M | re.S)
code = re.compile(r'(`+).*?\1')
def rules(path):
    return json.load(open(path))["runs"][0]["tool"]["driver"]
problems = []
drv = rules(default)
if not drv["informationUri"].startswith(base):
    problems.append(f"informationUri {drv['informationUri']} is not under {base}")
checked = 0
for rule in drv["rules"]:
    if "help" not in rule:
        continue
    if not rule["helpUri"].startswith(base + "checks/"):
        problems.append(f"{rule['id']}: helpUri {rule['helpUri']}")
    md = code.sub("", fence.sub("", rule["help"]["markdown"]))
    for m in links.finditer(md):
        target = next(g for g in m.groups() if g is not None)
        checked += 1
        if not target.startswith(base):
            problems.append(f"{rule['id']}: link {target} is not under {base}")
            continue
        path = urllib.parse.unquote(urllib.parse.urlsplit(target).path)
        if not os.path.isfile(path):
            problems.append(f"{rule['id']}: link {target}: no such file")
if checked < 5:
    problems.append(f"only {checked} links in the rules' help")
for rule in rules(env)["rules"]:
    if "help" in rule and not rule["helpUri"].startswith("https://docs.example.invalid/warplint/docs/checks/"):
        problems.append(f"WARPLINT_DOCS_BASE_URL not used: {rule['helpUri']}")
for p in problems:
    print("FAIL:", p, file=sys.stderr)
print(f"{checked} help links checked")
sys.exit(1 if problems else 0)
EOF
echo "install: OK"
