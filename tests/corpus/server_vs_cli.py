#!/usr/bin/env python3
"""Every real ds_config of the corpus through the server and through `dsls check`:
the server must not crash and both must report the same findings (code, line, column).

The server session negotiates utf-32 so its columns count code points, as the CLI's do.
Usage: server_vs_cli.py DSLS_BINARY CORPUS_DIR
"""
import json
import os
import select
import subprocess
import sys
import time


def frame(obj):
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def server_findings(binary, files):
    proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    buf = b""

    def read_until(pred, timeout=30):
        nonlocal buf
        deadline = time.time() + timeout
        while True:
            while b"\r\n\r\n" in buf:
                head, _, rest = buf.partition(b"\r\n\r\n")
                n = int(head.split(b":")[1])
                if len(rest) < n:
                    break
                msg = json.loads(rest[:n])
                buf = rest[n:]
                if pred(msg):
                    return msg
            r, _, _ = select.select([proc.stdout], [], [], max(0, deadline - time.time()))
            chunk = os.read(proc.stdout.fileno(), 1 << 16) if r else b""
            if not chunk:
                raise RuntimeError("the server stopped answering (crash or hang)")
            buf += chunk

    proc.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                            "params": {"capabilities": {"general": {"positionEncodings": ["utf-32"]}}}}))
    proc.stdin.flush()
    init = read_until(lambda m: m.get("id") == 1)
    assert init["result"]["capabilities"]["positionEncoding"] == "utf-32", init
    found = {}
    for path in files:
        uri = "file://" + path
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", "replace")
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}}))
        proc.stdin.flush()
        msg = read_until(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)
        found[path] = sorted((d["code"], d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1)
                             for d in msg["params"]["diagnostics"])
    proc.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
    proc.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
    proc.stdin.flush()
    if proc.wait(timeout=10) != 0:
        raise RuntimeError("the server did not exit cleanly")
    return found


def cli_findings(binary, files):
    out = subprocess.run([binary, "check", "--format", "json", "--fail-on", "error", "--min-severity", "hint"] + files,
                         capture_output=True, text=True, timeout=120)
    if out.returncode not in (0, 1):
        raise RuntimeError(f"dsls check failed ({out.returncode}): {out.stderr[-2000:]}")
    report = json.loads(out.stdout)
    found = {path: [] for path in files}
    for f in report["files"]:
        found[os.path.abspath(f["path"])] = sorted(
            (x["code"], x["range"]["start"]["line"], x["range"]["start"]["column"]) for x in f["findings"])
    return found


def main():
    binary, corpus = sys.argv[1], os.path.join(sys.argv[2], "configs")
    if not os.path.isdir(corpus):
        print(f"*** SKIPPED: corpus not found at {corpus} ***", file=sys.stderr)
        return 77
    files = sorted(os.path.abspath(os.path.join(corpus, f)) for f in os.listdir(corpus) if f.endswith(".json"))
    if not files:
        print(f"FAIL: no .json files in {corpus}", file=sys.stderr)
        return 1
    server = server_findings(binary, files)
    cli = cli_findings(binary, files)
    differences = [f for f in files if server[f] != cli[f]]
    for f in differences:
        print(f"DIFFERENT {os.path.basename(f)}\n  server: {server[f]}\n  cli:    {cli[f]}", file=sys.stderr)
    total = sum(len(v) for v in server.values())
    print(f"{len(files)} corpus files, {total} findings; {len(differences)} differ")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
