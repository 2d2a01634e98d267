#!/usr/bin/env python3
"""The share of launches with figures that warplint-occupancy-cliff warns on.

usage: bench/realcode/cliffs.py OUT.json...   (warplint check --format json outputs)

A launch with figures is a launch record whose occupancy is known (its shape known; the
registers counted or not, as the record says). A warned launch is one such record at whose
place (file, line, column) and arch a warplint-occupancy-cliff finding names its kernel.
Prints the counts, the share, and each finding (place, message) for a verdict by hand.
"""
import json
import re
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    launches, findings = [], []
    for path in sys.argv[1:]:
        with open(path) as f:
            d = json.load(f)
        launches += d["launches"]
        findings += [x for x in d["findings"] if x["check"] == "warplint-occupancy-cliff"]
    with_figures = [l for l in launches if l["occupancy"] is not None]
    counted = [l for l in with_figures if l.get("registers_counted")]
    warned = set()
    name = re.compile(r"'(.+?)' on (\w+) ")
    for f in findings:
        m = name.search(f["message"])
        for l in with_figures:
            if (l["file"], l["line"], l["column"]) == (f["file"], f["line"], f["column"]) and \
                    m and l["kernel"] == m.group(1) and l["arch"] == m.group(2):
                warned.add(id(l))
    print("launch records %d, with figures %d (registers counted %d)" % (
        len(launches), len(with_figures), len(counted)))
    print("cliff findings %d, launches warned %d: %.1f%% of the launches with figures" % (
        len(findings), len(warned), 100.0 * len(warned) / max(1, len(with_figures))))
    for f in sorted(findings, key=lambda f: (f["file"], f["line"], f["column"])):
        print("%s:%d:%d: %s" % (f["file"], f["line"], f["column"], f["message"]))


if __name__ == "__main__":
    main()
