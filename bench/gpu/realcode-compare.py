#!/usr/bin/env python3
"""Holds realcode.sh's ncu captures against warplint's launch records.

usage: realcode-compare.py WARPLINT CUDA_SAMPLES RESULTS_DIR

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
    bad = 0
    total = matched = 0
    print("| program | profiled launches | matched | disagreements |")
    print("|---|---|---|---|")
    defects = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, rel in SAMPLES.items():
            csv = os.path.join(results, name + ".csv")
            if not os.path.exists(csv) or os.path.getsize(csv) == 0:
                print(f"| {name} | not captured | | |")
                continue
            d = os.path.join(samples, "Samples", rel)
            sources = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".cu"))
            page = os.path.join(tmp, name + ".html")
            r = subprocess.run([warplint, "report", *sources, "--arch", "sm_90", "--no-cache",
                                "--registers-from", "ptxas-log", "--ptxas-log",
                                os.path.join(results, name + ".ptxas.log"), "--ncu", csv,
                                "-o", page, "--", "-I" + os.path.join(samples, "Common")],
                               capture_output=True, text=True)
            m = re.search(r"ncu: (\d+) profiled launches, (\d+) matched, (\d+) not matched to a "
                          r"source launch, (\d+) disagreements?", r.stderr)
            if not m:
                print(f"| {name} | report failed: {r.stderr.strip().splitlines()[-1:]} | | |")
                bad += 1
                continue
            n, ok, unmatched, dis = map(int, m.groups())
            total += n
            matched += ok
            print(f"| {name} | {n} | {ok} | {dis} |")
            if dis or unmatched:
                bad += 1
                text = open(page).read()
                for line in re.findall(r'class="defect[^>]*>(.*?)<', text):
                    defects.append(f"{name}: {html.unescape(line)}")
    print(f"\n{matched} of {total} profiled launches matched to a source launch.")
    for line in sorted(set(defects)):
        print("- " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
