#!/usr/bin/env python3
"""Local-only proof: dsls makes no network calls and writes no file it was not asked to.

Runs, each under `strace -f -e trace=network,openat,open,creat,rename,unlink` (plus the
*at variants glibc may use for the same calls):
  1. a full LSP session on a workspace with a ds_config, a training log, a pyproject.toml
     and a requirements.txt: every feature, an edit, a save, dsls.diagnoseText, shutdown, exit;
  2. `dsls check` on the same workspace (text and JSON reports);
  3. `dsls check --fix` on one config.
Asserts: no network system call at all (socket, connect, sendto, ...); no file opened for
writing, created, renamed or removed, except in run 3 the config --fix was given (and a
temporary file beside it that is renamed onto it).

Usage: local_only_test.py DSLS      (exit 77 = skipped: strace missing or not permitted)
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SYSCALLS = "trace=network,openat,open,creat,rename,unlink,renameat,renameat2,unlinkat,openat2"
WRITE_FLAGS = ("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND")
SKIP = 77


def frame(obj):
    body = json.dumps(obj).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def workspace():
    root = tempfile.mkdtemp(prefix="dsls-local-only-")
    with open(os.path.join(ROOT, "tests", "bench", "fixtures", "bench_ds_config.json")) as f:
        config = f.read()
    # The overlap_comm race and a trailing comma give --fix something to do.
    config = config.replace('"stage": 3', '"stage": 2').replace('"dump_state": false', '"dump_state": false,')
    with open(os.path.join(root, "ds_config.json"), "w") as f:
        f.write(config)
    with open(os.path.join(root, "train.log"), "w") as f:
        for i in range(2000):
            f.write(f"[rank{i % 4}]: {{'loss': 2.{i % 97:02d}, 'grad_norm': 1.{i % 89:02d}, 'epoch': 0.{i:04d}}}\n")
        f.write("[rank2]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
    with open(os.path.join(root, "pyproject.toml"), "w") as f:
        f.write('[project]\nname = "trainer"\n\n[tool.dsls]\n')
    with open(os.path.join(root, "requirements.txt"), "w") as f:
        f.write("deepspeed==0.14.2\ntorch==2.3.1\n")
    return root, config


def lsp_session(root, config):
    uri = "file://" + os.path.join(root, "ds_config.json")
    log_uri = "file://" + os.path.join(root, "train.log")
    with open(os.path.join(root, "train.log")) as f:
        log_text = f.read()
    pos = {"line": 1, "character": 6}
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": os.getpid(), "rootUri": "file://" + root,
            "workspaceFolders": [{"uri": "file://" + root, "name": "w"}],
            "capabilities": {"textDocument": {"diagnostic": {}, "documentSymbol": {
                "hierarchicalDocumentSymbolSupport": True}}}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "json", "version": 1, "text": config}}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": log_uri, "languageId": "log", "version": 1, "text": log_text}}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/diagnostic", "params": {"textDocument": {"uri": uri}}},
        {"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": {"textDocument": {"uri": uri},
                                                                             "position": pos}},
        {"jsonrpc": "2.0", "id": 4, "method": "textDocument/completion", "params": {"textDocument": {"uri": uri},
                                                                                  "position": pos}},
        {"jsonrpc": "2.0", "id": 5, "method": "textDocument/codeAction", "params": {
            "textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0},
                                                   "end": {"line": 120, "character": 0}},
            "context": {"diagnostics": []}}},
        {"jsonrpc": "2.0", "id": 6, "method": "textDocument/inlayHint", "params": {
            "textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0},
                                                   "end": {"line": 120, "character": 0}}}},
        {"jsonrpc": "2.0", "id": 7, "method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": uri}}},
        {"jsonrpc": "2.0", "id": 8, "method": "textDocument/documentLink", "params": {"textDocument": {"uri": uri}}},
        {"jsonrpc": "2.0", "id": 9, "method": "textDocument/diagnostic", "params": {"textDocument": {"uri": log_uri}}},
        {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}},
                                "text": "    \"steps_per_print\": 10,\n"}]}},
        {"jsonrpc": "2.0", "method": "textDocument/didSave", "params": {"textDocument": {"uri": uri}}},
        {"jsonrpc": "2.0", "id": 10, "method": "workspace/executeCommand", "params": {
            "command": "dsls.diagnoseText", "arguments": [{"text": log_text[-3000:]}]}},
        {"jsonrpc": "2.0", "id": 11, "method": "textDocument/diagnostic", "params": {"textDocument": {"uri": uri}}},
        {"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}},
        {"jsonrpc": "2.0", "id": 12, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    return b"".join(frame(m) for m in messages), 12


def traced(argv, trace_file, stdin=None, cwd=None):
    cmd = ["strace", "-f", "-qq", "-e", SYSCALLS, "-o", trace_file] + argv
    return subprocess.run(cmd, input=stdin, capture_output=True, cwd=cwd, timeout=120)


def violations(trace_file, allowed_writes):
    """Network calls and writes outside `allowed_writes` (absolute paths) found in a trace."""
    bad = []
    allowed = {os.path.realpath(p) for p in allowed_writes}
    allowed_dirs = {os.path.dirname(p) for p in allowed}
    temps = set()  # files created beside an allowed target, to be renamed onto it
    with open(trace_file, errors="replace") as f:
        lines = f.readlines()
    for line in lines:
        m = re.match(r"\s*(?:\[pid\s+)?\d*\]?\s*(\w+)\((.*)", line)
        if not m:
            continue
        call, rest = m.group(1), m.group(2)
        paths = re.findall(r'"((?:[^"\\]|\\.)*)"', rest)
        if call in ("socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "sendto", "sendmsg",
                    "sendmmsg", "recvfrom", "recvmsg", "getsockname", "getpeername", "setsockopt", "getsockopt",
                    "shutdown"):
            bad.append("network: " + line.strip())
            continue
        if call in ("open", "openat", "openat2", "creat"):
            if not paths:
                continue
            writing = call == "creat" or any(flag in rest for flag in WRITE_FLAGS)
            if not writing:
                continue
            path = os.path.realpath(paths[0])
            if path in allowed:
                continue
            if os.path.dirname(path) in allowed_dirs and "= -1" not in rest:
                temps.add(path)
                continue
            if "= -1" in rest:
                continue  # refused: nothing was written
            bad.append("write: " + line.strip())
        elif call in ("rename", "renameat", "renameat2"):
            if len(paths) >= 2 and os.path.realpath(paths[0]) in temps and os.path.realpath(paths[1]) in allowed:
                temps.discard(os.path.realpath(paths[0]))
                continue
            bad.append("rename: " + line.strip())
        elif call in ("unlink", "unlinkat"):
            if paths and os.path.realpath(paths[0]) in temps:
                temps.discard(os.path.realpath(paths[0]))
                continue
            bad.append("unlink: " + line.strip())
    bad += [f"left behind: {t} was created and neither renamed onto the target nor removed" for t in temps
            if os.path.exists(t)]
    return bad, len(lines)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    dsls = os.path.abspath(sys.argv[1])
    if not shutil.which("strace"):
        print("SKIP: strace is not installed (scripts/install-deps.sh test installs it)", file=sys.stderr)
        return SKIP
    probe = subprocess.run(["strace", "-qq", "-e", "trace=openat", "-o", os.devnull, "true"], capture_output=True)
    if probe.returncode != 0:
        print(f"SKIP: strace cannot trace here: {probe.stderr.decode()[:200]}", file=sys.stderr)
        return SKIP

    root, config = workspace()
    failures = []
    try:
        trace = os.path.join(tempfile.mkdtemp(prefix="dsls-trace-"), "trace")
        stdin, last_id = lsp_session(root, config)
        run = traced([dsls, "--log-level", "debug"], trace + ".lsp", stdin=stdin, cwd=root)
        replies = run.stdout.count(b'"id":')
        if run.returncode != 0 or b'"id":%d' % last_id not in run.stdout:
            failures.append(f"the LSP session did not end cleanly (exit {run.returncode}, {replies} replies): "
                            f"{run.stderr.decode()[-400:]}")
        bad, calls = violations(trace + ".lsp", [])
        failures += [f"LSP session: {b}" for b in bad]
        print(f"LSP session: {calls} traced calls, {replies} replies, {len(bad)} violations")

        for name, argv in (("check", [dsls, "check", root]),
                           ("check --format json", [dsls, "check", "--format", "json", root])):
            run = traced(argv, trace + ".check", cwd=root)
            if run.returncode not in (0, 1):
                failures.append(f"dsls {name} failed with exit {run.returncode}: {run.stderr.decode()[-400:]}")
            bad, calls = violations(trace + ".check", [])
            failures += [f"dsls {name}: {b}" for b in bad]
            print(f"dsls {name}: exit {run.returncode}, {calls} traced calls, {len(bad)} violations")

        target = os.path.join(root, "ds_config.json")
        before = open(target).read()
        run = traced([dsls, "check", "--fix", target], trace + ".fix", cwd=root)
        after = open(target).read()
        bad, calls = violations(trace + ".fix", [target])
        failures += [f"dsls check --fix: {b}" for b in bad]
        if run.returncode not in (0, 1):
            failures.append(f"dsls check --fix failed with exit {run.returncode}: {run.stderr.decode()[-400:]}")
        if after == before:
            failures.append("dsls check --fix changed nothing, so the allowed-write case was not exercised")
        if not re.search(rf'(?:open|openat|creat)\(.*{re.escape(root)}.*(?:O_WRONLY|O_RDWR|O_CREAT)',
                         open(trace + ".fix").read()):
            failures.append("the --fix trace shows no write at all: is strace seeing the calls?")
        print(f"dsls check --fix: exit {run.returncode}, {calls} traced calls, {len(bad)} violations, "
              f"{'changed' if after != before else 'unchanged'} {os.path.basename(target)}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
