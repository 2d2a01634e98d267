#!/usr/bin/env python3
"""warplint lsp's preamble reaches past a namespace alias between two #includes (as
cuda-samples write `namespace cg = cooperative_groups;`), and an edit parsed with it gets
the diagnostics of a parse of the whole file: each unsaved text's diagnostics (from the
preamble worker) are compared with those of the same text saved (a child process that
parses the whole file, no preamble), for an edit after the extended preamble (the
preamble reused) and one inside it, past clang's own bounds (the preamble built again).

usage: lsp-preamble.py WARPLINT SOURCE_DIR WORK_DIR
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
inc = os.path.join(proj, "inc")
os.makedirs(os.path.join(proj, "build"))
os.makedirs(inc)
with open(os.path.join(inc, "ns.h"), "w") as f:
    f.write("#pragma once\nnamespace wl_ns {\ntypedef float real;\n}\n")
# The header after the alias: its kernel's bound (256) is in the launch's finding, so an
# edit's diagnostics read it from the preamble.
with open(os.path.join(inc, "helper.h"), "w") as f:
    f.write("#pragma once\n"
            "__global__ void __launch_bounds__(256) boundedScale(float *D, float F, int N) {\n"
            "  int I = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "  if (I < N)\n"
            "    D[I] *= F;\n"
            "}\n")
main = os.path.join(proj, "main.cu")
HEAD = ("// lsp-preamble input: an alias between the includes\n"
        "#include <cuda_runtime.h>\n"
        "#include \"ns.h\"\n"
        "\n"
        "namespace wn = wl_ns;\n"
        "typedef wn::real real_t;\n"
        "#define WIDTH 40\n"
        "#include \"helper.h\"\n")
BODY = ("\n"
        "__global__ void scale(real_t *Data, real_t Factor, int N) {\n"
        "  int I = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;\n"
        "  if (I < N)\n"
        "    Data[I] *= Factor;\n"
        "}\n"
        "\n"
        "void run(real_t *Data, int N) {\n"
        "  scale<<<(N + 79) / 80, dim3(WIDTH, 2)>>>(Data, 2.0f, N);\n"
        "  boundedScale<<<(N + 511) / 512, 512>>>(Data, 2.0f, N);\n"
        "}\n")
with open(main, "w") as f:
    f.write(HEAD + BODY)
args = ["clang++", "-x", "cuda", "-nocudainc", "-nocudalib", "-isystem", mock, "-I", inc,
        "-include", "cuda_runtime.h", "--cuda-device-only", "--cuda-gpu-arch=sm_86",
        "-std=c++17", "-c", main]
with open(os.path.join(proj, "build", "compile_commands.json"), "w") as f:
    json.dump([{"directory": proj, "file": main, "arguments": args}], f)
env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def codes(diags):
    return sorted((d["range"]["start"]["line"], d.get("code")) for d in diags)


def canonical(diags):
    return sorted(json.dumps(d, sort_keys=True) for d in diags)


WIDTH_FINDING = "warplint-block-size-warp-multiple"
BOUND_FINDING = "warplint-launch-config-invalid"

client = Client([warplint, "lsp", "--debounce", "50", "--no-cache"], cwd=work, env=env)
initialize(client, proj)
open_file(client, main)
opened = client.diagnostics(uri(main))
check(codes(opened) == [(16, WIDTH_FINDING), (17, BOUND_FINDING)],
      "main.cu's findings on open: %s" % codes(opened))
check(any("256" in d["message"] for d in opened if d.get("code") == BOUND_FINDING),
      "the launch's finding quotes helper.h's bound of 256: %s" % opened)
built = client.message("window/logMessage", "main.cu: preamble built")["message"]
# Through line 8 (helper.h's #include), past the alias, the typedef and the #define.
check("to line 8, past the directives" in built,
      "the preamble reaches past the alias to helper.h's #include: %s" % built)

version = [1]


def edit_and_compare(text, what, preamble):
    """didChange with text (the worker's parse), then the same text saved (a parse of the
    whole file): the two publishes are the same. preamble: whether the edit's parse has
    the file's preamble (True: reused; False: the edit is inside it, so it is built
    again after the parse)."""
    version[0] += 1
    for m in client.seen:
        m["_taken"] = True
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri(main), "version": version[0]},
        "contentChanges": [{"text": text}]})
    typed = client.diagnostics(uri(main))
    said = client.message("window/logMessage", "main.cu: unsaved text analysed")["message"]
    check(("with a preamble" in said) == preamble,
          "%s: parsed %s the preamble: %s" % (what, "with" if preamble else "without", said))
    if not preamble:
        again = client.message("window/logMessage", "main.cu: preamble ")["message"]
        check("to line" in again and "past the directives" in again,
              "%s: the extended preamble is built again: %s" % (what, again))
    with open(main, "w") as f:
        f.write(text)
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri(main)}})
    whole = client.diagnostics(uri(main))
    check(canonical(typed) == canonical(whole),
          "%s: the edit's diagnostics are those of the whole file's parse:\n  typed %s\n"
          "  whole %s" % (what, typed, whole))
    return typed


# After the extended preamble: a launch of 33 threads added; the preamble is reused.
after = HEAD + BODY.replace("  boundedScale<<<", "  scale<<<1, 33>>>(Data, 2.0f, N);\n"
                            "  boundedScale<<<")
got = edit_and_compare(after, "an edit after the preamble", preamble=True)
check(codes(got) == [(16, WIDTH_FINDING), (17, WIDTH_FINDING), (18, BOUND_FINDING)],
      "the launch of 33 threads is a finding: %s" % codes(got))

# Inside it, past clang's bounds (after the alias): WIDTH 40 -> 64; the first launch's
# finding goes. The preamble cannot be reused; it is built again.
inside = after.replace("#define WIDTH 40", "#define WIDTH 64")
got = edit_and_compare(inside, "an edit inside the extended preamble", preamble=False)
check(codes(got) == [(17, WIDTH_FINDING), (18, BOUND_FINDING)],
      "with WIDTH 64 the 64x2 block is no finding: %s" % codes(got))

# And after it again, with the new preamble: the 33-thread launch removed.
last = inside.replace("  scale<<<1, 33>>>(Data, 2.0f, N);\n", "")
got = edit_and_compare(last, "an edit after the rebuilt preamble", preamble=True)
check(codes(got) == [(17, BOUND_FINDING)], "only the bound's finding is left: %s" % codes(got))

client.call("shutdown")
client.notify("exit")
check(client.exit_code() == 0, "the server exits with 0")
if failures:
    sys.exit(1)
print("lsp-preamble: ok")
