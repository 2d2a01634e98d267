#!/usr/bin/env python3
"""A check, an output format or an architecture is in every place that names them.

docs/architecture.md ("Adding a check, an output format, an architecture") lists the
files each takes. What the build generates needs no test (the checks' registration and
sources, the formats' sources, the check doc pages compiled in); this test holds the
places it cannot generate against the one list that defines each thing:

- checks: the checks are the `checks/*Check.h` whose first line names one
  (`//===- FooCheck.h - warplint-foo ---`; checks/CMakeLists.txt registers exactly those).
  Each needs its page docs/checks/NAME.md, its row in docs/checks/README.md, in README.md's
  check table and in docs/impact.md's table (how its impact is computed), its row in
  model/Records.cpp's checkImpacts() (where its impact comes from: a launch check's
  function of the launch record, or the function named for the others, which must be
  declared in model/Records.h), and its checker test tests/checkers/NAME.cu; no row or
  page may name a check that does not exist.
- output formats: driver/formats/Formats.h's `OutputFormats` rows; each needs its row in
  the table of docs/user-guide.md "Output formats" (no row there names another) and its
  name in README.md's "- Formats" item.
- architectures: core/lib/Arch.cpp's table (`nvidia(`, `legacy(`, `amd(` rows). Each AMD
  target is in the `--arch` row of docs/user-guide.md, in docs/occupancy.md's table and in
  docs/hip.md's "Wavefront sizes";
  each legacy one in the `--arch` row; the NVIDIA range docs/user-guide.md states
  (`sm_50` to `sm_121`) is the table's first and last.

Prints each place that is missing; exit 1 when one is, 0 otherwise.
usage: check-places.py SOURCE_ROOT
"""
import glob
import os
import re
import sys


def read(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        return f.read()


def checks(root):
    names = {}
    for h in sorted(glob.glob(os.path.join(root, "checks", "*Check.h"))):
        with open(h, encoding="utf-8") as f:
            first = f.readline()
        m = re.match(r"//===- (\w+Check)\.h - (warplint-[a-z0-9-]+) ", first)
        if m:
            names[m.group(2)] = os.path.relpath(h, root)
    return names


def table_names(text, pattern):
    return set(re.findall(pattern, text, re.M))


def section(text, title):
    start = text.index(title)
    end = text.find("\n## ", start + len(title))
    return text[start:] if end < 0 else text[start:end]


def main():
    root = sys.argv[1]
    bad = []
    # Checks.
    found = checks(root)
    if not found:
        bad.append("checks/*Check.h: no header names a check on its first line")
    index = read(root, "docs/checks/README.md")
    readme = section(read(root, "README.md"), "### Checks")
    impact = read(root, "docs/impact.md")
    records_cpp = read(root, "model/Records.cpp")
    records_h = read(root, "model/Records.h")
    impact_table = re.search(r"checkImpacts\(\) \{.*?^\s*\};", records_cpp, re.M | re.S)
    impact_rows = {}
    if not impact_table:
        bad.append("model/Records.cpp: no checkImpacts() table found")
    else:
        for check, launch, computed in re.findall(
                r'^\s*\{"(warplint-[a-z0-9-]+)", (\w+)(?:, "(\w+)")?\},', impact_table.group(0),
                re.M):
            impact_rows[check] = computed or launch
    for check, fn in sorted(impact_rows.items()):
        if fn == "nullptr" or not re.search(rf"\b{fn}\(", records_h):
            bad.append(f"model/Records.cpp checkImpacts(): the row of {check} names no function "
                       f"that model/Records.h declares ({fn})")
    places = {
        "docs/checks/README.md": table_names(index, r"^\| \[(warplint-[a-z0-9-]+)\]"),
        "README.md (### Checks)": table_names(readme, r"^\| \[(warplint-[a-z0-9-]+)\]"),
        "docs/impact.md": table_names(impact, r"^\| (warplint-[a-z0-9-]+) \|"),
        "model/Records.cpp checkImpacts() (its impact)": set(impact_rows),
    }
    for name, header in sorted(found.items()):
        for f in (f"docs/checks/{name}.md", f"tests/checkers/{name}.cu"):
            if not os.path.exists(os.path.join(root, f)):
                bad.append(f"{name} ({header}): no {f}")
        for where, rows in places.items():
            if name not in rows:
                bad.append(f"{name} ({header}): no row in {where}")
    for where, rows in places.items():
        for name in sorted(rows - set(found)):
            bad.append(f"{where}: a row for {name}, which no checks/*Check.h names")
    for page in sorted(glob.glob(os.path.join(root, "docs", "checks", "warplint-*.md"))):
        name = os.path.basename(page)[:-3]
        if name not in found:
            bad.append(f"docs/checks/{name}.md: a page for a check no checks/*Check.h names")
    # Output formats.
    formats_h = read(root, "driver/formats/Formats.h")
    table = formats_h[formats_h.index("OutputFormats[] = {"):]
    table = table[:table.index("\n};")]
    formats = re.findall(r'^    \{"([a-z0-9-]+)",', table, re.M)
    if not formats:
        bad.append("driver/formats/Formats.h: no OutputFormats rows found")
    guide = read(root, "docs/user-guide.md")
    documented = table_names(section(guide, "## Output formats"), r"^\| `([a-z0-9-]+)`")
    for f in formats:
        if f not in documented:
            bad.append(f"format {f} (driver/formats/Formats.h): no row in docs/user-guide.md "
                       "\"Output formats\"")
    listed = re.search(r"^- Formats (.*?)(?:\n\n|\n- )", read(root, "README.md"), re.M | re.S)
    for f in formats:
        if not listed or f"`{f}`" not in listed.group(1):
            bad.append(f"format {f} (driver/formats/Formats.h): not in README.md's \"- Formats\" item")
    for f in sorted(documented - set(formats)):
        bad.append(f"docs/user-guide.md \"Output formats\": a row for {f}, which "
                   "driver/formats/Formats.h's OutputFormats does not have")
    # Architectures.
    arch_cpp = read(root, "core/lib/Arch.cpp")
    rows = re.findall(r'^\s*(nvidia|legacy|amd)\("((?:sm_|gfx)[0-9a-z]+)"', arch_cpp, re.M)
    if not rows:
        bad.append("core/lib/Arch.cpp: no architecture rows found")
    arch_row = re.search(r"^\| `--arch ARCH` \| `sm_86`.*$", guide, re.M)
    arch_row = arch_row.group(0) if arch_row else ""
    if not arch_row:
        bad.append("docs/user-guide.md: no `--arch ARCH` row of `warplint occupancy`")
    occupancy = read(root, "docs/occupancy.md")
    waves = section(read(root, "docs/hip.md"), "## Wavefront sizes")
    for kind, name in rows:
        if kind in ("amd", "legacy") and f"`{name}`" not in arch_row:
            bad.append(f"{name} (core/lib/Arch.cpp): not in docs/user-guide.md's `--arch` row")
        if kind == "amd" and not re.search(rf"^\|[^\n]*\b{name}\b", occupancy, re.M):
            bad.append(f"{name} (core/lib/Arch.cpp): no row of docs/occupancy.md names it")
        if kind == "amd" and not re.search(rf"^\|[^\n]*\b{name}\b", waves, re.M):
            bad.append(f"{name} (core/lib/Arch.cpp): not in docs/hip.md \"Wavefront sizes\"")
    nvidia = [n for k, n in rows if k == "nvidia"]
    if nvidia:
        span = f"(`{nvidia[0]}` to `{nvidia[-1]}`;"
        if span not in guide:
            bad.append(f"docs/user-guide.md: the NVIDIA range is not {span[:-1]}) "
                       "(core/lib/Arch.cpp's first and last nvidia rows)")
    for b in bad:
        print(b)
    print(f"{len(found)} checks, {len(formats)} formats, {len(rows)} architectures: "
          f"{len(bad)} places missing")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
