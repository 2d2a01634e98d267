#!/usr/bin/env python3
"""Scores `warplint check --format json` runs of the precision corpora against the hand
labels (labels.csv; sample.py draws the rows, a person fills label/cause/reason).

A finding of a run is joined with a label on (corpus, file, line, check). A finding whose
own place has no label but whose notes name a labelled place of the same check (a
grouped finding that lists the places it stands for) takes that label and is counted as
"via note". Per check it prints: findings (as the run reports them), places (distinct
(corpus, file, line)), labelled places, TP, FP and precision = TP / (TP + FP) over the
labelled places of this run; rows that share a non-empty cause are one root cause and
count once (TP if all of them are TP, else FP). Labels of places the run no longer
reports are counted apart ("gone": a TP gone is a true finding lost). Then findings per
translation unit (analysed files), per corpus and together.

usage: score.py [--labels labels.csv] [--json OUT] CORPUS=RUN.json...
"""
import argparse
import collections
import csv
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import load, parse_run, repo_path  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="+", metavar="CORPUS=RUN.json")
    p.add_argument("--labels", default=os.path.join(HERE, "labels.csv"))
    p.add_argument("--root", default="/work/corpora")
    p.add_argument("--json", help="write the figures as JSON too")
    p.add_argument("-v", "--verbose", action="store_true", help="list FP and unlabelled places")
    a = p.parse_args()

    labels = {}
    with open(a.labels, newline="") as f:
        for r in csv.DictReader(f):
            lab = r["label"].strip().upper()
            if lab not in ("TP", "FP"):
                if lab:
                    sys.exit("score.py: %s: label %r is neither TP nor FP" % (a.labels, r["label"]))
                continue
            labels[(r["corpus"], r["file"], int(r["line"]), r["check"])] = dict(r, label=lab)

    corpora = []
    findings = []
    tus = collections.Counter()
    per_tu = collections.Counter()
    for spec in a.runs:
        corpus, path = parse_run(spec)
        run, found = load(corpus, path, a.root)
        corpora.append(corpus)
        tus[corpus] += len(run["files_analysed"])
        per_tu[corpus] += len(found)
        for d in found:
            d["note_keys"] = [(corpus, repo_path(corpus, n["file"], a.root), int(n["line"]), d["check"])
                              for n in d.get("notes", []) if n.get("file")]
        findings += found

    checks = sorted({d["check"] for d in findings} | {k[3] for k in labels if k[0] in corpora})
    table = []
    unlabelled_total = 0
    for check in checks:
        mine = [d for d in findings if d["check"] == check]
        places = {}
        for d in mine:
            places.setdefault(d["key"], d)
        got = {}          # label key -> how it was reached
        unlabelled = []
        for key, d in sorted(places.items()):
            if key in labels:
                got.setdefault(key, "own")
            else:
                via = [k for k in d["note_keys"] if k in labels]
                if via:
                    for k in via:
                        got.setdefault(k, "note")
                else:
                    unlabelled.append(key)
        unlabelled_total += sum(1 for d in mine if d["key"] in set(unlabelled))
        causes = collections.OrderedDict()
        for k in sorted(got):
            r = labels[k]
            cause = (r.get("cause") or "").strip() or "%s:%s" % (k[1], k[2])
            causes.setdefault((k[0], cause), []).append(r["label"])
        tp = sum(1 for v in causes.values() if all(x == "TP" for x in v))
        fp = len(causes) - tp
        gone = [k for k in labels if k[3] == check and k[0] in corpora and k not in got]
        gone_tp = sum(1 for k in gone if labels[k]["label"] == "TP")
        row = {"check": check, "findings": len(mine), "places": len(places),
               "labelled": len(got), "via_note": sum(1 for v in got.values() if v == "note"),
               "causes": len(causes), "tp": tp, "fp": fp,
               "precision": round(tp / (tp + fp), 3) if tp + fp else None,
               "unlabelled_places": len(unlabelled), "gone_tp": gone_tp,
               "gone_fp": len(gone) - gone_tp}
        table.append(row)
        if a.verbose:
            for k in sorted(got):
                if labels[k]["label"] == "FP":
                    print("  FP %s %s:%d  %s" % (check, k[1], k[2], labels[k]["reason"]))
            for k in unlabelled:
                print("  unlabelled %s %s:%d" % (check, k[1], k[2]))
            for k in sorted(gone):
                print("  gone (%s) %s %s:%d" % (labels[k]["label"], check, k[1], k[2]))

    print("%-36s %8s %6s %8s %6s %4s %4s %9s %10s %7s" % (
        "check", "findings", "places", "labelled", "causes", "TP", "FP", "precision",
        "unlabelled", "gone TP"))
    for r in table:
        print("%-36s %8d %6d %8d %6d %4d %4d %9s %10d %7d" % (
            r["check"], r["findings"], r["places"], r["labelled"], r["causes"], r["tp"], r["fp"],
            "-" if r["precision"] is None else "%.2f" % r["precision"], r["unlabelled_places"],
            r["gone_tp"]))
    print("findings of the run on unlabelled places: %d of %d" % (unlabelled_total, len(findings)))
    for c in corpora:
        print("%s: %d findings / %d TUs analysed = %.2f per TU" % (
            c, per_tu[c], tus[c], per_tu[c] / tus[c] if tus[c] else 0.0))
    total_tu = sum(tus.values())
    print("all: %d findings / %d TUs = %.2f per TU" % (
        len(findings), total_tu, len(findings) / total_tu if total_tu else 0.0))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"checks": table, "unlabelled_findings": unlabelled_total,
                       "findings": len(findings),
                       "per_corpus": {c: {"findings": per_tu[c], "tus": tus[c]} for c in corpora}},
                      f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
