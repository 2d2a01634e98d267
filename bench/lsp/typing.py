#!/usr/bin/env python3
"""Latency of `warplint lsp` as you type: didOpen's first publish, and an edit's
diagnostics, before and after the preamble worker; memory per open file.

usage: typing.py WARPLINT FILE... [--before OLD_WARPLINT] [-n N] [--arch sm_86]

One server per binary for the whole session (as an editor keeps it), every file opened in
both in turn (the old server first, then the new) and kept open. Both servers run with --no-cache (the result cache would answer
a file seen before), --registers-from none (nvcc's figures come in a second publish in
both and would load the machine between measurements) and --debounce 0 (the figures are
the time after the quiet time).

- open: didOpen -> the first publishDiagnostics of the file.
- edit, N rounds: a new declaration appended to the file's text. WARPLINT (which answers
  didChange): didChange with the unsaved text -> publish, after the worker has built the
  file's preamble (its log line is waited for). OLD_WARPLINT (which drops didChange): the
  text written to disk and didSave -> publish, the only way it gives an edit's diagnostics.
  The file is put back at the end.
- worker cpu: the preamble worker's CPU time (user + system, /proc/PID/stat, in clock
  ticks of 10 ms) during each edit, median: the edit's own cost, which a loaded machine
  does not stretch as it does the wall-clock time.
- memory: the preamble worker's resident memory (/proc/PID/status VmRSS) and the size of
  its PCH files (as its log says) as each file is opened, so the growth per open file.
"""
import argparse
import os
import re
import statistics
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "tests", "lsp"))
from lspclient import Client, initialize, open_file, uri  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("warplint")
ap.add_argument("files", nargs="+")
ap.add_argument("--before", default="")
ap.add_argument("-n", type=int, default=5)
ap.add_argument("--arch", default="sm_86")
a = ap.parse_args()
files = [os.path.abspath(f) for f in a.files]
originals = {f: open(f).read() for f in files}
env = dict(os.environ, XDG_CACHE_HOME=tempfile.mkdtemp(prefix="warplint-typing-"))


def cpu_s(pid):
    """The process' CPU time (user + system) in seconds, from /proc/PID/stat."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return float("nan")


def rss_kib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class Session:
    """One server for the whole run; measure(f) opens f in it and times the edits."""

    def __init__(self, warplint, typing):
        self.typing, self.worker, self.memory, self.out = typing, None, [], {}
        self.c = Client([warplint, "lsp", "--no-cache", "--debounce", "0", "--registers-from",
                         "none", "--arch", a.arch], env=env)
        initialize(self.c, os.path.dirname(files[0]))

    def measure(self, f):
        c, name = self.c, os.path.basename(f)
        for m in c.seen:
            m["_taken"] = True
        t = time.perf_counter()
        open_file(c, f)
        c.diagnostics(uri(f), timeout=900)
        opened = time.perf_counter() - t
        note = ""
        if self.typing:
            said = c.message("window/logMessage", name + ": preamble ", timeout=900)["message"]
            note = said.split(": preamble ", 1)[1].split(";")[0]
            pch = float(re.search(r"its preambles ([\d.]+) MB", said).group(1)) * 1e6
            if self.worker is None:
                self.worker = int(re.search(r"pid (\d+)", c.message(
                    "window/logMessage", "preamble worker started (pid")["message"]).group(1))
            self.memory.append((name, rss_kib(self.worker), pch))
        edits, cpus = [], []
        for i in range(a.n):
            text = originals[f] + "\nstatic const int warplint_typing_%d = %d;\n" % (i, i)
            for m in c.seen:
                m["_taken"] = True
            t = time.perf_counter()
            c0 = cpu_s(self.worker) if self.typing else 0.0
            if self.typing:
                c.notify("textDocument/didChange", {
                    "textDocument": {"uri": uri(f), "version": i + 2},
                    "contentChanges": [{"text": text}]})
            else:
                with open(f, "w") as w:
                    w.write(text)
                c.notify("textDocument/didSave", {"textDocument": {"uri": uri(f)}})
            c.diagnostics(uri(f), timeout=900)
            edits.append(time.perf_counter() - t)
            cpus.append(cpu_s(self.worker) - c0 if self.typing else float("nan"))
        if not self.typing:
            with open(f, "w") as w:
                w.write(originals[f])
        else:
            used = [m for m in c.messages("window/logMessage")
                    if name + ": unsaved text analysed" in m]
            note += "; %d of %d edits with the preamble" % (
                sum("with a preamble" in m for m in used), len(used))
        self.out[f] = (opened, edits, note, cpus)

    def close(self):
        server_rss = rss_kib(self.c.proc.pid)
        self.c.call("shutdown")
        self.c.notify("exit")
        self.c.exit_code()
        return self.out, self.memory, server_rss


# Both servers live through the run and each file is measured in one, then in the other
# (the before server first): a machine whose load drifts weighs on both alike.
try:
    old = Session(os.path.abspath(a.before), False) if a.before else None
    new = Session(os.path.abspath(a.warplint), True)
    for f in files:
        if old:
            old.measure(f)
        new.measure(f)
    before = old.close() if old else None
    after = new.close()
finally:
    for f, text in originals.items():
        with open(f, "w") as w:
            w.write(text)

med = statistics.median
print("%-28s %8s %8s %10s %10s %8s  %s" % ("file", "open", "open", "edit", "edit", "worker",
                                           "preamble"))
print("%-28s %8s %8s %10s %10s %8s" % ("", "before", "after", "before", "after", "cpu"))
ob, oa, eb, ea, ec = [], [], [], [], []
for f in files:
    o2, e2, note, c2 = after[0][f]
    o1, e1 = (before[0][f][0], med(before[0][f][1])) if before else (float("nan"),) * 2
    ob.append(o1)
    oa.append(o2)
    eb.append(e1)
    ea.append(med(e2))
    ec.append(med(c2))
    print("%-28s %7.2fs %7.2fs %9.2fs %9.2fs %7.2fs  %s" % (os.path.basename(f)[:28], o1, o2, e1,
                                                            med(e2), med(c2), note))
print("%-28s %7.2fs %7.2fs %9.2fs %9.2fs %7.2fs" % ("median of the files", med(ob), med(oa),
                                                    med(eb), med(ea), med(ec)))
print("edit after, every round: " + " ".join("%.2f" % x for f in files for x in after[0][f][1]))
print("\npreamble worker memory as files are opened (resident, PCH files on disk):")
prev = None
for name, rss, pch in after[1]:
    print("  %-28s %6.0f MB resident  %6.1f MB PCH%s" % (
        name[:28], rss / 1024, pch / 1e6,
        "" if prev is None else "  (+%.0f MB resident)" % ((rss - prev) / 1024)))
    prev = rss
n = len(after[1])
if n > 1:
    print("  per open file after the first: %.0f MB resident, %.1f MB PCH" % (
        (after[1][-1][1] - after[1][0][1]) / 1024 / (n - 1), after[1][-1][2] / 1e6 / n))
print("server process resident: before %s MB, after %.0f MB" % (
    "%.0f" % (before[2] / 1024) if before else "-", after[2] / 1024))
