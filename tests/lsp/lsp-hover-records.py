#!/usr/bin/env python3
"""warplint lsp's hovers on branches and sync calls: on a thread-dependent branch the hover
gives the branch record's lanes per block shape (warps that diverge, predicted branch
efficiency, lanes taking it), its verdict (the idiom that keeps a silent one silent, why a
note is a note) and the finding that stands for it with its impact; on a barrier or a
warp-synchronous call the sync record's threads that skip it or named lanes absent, and
its cause; on either access of a data race the race record's word, two threads and
accesses, block, certainty, barrier and impact. Every figure is held against `warplint
check --format json` on the same files (tests/differential/Inputs/branches.cu and
races.cu); a line with no record has no hover.

usage: lsp-hover-records.py WARPLINT SOURCE_DIR WORK_DIR
"""
import json
import math
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Client, initialize, open_file, uri  # noqa: E402

warplint, source, work = sys.argv[1:4]
warplint, source = os.path.abspath(warplint), os.path.abspath(source)
mock = os.path.join(source, "tests", "Inputs", "cuda")

shutil.rmtree(work, ignore_errors=True)
proj = os.path.join(work, "proj")
os.makedirs(os.path.join(proj, "build"))
src = os.path.join(proj, "branches.cu")
shutil.copy(os.path.join(source, "tests", "differential", "Inputs", "branches.cu"), src)
races_src = os.path.join(proj, "races.cu")
shutil.copy(os.path.join(source, "tests", "differential", "Inputs", "races.cu"), races_src)
args = ["clang++", "-x", "cuda", "-nocudainc", "-nocudalib", "-isystem", mock, "-include",
        "cuda_runtime.h", "--cuda-device-only", "--cuda-gpu-arch=sm_86", "-std=c++17", "-c"]
build = os.path.join(proj, "build")
with open(os.path.join(build, "compile_commands.json"), "w") as f:
    json.dump([{"directory": proj, "file": f_, "arguments": args + [f_]} for f_ in (src, races_src)], f)
env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


p = subprocess.run([warplint, "check", "--format", "json", "-p", build, src],
                   capture_output=True, text=True, env=env)
js = json.loads(p.stdout)
branches, syncs = js["branches"], js["sync_calls"]
findings = {(f["line"], f["column"]): f for f in js["findings"]}
check(any(b["severity"] == "warning" for b in branches), "a warning branch in the input")
check(any(b["severity"] == "note" for b in branches), "a note branch in the input")
check(any(b["severity"] == "silent" and b["idiom"] for b in branches),
      "a branch an idiom keeps silent in the input")
check({s["check"] for s in syncs} == {"warplint-barrier-divergence", "warplint-warp-sync-mask"},
      "a barrier and a mask record in the input: %s" % [s["check"] for s in syncs])

client = Client([warplint, "lsp", "--debounce", "50"], cwd=work, env=env)
initialize(client, proj)
open_file(client, src)
client.diagnostics(uri(src))


def hover(line, column, path=src):
    """The hover at 1-based line and column (ASCII source: bytes are characters)."""
    r = client.call("textDocument/hover", {"textDocument": {"uri": uri(path)},
                                           "position": {"line": line - 1, "character": column - 1}})
    check("error" not in r, "hover answered: %s" % r)
    return r.get("result")


def pct(f):
    return "%d%%" % math.floor(100 * f + 0.5)


for b in branches:
    h = hover(b["line"], b["column"])
    where = "branch %d:%d %r" % (b["line"], b["column"], b["condition"])
    check(h is not None, where + ": a hover")
    if not h:
        continue
    text = h["contents"]["value"]
    check(h["range"]["start"] == {"line": b["line"] - 1, "character": b["column"] - 1},
          where + ": the hover's range starts at the condition")
    check("`%s`" % b["condition"] in text and "`%s`" % b["kernel"] in text,
          where + ": condition and kernel: " + text)
    check("**%s**" % b["severity"] in text, where + ": severity " + b["severity"])
    if b["severity"] == "silent" and b["idiom"]:
        check("kept silent by `%s`" % b["idiom"] in text, where + ": the idiom " + b["idiom"])
    for why in b["note_reasons"]:
        check("a note, not a warning: " + why in text, where + ": the note's reason")
    for s in b["shapes"]:
        blk = "block %dx%dx%d" % tuple(s["block"])
        check(blk in text, where + ": " + blk)
        if not s["evaluated"]:
            check("not evaluated" in text, where + ": not evaluated")
            continue
        eff = pct(s["predicted_efficiency"])
        if pct(s["predicted_efficiency_best"]) != eff:
            eff += " to " + pct(s["predicted_efficiency_best"])
        line = "diverges in %s%d of %d warps; predicted branch efficiency %s" % (
            "up to " if s["warps_vary"] else "", s["diverging_warps"], s["warps"], eff)
        check(line in text, where + ": " + line + " in " + text)
        lo, hi = s["lanes_taking_branch_min"], s["lanes_taking_branch_max"]
        if lo is not None:
            lanes = "lanes taking it %d%s of %d" % (lo, "" if lo == hi else " to %d" % hi,
                                                   s["block"][0] * s["block"][1] * s["block"][2])
            check(lanes in text, where + ": " + lanes)
    if b["finding_line"] is not None:
        f = findings.get((b["finding_line"], b["finding_column"]))
        check(f is not None and f["check"] == "warplint-divergent-branch",
              where + ": its finding is in check's json")
        check("finding at line %d, column %d" % (b["finding_line"], b["finding_column"]) in text,
              where + ": the finding's place")
        if b["places"] > 1:
            check("%d places with the same figures" % b["places"] in text, where + ": places")
        imp = b["finding_impact"]
        check(imp is not None and f is not None and f.get("impact") == imp,
              where + ": the record's impact is the finding's: %s %s" % (imp, f and f.get("impact")))
        if imp:
            check("impact %.2f %s (rank %d)" % (imp["value"], imp["unit"], imp["rank"]) in text,
                  where + ": the impact in the hover")
    else:
        check("finding at line" not in text, where + ": a silent branch names no finding")

for s in syncs:
    h = hover(s["line"], s["column"])
    where = "%s %d:%d" % (s["call"], s["line"], s["column"])
    check(h is not None, where + ": a hover")
    if not h:
        continue
    text = h["contents"]["value"]
    check(h["range"]["start"] == {"line": s["line"] - 1, "character": s["column"] - 1},
          where + ": the hover's range starts at the call")
    check("`%s`" % s["call"] in text and "**%s**" % s["severity"] in text and s["check"] in text,
          where + ": call, severity and check: " + text)
    check("block %dx%dx%d" % tuple(s["block"]) in text, where + ": block")
    if s["skipping_threads"]:
        n = sum(b - a + 1 for a, b in s["skipping_threads"])
        ranges = ", ".join(str(a) if a == b else "%d-%d" % (a, b) for a, b in s["skipping_threads"])
        want = "%d of %d threads skip it: %s" % (n, s["block"][0] * s["block"][1] * s["block"][2],
                                                 ranges)
        check(want in text, where + ": " + want + " in " + text)
    for w in s["absent_lanes"]:
        lanes = w["lanes"]
        runs, i = [], 0
        while i < len(lanes):
            j = i
            while j + 1 < len(lanes) and lanes[j + 1] == lanes[j] + 1:
                j += 1
            runs.append(str(lanes[i]) if i == j else "%d-%d" % (lanes[i], lanes[j]))
            i = j + 1
        want = "warp %d: named lanes %s do not take part" % (w["warp"], ", ".join(runs))
        check(want in text, where + ": " + want)
    if s["cause"]:
        check(s["cause"] in text and "line %d" % s["cause_line"] in text, where + ": the cause")

# Data races: the record on both accesses' lines, each figure as check's json has it.
p = subprocess.run([warplint, "check", "--format", "json", "-p", build, races_src],
                   capture_output=True, text=True, env=env)
rjs = json.loads(p.stdout)
races = rjs["data_races"]
rfindings = {(f["line"], f["column"]): f for f in rjs["findings"]
             if f["check"] == "warplint-data-race"}
check(len(races) >= 4 and any(r["same_warp"] for r in races) and
      any(r["cross_block_too"] for r in races) and
      {r["certainty"] for r in races} >= {"certain", "depends-on-value", "assumed-shape"},
      "races of each kind in the input: %s" % [(r["word"], r["certainty"]) for r in races])
open_file(client, races_src)
client.diagnostics(uri(races_src))


def thread_text(t, r):
    x, y, z = t["thread"]
    out = ("thread %d" % x if r["block"][1:] == [1, 1] else
           "thread (%d, %d)" % (x, y) if r["block"][2] == 1 else "thread (%d, %d, %d)" % (x, y, z))
    # The block is named for threads of different blocks, and for a block that skips a
    # barrier the others take (the record's barrier_skipped).
    return out + (" of block %d" % t["block"] if r["cross_block"] or r.get("barrier_skipped")
                  else "")


for r in races:
    a, b = r["accesses"]
    for acc in (a, b):
        h = hover(acc["line"], acc["column"], races_src)
        where = "race on %s at %d:%d" % (r["word"], acc["line"], acc["column"])
        check(h is not None, where + ": a hover")
        if not h:
            continue
        text = h["contents"]["value"]
        check(h["range"]["start"] == {"line": acc["line"] - 1, "character": acc["column"] - 1},
              where + ": the hover's range starts at the access")
        check("**data race** on %s `%s` in kernel `%s`: **%s**" % (
            r["space"], r["word"], r["kernel"], r["severity"]) in text, where + ": " + text)
        for t, x in ((r["threads"][0], a), (r["threads"][1], b)):
            want = "- %s %ss it: `%s` (line %d)" % (thread_text(t, r), x["kind"], x["access"],
                                                     x["line"])
            check(want in text, where + ": " + want + " in " + text)
        check("block %dx%dx%d" % tuple(r["block"]) in text, where + ": block")
        if r["values"]:
            check("when " + r["values"] in text, where + ": values")
        check("certainty: " + r["certainty"] in text, where + ": certainty")
        check(("`%s`" % r["barrier"]) in text if r["barrier"] else
              "no barrier (threads of different blocks)" in text, where + ": barrier")
        check(r["fix"] in text, where + ": the advice")
        if r["arch_note"]:
            check(r["arch_note"] in text, where + ": the arch note")
        imp = r["finding_impact"]
        f = rfindings.get((r["line"], r["column"]))
        check(f is not None and f["check"] == "warplint-data-race" and f.get("impact") == imp,
              where + ": the record's impact is its finding's")
        check("impact %.2f %s (rank %d)" % (imp["value"], imp["unit"], imp["rank"]) in text,
              where + ": the impact in the hover")

# A line with no record: no hover (the comment at the top of the file).
r = client.call("textDocument/hover", {"textDocument": {"uri": uri(src)},
                                       "position": {"line": 0, "character": 3}})
check(r.get("result") is None and "error" not in r, "no hover on a comment")

client.call("shutdown")
client.notify("exit")
check(client.exit_code() == 0, "exit 0 after shutdown")
if failures:
    print("%d failure(s)" % len(failures), file=sys.stderr)
    sys.exit(1)
print("lsp hovers on %d branches, %d sync calls and %d data races (both accesses): ok" % (
    len(branches), len(syncs), len(races)))
