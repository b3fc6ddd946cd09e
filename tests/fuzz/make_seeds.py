#!/usr/bin/env python3
"""Builds the seed corpus of each fuzz target into a build directory.

Sources, read where they live (nothing is copied into the repository): the real
ds_configs under ../shared/corpus/configs (skipped with a message when absent), the
log fixtures under tests/fixtures/logs, the transcript tests, and the benchmark config.
Also writes a dictionary of ds_config keys (config.dict) for the JSON targets.

Usage: make_seeds.py OUTPUT_DIR [--corpus DIR]
"""
import argparse
import glob
import hashlib
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def frame(body):
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Seeds:
    def __init__(self, out):
        self.out = out
        self.counts = {}

    def add(self, target, data):
        d = os.path.join(self.out, target)
        os.makedirs(d, exist_ok=True)
        name = hashlib.sha1(data).hexdigest()
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
        self.counts[target] = self.counts.get(target, 0) + 1


def transcript_sessions():
    """The `send` bodies of each transcript test, one list per file."""
    sessions = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "transcripts", "*.test"))):
        text = open(path, encoding="utf-8").read().replace("\\\n", "")
        bodies = []
        for line in text.splitlines():
            line = line.strip()
            if line.startswith("send "):
                bodies.append(line[5:].encode("utf-8"))
            elif line.startswith("send-file ") and not line.startswith("send-file gen-log"):
                _, name, template = line.split(" ", 2)
                full = os.path.join(os.path.dirname(path), name)
                if os.path.exists(full):
                    content = read(full).decode("utf-8", "surrogateescape")
                    bodies.append(template.replace('"$TEXT"', json.dumps(content)).encode("utf-8", "surrogateescape"))
        sessions.append(bodies)
    return sessions


def key_positions(text):
    out = []
    for number, line in enumerate(text.split("\n")):
        for m in re.finditer(r'"([A-Za-z0-9_]+)"', line):
            out.append((number, m.start(1) + 1))
    return out


def config_session(name, text):
    """An editing session on one config: open, features at key positions, an edit, more features."""
    uri = "file:///w/" + name
    language = "log" if name.endswith(".log") else "json"
    msgs = [{"jsonrpc": "2.0", "method": "textDocument/didOpen",
             "params": {"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}}}]
    rid = 10
    positions = key_positions(text)[:6]
    for line, character in positions:
        pos = {"line": line, "character": character}
        for method in ("textDocument/hover", "textDocument/completion"):
            msgs.append({"jsonrpc": "2.0", "id": rid, "method": method,
                         "params": {"textDocument": {"uri": uri}, "position": pos}})
            rid += 1
        msgs.append({"jsonrpc": "2.0", "id": rid, "method": "textDocument/codeAction",
                     "params": {"textDocument": {"uri": uri}, "range": {"start": pos, "end": pos},
                                "context": {"diagnostics": []}}})
        rid += 1
    if positions:
        line, character = positions[-1]
        msgs.append({"jsonrpc": "2.0", "method": "textDocument/didChange",
                     "params": {"textDocument": {"uri": uri, "version": 2},
                                "contentChanges": [{"range": {"start": {"line": line, "character": character},
                                                              "end": {"line": line, "character": character + 2}},
                                                    "text": "x\u00e9"}]}})
    for method in ("textDocument/inlayHint", "textDocument/documentSymbol", "textDocument/documentLink",
                   "textDocument/diagnostic"):
        params = {"textDocument": {"uri": uri}}
        if method == "textDocument/inlayHint":
            params["range"] = {"start": {"line": 0, "character": 0}, "end": {"line": 999, "character": 0}}
        msgs.append({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        rid += 1
    msgs.append({"jsonrpc": "2.0", "id": rid, "method": "textDocument/codeAction",
                 "params": {"textDocument": {"uri": uri},
                            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                            "context": {"diagnostics": [], "only": ["source.fixAll.dsls"]}}})
    msgs.append({"jsonrpc": "2.0", "id": rid + 1, "method": "$/cancelRequest", "params": {"id": rid}})
    msgs.append({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}})
    return [json.dumps(m).encode("utf-8") for m in msgs]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--corpus", default=os.environ.get("DSLS_CORPUS_DIR", os.path.join(ROOT, "..", "shared", "corpus")))
    args = ap.parse_args()
    seeds = Seeds(args.out)

    configs = {}
    corpus_dir = os.path.join(args.corpus, "configs")
    if os.path.isdir(corpus_dir):
        for path in sorted(glob.glob(os.path.join(corpus_dir, "*.json"))):
            configs[os.path.basename(path)] = read(path)
    else:
        print(f"make_seeds: NOTE: {corpus_dir} is absent; seeding from the repository's own files only",
              file=sys.stderr)
    for path in glob.glob(os.path.join(ROOT, "tests", "transcripts", "fixtures", "*.json")) + \
            [os.path.join(ROOT, "tests", "bench", "fixtures", "bench_ds_config.json")] + \
            glob.glob(os.path.join(ROOT, "examples", "*.json")):
        if os.path.exists(path):
            configs[os.path.basename(path)] = read(path)
    logs = {os.path.basename(p): read(p) for p in glob.glob(os.path.join(ROOT, "tests", "fixtures", "logs", "*.log"))}
    logs.update({os.path.basename(p): read(p) for p in glob.glob(os.path.join(ROOT, "tests", "transcripts",
                                                                                "fixtures", "*.log"))})

    for name, data in configs.items():
        seeds.add("fuzz_json", b"\x00" + data)
        seeds.add("fuzz_config", b"\x00\x05" + data)
        seeds.add("fuzz_config", b"\x8f\x02" + data)
        seeds.add("fuzz_positions", data[:3000] + b"\x00" + bytes(range(1, 40)))
    for name, data in logs.items():
        seeds.add("fuzz_logs", data[:65536])
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "fixtures", "python", "**", "*.py"), recursive=True)):
        seeds.add("fuzz_python", b"\x07" + read(path))
    shell_fixtures = glob.glob(os.path.join(ROOT, "tests", "fixtures", "shell", "**", "*.*"), recursive=True)
    shell_fixtures += glob.glob(os.path.join(ROOT, "tests", "transcripts", "fixtures", "*.sh"))
    shell_fixtures += glob.glob(os.path.join(ROOT, "tests", "fixtures", "repos", "**", "*.sh"), recursive=True)
    for path in sorted(p for p in shell_fixtures if not p.endswith(".md")):
        seeds.add("fuzz_shell", b"\x07" + read(path))
    yaml_fixtures = glob.glob(os.path.join(ROOT, "tests", "fixtures", "accelerate", "**", "*.yaml"), recursive=True)
    yaml_fixtures += glob.glob(os.path.join(ROOT, "tests", "fixtures", "repos", "**", "*.yaml"), recursive=True)
    for path in sorted(yaml_fixtures):
        seeds.add("fuzz_yaml", b"\x07" + read(path))
    seeds.add("fuzz_positions", "a\r\nb\u00e9\U0001F600\n\r\n\xff\xfe x\n".encode("utf-8", "surrogateescape") +
              b"\xc3\n\xed\xa0\x80\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a")
    seeds.add("fuzz_positions", b"\x00")

    sessions = transcript_sessions()
    for name, data in list(configs.items())[:12]:
        sessions.append(config_session(name, data.decode("utf-8", "replace")))
    for name, data in list(logs.items())[:3]:
        text = data[:20000].decode("utf-8", "replace")
        sessions.append(config_session(name, text))
    for bodies in sessions:
        if not bodies:
            continue
        seeds.add("fuzz_server", b"\n".join(bodies))
        stream = b"".join(frame(b) for b in bodies)
        seeds.add("fuzz_framing", b"\x05\x11\x02\x40\x07\x01\x03\x09" + stream)
        seeds.add("fuzz_server", b"R" + stream)
    seeds.add("fuzz_framing", b"\x01\x01\x01\x01\x01\x01\x01\x01Content-Length: 2\n\n{}content-length:3\r\n\r\n[1]")
    seeds.add("fuzz_framing", b"\x00" * 8 + b"Content-Type: x\r\nContent-Length: 99999999999\r\n\r\n{}")

    keys = set()
    for data in configs.values():
        keys.update(re.findall(rb'"([A-Za-z0-9_]{3,40})"\s*:', data))
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "config.dict"), "w") as f:
        for k in sorted(keys):
            f.write('"\\"%s\\""\n' % k.decode())
        for token in ('"auto"', "true", "false", "null", "1e9", "-0", "//", "/*", "*/", "#", ",}", "\\u0000"):
            f.write('"%s"\n' % token.replace("\\", "\\\\").replace('"', '\\"'))
    print("make_seeds: " + ", ".join(f"{t} {n}" for t, n in sorted(seeds.counts.items())), file=sys.stderr)


if __name__ == "__main__":
    main()
