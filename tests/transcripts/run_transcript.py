#!/usr/bin/env python3
"""Plays one JSON-RPC transcript against the dsls binary and checks the replies.

A transcript is a text file of directives, one per line (blank lines and lines
starting with '#' are ignored; a line ending in '\\' continues on the next):

  send JSON              frame JSON with Content-Length and write it
  send-raw TEXT          write TEXT as is; \\r \\n \\xNN and \\\\ escapes are decoded
  send-file PATH JSON    like send, with "$TEXT" in JSON replaced by PATH's contents
                         (PATH relative to the transcript, corpus:NAME, or gen-log:LINES for a
                         generated multi-rank log of that many lines)
  send-bytes TEXT        frame TEXT after decoding its escapes (for bodies that are not UTF-8)
  expect JSON            wait for the next message containing JSON (subset match:
                         objects by key, arrays element-wise, "*" matches anything);
                         unmatched messages before it are kept for later expects
  expect-none METHOD SECONDS   no message with that method arrives within SECONDS
  expect-stderr TEXT     stderr (so far, or by exit) contains TEXT
  set NAME = PATH        remember a value of the last matched message (dotted path)
  close-stdin            close the server's stdin
  expect-exit CODE [SECONDS]   the process exits with CODE within SECONDS (default 2)
  sleep SECONDS

"$NAME" inside JSON is replaced by a remembered value (as JSON); "$FIXTURES" is the file URI of
the fixtures/ folder next to the transcript.
"""
import json
import os
import re
import select
import subprocess
import sys
import time

TIMEOUT = float(os.environ.get("DSLS_TRANSCRIPT_TIMEOUT", "10"))


class Failure(Exception):
    pass


def decode_escapes(text):
    out = bytearray()
    i = 0
    raw = text.encode("utf-8")
    while i < len(raw):
        c = raw[i:i + 1]
        if c == b"\\" and i + 1 < len(raw):
            n = raw[i + 1:i + 2]
            if n == b"r":
                out += b"\r"; i += 2; continue
            if n == b"n":
                out += b"\n"; i += 2; continue
            if n == b"\\":
                out += b"\\"; i += 2; continue
            if n == b"x":
                out += bytes([int(raw[i + 2:i + 4], 16)]); i += 4; continue
        out += c
        i += 1
    return bytes(out)


def subset(expected, actual):
    if expected == "*":
        return True
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and subset(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(expected) > len(actual):
            return False
        # Each expected element must match a distinct actual element, in order.
        j = 0
        for e in expected:
            while j < len(actual) and not subset(e, actual[j]):
                j += 1
            if j == len(actual):
                return False
            j += 1
        return True
    if isinstance(expected, str) and expected.startswith("~") and isinstance(actual, str):
        return re.search(expected[1:], actual) is not None
    return expected == actual


class Session:
    def __init__(self, binary, args):
        self.stderr_path = f"/tmp/dsls-transcript-{os.getpid()}.stderr"
        self.stderr_file = open(self.stderr_path, "wb")
        self.proc = subprocess.Popen([binary] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr_file)
        self.buffer = b""
        self.backlog = []
        self.values = {}
        self.last = None

    def write(self, data):
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise Failure("the server closed its stdin")

    def send(self, obj_text):
        body = obj_text.encode("utf-8")
        self.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def read_message(self, deadline):
        while True:
            m = re.match(rb"Content-Length: (\d+)\r\n\r\n", self.buffer)
            if m:
                n = int(m.group(1))
                end = m.end() + n
                if len(self.buffer) >= end:
                    body = self.buffer[m.end():end]
                    self.buffer = self.buffer[end:]
                    return json.loads(body)
            elif self.buffer and not self.buffer.startswith(b"Content-Length"[:len(self.buffer)]):
                raise Failure(f"unexpected bytes on stdout: {self.buffer[:80]!r}")
            remaining = deadline - time.time()
            if remaining <= 0:
                return None
            r, _, _ = select.select([self.proc.stdout], [], [], remaining)
            if not r:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buffer += chunk

    def expect(self, pattern, timeout):
        for i, msg in enumerate(self.backlog):
            if subset(pattern, msg):
                del self.backlog[i]
                self.last = msg
                return msg
        deadline = time.time() + timeout
        while True:
            msg = self.read_message(deadline)
            if msg is None:
                shown = "\n".join(json.dumps(m)[:400] for m in self.backlog[-8:])
                raise Failure(f"no message matching {json.dumps(pattern)[:400]}\nunmatched so far:\n{shown}")
            if subset(pattern, msg):
                self.last = msg
                return msg
            self.backlog.append(msg)

    def stderr(self):
        self.stderr_file.flush()
        with open(self.stderr_path, "rb") as f:
            return f.read().decode("utf-8", "replace")


def substitute(text, values):
    def repl(m):
        name = m.group(1)
        if name == "TEXT":
            return m.group(0)
        if name not in values:
            raise Failure(f"unknown value ${name}")
        return json.dumps(values[name])
    # Paths inside strings: "$FIXTURES_X/sub/file" is expanded as text.
    text = re.sub(r'\$(FIXTURES[A-Z_]*)/', lambda m: values[m.group(1)] + "/", text)
    return re.sub(r'"\$([A-Za-z_][A-Za-z0-9_]*)"', repl, text)


def lookup(obj, path):
    for part in path.split("."):
        if isinstance(obj, list):
            obj = obj[int(part)]
        else:
            obj = obj[part]
    return obj


def resolve_path(base_dir, name):
    if name.startswith("corpus:"):
        corpus = os.environ.get("DSLS_CORPUS_DIR", os.path.join(base_dir, "../../../shared/corpus"))
        return os.path.join(corpus, "configs", name[len("corpus:"):])
    return os.path.join(base_dir, name)


def run(binary, script_path):
    base_dir = os.path.dirname(os.path.abspath(script_path))
    with open(script_path, encoding="utf-8") as f:
        text = f.read().replace("\\\n", "")
    lines = text.splitlines()
    args = ["--log-level", "debug"]
    for line in lines:
        if line.startswith("#! args "):
            args = line[len("#! args "):].split()
    session = Session(binary, args)
    session.values["FIXTURES"] = "file://" + os.path.join(base_dir, "fixtures")
    session.values["FIXTURES_PINNED"] = session.values["FIXTURES"] + "/pinned_workspace"
    session.values["FIXTURES_PYPROJECT"] = session.values["FIXTURES"] + "/pyproject_workspace"
    try:
        for number, line in enumerate(lines, 1):
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            verb, _, rest = stripped.partition(" ")
            try:
                if verb == "send":
                    session.send(substitute(rest, session.values))
                elif verb == "send-raw":
                    session.write(decode_escapes(rest))
                elif verb == "send-bytes":
                    body = decode_escapes(rest)
                    session.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
                elif verb == "send-file" and rest.startswith("gen-log:"):
                    spec, _, template = rest.partition(" ")
                    count = int(spec.split(":")[1])
                    content = "".join(f"[rank{i % 8}]: step {i} loss 2.{i % 97:02d} grad_norm 1.{i % 89:02d}\n"
                                      for i in range(count))
                    session.send(substitute(template.replace('"$TEXT"', json.dumps(content)), session.values))
                elif verb == "send-file":
                    path, _, template = rest.partition(" ")
                    full = resolve_path(base_dir, path)
                    if not os.path.exists(full):
                        print(f"SKIP: {full} is not present", file=sys.stderr)
                        return 77
                    with open(full, "rb") as f:
                        content = f.read().decode("utf-8", "surrogateescape")
                    body = substitute(template.replace('"$TEXT"', json.dumps(content)), session.values)
                    session.send(body)
                elif verb == "expect":
                    session.expect(json.loads(substitute(rest, session.values)), TIMEOUT)
                elif verb == "expect-none":
                    method, seconds = rest.split()
                    deadline = time.time() + float(seconds)
                    while True:
                        msg = session.read_message(deadline)
                        if msg is None:
                            break
                        if msg.get("method") == method:
                            raise Failure(f"unexpected {method}: {json.dumps(msg)[:300]}")
                        session.backlog.append(msg)
                elif verb == "expect-stderr":
                    deadline = time.time() + TIMEOUT
                    while rest not in session.stderr():
                        if time.time() > deadline:
                            raise Failure(f"stderr lacks {rest!r}; it has:\n{session.stderr()[-2000:]}")
                        time.sleep(0.05)
                elif verb == "set":
                    name, _, path = rest.partition("=")
                    session.values[name.strip()] = lookup(session.last, path.strip())
                elif verb == "close-stdin":
                    session.proc.stdin.close()
                elif verb == "expect-exit":
                    parts = rest.split()
                    code = int(parts[0])
                    seconds = float(parts[1]) if len(parts) > 1 else 2.0
                    try:
                        got = session.proc.wait(timeout=seconds)
                    except subprocess.TimeoutExpired:
                        raise Failure(f"the server did not exit within {seconds}s")
                    if got != code:
                        raise Failure(f"exit code {got}, expected {code}")
                elif verb == "sleep":
                    time.sleep(float(rest))
                else:
                    raise Failure(f"unknown directive {verb}")
            except Failure as e:
                raise Failure(f"{script_path}:{number}: {e}")
        return 0
    except Failure as e:
        print(f"FAIL {e}", file=sys.stderr)
        print("--- server stderr (tail) ---", file=sys.stderr)
        print(session.stderr()[-4000:], file=sys.stderr)
        return 1
    finally:
        if session.proc.poll() is None:
            session.proc.kill()
            session.proc.wait()
        session.stderr_file.close()
        os.unlink(session.stderr_path)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1], sys.argv[2]))
