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

With --warnings-only, only findings whose severity is a warning are candidates (a note,
clang's remark, is information; precision is measured over warnings, see score.py), and
with --top-up a check gets only as many new rows as it lacks to have K labelled places
that the runs report as warnings (a kept label counts when a warning finding's own place
or one of its notes names it, or a warning record of the run's memory_accesses does).

usage: sample.py [--seed N] [--per-check K] [--keep LABELS] [--warnings-only] [--top-up]
                 [-o OUT.csv] CORPUS=RUN.json...
"""
import argparse
import csv
import random
import sys
import os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import CORPORA, load, parse_run, repo_path  # noqa: E402

COLUMNS = ["corpus", "commit", "file", "line", "check", "message", "label", "cause", "reason"]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="+", metavar="CORPUS=RUN.json")
    p.add_argument("--seed", type=int, default=23)
    p.add_argument("--per-check", type=int, default=20)
    p.add_argument("--keep", help="labels CSV whose rows are kept and not drawn again")
    p.add_argument("--root", default="/work/corpora",
                   help="directory holding the checkouts, where the runs were made")
    p.add_argument("--warnings-only", action="store_true",
                   help="draw only from findings whose severity is a warning")
    p.add_argument("--top-up", action="store_true",
                   help="per check, draw only what the kept labels lack to reach --per-check "
                        "labelled warning places")
    p.add_argument("-o", "--output", default="-")
    a = p.parse_args()

    kept = []
    if a.keep:
        with open(a.keep, newline="") as f:
            kept = list(csv.DictReader(f))
    known = {(r["corpus"], r["file"], int(r["line"]), r["check"]) for r in kept}

    def is_warning(sev):
        return (sev or "warning").lower() not in ("note", "remark")

    by_check = {}
    reached = set()     # kept labels the runs report as warnings
    for spec in a.runs:
        corpus, path = parse_run(spec)
        run, found = load(corpus, path, a.root)
        for d in found:
            warn = is_warning(d.get("severity"))
            if warn:
                reached.add(d["key"])
                reached.update((corpus, repo_path(corpus, n["file"], a.root), int(n["line"]), d["check"])
                               for n in d.get("notes", []) if n.get("file"))
            if a.warnings_only and not warn:
                continue
            if d["key"] not in known:
                by_check.setdefault(d["check"], {}).setdefault(d["key"], d)
        for m in run.get("memory_accesses", []):
            if m.get("file") and m.get("check") and is_warning(m.get("severity")):
                reached.add((corpus, repo_path(corpus, m["file"], a.root), int(m["line"]), m["check"]))
    have = {}
    for k in known & reached:
        have[k[3]] = have.get(k[3], 0) + 1

    rng = random.Random(a.seed)
    rows = list(kept)
    for check in sorted(by_check):
        keys = sorted(by_check[check])
        want = max(0, a.per_check - have.get(check, 0)) if a.top_up else a.per_check
        pick = keys if len(keys) <= want else rng.sample(keys, want)
        for key in sorted(pick):
            d = by_check[check][key]
            rows.append({"corpus": d["corpus"], "commit": CORPORA[d["corpus"]][1],
                         "file": d["rel"], "line": d["line"], "check": check,
                         "message": d["message"], "label": "", "cause": "", "reason": ""})
        print("%-45s %5d places, %3d labelled kept, %3d drawn" % (
            check, len(keys), have.get(check, 0), len(pick)), file=sys.stderr)

    out = sys.stdout if a.output == "-" else open(a.output, "w", newline="")
    w = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: r.get(k, "") for k in COLUMNS})
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
