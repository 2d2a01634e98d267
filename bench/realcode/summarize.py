#!/usr/bin/env python3
# Counts of one `warplint check --format json` run: files, launches and how many of their
# shapes are known, findings by check.
#
# usage: bench/realcode/summarize.py [--name NAME] OUT.json...
# Several outputs (runs over parts of one corpus) are counted together.
import collections
import json
import sys


def main():
    args = sys.argv[1:]
    name = None
    if len(args) >= 2 and args[0] == "--name":
        name, args = args[1], args[2:]
    if not args:
        sys.exit("usage: summarize.py [--name NAME] OUT.json...")
    d = {"files_analysed": [], "files_failed": [], "files_with_errors": [], "launches": [],
         "findings": []}
    for path in args:
        with open(path) as f:
            one = json.load(f)
        for key in d:
            d[key] += one.get(key, [])
    name = name or args[0]
    analysed, failed = d["files_analysed"], d["files_failed"]
    launches = d["launches"]
    known = lambda key: sum(1 for L in launches if L[key] is not None)
    by_check = collections.Counter(f["check"] for f in d["findings"])
    by_api = collections.Counter(L["api"] for L in launches)
    with_errors = d["files_with_errors"]
    print("%s: files %d, analysed %d (%d with errors), failed %d" % (
        name, len(analysed) + len(failed), len(analysed), len(with_errors), len(failed)))
    print("  launches %d (%s)" % (len(launches), ", ".join(
        "%s %d" % kv for kv in sorted(by_api.items()))))
    print("  kernel resolved %d, block known %d, grid known %d, dynamic smem known %d" % (
        sum(1 for L in launches if L["mangled_kernel"] is not None), known("block"),
        known("grid"), known("dynamic_smem")))
    print("  findings %d" % sum(by_check.values()))
    for check, n in sorted(by_check.items(), key=lambda kv: (-kv[1], kv[0])):
        print("    %-45s %d" % (check, n))
    for f in failed:
        print("  failed: %s" % f)
    for f in with_errors:
        print("  with errors: %s" % f)


if __name__ == "__main__":
    main()
