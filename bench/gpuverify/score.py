#!/usr/bin/env python3
"""Scores warplint's sync-correctness checks against GPUVerify's CUDA test suite.

Each testsuite/CUDA/**/kernel.cu states GPUVerify's verdict on line 1 (//pass or
//xfail:...) and its launch on line 2 (--blockDim=, --gridDim=, -D). labels.csv (next to
this script) says for each case what a lint can decide: race, barrier, benign (every
thread writes the same value), out (null pointers, assertions, data-dependent atomics,
annotation tests), excluded (BUGLE_ERROR/CLANG_ERROR), pass, pass-precondition (a //pass
kernel that needs __requires/__assume: with the annotations as no-ops it may race).

Each kernel is analysed alone with the three checks (probe.cu first: each must report
there, or the scorer stops):
prelude.h is force-included (annotations become no-ops; cooperative_groups and the CUDA 9
`synchronize(g)`), and line 2's shape is given as the run-wide assumed shape: the
`--assume-block`/`--assume-grid` options when `warplint check --help` lists them, else the
`warplint.AssumedBlock`/`warplint.AssumedGrid` .clang-tidy options in a copy of the
kernel's directory. A case is found when a check gives a warning or error in it.

  python3 bench/gpuverify/score.py --suite /work/corpora/gpuverify/testsuite/CUDA \
      --warplint build/bin/warplint [--json out.json] [--report-benign]
"""
import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKS = ["warplint-data-race", "warplint-barrier-divergence", "warplint-warp-sync-mask"]


def read_labels(path):
    with open(path, newline="") as f:
        return {r["case"]: r for r in csv.DictReader(f)}


def dims(text):
    """'[16,16]' or '16' -> 'XxY' (GPUVerify allows blocks over 1024 threads: clamped)."""
    parts = [int(p) for p in re.findall(r"\d+", text)] or [1]
    return parts


def launch_of(kernel):
    with open(kernel, errors="replace") as f:
        first = f.readline().strip()
        second = f.readline().strip()
    verdict = first.lstrip("/").strip().lower()
    block = re.search(r"--blockDim=(\[[^\]]*\]|\d+)", second)
    grid = re.search(r"--gridDim=(\[[^\]]*\]|\d+)", second)
    defines = re.findall(r"(-D\S+)", second)
    return verdict, dims(block.group(1)) if block else [1], dims(grid.group(1)) if grid else [1], defines


def shape_text(parts, limit=None):
    parts = list(parts)
    if limit:
        # A block over 1024 threads cannot launch on CUDA: cut x (then y) down to fit.
        while parts[0] * (parts[1] if len(parts) > 1 else 1) * (parts[2] if len(parts) > 2 else 1) > limit:
            k = 0 if parts[0] > 1 else 1
            parts[k] //= 2
    return "x".join(str(p) for p in parts)



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--suite", default="/work/corpora/gpuverify/testsuite/CUDA")
    ap.add_argument("--warplint", default="build/bin/warplint")
    ap.add_argument("--labels", default=os.path.join(HERE, "labels.csv"))
    ap.add_argument("--arch", default="sm_70")
    ap.add_argument("--json", help="write every case's result here")
    ap.add_argument("--report-benign", action="store_true",
                    help="warplint-data-race.ReportBenign: true (same-value races too)")
    ap.add_argument("--filter", default="", help="only cases whose name matches")
    args = ap.parse_args()
    args.warplint = os.path.abspath(args.warplint)

    labels = read_labels(args.labels)
    helptext = subprocess.run([args.warplint, "check", "--help"], capture_output=True, text=True).stdout
    has_assume = "--assume-block" in helptext
    checks = CHECKS
    prelude = os.path.join(HERE, "prelude.h")
    # Every scored check must be in the build: a check clang-tidy does not know is simply
    # silent, which would score its cases as missed (branch sync-a's 0/3 barrier cases:
    # warplint-barrier-divergence was not merged there). probe.cu has one finding of each.
    probe = subprocess.run([args.warplint, "check", "--checks", "-*," + ",".join(checks),
                            "--format", "json", "--registers-from", "none", "--no-cache",
                            "--arch", args.arch, os.path.join(HERE, "probe.cu"), "--",
                            "-include", prelude], capture_output=True, text=True)
    try:
        probed = {f.get("check") for f in json.loads(probe.stdout).get("findings", [])
                  if f.get("severity") in ("warning", "error")}
    except json.JSONDecodeError:
        probed = set()
    missing = [c for c in checks if c not in probed]
    if missing:
        sys.exit(f"score.py: {', '.join(missing)} gave no finding on probe.cu: not in this "
                 f"build, or broken ({args.warplint})")
    results = []
    start = time.time()
    for root, _, files in sorted(os.walk(args.suite)):
        if "kernel.cu" not in files:
            continue
        case = os.path.relpath(root, args.suite)
        if args.filter and not re.search(args.filter, case):
            continue
        label = labels.get(case)
        if not label:
            print(f"warning: no label for {case}", file=sys.stderr)
            continue
        if label["label"] == "excluded":
            continue
        verdict, block, grid, defines = launch_of(os.path.join(root, "kernel.cu"))
        btext, gtext = shape_text(block, 1024), shape_text(grid)
        with tempfile.TemporaryDirectory(prefix="gpuverify-") as tmp:
            work = os.path.join(tmp, "k")
            shutil.copytree(root, work)
            options = {}
            cmd = [args.warplint, "check", "--checks", "-*," + ",".join(checks), "--format", "json",
                   "--registers-from", "none", "--no-cache", "--arch", args.arch]
            if has_assume:
                cmd += ["--assume-block", btext, "--assume-grid", gtext]
            else:
                options["warplint.AssumedBlock"] = btext
                options["warplint.AssumedGrid"] = gtext
            if args.report_benign:
                options["warplint-data-race.ReportBenign"] = "true"
            if options:
                with open(os.path.join(work, ".clang-tidy"), "w") as f:
                    f.write("CheckOptions:\n")
                    for k, v in options.items():
                        f.write(f"  {k}: '{v}'\n")
            cmd += [os.path.join(work, "kernel.cu"), "--", "-include", prelude] + defines
            t0 = time.time()
            run = subprocess.run(cmd, capture_output=True, text=True, cwd=work)
            secs = time.time() - t0
        findings, failed = [], False
        try:
            doc = json.loads(run.stdout)
            failed = bool(doc.get("files_failed"))
            for f in doc.get("findings", []):
                if f.get("severity") in ("warning", "error") and f.get("check") in CHECKS:
                    findings.append({"check": f["check"], "line": f["line"], "message": f["message"]})
        except json.JSONDecodeError:
            failed = True
        results.append({"case": case, "label": label["label"], "verdict": verdict, "block": btext,
                        "grid": gtext, "findings": findings, "failed": failed,
                        "seconds": round(secs, 2), "stderr": run.stderr[-400:] if failed else ""})

    def cases(lab):
        return [r for r in results if r["label"] == lab]

    out = {"shape_option": "--assume-block" if has_assume else "warplint.AssumedBlock",
           "checks": checks, "seconds": round(time.time() - start, 1)}
    inscope = cases("race") + cases("barrier")
    found = [r for r in inscope if r["findings"]]
    out["recall"] = {"in_scope": len(inscope), "found": len(found),
                     "recall": round(len(found) / len(inscope), 3) if inscope else None}
    for lab in ("race", "barrier", "benign"):
        cs = cases(lab)
        out[lab] = {"cases": len(cs), "found": sum(1 for r in cs if r["findings"])}
    for lab in ("pass", "pass-precondition", "pass-warp-sync", "out"):
        cs = cases(lab)
        out[lab] = {"cases": len(cs), "with_findings": sum(1 for r in cs if r["findings"]),
                    "failed": sum(1 for r in cs if r["failed"])}
    print(f"shape via {out['shape_option']}; checks: {', '.join(checks)}; {out['seconds']} s")
    print(f"recall (race + barrier in scope): {len(found)}/{len(inscope)} = {out['recall']['recall']}")
    for lab in ("race", "barrier", "benign"):
        print(f"  {lab}: {out[lab]['found']}/{out[lab]['cases']}")
    for lab in ("pass", "pass-precondition", "pass-warp-sync", "out"):
        print(f"{lab}: {out[lab]['with_findings']} of {out[lab]['cases']} kernels with findings"
              f" ({out[lab]['failed']} failed to analyse)")
    print("missed:")
    for r in inscope + cases("benign"):
        if not r["findings"]:
            print(f"  {r['case']} ({r['label']}){' FAILED' if r['failed'] else ''}")
    for lab in ("pass", "pass-precondition", "pass-warp-sync", "out"):
        for r in cases(lab):
            if r["findings"] or r["failed"]:
                print(f"{lab} {r['case']}: " + ("FAILED " + r["stderr"].strip().splitlines()[-1]
                                              if r["failed"] and r["stderr"].strip() else "")
                      + "; ".join(f"{f['check']} line {f['line']}: {f['message']}" for f in r["findings"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": out, "cases": results}, f, indent=1)


if __name__ == "__main__":
    main()
