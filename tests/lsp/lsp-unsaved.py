#!/usr/bin/env python3
"""warplint lsp as you type: didChange with unsaved text gets the diagnostics of that text
(an edit that adds a finding, then one that removes one), from the preamble worker with
the file's precompiled preamble, while the file on disk is untouched; the worker killed
(SIGKILL while idle, SIGSEGV during an analysis) is said, and a new one answers the next
edit.

usage: lsp-unsaved.py WARPLINT SOURCE_DIR WORK_DIR
"""
import json
import os
import re
import shutil
import signal
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
shutil.copy(os.path.join(inputs, "kernel.cu"), proj)
kernel = os.path.join(proj, "kernel.cu")
mock_args = ["clang++", "-x", "cuda", "-nocudainc", "-nocudalib", "-isystem", mock,
             "-include", "cuda_runtime.h", "--cuda-device-only", "--cuda-gpu-arch=sm_86",
             "-std=c++17", "-c"]
big = os.path.join(proj, "big.cu")
with open(os.path.join(proj, "build", "compile_commands.json"), "w") as f:
    json.dump([{"directory": proj, "file": p, "arguments": mock_args + [p]}
               for p in (kernel, big)], f)
env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def key(d):
    r = d["range"]["start"]
    return (r["line"], r["character"], d.get("code"))


with open(kernel) as f:
    saved = f.read()
BLOCK = (16, 2, "warplint-block-size-warp-multiple")
BOUNDS = (17, 2, "warplint-launch-config-invalid")

client = Client([warplint, "lsp", "--debounce", "50"], cwd=work, env=env)
initialize(client, proj)
open_file(client, kernel)
check(sorted(key(d) for d in client.diagnostics(uri(kernel))) == [BLOCK, BOUNDS],
      "kernel.cu's findings on open")
# The worker builds the file's preamble once the file is analysed.
client.message("window/logMessage", "kernel.cu: preamble built")
started = client.message("window/logMessage", "preamble worker started (pid")
pid = int(re.search(r"pid (\d+)", started["message"]).group(1))

version = [1]


def change(text):
    version[0] += 1
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri(kernel), "version": version[0]},
        "contentChanges": [{"text": text}]})


# An edit that adds a finding: a launch of 33 threads (two warps, 31 lanes idle), not
# saved. Its diagnostics are of the unsaved text, parsed with the preamble.
added = saved.replace("  scale<<<(N + 255) / 256, 256>>>(Data, 2.0f, N);\n",
                      "  scale<<<(N + 255) / 256, 256>>>(Data, 2.0f, N);\n"
                      "  scale<<<1, 33>>>(Data, 2.0f, N);\n")
check(added != saved, "the edit changes the text")
t0 = time.time()
change(added)
diags = client.diagnostics(uri(kernel))
print("diagnostics of the unsaved edit after %.2f s" % (time.time() - t0))
got = sorted(key(d) for d in diags)
check(got == [BLOCK, BOUNDS, (19, 2, "warplint-block-size-warp-multiple")],
      "the unsaved launch of 33 threads is a finding on line 20: %s" % got)
new = [d for d in diags if d["range"]["start"]["line"] == 19]
check(new and "33 threads" in new[0]["message"], "the new finding quotes 33 threads: %s" % new)
client.message("window/logMessage", "kernel.cu: unsaved text analysed in")
check(any("with a preamble" in m for m in client.messages("window/logMessage")),
      "the edit was parsed with the preamble: %s" %
      [m for m in client.messages("window/logMessage") if "unsaved text analysed" in m])
with open(kernel) as f:
    check(f.read() == saved, "the file on disk is not touched")

# An edit that removes a finding: the first launch's block of 40x2 becomes 64x2.
removed = added.replace("dim3(40, 2)", "dim3(64, 2)")
change(removed)
got = sorted(key(d) for d in client.diagnostics(uri(kernel)))
check(got == [BOUNDS, (19, 2, "warplint-block-size-warp-multiple")],
      "the 40x2 block's finding is gone with the unsaved 64x2: %s" % got)

# The worker killed while idle: said in the log, its PCH files removed; a new one answers
# the next edit.
pchs = os.path.join(tempfile.gettempdir(), "warplint-preambles-%d" % pid)
check(any(p.endswith(".pch") for p in os.listdir(pchs)) if os.path.isdir(pchs) else False,
      "the worker's preamble is a PCH file in %s" % pchs)
os.kill(pid, signal.SIGKILL)
client.message("window/logMessage", "preamble worker (pid %d)" % pid)
check(not os.path.exists(pchs), "the killed worker's PCH files are removed")
change(saved)  # back to the text on disk: analysed as a save is (the child process)
check(sorted(key(d) for d in client.diagnostics(uri(kernel))) == [BLOCK, BOUNDS],
      "back to the saved text: its findings")
change(removed)
got = sorted(key(d) for d in client.diagnostics(uri(kernel)))
check(got == [BOUNDS, (19, 2, "warplint-block-size-warp-multiple")],
      "after the worker was killed, the next edit is analysed: %s" % got)
starts = [int(re.search(r"pid (\d+)", m).group(1)) for m in client.messages("window/logMessage")
          if "preamble worker started (pid" in m]
check(len(starts) >= 2 and starts[-1] != pid, "a new worker was started: %s" % starts)

# The worker crashing during an analysis (SIGSEGV): shown as an error naming the file; the
# file keeps its diagnostics and the next edit is analysed by a new worker.
with open(big, "w") as f:
    f.write("#include <cuda_runtime.h>\n__global__ void k(int *p) { p[threadIdx.x] = 1; }\n")
open_file(client, big)
client.diagnostics(uri(big))
client.message("window/logMessage", "big.cu: preamble built")
slow = "#include <cuda_runtime.h>\n" + "".join(
    "__device__ int f%d(int x) { return x * %d + (x >> 3); }\n" % (i, i) for i in range(40000))
slow += "__global__ void k(int *p) { p[threadIdx.x] = f1(threadIdx.x); }\n"
slow += "void go(int *p) { k<<<1, 100>>>(p); }\n"
worker = [int(re.search(r"pid (\d+)", m).group(1)) for m in client.messages("window/logMessage")
          if "preamble worker started (pid" in m][-1]


def cpu_ticks(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


idle = cpu_ticks(worker)
client.notify("textDocument/didChange", {"textDocument": {"uri": uri(big), "version": 2},
                                         "contentChanges": [{"text": slow}]})
# Killed once it has spent 0.1 s of CPU on the text (40000 functions take far longer).
deadline = time.time() + 60
while cpu_ticks(worker) < idle + max(1, os.sysconf("SC_CLK_TCK") // 10) and time.time() < deadline:
    time.sleep(0.005)
os.kill(worker, signal.SIGSEGV)
crash = client.message("window/showMessage", "unsaved text of " + big)
check(crash["type"] == 1 and "crashed (signal 11" in crash["message"],
      "the crash during the analysis is shown as an error: %s" % crash)
client.notify("textDocument/didChange", {"textDocument": {"uri": uri(big), "version": 3},
                                         "contentChanges": [{"text": slow}]})
diags = client.diagnostics(uri(big), timeout=300)
check([d.get("code") for d in diags] == ["warplint-block-size-warp-multiple"],
      "big.cu's unsaved text analysed by a new worker after the crash: %s" % diags)

client.call("shutdown")
client.notify("exit")
check(client.exit_code() == 0, "exit 0")
if failures:
    print("%d failure(s)" % len(failures), file=sys.stderr)
    sys.exit(1)
print("lsp-unsaved: all passed")
