#!/usr/bin/env python3
"""Load test: many open documents, pipelined requests interleaved with edits and cancellations.

Checks:
  - every request is answered exactly once (a cancelled one with a result or -32800);
  - no reply is out of order with respect to edits: each document carries a marker value
    (steps_per_print) that every edit changes, often to another width. A documentSymbol
    reply must show the marker of the last edit sent before the request or a later one,
    never an earlier one. A request holding positions (hover, completion, code action,
    inlay hints) must be answered from the text it was sent against: a hover on the value
    must cover exactly that marker; if an edit overtook the request, ContentModified
    (-32801) is the right answer;
  - memory returns near the baseline once every document is closed (VmRSS).

Usage: load_test.py DSLS [--documents 500] [--requests 10000] [--seed 1]
Exit code 0 on success, 1 with a message on failure.
"""
import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
from lsp_client import LspClient, now  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "bench", "fixtures", "bench_ds_config.json")
MARKER_KEY = '"steps_per_print": '
WINDOW = 64  # requests in flight at most
POSITIONED = ("hover", "completion", "inlay", "action")  # requests whose params hold positions


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def marker_position(text):
    for number, line in enumerate(text.split("\n")):
        at = line.find(MARKER_KEY)
        if at >= 0:
            start = at + len(MARKER_KEY)
            end = start
            while end < len(line) and line[end].isdigit():
                end += 1
            return number, at + 1, start, end  # line, key character, value start, value end
    raise ValueError("no marker key in the fixture")


def symbol_detail(symbols, name):
    for s in symbols or []:
        if s.get("name") == name:
            return s.get("detail", "")
        found = symbol_detail(s.get("children"), name)
        if found is not None:
            return found
    return None


class Load:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        env = dict(os.environ)
        self.client = LspClient([args.dsls, "--log-level", "error"], env=env, stderr=open(args.stderr, "wb"))
        self.outstanding = {}  # id -> (kind, uri, document version when sent, cancelled)
        self.docs = {}         # uri -> {"version", "history": {version: marker}, "width"}
        self.content_modified = 0
        self.sent_ids = []
        self.answers = {}      # id -> count
        self.problems = []
        self.completed = 0

    def initialize(self):
        _, reply = self.client.request("initialize", {
            "processId": os.getpid(), "rootUri": None,
            "capabilities": {"textDocument": {"documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
                                              "hover": {"contentFormat": ["markdown"]}}}}, timeout=30)
        if "result" not in reply:
            fail(f"initialize failed: {reply}")
        self.client.notify("initialized", {})

    # ---- replies ----
    def on_message(self, msg):
        if "id" not in msg or "method" in msg:
            return False
        rid = msg["id"]
        self.answers[rid] = self.answers.get(rid, 0) + 1
        if self.answers[rid] > 1:
            self.problems.append(f"request {rid} answered {self.answers[rid]} times")
            return True
        info = self.outstanding.pop(rid, None)
        if info is None:
            self.problems.append(f"reply to unknown request {rid}: {json.dumps(msg)[:200]}")
            return True
        kind, uri, version, cancelled = info
        doc = self.docs[uri]
        marker = doc["history"][version]
        self.completed += 1
        if "error" in msg:
            code = msg["error"].get("code")
            if cancelled and code == -32800:
                return True
            # ContentModified: the request held positions and an edit overtook it.
            if code == -32801 and kind in POSITIONED and doc["version"] > version:
                self.content_modified += 1
                return True
            self.problems.append(f"{kind} {rid} on {uri} failed: {msg['error']}")
            return True
        result = msg.get("result")
        if kind == "symbols":
            # No positions in the request: the text at request time or any later one will do,
            # never an older one.
            detail = symbol_detail(result, "steps_per_print")
            allowed = {str(doc["history"][v]) for v in range(version, doc["version"] + 1)}
            if detail not in allowed:
                self.problems.append(f"documentSymbol {rid} on {uri} shows {detail!r}, expected marker {marker} "
                                     f"(version {version}) or a later one")
        elif kind == "hover":
            # Positions in the request: the reply must come from the text at request time.
            # The hover on the value covers exactly the value, so its end shows the marker's width.
            end = (result or {}).get("range", {}).get("end", {}).get("character") if isinstance(result, dict) else None
            if end != self.value_start + len(str(marker)):
                self.problems.append(f"hover {rid} on {uri} ends at {end}, but marker {marker} (version {version}) "
                                     f"ends at {self.value_start + len(str(marker))}")
        return True

    def pump(self, until_outstanding_below, timeout=120.0):
        deadline = now() + timeout
        while len(self.outstanding) >= until_outstanding_below:
            if now() > deadline:
                fail(f"{len(self.outstanding)} requests unanswered after {timeout:.0f}s: "
                     f"{sorted(self.outstanding)[:10]}")
            stamp, msg = self.client._take(deadline - now())
            if msg is not None:
                self.on_message(msg)

    # ---- the run ----
    def run(self):
        args = self.args
        with open(FIXTURE) as f:
            base = f.read()
        line, key_char, value_start, value_end = marker_position(base)
        self.value_start = value_start
        lines = base.split("\n")
        lines[line] = lines[line][:value_start] + "1" + lines[line][value_end:]
        initial = "\n".join(lines)  # every document starts with marker 1
        self.initialize()

        # Baseline: the server warmed up on one document, opened and closed.
        warm_uri = "file:///load/warm/ds_config.json"
        self.client.notify("textDocument/didOpen", {"textDocument": {"uri": warm_uri, "languageId": "json",
                                                                     "version": 1, "text": base}})
        self.client.request("textDocument/documentSymbol", {"textDocument": {"uri": warm_uri}})
        self.client.notify("textDocument/didClose", {"textDocument": {"uri": warm_uri}})
        self.client.drain(1.0)
        self.client.clear_backlog()
        baseline = self.client.rss_kib()

        docs = []
        for i in range(args.documents):
            uri = f"file:///load/run{i % 37}/ds_config_{i}.json"
            text = initial
            docs.append({"uri": uri, "version": 1, "history": {1: 1}, "width": 1})
            self.docs[uri] = docs[-1]
            self.client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json",
                                                                         "version": 1, "text": text}})
        started = now()
        sent = edits = cancels = 0
        recent = []
        while sent < args.requests:
            doc = docs[self.rng.randrange(len(docs))]
            roll = self.rng.random()
            if roll < 0.25:
                # An edit: a new marker, sometimes longer or shorter than the old one.
                doc["version"] += 1
                marker = self.rng.choice([doc["version"], doc["version"] * 1000 + 7])
                doc["history"][doc["version"]] = marker
                new = str(marker)
                self.client.notify("textDocument/didChange", {
                    "textDocument": {"uri": doc["uri"], "version": doc["version"]},
                    "contentChanges": [{"range": {"start": {"line": line, "character": value_start},
                                                  "end": {"line": line, "character": value_start + doc["width"]}},
                                        "text": new}]})
                doc["width"] = len(new)
                edits += 1
                continue
            if roll < 0.32 and recent:
                rid = self.rng.choice(recent)
                if rid in self.outstanding:
                    kind, uri, version, _ = self.outstanding[rid]
                    self.outstanding[rid] = (kind, uri, version, True)
                self.client.notify("$/cancelRequest", {"id": rid})
                cancels += 1
                continue
            kind = self.rng.choice(["symbols", "hover", "completion", "inlay", "action"])
            td = {"uri": doc["uri"]}
            if kind == "symbols":
                method, params = "textDocument/documentSymbol", {"textDocument": td}
            elif kind == "hover":
                method, params = "textDocument/hover", {"textDocument": td, "position": {"line": line,
                                                                                        "character": value_start}}
            elif kind == "completion":
                method, params = "textDocument/completion", {"textDocument": td,
                                                             "position": {"line": line, "character": key_char}}
            elif kind == "inlay":
                method, params = "textDocument/inlayHint", {"textDocument": td, "range": {
                    "start": {"line": 0, "character": 0}, "end": {"line": 200, "character": 0}}}
            else:
                method, params = "textDocument/codeAction", {"textDocument": td, "range": {
                    "start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}},
                    "context": {"diagnostics": []}}
            self.pump(WINDOW)
            rid = self.client.request_async(method, params)
            self.outstanding[rid] = (kind, doc["uri"], doc["version"], False)
            recent.append(rid)
            self.sent_ids.append(rid)
            if len(recent) > 32:
                recent.pop(0)
            sent += 1
        self.pump(1)
        elapsed = now() - started
        peak = self.client.rss_kib()

        for doc in docs:
            self.client.notify("textDocument/didClose", {"textDocument": {"uri": doc["uri"]}})
        # A final round trip: every close has been handled once it is answered.
        _, reply = self.client.request("textDocument/documentSymbol", {"textDocument": {"uri": docs[0]["uri"]}})
        self.client.drain(2.0)
        after = self.client.rss_kib()
        self.client.shutdown()

        print(f"documents {args.documents}, requests {sent}, edits {edits}, cancellations {cancels}, "
              f"{elapsed:.1f}s ({sent / elapsed:.0f} requests/s); {self.content_modified} answered "
              f"ContentModified after an edit overtook them")
        print(f"VmRSS: baseline {baseline / 1024:.1f} MiB, with documents open {peak / 1024:.1f} MiB, "
              f"after closing {after / 1024:.1f} MiB")
        missing = [rid for rid in self.sent_ids if rid not in self.answers]
        if missing:
            self.problems.append(f"{len(missing)} requests never answered, e.g. {missing[:5]}")
        if self.problems:
            for p in self.problems[:20]:
                print("  " + p, file=sys.stderr)
            fail(f"{len(self.problems)} problems")
        # Memory: closing everything must give back most of what the documents took.
        if not args.memory_check:
            print("PASS (memory not checked)")
            return
        grown = max(0, peak - baseline)
        allowed = baseline + max(8 * 1024, grown // 4)
        if after > allowed:
            fail(f"VmRSS after closing every document is {after / 1024:.1f} MiB, more than "
                 f"{allowed / 1024:.1f} MiB (baseline + max(8 MiB, a quarter of the growth))")
        print("PASS")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dsls")
    ap.add_argument("--documents", type=int, default=500)
    ap.add_argument("--requests", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stderr", default=os.devnull, help="where the server's log goes")
    ap.add_argument("--no-memory-check", dest="memory_check", action="store_false",
                    help="skip the VmRSS check (sanitizer allocators do not give memory back)")
    Load(ap.parse_args()).run()


if __name__ == "__main__":
    main()
