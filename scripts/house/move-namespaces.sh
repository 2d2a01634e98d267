#!/bin/bash
# Moves model/, divergence/ and resources/ out of clang::tidy::warplint (clang-tidy's
# namespace, for the checks only) into the project's namespace `warplint`, where core/
# already is, and fixes every user. Idempotent: a second run changes nothing, and it can
# run on a tree with other branches merged (it works from what the files declare, not from
# a list). Run from the repository root: bash scripts/house/move-namespaces.sh
#
# What it does (docs/architecture.md "Namespaces"):
#  1. model/'s BranchRecord (the branch as the model decides it) becomes BranchModel, beside
#     LaunchModel, AccessModel and SyncModel: core's BranchRecord (the plain record every
#     output prints) already has the name in namespace warplint.
#  2. In model/, divergence/ and resources/, `namespace clang::tidy::warplint` becomes
#     `namespace warplint`; a file that includes a clang header names clang's AST types
#     unqualified through `using namespace clang;` inside it, as it did from inside clang::.
#  3. The checks (clang::tidy::warplint) see the analysis's names through one generated
#     header, checks/AnalysisNames.h: a using-declaration per name that checks/ or plugin/
#     use, nothing else; forward declarations of those names in checks/ headers go.
#  4. driver/ and tests/ qualify `clang::tidy::warplint::NAME` of a moved name as
#     `::warplint::NAME`; unit tests `using namespace ::warplint`.
# Needs: python3, universal-ctags.
set -euo pipefail
command -v ctags >/dev/null || { echo "move-namespaces.sh: needs ctags (universal-ctags)" >&2; exit 2; }
exec python3 - "$@" <<'PY'
import os, re, subprocess, sys

MOVED = ("model", "divergence", "resources")
OLD = "clang::tidy::warplint"

def files(*dirs, exts=(".h", ".cpp")):
    out = []
    for d in dirs:
        for dp, _, fs in os.walk(d):
            out += [os.path.join(dp, f) for f in sorted(fs) if f.endswith(exts)]
    return sorted(out)

def read(p):
    return open(p, encoding="utf-8").read()

def write(p, s):
    if read(p) != s:
        open(p, "w", encoding="utf-8").write(s)
        print("changed", p)

moved = files(*MOVED)
users = files("checks", "plugin", "driver", "tests")

# 1. model's BranchRecord -> BranchModel (only while model/Branches.h still declares it).
if re.search(r"^struct BranchRecord\b", read("model/Branches.h"), re.M):
    for p in moved + files("checks", "plugin", "tests"):
        if p.startswith("model/Records."):
            continue  # core's records: its BranchRecord keeps the name
        s = read(p)
        if p.startswith("tests/") and OLD not in s:
            continue  # a driver test: its BranchRecord is core's
        s = re.sub(r"clang::tidy::warplint::BranchRecord\b", "::warplint::BranchModel", s)
        s = re.sub(r"(?<![\w:])BranchRecord\b", "BranchModel", s)
        write(p, s)

# 2. the namespace of the analysis.
for p in moved:
    s = read(p)
    s = s.replace("namespace clang::tidy::warplint {", "namespace warplint {")
    s = s.replace("} // namespace clang::tidy::warplint", "} // namespace warplint")
    s = re.sub(r"(?<![\w:])clang::tidy::warplint::", "::warplint::", s)
    # clang-tidy's own names the analysis reads (the options map), now from outside
    s = re.sub(r"(?<![\w:/])(ClangTidyOptions)\b", r"clang::tidy::\1", s)
    if re.search(r'^#include "clang/|^namespace clang \{', s, re.M):
        # once, after the first namespace warplint { that is not a forward declaration block
        if not re.search(r"^namespace warplint \{\nusing namespace clang;", s, re.M):
            m = None
            for m in re.finditer(r"^namespace warplint \{\n", s, re.M):
                rest = s[m.end():m.end() + 400]
                if not re.match(r"(struct|class) \w+;\n(struct|class) \w+;\n\}|(struct|class) \w+;\n\}", rest):
                    break
            if m:
                s = s[:m.end()] + "using namespace clang;\n" + s[m.end():]
    write(p, s)

# The names the analysis declares at namespace scope (its headers; model/Records.h was
# core's records in namespace warplint before the move, and the checks do not use them
# unqualified).
tags = subprocess.run(["ctags", "--languages=C++", "--kinds-C++=cfgstuvp", "--fields=+s",
                       "-x", "--_xformat=%N\t%s\t%F", "-o", "-"] +
                      [p for p in moved if p.endswith(".h") and p != "model/Records.h"],
                      capture_output=True, text=True, check=True).stdout
declared = {}  # name -> the headers that declare it
for l in tags.splitlines():
    name, scope, path = l.split("\t")[:3]
    if scope in ("warplint", OLD) and not name.startswith("operator"):
        declared.setdefault(name, set()).add(path)
names = sorted(declared)

# 3. the checks' view of the analysis.
header = "checks/AnalysisNames.h"
check_files = [p for p in files("checks", "plugin") if p != header]
used = set()
for p in check_files:
    words = set(re.findall(r"(?<![\w:.>])([A-Za-z_]\w*)", re.sub(r"//.*", "", read(p))))
    used |= words & set(names)
for p in check_files:
    s = read(p)
    # forward declarations of a moved name in clang::tidy::warplint: the header has them
    s2 = re.sub(r"^(struct|class) (\w+);\n", lambda m: "" if m.group(2) in used else m.group(0), s, flags=re.M)
    s2 = re.sub(r"(namespace clang::tidy::warplint \{\n)\n\n", r"\1\n", s2)
    if s2 != s and '#include "checks/AnalysisNames.h"' not in s2:
        s2 = re.sub(r'^(#include "checks/\w+\.h"\n)', r'\1#include "checks/AnalysisNames.h"\n', s2, count=1, flags=re.M)
        if '#include "checks/AnalysisNames.h"' not in s2:
            s2 = re.sub(r'^(#pragma once\n)', r'\1\n#include "checks/AnalysisNames.h"\n', s2, count=1, flags=re.M)
    s = s2
    if p.endswith(".h") or p.endswith(".cpp"):
        mine = set(re.findall(r"(?<![\w:.>])([A-Za-z_]\w*)", re.sub(r"//.*", "", s))) & used
        if mine and '#include "checks/AnalysisNames.h"' not in s and "namespace clang::tidy::warplint {" in s:
            s = re.sub(r'^(#include "[^"]+"\n)', r'\1#include "checks/AnalysisNames.h"\n', s, count=1, flags=re.M)
    s = re.sub(r"(?<![\w:])clang::tidy::warplint::(%s)\b" % "|".join(map(re.escape, names)) if names else r"(?!x)x",
               r"::warplint::\1", s)
    write(p, s)
# only the headers that declare a name the checks use (the layers test: checks/ reads
# model/ and divergence/, not resources/)
# (a name of resources/ the checks use, such as KernelFigures, comes through model/'s headers)
includes = sorted({h for n in used for h in declared[n] if not h.startswith("resources/")})
text = ("//===- AnalysisNames.h - the analysis's names in the checks' namespace -*- C++ -*-===//\n"
        "// Generated by scripts/house/move-namespaces.sh (run it again to refresh): the checks\n"
        "// live in clang::tidy::warplint, the analysis (model/, divergence/, resources/) in\n"
        "// warplint; one using-declaration per name of the analysis that checks/ or plugin/ use.\n"
        "#pragma once\n\n" + "".join('#include "%s"\n' % p for p in includes) +
        "\nnamespace clang::tidy::warplint {\n" +
        "".join("using ::warplint::%s;\n" % n for n in sorted(used)) +
        "} // namespace clang::tidy::warplint\n")
if not os.path.exists(header) or read(header) != text:
    open(header, "w", encoding="utf-8").write(text)
    print("wrote", header, "(%d names)" % len(used))

# 4. the driver and the tests.
for p in files("driver", "tests"):
    s = read(p)
    s = re.sub(r"(?<![\w:])clang::tidy::warplint::(%s)\b" % "|".join(map(re.escape, names)),
               r"::warplint::\1", s)
    s = s.replace("using namespace clang::tidy::warplint;", "using namespace ::warplint;")
    write(p, s)
PY
