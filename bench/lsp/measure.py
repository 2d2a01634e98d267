#!/usr/bin/env python3
"""Latency of `warplint lsp`: a saved file's diagnostics against `warplint check` on it.

usage: measure.py WARPLINT FILE [-n N] [-p BUILD]

Two cases, N rounds each, one warplint process per `check` run and one server for the
whole session (as an editor keeps it):

- warm: the saved file has the contents nvcc's register figures were cached for (the
  cache is filled first), and the result cache is off (--no-cache for both), so every run
  parses and analyses: `warplint check --no-cache FILE` (wall time of the process) against
  didSave -> publishDiagnostics of the server started with --no-cache --debounce 0.
- edit: each round appends a new declaration to the file first (new tokens: the result
  and register caches miss), so `check` runs nvcc; the server publishes at once without
  the register limit and again once nvcc ran: both times are given.

Prints the medians and each round's figures. The file is restored at the end.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "tests", "lsp"))
from lspclient import Client, initialize, open_file, uri  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("warplint")
ap.add_argument("file")
ap.add_argument("-n", type=int, default=5)
ap.add_argument("-p", dest="build", default="")
a = ap.parse_args()
warplint, path = os.path.abspath(a.warplint), os.path.abspath(a.file)
original = open(path).read()
cache = tempfile.mkdtemp(prefix="warplint-lsp-bench-")
env = dict(os.environ, XDG_CACHE_HOME=cache)
db = ["-p", a.build] if a.build else []
lsp_db = ["--compile-commands-dir", os.path.abspath(a.build)] if a.build else []


def check(*extra):
    t = time.perf_counter()
    p = subprocess.run([warplint, "check", *db, *extra, path], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    dt = time.perf_counter() - t
    if p.returncode == 2:
        sys.exit("warplint check failed:\n" + p.stderr)
    return dt


def save(client):
    for m in client.seen:
        m["_taken"] = True
    t = time.perf_counter()
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri(path)}})
    client.diagnostics(uri(path), timeout=600)
    return time.perf_counter() - t


def publishes_after(client, t0, timeout):
    """Times of the file's publishes after t0 until one carries nvcc's registers: the
    server logs 'not cached yet' just before a publish without them."""
    for m in client.seen:
        m["_taken"] = True  # nothing from before this save counts
    times, partial = [], False
    while True:
        m = client.wait(lambda m: (m.get("method") == "textDocument/publishDiagnostics" and
                                   m["params"]["uri"] == uri(path)) or
                        (m.get("method") == "window/logMessage" and
                         "not cached yet" in m["params"]["message"]), timeout, "a publish")
        if m["method"] == "window/logMessage":
            partial = True
            continue
        times.append(time.perf_counter() - t0)
        if not partial:
            return times
        partial = False


try:
    check()  # fills the register cache for the current contents
    client = Client([warplint, "lsp", "--no-cache", "--debounce", "0", *lsp_db], env=env)
    initialize(client, os.path.dirname(path))
    open_file(client, path)
    client.diagnostics(uri(path), timeout=600)

    warm_check, warm_lsp = [], []
    for _ in range(a.n):
        warm_check.append(check("--no-cache"))
        warm_lsp.append(save(client))
    edit_check, edit_first, edit_final = [], [], []
    # A declaration with a new name each time: new tokens, so nvcc's cached figures (keyed
    # by what the front end saw, not by comments) do not apply.
    stamp = int(time.time() * 1000)
    for i in range(a.n):
        with open(path, "a") as f:
            f.write("static const int warplint_lsp_bench_%d_%d_check = %d;\n" % (stamp, i, i))
        edit_check.append(check())
        with open(path, "a") as f:
            f.write("static const int warplint_lsp_bench_%d_%d_lsp = %d;\n" % (stamp, i, i))
        t0 = time.perf_counter()
        client.notify("textDocument/didSave", {"textDocument": {"uri": uri(path)}})
        times = publishes_after(client, t0, 600)
        edit_first.append(times[0])
        edit_final.append(times[-1])
    client.call("shutdown")
    client.notify("exit")
    client.exit_code()
finally:
    with open(path, "w") as f:
        f.write(original)

fmt = lambda xs: " ".join("%.2f" % x for x in xs)
med = statistics.median
print("file: %s (%d rounds)" % (path, a.n))
print("warm register cache, no result cache:")
print("  warplint check        median %.2f s  [%s]" % (med(warm_check), fmt(warm_check)))
print("  lsp didSave->publish  median %.2f s  [%s]" % (med(warm_lsp), fmt(warm_lsp)))
print("  lsp / check           %.2f" % (med(warm_lsp) / med(warm_check)))
print("after an edit (nvcc runs):")
print("  warplint check        median %.2f s  [%s]" % (med(edit_check), fmt(edit_check)))
print("  lsp first publish     median %.2f s  [%s]" % (med(edit_first), fmt(edit_first)))
print("  lsp with registers    median %.2f s  [%s]" % (med(edit_final), fmt(edit_final)))
