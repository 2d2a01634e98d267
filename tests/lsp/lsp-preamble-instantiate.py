#!/usr/bin/env python3
"""warplint lsp's preamble instantiates its headers' pending templates into the PCH
(-fpch-instantiate-templates), and two things the PCH does not carry are not lost from an
edit's diagnostics (driver/run/Preamble.h):

- dd.cu: hd.h's __host__ __device__ function calls a host function; clang defers that
  error until device code reaches it, and the deferred diagnostic, recorded while the
  preamble is built, is not in the PCH. An edit whose kernel calls it is parsed again
  without the preamble and says the error, as a save does; so is one that calls a class
  template's member whose instantiation (with the same error) moved into the PCH; an edit
  that calls neither keeps the preamble.
- warn.cu: warn.h's template warns when it is instantiated (at the end of the preamble):
  that preamble is built without instantiating, and the warning stays with the parse.

Each unsaved text's diagnostics (the preamble worker) are compared with those of the same
text saved (a child process that parses the whole file, no preamble).

usage: lsp-preamble-instantiate.py WARPLINT SOURCE_DIR WORK_DIR
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
with open(os.path.join(inc, "hd.h"), "w") as f:
    f.write("#pragma once\n"
            "void hostOnly();\n"
            "// Deferred: an error only once device code reaches hd.\n"
            "__host__ __device__ inline void hd(float *P) { hostOnly(); *P = 0.0f; }\n"
            "// Left pending by the header, instantiated at the preamble's end.\n"
            "template <class T> struct Twice {\n"
            "  __host__ __device__ static T of(T X) { return X + X; }\n"
            "};\n"
            "inline float twiceHost(float X) { return Twice<float>::of(X); }\n"
            "// Both: instantiated at the preamble's end, and its call deferred there.\n"
            "template <class T> struct Via {\n"
            "  __host__ __device__ static void call(T *P) { hostOnly(); *P = T(); }\n"
            "};\n"
            "inline void viaHost(float *P) { Via<float>::call(P); }\n")
with open(os.path.join(inc, "warn.h"), "w") as f:
    f.write("#pragma once\n"
            "template <class T> struct Ratio {\n"
            "  static int of() { return int(sizeof(T)) / T(0); }\n"
            "};\n"
            "inline int ratioHost() { return Ratio<int>::of(); }\n")
DD = ("// lsp-preamble-instantiate input: a deferred diagnostic in a header\n"
      "#include <cuda_runtime.h>\n"
      "#include \"hd.h\"\n"
      "\n"
      "__global__ void fill(float *D, int N) {\n"
      "  int I = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (I < N)\n"
      "    D[I] = Twice<float>::of(1.0f);\n"
      "}\n"
      "\n"
      "void run(float *D, int N) { fill<<<(N + 255) / 256, 48>>>(D, N); }\n")
WARN = ("// lsp-preamble-instantiate input: a warning where a header's template is instantiated\n"
        "#include <cuda_runtime.h>\n"
        "#include \"warn.h\"\n"
        "\n"
        "__global__ void scale(float *D, int N) {\n"
        "  int I = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  if (I < N)\n"
        "    D[I] *= 2.0f;\n"
        "}\n"
        "\n"
        "void run(float *D, int N) { scale<<<(N + 39) / 40, 40>>>(D, N); }\n")
files = {"dd.cu": DD, "warn.cu": WARN}
db = []
for name, text in files.items():
    path = os.path.join(proj, name)
    with open(path, "w") as f:
        f.write(text)
    db.append({"directory": proj, "file": path,
               "arguments": ["clang++", "-x", "cuda", "-nocudainc", "-nocudalib", "-isystem",
                             mock, "-I", inc, "-include", "cuda_runtime.h",
                             "--cuda-device-only", "--cuda-gpu-arch=sm_86", "-std=c++17",
                             "-c", path]})
with open(os.path.join(proj, "build", "compile_commands.json"), "w") as f:
    json.dump(db, f)
env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def canonical(diags):
    return sorted(json.dumps(d, sort_keys=True) for d in diags)


HOST_CALL = "reference to __host__ function 'hostOnly' in __host__ __device__ function"

client = Client([warplint, "lsp", "--debounce", "50", "--no-cache"], cwd=work, env=env)
initialize(client, proj)
version = [1]


def open_and_build(name):
    path = os.path.join(proj, name)
    open_file(client, path)
    client.diagnostics(uri(path))
    return client.message("window/logMessage", name + ": preamble built")["message"]


def edit_and_compare(name, text, what, preamble):
    """didChange with text (the worker's parse), then the same text saved (a parse of the
    whole file): the two publishes are the same; preamble: whether the worker's parse used
    the file's preamble."""
    path = os.path.join(proj, name)
    version[0] += 1
    for m in client.seen:
        m["_taken"] = True
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri(path), "version": version[0]},
        "contentChanges": [{"text": text}]})
    typed = client.diagnostics(uri(path))
    said = client.message("window/logMessage", name + ": unsaved text analysed")["message"]
    check(("with a preamble" in said) == preamble,
          "%s: parsed %s the preamble: %s" % (what, "with" if preamble else "without", said))
    with open(path, "w") as f:
        f.write(text)
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri(path)}})
    whole = client.diagnostics(uri(path))
    check(canonical(typed) == canonical(whole),
          "%s: the edit's diagnostics are those of the whole file's parse:\n  typed %s\n"
          "  whole %s" % (what, typed, whole))
    return typed


built = open_and_build("dd.cu")
check("templates instantiated" in built and "2 with deferred diagnostics" in built,
      "dd.cu's preamble instantiates its templates and has the deferred diagnostics of hd "
      "and Via<float>::call: %s" % built)
# The kernel calls hd: the PCH lacks its error; the edit is parsed without the preamble.
calls = DD.replace("    D[I] = Twice<float>::of(1.0f);\n",
                   "    D[I] = Twice<float>::of(1.0f);\n  hd(D);\n")
got = edit_and_compare("dd.cu", calls, "an edit that calls hd", preamble=False)
check(any(HOST_CALL in d["message"] for d in got),
      "the edit says hd's call of a host function: %s" % got)
# The kernel calls Via<float>::call, instantiated into the PCH with its deferred error.
via = DD.replace("    D[I] = Twice<float>::of(1.0f);\n",
                 "    D[I] = Twice<float>::of(1.0f);\n  Via<float>::call(D);\n")
got = edit_and_compare("dd.cu", via, "an edit that calls Via<float>::call", preamble=False)
check(any(HOST_CALL in d["message"] for d in got),
      "the edit says Via<float>::call's call of a host function: %s" % got)
# Without the call: the preamble is used, and there is no such error.
plain = calls.replace("  hd(D);\n", "  D[I] += 1.0f;\n")
got = edit_and_compare("dd.cu", plain, "an edit that does not call hd", preamble=True)
check(not any(HOST_CALL in d["message"] for d in got), "no host-call error: %s" % got)
check(any(d.get("code") == "warplint-block-size-warp-multiple" for d in got),
      "the 48-thread block is still a finding: %s" % got)

built = open_and_build("warn.cu")
check("templates left to the parse" in built,
      "warn.cu's preamble does not instantiate (its instantiation warns): %s" % built)
got = edit_and_compare("warn.cu", WARN + "\nint added;\n", "an edit of warn.cu", preamble=True)
check(any(d.get("code") == "warplint-block-size-warp-multiple" for d in got),
      "the 40-thread block is a finding: %s" % got)

client.call("shutdown")
client.notify("exit")
check(client.exit_code() == 0, "the server exits with 0")
if failures:
    sys.exit(1)
print("lsp-preamble-instantiate: ok")
