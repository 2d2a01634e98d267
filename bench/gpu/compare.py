#!/usr/bin/env python3
"""Holds what bench/gpu/run.sh measured on a GPU against warplint's model.

usage: compare.py WARPLINT RESULTS_DIR [--markdown FILE]

RESULTS_DIR is run.sh's output folder (or the committed capture in tests/Inputs/gpu).
Each comparison asks warplint itself, through its command line, for the same launch:

  runtime   cudaOccupancyMaxActiveBlocksPerMultiprocessor for every row of runtime.jsonl
            against `warplint occupancy --batch` given the same registers, static and
            dynamic shared memory, carveout and opt-in;
  potential cudaOccupancyMaxPotentialBlockSize against `occupancy --max-block-size`;
  clusters  cudaOccupancyMaxActiveClusters against `occupancy --gpu h200 --cluster`;
  ncu       ncu's launch__occupancy_limit_{registers,shared_mem,warps,blocks} and its
            theoretical occupancy against the model on ncu's own inputs;
  trace     the most blocks resident at once on any SM, from the block trace, against the
            model's blocks per SM (ptxas's registers for regLimited<N>).

Exit status 1 when any of these disagree (each disagreement is printed), 0 otherwise.
The achieved occupancy, the advice timings, the trace's cost, the memory counters and the
sanitizer's findings are measurements with no single right answer: they are printed as
tables (and written with --markdown) for docs/measuring.md, not judged here.
"""
import argparse
import collections
import csv
import json
import os
import re
import subprocess
import sys


def occupancy_batch(warplint, rows):
    text = "".join(json.dumps(r) + "\n" for r in rows)
    out = subprocess.run([warplint, "occupancy", "--batch"], input=text, capture_output=True,
                         text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def occupancy_cli(warplint, args):
    out = subprocess.run([warplint, "occupancy", "--format", "json"] + args,
                         capture_output=True, text=True)
    try:
        return json.loads(out.stdout)
    except json.JSONDecodeError:
        return {"error": (out.stderr or out.stdout).strip()}


def ncu_rows(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if len(rows) < 3 or rows[0][:1] != ["ID"]:
        return []
    head = rows[0]
    return [dict(zip(head, r)) for r in rows[2:]]


def num(text):
    return float(text.replace(",", "")) if text not in ("", None) else None


class Report:
    def __init__(self):
        self.lines = []
        self.disagreements = []

    def out(self, line=""):
        self.lines.append(line)

    def table(self, head, rows):
        self.out("| " + " | ".join(head) + " |")
        self.out("|" + "---|" * len(head))
        for r in rows:
            self.out("| " + " | ".join(str(c) for c in r) + " |")
        self.out()

    def disagree(self, what):
        self.disagreements.append(what)


def runtime_section(rep, warplint, records, device):
    arch = "sm_" + device["cc"].replace(".", "")
    rows = [r for r in records if r["what"] == "blocks_per_sm" and not r["error"]]
    inputs = []
    for r in rows:
        q = {"arch": arch, "threads": r["threads"], "registers": r["registers"],
             "static_smem": r["static_smem"], "dynamic_smem": r["dynamic_smem"]}
        if r["carveout"] >= 0:
            q["carveout"] = r["carveout"]
        if r["optin_smem"] > 0:
            q["optin_smem"] = r["optin_smem"]
        inputs.append(q)
    answers = occupancy_batch(warplint, inputs)
    agree = 0
    by_kernel = collections.Counter()
    wrong = []
    for r, a in zip(rows, answers):
        model = a.get("blocks_per_sm", 0) if not a.get("error") else 0
        by_kernel[r["kernel"]] += 1
        if model == r["blocks_per_sm"]:
            agree += 1
        else:
            wrong.append((r, model, a.get("error", "")))
            rep.disagree(f"runtime: {r['kernel']} {r['threads']} threads, dynamic "
                         f"{r['dynamic_smem']}, carveout {r['carveout']}: runtime "
                         f"{r['blocks_per_sm']} blocks/SM, warplint {model}")
    rep.out(f"### Blocks per SM: the runtime against `warplint occupancy` ({arch})")
    rep.out()
    rep.out(f"{agree} of {len(rows)} launches agree "
            f"({', '.join(f'{k} {n}' for k, n in sorted(by_kernel.items()))}).")
    rep.out()
    if wrong:
        rep.table(["kernel", "threads", "dynamic", "carveout", "runtime", "warplint", "note"],
                  [(r["kernel"], r["threads"], r["dynamic_smem"], r["carveout"],
                    r["blocks_per_sm"], m, e) for r, m, e in wrong])
    # A sample of the rows, one per kernel and limiter, for the docs.
    seen = set()
    sample = []
    for r, a in zip(rows, answers):
        key = (r["kernel"], tuple(a.get("limiters", [])))
        if key in seen:
            continue
        seen.add(key)
        sample.append((r["kernel"], r["threads"], r["registers"], r["static_smem"],
                       r["dynamic_smem"], r["carveout"], r["blocks_per_sm"],
                       a.get("blocks_per_sm", 0), "+".join(a.get("limiters", [])) or "-"))
    rep.table(["kernel", "threads", "registers", "static smem", "dynamic smem", "carveout",
               "runtime blocks/SM", "warplint", "warplint's limiter"], sample)


def potential_section(rep, warplint, records, device):
    arch = "sm_" + device["cc"].replace(".", "")
    attrs = {}
    for r in records:
        if r["what"] == "blocks_per_sm" and r["dynamic_smem"] == 0 and r["carveout"] < 0:
            attrs[r["kernel"]] = r
    rows = []
    for r in records:
        if r["what"] != "max_potential_block_size":
            continue
        a = attrs[r["kernel"]]
        args = ["--arch", arch, "--max-block-size", "--sms", str(device["sms"]),
                "--registers", str(a["registers"]), "--static-smem", str(a["static_smem"]),
                "--dynamic-smem", str(r["dynamic_smem"])]
        m = occupancy_cli(warplint, args)
        block = m.get("max_block_size")
        grid = m.get("min_grid_size", m.get("blocks_per_sm", 0) * device["sms"])
        ok = block == r["block"] and grid == r["min_grid"]
        if not ok:
            rep.disagree(f"potential: {r['kernel']} dynamic {r['dynamic_smem']}: runtime block "
                         f"{r['block']} min grid {r['min_grid']}, warplint {block} {grid}")
        rows.append((r["kernel"], r["dynamic_smem"], r["block"], r["min_grid"], block, grid,
                     "yes" if ok else "**no**"))
    rep.out("### cudaOccupancyMaxPotentialBlockSize against `occupancy --max-block-size`")
    rep.out()
    rep.table(["kernel", "dynamic smem", "runtime block", "runtime min grid", "warplint block",
               "warplint min grid", "agree"], rows)


def cluster_section(rep, warplint, records, device):
    rows = []
    gpu = "h200" if "H200" in device["name"] else "h100"
    for r in records:
        if r["what"] != "max_active_clusters":
            continue
        args = ["--gpu", gpu, "--threads", str(r["threads"]), "--registers", str(r["registers"]),
                "--static-smem", str(r["static_smem"]), "--dynamic-smem", str(r["dynamic_smem"]),
                "--cluster", f"{r['cluster']}x1x1"]
        if r["dynamic_smem"] > 48 * 1024:
            args += ["--optin-smem", str(r["dynamic_smem"])]
        if r["non_portable"]:
            args.append("--non-portable-cluster")
        m = occupancy_cli(warplint, args)
        model = m.get("cluster", {}).get("max_active_clusters") if "cluster" in m else None
        if r["error"]:
            ok = model in (None, 0)
        else:
            ok = model == r["max_active_clusters"]
        if not ok:
            rep.disagree(f"clusters: {r['threads']} threads, cluster {r['cluster']}, dynamic "
                         f"{r['dynamic_smem']}: runtime {r['max_active_clusters']} "
                         f"({r['error'] or 'ok'}), warplint {model} {m.get('error', '')}")
        rows.append((r["threads"], r["cluster"], r["dynamic_smem"], r["blocks_per_sm"],
                     r["max_active_clusters"] if not r["error"] else r["error"], model,
                     "yes" if ok else "**no**"))
    rep.out(f"### cudaOccupancyMaxActiveClusters against warplint's GPC model (`--gpu {gpu}`)")
    rep.out()
    rep.table(["threads", "cluster", "dynamic smem", "blocks/SM", "runtime clusters",
               "warplint clusters", "agree"], rows)


def ncu_section(rep, warplint, results, device):
    arch = "sm_" + device["cc"].replace(".", "")
    rows = []
    for name in ("occupancy", "advice", "divergence", "memory"):
        for r in ncu_rows(os.path.join(results, f"ncu-{name}.csv")):
            threads = int(num(r["launch__block_size"]))
            q = {"arch": arch, "threads": threads,
                 "registers": int(num(r["launch__registers_per_thread"])),
                 "static_smem": int(num(r["launch__shared_mem_per_block_static"])),
                 "dynamic_smem": int(num(r["launch__shared_mem_per_block_dynamic"]))}
            rows.append((name, r, q))
    answers = occupancy_batch(warplint, [q for _, _, q in rows])
    seen = set()
    table = []
    agree = 0
    for (name, r, q), a in zip(rows, answers):
        lim = a.get("limits", {})
        ncu_blocks = min(int(num(r["launch__occupancy_limit_" + k])) for k in
                         ("registers", "shared_mem", "warps", "blocks"))
        ncu_theory = num(r["sm__maximum_warps_per_active_cycle_pct"])
        model_theory = round(100 * a.get("occupancy", 0), 2)
        ok = (a.get("blocks_per_sm") == ncu_blocks and abs(model_theory - ncu_theory) < 0.01)
        # Each limit that binds (the smallest) must agree as well.
        for key, mine in (("registers", "registers"), ("warps", "warps"), ("blocks", "blocks")):
            theirs = int(num(r["launch__occupancy_limit_" + key]))
            if lim.get(mine) is not None and theirs == ncu_blocks and lim[mine] != theirs:
                ok = False
        agree += ok
        if not ok:
            rep.disagree(f"ncu: {r['Kernel Name']} {r['Block Size']}: ncu {ncu_blocks} blocks/SM "
                         f"{ncu_theory}%, warplint {a.get('blocks_per_sm')} {model_theory}%")
        key = (r["Kernel Name"], r["Block Size"])
        if key in seen:
            continue
        seen.add(key)
        table.append((re.sub(r"\(.*", "", r["Kernel Name"]).replace("void ", ""), r["Block Size"],
                      q["registers"], q["static_smem"],
                      "/".join(r["launch__occupancy_limit_" + k] for k in
                               ("registers", "shared_mem", "warps", "blocks")),
                      "/".join(str(lim.get(k, "?")) for k in
                               ("registers", "shared_memory", "warps", "blocks")),
                      f"{ncu_theory:g}%", f"{model_theory:g}%",
                      r["sm__warps_active.avg.pct_of_peak_sustained_active"] + "%",
                      "yes" if ok else "**no**"))
    rep.out("### Nsight Compute's launch limits and theoretical occupancy against the model")
    rep.out()
    rep.out(f"{agree} of {len(rows)} profiled launches agree (limits: registers / shared "
            "memory / warps / blocks, in blocks per SM).")
    rep.out()
    rep.table(["kernel", "block", "registers", "static smem", "ncu limits", "warplint limits",
               "ncu theoretical", "warplint", "ncu achieved", "agree"], table)


def trace_section(rep, warplint, results, device):
    path = os.path.join(results, "trace", "trace.jsonl")
    if not os.path.exists(path):
        rep.out("No block trace was recorded.")
        return
    launches = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            b = json.loads(line)
            launches[(b.get("launch", 0), b["kernel"])].append(b)
    regs = {}
    log = os.path.join(results, "occupancy_trace.ptxas.log")
    if os.path.exists(log):
        fn = None
        for line in open(log):
            m = re.search(r"Compiling entry function '(\S+)'", line)
            if m:
                fn = m.group(1)
            m = re.search(r"Used (\d+) registers", line)
            if m and fn and "regLimitedILi" in fn and "ILb1E" in fn:
                regs[int(re.search(r"regLimitedILi(\d)", fn).group(1))] = int(m.group(1))
    rows = []
    for (launch, kernel), blocks in sorted(launches.items()):
        n = int(re.search(r"<(\d)", kernel).group(1))
        per_sm = collections.defaultdict(list)
        for b in blocks:
            per_sm[b["sm"]].append((b["start_ns"], 1))
            per_sm[b["sm"]].append((b["end_ns"], -1))
        most = 0
        for events in per_sm.values():
            cur = 0
            for _, d in sorted(events, key=lambda e: (e[0], e[1])):
                cur += d
                most = max(most, cur)
        start = min(b["start_ns"] for b in blocks)
        end = max(b["end_ns"] for b in blocks)
        a = occupancy_batch(warplint, [{"arch": "sm_" + device["cc"].replace(".", ""),
                                        "threads": blocks[0].get("threads", 256),
                                        "registers": regs.get(n, 0)}])[0]
        model = a.get("blocks_per_sm")
        ok = most == model
        if not ok:
            rep.disagree(f"trace: {kernel} launch {launch}: most resident {most}, model {model}")
        rows.append((launch, kernel, len(blocks), len(per_sm), regs.get(n, "?"), model, most,
                     f"{(end - start) / 1e6:.2f} ms", "yes" if ok else "**no**"))
    rep.out("### Block traces: most blocks resident at once on an SM against the model")
    rep.out()
    rep.table(["launch", "kernel", "blocks", "SMs used", "registers (ptxas)", "model blocks/SM",
               "measured most resident", "span", "agree"], rows)


def measured_tables(rep, results):
    path = os.path.join(results, "advice_timing.jsonl")
    if os.path.exists(path):
        rows = [json.loads(l) for l in open(path) if l.strip()]
        base = {r["kernel"]: r["median_ms"] for r in rows}
        rep.out("### Verified and spilling register advice, timed (median of 15 launches)")
        rep.out()
        rep.table(["kernel", "registers", "local bytes", "blocks/SM (runtime)", "median ms",
                   "against the unbounded kernel"],
                  [(r["kernel"], r["registers"], r["local_bytes"], r["blocks_per_sm"],
                    f"{r['median_ms']:.3f}",
                    f"{100 * (r['median_ms'] / base[r['kernel'].replace('Bounded', '')] - 1):+.1f}%")
                   for r in rows])
    path = os.path.join(results, "trace_cost.jsonl")
    if os.path.exists(path):
        rows = [json.loads(l) for l in open(path) if l.strip()]
        rep.out("### The trace header's cost (a short 256-thread kernel, median of 21)")
        rep.out()
        rep.table(["grid", "untraced ms", "traced ms", "ns per block"],
                  [(r["grid"], r["untraced_ms"], r["traced_ms"], r["ns_per_block"]) for r in rows])
    rows = ncu_rows(os.path.join(results, "ncu-memory.csv"))
    if rows:
        table = []
        for r in rows:
            def ratio(a, b):
                x, y = num(r[a]), num(r[b])
                return f"{x / y:.2f}" if y else "-"
            table.append((re.sub(r"\(.*", "", r["Kernel Name"]),
                          ratio("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
                          ratio("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                                "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
                          ratio("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                "smsp__inst_executed_op_shared_ld.sum"),
                          ratio("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                                "smsp__inst_executed_op_shared_st.sum")))
        rep.out("### Memory counters (bench/memory/kernels.cu)")
        rep.out()
        rep.table(["kernel", "global ld sectors/request", "global st sectors/request",
                   "shared ld wavefronts/instruction", "shared st wavefronts/instruction"], table)


def sanitizer_section(rep, results):
    rows = []
    for tool in ("racecheck", "synccheck"):
        whole = os.path.join(results, f"{tool}.out")
        texts = {}
        for name in sorted(os.listdir(results)):
            m = re.match(rf"{tool}-(\w+)\.out$", name)
            if m:
                texts[m.group(1)] = open(os.path.join(results, name)).read()
        if not texts and os.path.exists(whole):
            texts["(all kernels)"] = open(whole).read()
        for kernel, text in texts.items():
            errors = re.findall(r"^========= (?:Error|Warning|Info)?:? ?(.*)$", text, re.M)
            summary = re.search(r"ERROR SUMMARY: (\d+) error", text)
            hazards = re.search(r"RACECHECK SUMMARY: (\d+) hazard", text)
            rows.append((tool, kernel, summary.group(1) if summary else "?",
                         hazards.group(1) if hazards else "-"))
    if rows:
        rep.out("### compute-sanitizer on bench/gpu/sync_kernels.cu")
        rep.out()
        rep.table(["tool", "kernel", "errors", "hazards"], rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("warplint")
    ap.add_argument("results")
    ap.add_argument("--markdown")
    args = ap.parse_args()
    records = [json.loads(l) for l in open(os.path.join(args.results, "runtime.jsonl")) if l.strip()]
    device = next(r for r in records if r["what"] == "device")
    rep = Report()
    rep.out(f"Measured on {device['name']} (compute {device['cc']}, {device['sms']} SMs, "
            f"driver API {device['driver']}, runtime {device['runtime']}).")
    rep.out()
    runtime_section(rep, args.warplint, records, device)
    potential_section(rep, args.warplint, records, device)
    cluster_section(rep, args.warplint, records, device)
    ncu_section(rep, args.warplint, args.results, device)
    trace_section(rep, args.warplint, args.results, device)
    measured_tables(rep, args.results)
    sanitizer_section(rep, args.results)
    text = "\n".join(rep.lines)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")
    print(text)
    if rep.disagreements:
        print(f"\n{len(rep.disagreements)} disagreements:", file=sys.stderr)
        for d in rep.disagreements:
            print("  " + d, file=sys.stderr)
        return 1
    print("\ncompare.py: every model figure agrees with the GPU", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
