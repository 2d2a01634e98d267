#!/usr/bin/env python3
"""warplint lsp end to end, over pipes: initialize, didOpen -> publishDiagnostics (the
exact findings of a small file parsed against warplint's mock CUDA header, the same as
`warplint check` gives), hover on a launch (the figures of check's JSON launch record),
didChange + didSave (the findings move with the code), malformed input and unknown
methods (the server answers and goes on), a file without a compile database, a file that
does not parse, a crashed analysis, shutdown/exit and the exit codes.

usage: lsp-e2e.py WARPLINT SOURCE_DIR WORK_DIR
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Client, initialize, open_file, uri  # noqa: E402

warplint, source, work = sys.argv[1:4]
warplint, source = os.path.abspath(warplint), os.path.abspath(source)
mock = os.path.join(source, "tests", "Inputs", "cuda")
inputs = os.path.join(source, "tests", "lsp", "Inputs")

shutil.rmtree(work, ignore_errors=True)
proj = os.path.join(work, "proj")
os.makedirs(os.path.join(proj, "build"))
for name in ("kernel.cu", "broken.cu"):
    shutil.copy(os.path.join(inputs, name), proj)
kernel = os.path.join(proj, "kernel.cu")
mock_args = ["clang++", "-x", "cuda", "-nocudainc", "-nocudalib", "-isystem", mock,
             "-include", "cuda_runtime.h", "--cuda-device-only", "--cuda-gpu-arch=sm_86",
             "-std=c++17", "-c"]
# The database lists kernel.cu only (broken.cu gets the command of a similar file), in
# build/ below the project, where the server must find it on its own.
with open(os.path.join(proj, "build", "compile_commands.json"), "w") as f:
    json.dump([{"directory": proj, "file": kernel, "arguments": mock_args + [kernel]}], f)
cache = os.path.join(work, "cache")
env = dict(os.environ, XDG_CACHE_HOME=cache)

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def key(d):
    r = d["range"]["start"]
    return (r["line"], r["character"], d["severity"], d.get("code"), d["message"])


def from_check(path, extra=()):
    """`warplint check --format json` on the same file and database: (findings, launches)."""
    p = subprocess.run([warplint, "check", "--format", "json", "-p",
                        os.path.join(proj, "build"), *extra, path],
                       capture_output=True, text=True, env=env)
    out = json.loads(p.stdout)
    return out["findings"], out["launches"]


# The exact findings of kernel.cu (0-based lines and columns, as LSP counts them). scale
# indexes by both thread dimensions, so its 2-D block dim3(40, 2) does not race.
EXPECTED = [
    (16, 2, 2, "warplint-block-size-warp-multiple",
     "block dim3(40,2) is not a whole number of warps: 80 threads in 3 warps, 16 lanes idle"),
    (17, 2, 2, "warplint-launch-config-invalid",
     "block of 512 threads is over the __launch_bounds__ maximum of 256 threads of kernel "
     "'boundedScale'"),
]

client = Client([warplint, "lsp", "--debounce", "50"], cwd=work, env=env)
result = initialize(client, proj)
caps = result["capabilities"]
check(caps.get("hoverProvider") is True, "hoverProvider")
check(caps.get("textDocumentSync", {}).get("save") is not None, "save notifications asked for")
check(caps.get("positionEncoding") == "utf-16", "utf-16 positions without utf-8 offered")
check(result["serverInfo"]["name"] == "warplint", "serverInfo")

# didOpen -> the findings.
t0 = time.time()
open_file(client, kernel)
diags = client.diagnostics(uri(kernel))
print("first diagnostics after %.2f s" % (time.time() - t0))
got = sorted(key(d) for d in diags)
check(got == sorted(EXPECTED), "findings of kernel.cu:\n got      %s\n expected %s" %
      (got, sorted(EXPECTED)))
# The same as `warplint check` on the file.
check_findings, check_launches = from_check(kernel)
check([(f["line"] - 1, f["column"] - 1, f["check"], f["message"]) for f in check_findings] ==
      [(g[0], g[1], g[3], g[4]) for g in sorted(got)], "lsp and check give the same findings")
for d in diags:
    href = d.get("codeDescription", {}).get("href", "")
    check(href.endswith("checks/%s.md" % d["code"]), "codeDescription of %s: %s" % (d["code"], href))
    if href.startswith("file://"):
        check(os.path.exists(href[len("file://"):]), "check page exists: " + href)
    check(d.get("source") == "warplint", "source warplint")
    check(d["range"]["end"]["character"] > d["range"]["start"]["character"], "non-empty range")
invalid = [d for d in diags if d.get("code") == "warplint-launch-config-invalid"]
related = invalid[0].get("relatedInformation", []) if invalid else []
check([(r["location"]["uri"], r["location"]["range"]["start"], r["message"]) for r in related] ==
      [(uri(kernel), {"line": 9, "character": 16},
        "__launch_bounds__ of 'boundedScale' declared here")],
      "the launch-bounds finding's note is its relatedInformation: %s" % related)

# Hover on the last launch: check's JSON launch record, figure by figure.
launch = [l for l in check_launches if l["line"] == 19][0]
hover = client.call("textDocument/hover", {"textDocument": {"uri": uri(kernel)},
                                           "position": {"line": 18, "character": 4}})["result"]
text = hover["contents"]["value"] if hover else ""
print(text)
check(hover and hover["contents"]["kind"] == "markdown", "hover is markdown")
check("**occupancy %s%%**" % ("%g" % round(launch["occupancy"] * 100, 1)) in text,
      "hover quotes check's occupancy %s" % launch["occupancy"])
check("%d of %d warps per SM" % (launch["active_warps_per_sm"], launch["max_warps_per_sm"])
      in text, "hover warps")
check("%d blocks per SM" % launch["blocks_per_sm"] in text, "hover blocks per SM")
check("registers unknown, warp slots allow no more" in text and launch["limiters"] == ["warps"],
      "hover limiter %s" % launch["limiters"])
check("registers not counted" in text, "hover says registers are not counted (mock header)")
check("block 256 = 256 threads (8 warps)" in text, "hover block")
check(hover and hover["range"]["start"] == {"line": 18, "character": 2}, "hover range on the launch")
nothing = client.call("textDocument/hover", {"textDocument": {"uri": uri(kernel)},
                                             "position": {"line": 3, "character": 0}})
check(nothing.get("result") is None and "error" not in nothing, "no hover off a launch")

# didChange + didSave: two lines above the launches move every finding down by two.
with open(kernel) as f:
    text = f.read()
edited = text.replace("void run(", "// moved\n// down\nvoid run(")
client.notify("textDocument/didChange", {"textDocument": {"uri": uri(kernel), "version": 2},
                                         "contentChanges": [{"text": edited}]})
with open(kernel, "w") as f:
    f.write(edited)
t0 = time.time()
client.notify("textDocument/didSave", {"textDocument": {"uri": uri(kernel)}})
diags = client.diagnostics(uri(kernel))
print("diagnostics after save %.2f s" % (time.time() - t0))
check(sorted(key(d) for d in diags) == sorted((e[0] + 2,) + e[1:] for e in EXPECTED),
      "findings moved by two lines after the save: %s" % sorted(key(d) for d in diags))

# Malformed input and unknown methods: answered or logged, and the server goes on.
client.send_raw(b"this is not a header\r\n\r\n")
client.message("window/logMessage", "without Content-Length")
body = b'{"jsonrpc": "2.0", "id": 99, "method": '
client.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
err = client.wait(lambda m: m.get("error", {}).get("code") == -32700, what="parse error")
check(err["id"] is None, "a parse error is answered with id null")
client.message("window/logMessage", "not JSON")
unknown = client.call("warplint/noSuchMethod", {})
check(unknown.get("error", {}).get("code") == -32601, "unknown request: MethodNotFound")
client.notify("warplint/noSuchNotification", {})
client.message("window/logMessage", "ignores the notification 'warplint/noSuchNotification'")
bad = client.call("textDocument/hover", {"position": {"line": 0}})
check(bad.get("error", {}).get("code") == -32602, "hover without a document: InvalidParams")
# An id that is an object (JSON-RPC allows a number or a string): refused with id null,
# not answered under that object.
body = json.dumps({"jsonrpc": "2.0", "id": {"a": 1}, "method": "textDocument/hover",
                   "params": {"textDocument": {"uri": uri(kernel)},
                              "position": {"line": 0, "character": 0}}}).encode()
client.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
err = client.wait(lambda m: m.get("error", {}).get("code") == -32600 and
                  "neither a number nor a string" in m["error"].get("message", ""),
                  what="an object id refused")
check(err["id"] is None, "an object id is refused with id null")
check(not any(m.get("id") == {"a": 1} for m in client.seen), "nothing answered under an object id")

# A file that does not parse (and is not in the database): clang's error as a
# diagnostic, and a message saying why.
broken = os.path.join(proj, "broken.cu")
open_file(client, broken)
diags = client.diagnostics(uri(broken))
errors = [d for d in diags if d["severity"] == 1]
check(any("no_such_header.h" in d["message"] for d in errors),
      "the missing header is an error diagnostic: %s" % diags)
shown = client.message("window/showMessage", "could not analyse broken.cu")
check(shown["type"] == 2, "the parse failure is shown as a warning")
client.message("window/logMessage", "broken.cu is not in " + os.path.join(proj, "build"))

# A file with no compile database above it: analysed alone (with --mock-cuda below, in
# a second server), and a message says so.
# In the system's temporary directory: the work directory may lie in a build tree with a
# compile_commands.json above it (ctest's does), which the server would find.
alone = tempfile.mkdtemp(prefix="warplint-lsp-alone-")
outside = os.path.join(alone, "kernel.cu")
shutil.copy(os.path.join(inputs, "kernel.cu"), outside)
above = []
d = alone
while True:  # as the server looks: each directory and its build/
    above += [c for c in (d, os.path.join(d, "build"))
              if os.path.exists(os.path.join(c, "compile_commands.json"))]
    if os.path.dirname(d) == d:
        break
    d = os.path.dirname(d)

# A crash of one analysis: the worker process is killed with SIGSEGV while it runs.
big = os.path.join(proj, "big.cu")
with open(big, "w") as f:
    f.write("#include <cuda_runtime.h>\n")
    for i in range(12000):
        f.write("__device__ int f%d(int x) { return x * %d + (x >> 3); }\n" % (i, i))
    f.write("__global__ void k(int *p) { p[threadIdx.x] = f1(threadIdx.x); }\n")
    f.write("void go(int *p) { k<<<1, 100>>>(p); }\n")


def analysis_of(path, other_than=None, timeout=60):
    """The pid of the server's child process analysing path (polled), or None."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        kids = []
        for task in os.listdir("/proc/%d/task" % client.proc.pid):
            try:
                with open("/proc/%d/task/%s/children" % (client.proc.pid, task)) as f:
                    kids += f.read().split()
            except OSError:
                pass
        for k in kids:
            try:
                with open("/proc/%s/cmdline" % k, "rb") as f:
                    if path.encode() in f.read() and int(k) != other_than:
                        return int(k)
            except OSError:
                pass
        time.sleep(0.005)
    return None


def gone(pid, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with open("/proc/%d/stat" % pid) as f:
                if f.read().split()[2] == "Z":
                    return True  # ended, not reaped yet
        except OSError:
            return True
        time.sleep(0.01)
    return False


open_file(client, big)
# A save during the analysis ends it (cancelled, superseded) and starts another.
first = analysis_of(big)
check(first is not None, "the analysis of big.cu runs in a child process")
client.notify("textDocument/didSave", {"textDocument": {"uri": uri(big)}})
client.message("window/logMessage", "analysis of big.cu in progress was ended")
check(first is not None and gone(first), "a save during the analysis ends it")
victim = analysis_of(big, other_than=first)
check(victim is not None, "the save starts a new analysis of big.cu")
if victim:
    os.kill(victim, signal.SIGSEGV)
    crash = client.message("window/showMessage", "crashed (signal 11")
    check(crash["type"] == 1 and "big.cu" in crash["message"], "the crash is shown as an error")
    # The server still answers, and the next save of the file is analysed.
    alive = client.call("textDocument/hover", {"textDocument": {"uri": uri(kernel)},
                                               "position": {"line": 20, "character": 4}})
    check(alive.get("result") is not None, "the server answers a hover after the crash")
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri(big)}})
    diags = client.diagnostics(uri(big), timeout=300)
    check([d.get("code") for d in diags] == ["warplint-block-size-warp-multiple"],
          "big.cu analysed after the crash: %s" % [key(d) for d in diags])

# didClose clears the file's diagnostics.
client.notify("textDocument/didClose", {"textDocument": {"uri": uri(big)}})
client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and
            m["params"]["uri"] == uri(big) and m["params"]["diagnostics"] == [],
            what="didClose publishes no diagnostics")

# shutdown, then exit: status 0; requests after shutdown are refused.
r = client.call("shutdown")
check("result" in r and r["result"] is None, "shutdown answers null")
after = client.call("textDocument/hover", {"textDocument": {"uri": uri(kernel)},
                                           "position": {"line": 0, "character": 0}})
check(after.get("error", {}).get("code") == -32600, "a request after shutdown is refused")
client.notify("exit")
check(client.exit_code() == 0, "exit after shutdown: status 0")

# A second server: the file outside any database, then exit without shutdown: status 1.
if above:
    print("skipping the no-database part: compile_commands.json in %s" % above)
else:
    c2 = Client([warplint, "lsp", "--debounce", "0", "--mock-cuda"], cwd=work, env=env)
    initialize(c2, os.path.dirname(outside), utf8=True)
    open_file(c2, outside)
    said = c2.message("window/showMessage", "no compile_commands.json")
    check(outside in said["message"], "the message names the file")
    diags = c2.diagnostics(uri(outside))
    check(sorted(key(d) for d in diags) == sorted(EXPECTED),
          "a file without a database is analysed alone: %s" % sorted(key(d) for d in diags))
    # A second file without a database: no second popup (it came for every file), a log
    # line instead.
    second = os.path.join(alone, "second.cu")
    shutil.copy(os.path.join(inputs, "kernel.cu"), second)
    open_file(c2, second)
    c2.diagnostics(uri(second))
    c2.message("window/logMessage", "no compile_commands.json in the directory of " + second)
    popups = [m for m in c2.messages("window/showMessage") if "no compile_commands.json" in m]
    check(len(popups) == 1, "the no-database popup is shown once per server: %s" % popups)
    # A file that is not C, C++, CUDA or HIP: not analysed, no popup ("no input files"
    # came as a warning).
    notes = os.path.join(alone, "notes.txt")
    with open(notes, "w") as f:
        f.write("not code\n")
    c2.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri(notes), "languageId": "plaintext", "version": 1, "text": "not code\n"}})
    c2.message("window/logMessage", "notes.txt is not a C, C++, CUDA or HIP file: not analysed")
    check(not any("notes.txt" in m for m in c2.messages("window/showMessage")),
          "no popup for a non-CUDA file: %s" % c2.messages("window/showMessage"))
    # A C++ file with no kernel: analysed, nothing to report, and the log says why (once).
    host = os.path.join(alone, "host.cpp")
    with open(host, "w") as f:
        f.write("int twice(int x) { return 2 * x; }\n")
    open_file(c2, host)
    check(c2.diagnostics(uri(host)) == [], "a file without kernels: no diagnostics")
    c2.message("window/logMessage", "host.cpp: no kernel and no kernel launch in it")
    c2.notify("exit")
    check(c2.exit_code() == 1, "exit without shutdown: status 1")

# The real toolkit and nvcc (skipped without them): with nvcc's figures not cached, a
# first publish comes without them (and a log message says the figures follow), then a
# second; the hover then quotes nvcc's registers.
nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc"
                                if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
if nvcc and not above:
    cold = os.path.join(work, "cold-cache")
    env4 = dict(env, XDG_CACHE_HOME=cold)
    # The register cache is check's: a file `warplint check` just ran nvcc for is answered
    # in one publish, with nvcc's registers.
    shared = os.path.join(alone, "shared.cu")
    shutil.copy(os.path.join(source, "examples", "occupancy.cu"), shared)
    subprocess.run([warplint, "check", shared], env=env4, capture_output=True)
    c4 = Client([warplint, "lsp", "--debounce", "0"], cwd=work, env=env4)
    initialize(c4, os.path.dirname(shared))
    open_file(c4, shared)
    c4.diagnostics(uri(shared), timeout=600)
    h = c4.call("textDocument/hover", {"textDocument": {"uri": uri(shared)},
                                       "position": {"line": 13, "character": 45}})["result"]
    check(h and "registers per thread (from nvcc)" in h["contents"]["value"],
          "check's register cache serves the server's first publish: %s" % h)
    check(not any("not cached yet" in m for m in c4.messages("window/logMessage")),
          "no second publish is announced for a file check cached")
    # A file whose figures are not cached: a first publish without them, a log message
    # saying they follow, a second publish; the hover then quotes nvcc's registers.
    real = os.path.join(alone, "occupancy.cu")
    with open(os.path.join(source, "examples", "occupancy.cu")) as f:
        text = f.read()
    with open(real, "w") as f:
        f.write(text + "static const int notCachedYet = 1;\n")
    open_file(c4, real)
    first = c4.diagnostics(uri(real), timeout=600)
    c4.message("window/logMessage", "not cached yet")
    second = c4.diagnostics(uri(real), timeout=600)
    check([d["code"] for d in first] == [d["code"] for d in second] == ["warplint-occupancy"],
          "both publishes have the occupancy finding: %s / %s" % (first, second))
    h = c4.call("textDocument/hover", {"textDocument": {"uri": uri(real)},
                                       "position": {"line": 13, "character": 45}})["result"]
    check(h and "registers per thread (from nvcc)" in h["contents"]["value"],
          "after the second publish the hover has nvcc's registers: %s" % h)
    c4.call("shutdown")
    c4.notify("exit")
    check(c4.exit_code() == 0, "real toolkit server: exit 0")
else:
    print("skipping the nvcc part: no nvcc")

# --compile-commands-dir: that database for every file; a file it does not list is
# analysed with the command of a similar file, and a message says so. A directory
# without one is refused.
c5 = Client([warplint, "lsp", "--debounce", "0", "--compile-commands-dir",
             os.path.join(proj, "build")], cwd=work, env=env)
initialize(c5, alone)
open_file(c5, outside)
c5.message("window/logMessage", "compile database " + os.path.join(proj, "build"))
c5.message("window/logMessage", outside + " is not in " + os.path.join(proj, "build"))
diags = c5.diagnostics(uri(outside))
check(sorted(key(d) for d in diags) == sorted(EXPECTED),
      "analysed with the database's command for a similar file: %s" % diags)
c5.call("shutdown")
c5.notify("exit")
check(c5.exit_code() == 0, "--compile-commands-dir server: exit 0")
bad = subprocess.run([warplint, "lsp", "--compile-commands-dir", alone], capture_output=True,
                     text=True, stdin=subprocess.DEVNULL)
check(bad.returncode == 2 and "no compile_commands.json there" in bad.stderr,
      "--compile-commands-dir without a database: exit 2 with a message: %s" % bad.stderr)

# A third: the input ends (the editor died): status 1, no hang.
c3 = Client([warplint, "lsp"], cwd=work, env=env)
c3.proc.stdin.close()
check(c3.exit_code() == 1, "end of input: status 1")

shutil.rmtree(alone, ignore_errors=True)
if failures:
    print("%d failure(s)" % len(failures), file=sys.stderr)
    sys.exit(1)
print("lsp-e2e: all passed")
