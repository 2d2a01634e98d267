#!/usr/bin/env python3
"""Holds bench/gpu/lines.sh's per-line Nsight Compute captures against warplint's memory and
divergence records, line by line.

usage: lines-compare.py WARPLINT CUDA_SAMPLES LLM_C RESULTS_DIR [--markdown FILE]
                        [--hecbench HECBENCH]

RESULTS_DIR holds PROGRAM-KERNEL.both.csv (ncu's source page, CUDA lines with their SASS)
for each profiled kernel. For each program, `warplint check` runs on the sources it was
built from (sm_90, --no-cache, registers not needed) and its JSON records are matched to
the kernel's lines by file and line:

- memory: every access warplint records as a warning or a note (shared: wavefronts over
  the ideal; global: sectors over the ideal) against the same line's measured figure, and
  every line the hardware measures at 1.25x its ideal or more (and 1% or more of the
  kernel's traffic in that space) against what warplint says there;
- divergence: every branch warplint records (warning, note or silent with an idiom) against
  the lanes that executed its arm: ncu's predicated-on thread instructions per executed
  instruction over the arm's lines.

A line's loads in an inlined helper (a comparator taking shared elements by reference) are
counted at the helper's lines; the comparison then says "traffic counted elsewhere" and
gives the kernel's whole figure for that space.
"""
import csv
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

SAMPLES = {
    "transpose": "6_Performance/transpose",
    "convolutionSeparable": "2_Concepts_and_Techniques/convolutionSeparable",
    "histogram": "2_Concepts_and_Techniques/histogram",
    "sortingNetworks": "2_Concepts_and_Techniques/sortingNetworks",
    "reduction": "2_Concepts_and_Techniques/reduction",
    "scan": "2_Concepts_and_Techniques/scan",
    "fastWalshTransform": "5_Domain_Specific/fastWalshTransform",
    "matrixMul": "0_Introduction/matrixMul",
    "mergeSort": "0_Introduction/mergeSort",
    "BlackScholes": "5_Domain_Specific/BlackScholes",
    "quasirandomGenerator": "5_Domain_Specific/quasirandomGenerator",
    "vectorAdd": "0_Introduction/vectorAdd",
}
EXCESS = 1.25  # a measured line at this many times its ideal or more is "in excess"
SHARE = 0.01   # ... when it carries at least this share of the kernel's traffic


def num(s):
    s = (s or "-").replace(",", "")
    try:
        return float(s)
    except ValueError:
        return 0.0


def read_lines(path):
    """(file, line) -> the line's metrics from ncu's CUDA,SASS source page."""
    cur = hdr = None
    out = {}
    with open(path, newline="") as f:
        for r in csv.reader(f):
            if not r:
                continue
            if r[0] == "File Path":
                cur = r[1]
            elif r[0] == "Line No":
                hdr = r
            elif r[0] not in ("", "Function Name", "Kernel Name") and hdr and r[0].isdigit():
                d = dict(zip(hdr, r))
                out[(os.path.basename(cur), int(r[0]))] = {
                    "inst": num(d.get("Instructions Executed")),
                    "pred_threads": num(d.get("Predicated-On Thread Instructions Executed")),
                    "wf": num(d.get("L1 Wavefronts Shared")),
                    "wf_ideal": num(d.get("L1 Wavefronts Shared Ideal")),
                    "sec": num(d.get("L2 Theoretical Sectors Global")),
                    "sec_ideal": num(d.get("L2 Theoretical Sectors Global Ideal")),
                }
    return out


def base(kernel):
    return re.sub(r"<.*", "", kernel).split("(")[0].split()[-1]


def arm_lines(path, line):
    """The lines of the statement an if/loop condition on LINE controls (a brace pair or
    one statement), by a plain scan of the source."""
    try:
        text = open(path, errors="replace").read().split("\n")
    except OSError:
        return []
    rest = "\n".join(text[line - 1:])
    m = re.search(r"\b(if|for|while)\s*\(", rest)
    if not m:
        return []
    i, depth = m.end(), 1
    while i < len(rest) and depth:
        depth += {"(": 1, ")": -1}.get(rest[i], 0)
        i += 1
    j = i
    while j < len(rest) and rest[j].isspace():
        j += 1
    if j < len(rest) and rest[j] == "{":
        depth, k = 0, j
        while k < len(rest):
            depth += {"{": 1, "}": -1}.get(rest[k], 0)
            k += 1
            if depth == 0:
                break
    else:
        k = rest.find(";", j) + 1
    first = line + rest[:j].count("\n")
    last = line + rest[:k].count("\n")
    return list(range(first + (1 if rest[j:j + 1] == "{" else 0), last + 1))


def warplint_json(warplint, sources, flags, tmp, name):
    out = os.path.join(tmp, name + ".json")
    subprocess.run([warplint, "check", *sources, "--arch", "sm_90", "--no-cache",
                    "--registers-from", "none", "--format", "json", "-o", out, "--", *flags],
                   capture_output=True, text=True)
    return json.load(open(out))


def fmt(x):
    return "-" if x is None else (f"{x:.2f}x" if isinstance(x, float) else str(x))


def main():
    args = sys.argv[1:]
    md = None
    if "--markdown" in args:
        i = args.index("--markdown")
        md = args[i + 1]
        del args[i:i + 2]
    hecbench = None
    if "--hecbench" in args:
        i = args.index("--hecbench")
        hecbench = args[i + 1]
        del args[i:i + 2]
    warplint, samples, llmc, results = args
    tags = sorted(os.path.basename(p)[:-len(".both.csv")]
                  for p in glob.glob(os.path.join(results, "*.both.csv")))
    programs = {}
    for tag in tags:
        known = list(SAMPLES) + ["llmc-attention_forward", "hec-laplace3d", "hec-dwconv"]
        prog = next(p for p in known if tag.startswith(p + "-"))
        if prog.startswith("hec-") and not hecbench:
            continue
        programs.setdefault(prog, []).append(tag[len(prog) + 1:])
    mem_rows, excess_rows, branch_rows = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for prog, kernels in programs.items():
            if prog.startswith("hec-"):
                sources = [os.path.join(hecbench, "src", prog[4:] + "-cuda", "main.cu")]
                flags = ["-std=c++17", "-I" + os.path.join(hecbench, "src", "tensorAccessor-cuda")]
            elif prog.startswith("llmc-"):
                sources = [os.path.join(llmc, "dev", "cuda", prog[5:] + ".cu")]
                flags = ["-std=c++17"]
            else:
                d = os.path.join(samples, "Samples", SAMPLES[prog])
                sources = sorted(glob.glob(os.path.join(d, "*.cu")))
                flags = ["-I" + os.path.join(samples, "Common")]
            rec = warplint_json(warplint, sources, flags, tmp, prog)
            paths = {os.path.basename(a["file"]): a["file"]
                     for a in rec.get("branches", []) + rec.get("memory_accesses", [])}
            for k in kernels:
                hw = read_lines(os.path.join(results, f"{prog}-{k}.both.csv"))
                tot = {"shared": sum(v["wf"] for v in hw.values()),
                       "global": sum(v["sec"] for v in hw.values())}
                ideal = {"shared": sum(v["wf_ideal"] for v in hw.values()),
                         "global": sum(v["sec_ideal"] for v in hw.values())}

                def measured(space, key):
                    v = hw.get(key)
                    if not v:
                        return None
                    got, want = (v["wf"], v["wf_ideal"]) if space == "shared" else (v["sec"], v["sec_ideal"])
                    return got / want if want else None

                said = {}
                for a in rec.get("memory_accesses", []):
                    if base(a["kernel"]) != k or a["severity"] not in ("warning", "note"):
                        continue
                    key = (os.path.basename(a["file"]), a["line"])
                    pred = (a["wavefronts"] / a["ideal_wavefronts"] if a["space"] == "shared"
                            else a["sectors"] / a["ideal_sectors"])
                    said.setdefault((a["space"], key), []).append(a["severity"])
                    m = measured(a["space"], key)
                    v = hw.get(key, {})
                    traffic = v.get("wf" if a["space"] == "shared" else "sec", 0)
                    kernel_ratio = tot[a["space"]] / ideal[a["space"]] if ideal[a["space"]] else None
                    # The figures of each sampled run-time value, where the record has them.
                    figs = [int(x) / int(y) for x, y in re.findall(
                        r"(\d+) (?:sectors for \d+ bytes|wavefronts) \(ideal (\d+)\)",
                        a.get("note_reason") or "")]
                    little = m is None or traffic < SHARE * tot[a["space"]]
                    if m is not None and not little and a.get("sampled_values") and figs:
                        agree = min(figs) - 0.05 <= m <= max(figs) + 0.05 or \
                            (m >= EXCESS) == (pred >= EXCESS)
                        verdict = (f"run-time value: the samples give {min(figs):.2f}x to "
                                   f"{max(figs):.2f}x, the run {m:.2f}x")
                    elif m is not None and (m >= EXCESS) == (pred >= EXCESS):
                        agree, verdict = True, "agrees"
                    elif little:
                        # The line's loads are counted at an inlined helper's lines.
                        verdict = "traffic counted elsewhere (kernel " + fmt(kernel_ratio) + ")"
                        agree = kernel_ratio is not None and (kernel_ratio >= EXCESS) == (pred >= EXCESS)
                    else:
                        agree, verdict = False, "disagrees"
                    mem_rows.append((prog, k, f"{key[0]}:{key[1]}", a["space"], a["access"][:40],
                                     a["severity"], float(pred), m, verdict, agree))
                for key, v in sorted(hw.items()):
                    for space, got, want in (("shared", v["wf"], v["wf_ideal"]),
                                             ("global", v["sec"], v["sec_ideal"])):
                        if want and got / want >= EXCESS and got >= SHARE * tot[space]:
                            sev = said.get((space, key))
                            excess_rows.append((prog, k, f"{key[0]}:{key[1]}", space, got / want,
                                                got / tot[space],
                                                ",".join(sorted(set(sev))) if sev else "nothing"))
                seen = set()
                for b in rec.get("branches", []):
                    if base(b["kernel"]) != k or (b["severity"] == "silent" and not b.get("idiom")):
                        continue
                    # One row per branch: template instantiations repeat it.
                    if (b["file"], b["line"], b["condition"]) in seen:
                        continue
                    seen.add((b["file"], b["line"], b["condition"]))
                    arm = arm_lines(b["file"], b["line"])
                    fname = os.path.basename(b["file"])
                    inst = sum(hw.get((fname, ln), {}).get("inst", 0) for ln in arm)
                    thr = sum(hw.get((fname, ln), {}).get("pred_threads", 0) for ln in arm)
                    shape = b["shapes"][b["worst_shape"]] if b.get("worst_shape") is not None and b["shapes"] else None
                    pred = shape["predicted_efficiency"] if shape else None
                    branch_rows.append((prog, k, f"{fname}:{b['line']}", b["kind"], b["condition"][:40],
                                        b["severity"] + (f" ({b['idiom']})" if b.get("idiom") else ""),
                                        pred, thr / inst if inst else None))
    out = []
    out.append("Memory: warplint's records (warnings and notes) against the measured line\n")
    out.append("| program | kernel | line | space | access | warplint | predicted | measured | verdict |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for r in mem_rows:
        out.append("| " + " | ".join([r[0], r[1], r[2], r[3], "`" + r[4] + "`", r[5], fmt(r[6]), fmt(r[7]), r[8]]) + " |")
    out.append("\nMeasured lines at 1.25x their ideal or more (and 1% or more of the kernel's traffic)\n")
    out.append("| program | kernel | line | space | measured | share of the kernel's traffic | warplint at that line |")
    out.append("|---|---|---|---|---|---|---|")
    for r in excess_rows:
        out.append(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]:.2f}x | {100 * r[5]:.0f}% | {r[6]} |")
    out.append("\nBranches: warplint's records against the lanes that executed the arm "
               "(predicated-on thread instructions per instruction, over the arm's lines)\n")
    out.append("| program | kernel | line | kind | condition | warplint | predicted branch efficiency | measured lanes in the arm |")
    out.append("|---|---|---|---|---|---|---|---|")
    for r in branch_rows:
        pe = "-" if r[6] is None else f"{100 * r[6]:.0f}%"
        lanes = "no instructions" if r[7] is None else f"{r[7]:.1f} of 32"
        out.append(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | `{r[4]}` | {r[5]} | {pe} | {lanes} |")
    def tally(rows):
        kinds = {"agrees": 0, "run-time value": 0, "traffic counted elsewhere": 0, "disagrees": 0}
        for r in rows:
            kind = next(k for k in kinds if r[8].startswith(k))
            kinds[kind] += 1
        bad = sum(1 for r in rows if not r[9])
        return (f"{len(rows)}: agrees at the line {kinds['agrees']}, a run-time value whose "
                f"samples cover the run {sum(1 for r in rows if r[9] and r[8].startswith('run-time'))}, "
                f"counted at a helper's lines and the kernel agrees "
                f"{sum(1 for r in rows if r[9] and r[8].startswith('traffic'))}, disagrees {bad}")
    warn = [r for r in mem_rows if r[5] == "warning"]
    out.append(f"\nmemory records {tally(mem_rows)}; of them warnings {tally(warn)}; measured excess lines "
               f"{len(excess_rows)}, of them with a warplint warning "
               f"{sum(1 for r in excess_rows if 'warning' in r[6])}, a note only "
               f"{sum(1 for r in excess_rows if r[6] == 'note')}, nothing "
               f"{sum(1 for r in excess_rows if r[6] == 'nothing')}")
    text = "\n".join(out)
    print(text)
    if md:
        open(md, "w").write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
