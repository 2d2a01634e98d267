#!/usr/bin/env python3
"""The fix-its warplint offers on a real corpus, each applied and checked: for every
finding with a fix-it in FILES (paths of the compile database DB), the file is copied to
WORK with the fix applied (the corpus itself is never touched), compiled by the
database's own command (nvcc -c, with the original directory on the include path so its
quoted includes resolve), and analysed again by warplint with the same command: the
finding the fix was for must be gone and no new finding of the check may appear.

usage: fix-corpus.py WARPLINT DB WORK [--checks GLOBS] [--arch sm_80]
                     [--registers-from nvcc --cache-dir DIR] FILE...
Prints one line per fix and a summary; exit 1 when a fix does not compile or leaves its
finding.

With --registers-from nvcc (the register advice checked by the compiler: the
__launch_bounds__ fix-its of warplint-occupancy and warplint-occupancy-cliff), the fixed
copy's compile runs with -Xptxas -v, and the kernel's registers and spill for --arch are
read from ptxas's report: the fix holds when ptxas gives no spill and at most the
registers the advice asked for (the blocks/SM the what-if verified). --cache-dir is given
to warplint (the corpus run's cache answers the "before" analysis).
"""
import argparse
import json
import os
import re
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
ap.add_argument("--registers-from", default="none")
ap.add_argument("--cache-dir")
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
                    "--registers-from", a.registers_from, "--no-cache", "-j2", "--format",
                    "json", "-o", out, *files] +
                   (["--cache-dir", a.cache_dir] if a.cache_dir else []),
                   capture_output=True, text=True)
    return json.load(open(out))


def ptxas_figures(log, kernel, arch):
    """(registers, spill store bytes, spill load bytes) of KERNEL for ARCH in a ptxas -v
    report (nvcc's stderr), or None."""
    lines = log.splitlines()
    for i, line in enumerate(lines):
        if "entry function '%s' for '%s'" % (kernel, arch) not in line:
            continue
        regs = spill = None
        for x in lines[i + 1:i + 8]:
            m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", x)
            if m:
                spill = (int(m.group(1)), int(m.group(2)))
            m = re.search(r"Used (\d+) registers", x)
            if m:
                regs = int(m.group(1))
                break
        if regs is not None:
            return (regs,) + (spill or (0, 0))
    return None


def verified_for(run, f):
    """The launch record with the what-if's answer that finding F quotes, or None."""
    for l in run["launches"]:
        v = l.get("verified_advice")
        if (v and os.path.abspath(l["file"]) == os.path.abspath(f["file"]) and
                l["line"] == f["line"] and "'%s'" % l["kernel"] in f["message"]):
            return l
    return None


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
    record = verified_for(before, f)
    c = subprocess.run(cmd + (["-Xptxas", "-v"] if record else []), cwd=e["directory"],
                       capture_output=True, text=True)
    with open(os.path.join(d, "compile_commands.json"), "w") as j:
        json.dump([{"directory": e["directory"], "file": fixed, "arguments": cmd}], j)
    after = analyse(d, [fixed], os.path.join(d, "after.json"))
    left = [g for g in after["findings"] if g["check"] == f["check"] and g["line"] == f["line"]]
    new = len([g for g in after["findings"] if g["check"] == f["check"]])
    old = len([g for g in before["findings"] if g["check"] == f["check"] and
               os.path.abspath(g["file"]) == os.path.abspath(f["file"])])
    edit = ", ".join("line %d: '%s'" % (x["line"], x["replacement"]) for x in f["fixes"])
    ok = c.returncode == 0 and not left and new < old
    held = ""
    if record:
        v = record["verified_advice"]
        got = ptxas_figures(c.stderr, record.get("mangled_kernel") or record["kernel"], a.arch)
        if got is None:
            held = ", ptxas: no report for the kernel"
            ok = False
        else:
            holds = got[1] == 0 and got[2] == 0 and got[0] <= v["asked_registers"]
            held = (", ptxas -v: %d registers, %d/%d bytes spill (what-if: %s registers, "
                    "%s/%s; asked <= %d): %s" % (got[0], got[1], got[2], v["registers"],
                                                  v["spill_store_bytes"], v["spill_load_bytes"],
                                                  v["asked_registers"],
                                                  "holds" if holds else "DOES NOT HOLD"))
            ok = ok and holds
    bad += not ok
    print("%s %s:%d [%s] %s -> nvcc %s, finding %s, %d -> %d findings of the check in the file"
          % ("ok  " if ok else "FAIL", f["file"], f["line"], f["check"], edit,
             "ok" if c.returncode == 0 else "FAILED (%s)" % c.stderr.strip()[-300:],
             "gone" if not left else "LEFT", old, new) + held)
print("%d fixes applied, %d compiled with their finding gone" % (len(offered), len(offered) - bad))
sys.exit(1 if bad else 0)
