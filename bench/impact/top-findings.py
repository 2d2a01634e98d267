#!/usr/bin/env python3
"""The findings of a `warplint check --format json` run, the largest impact first (rank,
then value, as the report's table orders them): the first N with their figure, check,
place and message, and how many findings each rank band holds.

usage: top-findings.py RUN.json [N]
"""
import json
import sys

run = json.load(open(sys.argv[1]))
n = int(sys.argv[2]) if len(sys.argv) > 2 else 10
fs = [f for f in run["findings"] if f["check"].startswith("warplint-")]
ranked = sorted((f for f in fs if "impact" in f),
                key=lambda f: (-f["impact"]["rank"], -f["impact"]["value"]))
print("%d findings, %d with an impact" % (len(fs), len(ranked)))
bands = {}
for f in ranked:
    b = min(f["impact"]["rank"] // 25, 3)
    bands[b] = bands.get(b, 0) + 1
print("rank bands: " + ", ".join("%d-%d: %d" % (b * 25, b * 25 + 24 if b < 3 else 100, bands.get(b, 0))
                                  for b in range(4)))
for i, f in enumerate(ranked[:n]):
    im = f["impact"]
    print("%2d. rank %3d  %.3g %s  [%s] %s:%d:%d  %s %s" % (
        i + 1, im["rank"], im["value"], im["unit"], f["check"], f["file"], f["line"], f["column"],
        f["severity"], f["message"][:200]))
