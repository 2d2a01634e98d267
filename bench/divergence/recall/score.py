#!/usr/bin/env python3
"""Scores warplint-divergent-branch against the hand-labelled recall set.

labels.csv holds one labelled branch a line (repo, commit, file, line, kernel, expected
warn/silent, reason); tus.csv the translation units to analyse (repo, commit, tu, the
block size a user would give as AssumedBlockSize where the launch's block is computed at
run time, extra clang arguments). The sources are never committed: each repository is
found as a bare git directory under --mirrors (owner+name/repo, the layout of warplint's
workspace) or cloned from GitHub into --work, and the source files of the recorded commit
are written under --work/owner+name. Each TU is then analysed the way a user would:

    warplint check --checks='-*,warplint-divergent-branch' --registers-from none \
        --allow-errors --no-cache --format json -o OUT TU -- <clang args>

with a .clang-tidy file next to the TU when it sets AssumedBlockSize. A finding matches
a label when file and line agree; so does each other place of a grouped finding (one
finding for the places of a kernel with the same condition and figures, each other place
a note "... grouped in the finding at line N" in the JSON). The severity of each match is
counted: a warning, or a finding the check demotes to a note (remark) because its cost is
next to nothing or it holds only for the assumed block shape. Prints every disagreement, then precision and recall
(labels only; findings on unlabelled lines are listed apart and not scored).

usage: score.py [-w WARPLINT] [--work DIR] [--mirrors DIR] [--json OUT] [-v]
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
SOURCE_EXT = (".cu", ".cuh", ".h", ".hpp", ".hh", ".c", ".cpp", ".cc", ".inc", ".inl")


def die(msg):
    print(f"score.py: {msg}", file=sys.stderr)
    sys.exit(2)


def git(args, **kw):
    return subprocess.run(["git"] + args, check=True, capture_output=True, **kw).stdout


def find_or_fetch(repo, commit, mirrors, work):
    """A git directory holding commit: the workspace mirror, else a clone of GitHub."""
    key = repo.replace("/", "+")
    for cand in (os.path.join(mirrors, key, "repo"), os.path.join(work, "git", key)):
        if os.path.isdir(cand):
            try:
                git(["--git-dir", cand, "cat-file", "-e", commit + "^{commit}"])
                return cand
            except subprocess.CalledProcessError:
                pass
    dest = os.path.join(work, "git", key)
    if not os.path.isdir(dest):
        print(f"cloning {repo} ...", file=sys.stderr)
        subprocess.run(["git", "clone", "--bare", "--filter=blob:none",
                        f"https://github.com/{repo}.git", dest], check=True)
    try:
        git(["--git-dir", dest, "cat-file", "-e", commit + "^{commit}"])
    except subprocess.CalledProcessError:
        subprocess.run(["git", "--git-dir", dest, "fetch", "origin", commit], check=True)
    return dest


def extract(gitdir, commit, dest):
    """Writes the source files of commit under dest (once; a stamp records the commit)."""
    stamp = os.path.join(dest, ".warplint-recall-commit")
    if os.path.exists(stamp) and open(stamp).read().strip() == commit:
        return
    listing = git(["--git-dir", gitdir, "ls-tree", "-r", "-z", commit]).split(b"\0")
    for entry in listing:
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        mode, kind, obj = meta.split()
        path = path.decode()
        if kind != b"blob" or not path.endswith(SOURCE_EXT) or mode == b"120000":
            continue
        out = os.path.join(dest, path)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        try:
            data = git(["--git-dir", gitdir, "cat-file", "blob", obj.decode()])
        except subprocess.CalledProcessError:
            continue  # a blob the mirror does not hold (large files): not a source we read
        with open(out, "wb") as f:
            f.write(data)
    with open(stamp, "w") as f:
        f.write(commit + "\n")


def read_csv(name):
    with open(os.path.join(HERE, name), newline="") as f:
        rows = [r for r in csv.DictReader(line for line in f if not line.startswith("#"))]
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-w", "--warplint", default=os.path.join(ROOT, "build", "bin", "warplint"))
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "warplint-recall"))
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--cuda-path", default=os.environ.get("CUDA_PATH", "/usr/local/cuda"))
    ap.add_argument("--json", help="write the per-label results to this file")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every label")
    a = ap.parse_args()
    if not os.access(a.warplint, os.X_OK):
        die(f"no warplint at {a.warplint} (build first, or -w)")
    if not os.path.isfile(os.path.join(a.cuda_path, "include", "cuda_runtime.h")):
        die(f"no CUDA toolkit at {a.cuda_path} (--cuda-path)")
    labels, tus = read_csv("labels.csv"), read_csv("tus.csv")
    if not labels or not tus:
        die("labels.csv or tus.csv is empty")
    for L in labels:
        if L["expected"] not in ("warn", "silent"):
            die(f"label {L['file']}:{L['line']}: expected must be warn or silent")
    os.makedirs(a.work, exist_ok=True)

    src = {}
    for key in sorted({(t["repo"], t["commit"]) for t in tus}):
        repo, commit = key
        gitdir = find_or_fetch(repo, commit, a.mirrors, a.work)
        dest = os.path.join(a.work, "src", repo.replace("/", "+"), commit[:12])
        extract(gitdir, commit, dest)
        src[key] = dest

    base = ["-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_86", "-std=c++17",
            f"--cuda-path={a.cuda_path}", "-isystem", os.path.join(a.cuda_path, "include", "cccl"),
            "-Wno-everything"]
    findings = {}  # (repo, file, line) -> [message]
    severity = {}  # (repo, file, line) -> the finding's severity (warning, remark/note)
    failed = []
    for t in tus:
        root = src[(t["repo"], t["commit"])]
        tu = os.path.join(root, t["tu"])
        if not os.path.isfile(tu):
            die(f"{t['repo']}@{t['commit'][:12]} has no {t['tu']}")
        args = list(base)
        for extra in filter(None, t["args"].split(";")):
            extra = extra.replace("{root}", root)
            args.append(extra)
        tidy = os.path.join(os.path.dirname(tu), ".clang-tidy")
        if t["block"]:
            with open(tidy + ".tmp", "w") as f:
                f.write("CheckOptions:\n  warplint-divergent-branch.AssumedBlockSize: "
                        f"'{int(t['block'])}'\n")
            os.replace(tidy + ".tmp", tidy)
        elif os.path.exists(tidy):
            os.remove(tidy)
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as out:
            outname = out.name
        cmd = [a.warplint, "check", "--checks=-*,warplint-divergent-branch",
               "--registers-from", "none", "--allow-errors", "--no-cache", "--format", "json",
               "-o", outname, "-j", "1", tu, "--"] + args
        r = subprocess.run(cmd, capture_output=True, text=True)
        try:
            data = json.load(open(outname))
        except (OSError, ValueError):
            data = None
        os.unlink(outname)
        if r.returncode not in (0, 1) or data is None or data.get("files_failed"):
            failed.append(t["tu"])
            print(f"FAILED {t['repo']} {t['tu']} (exit {r.returncode}): {r.stderr.strip()[-400:]}",
                  file=sys.stderr)
            continue
        for fd in data.get("findings", []):
            if fd.get("check") != "warplint-divergent-branch":
                continue
            places = [(fd["file"], fd["line"], fd["message"])]
            places += [(n["file"], n["line"], fd["message"]) for n in fd.get("notes", [])
                       if "grouped in the finding at line" in n["message"]]
            for path, line, message in places:
                path = os.path.relpath(os.path.abspath(path), root)
                findings.setdefault((t["repo"], path, int(line)), []).append(message)
                severity.setdefault((t["repo"], path, int(line)), fd.get("severity", ""))
        if os.path.exists(tidy):
            os.remove(tidy)
    if failed:
        die(f"{len(failed)} translation units were not analysed: no score")

    tp = fp = fn = tn = 0
    results = []
    labelled = set()
    for L in labels:
        key = (L["repo"], L["file"], int(L["line"]))
        labelled.add(key)
        got = key in findings
        want = L["expected"] == "warn"
        tp += got and want
        fp += got and not want
        fn += want and not got
        tn += not want and not got
        verdict = {(True, True): "TP", (True, False): "FP", (False, True): "FN",
                   (False, False): "TN"}[(got, want)]
        results.append(dict(L, verdict=verdict, messages=findings.get(key, []),
                            severity=severity.get(key, "")))
        if a.verbose or verdict in ("FP", "FN"):
            msg = findings.get(key, [""])[0]
            print(f"{verdict} {L['repo']} {L['file']}:{L['line']} {L['kernel']}: {L['reason']}"
                  + (f"\n    {msg}" if msg else ""))
    extra = sorted(k for k in findings if k not in labelled)
    for k in extra:
        print(f"UNLABELLED finding {k[0]} {k[1]}:{k[2]}: {findings[k][0]}")
    warn = sum(L["expected"] == "warn" for L in labels)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    print(f"labels {len(labels)} (warn {warn}, silent {len(labels) - warn}) in {len(tus)} TUs; "
          f"findings on labelled lines {tp + fp}, unlabelled {len(extra)}")
    print(f"TP {tp} FP {fp} FN {fn} TN {tn}; precision {precision:.3f} recall {recall:.3f}")
    tp_warn = sum(r["verdict"] == "TP" and r["severity"] == "warning" for r in results)
    print(f"TP as warnings {tp_warn}, as notes {tp - tp_warn}; recall counting warnings only "
          f"{tp_warn / (tp + fn) if tp + fn else 1.0:.3f}")
    for r in results:
        if r["verdict"] == "TP" and r["severity"] != "warning":
            print(f"  TP as a note: {r['repo']} {r['file']}:{r['line']} {r['kernel']}: "
                  f"{r['messages'][0]}")
    if a.json:
        tmp = a.json + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"precision": precision, "recall": recall, "tp": tp, "fp": fp, "fn": fn,
                       "tn": tn, "labels": results,
                       "unlabelled": [list(k) + [findings[k]] for k in extra]}, f, indent=1)
        os.replace(tmp, a.json)


if __name__ == "__main__":
    main()
