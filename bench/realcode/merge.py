#!/usr/bin/env python3
"""Joins compile databases into one (the ~300-TU corpus of docs/real-code.md).

usage: bench/realcode/merge.py OUTDIR DB_DIR[:REGEX]...

Writes OUTDIR/compile_commands.json with the entries of each DB_DIR/compile_commands.json
whose file matches REGEX (all of them without one), in that order. Entries name absolute
files and directories, so the joined database works from anywhere.
"""
import json
import os
import re
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, joined = sys.argv[1], []
    for spec in sys.argv[2:]:
        path, _, regex = spec.partition(":")
        with open(os.path.join(path, "compile_commands.json")) as f:
            entries = json.load(f)
        kept = [e for e in entries if re.search(regex, e["file"])]
        print("%s: %d of %d entries" % (path, len(kept), len(entries)))
        joined += kept
    os.makedirs(out, exist_ok=True)
    tmp = os.path.join(out, "compile_commands.json.tmp")
    with open(tmp, "w") as f:
        json.dump(joined, f, indent=1)
    os.replace(tmp, os.path.join(out, "compile_commands.json"))
    print("%d entries -> %s" % (len(joined), os.path.join(out, "compile_commands.json")))


if __name__ == "__main__":
    main()
