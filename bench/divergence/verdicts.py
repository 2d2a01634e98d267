#!/usr/bin/env python3
"""Thread-dependent branches by verdict, from `warplint check --format json` runs.

Counts the model's branch records (the JSON's `branches`, one per branch, kernel,
template instantiation and TU) of each run by verdict: warning, note, and silent per idiom
or reason (`bounds-guard`, `tree-reduction-tail`, `leader`, `warp-uniform`, ...). Also
by place (file, line, column over every TU: a header's branch seen from many TUs is one
place), where a place takes its most severe verdict (warning, then note, then silent; a
silent place the idiom of most of its records). Prints a Markdown table, a column per run
and one for all of them.

usage: verdicts.py NAME=RUN.json [NAME=RUN.json ...]
"""
import collections
import json
import sys

ORDER = {"warning": 0, "note": 1, "silent": 2}


def verdict(b):
    if b["severity"] != "silent":
        return b["severity"]
    return "silent: " + (b["idiom"] or "(no idiom)")


def count(runs):
    """{name: (records Counter, places Counter)}"""
    out = {}
    for name, js in runs:
        records = collections.Counter(verdict(b) for b in js.get("branches", []))
        at = collections.defaultdict(list)
        for b in js.get("branches", []):
            at[(b["file"], b["line"], b["column"])].append(b)
        places = collections.Counter()
        for bs in at.values():
            worst = min(bs, key=lambda b: ORDER.get(b["severity"], 3))["severity"]
            if worst != "silent":
                places[worst] += 1
            else:
                places[collections.Counter(verdict(b) for b in bs).most_common(1)[0][0]] += 1
        out[name] = (records, places)
    return out


def main():
    if len(sys.argv) < 2 or any("=" not in a for a in sys.argv[1:]):
        sys.stderr.write(__doc__)
        return 2
    runs = []
    for arg in sys.argv[1:]:
        name, path = arg.split("=", 1)
        with open(path, encoding="utf-8") as f:
            js = json.load(f)
        if "branches" not in js:
            sys.stderr.write(f"{path}: no 'branches' (a warplint before branch records, or "
                             "warplint-divergent-branch off)\n")
            return 1
        runs.append((name, js))
    counts = count(runs)
    names = [n for n, _ in runs]
    keys = sorted({k for r, p in counts.values() for k in list(r) + list(p)},
                  key=lambda k: (ORDER.get(k.split(":")[0], 3), k))
    cols = [f"{n} records / places" for n in names] + ["all records / places"]
    print("| verdict | " + " | ".join(cols) + " |")
    print("|---|" + "---:|" * len(cols))
    total = {n: (sum(r.values()), sum(p.values())) for n, (r, p) in counts.items()}
    for k in keys:
        cells = [f"{counts[n][0][k]} / {counts[n][1][k]}" for n in names]
        cells.append(f"{sum(counts[n][0][k] for n in names)} / "
                     f"{sum(counts[n][1][k] for n in names)}")
        print(f"| {k} | " + " | ".join(cells) + " |")
    cells = [f"{total[n][0]} / {total[n][1]}" for n in names]
    cells.append(f"{sum(t[0] for t in total.values())} / {sum(t[1] for t in total.values())}")
    print("| all | " + " | ".join(cells) + " |")
    for name, js in runs:
        print(f"\n{name}: {len(js.get('files_analysed', []))} files analysed, "
              f"{len(js.get('files_failed', []))} failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
