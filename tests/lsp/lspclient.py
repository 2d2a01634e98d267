"""A small Language Server Protocol client over pipes, for warplint's lsp tests."""
import json
import os
import queue
import subprocess
import threading
import time


class Client:
    def __init__(self, argv, cwd=None, env=None):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd, env=env)
        self.inbox = queue.Queue()
        self.seen = []        # every message received, in order
        self.next_id = 1
        self.stderr = b""
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            if length is None:
                raise AssertionError("server sent a header block without Content-Length")
            body = out.read(length)
            self.inbox.put(json.loads(body))

    def _read_stderr(self):
        self.stderr = self.proc.stderr.read()

    def send_raw(self, data: bytes):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message):
        body = json.dumps(message).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method, params=None):
        self.send({"jsonrpc": "2.0", "method": method, "params": params or {}})

    def request(self, method, params=None):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params or {}})
        return rid

    def wait(self, predicate, timeout=120, what="a message"):
        """The first message not yet taken for which predicate holds."""
        for m in self.seen:
            if not m.get("_taken") and predicate(m):
                m["_taken"] = True
                return m
        deadline = time.time() + timeout
        while True:
            left = deadline - time.time()
            if left <= 0:
                raise AssertionError("timed out waiting for %s; received: %s" %
                                     (what, json.dumps(self.seen[-20:], indent=1)[:6000]))
            try:
                m = self.inbox.get(timeout=left)
            except queue.Empty:
                continue
            if m is None:
                raise AssertionError("the server closed its output while waiting for %s "
                                     "(stderr: %s)" % (what, self.stderr[-2000:]))
            self.seen.append(m)
            if predicate(m):
                m["_taken"] = True
                return m

    def response(self, rid, timeout=120):
        return self.wait(lambda m: m.get("id") == rid and "method" not in m, timeout,
                         "the response to request %s" % rid)

    def call(self, method, params=None, timeout=120):
        return self.response(self.request(method, params), timeout)

    def diagnostics(self, uri, timeout=120):
        return self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and
                         m["params"]["uri"] == uri, timeout,
                         "diagnostics of %s" % uri)["params"]["diagnostics"]

    def message(self, method, contains, timeout=120):
        return self.wait(lambda m: m.get("method") == method and
                         contains in m["params"]["message"], timeout,
                         "%s containing %r" % (method, contains))["params"]

    def messages(self, method):
        return [m["params"]["message"] for m in self.seen if m.get("method") == method]

    def exit_code(self, timeout=60):
        return self.proc.wait(timeout=timeout)


def uri(path):
    from urllib.parse import quote
    return "file://" + quote(os.path.abspath(path))


def initialize(client, root, utf8=False):
    caps = {"general": {"positionEncodings": ["utf-8", "utf-16"] if utf8 else ["utf-16"]},
            "textDocument": {"publishDiagnostics": {"relatedInformation": True}}}
    r = client.call("initialize", {"processId": os.getpid(), "rootUri": uri(root),
                                   "capabilities": caps})
    client.notify("initialized", {})
    return r["result"]


def open_file(client, path, version=1):
    with open(path) as f:
        text = f.read()
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri(path), "languageId": "cuda", "version": version, "text": text}})
