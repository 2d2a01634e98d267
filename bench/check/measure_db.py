#!/usr/bin/env python3
"""Times `warplint check` against clang's parse, file by file, over a compile database.

usage: bench/check/measure_db.py [-n RUNS] [-w WARPLINT] [--arch sm_XX] [--files REGEX] BUILD

BUILD/compile_commands.json may hold nvcc commands: `warplint compdb` translates them into
the clang commands warplint itself runs (device side of --arch, default sm_86, with
warplint's CUDA compatibility header). For each file, the median of RUNS runs (default 3,
one process per run) of
  parse:  clang++-22 -fsyntax-only with the translated arguments, in the entry's directory
  check:  warplint check -p BUILD --files '^FILE$' --arch ARCH -j 1 --registers-from none
          --format json
and check/parse, in wall-clock and in CPU (user + sys) seconds; then the median and the
largest ratio and the totals. Files that clang does not parse, or that warplint does not
analyse (exit 2), are listed and left out.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def median_time(cmd, cwd, runs):
    """Median wall-clock and median CPU (user + sys) seconds of RUNS runs of CMD."""
    walls, cpus = [], []
    for _ in range(runs):
        start = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(proc.pid, 0)
        walls.append(time.monotonic() - start)
        cpus.append(usage.ru_utime + usage.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def parse_args(entry):
    """The clang arguments of a translated entry, without the compiler, -c, -o and the file."""
    args = entry["arguments"][1:]
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "-o":
            skip = True
            continue
        if a == "-c" or os.path.realpath(os.path.join(entry["directory"], a)) == \
                os.path.realpath(entry["file"]):
            continue
        out.append(a)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-n", type=int, default=3, help="runs per file and tool (default 3)")
    p.add_argument("-w", default=os.environ.get("WARPLINT", os.path.join(HERE, "build/bin/warplint")))
    p.add_argument("--arch", default="sm_86")
    p.add_argument("--files", default="", help="only files whose path matches")
    p.add_argument("--clang", default=os.environ.get("CLANGXX", "clang++-22"))
    p.add_argument("build")
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([a.w, "compdb", "-p", a.build, "-o", tmp, "--arch", a.arch], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(os.path.join(tmp, "compile_commands.json")) as f:
            entries = json.load(f)
    entries = sorted((e for e in entries if re.search(a.files, e["file"])), key=lambda e: e["file"])
    root = os.path.commonpath([e["file"] for e in entries]) if entries else ""
    rows = []
    print("%-40s %8s %8s %7s   %8s %8s %7s" % ("file", "parse_s", "check_s", "ratio",
                                             "parse_c", "check_c", "ratio_c"))
    for e in entries:
        name = os.path.relpath(e["file"], root) if len(entries) > 1 else os.path.basename(e["file"])
        parse = [a.clang, "-fsyntax-only"] + parse_args(e) + [e["file"]]
        check = [a.w, "check", "-p", a.build, "--files", "^" + re.escape(e["file"]) + "$",
                 "--arch", a.arch, "-j", "1", "--registers-from", "none", "--format", "json"]
        if subprocess.run(parse, cwd=e["directory"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode != 0:
            print("%-40s skipped (clang++ -fsyntax-only fails)" % name, flush=True)
            continue
        rc = subprocess.run(check, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        if rc > 1:
            print("%-40s skipped (warplint check exits %d)" % (name, rc), flush=True)
            continue
        (pt, pc), (ct, cc) = median_time(parse, e["directory"], a.n), median_time(check, None, a.n)
        rows.append((name, pt, ct, ct / pt, pc, cc, cc / pc))
        print("%-40s %8.3f %8.3f %7.3f   %8.3f %8.3f %7.3f" % rows[-1], flush=True)
    if not rows:
        sys.exit("no file parsed")
    for label, t in (("wall-clock", 1), ("CPU", 4)):
        worst = max(rows, key=lambda r: r[t + 2])
        tp, tc = sum(r[t] for r in rows), sum(r[t + 1] for r in rows)
        print("%s: files %d  median ratio %.3f  largest %.3f (%s)  total parse %.1f s  "
              "total check %.1f s  total ratio %.3f"
              % (label, len(rows), statistics.median(r[t + 2] for r in rows), worst[t + 2],
                 worst[0], tp, tc, tc / tp))


if __name__ == "__main__":
    main()
