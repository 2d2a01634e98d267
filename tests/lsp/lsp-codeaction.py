#!/usr/bin/env python3
"""warplint lsp's code actions: the server advertises codeActionProvider; on the line of a
finding with a fix-it (warplint-shared-bank-conflict's padding) textDocument/codeAction
returns a quickfix with that diagnostic and a WorkspaceEdit that pads the tile; a range
with a finding without a fix-it returns none; applying the edit to the text gives the
padded declaration.

usage: lsp-codeaction.py WARPLINT SOURCE_DIR WORK_DIR
"""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Client, initialize, open_file, uri  # noqa: E402

warplint, source, work = sys.argv[1:4]
warplint, source = os.path.abspath(warplint), os.path.abspath(source)
mock = os.path.join(source, "tests", "Inputs", "cuda")

shutil.rmtree(work, ignore_errors=True)
proj = os.path.join(work, "proj")
os.makedirs(os.path.join(proj, "build"))
tile = os.path.join(proj, "tile.cu")
shutil.copy(os.path.join(source, "tests", "Inputs", "fixes", "tile.cu"), tile)
args = ["clang++", "-x", "cuda", "-nocudainc", "-nocudalib", "-isystem", mock, "-include",
        "cuda_runtime.h", "--cuda-device-only", "--cuda-gpu-arch=sm_86", "-std=c++17", "-c"]
with open(os.path.join(proj, "build", "compile_commands.json"), "w") as f:
    json.dump([{"directory": proj, "file": tile, "arguments": args + [tile]}], f)
env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


client = Client([warplint, "lsp", "--debounce", "50"], cwd=work, env=env)
caps = initialize(client, proj)["capabilities"]
check(caps.get("codeActionProvider") == {"codeActionKinds": ["quickfix"]},
      "codeActionProvider advertised: %s" % caps.get("codeActionProvider"))
open_file(client, tile)
diags = client.diagnostics(uri(tile))
codes = sorted((d["range"]["start"]["line"], d.get("code")) for d in diags)
check(codes == [(7, "warplint-shared-bank-conflict"), (11, "warplint-uncoalesced-access")],
      "findings of tile.cu: %s" % codes)


def actions(first, last):
    r = client.call("textDocument/codeAction", {
        "textDocument": {"uri": uri(tile)},
        "range": {"start": {"line": first, "character": 0}, "end": {"line": last, "character": 0}},
        "context": {"diagnostics": []}})
    check("result" in r, "codeAction answered: %s" % r)
    return r.get("result") or []


# The bank conflict's line: one quick fix, the padding.
fixes = actions(7, 7)
check(len(fixes) == 1, "one code action on line 8: %s" % fixes)
if fixes:
    a = fixes[0]
    check(a["kind"] == "quickfix" and a.get("isPreferred") is True, "a preferred quickfix")
    check([d.get("code") for d in a["diagnostics"]] == ["warplint-shared-bank-conflict"],
          "the action names its diagnostic")
    edits = a["edit"]["changes"].get(uri(tile), [])
    check(edits == [{"range": {"start": {"line": 4, "character": 28},
                               "end": {"line": 4, "character": 30}}, "newText": "33"}],
          "the edit pads the tile: %s" % edits)
    # Applied to the text, the edit gives the padded declaration.
    lines = open(tile).read().split("\n")
    if edits:
        e = edits[0]
        r = e["range"]
        line = lines[r["start"]["line"]]
        lines[r["start"]["line"]] = (line[:r["start"]["character"]] + e["newText"] +
                                     line[r["end"]["character"]:])
    check(lines[4] == "  __shared__ float tile[32][33];", "padded: %r" % lines[4])
# The strided load has no fix-it; a line without findings has no action.
check(actions(11, 11) == [], "no action for the uncoalesced load")
check(actions(0, 2) == [], "no action where there is no finding")
# The whole file: the one fix.
check(len(actions(0, 20)) == 1, "one action in the whole file")

client.call("shutdown")
client.notify("exit")
check(client.exit_code() == 0, "exit 0 after shutdown")
if failures:
    print("%d failure(s)" % len(failures), file=sys.stderr)
    sys.exit(1)
print("lsp code actions: ok")
