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
  racecheck compute-sanitizer's shared-memory hazards, kernel by kernel, against the
            data-race check's findings (a hazard exactly where a race is reported);
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
import tempfile


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


def cluster_args(gpu, r):
    """`warplint occupancy` arguments for a runtime cluster row (threads, registers, static
    and dynamic shared memory with its opt-in, the cluster, the non-portable attribute)."""
    args = ["--gpu", gpu, "--threads", str(r["threads"]), "--registers", str(r["registers"]),
            "--static-smem", str(r["static_smem"]), "--dynamic-smem", str(r["dynamic_smem"]),
            "--cluster", f"{r['cluster']}x1x1"]
    if r["dynamic_smem"] > 48 * 1024:
        args += ["--optin-smem", str(r["dynamic_smem"])]
    if r.get("non_portable") or r["cluster"] > 8:
        args.append("--non-portable-cluster")
    return args


def cluster_section(rep, warplint, records, device):
    rows = []
    gpu = "h200" if "H200" in device["name"] else "h100"
    for r in records:
        if r["what"] != "max_active_clusters":
            continue
        m = occupancy_cli(warplint, cluster_args(gpu, r))
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
    for name in ("occupancy", "advice", "divergence", "divergence-G", "memory"):
        for r in ncu_rows(os.path.join(results, f"ncu-{name}.csv")):
            threads = int(num(r["launch__block_size"]))
            q = {"arch": arch, "threads": threads,
                 "registers": int(num(r["launch__registers_per_thread"])),
                 "static_smem": int(num(r["launch__shared_mem_per_block_static"])),
                 "dynamic_smem": int(num(r["launch__shared_mem_per_block_dynamic"]))}
            rows.append((name, r, q))
    # The CLI's JSON has the per-resource limits the batch lines leave out.
    cache = {}
    answers = []
    for _, _, q in rows:
        key = json.dumps(q, sort_keys=True)
        if key not in cache:
            cache[key] = occupancy_cli(warplint, [
                "--arch", q["arch"], "--threads", str(q["threads"]), "--registers",
                str(q["registers"]), "--static-smem", str(q["static_smem"]), "--dynamic-smem",
                str(q["dynamic_smem"])])
        answers.append(cache[key])
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


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def check_json(warplint, source, extra, tmp):
    """warplint check's JSON for a bench source (registers none unless extra gives a log)."""
    out = os.path.join(tmp, os.path.basename(source) + ".json")
    args = [warplint, "check", os.path.join(ROOT, source), "--arch", "sm_90", "--no-cache",
            "--format", "json", "-o", out] + extra
    subprocess.run(args, capture_output=True, text=True)
    with open(out) as f:
        return json.load(f)


def probe_section(rep, warplint, results, device):
    path = os.path.join(results, "clusters.jsonl")
    if not os.path.exists(path):
        return
    rows = [json.loads(l) for l in open(path) if l.strip()]
    queries = [r for r in rows if r["what"] == "clusters"]
    gpu = "h200" if "H200" in device["name"] else "h100"
    agree = 0
    for r in queries:
        if r["error"] or r["blocks_per_sm"] <= 0:
            continue
        m = occupancy_cli(warplint, cluster_args(gpu, r))
        model = m.get("cluster", {}).get("max_active_clusters")
        if model == r["max_active_clusters"]:
            agree += 1
        else:
            rep.disagree(f"cluster probe: {r['threads']} threads, {r['blocks_per_sm']} blocks/SM, "
                         f"cluster {r['cluster']}: runtime {r['max_active_clusters']}, "
                         f"warplint {model}")
    # Which SMs share a GPC: the SMs that ever ran blocks of one cluster.
    parent = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for r in rows:
        if r["what"] == "cluster_blocks":
            for blocks in r["sms"]:
                for sm in blocks[1:]:
                    parent[find(blocks[0])] = find(sm)
    groups = collections.defaultdict(list)
    for sm in list(parent):
        groups[find(sm)].append(sm)
    sizes = sorted((len(g) for g in groups.values()), reverse=True)
    rep.out("### Cluster probe: every cluster size at 1 to 32 blocks per SM")
    rep.out()
    rep.out(f"{agree} of {len(queries)} `cudaOccupancyMaxActiveClusters` answers agree with "
            f"`warplint occupancy --gpu {gpu} --cluster`. SMs that ran blocks of one cluster, "
            f"grouped: {len(sizes)} groups of {', '.join(map(str, sizes))} SMs "
            f"({sum(sizes)} SMs).")
    rep.out()
    for g in sorted(groups.values(), key=lambda g: (-len(g), min(g))):
        rep.out(f"- {len(g)} SMs: {', '.join(map(str, sorted(g)))}")
    rep.out()


def trace_section(rep, warplint, results, tmp):
    path = os.path.join(results, "trace", "trace.jsonl")
    if not os.path.exists(path) and os.path.exists(path + ".gz"):
        import gzip
        plain = os.path.join(tmp, "trace.jsonl")
        with gzip.open(path + ".gz", "rt") as f, open(plain, "w") as o:
            o.write(f.read())
        path = plain
    log = os.path.join(results, "occupancy_trace.ptxas.log")
    if not os.path.exists(path) or not os.path.exists(log):
        rep.out("No block trace was recorded.")
        return
    check_json(warplint, "bench/measure/occupancy_trace.cu",
               ["--registers-from", "ptxas-log", "--ptxas-log", log, "--", "-I",
                os.path.join(ROOT, "trace", "include")], tmp)
    check = os.path.join(tmp, "occupancy_trace.cu.json")
    out = subprocess.run([warplint, "timeline", path, "--check", check, "-o",
                          os.path.join(tmp, "timeline.html")], capture_output=True, text=True)
    rows = []
    for line in out.stdout.splitlines():
        m = re.match(r"(.*) launch (\d+): (\d+) blocks on (\d+) of \d+ SMs in ([\d.]+ \w+); at most "
                     r"(\d+) blocks? resident per SM measured \(SM \d+\), model (\d+): (\w+)"
                     r"(?: \(a block started up to ([\d.]+ \w+) before)?.*tail (\d+%)", line)
        if not m:
            continue
        kernel, launch, blocks, sms, span, measured, model, verdict, overlap, tail = m.groups()
        if verdict != "agrees":
            rep.disagree(f"trace: {kernel} launch {launch}: measured {measured}, model {model}")
        rows.append((launch, kernel, blocks, span, model, measured, overlap or "-", tail,
                     "yes" if verdict == "agrees" else "**no**"))
    if not rows:
        rep.disagree("trace: `warplint timeline` gave no summary line: " + out.stderr.strip())
    rep.out("### Block traces (`warplint timeline --check`): resident blocks per SM")
    rep.out()
    rep.table(["launch", "kernel", "blocks", "span", "model blocks/SM", "measured resident",
               "longest handover overlap", "tail", "agree"], rows)


def divergence_section(rep, warplint, results, tmp):
    rows = ncu_rows(os.path.join(results, "ncu-divergence-G.csv"))
    if not rows:
        return
    opt = {r["Kernel Name"]: r for r in ncu_rows(os.path.join(results, "ncu-divergence.csv"))}
    d = check_json(warplint, "bench/divergence/kernels.cu", ["--registers-from", "none"], tmp)
    table = []
    for r in rows:
        kernel = re.sub(r"\(.*", "", r["Kernel Name"])
        block = [int(x) for x in re.findall(r"\d+", r["Block Size"])]
        grid = int(num(r["launch__grid_size"]))
        predicted = 0
        branches = []
        for b in d["branches"]:
            if b["kernel"] != kernel:
                continue
            for sh in b["shapes"]:
                if sh["block"] == block:
                    predicted += sh["diverging_warps"]
                    branches.append(f"{b['condition']}: {sh['diverging_warps']} of {sh['warps']}")
        measured = int(num(r["smsp__sass_branch_targets_threads_divergent.sum"]))
        ok = measured == predicted * grid
        if not ok:
            rep.disagree(f"divergence: {kernel} {r['Block Size']}: ncu {measured} divergent "
                         f"branch targets, predicted {predicted} per block x {grid} blocks")
        o3 = next((v for k, v in opt.items() if k == r["Kernel Name"] and
                   v["Block Size"] == r["Block Size"]), None)
        table.append((kernel, r["Block Size"], "; ".join(branches) or "-", predicted * grid,
                      measured, r["smsp__sass_average_branch_targets_threads_uniform.pct"] + "%",
                      o3["smsp__sass_branch_targets.sum"] if o3 else "?",
                      "yes" if ok else "**no**"))
    rep.out("### Divergence: diverging warps predicted against ncu (`-G` build)")
    rep.out()
    rep.out("Predicted: the warps a branch splits per block (each evaluation in a loop counts) "
            "x blocks; ncu: `smsp__sass_branch_targets_threads_divergent.sum` of the `-G` build. "
            "The last column is every branch target of the `-O3` build: there nvcc predicates "
            "these arms and no branch is left to diverge (the lanes still idle under the "
            "predicate).")
    rep.out()
    rep.table(["kernel", "block", "warplint: warps split per block", "predicted divergent",
               "ncu divergent", "ncu uniform branches", "-O3 branch targets", "agree"], table)


def memory_section(rep, warplint, results, tmp):
    rows = ncu_rows(os.path.join(results, "ncu-memory.csv"))
    if not rows:
        return
    d = check_json(warplint, "bench/memory/kernels.cu", ["--registers-from", "none"], tmp)
    table = []
    for r in rows:
        kernel = re.sub(r"\(.*", "", r["Kernel Name"])

        def ratio(a, b):
            x, y = num(r[a]), num(r[b])
            return x / y if y else None

        measured = {
            ("global", "load"): ratio("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
            ("global", "store"): ratio("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                                       "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
            ("shared", "load"): ratio("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                      "smsp__inst_executed_op_shared_ld.sum"),
            ("shared", "store"): ratio("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                                       "smsp__inst_executed_op_shared_st.sum"),
        }
        for rec in d["memory_accesses"]:
            if rec["kernel"] != kernel:
                continue
            kinds = ["load", "store"] if rec["kind"] == "load and store" else [rec["kind"]]
            for kind in kinds:
                got = measured[(rec["space"], kind)]
                want = rec["sectors"] if rec["space"] == "global" else rec["wavefronts"]
                ok = got is not None and abs(got - want) <= 0.05 * want
                if not ok:
                    rep.disagree(f"memory: {kernel} {rec['access']} {kind}: predicted {want}, "
                                 f"ncu {got}")
                table.append((kernel, rec["access"], f"{rec['space']} {kind}",
                              f"{want} ({rec['severity']})", f"{got:.2f}" if got else "-",
                              "yes" if ok else "**no**"))
        if not any(rec["kernel"] == kernel for rec in d["memory_accesses"]):
            table.append((kernel, "(no finding)", "global ld/st",
                          "ideal", " / ".join(f"{v:.2f}" for v in
                                              (measured[("global", "load")] or 0,
                                               measured[("global", "store")] or 0)), "-"))
    rep.out("### Memory: sectors per request and wavefronts per instruction")
    rep.out()
    rep.out("Predicted: warplint's record for the access (sectors per warp request for global "
            "memory, wavefronts per warp instruction for shared memory); ncu: the same ratio "
            "over the launch. Agreement within 5%.")
    rep.out()
    rep.table(["kernel", "access", "space", "predicted", "ncu", "agree"], table)


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


def sanitizer_section(rep, warplint, results, tmp):
    texts = {}
    archive = os.path.join(results, "sanitizer.tar.gz")
    if os.path.exists(archive):
        import tarfile
        with tarfile.open(archive) as t:
            for m in t.getmembers():
                texts[os.path.basename(m.name)] = t.extractfile(m).read().decode()
    else:
        for name in os.listdir(results):
            if re.match(r"(racecheck|synccheck)-\w+\.out$", name):
                texts[name] = open(os.path.join(results, name)).read()
    if not texts:
        return
    d = check_json(warplint, "bench/gpu/sync_kernels.cu",
                   ["--registers-from", "none", "--checks",
                    "-*,warplint-barrier-divergence,warplint-warp-sync-mask,warplint-data-race"],
                   tmp)
    static = collections.defaultdict(list)
    for f in d["findings"]:
        m = re.search(r"kernel '(\w+)'", f.get("message", ""))
        kernel = m.group(1) if m else None
        if kernel is None:
            # data-race messages name the object, not the kernel: place by line.
            src = open(os.path.join(ROOT, "bench/gpu/sync_kernels.cu")).read().splitlines()
            for i in range(f["line"] - 1, -1, -1):
                k = re.match(r"__global__ void (\w+)", src[i])
                if k:
                    kernel = k.group(1)
                    break
        static[kernel].append(f"{f['check'].replace('warplint-', '')} ({f['severity']})")
    kernels = sorted({re.match(r"\w+?-(\w+)\.out", n).group(1) for n in texts})
    rows = []
    for k in kernels:
        race = texts.get(f"racecheck-{k}.out", "")
        sync = texts.get(f"synccheck-{k}.out", "")
        m = re.search(r"RACECHECK SUMMARY: \d+ hazards displayed \((\d+) errors, (\d+) warnings\)", race)
        n = re.search(r"ERROR SUMMARY: (\d+) error", sync)
        hazards = int(m.group(1)) + int(m.group(2)) if m else None
        reported = any(f.startswith("data-race") for f in static.get(k, []))
        # racecheck sees shared memory only: each kernel of the races and the silent cases
        # but the global stencil must be reported by the data-race check exactly when
        # racecheck finds a hazard.
        if hazards is not None and "Global" not in k and (hazards > 0) != reported:
            rep.disagree(f"racecheck: {k}: {hazards} hazards, warplint-data-race "
                         f"{'reports it' if reported else 'is silent'}")
        rows.append((k, ", ".join(static.get(k, [])) or "silent",
                     f"{m.group(1)} errors, {m.group(2)} warnings" if m else "?",
                     f"{n.group(1)} errors" if n else "?"))
    rep.out("### compute-sanitizer on bench/gpu/sync_kernels.cu, kernel by kernel")
    rep.out()
    rep.table(["kernel", "warplint", "racecheck hazards", "synccheck"], rows)


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
    probe_section(rep, args.warplint, args.results, device)
    ncu_section(rep, args.warplint, args.results, device)
    with tempfile.TemporaryDirectory() as tmp:
        trace_section(rep, args.warplint, args.results, tmp)
        divergence_section(rep, args.warplint, args.results, tmp)
        memory_section(rep, args.warplint, args.results, tmp)
        sanitizer_section(rep, args.warplint, args.results, tmp)
    measured_tables(rep, args.results)
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
