#!/usr/bin/env python3
"""One launch, one answer: every figure warplint prints for a launch is the same number
in every output.

For the given files (or a compile database with -p), runs `warplint check` in the json,
text, sarif and github formats and `warplint report`, then holds them against each other:
  - each json launch (per arch) against the figures quoted in the findings at that launch
    (occupancy, active and maximum warps, threads per block, blocks per SM of the cliff
    and budget findings, the block-size ceiling of the occupancy notes; with --gpu, the grid, blocks per SM, active clusters, SMs, waves
    and last-wave fill of warplint-partial-wave's findings),
  - the findings' messages and notes, identical in text, sarif and github,
  - the report's index (kernel, place, arch, occupancy, limiter) against the json.
Prints one line per launch compared and a summary; exits 1 on any disagreement, 77 when
warplint cannot run here.

usage: check-one-answer.py WARPLINT [check arguments...]
"""
import html
import json
import math
import os
import re
import subprocess
import sys
import tempfile


def run(cmd, output=None):
    """CMD's stdout (or the file OUTPUT it writes). Exit 2 with an output is a run in
    which some files did not parse (a compile database of real code): the others are
    still compared, and the json's files_failed names them."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    produced = os.path.exists(output) if output else bool(p.stdout.strip())
    if p.returncode not in (0, 1) and not (p.returncode == 2 and produced):
        sys.stderr.write(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stderr}")
        sys.exit(1)
    return p.stdout


def pct(fraction):
    """warplint's percentages: one decimal, none when whole; halves round away from zero
    as core's percentText (std::round) does: 0.5625 is 56.3%, where Python's round()
    (half to even) would give 56.2%."""
    v = math.floor(fraction * 1000 + 0.5) / 10
    return f"{int(v)}%" if v == int(v) else f"{v:.1f}%"


def main():
    if len(sys.argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    wl, args = sys.argv[1], sys.argv[2:]
    # Options before the file list: `check OPTS -- ARGS` keeps working.
    def with_opts(*opts):
        if "--" in args:
            i = args.index("--")
            return args[:i] + list(opts) + args[i:]
        return args + list(opts)

    js = json.loads(run([wl, "check", *with_opts("--format", "json")]))
    text = run([wl, "check", *with_opts("--format", "text", "--color", "never")])
    sarif = json.loads(run([wl, "check", *with_opts("--format", "sarif")]))
    github = run([wl, "check", *with_opts("--format", "github")])
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.html")
        run([wl, "report", *with_opts("-o", out)], output=out)
        report = open(out, encoding="utf-8").read()

    problems = []
    cwd = os.getcwd() + "/"

    def rel(path):
        return path[len(cwd):] if path.startswith(cwd) else path

    launches = js["launches"]
    at = {}
    for l in launches:
        at.setdefault((rel(l["file"]), l["line"], l["column"]), []).append(l)

    # 1. Figures quoted in findings against the json launch at the same place and arch.
    occ = re.compile(r"occupancy ([\d.]+%) for '(.+?)' on (\w+): (\d+) of (\d+) warps per SM "
                     r"with (\d+)-thread blocks")
    keep = re.compile(r"on (\w+) is .*? (?:keep|allow) (\d+) blocks?/SM \(([\d.]+%)\)")
    budget = re.compile(r"register budget of '.+?' on (\w+): (\d+)-thread blocks keep (\d+) "
                        r"blocks?/SM \(([\d.]+%)\) only up to (\d+) registers/thread")
    # warplint-occupancy's note for a minimum the block size cannot reach: its ceiling.
    ceiling = re.compile(r"on (\w+): .*?cannot reach the .*? allow at most (\d+) "
                         r"(?:blocks?/SM|workgroups?/CU) \(([\d.]+%)\)")
    kernel_name = re.compile(r"(?:occupancy \S+ for |register budget of )?'(.+?)' on \w+")
    compared = 0
    for f in js["findings"]:
        key = (rel(f["file"]), f["line"], f["column"])
        msg = f["message"]
        for regex, kind in ((occ, "occupancy"), (keep, "cliff"), (budget, "budget"),
                            (ceiling, "ceiling")):
            m = regex.search(msg)
            if not m:
                continue
            arch = m.group(3) if kind == "occupancy" else m.group(1)
            cands = [l for l in at.get(key, []) if l["arch"] == arch]
            if not cands:
                problems.append(f"{key}: finding on {arch} has no json launch: {msg}")
                continue
            # One place can hold several launches (a template's instantiations, a header's
            # launch in several files): the finding's kernel picks among them, and it
            # agrees when one of them has its figures.
            named = kernel_name.match(msg)
            if named and any(l["kernel"] == named.group(1) for l in cands):
                cands = [l for l in cands if l["kernel"] == named.group(1)]
            if kind == "occupancy":
                want = (m.group(1), int(m.group(4)), int(m.group(5)), int(m.group(6)))
            elif kind in ("cliff", "ceiling"):
                want = (int(m.group(2)), m.group(3))
            else:
                want = (int(m.group(2)), int(m.group(3)), m.group(4), int(m.group(5)))
            got = []
            for l in cands:
                if l["occupancy"] is None:
                    got.append(None)
                elif kind == "occupancy":
                    got.append((pct(l["occupancy"]), l["active_warps_per_sm"],
                                l["max_warps_per_sm"], l["threads_per_block"]))
                elif kind == "cliff":
                    got.append((l["blocks_per_sm"], pct(l["occupancy"])))
                elif kind == "ceiling":
                    got.append((l.get("ceiling_blocks_per_sm"),
                                pct(l["ceiling_occupancy"])
                                if l.get("ceiling_occupancy") is not None else None))
                else:
                    got.append((l["threads_per_block"], l["blocks_per_sm"], pct(l["occupancy"]),
                                l["register_budget"]))
            compared += 1
            if want in got:
                print(f"same: {key[0]}:{key[1]}:{key[2]} {arch} {kind}")
            elif all(g is None for g in got):
                problems.append(f"{key} {arch}: {kind} finding quotes figures, json has "
                                f"none: {msg}")
            else:
                problems.append(f"{key} {arch}: {kind} finding says {want}, json "
                                f"{' or '.join(str(g) for g in got)}")

    # 1b. warplint-partial-wave's waves against the json launch's gpu figures (--gpu).
    wave = re.compile(r"(?:last wave of|grid of) '(.+?)' .*?: (\d+) blocks (?:of (\d+) per SM|"
                      r"in clusters of \d+ \((\d+) clusters? of (\d+) blocks/SM at once\)) "
                      r"on (\d+) SMs: (?:1 wave at|(\d+) waves, the last at) ([\d.]+%)")
    for f in js["findings"]:
        if f["check"] != "warplint-partial-wave":
            continue
        m = wave.search(f["message"])
        if not m:
            problems.append(f"partial-wave finding not understood: {f['message']}")
            continue
        key = (rel(f["file"]), f["line"], f["column"])
        cands = [l for l in at.get(key, []) if l.get("gpu") and l["kernel"] == m.group(1)]
        per_sm = int(m.group(3) or m.group(5))
        want = (int(m.group(2)), per_sm, int(m.group(4)) if m.group(4) else None,
                int(m.group(6)), int(m.group(7) or 1), m.group(8))
        got = [((l["grid"] or [0, 0, 0])[0] * (l["grid"] or [0, 1, 1])[1] *
                (l["grid"] or [0, 1, 1])[2], l["blocks_per_sm"],
                l["gpu"]["max_active_clusters"], l["gpu"]["sms"],
                l["gpu"]["waves"]["wave_count"], pct(l["gpu"]["waves"]["last_wave_fullness"]))
               for l in cands if l["gpu"]["waves"]]
        compared += 1
        if want in got:
            print(f"same: {key[0]}:{key[1]}:{key[2]} waves")
        else:
            problems.append(f"{key}: partial-wave finding says {want}, json {got}")

    # 2. The findings' words, identical in every format.
    def sarif_results():
        out = []
        for r in sarif["runs"][0]["results"]:
            out.append(r["message"]["text"])
        return sorted(out)

    json_msgs = sorted(f["message"] for f in js["findings"])
    if json_msgs != sarif_results():
        problems.append("sarif messages differ from json")
    for m in json_msgs:
        if m not in text:
            problems.append(f"text lacks: {m}")
        if m.replace("%", "%25") not in github and m not in github:
            problems.append(f"github lacks: {m}")

    # 2b. Each finding's impact: the json's rank is SARIF's rank and the report's, in the
    # same order (both list the findings in the run's order; the report by impact).
    json_ranks = [f.get("impact", {}).get("rank") for f in js["findings"]]
    sarif_ranks = [r.get("rank") for r in sarif["runs"][0]["results"]]
    if [None if r is None else int(r) for r in sarif_ranks] != json_ranks:
        problems.append(f"sarif ranks {sarif_ranks} differ from the json's {json_ranks}")
    else:
        compared += len(json_ranks)
    report_ranks = re.findall(r'<tr><td>(\d+|-)</td><td>[^<]*</td><td>warplint-', report)
    want_ranks = sorted((r for r in json_ranks if r is not None), reverse=True)[:50]
    if [int(r) for r in report_ranks if r != "-"] != want_ranks:
        problems.append(f"report ranks {report_ranks} differ from the json's {want_ranks}")


    rows = re.findall(r"<tr><td><a href=\"#launch-\d+\">(.*?)</a></td><td>(.*?)</td><td>(.*?)"
                      r"</td><td>(.*?)</td><td>(.*?)</td>", report)
    if len(launches) > 1 and len(rows) != len(launches):
        problems.append(f"report has {len(rows)} index rows for {len(launches)} json launches")
    for kernel, where, arch, occupancy, limiter in rows:
        where = html.unescape(where)
        file, line, col = where.rsplit(":", 2)
        cands = [l for l in at.get((rel(file), int(line), int(col)), []) if l["arch"] == arch]
        want = {pct(l["occupancy"]) if l["occupancy"] is not None else "-" for l in cands}
        if occupancy not in want:
            problems.append(f"report {where} {arch}: {occupancy}, json {sorted(want)}")
        else:
            compared += 1

    for p in problems:
        print("DIFFERENT:", p)
    if js.get("files_failed"):
        print(f"{len(js['files_failed'])} files not analysed (they do not parse): "
              + " ".join(js["files_failed"]))
    print(f"{compared} figures compared over {len(launches)} launch records, "
          f"{len(js['findings'])} findings: {len(problems)} disagreements")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
