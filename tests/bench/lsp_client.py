"""A minimal LSP client over a child process's stdio, for benchmarks and load tests.

A reader thread parses Content-Length frames and stamps each message with the
monotonic time it arrived, so latencies do not include the harness's own queueing.
"""
import json
import os
import queue
import subprocess
import threading
import time


def now():
    return time.perf_counter()


class LspClient:
    def __init__(self, argv, cwd=None, env=None, stderr=subprocess.DEVNULL):
        self.spawned_at = now()
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                                     cwd=cwd, env=env, bufsize=0)
        self.messages = queue.Queue()
        self.next_id = 1
        self.backlog = []
        self.write_lock = threading.Lock()
        self.server_requests = {}  # method -> handler(params) -> result
        self.reply_bytes = {}  # response id -> size of its JSON body in bytes
        self.reader = threading.Thread(target=self._read_loop, daemon=True)
        self.reader.start()

    # ---- wire ----
    def _read_loop(self):
        # A bytearray and a remembered frame length keep a 200 MB reply linear to read:
        # no rescan of the buffer for the header and no copy of it per chunk.
        out = self.proc.stdout
        buf = bytearray()
        length = None  # body length of the frame being read, once its header is in
        while True:
            chunk = os.read(out.fileno(), 1 << 20)
            if not chunk:
                self.messages.put((now(), None))
                return
            buf += chunk
            while True:
                if length is None:
                    end = buf.find(b"\r\n\r\n")
                    if end < 0:
                        break
                    for line in bytes(buf[:end]).split(b"\r\n"):
                        name, _, value = line.partition(b":")
                        if name.strip().lower() == b"content-length":
                            length = int(value.strip())
                    if length is None:
                        raise RuntimeError(f"frame without Content-Length: {bytes(buf[:200])!r}")
                    del buf[:end + 4]
                if len(buf) < length:
                    break
                stamp = now()
                body = bytes(buf[:length])
                del buf[:length]
                msg = json.loads(body)
                if isinstance(msg, dict) and "id" in msg and "method" not in msg:
                    self.reply_bytes[msg["id"]] = length
                length = None
                self.messages.put((stamp, msg))

    def write_raw(self, data):
        with self.write_lock:
            self.proc.stdin.write(data)

    @staticmethod
    def encode(message):
        body = json.dumps(message).encode("utf-8")
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    def send(self, message):
        self.write_raw(self.encode(message))

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request_async(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return rid

    # ---- receiving ----
    def _take(self, timeout):
        try:
            stamp, msg = self.messages.get(timeout=timeout)
        except queue.Empty:
            return None, None
        if msg is None:
            raise EOFError("the server closed its output")
        # Answer requests from the server (configuration, registrations) at once.
        if "method" in msg and "id" in msg:
            handler = self.server_requests.get(msg["method"])
            result = handler(msg.get("params")) if handler else None
            self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
        return stamp, msg

    def wait_for(self, predicate, timeout=60.0):
        """Returns (arrival time, message) of the first message matching `predicate`."""
        for i, (stamp, msg) in enumerate(self.backlog):
            if predicate(msg):
                del self.backlog[i]
                return stamp, msg
        deadline = now() + timeout
        while True:
            left = deadline - now()
            if left <= 0:
                raise TimeoutError("no matching message within %.1fs" % timeout)
            stamp, msg = self._take(left)
            if msg is None:
                continue
            if predicate(msg):
                return stamp, msg
            self.backlog.append((stamp, msg))
            if len(self.backlog) > 10000:
                del self.backlog[:5000]

    def wait_response(self, rid, timeout=60.0):
        return self.wait_for(lambda m: m.get("id") == rid and "method" not in m, timeout)

    def request(self, method, params, timeout=60.0):
        """Sends a request; returns (latency seconds, response message)."""
        start = now()
        rid = self.request_async(method, params)
        stamp, msg = self.wait_response(rid, timeout)
        return stamp - start, msg

    def drain(self, seconds):
        """Collects everything that arrives within `seconds` into the backlog."""
        deadline = now() + seconds
        while True:
            left = deadline - now()
            if left <= 0:
                return
            stamp, msg = self._take(left)
            if msg is not None:
                self.backlog.append((stamp, msg))

    def clear_backlog(self):
        self.backlog.clear()

    # ---- process ----
    def peak_rss_kib(self):
        return read_status_kib(self.proc.pid, "VmHWM")

    def rss_kib(self):
        return read_status_kib(self.proc.pid, "VmRSS")

    def shutdown(self, timeout=10.0):
        try:
            self.request("shutdown", None, timeout)
            self.notify("exit", None)
            self.proc.stdin.close()
            self.proc.wait(timeout=timeout)
        except Exception:
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


def read_status_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return None


def path_uri(path):
    return "file://" + os.path.abspath(path)
