#!/usr/bin/env python3
"""Draws findings at random from `warplint check --format json` runs of the precision
corpora, for labelling by hand.

Each finding is named by (corpus, file, line, check); a place reported more than once (a
header line reached from several translation units, several archs) is one candidate. Per
check, the candidates of all runs together are sorted and `random.Random(SEED)` draws
--per-check of them (all when fewer), check after check in sorted order, so the same runs
and seed give the same sample. Writes a CSV with the columns

    corpus,commit,file,line,check,message,label,cause,reason

label (TP or FP), cause (optional: rows with the same cause are one root cause and count
once, see score.py) and reason are left empty for the labeller. With --keep LABELS, the
rows of LABELS come first, as they are, and are not drawn again: a re-run after a change
draws only from findings that no label names yet, with the same seed.

usage: sample.py [--seed N] [--per-check K] [--keep LABELS] [-o OUT.csv] CORPUS=RUN.json...
"""
import argparse
import csv
import random
import sys
import os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import CORPORA, load, parse_run  # noqa: E402

COLUMNS = ["corpus", "commit", "file", "line", "check", "message", "label", "cause", "reason"]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="+", metavar="CORPUS=RUN.json")
    p.add_argument("--seed", type=int, default=23)
    p.add_argument("--per-check", type=int, default=20)
    p.add_argument("--keep", help="labels CSV whose rows are kept and not drawn again")
    p.add_argument("--root", default="/work/corpora",
                   help="directory holding the checkouts, where the runs were made")
    p.add_argument("-o", "--output", default="-")
    a = p.parse_args()

    kept = []
    if a.keep:
        with open(a.keep, newline="") as f:
            kept = list(csv.DictReader(f))
    known = {(r["corpus"], r["file"], int(r["line"]), r["check"]) for r in kept}

    by_check = {}
    for spec in a.runs:
        corpus, path = parse_run(spec)
        _, found = load(corpus, path, a.root)
        for d in found:
            if d["key"] not in known:
                by_check.setdefault(d["check"], {}).setdefault(d["key"], d)

    rng = random.Random(a.seed)
    rows = list(kept)
    for check in sorted(by_check):
        keys = sorted(by_check[check])
        pick = keys if len(keys) <= a.per_check else rng.sample(keys, a.per_check)
        for key in sorted(pick):
            d = by_check[check][key]
            rows.append({"corpus": d["corpus"], "commit": CORPORA[d["corpus"]][1],
                         "file": d["rel"], "line": d["line"], "check": check,
                         "message": d["message"], "label": "", "cause": "", "reason": ""})
        print("%-45s %5d places, %3d drawn" % (check, len(keys), len(pick)), file=sys.stderr)

    out = sys.stdout if a.output == "-" else open(a.output, "w", newline="")
    w = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: r.get(k, "") for k in COLUMNS})
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
