#!/usr/bin/env python3
"""Runs one LSP session (initialize, initialized, shutdown, exit) against a server command and
prints its exit status, then the serverInfo of the initialize reply as JSON.

Usage: lsp_session.py CMD...   (e.g. chroot ROOT /dsls --stdio)
"""
import json
import subprocess
import sys


def frame(obj):
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def main():
    session = (frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                      "params": {"processId": None, "rootUri": None, "capabilities": {}}})
               + frame({"jsonrpc": "2.0", "method": "initialized", "params": {}})
               + frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
               + frame({"jsonrpc": "2.0", "method": "exit"}))
    done = subprocess.run(sys.argv[1:], input=session, capture_output=True, timeout=30)
    header, _, rest = done.stdout.partition(b"\r\n\r\n")
    length = int(header.split(b":")[1]) if header else 0
    reply = json.loads(rest[:length]) if length else {}
    print(done.returncode)
    print(json.dumps(reply.get("result", {}).get("serverInfo")))


if __name__ == "__main__":
    main()
