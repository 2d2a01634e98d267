#!/usr/bin/env python3
"""Each check's header comment and its doc page open with the same summary.

Every page docs/checks/warplint-*.md has a header that names it, and every final check
class names its check on its header's first line (a page or a check left out of the
comparison is an error, not a silent pass).

The `///` paragraph right before a check's class in checks/*Check.h (the header names the
check on its first line: `//===- XCheck.h - warplint-name ---`) must equal the first
paragraph of docs/checks/warplint-name.md, whitespace aside. Prints each mismatch; exit 1
when there is one, 0 otherwise.

usage: check-summaries.py SOURCE_ROOT
"""
import glob
import os
import re
import sys


def header_summary(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    name = re.match(r"//===- \S+ - (warplint-[a-z0-9-]+)", lines[0])
    for i, line in enumerate(lines):
        if re.match(r"class \w+Check final\b", line):
            j = i
            while j > 0 and lines[j - 1].startswith("///"):
                j -= 1
            text = " ".join(l[3:].strip() for l in lines[j:i])
            return (name.group(1) if name else None), " ".join(text.split())
    return (name.group(1) if name else None), ""


def page_summary(path):
    text = open(path, encoding="utf-8").read()
    paras = [p for p in text.split("\n\n") if p.strip() and not p.lstrip().startswith("#")]
    return " ".join(paras[0].split()) if paras else ""


def main():
    root = sys.argv[1]
    bad = 0
    checked = 0
    named = set()
    for h in sorted(glob.glob(os.path.join(root, "checks", "*Check.h"))):
        name, summary = header_summary(h)
        if not name:
            # A base (LaunchCheck, SyncCheck) names no check; a final check class must.
            if re.search(r"^class \w+Check final\b", open(h, encoding="utf-8").read(), re.M):
                print(f"{h}: a check class, but its first line names no warplint-* check")
                bad += 1
            continue
        named.add(name)
        page = os.path.join(root, "docs", "checks", name + ".md")
        if not os.path.exists(page):
            print(f"{h}: no page {page}")
            bad += 1
            continue
        checked += 1
        want = page_summary(page)
        if not summary:
            print(f"{h}: no /// summary before the check's class")
            bad += 1
        elif summary != want:
            print(f"{h}:\n  header: {summary}\n  page:   {want}")
            bad += 1
    # Every page has a check whose header it is compared with.
    for page in sorted(glob.glob(os.path.join(root, "docs", "checks", "warplint-*.md"))):
        name = os.path.basename(page)[:-3]
        if name not in named:
            print(f"{page}: no checks/*Check.h names {name} on its first line")
            bad += 1
    print(f"{checked} checks, {bad} mismatches")
    return 1 if bad or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
