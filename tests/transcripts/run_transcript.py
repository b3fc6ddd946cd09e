#!/usr/bin/env python3
"""Plays one JSON-RPC transcript against the dsls binary and checks the replies.

Usage: run_transcript.py DSLS_BINARY TRANSCRIPT
       run_transcript.py --server-methods LSP_SOURCE_DIR   (checks SERVER_METHODS against the source)
       run_transcript.py --self-test                       (checks the matcher)
Exit codes: 0 passed, 1 failed, 77 skipped (an input outside the repository is missing).

A transcript is a text file of directives, one per line. Blank lines and lines starting with
'#' are ignored; a line ending in '\\' continues on the next. Header lines:

  #! args ARG...         command-line arguments of dsls (default: --log-level debug)
  #! fails-with REGEX    the transcript must fail, with a failure message REGEX finds; used to
                         check the runner itself (tests/transcripts/runner_checks/)

Directives:

  send JSON              frame JSON with Content-Length and write it. A request (an object with
                         "id" and "method") is recorded: its reply must be consumed by an expect.
  send-raw TEXT          write TEXT as is; \\r \\n \\xNN and \\\\ escapes are decoded. Not recorded.
  send-bytes TEXT        frame TEXT after decoding its escapes (for bodies that are not UTF-8)
  send-file PATH JSON    like send, with "$TEXT" in JSON replaced by PATH's contents. PATH is
                         relative to the transcript, or corpus:NAME (DSLS_CORPUS_DIR/configs/NAME),
                         or gen-log:LINES (a generated multi-rank log of that many lines), or
                         gen-config:MEMBERS (a ds_config with one object of that many members,
                         slow to analyse when large). A missing
                         corpus file skips the transcript before the server starts; any other
                         missing file fails it.
  expect JSON            consume the first message, among those received and not yet consumed and
                         then those arriving within DSLS_TRANSCRIPT_TIMEOUT seconds (default 10),
                         that matches JSON (see Matching). Messages it passes over stay for later.
                         A literal "method" in JSON must be one dsls sends (SERVER_METHODS).
  expect-no-reply ID [SECONDS]
                         no reply to request ID (a JSON value: 3 or "a") is waiting or arrives
                         within SECONDS (default 0.3): for requests that must not be answered yet.
                         A request named here is exempt from the final "every request was answered"
                         check, unless a later expect consumes its reply.
  expect-none METHOD SECONDS
                         no message with METHOD is waiting unconsumed or arrives within SECONDS.
                         METHOD must be one dsls sends (SERVER_METHODS), so a typo is an error.
  expect-none-after METHOD SECONDS
                         like expect-none, but only messages that arrived after the one the last
                         expect consumed count: "nothing came after this one" (earlier ones may
                         stay unconsumed)
  allow METHOD           notifications with METHOD (one dsls sends) may stay unconsumed in this
                         transcript; for chatty ones such as window/logMessage
  expect-stderr TEXT     stderr (so far, or within the timeout) contains TEXT
  set NAME = PATH        remember a value of the last matched message (dotted path, list
                         indexes as numbers: result.items.0.code)
  close-stdin            close the server's stdin
  expect-exit CODE [SECONDS]
                         the process exits with CODE within SECONDS (default 2); then its stdout is
                         read to the end and the reply checks below are made
  sleep SECONDS          wait without reading
  write-file PATH TEXT   write TEXT (escapes as in send-raw) to PATH inside the transcript's
                         scratch folder (made under the current directory, removed at the end);
                         "$SCRATCH" is its file URI, for workspace folders and didChangeWatchedFiles;
                         TEXT gen-log:LINES writes the generated log of send-file (for large folders)

"$NAME" inside JSON is replaced by a remembered value (as JSON); "$FIXTURES" is the file URI of
the fixtures/ folder next to the transcript, "$FIXTURES_PINNED/..." and "$FIXTURES_PYPROJECT/..."
of its pinned_workspace/ and pyproject_workspace/, "$PROJECTS/..." of tests/fixtures/projects/,
"$LOG_JOBS/..." of tests/fixtures/logs/jobs/
(expanded inside strings).

Matching (expected value E against actual value A):
  "*"        matches any value (as an object member: the key must be present)
  "~REGEX"   matches a string in which REGEX (Python re.search) finds a match; anchor with ^ and $
  object     A is an object with every key of E, each matching; A may have more keys
  array      A has exactly as many elements as E, each matching the one at the same index.
             When the last element of E is "...", A starts with elements matching the others,
             in order, and may have any number (zero included) after them. "..." is allowed
             only as the last element. So [] matches only an empty array.
  other      equal, with true/false never equal to a number

Replies (messages without "method") are checked throughout:
  - a second reply to the same id fails as soon as it is read (a request id sent N times may
    be answered N times); replies with id null (to unparsable messages) are not counted,
    but they too must be consumed;
  - at the end of the transcript (after a short drain, DSLS_TRANSCRIPT_DRAIN seconds, default
    0.2, while the server runs) and at expect-exit, every reply received must have been
    consumed by an expect, and every recorded request must have had its reply consumed
    (or be named by expect-no-reply).
Notifications from the server are checked at the same points: each one received must have been
consumed by an expect, unless an allow names its method. Requests from the server may stay
unconsumed.
DSLS_TRANSCRIPT_TRACE=1 prints every message read to stderr.
"""
import functools
import json
import shutil
import tempfile
import os
import re
import select
import subprocess
import sys
import time

TIMEOUT = float(os.environ.get("DSLS_TRANSCRIPT_TIMEOUT", "10"))
DRAIN = float(os.environ.get("DSLS_TRANSCRIPT_DRAIN", "0.2"))
NO_REPLY_DEFAULT = 0.3
TRACE = os.environ.get("DSLS_TRANSCRIPT_TRACE") == "1"
SKIP = 77

# Every method dsls sends to the client (notify(...) and request(...) in lsp/*.cpp);
# --server-methods checks this list against the source.
SERVER_METHODS = {
    "$/progress",
    "client/registerCapability",
    "textDocument/publishDiagnostics",
    "workspace/applyEdit",
    "window/logMessage",
    "window/showMessage",
    "workspace/configuration",
    "workspace/diagnostic/refresh",
    "workspace/inlayHint/refresh",
    "window/workDoneProgress/create",
}

MORE = "..."


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


def short(value, limit=200):
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit] + "..."


def mismatch(expected, actual, where="$"):
    """None when actual matches expected, else where and why they differ."""
    if expected == "*":
        return None
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{where}: expected an object, got {short(actual)}"
        for key, value in expected.items():
            if key not in actual:
                return f"{where}: no key {json.dumps(key)} in {short(actual)}"
            why = mismatch(value, actual[key], f"{where}.{key}")
            if why:
                return why
        return None
    if isinstance(expected, list):
        if MORE in expected[:-1]:
            raise Failure(f'{where}: "{MORE}" is allowed only as the last element of an array')
        if not isinstance(actual, list):
            return f"{where}: expected an array, got {short(actual)}"
        open_ended = bool(expected) and expected[-1] == MORE
        items = expected[:-1] if open_ended else expected
        if len(actual) < len(items) or (not open_ended and len(actual) != len(items)):
            wanted = f"at least {len(items)}" if open_ended else f"{len(items)}"
            return f"{where}: expected {wanted} elements, got {len(actual)}: {short(actual, 600)}"
        for i, item in enumerate(items):
            why = mismatch(item, actual[i], f"{where}[{i}]")
            if why:
                return why
        return None
    if isinstance(expected, str) and expected.startswith("~"):
        if isinstance(actual, str) and re.search(expected[1:], actual) is not None:
            return None
        return f"{where}: {short(actual)} does not match /{expected[1:]}/"
    if isinstance(expected, bool) != isinstance(actual, bool) or expected != actual:
        return f"{where}: expected {short(expected)}, got {short(actual)}"
    return None


def matches(expected, actual):
    return mismatch(expected, actual) is None


@functools.lru_cache(maxsize=2)
def generated_log(count):
    return "".join(f"[rank{i % 8}]: step {i} loss 2.{i % 97:02d} grad_norm 1.{i % 89:02d}\n" for i in range(count))


def is_reply(msg):
    return not isinstance(msg, dict) or "method" not in msg


def id_key(value):
    return json.dumps(value, sort_keys=True)


class Session:
    def __init__(self, binary, args):
        self.stderr_path = f"/tmp/dsls-transcript-{os.getpid()}.stderr"
        self.stderr_file = open(self.stderr_path, "wb")
        self.proc = subprocess.Popen([binary] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr_file)
        self.buffer = b""
        self.eof = False
        self.backlog = []      # received, not yet consumed
        self.values = {}
        self.last = None
        self.arrivals = 0      # messages read so far
        self.arrival = {}      # id(message) -> its place in the arrival order
        self.last_arrival = 0  # place of the last consumed message
        self.requests = {}     # id key -> [times sent, line of the last send]
        self.replies = {}      # id key -> replies received
        self.consumed = set()  # id keys whose reply an expect consumed
        self.unanswered = set()  # id keys named by expect-no-reply
        self.allowed = set()   # notification methods that may stay unconsumed

    # ---- writing ----

    def write(self, data):
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise Failure("the server closed its stdin")

    def send(self, obj_text, line):
        body = obj_text.encode("utf-8")
        self.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        try:
            msg = json.loads(obj_text)
        except (ValueError, RecursionError):
            return  # deliberately malformed or too deep to decode: nothing to track
        if isinstance(msg, dict) and "method" in msg and "id" in msg:
            entry = self.requests.setdefault(id_key(msg["id"]), [0, line])
            entry[0] += 1
            entry[1] = line

    # ---- reading ----

    def read_message(self, deadline):
        """The next message, or None when the deadline passes or stdout ends."""
        while True:
            m = re.match(rb"Content-Length: (\d+)\r\n\r\n", self.buffer)
            if m:
                n = int(m.group(1))
                end = m.end() + n
                if len(self.buffer) >= end:
                    body = self.buffer[m.end():end]
                    self.buffer = self.buffer[end:]
                    try:
                        msg = json.loads(body)
                    except ValueError:
                        raise Failure(f"the server sent a body that is not JSON: {body[:200]!r}")
                    if TRACE:
                        print(f"<- {json.dumps(msg)}", file=sys.stderr)
                    self.note(msg)
                    self.arrivals += 1
                    self.arrival[id(msg)] = self.arrivals
                    return msg
            elif self.buffer and not self.buffer.startswith(b"Content-Length"[:len(self.buffer)]):
                raise Failure(f"unexpected bytes on stdout: {self.buffer[:80]!r}")
            if self.eof:
                return None
            remaining = deadline - time.time()
            if remaining <= 0:
                return None
            r, _, _ = select.select([self.proc.stdout], [], [], remaining)
            if not r:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                self.eof = True
                return None
            self.buffer += chunk

    def note(self, msg):
        if not is_reply(msg) or not isinstance(msg, dict) or msg.get("id") is None:
            return
        key = id_key(msg["id"])
        seen = self.replies.get(key, 0) + 1
        self.replies[key] = seen
        allowed = max(1, self.requests.get(key, [0])[0])
        if seen > allowed:
            raise Failure(f"reply number {seen} to id {msg['id']} (sent {allowed}x): {short(msg, 400)}")

    def drain(self, seconds):
        deadline = time.time() + seconds
        while True:
            msg = self.read_message(deadline)
            if msg is None:
                return
            self.backlog.append(msg)

    def consume(self, msg):
        self.last = msg
        self.last_arrival = self.arrival.get(id(msg), 0)
        if is_reply(msg) and isinstance(msg, dict) and msg.get("id") is not None:
            self.consumed.add(id_key(msg["id"]))

    def expect(self, pattern, timeout):
        for i, msg in enumerate(self.backlog):
            if matches(pattern, msg):
                del self.backlog[i]
                self.consume(msg)
                return msg
        deadline = time.time() + timeout
        while True:
            msg = self.read_message(deadline)
            if msg is None:
                raise Failure(self.describe_miss(pattern))
            if matches(pattern, msg):
                self.consume(msg)
                return msg
            self.backlog.append(msg)

    def describe_miss(self, pattern):
        why = "stdout ended" if self.eof else "timed out"
        lines = [f"no message matching {short(pattern, 600)} ({why})"]
        # The messages most like the expected one, with where they differ.
        keys = [k for k in ("id", "method") if isinstance(pattern, dict) and k in pattern]
        similar = [m for m in self.backlog
                   if isinstance(m, dict) and keys and all(matches(pattern[k], m.get(k)) for k in keys)]
        for m in similar[-3:]:
            lines.append(f"closest: {mismatch(pattern, m)}")
        lines.append("unconsumed:")
        lines += [f"  {short(m, 400)}" for m in self.backlog[-8:]]
        return "\n".join(lines)

    def expect_no_reply(self, request_id, seconds):
        key = id_key(request_id)
        self.unanswered.add(key)
        deadline = time.time() + seconds
        while True:
            for msg in self.backlog:
                if is_reply(msg) and isinstance(msg, dict) and "id" in msg and id_key(msg["id"]) == key:
                    raise Failure(f"request {request_id} was answered: {short(msg, 400)}")
            msg = self.read_message(deadline)
            if msg is None:
                return
            self.backlog.append(msg)

    def expect_none(self, method, seconds):
        if method not in SERVER_METHODS:
            raise Failure(f"dsls never sends {method}; it sends {', '.join(sorted(SERVER_METHODS))}")
        self.drain(seconds)
        for msg in self.backlog:
            if isinstance(msg, dict) and msg.get("method") == method:
                raise Failure(f"unexpected {method}: {short(msg, 400)}")

    def expect_none_after(self, method, seconds):
        """Like expect_none, but only for messages that arrived after the last consumed one."""
        if method not in SERVER_METHODS:
            raise Failure(f"dsls never sends {method}; it sends {', '.join(sorted(SERVER_METHODS))}")
        self.drain(seconds)
        for msg in self.backlog:
            if isinstance(msg, dict) and msg.get("method") == method and self.arrival.get(id(msg), 0) > self.last_arrival:
                raise Failure(f"unexpected {method} after the last expected message: {short(msg, 400)}")

    def check_replies(self):
        """Every reply and notification received was consumed (or its method allowed); every
        request sent had its reply consumed."""
        problems = []
        if self.eof and self.buffer:
            problems.append(f"stdout ended inside a message: {self.buffer[:200]!r}")
        for msg in self.backlog:
            if is_reply(msg):
                problems.append(f"reply not consumed by any expect: {short(msg, 400)}")
            elif "id" not in msg and msg["method"] not in self.allowed:
                problems.append(f"notification not consumed by any expect: {short(msg, 400)}")
        for key, (_, line) in sorted(self.requests.items(), key=lambda kv: kv[1][1]):
            if key not in self.consumed and key not in self.unanswered:
                state = "its reply was not expected" if key in self.replies else "it got no reply"
                problems.append(f"request {key} (line {line}): {state}")
        if problems:
            raise Failure("\n".join(problems))

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
    text = re.sub(r'\$(FIXTURES[A-Z_]*|SCRATCH|PROJECTS|LOG_JOBS)/', lambda m: values[m.group(1)] + "/", text)
    return re.sub(r'"\$([A-Za-z_][A-Za-z0-9_]*)"', repl, text)


def lookup(obj, path):
    for part in path.split("."):
        if isinstance(obj, list):
            obj = obj[int(part)]
        else:
            obj = obj[part]
    return obj


def corpus_dir(base_dir):
    return os.environ.get("DSLS_CORPUS_DIR", os.path.join(base_dir, "../../../shared/corpus"))


def resolve_path(base_dir, name):
    if name.startswith("corpus:"):
        return os.path.join(corpus_dir(base_dir), "configs", name[len("corpus:"):])
    return os.path.join(base_dir, name)


def missing_corpus_inputs(base_dir, lines):
    missing = []
    for line in lines:
        verb, _, rest = line.strip().partition(" ")
        if verb == "send-file" and rest.startswith("corpus:"):
            path = resolve_path(base_dir, rest.partition(" ")[0])
            if not os.path.exists(path):
                missing.append(path)
    return missing


def play(session, lines, base_dir, script_path):
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        verb, _, rest = stripped.partition(" ")
        try:
            if verb == "send":
                session.send(substitute(rest, session.values), number)
            elif verb == "send-raw":
                session.write(decode_escapes(rest))
            elif verb == "send-bytes":
                body = decode_escapes(rest)
                session.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            elif verb == "send-file" and rest.startswith("gen-log:"):
                spec, _, template = rest.partition(" ")
                count = int(spec.split(":")[1])
                content = generated_log(count)
                session.send(substitute(template.replace('"$TEXT"', json.dumps(content)), session.values), number)
            elif verb == "send-file" and rest.startswith("gen-config:"):
                spec, _, template = rest.partition(" ")
                count = int(spec.split(":")[1])
                members = ",\n".join(f'    "key_{i}": {i}' for i in range(count))
                content = ('{\n  "train_batch_size": 8,\n  "zero_optimization": {"stage": 2},\n'
                           f'  "extra": {{\n{members}\n  }}\n}}\n')
                session.send(substitute(template.replace('"$TEXT"', json.dumps(content)), session.values), number)
            elif verb == "write-file":
                path, _, content = rest.partition(" ")
                full = os.path.join(session.scratch, path)
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, "wb") as f:
                    if content.startswith("gen-log:"):
                        f.write(generated_log(int(content.split(":")[1])).encode())
                    else:
                        f.write(decode_escapes(content))
            elif verb == "send-file":
                path, _, template = rest.partition(" ")
                full = resolve_path(base_dir, path)
                if not os.path.exists(full):
                    raise Failure(f"{full} does not exist")
                with open(full, "rb") as f:
                    content = f.read().decode("utf-8", "surrogateescape")
                session.send(substitute(template.replace('"$TEXT"', json.dumps(content)), session.values), number)
            elif verb == "expect":
                pattern = json.loads(substitute(rest, session.values))
                method = pattern.get("method") if isinstance(pattern, dict) else None
                if isinstance(method, str) and not method.startswith("~") and method not in SERVER_METHODS:
                    raise Failure(f"dsls never sends {method}")
                session.expect(pattern, TIMEOUT)
            elif verb == "expect-no-reply":
                parts = rest.split()
                if not 1 <= len(parts) <= 2:
                    raise Failure("usage: expect-no-reply ID [SECONDS]")
                seconds = float(parts[1]) if len(parts) > 1 else NO_REPLY_DEFAULT
                session.expect_no_reply(json.loads(parts[0]), seconds)
            elif verb == "expect-none":
                parts = rest.split()
                if len(parts) != 2:
                    raise Failure("usage: expect-none METHOD SECONDS")
                session.expect_none(parts[0], float(parts[1]))
            elif verb == "expect-none-after":
                parts = rest.split()
                if len(parts) != 2:
                    raise Failure("usage: expect-none-after METHOD SECONDS")
                session.expect_none_after(parts[0], float(parts[1]))
            elif verb == "allow":
                if rest not in SERVER_METHODS:
                    raise Failure(f"dsls never sends {rest}; it sends {', '.join(sorted(SERVER_METHODS))}")
                session.allowed.add(rest)
            elif verb == "expect-stderr":
                deadline = time.time() + TIMEOUT
                while rest not in session.stderr():
                    if time.time() > deadline:
                        raise Failure(f"stderr lacks {rest!r}; it has:\n{session.stderr()[-2000:]}")
                    time.sleep(0.05)
            elif verb == "set":
                name, _, path = rest.partition("=")
                if session.last is None:
                    raise Failure("set before any expect")
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
                session.drain(TIMEOUT)  # to the end of stdout: the process is gone
                session.check_replies()
            elif verb == "sleep":
                time.sleep(float(rest))
            else:
                raise Failure(f"unknown directive {verb}")
        except Failure as e:
            raise Failure(f"{script_path}:{number}: {e}")
    try:
        session.drain(DRAIN if session.proc.poll() is None else TIMEOUT)
        session.check_replies()
    except Failure as e:
        raise Failure(f"{script_path}: at the end: {e}")


def run(binary, script_path):
    base_dir = os.path.dirname(os.path.abspath(script_path))
    with open(script_path, encoding="utf-8") as f:
        text = f.read().replace("\\\n", "")
    lines = text.splitlines()
    args = ["--log-level", "debug"]
    fails_with = None
    for line in lines:
        if line.startswith("#! args "):
            args = line[len("#! args "):].split()
        elif line.startswith("#! fails-with "):
            fails_with = line[len("#! fails-with "):].strip()
    missing = missing_corpus_inputs(base_dir, lines)
    if missing:
        print(f"SKIPPED: corpus input missing (DSLS_CORPUS_DIR={corpus_dir(base_dir)}): {', '.join(missing)}")
        return SKIP
    session = Session(binary, args)
    session.values["FIXTURES"] = "file://" + os.path.join(base_dir, "fixtures")
    session.values["FIXTURES_PINNED"] = session.values["FIXTURES"] + "/pinned_workspace"
    session.values["FIXTURES_PYPROJECT"] = session.values["FIXTURES"] + "/pyproject_workspace"
    session.values["PROJECTS"] = session.values["FIXTURES"].rsplit("/transcripts/fixtures", 1)[0] + "/fixtures/projects"
    session.values["LOG_JOBS"] = session.values["FIXTURES"].rsplit("/transcripts/fixtures", 1)[0] + "/fixtures/logs/jobs"
    # Files a transcript writes stay under the build folder the test runs in.
    session.scratch = tempfile.mkdtemp(prefix="transcript-scratch-", dir=os.getcwd())
    session.values["SCRATCH"] = "file://" + session.scratch
    try:
        play(session, lines, base_dir, script_path)
        if fails_with:
            print(f"FAIL {script_path}: passed, but it must fail with /{fails_with}/", file=sys.stderr)
            return 1
        return 0
    except Failure as e:
        if fails_with:
            if re.search(fails_with, str(e)):
                print(f"failed as it must:\n{e}")
                return 0
            print(f"FAIL {script_path}: failed, but not with /{fails_with}/:\n{e}", file=sys.stderr)
            return 1
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
        shutil.rmtree(session.scratch, ignore_errors=True)


def server_methods(lsp_dir):
    """Compares SERVER_METHODS with the methods the lsp/ sources pass to notify() and request()."""
    found = set()
    for name in sorted(os.listdir(lsp_dir)):
        if name.endswith(".cpp"):
            with open(os.path.join(lsp_dir, name), encoding="utf-8") as f:
                found |= set(re.findall(r'\b(?:notify|request)\(\s*"([^"]+)"', f.read()))
    if found != SERVER_METHODS:
        print(f"SERVER_METHODS is out of date: the source sends {sorted(found)}", file=sys.stderr)
        return 1
    print(f"{len(found)} server-to-client methods: {', '.join(sorted(found))}")
    return 0


def self_test():
    cases = [
        ([], [], True), ([], [1], False), ([1], [1, 2], False), ([1, 2], [2, 1], False),
        ([1, MORE], [1, 2, 3], True), ([1, MORE], [1], True), ([1, MORE], [], False), ([MORE], [], True),
        ([MORE], [5], True), ([{"a": 1}], [{"a": 1, "b": 2}], True), ({"a": []}, {"a": [0]}, False),
        ({"a": "*"}, {}, False), ({"a": "*"}, {"a": None}, True), ("~^x", "xy", True), ("~^x", 1, False),
        (True, 1, False), (1, True, False), (1, 1.0, True), (None, None, True), ({"a": None}, {"a": 0}, False),
        ([[1, MORE]], [[1, 2]], True), ([[1]], [[1, 2]], False),
    ]
    bad = [(e, a, want) for e, a, want in cases if matches(e, a) != want]
    try:
        matches([MORE, 1], [1])
        bad.append(("'...' first", "accepted", False))
    except Failure:
        pass
    for e, a, want in bad:
        print(f"matches({json.dumps(e)}, {json.dumps(a)}) should be {want}", file=sys.stderr)
    print(f"{len(cases) + 1 - len(bad)}/{len(cases) + 1} matcher cases")
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--self-test"]:
        sys.exit(self_test())
    if sys.argv[1:2] == ["--server-methods"]:
        sys.exit(server_methods(sys.argv[2]))
    sys.exit(run(sys.argv[1], sys.argv[2]))
