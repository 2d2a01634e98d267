#!/usr/bin/env python3
"""The fix-its warplint offers on a real corpus, each applied and checked: for every
finding with a fix-it in FILES (paths of the compile database DB), the file is copied to
WORK with the fix applied (the corpus itself is never touched), compiled by the
database's own command (nvcc -c, with the original directory on the include path so its
quoted includes resolve), and analysed again by warplint with the same command: the
finding the fix was for must be gone and no new finding of the check may appear.

usage: fix-corpus.py WARPLINT DB WORK [--checks GLOBS] [--arch sm_80] FILE...
Prints one line per fix and a summary; exit 1 when a fix does not compile or leaves its
finding.
"""
import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("warplint")
ap.add_argument("db")
ap.add_argument("work")
ap.add_argument("--checks", default="-*,warplint-shared-bank-conflict")
ap.add_argument("--arch", default="sm_80")
ap.add_argument("files", nargs="+")
a = ap.parse_args()
warplint = os.path.abspath(a.warplint)
db = os.path.abspath(a.db)
shutil.rmtree(a.work, ignore_errors=True)
os.makedirs(a.work)
work = os.path.abspath(a.work)
entries = {os.path.join(e["directory"], e["file"]): e
           for e in json.load(open(os.path.join(db, "compile_commands.json")))}


def analyse(dbdir, files, out):
    subprocess.run([warplint, "check", "-p", dbdir, "--arch", a.arch, "--checks", a.checks,
                    "--registers-from", "none", "--no-cache", "-j2", "--format", "json",
                    "-o", out, *files], capture_output=True, text=True)
    return json.load(open(out))


files = [os.path.abspath(f) for f in a.files]
before = analyse(db, files, os.path.join(work, "before.json"))
offered = [f for f in before["findings"] if f.get("fixes")]
print("%d findings, %d with a fix-it, in %d files" % (len(before["findings"]), len(offered),
                                                      len(files)))
bad = 0
for n, f in enumerate(offered):
    src = os.path.join(os.getcwd(), f["file"]) if not os.path.isabs(f["file"]) else f["file"]
    e = entries[src]
    text = open(src, "rb").read()
    for x in sorted(f["fixes"], key=lambda x: -x["offset"]):
        text = text[:x["offset"]] + x["replacement"].encode() + text[x["offset"] + x["length"]:]
    d = os.path.join(work, "fix%d" % n)
    os.makedirs(d)
    fixed = os.path.join(d, os.path.basename(src))
    open(fixed, "wb").write(text)
    # The database's command on the fixed copy: its object in WORK, the original
    # directory first on the include path.
    args = e["arguments"] if "arguments" in e else shlex.split(e["command"])
    rel = os.path.relpath(src, e["directory"])
    out = []
    skip = False
    for i, x in enumerate(args):
        if skip:
            skip = False
            continue
        if x == "-o":
            skip = True
            continue
        out.append(fixed if x in (rel, src) else x)
    cmd = out[:1] + ["-I" + os.path.dirname(src)] + out[1:] + ["-o", os.path.join(d, "fixed.o")]
    c = subprocess.run(cmd, cwd=e["directory"], capture_output=True, text=True)
    with open(os.path.join(d, "compile_commands.json"), "w") as j:
        json.dump([{"directory": e["directory"], "file": fixed, "arguments": cmd}], j)
    after = analyse(d, [fixed], os.path.join(d, "after.json"))
    left = [g for g in after["findings"] if g["check"] == f["check"] and g["line"] == f["line"]]
    new = len([g for g in after["findings"] if g["check"] == f["check"]])
    old = len([g for g in before["findings"] if g["check"] == f["check"] and
               os.path.abspath(g["file"]) == os.path.abspath(f["file"])])
    edit = ", ".join("line %d: '%s'" % (x["line"], x["replacement"]) for x in f["fixes"])
    ok = c.returncode == 0 and not left and new < old
    bad += not ok
    print("%s %s:%d [%s] %s -> nvcc %s, finding %s, %d -> %d findings of the check in the file"
          % ("ok  " if ok else "FAIL", f["file"], f["line"], f["check"], edit,
             "ok" if c.returncode == 0 else "FAILED (%s)" % c.stderr.strip()[-300:],
             "gone" if not left else "LEFT", old, new))
print("%d fixes applied, %d compiled with their finding gone" % (len(offered), len(offered) - bad))
sys.exit(1 if bad else 0)
