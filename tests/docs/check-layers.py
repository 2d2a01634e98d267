#!/usr/bin/env python3
"""The folders depend on what docs/architecture.md says they depend on, and on nothing else.

Reads the folder table of docs/architecture.md (its "depends on" column) and every
`#include "folder/..."` of the project's own folders in core/, model/, resources/,
divergence/ and checks/ (core's public headers are `warplint/core/...`). An include of a
project folder the table does not name for the including folder is a defect: model/
reaching into checks/ (the IgnoredKernels filter once lived there) fails this test.

Once the analysis has left clang-tidy's namespace (scripts/house/move-namespaces.sh, which
writes checks/AnalysisNames.h), a file of model/, divergence/ or resources/ that opens
`namespace clang::tidy` is a defect too: that namespace is for the clang-tidy code only.

usage: check-layers.py SOURCE_DIR
"""
import os
import re
import sys

PROJECT = ("core", "model", "resources", "divergence", "checks", "plugin", "driver", "trace")
CHECKED = ("core", "model", "resources", "divergence", "checks")


def allowed(arch_md):
    """{folder: set of project folders it may include}, from the table's rows."""
    out = {}
    for line in open(arch_md, encoding="utf-8"):
        m = re.match(r"\| `(\w+)/` \|.*\| ([^|]+) \|\s*$", line)
        if not m or m.group(1) not in PROJECT:
            continue
        deps = set(re.findall(r"(\w+)/", m.group(2))) & set(PROJECT)
        out[m.group(1)] = deps | {m.group(1)}
    return out


def main():
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    root = sys.argv[1]
    table = allowed(os.path.join(root, "docs", "architecture.md"))
    problems, seen = [], 0
    for folder in CHECKED:
        if folder not in table:
            problems.append(f"docs/architecture.md has no row for {folder}/")
            continue
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                if not name.endswith((".h", ".cpp")):
                    continue
                path = os.path.join(dirpath, name)
                for n, line in enumerate(open(path, encoding="utf-8"), 1):
                    m = re.match(r'\s*#\s*include\s+"([^"/]+)/([^"/]+)/?', line)
                    if not m:
                        continue
                    target = m.group(1)
                    if target == "warplint" and m.group(2) == "core":
                        target = "core"
                    if target not in PROJECT:
                        continue  # clang/, llvm/, clang-tidy/: the libraries
                    seen += 1
                    if target not in table[folder]:
                        problems.append(f"{os.path.relpath(path, root)}:{n}: {folder}/ includes "
                                        f"{target}/, which docs/architecture.md does not list "
                                        f"among what {folder}/ depends on")
    # After the namespace move only (its generated header is the mark).
    moved = os.path.exists(os.path.join(root, "checks", "AnalysisNames.h"))
    if moved:
        for folder in ("model", "divergence", "resources"):
            for dirpath, _, files in os.walk(os.path.join(root, folder)):
                for name in sorted(files):
                    if not name.endswith((".h", ".cpp")):
                        continue
                    path = os.path.join(dirpath, name)
                    for n, line in enumerate(open(path, encoding="utf-8"), 1):
                        if re.match(r"\s*namespace\s+clang::tidy\b", line):
                            problems.append(f"{os.path.relpath(path, root)}:{n}: {folder}/ opens "
                                            "namespace clang::tidy, which is for the clang-tidy "
                                            "code only (the analysis is in namespace warplint)")
    for p in problems:
        print("LAYER:", p)
    print(f"{seen} project includes in {', '.join(CHECKED)}; namespaces "
          f"{'checked' if moved else 'not checked (before the move)'}: {len(problems)} problems")
    return 1 if problems or seen == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
