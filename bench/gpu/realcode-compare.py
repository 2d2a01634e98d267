#!/usr/bin/env python3
"""Holds realcode.sh's ncu captures against warplint's launch records.

usage: realcode-compare.py WARPLINT CUDA_SAMPLES RESULTS_DIR [LLM_C]

For each program: `warplint report` on the sample's .cu files (sm_90, registers from the
build's own ptxas log, `-I Common`) with `--ncu NAME.csv`; prints one row per program
(profiled launches, matched to a source launch, disagreements) and the defect lines.
Exit 1 when a launch disagrees.
"""
import html
import os
import re
import subprocess
import sys
import tempfile

SAMPLES = {
    "vectorAdd": "0_Introduction/vectorAdd", "matrixMul": "0_Introduction/matrixMul",
    "mergeSort": "0_Introduction/mergeSort", "histogram": "2_Concepts_and_Techniques/histogram",
    "scan": "2_Concepts_and_Techniques/scan",
    "sortingNetworks": "2_Concepts_and_Techniques/sortingNetworks",
    "convolutionSeparable": "2_Concepts_and_Techniques/convolutionSeparable",
    "reduction": "2_Concepts_and_Techniques/reduction",
    "threadFenceReduction": "2_Concepts_and_Techniques/threadFenceReduction",
    "fastWalshTransform": "5_Domain_Specific/fastWalshTransform",
    "BlackScholes": "5_Domain_Specific/BlackScholes",
    "quasirandomGenerator": "5_Domain_Specific/quasirandomGenerator",
    "transpose": "6_Performance/transpose", "alignedTypes": "6_Performance/alignedTypes",
}


def main():
    warplint, samples, results = sys.argv[1:4]
    llmc = sys.argv[4] if len(sys.argv) > 4 else None
    programs = [(name, os.path.join(samples, "Samples", rel), ["-I" + os.path.join(samples, "Common")])
                for name, rel in SAMPLES.items()]
    if llmc:
        for f in sorted(os.listdir(results)):
            m = re.match(r"llmc-(\w+)\.csv$", f)
            if m:
                programs.append(("llmc-" + m.group(1),
                                 os.path.join(llmc, "dev", "cuda", m.group(1) + ".cu"), []))
    bad = 0
    total = matched = 0
    print("| program | profiled launches | matched | launch groups | registers compared | model on ncu's inputs compared | theoretical occupancy compared | disagreements |")
    print("|---|---|---|---|---|---|---|---|")
    defects = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, where, flags in programs:
            csv = os.path.join(results, name + ".csv")
            if not os.path.exists(csv) or os.path.getsize(csv) == 0:
                print(f"| {name} | not captured | | |")
                continue
            if os.path.isdir(where):
                sources = sorted(os.path.join(where, f) for f in os.listdir(where)
                                 if f.endswith(".cu"))
            else:
                sources = [where]
            page = os.path.join(tmp, name + ".html")
            r = subprocess.run([warplint, "report", *sources, "--arch", "sm_90", "--no-cache",
                                "--registers-from", "ptxas-log", "--ptxas-log",
                                os.path.join(results, name + ".ptxas.log"), "--ncu", csv,
                                "-o", page, "--", *flags],
                               capture_output=True, text=True)
            m = re.search(r"ncu: (\d+) profiled launch(?:es)?, (\d+) matched, (\d+) not matched to "
                          r"a source launch, (\d+) disagreements?", r.stderr)
            if not m:
                print(f"| {name} | report failed: {r.stderr.strip().splitlines()[-1:]} | | |")
                bad += 1
                continue
            n, ok, unmatched, dis = map(int, m.groups())
            total += n
            matched += ok
            text = open(page).read()
            # Launch groups (one kernel and shape) and those where both sides give the
            # theoretical occupancy (warplint knows the launch's registers and shared memory).
            occ = re.findall(r"<tr[^>]*><th>theoretical occupancy</th><td>([^<]*)</td><td>([^<]*)</td>", text)
            both = sum(1 for a, b in occ if a != "-" and b != "-")
            regs = re.findall(r"<tr[^>]*><th>registers per thread</th><td>([^<]*)</td><td>([^<]*)</td>", text)
            regs_both = sum(1 for a, b in regs if a[:1].isdigit() and b != "-")
            model = re.findall(r"<tr[^>]*><th>warplint&#39;s model on ncu&#39;s inputs[^<]*</th><td>([^<]*)</td><td>([^<]*)</td>", text)
            model_both = sum(1 for a, b in model if a != "-" and b != "-")
            print(f"| {name} | {n} | {ok} | {len(occ)} | {regs_both} | {model_both} | {both} | {dis} |")
            if dis or unmatched:
                bad += 1
                for line in re.findall(r'class="defect[^>]*>(.*?)<', text):
                    defects.append(f"{name}: {html.unescape(line)}")
    print(f"\n{matched} of {total} profiled launches matched to a source launch.")
    for line in sorted(set(defects)):
        print("- " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
