#!/usr/bin/env python3
"""A client that vanishes must not leave the server behind.

Cases (each must end the server; one still running after 10 x --limit seconds, at least 5,
counts as hung and fails; an exit later than --limit, default 1, is reported but passes, since
how long it takes depends on the machine's load):
  stdin-idle         initialized, nothing pending; the client closes the server's stdin
  stdin-busy         a 27 MB dsls.diagnoseText and requests waiting on a 5 MB document's
                     analysis are running when stdin closes
  stdout-idle        the client closes its end of the server's stdout, then sends a request
  stdout-mid-write   the client reads part of a multi-megabyte reply, then closes stdout
  killed             the client process is SIGKILLed (both pipes close at once)

Usage: client_vanish_test.py DSLS [--limit 1.0] [--case NAME]
"""
import argparse
import json
import os
import select
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "bench", "fixtures", "bench_ds_config.json")


def frame(obj):
    body = json.dumps(obj).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"processId": None, "rootUri": None, "capabilities": {}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "initialized", "params": {}}


def big_config():
    with open(FIXTURE) as f:
        base = f.read()
    rows = ",\n".join('        {"shard": %d, "path": "s3://corpus/shard-%06d.bin", "tokens": %d}' % (i, i, i * 13)
                      for i in range(60000))
    return base[:base.rindex("}")].rstrip() + ',\n    "train_data_manifest": [\n' + rows + "\n    ]\n}\n"


def big_log(lines):
    return "".join(f"[rank{i % 8}]: step {i} loss 2.{i % 97:02d} grad_norm 1.{i % 89:02d}\n" for i in range(lines))


class Server:
    def __init__(self, dsls):
        self.stdout_r, stdout_w = os.pipe()
        stdin_r, self.stdin_w = os.pipe()
        self.proc = subprocess.Popen([dsls, "--log-level", "info"], stdin=stdin_r, stdout=stdout_w,
                                     stderr=subprocess.PIPE)
        os.close(stdin_r)
        os.close(stdout_w)
        self.buffer = b""

    def send(self, obj):
        self.send_all(frame(obj))

    def send_all(self, data):
        view = memoryview(data)
        while view:
            n = os.write(self.stdin_w, view)
            view = view[n:]

    def read_until(self, needle, timeout=30.0):
        deadline = time.time() + timeout
        while needle not in self.buffer:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError(f"no {needle!r} from the server")
            r, _, _ = select.select([self.stdout_r], [], [], left)
            if r:
                chunk = os.read(self.stdout_r, 65536)
                if not chunk:
                    raise EOFError("server closed stdout")
                self.buffer += chunk

    def initialize(self):
        self.send(INITIALIZE)
        self.read_until(b'"id":1')
        self.send(INITIALIZED)

    def wait_exit(self, since, limit):
        try:
            code = self.proc.wait(timeout=max(limit * 10, 5))
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None, None, self.stderr_tail()
        return code, time.perf_counter() - since, self.stderr_tail()

    def stderr_tail(self):
        try:
            return self.proc.stderr.read().decode("utf-8", "replace")[-600:]
        except Exception:
            return ""

    def close(self):
        for fd in (self.stdin_w, self.stdout_r):
            try:
                os.close(fd)
            except OSError:
                pass


def case_stdin_idle(dsls):
    s = Server(dsls)
    s.initialize()
    t = time.perf_counter()
    os.close(s.stdin_w)
    result = s.wait_exit(t, 1)
    os.close(s.stdout_r)
    return result


def case_stdin_busy(dsls):
    s = Server(dsls)
    s.initialize()
    uri = "file:///vanish/big_ds_config.json"
    s.send_all(frame({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                      "params": {"textDocument": {"uri": uri, "languageId": "json", "version": 1,
                                                  "text": big_config()}}}))
    for i in range(20):
        s.send({"jsonrpc": "2.0", "id": 100 + i, "method": "textDocument/documentSymbol",
                "params": {"textDocument": {"uri": uri}}})
    s.send_all(frame({"jsonrpc": "2.0", "id": 2, "method": "workspace/executeCommand",
                      "params": {"command": "dsls.diagnoseText", "arguments": [{"text": big_log(600000)}]}}))
    # Requests are dispatched in order: once this one is answered, the analyses above are
    # running on the pool (a paste this size takes seconds) and the input is all read.
    s.send({"jsonrpc": "2.0", "id": 99, "method": "dsls/noSuchMethod", "params": {}})
    s.read_until(b'"id":99', timeout=120)
    t = time.perf_counter()
    os.close(s.stdin_w)
    # Keep reading stdout so that the server is never blocked on a full pipe.
    code, seconds, tail = None, None, ""
    deadline = time.time() + 10
    while s.proc.poll() is None and time.time() < deadline:
        r, _, _ = select.select([s.stdout_r], [], [], 0.05)
        if r:
            os.read(s.stdout_r, 1 << 20)
    seconds = time.perf_counter() - t
    if s.proc.poll() is None:
        s.proc.kill()
        s.proc.wait()
        return None, None, s.stderr_tail()
    os.close(s.stdout_r)
    return s.proc.returncode, seconds, s.stderr_tail()


def exit_after_stdout_closed(s, t):
    """The server's exit (within 1 s of t) once its stdout has been closed; then its stdin goes too."""
    result = s.wait_exit(t, 1)
    try:
        os.close(s.stdin_w)
    except OSError:
        pass
    return result


def case_stdout_idle(dsls):
    s = Server(dsls)
    s.initialize()
    os.close(s.stdout_r)
    t = time.perf_counter()
    s.send({"jsonrpc": "2.0", "id": 5, "method": "workspace/executeCommand",
            "params": {"command": "dsls.diagnoseText", "arguments": [{"text": "hello"}]}})
    return exit_after_stdout_closed(s, t)


def case_stdout_mid_write(dsls):
    s = Server(dsls)
    s.initialize()
    with open(FIXTURE) as f:
        text = f.read()
    uri = "file:///vanish/ds_config.json"
    s.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}})
    # Hundreds of completion lists (each the catalog's keys with their documentation) are
    # far more than a pipe holds, so the writer is blocked mid-frame when stdout closes.
    requests = b"".join(frame({"jsonrpc": "2.0", "id": 100 + i, "method": "textDocument/completion",
                               "params": {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 5}}})
                        for i in range(400))
    s.send_all(requests)
    s.read_until(b'"id":100', timeout=60)
    time.sleep(0.2)  # let the queue fill behind the blocked write
    os.close(s.stdout_r)
    t = time.perf_counter()
    return exit_after_stdout_closed(s, t)


CLIENT = """
import json, subprocess, sys, time
body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"processId": None, "rootUri": None, "capabilities": {}}}).encode()
p = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
p.stdin.write(b"Content-Length: %d\\r\\n\\r\\n" % len(body) + body)
p.stdin.flush()
p.stdout.read1(1)
print(p.pid, flush=True)
time.sleep(60)
"""


def process_gone(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def case_killed(dsls):
    # The client owns both pipe ends; SIGKILL closes them together, as when an editor crashes.
    client = subprocess.Popen([sys.executable, "-c", CLIENT, dsls], stdout=subprocess.PIPE)
    pid = int(client.stdout.readline())
    t = time.perf_counter()
    client.kill()
    client.wait()
    deadline = time.time() + 10
    while not process_gone(pid) and time.time() < deadline:
        time.sleep(0.005)
    seconds = time.perf_counter() - t
    if not process_gone(pid):
        os.kill(pid, signal.SIGKILL)
        return None, None, ""
    return None, seconds, ""


# What the server's log must say for the case to have tested what it claims.
EXPECTED_LOG = {"stdin-idle": "stdin closed", "stdin-busy": "stdin closed", "stdout-idle": "writing stdout failed",
                "stdout-mid-write": "writing stdout failed"}

CASES = {"stdin-idle": case_stdin_idle, "stdin-busy": case_stdin_busy, "stdout-idle": case_stdout_idle,
         "stdout-mid-write": case_stdout_mid_write, "killed": case_killed}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dsls")
    ap.add_argument("--limit", type=float, default=1.0)
    ap.add_argument("--case", choices=sorted(CASES), action="append")
    args = ap.parse_args()
    failures = 0
    for name in args.case or list(CASES):
        code, seconds, tail = CASES[name](args.dsls)
        if seconds is None:
            print(f"FAIL {name}: the server was still running after {max(args.limit * 10, 5):.0f}s\n{tail}")
            failures += 1
        elif name in EXPECTED_LOG and EXPECTED_LOG[name] not in tail:
            print(f"FAIL {name}: the server's log lacks {EXPECTED_LOG[name]!r}:\n{tail}")
            failures += 1
        elif code is not None and code < 0:
            print(f"FAIL {name}: the server died of signal {-code}\n{tail}")
            failures += 1
        else:
            slow = f" (over the expected {args.limit}s: a loaded machine?)" if seconds > args.limit else ""
            print(f"ok   {name}: exited with {code} after {seconds * 1000:.0f} ms{slow}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
