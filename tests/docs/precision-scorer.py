#!/usr/bin/env python3
"""bench/precision/score.py on a made-up run: the figures docs/precision.md states rest on
its join of findings and labels, so the join is tested here.

- A place with one label row: every finding there joins it, whatever its message (another
  kernel's finding at a labelled line counts as that label).
- A place with two rows (two claims at one line): a finding joins the row whose message is
  its own; the other row, not reported, is gone; a third message there is unlabelled.
- Rows sharing a cause count once; precision is TP / (TP + FP) over causes.

usage: precision-scorer.py SOURCE_DIR
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

CHECK = "warplint-warp-sync-mask"


def finding(path, line, message):
    return {"file": path, "line": line, "column": 1, "check": CHECK, "severity": "warning",
            "message": message, "notes": []}


def main():
    src = sys.argv[1]
    score = os.path.join(src, "bench", "precision", "score.py")
    with tempfile.TemporaryDirectory() as tmp:
        labels = os.path.join(tmp, "labels.csv")
        cols = ["corpus", "commit", "file", "line", "check", "message", "label", "cause", "reason"]
        rows = [
            ["amgx", "c", "a.h", "10", CHECK, "one kernel", "TP", "", "r"],
            ["amgx", "c", "b.h", "20", CHECK, "claim of kernel K1", "FP", "", "r"],
            ["amgx", "c", "b.h", "20", CHECK, "claim of kernel K2", "TP", "", "r"],
            ["amgx", "c", "c.h", "30", CHECK, "x", "FP", "same", "r"],
            ["amgx", "c", "c.h", "31", CHECK, "y", "FP", "same", "r"],
        ]
        with open(labels, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(cols)
            w.writerows(rows)
        run = {"files_analysed": ["t.cu"], "findings": [
            finding("amgx/a.h", 10, "another kernel's message"),  # one row: joins it
            finding("amgx/b.h", 20, "claim of kernel K2"),        # joins the TP row
            finding("amgx/b.h", 20, "claim of kernel K3"),        # no row: unlabelled
            finding("amgx/c.h", 30, "x"),
            finding("amgx/c.h", 31, "y"),
        ]}
        path = os.path.join(tmp, "run.json")
        with open(path, "w") as f:
            json.dump(run, f)
        out_json = os.path.join(tmp, "out.json")
        p = subprocess.run([sys.executable, score, "--labels", labels, "--root", tmp,
                            "--json", out_json, "-v", "amgx=" + path],
                           capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("score.py failed:\n" + p.stdout + p.stderr)
        with open(out_json) as f:
            table = {r["check"]: r for r in json.load(f)["checks"]}
        r = table[CHECK]
        want = {"tp": 2, "fp": 1, "causes": 3, "labelled": 4, "unlabelled_places": 1,
                "gone_fp": 1, "gone_tp": 0, "precision": 0.667}
        bad = {k: (r[k], v) for k, v in want.items() if r[k] != v}
        if bad:
            sys.exit("precision-scorer: (got, want) %s\n%s" % (bad, p.stdout))
        if "gone (FP) %s b.h:20" % CHECK not in p.stdout:
            sys.exit("precision-scorer: the K1 row at b.h:20 is not listed as gone\n" + p.stdout)
    print("precision-scorer: ok")


if __name__ == "__main__":
    main()
