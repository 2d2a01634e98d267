#!/usr/bin/env python3
"""Scores `warplint check --format json` runs of the precision corpora against the hand
labels (labels.csv; sample.py draws the rows, a person fills label/cause/reason).

A finding of a run is joined with a label on (corpus, file, line, check). Where one place
has several label rows (two claims at one line: a shared helper reached from kernels for
which different things are true), each row is one claim and a finding joins the row whose
message is its own, word for word; at such a place a finding with another message joins
none (it is unlabelled). A finding whose
own place has no label but whose notes name a labelled place of the same check (a
grouped finding that lists the places it stands for: "... here too, grouped in the
finding at line N") reaches that place too ("via note"); so does a `memory_accesses`
record of the run (the JSON keeps every place of a grouped memory finding, with its
severity).

Severity decides what counts. A finding whose severity is "warning" (or "error") is what
a user sees at the defaults and what --warnings-as-errors fails on; precision is computed
over the labelled places the run reaches with a warning. A finding whose severity is
"note" (a clang remark) is information: notes are counted apart per check, and the
labelled places the run reaches only as notes are listed ("TP demoted to note", "FP
demoted to note"), so that precision bought by silence shows. A run without "severity"
(older JSON) is read as all warnings.

Per check it prints: warnings and notes (findings as the run reports them), the places
reached by a warning (distinct (corpus, file, line)), labelled warning places, root
causes, TP, FP, precision = TP / (TP + FP) over warnings (rows that share a non-empty
cause are one root cause and count once: TP if all of them are TP, else FP), labelled
places demoted to notes (TP, FP), warning places nobody labelled, and labelled places the
run no longer reports at all, neither warning nor note ("gone": a gone TP is a true
finding lost). Then warnings and all findings per translation unit (analysed files), per
corpus and together.

usage: score.py [--labels labels.csv] [--json OUT] [-v] CORPUS=RUN.json...
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
WARN, NOTE = "warning", "note"


def level(sev):
    """A finding's severity as 'warning' (warning, error, absent) or 'note' (note, remark)."""
    return NOTE if (sev or WARN).lower() in ("note", "remark") else WARN


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="+", metavar="CORPUS=RUN.json")
    p.add_argument("--labels", default=os.path.join(HERE, "labels.csv"))
    p.add_argument("--root", default="/work/corpora")
    p.add_argument("--json", help="write the figures as JSON too")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="list FP, demoted, gone and unlabelled places")
    a = p.parse_args()

    # A label's key: its place (corpus, file, line, check) and its row's index among the
    # rows of that place (0 for the only one).
    labels = {}
    rows_at = collections.defaultdict(list)   # place -> label keys of its rows
    with open(a.labels, newline="") as f:
        for r in csv.DictReader(f):
            lab = r["label"].strip().upper()
            if lab not in ("TP", "FP"):
                if lab:
                    sys.exit("score.py: %s: label %r is neither TP nor FP" % (a.labels, r["label"]))
                continue
            place = (r["corpus"], r["file"], int(r["line"]), r["check"])
            k = place + (len(rows_at[place]),)
            rows_at[place].append(k)
            labels[k] = dict(r, label=lab)

    def label_of(place, message):
        """The label key a finding at place with this message joins, or None."""
        keys = rows_at.get(place)
        if not keys:
            return None
        if len(keys) == 1:
            return keys[0]
        for k in keys:
            if labels[k]["message"] == message:
                return k
        return None

    corpora = []
    findings = []
    tus = collections.Counter()
    per_tu = collections.Counter()       # all findings per corpus
    warn_tu = collections.Counter()      # warnings per corpus
    record_level = {}                    # memory_accesses place key -> best level
    for spec in a.runs:
        corpus, path = parse_run(spec)
        run, found = load(corpus, path, a.root)
        corpora.append(corpus)
        tus[corpus] += len(run["files_analysed"])
        for d in found:
            d["level"] = level(d.get("severity"))
            per_tu[corpus] += 1
            warn_tu[corpus] += d["level"] == WARN
            d["note_keys"] = [(corpus, repo_path(corpus, n["file"], a.root), int(n["line"]), d["check"])
                              for n in d.get("notes", []) if n.get("file")]
        findings += found
        for m in run.get("memory_accesses", []):
            if not m.get("file") or not m.get("check"):
                continue
            k = (corpus, repo_path(corpus, m["file"], a.root), int(m["line"]), m["check"])
            lv = level(m.get("severity"))
            if record_level.get(k) != WARN:
                record_level[k] = lv

    checks = sorted({d["check"] for d in findings} | {k[3] for k in labels if k[0] in corpora})
    table = []
    unlabelled_total = 0
    for check in checks:
        mine = [d for d in findings if d["check"] == check]
        warns = [d for d in mine if d["level"] == WARN]
        notes = [d for d in mine if d["level"] == NOTE]
        wplaces = {d["key"] for d in warns}
        nplaces = {d["key"] for d in notes} - wplaces
        reached = {}      # label key -> (level, how)

        def reach(k, lv, how):
            old = reached.get(k)
            if old is None or (old[0] == NOTE and lv == WARN):
                reached[k] = (lv, how)

        unlabelled = set()
        for d in mine:
            own = label_of(d["key"], d.get("message", ""))
            if own is not None:
                reach(own, d["level"], "own")
            else:
                via = [k for k in (label_of(n, d.get("message", "")) for n in d["note_keys"])
                       if k is not None]
                for k in via:
                    reach(k, d["level"], "note")
                if not via and d["level"] == WARN:
                    unlabelled.add(d["key"])
        for p, lv in record_level.items():
            if p[3] == check and len(rows_at.get(p, ())) == 1:
                reach(rows_at[p][0], lv, "record")
        unlabelled -= {k[:4] for k, v in reached.items()
                       if v[0] == WARN and len(rows_at[k[:4]]) == 1}
        unlabelled_total += sum(1 for d in warns if d["key"] in unlabelled)

        causes = collections.OrderedDict()
        for k in sorted(k for k, v in reached.items() if v[0] == WARN):
            r = labels[k]
            cause = (r.get("cause") or "").strip() or "%s:%s%s" % (
                k[1], k[2], "#%d" % k[4] if k[4] else "")
            causes.setdefault((k[0], cause), []).append(r["label"])
        tp = sum(1 for v in causes.values() if all(x == "TP" for x in v))
        fp = len(causes) - tp
        demoted = sorted(k for k, v in reached.items() if v[0] == NOTE)
        gone = sorted(k for k in labels if k[3] == check and k[0] in corpora and k not in reached)
        row = {"check": check, "warnings": len(warns), "notes": len(notes),
               "findings": len(mine), "warning_places": len(wplaces), "note_places": len(nplaces),
               "labelled": sum(1 for v in reached.values() if v[0] == WARN),
               "via_note": sum(1 for v in reached.values() if v[0] == WARN and v[1] != "own"),
               "causes": len(causes), "tp": tp, "fp": fp,
               "precision": round(tp / (tp + fp), 3) if tp + fp else None,
               "tp_to_note": sum(1 for k in demoted if labels[k]["label"] == "TP"),
               "fp_to_note": sum(1 for k in demoted if labels[k]["label"] == "FP"),
               "unlabelled_places": len(unlabelled),
               "gone_tp": sum(1 for k in gone if labels[k]["label"] == "TP"),
               "gone_fp": sum(1 for k in gone if labels[k]["label"] == "FP")}
        table.append(row)
        if a.verbose:
            for k in sorted(reached):
                if reached[k][0] == WARN and labels[k]["label"] == "FP":
                    print("  FP %s %s:%d  %s" % (check, k[1], k[2], labels[k]["reason"]))
            for k in demoted:
                print("  %s demoted to note %s %s:%d  %s" % (labels[k]["label"], check, k[1], k[2],
                                                             labels[k]["reason"]))
            for k in sorted(unlabelled):
                print("  unlabelled warning %s %s:%d" % (check, k[1], k[2]))
            for k in gone:
                print("  gone (%s) %s %s:%d" % (labels[k]["label"], check, k[1], k[2]))

    head = ("check", "warnings", "notes", "w.places", "labelled", "causes", "TP", "FP",
            "precision", "TP->note", "FP->note", "unlabelled", "gone TP", "gone FP")
    print("%-36s %8s %6s %8s %8s %6s %4s %4s %9s %8s %8s %10s %7s %7s" % head)
    for r in table:
        print("%-36s %8d %6d %8d %8d %6d %4d %4d %9s %8d %8d %10d %7d %7d" % (
            r["check"], r["warnings"], r["notes"], r["warning_places"], r["labelled"], r["causes"],
            r["tp"], r["fp"], "-" if r["precision"] is None else "%.2f" % r["precision"],
            r["tp_to_note"], r["fp_to_note"], r["unlabelled_places"], r["gone_tp"], r["gone_fp"]))
    tp = sum(r["tp"] for r in table)
    fp = sum(r["fp"] for r in table)
    print("all: TP %d, FP %d, precision over warnings %s" % (
        tp, fp, "%.2f" % (tp / (tp + fp)) if tp + fp else "-"))
    nwarn = sum(warn_tu.values())
    print("warnings of the run on unlabelled places: %d of %d" % (unlabelled_total, nwarn))
    for c in corpora:
        print("%s: %d warnings, %d findings (warnings + notes) / %d TUs analysed = %.2f, %.2f per TU" % (
            c, warn_tu[c], per_tu[c], tus[c], warn_tu[c] / tus[c] if tus[c] else 0.0,
            per_tu[c] / tus[c] if tus[c] else 0.0))
    total_tu = sum(tus.values())
    print("all: %d warnings, %d findings / %d TUs = %.2f, %.2f per TU" % (
        nwarn, len(findings), total_tu, nwarn / total_tu if total_tu else 0.0,
        len(findings) / total_tu if total_tu else 0.0))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"checks": table, "unlabelled_warnings": unlabelled_total,
                       "warnings": nwarn, "findings": len(findings),
                       "per_corpus": {c: {"warnings": warn_tu[c], "findings": per_tu[c], "tus": tus[c]}
                                      for c in corpora}},
                      f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
