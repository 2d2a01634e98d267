#!/usr/bin/env python3
"""Times `warplint check` against clang's parse, file by file, over a compile database.

usage: bench/check/measure_db.py [-n RUNS] [-j JOBS] [-w WARPLINT] [--arch sm_XX]
           [--files REGEX] [--every K]
           [--registers-from nvcc|none] [--cache-dir DIR] [--tsv FILE] BUILD

BUILD/compile_commands.json may hold nvcc commands: `warplint compdb` translates them into
the clang commands warplint itself runs (device side of --arch, default sm_86, with
warplint's CUDA compatibility header). For each file, the median of RUNS runs (default 3,
one process per run, parse and check alternating) of
  parse:  clang++-22 -fsyntax-only with the translated arguments, in the entry's directory
  check:  warplint check -p BUILD --files '^FILE$' --arch ARCH -j 1 --registers-from SRC
          --cache-dir DIR --format json
and check/parse, in wall-clock and in CPU (user + sys of the process and the children it
waited for) seconds; then the median and the largest ratio and the totals.

Registers (--registers-from, default nvcc, warplint's default on a real toolkit) come from
DIR's register cache. A file's first timed check that takes over 1.25x the CPU of its
parse may have run nvcc (its entry not yet in DIR) or met a burst of load: that pair of
runs is dropped and one more is made, so every kept check found its registers in the
cache (--warm-up: one untimed check of every file first instead). warplint's result cache (DIR/results) is emptied before every timed check:
each one analyses the file and writes its entry, as a run after an edit does; otherwise
every run after the first would be a cache hit. DIR defaults to a temporary directory
(cold registers on the warm-up); pass a kept one to reuse nvcc's counts between runs.
-j JOBS measures that many files at once (each process is timed on its own CPU use).
Files that clang does not parse, or that warplint does not analyse (exit 2), are listed
and left out.
"""
import argparse
import json
import os
import re
import shutil
import threading
from concurrent.futures import ThreadPoolExecutor
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def timed(cmd, cwd):
    """Wall-clock and CPU (user + sys, with the children it waited for) seconds of CMD."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    return time.monotonic() - start, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


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


RETIME = 1.25


def measure(e, a, root, many, results):
    """One file's row, or a line saying why it is left out."""
    name = os.path.relpath(e["file"], root) if many else os.path.basename(e["file"])
    parse = [a.clang, "-fsyntax-only"] + parse_args(e) + [e["file"]]
    check = [a.w, "check", "-p", a.build, "--files", "^" + re.escape(e["file"]) + "$",
             "--arch", a.arch, "-j", "1", "--registers-from", a.registers_from,
             "--cache-dir", a.cache_dir, "--format", "json"]
    if a.warm_up:
        rc = subprocess.run(check, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        if rc > 1:
            return name, "skipped (warplint check exits %d)" % rc
    p, c, retimed = [], [], a.warm_up
    while len(c) < a.n:
        wall, cpu, prc = timed(parse, e["directory"])
        if prc != 0:
            return name, "skipped (clang++ -fsyntax-only fails)"
        p.append((wall, cpu))
        shutil.rmtree(results, ignore_errors=True)
        wall, cpu, rc = timed(check, None)
        if rc > 1:
            return name, "skipped (warplint check exits %d)" % rc
        c.append((wall, cpu))
        if not retimed and cpu > RETIME * p[-1][1]:
            # Over RETIME on the first run: nvcc may have run (a register entry not yet in
            # DIR) or the load jumped. Drop the pair once; the runs after it are warm.
            p, c, retimed = p[:-1], c[:-1], True
    pt, pc = statistics.median(x[0] for x in p), statistics.median(x[1] for x in p)
    ct, cc = statistics.median(x[0] for x in c), statistics.median(x[1] for x in c)
    return name, (name, pt, ct, ct / pt, pc, cc, cc / pc)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-n", type=int, default=3, help="runs per file and tool (default 3)")
    p.add_argument("-j", type=int, default=1, help="files measured at once (default 1)")
    p.add_argument("-w", default=os.environ.get("WARPLINT", os.path.join(HERE, "build/bin/warplint")))
    p.add_argument("--arch", default="sm_86")
    p.add_argument("--files", default="", help="only files whose path matches")
    p.add_argument("--every", type=int, default=1,
                   help="a sample: every K-th file in path order (after --files), from the first")
    p.add_argument("--registers-from", default="nvcc", choices=["nvcc", "none"])
    p.add_argument("--cache-dir", default="", help="warplint's cache directory (default: a temporary one)")
    p.add_argument("--warm-up", action="store_true",
                   help="one untimed check of each file first (default: only when its first "
                        "timed check is over 1.25x the parse)")
    p.add_argument("--tsv", default="", help="also write the rows to this file")
    p.add_argument("--clang", default=os.environ.get("CLANGXX", "clang++-22"))
    p.add_argument("build")
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([a.w, "compdb", "-p", a.build, "-o", tmp, "--arch", a.arch], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(os.path.join(tmp, "compile_commands.json")) as f:
            entries = json.load(f)
        if not a.cache_dir:
            a.cache_dir = os.path.join(tmp, "cache")
        entries = sorted((e for e in entries if re.search(a.files, e["file"])), key=lambda e: e["file"])
        entries = entries[::max(1, a.every)]
        root = os.path.commonpath([e["file"] for e in entries]) if entries else ""
        rows = []
        print("%-40s %8s %8s %7s   %8s %8s %7s" % ("file", "parse_s", "check_s", "ratio",
                                                 "parse_c", "check_c", "ratio_c"), flush=True)
        lock = threading.Lock()

        def one(job):
            i, e = job
            # With -j 2 a worker may empty DIR/results while the other's check writes its
            # entry (that write then fails, warned): no check can read an entry of its own
            # file, since each worker empties the directory just before its timed check.
            work = os.path.join(a.cache_dir, "results")
            name, row = measure(e, a, root, len(entries) > 1, work)
            with lock:
                if isinstance(row, str):
                    print("%-40s %s" % (name, row), flush=True)
                else:
                    rows.append(row)
                    print("%-40s %8.3f %8.3f %7.3f   %8.3f %8.3f %7.3f" % row, flush=True)

        with ThreadPoolExecutor(max_workers=max(1, a.j)) as pool:
            list(pool.map(one, enumerate(entries)))
    if not rows:
        sys.exit("no file parsed")
    if a.tsv:
        with open(a.tsv, "w") as f:
            f.write("file\tparse_s\tcheck_s\tratio\tparse_c\tcheck_c\tratio_c\n")
            for r in sorted(rows):
                f.write("%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\n" % r)
    for label, t in (("wall-clock", 1), ("CPU", 4)):
        worst = max(rows, key=lambda r: r[t + 2])
        tp, tc = sum(r[t] for r in rows), sum(r[t + 1] for r in rows)
        print("%s: files %d  median ratio %.3f  largest %.3f (%s)  total parse %.1f s  "
              "total check %.1f s  total ratio %.3f"
              % (label, len(rows), statistics.median(r[t + 2] for r in rows), worst[t + 2],
                 worst[0], tp, tc, tc / tp))


if __name__ == "__main__":
    main()
