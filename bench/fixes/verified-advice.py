#!/usr/bin/env python3
"""The compiler-checked register advice of a `warplint check --format json` run (registers
from nvcc, the what-if on): how many launches have register advice, how many of them the
what-if verified spill-free or found spilling, and which fix-its the findings offer; with
the reasons a launch gets no what-if, so that a count of 0 can be told apart from a fault.

usage: verified-advice.py RUN.json [--list]
--list prints each verified launch (kernel, bound, registers before -> after, spill bytes).
"""
import json
import sys
from collections import Counter

run = json.load(open(sys.argv[1]))
listing = "--list" in sys.argv[2:]
launches = [l for l in run["launches"] if l.get("arch", "").startswith("sm_")]


def reg_step(l):
    for s in l.get("next_steps") or []:
        if s["resource"] == "registers":
            return s
    return None


c = Counter()
for l in launches:
    c["launches"] += 1
    if l.get("registers_source") != "nvcc" or l.get("registers") is None:
        c["no registers from nvcc"] += 1
        continue
    c["registers from nvcc"] += 1
    if l.get("blocks_per_sm") is None:
        c["no occupancy figure (block or dynamic smem not known)"] += 1
        continue
    if "registers" not in (l.get("limiters") or []):
        c["not limited by registers"] += 1
        continue
    c["limited by registers"] += 1
    s = reg_step(l)
    if not s or not s.get("gain_at"):
        c["  no register step gains a block"] += 1
        continue
    lb = l.get("launch_bounds") or {}
    if lb.get("min_blocks") and l["blocks_per_sm"] >= lb["min_blocks"]:
        c["  pinned by its own __launch_bounds__(T, minBlocks)"] += 1
        continue
    c["  register advice (a what-if candidate)"] += 1
    v = l.get("verified_advice")
    if not v:
        c["    no verified_advice record (same kernel asked once: first launch)"] += 1
        continue
    if v.get("error"):
        c["    what-if failed"] += 1
    elif v["spill_free"]:
        c["    verified spill-free"] += 1
    else:
        c["    spills under the bound"] += 1
    if listing:
        print("  %s:%d %s: %s, %s -> %s registers, spill %s/%s bytes, %s -> %s blocks/SM%s" % (
            l["file"], l["line"], l["kernel"], v["bound"], l["registers"], v.get("registers"),
            v.get("spill_store_bytes"), v.get("spill_load_bytes"), l["blocks_per_sm"],
            v.get("blocks_per_sm"), " (error: %s)" % v["error"] if v.get("error") else ""))

kernels = {}
for l in launches:
    v = l.get("verified_advice")
    if v and not v.get("error"):
        kernels[(l["file"], l.get("mangled_kernel") or l["kernel"])] = v["spill_free"]

notes = Counter()
fixes = Counter()
for f in run["findings"]:
    for n in f.get("notes") or []:
        m = n["message"]
        if m.endswith("(verified)") and (" nvcc " in m or " clang " in m):
            notes[f["check"] + ": verified spill-free note"] += 1
        elif "measure before keeping it" in m:
            notes[f["check"] + ": spilling note"] += 1
    if f.get("fixes"):
        fixes[f["check"]] += 1

print("%d files analysed, %d failed" % (len(run["files_analysed"]), len(run["files_failed"])))
for k in ["launches", "no registers from nvcc", "registers from nvcc",
          "no occupancy figure (block or dynamic smem not known)", "not limited by registers",
          "limited by registers", "  no register step gains a block",
          "  pinned by its own __launch_bounds__(T, minBlocks)",
          "  register advice (a what-if candidate)",
          "    no verified_advice record (same kernel asked once: first launch)",
          "    verified spill-free", "    spills under the bound", "    what-if failed"]:
    print("%-72s %d" % (k, c[k]))
print("kernels verified: %d spill-free, %d spilling" % (
    sum(1 for x in kernels.values() if x), sum(1 for x in kernels.values() if not x)))
print("notes on findings: " + (", ".join("%s %d" % kv for kv in sorted(notes.items())) or "none"))
print("fix-its offered: " + (", ".join("%s %d" % kv for kv in sorted(fixes.items())) or "none"))
