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
  - the report's index (kernel, place, arch, occupancy, limiter) against the json,
  - each json branch (the model's branch records) against the warplint-divergent-branch
    finding that stands for it (term, places, the diverging and reaching warps, the block,
    the predicted branch efficiency and its range, the severity, the impact) and against
    its row on the report's kernel card (verdict, and per block shape the warps, the
    efficiency and the lanes taking it); every branch with a finding has one, every
    finding has its branch, every branch of a launched kernel is on a card,
  - each json sync call against its warplint-barrier-divergence or warplint-warp-sync-mask
    finding (the threads that skip it, the named lanes absent, the block, the loop values,
    the cause, the severity) and against its row on the report's kernel card.
  - each json data race against its warplint-data-race finding (the word, the two threads
    and accesses with their lines, the block, the values, the pairs counted, the severity,
    the advice and arch notes, the impact) and against its row on the report's kernel
    card; every race finding has its record.
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

    compared += compare_branches(js, report, rel, problems)
    compared += compare_syncs(js, report, rel, problems)
    compared += compare_races(js, report, rel, problems)

    for p in problems:
        print("DIFFERENT:", p)
    if js.get("files_failed"):
        print(f"{len(js['files_failed'])} files not analysed (they do not parse): "
              + " ".join(js["files_failed"]))
    print(f"{compared} figures compared over {len(launches)} launch records, "
          f"{len(js['findings'])} findings: {len(problems)} disagreements")
    return 1 if problems else 0


def lround_pct(fraction):
    """The branch figures' whole percentages (std::lround of 100 x the fraction)."""
    return int(math.floor(100 * fraction + 0.5))


BRANCH_ONE = re.compile(r"^(branch on|switch on|'\?:' on|loop condition on|short-circuit operand on)"
                        r" '(.+?)' (diverges in .*)$")
BRANCH_GROUP = re.compile(r"^(\d+) (?:branches|switches|'\?:' operators|loop conditions|"
                          r"short-circuit operands) on '(.+?)' with the same figures: each "
                          r"(diverges in .*)$")
BRANCH_FIGURES = re.compile(r"^diverges in (up to )?(\d+) of (\d+) (?:warp|wavefront)s?"
                            r"( executions)?(?: of \d+ lanes)? of kernel '(.+?)' \(block "
                            r"(\d+)x(\d+)x(\d+)( assumed)?.*?\); predicted branch efficiency "
                            r"(\d+)%(?: to (\d+)%)?( over the loop's trips)?")


def cells(row):
    return [html.unescape(re.sub(r"<[^>]*>", "", c))
            for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


def table_rows(report, cls):
    """The rows (<tr> bodies) of every report table of this class, in order."""
    rows = []
    for table in re.findall(r'<table class="launches ' + cls + r'">(.*?)</table>', report, re.S):
        rows += [r for r in re.findall(r"<tr>(.*?)</tr>", table, re.S) if "<td" in r]
    return rows


def lf(text):
    """Line ends as an HTML parser reads them (CR LF and CR become LF): a condition quoted
    from a file with CRLF line ends (Rodinia's hotspot.cu macro) is the same text."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def compare_branches(js, report, rel, problems):
    """Each branch record against its finding and its report rows; returns the figures
    compared."""
    compared = 0
    branches = js.get("branches", [])
    place = lambda o, line="line", col="column": (rel(o["file"]), o[line], o[col])
    findings = [f for f in js["findings"] if f["check"] == "warplint-divergent-branch"]
    by_finding = {}
    for b in branches:
        if b["finding_line"] is not None:
            by_finding.setdefault(place(b, "finding_line", "finding_column"), []).append(b)
    for f in findings:
        key = place(f)
        carried = [b for b in by_finding.get(key, []) if place(b) == key]
        if not carried:
            problems.append(f"{key}: divergent-branch finding has no json branch: {f['message']}")
            continue
        if "depends on data loaded" in f["message"]:
            compared += 1
            continue
        m1, mg = BRANCH_ONE.match(f["message"]), BRANCH_GROUP.match(f["message"])
        m = m1 or mg
        fig = BRANCH_FIGURES.match(m.group(3)) if m else None
        if not fig:
            problems.append(f"{key}: divergent-branch finding not understood: {f['message']}")
            continue
        places = int(mg.group(1)) if mg else 1
        worst, best = int(fig.group(10)), int(fig.group(11) or fig.group(10))
        want = (m.group(2), places, bool(fig.group(1)), int(fig.group(2)), int(fig.group(3)),
                [int(fig.group(6)), int(fig.group(7)), int(fig.group(8))], bool(fig.group(9)),
                worst, best, bool(fig.group(12)), f["severity"], f.get("impact"))
        got = []
        for b in carried:
            if b["worst_shape"] is None:
                got.append(None)
                continue
            s = b["shapes"][b["worst_shape"]]
            spots = {place(x) for x in by_finding[key]}
            got.append((b["term"], b["places"] if b["places"] == len(spots) else -1,
                        s["warps_vary"], s["diverging_warps"], s["warps"], s["block"],
                        b["block_assumed"], lround_pct(s["predicted_efficiency"]),
                        lround_pct(s["predicted_efficiency_best"]), s["efficiency_over_trips"],
                        b["severity"], b["finding_impact"]))
        compared += 1
        if want in got:
            print(f"same: {key[0]}:{key[1]}:{key[2]} branch")
        else:
            problems.append(f"{key}: divergent-branch finding says {want}, json branch "
                            f"{' or '.join(str(g) for g in got)}")
    finding_at = {place(f) for f in findings}
    for key, bs in by_finding.items():
        if key not in finding_at:
            problems.append(f"{key}: json branch {bs[0]['condition']!r} names a finding there, "
                            "the findings have none")

    # The report's kernel cards: a row per branch (rowspan over its shapes).
    rows, current = [], None
    for r in table_rows(report, "branches"):
        c = cells(r)
        if "rowspan" in r:
            current = {"where": c[0], "condition": c[1], "verdict": c[2], "shapes": []}
            rows.append(current)
            c = c[3:]
        if current is not None and c:
            current["shapes"].append(c)
    at = {}
    for b in branches:
        at.setdefault(place(b), []).append(b)
    shown = set()
    for r in rows:
        file, line, col = r["where"].rsplit(":", 2)
        key = (rel(file), int(line), int(col))
        got = []
        for b in at.get(key, []):
            if lf(b["condition"]) != r["condition"]:
                continue
            verdict = b["severity"]
            if b["severity"] == "silent" and b["idiom"]:
                verdict += f" ({b['idiom']})"
            elif b["severity"] == "note" and b["note_reasons"]:
                verdict += f" ({b['note_reasons'][0]})"
            shapes = []
            for s in b["shapes"]:
                blk = "x".join(str(d) for d in s["block"]) + (" (assumed)" if b["block_assumed"] else "")
                if not s["evaluated"]:
                    shapes.append([blk, "not evaluated", "-", "-"])
                    continue
                eff = f"{lround_pct(s['predicted_efficiency'])}%"
                if lround_pct(s["predicted_efficiency_best"]) != lround_pct(s["predicted_efficiency"]):
                    eff += f" to {lround_pct(s['predicted_efficiency_best'])}%"
                if s["efficiency_over_trips"]:
                    eff += " over the loop's trips"
                lo, hi = s["lanes_taking_branch_min"], s["lanes_taking_branch_max"]
                lanes = "-" if lo is None else (str(lo) if lo == hi else f"{lo} to {hi}")
                threads = s["block"][0] * s["block"][1] * s["block"][2]
                shapes.append([blk, ("up to " if s["warps_vary"] else "") +
                               f"{s['diverging_warps']} of {s['warps']}", eff, f"{lanes} of {threads}"])
            if not shapes:
                shapes = [["-", "-", "-", "-"]]
            got.append((verdict, shapes))
            shown.add((key, lf(b["condition"]), b["kernel"]))
        want = (r["verdict"], r["shapes"])
        compared += 1
        if want not in got:
            problems.append(f"report branch {r['where']} {r['condition']!r}: {want}, json "
                            f"{' or '.join(str(g) for g in got) or 'none'}")
    launched = {l["kernel"] for l in js["launches"]}
    for b in branches:
        if b["kernel"] in launched and (place(b), lf(b["condition"]), b["kernel"]) not in shown:
            problems.append(f"json branch {place(b)} {b['condition']!r} of launched kernel "
                            f"{b['kernel']} is on no report card")
    return compared


def thread_ranges(ranges, limit=4):
    """divergence/SyncAnalysis's threadRanges of the record's [first, last] ranges."""
    count = sum(b - a + 1 for a, b in ranges)
    text = ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges[:limit])
    if len(ranges) > limit:
        text += f", ... ({count} threads)"
    return ("thread " if count == 1 else "threads ") + text


def lane_ranges(lanes):
    out, i = [], 0
    while i < len(lanes):
        j = i
        while j + 1 < len(lanes) and lanes[j + 1] == lanes[j] + 1:
            j += 1
        out.append(str(lanes[i]) if i == j else f"{lanes[i]}-{lanes[j]}")
        i = j + 1
    return ", ".join(out)


SKIPPED = re.compile(r"is skipped by (\d+) of (\d+) threads of the block (\d+)x(\d+)x(\d+)"
                     r"( \(assumed\))?(?: when (.*?))?: (threads? .*?); a barrier")
NAMED = re.compile(r"(?:mask (0x[0-9a-f]{8}) of )?.*? names lanes ([\d, -]+) of warp (\d+)"
                   r"(?: \(and lanes of (\d+) more warps?\))? that do not take part \(block "
                   r"(\d+)x(\d+)x(\d+)( assumed)?(?:, (.*?))?: (.*)\); a named lane")


def compare_syncs(js, report, rel, problems):
    """Each sync record against its finding and its report row; returns the figures
    compared."""
    compared = 0
    syncs = js.get("sync_calls", [])
    place = lambda o: (rel(o["file"]), o["line"], o["column"])
    checks = ("warplint-barrier-divergence", "warplint-warp-sync-mask")
    findings = {}
    for f in js["findings"]:
        if f["check"] in checks:
            findings.setdefault((f["check"],) + place(f), []).append(f)
    for s in syncs:
        key = (s["check"],) + place(s)
        # A call in a header reached from several kernels has a record and a finding per
        # kernel at one place: the finding is the one that names the record's kernel.
        at = findings.get(key, [])
        fs = [f for f in at if f"'{s['kernel']}'" in f["message"]] if len(at) > 1 else at
        if len(fs) != 1:
            problems.append(f"{key}: json sync call of {s['kernel']} has {len(fs)} findings")
            continue
        f = fs[0]
        at.remove(f)
        if not at:
            findings.pop(key, None)
        msg = f["message"]
        said = {f"{n['line']}: {n['message']}" for n in f["notes"]}
        cause_ok = (not s["cause"] or s["cause"] in msg or
                    f"{s['cause_line']}: {s['cause']}" in said)
        ok = f["severity"] == s["severity"] and cause_ok
        threads = s["block"][0] * s["block"][1] * s["block"][2]
        if not s["evaluated"]:
            ok &= "may " in msg and not SKIPPED.search(msg) and not NAMED.search(msg)
        elif s["check"] == checks[0]:
            m = SKIPPED.search(msg)
            ok &= bool(m) and (
                int(m.group(1)) == sum(b - a + 1 for a, b in s["skipping_threads"]) and
                int(m.group(2)) == threads and
                [int(m.group(i)) for i in (3, 4, 5)] == s["block"] and
                bool(m.group(6)) == s["block_assumed"] and
                (m.group(7) or None) == s["loop_values"] and
                m.group(8) == thread_ranges(s["skipping_threads"]))
        else:
            m = NAMED.search(msg)
            first = s["absent_lanes"][0] if s["absent_lanes"] else None
            ok &= bool(m) and first is not None and (
                m.group(2) == lane_ranges(first["lanes"]) and int(m.group(3)) == first["warp"] and
                int(m.group(4) or 0) == len(s["absent_lanes"]) - 1 and
                [int(m.group(i)) for i in (5, 6, 7)] == s["block"] and
                bool(m.group(8)) == s["block_assumed"] and
                (m.group(9) or None) == s["loop_values"] and
                (m.group(1) is None or int(m.group(1), 16) == s["mask"]))
        compared += 1
        if ok:
            print(f"same: {key[1]}:{key[2]}:{key[3]} {s['check']}")
        else:
            problems.append(f"{key}: sync finding {f['severity']}: {msg!r} differs from the json "
                            f"record {s}")
    for key in findings:
        problems.append(f"{key}: sync finding without a json sync call")

    # The report's kernel cards: one row per sync record of a launched kernel.
    rows = [cells(r) for r in table_rows(report, "syncs")]
    launched = {l["kernel"] for l in js["launches"]}
    shown = set()
    for c in rows:
        file, line, col = c[0].rsplit(":", 2)
        key = (rel(file), int(line), int(col))
        got = []
        for s in syncs:
            if place(s) != key:
                continue
            threads = s["block"][0] * s["block"][1] * s["block"][2]
            blk = "x".join(str(d) for d in s["block"]) + (" (assumed)" if s["block_assumed"] else "")
            if s["loop_values"]:
                blk += ", " + s["loop_values"]
            skip = absent = "-"
            if not s["evaluated"]:
                skip = absent = "depends on run-time values"
            else:
                if s["skipping_threads"]:
                    n = sum(b - a + 1 for a, b in s["skipping_threads"])
                    skip = f"{n} of {threads}: " + thread_ranges(s["skipping_threads"], 1 << 30).split(" ", 1)[1]
                if s["absent_lanes"]:
                    absent = "; ".join(f"warp {w['warp']}: lanes {lane_ranges(w['lanes'])}"
                                       for w in s["absent_lanes"])
            cause = s["cause"] or "-"
            if s["cause_line"]:
                cause = f"line {s['cause_line']}: {cause}"
            call = s["call"] + (f" mask {s['mask']:#010x}" if s["mask"] is not None else "")
            got.append([c[0], call, f"{s['severity']} ({s['check']})", blk, skip, absent, cause])
            shown.add(key)
        compared += 1
        if c not in got:
            problems.append(f"report sync row {c} differs from the json {got or 'none'}")
    for s in syncs:
        if s["kernel"] in launched and place(s) not in shown:
            problems.append(f"json sync call {place(s)} of launched kernel {s['kernel']} is on "
                            "no report card")
    return compared


def race_thread(t, r):
    """A race record's thread as the finding and the card word it."""
    bx, by, bz = r["block"]
    x, y, z = t["thread"]
    out = f"thread {x}" if by == 1 and bz == 1 else (
        f"thread ({x}, {y})" if bz == 1 else f"thread ({x}, {y}, {z})")
    return out + (f" of block {t['block']}" if r["cross_block"] or r["barrier_skipped"] else "")


def skip_text(s):
    """A race record's barrier_skipped as the finding and the card word it."""
    many = s["block_count"] > 1
    out = ("blocks " if many else "block ") + s["blocks"]
    out += f" of {s['grid_blocks']}" if s["grid_blocks"] else " of a sampled grid of 2"
    out += f" {'skip' if many else 'skips'} the {s['barrier']} on line {s['line']} ({s['condition']}"
    return out + (f", {s['values']})" if s["values"] else ")")


def compare_races(js, report, rel, problems):
    """Each data-race record against its finding and its report row; returns the figures
    compared."""
    compared = 0
    races = js.get("data_races", [])
    place = lambda o: (rel(o["file"]), o["line"], o["column"])
    findings = {}
    for f in js["findings"]:
        if f["check"] == "warplint-data-race":
            findings.setdefault(place(f), []).append(f)
    matched = set()
    for r in races:
        key = place(r)
        a, b = r["accesses"]
        t1, t2 = r["threads"]
        head = (f"data race on {r['space']} '{r['word']}': {race_thread(t1, r)} {a['kind']}s it "
                f"({a['access']}, line {a['line']}) and {race_thread(t2, r)} {b['kind']}s it "
                f"({b['access']}, line {b['line']})")
        block = "block " + "x".join(str(d) for d in r["block"]) + (
            " assumed" if r["block_assumed"] else "")
        # A record of a header reached from several kernels: the finding with its words
        # (a race message names no kernel, so one finding may stand for the records of
        # several kernels that race the same way: the batch merges identical findings).
        fs = [f for f in findings.get(key, []) if f["message"].startswith(head)]
        if len(fs) != 1:
            problems.append(f"{key}: json data race {head!r} has {len(fs)} findings")
            continue
        f = fs[0]
        matched.add(id(f))
        msg = f["message"]
        notes = {(n["line"], n["column"], n["message"]) for n in f["notes"]}
        at = (r["line"], r["column"])
        ok = f["severity"] == r["severity"] and f"({block}" in msg
        if r["values"] and not (r["values_sampled"] and r["certainty"] != "depends-on-value"):
            ok &= f"{block}, {r['values']}" in msg
        more = re.search(r"; (\d+) more pairs? of accesses to '(.+?)' race", msg)
        ok &= (int(more.group(1)) if more else 0) == r["more_pairs"]
        ok &= not more or more.group(2) == r["object"]
        ok &= (" in different blocks" in msg) == r["cross_block"]
        ok &= (" in the same warp with no __syncwarp()" in msg) == r["same_warp"]
        skip = r["barrier_skipped"]
        ok &= (f"; {skip_text(skip)}" in msg) if skip else " skips the " not in msg
        ok &= at + (r["fix"],) in notes
        if r["arch_note"]:
            ok &= at + (r["arch_note"],) in notes
        if r["note_reason"]:
            ok &= at + ("a note, not a warning: " + r["note_reason"],) in notes
        if (a["line"], a["column"]) != (b["line"], b["column"]):
            ok &= (a["line"], a["column"], f"the other access to '{r['word']}'") in notes
        if r["cross_block_too"]:
            u, v = r["cross_block_too"]
            cross = dict(r, cross_block=True)
            ok &= at + (f"{race_thread(u, cross)} and {race_thread(v, cross)} collide too: no "
                        "__syncthreads() orders threads of different blocks",) in notes
        ok &= f.get("impact") == r["finding_impact"]
        compared += 1
        if ok:
            print(f"same: {key[0]}:{key[1]}:{key[2]} warplint-data-race")
        else:
            problems.append(f"{key}: race finding {f['severity']}: {msg!r} notes {sorted(notes)} "
                            f"differ from the json record {r}")
    for key, fs in findings.items():
        for f in fs:
            if id(f) not in matched:
                problems.append(f"{key}: race finding without a json data race: {f['message']!r}")

    # The report's kernel cards: one row per race record of a launched kernel.
    rows = [cells(r) for r in table_rows(report, "races")]
    launched = {l["kernel"] for l in js["launches"]}
    shown = set()
    for c in rows:
        file, line, col = c[0].rsplit(":", 2)
        key = (rel(file), int(line), int(col))
        got = []
        for r in races:
            if place(r) != key:
                continue
            a, b = r["accesses"]
            t1, t2 = r["threads"]
            blk = "x".join(str(d) for d in r["block"]) + (" (assumed)" if r["block_assumed"] else "")
            cert = r["certainty"]
            if r["values"]:
                cert += f" ({r['values']}{' sampled' if r['values_sampled'] else ''})"
            sep = r["barrier"] or "no barrier (different blocks)"
            if r["arch_note"]:
                sep += "; " + r["arch_note"]
            if r["barrier_skipped"]:
                sep += "; " + skip_text(r["barrier_skipped"])
            got.append([c[0], f"{r['word']} ({r['space']})", f"{r['severity']} ({r['check']})",
                        f"{race_thread(t1, r)} {a['kind']}s {a['access']} (line {a['line']})",
                        f"{race_thread(t2, r)} {b['kind']}s {b['access']} (line {b['line']})",
                        blk, cert, sep])
            shown.add(key)
        compared += 1
        if c not in got:
            problems.append(f"report race row {c} differs from the json {got or 'none'}")
    for r in races:
        if r["kernel"] in launched and place(r) not in shown:
            problems.append(f"json data race {place(r)} of launched kernel {r['kernel']} is on "
                            "no report card")
    return compared


if __name__ == "__main__":
    sys.exit(main())
